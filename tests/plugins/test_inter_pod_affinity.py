"""InterPodAffinity, with the cases and numbers of upstream's
`pkg/scheduler/framework/plugins/interpodaffinity/filtering_test.go` (TestRequiredAffinitySingleNode,
TestRequiredAffinityMultipleNodes) and `scoring_test.go` (TestPreferredAffinity,
TestPreferredAffinityWithHardPodAffinitySymmetricWeight). Upstream's default namespace ""
is "default" here; cases about label-syntax validation errors are left out (the loader rejects
such input).
"""
import numpy as np
import pytest

from builders import make_node, make_pod, make_state, node_statuses
from podgroup_plan.config.args import InterPodAffinityArgs
from podgroup_plan.framework.interface import CycleState, Handle
from podgroup_plan.model.objects import Affinity, PodAffinityTerm, WeightedPodAffinityTerm
from podgroup_plan.model.selectors import LabelSelector, LabelSelectorRequirement
from podgroup_plan.plugins.inter_pod_affinity import (
    ERR_REASON_AFFINITY_RULES_NOT_MATCH,
    ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH,
    ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH,
    InterPodAffinity,
    matches_all_required_affinity_terms,
)

HOST = "kubernetes.io/hostname"
NAMESPACES = {
    "subteam1.team1": {"team": "team1"},
    "subteam2.team1": {"team": "team1"},
    "subteam1.team2": {"team": "team2"},
    "subteam2.team2": {"team": "team2"},
}
AFF = ("UnschedulableAndUnresolvable", (ERR_REASON_AFFINITY_RULES_NOT_MATCH,))
ANTI = ("Unschedulable", (ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH,))
EXIST = ("Unschedulable", (ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH,))


def R(key, op, *values):
    return LabelSelectorRequirement(key, op, tuple(values))


def term(*reqs, topo="", namespaces=(), ns_selector=None, match_keys=(), mismatch_keys=()):
    return PodAffinityTerm(LabelSelector(match_expressions=tuple(reqs)), topo, tuple(namespaces), ns_selector,
                           tuple(match_keys), tuple(mismatch_keys))


def In(key, values, topo):
    return term(R(key, "In", *values), topo=topo)


def NotIn(key, values, topo):
    return term(R(key, "NotIn", *values), topo=topo)


def Exists(key, topo):
    return term(R(key, "Exists"), topo=topo)


def aff(required=(), anti=(), preferred=(), preferred_anti=()):
    return Affinity(pod_affinity_required=tuple(required), pod_anti_affinity_required=tuple(anti),
                    pod_affinity_preferred=tuple(preferred), pod_anti_affinity_preferred=tuple(preferred_anti))


def W(weight, t):
    return WeightedPodAffinityTerm(weight, t)


def pod(name="p", labels=None, node=None, ns="default", affinity=None):
    return make_pod(name, ns, labels=labels or {}, node_name=node, affinity=affinity)


TEAM1 = LabelSelector(match_expressions=(R("team", "In", "team1"),))
POD_LABEL = {"service": "securityscan"}
POD_LABEL2 = {"security": "S1"}
NODE1 = make_node("node1", labels={"region": "r1", "zone": "z11"})
EXISTING = pod("existing", POD_LABEL, "node1")


def run_filter(incoming, nodes, existing, namespaces=NAMESPACES):
    state = make_state(nodes, existing)
    pl = InterPodAffinity(InterPodAffinityArgs(), Handle(namespace_labels=namespaces))
    cs = CycleState()
    result = pl.pre_filter(cs, incoming, state, state.all_nodes)
    if result.status.is_skip():
        return "skip"
    statuses = node_statuses(pl.filter(cs, incoming, state, state.all_nodes), state)
    return [statuses[name] for name in state.node_names]


SINGLE_NODE = [
    pytest.param(pod(), [], "skip",
                 id="A pod that has no required pod affinity scheduling rules can schedule onto a node with no existing pods"),
    pytest.param(pod(labels=POD_LABEL2, affinity=aff([In("service", ["securityscan", "value2"], "region")])),
                 [EXISTING], [None],
                 id="satisfies with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using In operator "
                    "that matches the existing pod"),
    pytest.param(pod(labels=POD_LABEL2, affinity=aff([NotIn("service", ["securityscan3", "value3"], "region")])),
                 [EXISTING], [None],
                 id="satisfies the pod with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using not in "
                    "operator in labelSelector that matches the existing pod"),
    pytest.param(pod(labels=POD_LABEL2, affinity=aff([term(R("service", "In", "securityscan", "value2"),
                                                            namespaces=["DiffNameSpace"])])),
                 [pod("existing", POD_LABEL, "node1", ns="ns")], [AFF],
                 id="Does not satisfy the PodAffinity with labelSelector because of diff Namespace"),
    pytest.param(pod(labels=POD_LABEL, affinity=aff([In("service", ["antivirusscan", "value2"], "")])),
                 [EXISTING], [AFF],
                 id="Doesn't satisfy the PodAffinity because of unmatching labelSelector with the existing pod"),
    pytest.param(pod(labels=POD_LABEL2, affinity=aff([
        term(R("service", "Exists"), R("wrongkey", "DoesNotExist"), topo="region"),
        term(R("service", "In", "securityscan"), R("service", "NotIn", "WrongValue"), topo="region")])),
        [EXISTING], [None],
        id="satisfies the PodAffinity with different label Operators in multiple RequiredDuringSchedulingIgnoredDuringExecution"),
    pytest.param(pod(labels=POD_LABEL2, affinity=aff([
        term(R("service", "Exists"), R("wrongkey", "DoesNotExist"), topo="region"),
        term(R("service", "In", "securityscan2"), R("service", "NotIn", "WrongValue"), topo="region")])),
        [EXISTING], [AFF],
        id="The labelSelector requirements(items of matchExpressions) are ANDed, the pod cannot schedule onto the "
           "node because one of the matchExpression item don't match."),
    pytest.param(pod(labels=POD_LABEL2, affinity=aff([In("service", ["securityscan", "value2"], "region")],
                                                     [In("service", ["antivirusscan", "value2"], "node")])),
                 [EXISTING], [None], id="satisfies the PodAffinity and PodAntiAffinity with the existing pod"),
    pytest.param(pod(labels=POD_LABEL2, affinity=aff([In("service", ["securityscan", "value2"], "region")],
                                                     [In("service", ["antivirusscan", "value2"], "node")])),
                 [pod("existing", POD_LABEL, "node1", affinity=aff(anti=[In("service", ["antivirusscan", "value2"], "node")]))],
                 [None], id="satisfies the PodAffinity and PodAntiAffinity and PodAntiAffinity symmetry with the existing pod"),
    pytest.param(pod(labels=POD_LABEL2, affinity=aff([In("service", ["securityscan", "value2"], "region")],
                                                     [In("service", ["securityscan", "value2"], "zone")])),
                 [EXISTING], [ANTI],
                 id="satisfies the PodAffinity but doesn't satisfy the PodAntiAffinity with the existing pod"),
    pytest.param(pod(labels=POD_LABEL, affinity=aff([In("service", ["securityscan", "value2"], "region")],
                                                    [In("service", ["antivirusscan", "value2"], "node")])),
                 [pod("existing", POD_LABEL, "node1", affinity=aff(anti=[In("service", ["securityscan", "value2"], "zone")]))],
                 [EXIST],
                 id="satisfies the PodAffinity and PodAntiAffinity but doesn't satisfy PodAntiAffinity symmetry with the existing pod"),
    pytest.param(pod(labels=POD_LABEL, affinity=aff([NotIn("service", ["securityscan", "value2"], "region")])),
                 [pod("existing", {"service": "securityscan"}, "node2")], [AFF],
                 id="pod matches its own Label in PodAffinity and that matches the existing pod Labels"),
    pytest.param(pod(labels=POD_LABEL),
                 [pod("existing", POD_LABEL, "node1", affinity=aff(anti=[In("service", ["securityscan", "value2"], "zone")]))],
                 [EXIST],
                 id="verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. "
                    "doesn't satisfy PodAntiAffinity symmetry with the existing pod"),
    pytest.param(pod(labels=POD_LABEL),
                 [pod("existing", POD_LABEL, "node1", affinity=aff(anti=[NotIn("service", ["securityscan", "value2"], "zone")]))],
                 "skip",
                 id="verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. "
                    "satisfy PodAntiAffinity symmetry with the existing pod"),
    pytest.param(pod(labels=POD_LABEL, affinity=aff(anti=[Exists("service", "region"), Exists("security", "region")])),
                 [pod("existing", POD_LABEL2, "node1", affinity=aff(anti=[Exists("security", "zone")]))], [ANTI],
                 id="satisfies the PodAntiAffinity with existing pod but doesn't satisfy PodAntiAffinity symmetry with incoming pod"),
    pytest.param(pod(labels=POD_LABEL, affinity=aff(anti=[Exists("service", "zone"), Exists("security", "zone")])),
                 [pod("existing", POD_LABEL2, "node1", affinity=aff(anti=[Exists("security", "zone")]))], [ANTI],
                 id="PodAntiAffinity symmetry check a1: incoming pod and existing pod partially match each other on AffinityTerms"),
    pytest.param(pod(labels=POD_LABEL2, affinity=aff(anti=[Exists("security", "zone")])),
                 [pod("existing", POD_LABEL, "node1", affinity=aff(anti=[Exists("service", "zone"), Exists("security", "zone")]))],
                 [EXIST],
                 id="PodAntiAffinity symmetry check a2: incoming pod and existing pod partially match each other on AffinityTerms"),
    pytest.param(pod(labels={"abc": "", "xyz": ""}, affinity=aff(anti=[Exists("abc", "zone"), Exists("def", "zone")])),
                 [pod("existing", {"def": "", "xyz": ""}, "node1",
                      affinity=aff(anti=[Exists("abc", "zone"), Exists("def", "zone")]))], [ANTI],
                 id="PodAntiAffinity symmetry check b1: incoming pod and existing pod partially match each other on AffinityTerms"),
    pytest.param(pod(labels={"def": "", "xyz": ""}, affinity=aff(anti=[Exists("abc", "zone"), Exists("def", "zone")])),
                 [pod("existing", {"abc": "", "xyz": ""}, "node1",
                      affinity=aff(anti=[Exists("abc", "zone"), Exists("def", "zone")]))], [ANTI],
                 id="PodAntiAffinity symmetry check b2: incoming pod and existing pod partially match each other on AffinityTerms"),
    pytest.param(pod(labels=POD_LABEL2, affinity=aff([term(R("service", "In", "securityscan", "value2"),
                                                            ns_selector=TEAM1, topo="region")])),
                 [pod("existing", POD_LABEL, "node1", ns="subteam1.team1")], [None], id="affinity with NamespaceSelector"),
    pytest.param(pod(labels=POD_LABEL2, affinity=aff([term(R("service", "In", "securityscan", "value2"),
                                                            ns_selector=TEAM1, topo="region")])),
                 [pod("existing", POD_LABEL, "node1", ns="subteam1.team2")], [AFF],
                 id="affinity with non-matching NamespaceSelector"),
    pytest.param(pod(labels=POD_LABEL2, ns="subteam1.team1",
                     affinity=aff(anti=[term(R("service", "In", "securityscan", "value2"), ns_selector=TEAM1, topo="zone")])),
                 [pod("existing", POD_LABEL, "node1", ns="subteam2.team1")], [ANTI],
                 id="anti-affinity with matching NamespaceSelector"),
    pytest.param(pod(labels=POD_LABEL2, ns="subteam1.team1",
                     affinity=aff(anti=[term(R("service", "In", "securityscan", "value2"), ns_selector=LabelSelector(),
                                             topo="zone")])),
                 [pod("existing", POD_LABEL, "node1", ns="subteam2.team1")], [ANTI],
                 id="anti-affinity with matching all NamespaceSelector"),
    pytest.param(pod(labels=POD_LABEL2, ns="subteam1.team1",
                     affinity=aff(anti=[term(R("service", "In", "securityscan", "value2"), ns_selector=TEAM1, topo="zone")])),
                 [pod("existing", POD_LABEL, "node1", ns="subteam1.team2")], [None],
                 id="anti-affinity with non-matching NamespaceSelector"),
]


@pytest.mark.parametrize("incoming, existing, want", SINGLE_NODE)
def test_required_affinity_single_node(incoming, existing, want):
    assert run_filter(incoming, [NODE1], existing) == want


RG_CHINA = {"region": "China"}
RG_CHINA_AZ1 = {"region": "China", "az": "az1"}
RG_INDIA = {"region": "India"}


def nodes(*specs):
    return [make_node(name, labels=labels) for name, labels in specs]


ABC_REGIONS = nodes(("nodeA", RG_CHINA), ("nodeB", RG_CHINA_AZ1), ("nodeC", RG_INDIA))
AB_Z1 = nodes(("nodeA", {"region": "r1", "zone": "z1", "hostname": "nodeA"}),
              ("nodeB", {"region": "r1", "zone": "z1", "hostname": "nodeB"}))
AB_Z12 = nodes(("nodeA", {"region": "r1", "zone": "z1", "hostname": "nodeA"}),
               ("nodeB", {"region": "r1", "zone": "z2", "hostname": "nodeB"}))

MULTIPLE_NODES = [
    pytest.param(pod(affinity=aff([In("foo", ["bar"], "region")])),
                 [pod("p1", {"foo": "bar"}, "node1")],
                 nodes(("node1", RG_CHINA), ("node2", RG_CHINA_AZ1), ("node3", RG_INDIA)), [None, None, AFF],
                 id="A pod can be scheduled onto all the nodes that have the same topology key & label value with one "
                    "of them has an existing pod that matches the affinity rules"),
    pytest.param(pod(labels={"foo": "bar", "service": "securityscan"},
                     affinity=aff([In("foo", ["bar"], "zone"), In("service", ["securityscan"], "zone")])),
                 [pod("p1", {"foo": "bar"}, "nodeA")],
                 nodes(("nodeA", {"zone": "az1", "hostname": "h1"}), ("nodeB", {"zone": "az2", "hostname": "h2"})),
                 [None, None],
                 id="The affinity rule is to schedule all of the pods of this collection to the same zone. The first pod "
                    "of the collection should not be blocked from being scheduled onto any node, even there's no "
                    "existing pod that matches the rule anywhere."),
    pytest.param(pod(labels={"foo": "bar", "service": "securityscan"},
                     affinity=aff([In("foo", ["bar"], "zone"), In("service", ["securityscan"], "zone")])),
                 [pod("p1", {"foo": "bar"}, "nodeA")],
                 nodes(("nodeA", {"zoneLabel": "az1", "hostname": "h1"}), ("nodeB", {"zoneLabel": "az2", "hostname": "h2"})),
                 [AFF, AFF],
                 id="The first pod of the collection can only be scheduled on nodes labelled with the requested topology keys"),
    pytest.param(pod(affinity=aff(anti=[In("foo", ["abc"], "region")])), [pod("p1", {"foo": "abc"}, "nodeA")],
                 nodes(("nodeA", {"region": "r1", "hostname": "nodeA"}), ("nodeB", {"region": "r1", "hostname": "nodeB"})),
                 [ANTI, ANTI],
                 id="NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the "
                    "inter pod affinity rule. The pod can not be scheduled onto nodeA and nodeB."),
    pytest.param(pod(affinity=aff(anti=[In("foo", ["abc"], "region"), In("service", ["securityscan"], "zone")])),
                 [pod("p1", {"foo": "abc", "service": "securityscan"}, "nodeA")],
                 nodes(("nodeA", {"region": "r1", "zone": "z1", "hostname": "nodeA"}),
                       ("nodeB", {"region": "r1", "zone": "z2", "hostname": "nodeB"})),
                 [ANTI, ANTI],
                 id="This test ensures that anti-affinity matches a pod when any term of the anti-affinity rule matches a pod."),
    pytest.param(pod(affinity=aff(anti=[In("foo", ["abc"], "region")])), [pod("p1", {"foo": "abc"}, "nodeA")],
                 ABC_REGIONS, [ANTI, ANTI, None],
                 id="NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the "
                    "inter pod affinity rule. The pod can not be scheduled onto nodeA and nodeB but can be scheduled onto nodeC"),
    pytest.param(pod(labels={"foo": "123"}, ns="NS1", affinity=aff(anti=[In("foo", ["bar"], "region")])),
                 [pod("p1", {"foo": "bar"}, "nodeA", ns="NS1"),
                  pod("p2", {}, "nodeC", ns="NS2", affinity=aff(anti=[In("foo", ["123"], "region")]))],
                 ABC_REGIONS, [ANTI, ANTI, None],
                 id="NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the "
                    "inter pod affinity rule. The pod can not be scheduled onto nodeA, nodeB, but can be scheduled onto "
                    "nodeC (NodeC has an existing pod that match the inter pod affinity rule but in different namespace)"),
    pytest.param(pod(labels={"foo": ""}),
                 [pod("p1", {}, "nodeA", affinity=aff(anti=[Exists("foo", "invalid-node-label")]))], AB_Z1, "skip",
                 id="Test existing pod's anti-affinity: if an existing pod has a term with invalid topologyKey, "
                    "labelSelector of the term is firstly checked, and then topologyKey of the term is also checked"),
    pytest.param(pod(affinity=aff(anti=[Exists("foo", "invalid-node-label")])), [pod("p1", {"foo": ""}, "nodeA")],
                 AB_Z1, [None, None],
                 id="Test incoming pod's anti-affinity: even if labelSelector matches, we still check if topologyKey matches"),
    pytest.param(pod(labels={"foo": "", "bar": ""}),
                 [pod("p1", {}, "nodeA", affinity=aff(anti=[Exists("foo", "zone")])),
                  pod("p2", {}, "nodeA", affinity=aff(anti=[Exists("bar", "region")]))],
                 AB_Z12, [EXIST, EXIST],
                 id="Test existing pod's anti-affinity: incoming pod wouldn't considered as a fit as it violates each "
                    "existingPod's terms on all nodes"),
    pytest.param(pod(affinity=aff(anti=[Exists("foo", "zone"), Exists("bar", "region")])),
                 [pod("p1", {"foo": ""}, "nodeA"), pod("p2", {"bar": ""}, "nodeB")], AB_Z12, [ANTI, ANTI],
                 id="Test incoming pod's anti-affinity: incoming pod wouldn't considered as a fit as it at least "
                    "violates one anti-affinity rule of existingPod"),
    pytest.param(pod(labels={"foo": "", "bar": ""}),
                 [pod("p1", {}, "nodeA", affinity=aff(anti=[Exists("foo", "invalid-node-label"), Exists("bar", "zone")]))],
                 AB_Z12, [EXIST, None],
                 id="Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted "
                    "as a single term match - case when one term has invalid topologyKey"),
    pytest.param(pod(affinity=aff(anti=[Exists("foo", "invalid-node-label"), Exists("bar", "zone")])),
                 [pod("podA", {"foo": "", "bar": ""}, "nodeA")], AB_Z12, [ANTI, None],
                 id="Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted "
                    "as a single term match - case when one term has invalid topologyKey"),
    pytest.param(pod(labels={"foo": "", "bar": ""}),
                 [pod("p1", {}, "nodeA", affinity=aff(anti=[Exists("foo", "region"), Exists("bar", "zone")]))],
                 AB_Z12, [EXIST, EXIST],
                 id="Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted "
                    "as a single term match - case when all terms have valid topologyKey"),
    pytest.param(pod(affinity=aff(anti=[Exists("foo", "region"), Exists("bar", "zone")])),
                 [pod("p1", {"foo": "", "bar": ""}, "nodeA")], AB_Z12, [ANTI, ANTI],
                 id="Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted "
                    "as a single term match - case when all terms have valid topologyKey"),
    pytest.param(pod(labels={"foo": "", "bar": ""}),
                 [pod("p1", {}, "nodeA", affinity=aff(anti=[Exists("foo", "zone"), Exists("labelA", "zone")])),
                  pod("p2", {}, "nodeB", affinity=aff(anti=[Exists("bar", "zone"), Exists("labelB", "zone")]))],
                 AB_Z12 + nodes(("nodeC", {"region": "r1", "zone": "z3", "hostname": "nodeC"})), [EXIST, EXIST, None],
                 id="Test existing pod's anti-affinity: existingPod on nodeA and nodeB has at least one anti-affinity "
                    "term matches incoming pod, so incoming pod can only be scheduled to nodeC"),
    pytest.param(pod(affinity=aff([Exists("foo", "region"), Exists("bar", "zone")])),
                 [pod("pod1", {"foo": "", "bar": ""}, "nodeA")], AB_Z1, [None, None],
                 id="Test incoming pod's affinity: firstly check if all affinityTerms match, and then check if all "
                    "topologyKeys match"),
    pytest.param(pod(affinity=aff([Exists("foo", "region"), Exists("bar", "zone")])),
                 [pod("pod1", {"foo": ""}, "nodeA"), pod("pod2", {"bar": ""}, "nodeB")], AB_Z12, [AFF, AFF],
                 id="Test incoming pod's affinity: firstly check if all affinityTerms match, and then check if all "
                    "topologyKeys match, and the match logic should be satisfied on the same pod"),
]


@pytest.mark.parametrize("incoming, existing, node_list, want", MULTIPLE_NODES)
def test_required_affinity_multiple_nodes(incoming, existing, node_list, want):
    assert run_filter(incoming, node_list, existing) == want


def test_reason_strings():
    assert ERR_REASON_AFFINITY_RULES_NOT_MATCH == "node(s) didn't match pod affinity rules"
    assert ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH == "node(s) didn't match pod anti-affinity rules"
    assert ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH == "node(s) didn't satisfy existing pods anti-affinity rules"


def test_match_label_keys_and_mismatch_label_keys():
    """matchLabelKeys adds `key In (own value)`, mismatchLabelKeys `key NotIn (own value)`, as the
    API server merges them at pod creation."""
    ns = nodes(("n1", {HOST: "n1"}), ("n2", {HOST: "n2"}), ("n3", {HOST: "n3"}))
    existing = [pod("v1", {"app": "web", "version": "v1"}, "n1"), pod("v2", {"app": "web", "version": "v2"}, "n2")]
    anti_same_version = pod(labels={"app": "web", "version": "v1"},
                            affinity=aff(anti=[term(R("app", "Exists"), topo=HOST, match_keys=["version"])]))
    assert run_filter(anti_same_version, ns, existing) == [ANTI, None, None]
    with_other_version = pod(labels={"app": "web", "version": "v1"},
                             affinity=aff([term(R("app", "Exists"), topo=HOST, mismatch_keys=["version"])]))
    assert run_filter(with_other_version, ns, existing) == [AFF, None, AFF]
    # A key the pod does not have is ignored.
    no_key = pod(labels={"app": "web"}, affinity=aff(anti=[term(R("app", "Exists"), topo=HOST, match_keys=["version"])]))
    assert run_filter(no_key, ns, existing) == [ANTI, ANTI, None]
    # Existing pods' terms are merged with the existing pod's own labels.
    existing_anti = [pod("e", {"app": "db", "version": "v1"}, "n1",
                         affinity=aff(anti=[term(R("app", "Exists"), topo=HOST, match_keys=["version"])]))]
    assert run_filter(pod(labels={"app": "web", "version": "v1"}), ns, existing_anti) == [EXIST, None, None]
    assert run_filter(pod(labels={"app": "web", "version": "v2"}), ns, existing_anti) == "skip"


def test_filter_follows_assume_and_rollback_on_a_view():
    """One pod per host (self anti-affinity): each assume closes a node for the next pod."""
    ns = nodes(("n1", {HOST: "n1"}), ("n2", {HOST: "n2"}), ("n3", {HOST: "n3"}))
    state = make_state(ns, [])
    pl = InterPodAffinity(InterPodAffinityArgs(), Handle())
    a = aff(anti=[In("app", ["x"], HOST)])
    view = np.array([0, 2])

    def passed(p):
        cs = CycleState()
        pl.pre_filter(cs, p, state, view)
        return pl.filter(cs, p, state, view).passed.tolist()

    assert passed(pod("p0", {"app": "x"}, affinity=a)) == [True, True]
    with state.tentative():
        state.assume(pod("p1", {"app": "x"}, affinity=a), 0)
        assert passed(pod("p2", {"app": "x"}, affinity=a)) == [False, True]
        # a pod without anti-affinity of its own is still kept off by the placed pod's term
        assert passed(pod("p3", {"app": "x"})) == [False, True]
    assert passed(pod("p4", {"app": "x"}, affinity=a)) == [True, True]


# ------------------------------------------------------------------------------------------
# Scoring
# ------------------------------------------------------------------------------------------

S1, S2 = {"security": "S1"}, {"security": "S2"}
AZ1, AZ2 = {"az": "az1"}, {"az": "az2"}
STAY_S1_REGION = aff(preferred=[W(5, In("security", ["S1"], "region"))])
STAY_S2_REGION = aff(preferred=[W(6, In("security", ["S2"], "region"))])
AFFINITY3 = aff(preferred=[
    W(8, term(R("security", "NotIn", "S1"), R("security", "In", "S2"), topo="region")),
    W(2, term(R("security", "Exists"), R("wrongkey", "DoesNotExist"), topo="region")),
])
HARD_AFFINITY = aff([term(R("security", "In", "S1", "value2"), topo="region"),
                     term(R("security", "Exists"), R("wrongkey", "DoesNotExist"), topo="region")])
AWAY_S1_AZ = aff(preferred_anti=[W(5, In("security", ["S1"], "az"))])
AWAY_S2_AZ = aff(preferred_anti=[W(5, In("security", ["S2"], "az"))])
STAY_S1_AWAY_S2 = aff(preferred=[W(8, In("security", ["S1"], "region"))],
                      preferred_anti=[W(5, In("security", ["S2"], "az"))])
NS_SELECTOR_TERM = term(R("security", "In", "S1"), topo="region", namespaces=["subteam2.team2"], ns_selector=TEAM1)
AFFINITY_NS_SELECTOR = aff(preferred=[W(5, NS_SELECTOR_TERM)])
ANTI_AFFINITY_NS_SELECTOR = aff(preferred_anti=[W(5, NS_SELECTOR_TERM)])


def run_score(incoming, existing, node_list, args=None):
    state = make_state(node_list, existing)
    pl = InterPodAffinity(args or InterPodAffinityArgs(hard_pod_affinity_weight=1),
                          Handle(namespace_labels=NAMESPACES))
    feasible = state.all_nodes
    cs = CycleState()
    status = pl.pre_score(cs, incoming, state, feasible)
    if status.is_skip():
        return "skip"
    raw = pl.score(cs, incoming, state, feasible)
    assert raw.dtype == np.int64
    return pl.normalize(cs, incoming, raw).tolist()


def N3(*labels):
    return nodes(*((f"node{i + 1}", lb) for i, lb in enumerate(labels)))


PREFERRED = [
    pytest.param(pod(labels=S1), [], N3(RG_CHINA, RG_INDIA, AZ1), None, "skip",
                 id="all nodes are same priority as Affinity is nil"),
    pytest.param(pod(labels=S1, affinity=STAY_S1_REGION),
                 [pod("e1", S1, "node1"), pod("e2", S2, "node2"), pod("e3", S1, "node3")],
                 N3(RG_CHINA, RG_INDIA, AZ1), None, [100, 0, 0],
                 id="Affinity: pod that matches topology key & pods in nodes will get high score comparing to others"
                    "which doesn't match either pods in nodes or in topology key"),
    pytest.param(pod(affinity=STAY_S1_REGION), [pod("e1", S1, "node1")], N3(RG_CHINA, RG_CHINA_AZ1, RG_INDIA), None,
                 [100, 100, 0],
                 id="All the nodes that have the same topology key & label value with one of them has an existing pod "
                    "that match the affinity rules, have the same score"),
    pytest.param(pod(labels=S1, affinity=STAY_S2_REGION),
                 [pod(f"e{i}", S2, f"node{n}") for i, n in enumerate((1, 1, 2, 3, 4, 5))],
                 N3(RG_CHINA, RG_INDIA, RG_CHINA, RG_CHINA, RG_INDIA), None, [100, 0, 100, 100, 0],
                 id="Affinity: nodes in one region has more matching pods comparing to other region, so the region "
                    "which has more matches will get high score"),
    pytest.param(pod(labels=S1, affinity=AFFINITY3),
                 [pod("e1", S1, "node1"), pod("e2", S2, "node2"), pod("e3", S1, "node3")],
                 N3(RG_CHINA, RG_INDIA, AZ1), None, [20, 100, 0],
                 id="Affinity: different Label operators and values for pod affinity scheduling preference, including "
                    "some match failures "),
    pytest.param(pod(labels=S2), [pod("e1", S1, "node1", affinity=STAY_S1_REGION), pod("e2", S2, "node2", affinity=STAY_S2_REGION)],
                 N3(RG_CHINA, RG_INDIA, AZ1), None, [0, 100, 0],
                 id="Affinity symmetry: considered only the preferredDuringSchedulingIgnoredDuringExecution in pod "
                    "affinity symmetry"),
    pytest.param(pod(labels=S1, ns="subteam1.team1"),
                 [pod("e1", S1, "node1", affinity=AFFINITY_NS_SELECTOR), pod("e2", S2, "node2", affinity=STAY_S2_REGION)],
                 N3(RG_CHINA, RG_INDIA, AZ1), None, [100, 0, 0], id="Affinity symmetry with namespace selector"),
    pytest.param(pod(labels=S1, ns="subteam1.team1"),
                 [pod("e1", S1, "node1", affinity=ANTI_AFFINITY_NS_SELECTOR), pod("e2", S2, "node2", affinity=STAY_S2_REGION)],
                 N3(RG_CHINA, RG_INDIA, AZ1), None, [0, 100, 100], id="AntiAffinity symmetry with namespace selector"),
    pytest.param(pod(labels=S1), [pod("e1", S1, "node1", affinity=HARD_AFFINITY), pod("e2", S2, "node2", affinity=HARD_AFFINITY)],
                 N3(RG_CHINA, RG_INDIA, AZ1), None, [100, 100, 0],
                 id="Affinity symmetry: considered RequiredDuringSchedulingIgnoredDuringExecution in pod affinity symmetry"),
    pytest.param(pod(labels=S1, affinity=AWAY_S1_AZ), [pod("e1", S1, "node1"), pod("e2", S2, "node2")],
                 N3(AZ1, RG_CHINA), None, [0, 100], id="Anti Affinity: pod that does not match existing pods in node will get high score "),
    pytest.param(pod(labels=S1, affinity=AWAY_S1_AZ), [pod("e1", S1, "node1"), pod("e2", S1, "node2")],
                 N3(AZ1, RG_CHINA), None, [0, 100],
                 id="Anti Affinity: pod that does not match topology key & match the pods in nodes will get higher score "
                    "comparing to others "),
    pytest.param(pod(labels=S1, affinity=AWAY_S1_AZ), [pod("e1", S1, "node1"), pod("e2", S1, "node1"), pod("e3", S2, "node2")],
                 N3(AZ1, RG_INDIA), None, [0, 100],
                 id="Anti Affinity: one node has more matching pods comparing to other node, so the node which has more "
                    "unmatches will get high score"),
    pytest.param(pod(labels=S2), [pod("e1", S1, "node1", affinity=AWAY_S2_AZ), pod("e2", S2, "node2", affinity=AWAY_S1_AZ)],
                 N3(AZ1, AZ2), None, [0, 100],
                 id="Anti Affinity symmetry: the existing pods in node which has anti affinity match will get high score"),
    pytest.param(pod(labels=S1, affinity=STAY_S1_AWAY_S2), [pod("e1", S1, "node1"), pod("e2", S1, "node2")],
                 N3(RG_CHINA, AZ1), None, [100, 0],
                 id="Affinity and Anti Affinity: considered only preferredDuringSchedulingIgnoredDuringExecution in both "
                    "pod affinity & anti affinity"),
    pytest.param(pod(labels=S1, affinity=STAY_S1_AWAY_S2),
                 [pod(f"e{i}", S1, f"node{n}") for i, n in enumerate((1, 1, 2, 3, 3, 4, 5))],
                 N3(RG_CHINA_AZ1, RG_INDIA, RG_CHINA, RG_CHINA, RG_INDIA), None, [100, 0, 100, 100, 0],
                 id="Affinity and Anti Affinity: considering both affinity and anti-affinity, the pod to schedule and "
                    "existing pods have the same labels"),
    pytest.param(pod(labels=S1, affinity=STAY_S1_AWAY_S2),
                 [pod("e1", S1, "node1"), pod("e2", S2, "node2"), pod("e3", {}, "node3", affinity=STAY_S1_AWAY_S2),
                  pod("e4", {}, "node4", affinity=AWAY_S1_AZ)],
                 N3(RG_CHINA, AZ1, RG_INDIA, AZ2), None, [100, 0, 100, 0],
                 id="Affinity and Anti Affinity and symmetry: considered only preferredDuringSchedulingIgnoredDuringExecution "
                    "in both pod affinity & anti affinity & symmetry"),
    pytest.param(pod(labels=S1), [pod("e1", S1, "node1"), pod("e2", {}, "node2", affinity=STAY_S1_AWAY_S2)],
                 N3(RG_CHINA, RG_CHINA), None, [0, 0],
                 id="Avoid panic when partial nodes in a topology don't have pods with affinity"),
    pytest.param(pod(labels=S1, ns="subteam1.team1", affinity=AFFINITY_NS_SELECTOR),
                 [pod("e1", S1, "node1", ns="subteam1.team1"), pod("e2", S1, "node1", ns="subteam1.team1"),
                  pod("e3", S1, "node1", ns="subteam1.team2"), pod("e4", S1, "node2", ns="subteam2.team1")],
                 N3(RG_CHINA, RG_INDIA), None, [100, 0], id="Affinity with pods matching NamespaceSelector"),
    pytest.param(pod(labels=S1, ns="subteam1.team1", affinity=AFFINITY_NS_SELECTOR),
                 [pod("e1", S1, "node1", ns="subteam1.team1"), pod("e2", S1, "node1", ns="subteam1.team1"),
                  pod("e3", S1, "node1", ns="subteam2.team2"), pod("e4", S1, "node2", ns="subteam2.team1")],
                 N3(RG_CHINA, RG_INDIA), None, [100, 0],
                 id="Affinity with pods matching both NamespaceSelector and Namespaces fields"),
    pytest.param(pod(labels=S1, ns="subteam1.team1", affinity=ANTI_AFFINITY_NS_SELECTOR),
                 [pod("e1", S1, "node1", ns="subteam1.team1"), pod("e2", S1, "node1", ns="subteam1.team1"),
                  pod("e3", S1, "node1", ns="subteam1.team2"), pod("e4", S1, "node2", ns="subteam2.team1")],
                 N3(RG_CHINA, RG_INDIA), None, [0, 100], id="Anti-affinity with pods matching NamespaceSelector"),
    pytest.param(pod(labels=S1, ns="subteam1.team1", affinity=ANTI_AFFINITY_NS_SELECTOR),
                 [pod("e1", S1, "node1", ns="subteam1.team1"), pod("e2", S1, "node1", ns="subteam1.team1"),
                  pod("e3", S1, "node1", ns="subteam2.team2"), pod("e4", S1, "node2", ns="subteam2.team1")],
                 N3(RG_CHINA, RG_INDIA), None, [0, 100],
                 id="Anti-affinity with pods matching both NamespaceSelector and Namespaces fields"),
    pytest.param(pod(labels=S2), [pod("e1", S1, "node1", affinity=STAY_S1_AWAY_S2), pod("e2", S2, "node2", affinity=STAY_S2_REGION)],
                 N3(RG_CHINA, RG_INDIA), InterPodAffinityArgs(hard_pod_affinity_weight=1, ignore_preferred_terms_of_existing_pods=True),
                 "skip", id="Ignore preferred terms of existing pods"),
    pytest.param(pod(labels=S2), [pod("e1", S1, "node1", affinity=STAY_S1_AWAY_S2), pod("e2", S2, "node2", affinity=STAY_S2_REGION)],
                 N3(RG_CHINA, RG_INDIA), None, [0, 100], id="Do not ignore preferred terms of existing pods"),
    pytest.param(pod(labels=S2), [], [], None, "skip", id="No nodes to score"),
]


@pytest.mark.parametrize("incoming, existing, node_list, args, want", PREFERRED)
def test_preferred_affinity(incoming, existing, node_list, args, want):
    assert run_score(incoming, existing, node_list, args) == want


HARD_POD_AFFINITY = aff([term(R("service", "In", "S1"), topo="region", namespaces=["default", "subteam2.team2"],
                              ns_selector=TEAM1)])
HARD_EXISTING = [pod("e1", {}, "node1", affinity=HARD_POD_AFFINITY), pod("e2", {}, "node2", affinity=HARD_POD_AFFINITY)]


@pytest.mark.parametrize("namespace, weight, want", [
    pytest.param("default", 1, [100, 100, 0], id="with default weight"),
    pytest.param("default", 0, "skip", id="with zero weight"),
    pytest.param("subteam1.team2", 1, "skip", id="with no matching namespace"),
    pytest.param("subteam1.team1", 1, [100, 100, 0], id="with matching NamespaceSelector"),
    pytest.param("subteam2.team2", 1, [100, 100, 0], id="with matching Namespaces"),
])
def test_preferred_affinity_with_hard_pod_affinity_symmetric_weight(namespace, weight, want):
    incoming = pod(labels={"service": "S1"}, ns=namespace)
    got = run_score(incoming, HARD_EXISTING, N3(RG_CHINA, RG_INDIA, AZ1),
                    InterPodAffinityArgs(hard_pod_affinity_weight=weight))
    assert got == want


def test_normalize_is_min_max_with_float_truncation():
    """int64(100 * (s-min)/(max-min)): raw -5, 0, 3, 7 -> 0, 41, 66, 100 (41.66 and 66.66
    truncated); equal scores give 0 everywhere."""
    pl = InterPodAffinity()
    cs = CycleState({"PreScoreInterPodAffinity": object()})
    got = pl.normalize(cs, pod(), np.array([-5, 0, 3, 7], dtype=np.int64))
    assert got.tolist() == [0, 41, 66, 100]
    assert pl.normalize(cs, pod(), np.array([4, 4], dtype=np.int64)).tolist() == [0, 0]


def test_raw_scores_sum_topology_weights():
    """Raw score = sum over topology keys of the weights of the node's domain: region China +8
    (two S1 pods... one counts per pod), az az1 -5 per S2 pod."""
    ns = nodes(("n1", {"region": "China", "az": "az1"}), ("n2", {"region": "China", "az": "az2"}),
               ("n3", {"region": "India", "az": "az1"}))
    existing = [pod("a", S1, "n1"), pod("b", S1, "n2"), pod("c", S2, "n3")]
    state = make_state(ns, existing)
    pl = InterPodAffinity(InterPodAffinityArgs(), Handle())
    cs = CycleState()
    incoming = pod(labels=S1, affinity=STAY_S1_AWAY_S2)
    assert pl.pre_score(cs, incoming, state, state.all_nodes).is_success()
    # China: 2 S1 pods * 8 = 16; az1: one S2 pod * -5
    assert pl.score(cs, incoming, state, state.all_nodes).tolist() == [16 - 5, 16, -5]


# ------------------------------------------------------------------------------------------
# Property: the vectorised plugin agrees with a per-pod transcription of upstream's
# filtering.go (topology-pair maps) and scoring.go on random small clusters.
# ------------------------------------------------------------------------------------------

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from podgroup_plan.plugins.inter_pod_affinity import resolve_term

_TOPO = ["zone", "region", HOST, "missing"]
_NS = ["default", "subteam1.team1", "subteam1.team2"]


@st.composite
def pa_terms(draw):
    key = draw(st.sampled_from(["app", "tier"]))
    op = draw(st.sampled_from(["In", "NotIn", "Exists"]))
    reqs = (R(key, op, *(("a",) if op != "Exists" else ())),)
    selector = None if draw(st.integers(0, 7)) == 0 else LabelSelector(match_expressions=reqs)
    namespaces = tuple(draw(st.lists(st.sampled_from(_NS), max_size=2, unique=True)))
    ns_selector = draw(st.sampled_from([None, None, TEAM1, LabelSelector()]))
    match_keys = draw(st.sampled_from([(), ("tier",)]))
    mismatch_keys = draw(st.sampled_from([(), ("app",)]))
    return PodAffinityTerm(selector, draw(st.sampled_from(_TOPO)), namespaces, ns_selector, match_keys, mismatch_keys)


@st.composite
def affinities(draw):
    if draw(st.integers(0, 2)) == 0:
        return None
    return aff(draw(st.lists(pa_terms(), max_size=2)), draw(st.lists(pa_terms(), max_size=2)),
               [W(draw(st.integers(1, 10)), t) for t in draw(st.lists(pa_terms(), max_size=2))],
               [W(draw(st.integers(1, 10)), t) for t in draw(st.lists(pa_terms(), max_size=2))])


@st.composite
def pod_labels(draw):
    labels = {}
    if draw(st.booleans()):
        labels["app"] = draw(st.sampled_from(["a", "b"]))
    if draw(st.booleans()):
        labels["tier"] = draw(st.sampled_from(["a", "b"]))
    return labels


@st.composite
def affinity_clusters(draw):
    n = draw(st.integers(1, 5))
    node_list = []
    for i in range(n):
        labels = {}
        if draw(st.integers(0, 3)):
            labels["zone"] = draw(st.sampled_from(["z1", "z2"]))
        if draw(st.booleans()):
            labels["region"] = draw(st.sampled_from(["r1", "r2"]))
        if draw(st.integers(0, 4)):
            labels[HOST] = f"n{i}"
        node_list.append(make_node(f"n{i}", labels=labels))
    existing = [pod(f"e{j}", draw(pod_labels()), f"n{draw(st.integers(0, n - 1))}", ns=draw(st.sampled_from(_NS)),
                    affinity=draw(affinities()))
                for j in range(draw(st.integers(0, 10)))]
    incoming = pod("p", draw(pod_labels()), ns=draw(st.sampled_from(_NS)), affinity=draw(affinities()))
    return node_list, existing, incoming


def _terms(p, kind):
    a = p.affinity
    if a is None:
        return []
    if kind == "req":
        return [(resolve_term(p, t), 0) for t in a.pod_affinity_required]
    if kind == "anti":
        return [(resolve_term(p, t), 0) for t in a.pod_anti_affinity_required]
    if kind == "pref":
        return [(resolve_term(p, w.term), w.weight) for w in a.pod_affinity_preferred]
    return [(resolve_term(p, w.term), w.weight) for w in a.pod_anti_affinity_preferred]


def ref_filter(incoming, node_list, existing):
    by_name = {n.name: n for n in node_list}
    m, am, xm = {}, {}, {}
    aff_terms = [t for t, _ in _terms(incoming, "req")]
    anti_terms = [t for t, _ in _terms(incoming, "anti")]
    for e in existing:
        node = by_name[e.node_name]
        for t, _ in _terms(e, "anti"):
            if t.matches(incoming, NAMESPACES) and t.topology_key in node.labels:
                key = (t.topology_key, node.labels[t.topology_key])
                m[key] = m.get(key, 0) + 1
        if aff_terms and all(t.matches(e, NAMESPACES) for t in aff_terms):
            for t in aff_terms:
                if t.topology_key in node.labels:
                    key = (t.topology_key, node.labels[t.topology_key])
                    am[key] = am.get(key, 0) + 1
        for t in anti_terms:
            if t.matches(e, NAMESPACES) and t.topology_key in node.labels:
                key = (t.topology_key, node.labels[t.topology_key])
                xm[key] = xm.get(key, 0) + 1
    if not m and not aff_terms and not anti_terms:
        return "skip"
    out = []
    for node in sorted(node_list, key=lambda n: n.name):
        status = None
        if aff_terms:
            exist, ok = True, True
            for t in aff_terms:
                if t.topology_key not in node.labels:
                    ok = False
                    break
                if am.get((t.topology_key, node.labels[t.topology_key]), 0) <= 0:
                    exist = False
            if ok and not exist:
                ok = not am and all(t.matches(incoming, NAMESPACES) for t in aff_terms)
            if not ok:
                status = AFF
        if status is None and any(t.topology_key in node.labels and
                                  xm.get((t.topology_key, node.labels[t.topology_key]), 0) > 0 for t in anti_terms):
            status = ANTI
        if status is None and any(m.get(kv, 0) > 0 for kv in node.labels.items()):
            status = EXIST
        out.append(status)
    return out


def ref_score(incoming, node_list, existing, args):
    by_name = {n.name: n for n in node_list}
    pref, pref_anti = _terms(incoming, "pref"), _terms(incoming, "prefanti")
    if args.ignore_preferred_terms_of_existing_pods and not pref and not pref_anti:
        return "skip"
    score = {}

    def process(t, weight, target, node, sign):
        if t.matches(target, NAMESPACES) and t.topology_key in node.labels:
            per_key = score.setdefault(t.topology_key, {})
            v = node.labels[t.topology_key]
            per_key[v] = per_key.get(v, 0) + weight * sign

    for e in existing:
        node = by_name[e.node_name]
        for t, w in pref:
            process(t, w, e, node, 1)
        for t, w in pref_anti:
            process(t, w, e, node, -1)
        if args.hard_pod_affinity_weight > 0:
            for t, _ in _terms(e, "req"):
                process(t, args.hard_pod_affinity_weight, incoming, node, 1)
        for t, w in _terms(e, "pref"):
            process(t, w, incoming, node, 1)
        for t, w in _terms(e, "prefanti"):
            process(t, w, incoming, node, -1)
    if not score:
        return "skip"
    raw = [sum(vals.get(n.labels[k], 0) for k, vals in score.items() if k in n.labels)
           for n in sorted(node_list, key=lambda n: n.name)]
    mn, mx = min(raw), max(raw)
    return [int(100.0 * (float(s - mn) / float(mx - mn))) if mx > mn else 0 for s in raw]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(affinity_clusters(), st.integers(0, 2), st.booleans())
def test_matches_reference_implementation(cluster, hard, ignore_existing):
    node_list, existing, incoming = cluster
    assert run_filter(incoming, node_list, existing) == ref_filter(incoming, node_list, existing)
    args = InterPodAffinityArgs(hard_pod_affinity_weight=hard, ignore_preferred_terms_of_existing_pods=ignore_existing)
    assert run_score(incoming, existing, node_list, args) == ref_score(incoming, node_list, existing, args)


@pytest.mark.parametrize("affinity, added, want", [
    # no required pod-affinity term (anti-affinity or preferred only): never
    (None, pod("a", POD_LABEL), False),
    (aff(anti=[In("service", ["securityscan"], HOST)]), pod("a", POD_LABEL), False),
    (aff(preferred=[W(1, In("service", ["securityscan"], HOST))]), pod("a", POD_LABEL), False),
    # every required term must match
    (aff(required=[In("service", ["securityscan"], HOST)]), pod("a", POD_LABEL), True),
    (aff(required=[In("service", ["securityscan"], HOST), Exists("security", HOST)]), pod("a", POD_LABEL), False),
    # the term's namespace: the owner's by default; a namespaceSelector is matched without the
    # namespace's labels (the hint passes none), so only an empty one selects another namespace
    (aff(required=[In("service", ["securityscan"], HOST)]), pod("a", POD_LABEL, ns="other"), False),
    (aff(required=[term(R("service", "In", "securityscan"), topo=HOST, ns_selector=TEAM1)]),
     pod("a", POD_LABEL, ns="subteam1.team1"), False),
    (aff(required=[term(R("service", "In", "securityscan"), topo=HOST, ns_selector=LabelSelector())]),
     pod("a", POD_LABEL, ns="subteam1.team1"), True),
])
def test_queueing_hint_for_an_added_pod(affinity, added, want):
    """isSchedulableAfterAssignedPodChange for an added pod (v1.37.0): Queue only when the pod
    matches all of the failed pod's required pod-affinity terms."""
    assert matches_all_required_affinity_terms(pod("incoming", affinity=affinity), added) is want
