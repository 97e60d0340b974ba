"""PodTopologySpread, with the cases and numbers of upstream's
`pkg/scheduler/framework/plugins/podtopologyspread/filtering_test.go` (TestPreFilterState,
TestSingleConstraint, TestMultipleConstraints) and `scoring_test.go` (TestPreScoreSkip,
TestPodTopologySpreadScore). Upstream's NodeInclusionPolicy / MinDomains / MatchLabelKeys gates
are GA or on by default in 1.37, so cases that only exist for a disabled gate are left out
(except matchLabelKeys, whose gate can still be turned off); terminating pods are not modelled.
"""
import numpy as np
import pytest

from builders import make_node, make_pod, make_state, node_statuses
from podgroup_plan.config.args import LIST_DEFAULTING, SYSTEM_DEFAULTING, PodTopologySpreadArgs
from podgroup_plan.framework.interface import CycleState, Handle
from podgroup_plan.framework.status import Code
from podgroup_plan.model.objects import (
    Affinity,
    OwnerReference,
    SpreadSelector,
    Taint,
    Toleration,
    TopologySpreadConstraint,
)
from podgroup_plan.model.selectors import (
    LabelSelector,
    LabelSelectorRequirement,
    NodeSelector,
    NodeSelectorRequirement,
    NodeSelectorTerm,
)
from podgroup_plan.plugins.pod_topology_spread import (
    DO_NOT_SCHEDULE,
    ERR_REASON_CONSTRAINTS_NOT_MATCH,
    ERR_REASON_NODE_LABEL_NOT_MATCH,
    PRE_FILTER_KEY,
    SCHEDULE_ANYWAY,
    PodTopologySpread,
    go_log,
    go_round,
)

HOST = "kubernetes.io/hostname"
ZONE = "topology.kubernetes.io/zone"
DNS, SA = DO_NOT_SCHEDULE, SCHEDULE_ANYWAY
OK, U, UU = "Success", "Unschedulable", "UnschedulableAndUnresolvable"
UNSCHEDULABLE_TAINT = Taint("node.kubernetes.io/unschedulable", "", "NoSchedule")


def exists(key):
    return LabelSelector(match_expressions=(LabelSelectorRequirement(key, "Exists"),))


def labels_sel(**kv):
    return LabelSelector(match_labels=tuple(sorted(kv.items())))


FOO, BAR = exists("foo"), exists("bar")


def sc(max_skew, key, when, selector, min_domains=None, affinity="Honor", taints="Ignore", keys=()):
    return TopologySpreadConstraint(max_skew, key, when, selector, min_domains, affinity, taints, tuple(keys))


def N(name, taints=(), **labels):
    return make_node(name, labels=labels, taints=taints)


def NZ(name, zone, node=None, taints=(), **extra):
    """A node with zone/node labels, as upstream's st.MakeNode().Label("zone",..).Label("node",..)."""
    return make_node(name, labels={"zone": zone, "node": node or name, **extra}, taints=taints)


def NH(name, **extra):
    """A node with the hostname label (the scoring tests)."""
    return make_node(name, labels={HOST: name, **extra})


def P(name, node=None, ns="default", **labels):
    return make_pod(name, ns, node_name=node, labels=labels)


def pods(spec):
    """'a:2,b:1' -> pods p-a1, p-a2, p-b1 labelled foo on node-a / node-b."""
    out = []
    for part in spec.split(","):
        node, count = part.split(":")
        out += [P(f"p-{node}{i}", f"node-{node}", foo="") for i in range(1, int(count) + 1)]
    return out


def incoming(*constraints, labels=None, node_selector=None, affinity=None, tolerations=(), **extra):
    return make_pod("p", labels={"foo": ""} if labels is None else labels,
                    node_selector=node_selector, affinity=affinity, tolerations=tolerations,
                    topology_spread_constraints=tuple(constraints), **extra)


def node_in(key, values):
    req = NodeSelectorRequirement(key, "In", tuple(values))
    return Affinity(node_required=NodeSelector((NodeSelectorTerm((req,)),)))


def node_not_in(key, values):
    req = NodeSelectorRequirement(key, "NotIn", tuple(values))
    return Affinity(node_required=NodeSelector((NodeSelectorTerm((req,)),)))


def plugin(args=None, handle=None):
    return PodTopologySpread(args or PodTopologySpreadArgs(defaulting_type=LIST_DEFAULTING), handle)


FOUR = [NZ("node-a", "zone1"), NZ("node-b", "zone1"), NZ("node-x", "zone2"), NZ("node-y", "zone2")]


# ------------------------------------------------------------------------------------------
# PreFilter state (TestPreFilterState): per constraint, the matching pods per domain and the
# global minimum (criticalPaths[0]).
# ------------------------------------------------------------------------------------------

def prefilter_counts(pl, pod, state):
    cs = CycleState()
    result = pl.pre_filter(cs, pod, state, state.all_nodes)
    if result.status.is_skip():
        return "skip"
    out = []
    for c, counts in zip(cs[PRE_FILTER_KEY].constraints, cs[PRE_FILTER_KEY].counts):
        values = state.label_column(c.topology_key)[1]
        domains = {values[i]: int(counts.sums[i]) for i in np.flatnonzero(counts.domains)}
        out.append((domains, counts.min_match))
    return out


NODES_ABC_FOO = [N("node-a", node="node-a", foo=""), N("node-b", node="node-b", foo=""),
                 N("node-c", node="node-c", bar="")]
PODS_ABC = [P("p-a", "node-a", bar=""), P("p-b", "node-b", bar=""), P("p-c", "node-b", bar=""), P("p-d", "node-c")]
NODES_ABC_TAINT = [N("node-a", node="node-a"), N("node-b", node="node-b"),
                   N("node-c", taints=[UNSCHEDULABLE_TAINT], node="node-c", bar="")]

PRE_FILTER_CASES = [
    pytest.param(
        incoming(sc(5, "zone", DNS, labels_sel(foo="bar"))), FOUR, [],
        [({"zone1": 0, "zone2": 0}, 0)], id="clean cluster with one spreadConstraint"),
    pytest.param(
        incoming(sc(1, "zone", DNS, FOO)), FOUR, pods("a:2,b:1,y:2"),
        [({"zone1": 3, "zone2": 2}, 2)], id="normal case with one spreadConstraint"),
    pytest.param(
        incoming(sc(1, "zone", DNS, None)), FOUR, pods("a:2,b:1,y:2"),
        [({"zone1": 0, "zone2": 0}, 0)], id="normal case with null label selector"),
    pytest.param(
        incoming(sc(1, "zone", DNS, FOO)), FOUR + [NZ("node-o", "zone3"), NZ("node-p", "zone3")],
        pods("a:2,b:1,y:2"),
        [({"zone1": 3, "zone2": 2, "zone3": 0}, 0)], id="normal case with one spreadConstraint, on a 3-zone cluster"),
    pytest.param(
        incoming(sc(1, "zone", DNS, FOO)), FOUR,
        [P("p-a1", "node-a", foo=""), P("p-a2", "node-a", ns="ns1", foo=""), P("p-b1", "node-b", foo=""),
         P("p-y1", "node-y", ns="ns2", foo=""), P("p-y2", "node-y", foo="")],
        [({"zone1": 2, "zone2": 1}, 1)], id="namespace mismatch doesn't count"),
    pytest.param(
        incoming(sc(1, "zone", DNS, FOO), sc(1, "node", DNS, FOO)), FOUR, pods("a:2,b:1,y:4"),
        [({"zone1": 3, "zone2": 4}, 3), ({"node-a": 2, "node-b": 1, "node-x": 0, "node-y": 4}, 0)],
        id="normal case with two spreadConstraints"),
    pytest.param(
        incoming(sc(1, "zone", SA, FOO), sc(1, "zone", DNS, FOO), sc(1, "node", SA, FOO), sc(1, "node", DNS, FOO)),
        [NZ("node-a", "zone1"), NZ("node-b", "zone1"), NZ("node-y", "zone2")], pods("a:2,b:1,y:4"),
        [({"zone1": 3, "zone2": 4}, 3), ({"node-a": 2, "node-b": 1, "node-y": 4}, 1)],
        id="soft spreadConstraints should be bypassed"),
    pytest.param(
        incoming(sc(1, "zone", DNS, FOO), sc(1, "node", DNS, BAR), labels={"foo": "", "bar": ""}),
        [NZ("node-a", "zone1"), NZ("node-b", "zone1"), NZ("node-y", "zone2")],
        [P("p-a", "node-a", foo=""), P("p-b", "node-b", bar="")],
        [({"zone1": 1, "zone2": 0}, 0), ({"node-a": 0, "node-b": 1, "node-y": 0}, 0)],
        id="different labelSelectors - simple version"),
    pytest.param(
        incoming(sc(1, "zone", DNS, FOO), sc(1, "node", DNS, BAR), labels={"foo": "", "bar": ""}),
        [NZ("node-a", "zone1"), NZ("node-b", "zone1"), NZ("node-y", "zone2")],
        [P("p-a1", "node-a", foo=""), P("p-a2", "node-a", foo="", bar=""), P("p-b1", "node-b", foo=""),
         P("p-y1", "node-y", foo=""), P("p-y2", "node-y", foo="", bar=""), P("p-y3", "node-y", foo=""),
         P("p-y4", "node-y", foo="", bar="")],
        [({"zone1": 3, "zone2": 4}, 3), ({"node-a": 1, "node-b": 0, "node-y": 2}, 0)],
        id="different labelSelectors - complex pods"),
    pytest.param(
        incoming(sc(1, "zone", DNS, FOO), sc(1, "node", DNS, FOO), affinity=node_not_in("node", ["node-x"])),
        FOUR, pods("a:2,b:1,y:4"),
        [({"zone1": 3, "zone2": 4}, 3), ({"node-a": 2, "node-b": 1, "node-y": 4}, 1)],
        id="two spreadConstraints, and with podAffinity"),
    pytest.param(
        incoming(sc(1, "node", DNS, BAR), node_selector={"foo": ""}), NODES_ABC_FOO, PODS_ABC,
        [({"node-a": 1, "node-b": 2}, 1)], id="NodeAffinityPolicy honored with labelSelectors"),
    pytest.param(
        incoming(sc(1, "node", DNS, BAR, affinity="Ignore"), node_selector={"foo": ""}), NODES_ABC_FOO, PODS_ABC,
        [({"node-a": 1, "node-b": 2, "node-c": 0}, 0)], id="NodeAffinityPolicy ignored with labelSelectors"),
    pytest.param(
        incoming(sc(1, "node", DNS, BAR), affinity=node_in("foo", [""])), NODES_ABC_FOO, PODS_ABC,
        [({"node-a": 1, "node-b": 2}, 1)], id="NodeAffinityPolicy honored with nodeAffinity"),
    pytest.param(
        incoming(sc(1, "node", DNS, BAR, affinity="Ignore"), affinity=node_in("foo", [""])), NODES_ABC_FOO, PODS_ABC,
        [({"node-a": 1, "node-b": 2, "node-c": 0}, 0)], id="NodeAffinityPolicy ignored with nodeAffinity"),
    pytest.param(
        incoming(sc(1, "node", DNS, BAR)), NODES_ABC_TAINT, PODS_ABC,
        [({"node-a": 1, "node-b": 2, "node-c": 0}, 0)], id="NodeTaintsPolicy ignored"),
    pytest.param(
        incoming(sc(1, "node", DNS, BAR, taints="Honor")), NODES_ABC_TAINT, PODS_ABC,
        [({"node-a": 1, "node-b": 2}, 1)], id="NodeTaintsPolicy honored"),
    pytest.param(
        incoming(sc(1, "node", DNS, BAR, taints="Honor"),
                 tolerations=(Toleration("node.kubernetes.io/unschedulable", "Exists", "", "NoSchedule"),)),
        NODES_ABC_TAINT, PODS_ABC,
        [({"node-a": 1, "node-b": 2, "node-c": 0}, 0)], id="NodeTaintsPolicy honored with tolerated taints"),
    pytest.param(
        incoming(sc(1, "zone", DNS, FOO), sc(1, "node", DNS, FOO, affinity="Ignore"), node_selector={"foo": ""}),
        [NZ("node-a", "zone1", foo=""), NZ("node-b", "zone1"), NZ("node-x", "zone2", foo="")],
        [P("p-b1", "node-b", foo=""), P("p-b2", "node-b", foo=""), P("p-x1", "node-x", foo="")],
        [({"zone1": 0, "zone2": 1}, 0), ({"node-a": 0, "node-b": 2, "node-x": 1}, 0)],
        id="two node inclusion Constraints, zone: honor/ignore, node: ignore/ignore"),
    pytest.param(
        incoming(sc(1, "zone", DNS, FOO, taints="Honor"), sc(1, "node", DNS, FOO)),
        [NZ("node-a", "zone1", foo=""), NZ("node-b", "zone1", taints=[UNSCHEDULABLE_TAINT]),
         NZ("node-x", "zone2", foo="")],
        [P("p-b1", "node-b", foo=""), P("p-b2", "node-b", foo=""), P("p-x1", "node-x", foo="")],
        [({"zone1": 0, "zone2": 1}, 0), ({"node-a": 0, "node-b": 2, "node-x": 1}, 0)],
        id="two node inclusion Constraints, zone: honor/honor, node: honor/ignore"),
    pytest.param(
        incoming(sc(1, "zone", DNS, FOO), sc(1, "node", DNS, FOO), node_selector={"foo": ""}),
        [NZ("node-a", "zone1"), NZ("node-b", "zone1", foo="", taints=[UNSCHEDULABLE_TAINT]),
         NZ("node-x", "zone2", foo=""), NZ("node-y", "zone2")],
        [P("p-a1", "node-a", foo=""), P("p-a2", "node-a", foo=""), P("p-x1", "node-x", foo=""),
         P("p-y1", "node-y", foo="")],
        [({"zone1": 0, "zone2": 1}, 0), ({"node-b": 0, "node-x": 1}, 0)],
        id="two node inclusion Constraints, zone: honor/ignore, node: honor/ignore"),
    pytest.param(
        incoming(sc(1, "zone", DNS, FOO, affinity="Ignore"), sc(1, "node", DNS, FOO, taints="Honor"),
                 node_selector={"foo": ""}),
        [NZ("node-a", "zone1"), NZ("node-b", "zone1", foo="", taints=[UNSCHEDULABLE_TAINT]),
         NZ("node-x", "zone2", foo=""), NZ("node-y", "zone2", foo="")],
        [P("p-a1", "node-a", foo=""), P("p-a2", "node-a", foo=""), P("p-x1", "node-x", foo=""),
         P("p-x2", "node-x", foo=""), P("p-y1", "node-y", foo="")],
        [({"zone1": 2, "zone2": 3}, 2), ({"node-x": 2, "node-y": 1}, 1)],
        id="two node inclusion Constraints, zone: ignore/ignore, node: honor/honor"),
    pytest.param(
        incoming(sc(1, "zone", DNS, FOO, keys=["bar"]), labels={"foo": "", "bar": "a"}), FOUR,
        [P("p-a1", "node-a", foo=""), P("p-a2", "node-a", foo="", bar="a"), P("p-b1", "node-b", foo=""),
         P("p-y1", "node-y", foo="", bar="a"), P("p-y2", "node-y", bar="")],
        [({"zone1": 1, "zone2": 1}, 1)], id="matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty"),
    pytest.param(
        incoming(sc(1, "zone", DNS, LabelSelector(), keys=["foo"]), labels={"foo": "a"}), FOUR,
        [P(n, node, foo="a") for n, node in
         (("p-a1", "node-a"), ("p-a2", "node-a"), ("p-b1", "node-b"), ("p-y1", "node-y"), ("p-y2", "node-y"))],
        [({"zone1": 3, "zone2": 2}, 2)], id="matchLabelKeys ANDed with LabelSelector when LabelSelector is empty"),
    pytest.param(
        incoming(sc(1, "zone", DNS, None, keys=["bar"])), FOUR,
        [P(n, node, foo="a") for n, node in
         (("p-a1", "node-a"), ("p-a2", "node-a"), ("p-b1", "node-b"), ("p-y1", "node-y"), ("p-y2", "node-y"))],
        [({"zone1": 0, "zone2": 0}, 0)], id="key in matchLabelKeys is ignored when LabelSelector is nil"),
    pytest.param(
        incoming(sc(1, "zone", DNS, FOO, keys=["bar"])), FOUR,
        [P(n, node, foo="a") for n, node in
         (("p-a1", "node-a"), ("p-a2", "node-a"), ("p-b1", "node-b"), ("p-y1", "node-y"), ("p-y2", "node-y"))],
        [({"zone1": 3, "zone2": 2}, 2)], id="key in matchLabelKeys is ignored when it isn't exist in pod.labels"),
    pytest.param(
        incoming(sc(1, "zone", DNS, FOO), sc(1, "zone", DNS, BAR), labels={"foo": "", "bar": ""}), FOUR,
        [P("p-a1", "node-a", foo="", bar=""), P("p-b1", "node-b", foo=""), P("p-x1", "node-x", bar=""),
         P("p-y1", "node-y", foo="", bar=""), P("p-y2", "node-y", bar="")],
        [({"zone1": 2, "zone2": 1}, 1), ({"zone1": 1, "zone2": 3}, 1)],
        id="two spreadConstraints with the same topologyKey"),
    pytest.param(
        incoming(), [NZ("node-a", "zone1")], [], "skip", id="skip if not specified"),
]


@pytest.mark.parametrize("pod, nodes, existing, want", PRE_FILTER_CASES)
def test_pre_filter_state(pod, nodes, existing, want):
    state = make_state(nodes, existing)
    assert prefilter_counts(plugin(), pod, state) == want


DEFAULTS = (sc(3, "node", DNS, None), sc(2, "node", SA, None), sc(5, "rack", DNS, None))


def service(ns="default", **sel):
    return SpreadSelector("Service", ns, "svc", labels_sel(**sel))


@pytest.mark.parametrize("pod, defaults, selectors, want", [
    pytest.param(
        make_pod("p", labels={"foo": "bar", "baz": "kar"}), DEFAULTS, (service(foo="bar"),),
        [(3, "node"), (5, "rack")], id="default constraints and a service"),
    pytest.param(
        make_pod("p", labels={"foo": "bar"}), (sc(3, "node", DNS, None),), (service(baz="kep"),),
        [], id="default constraints and a service that doesn't match"),
    pytest.param(
        incoming(sc(1, "zone", DNS, labels_sel(baz="tar")), sc(2, "planet", SA, labels_sel(fot="rok")),
                 labels={"foo": "bar", "baz": "tar"}),
        (sc(2, "node", DNS, None),), (service(foo="bar"),),
        [(1, "zone")], id="default constraints and a service, but pod has constraints"),
    pytest.param(
        make_pod("p", labels={"foo": "bar"}), (sc(2, "node", SA, None),), (service(foo="bar"),),
        [], id="default soft constraints and a service"),
])
def test_default_constraints(pod, defaults, selectors, want):
    pl = plugin(PodTopologySpreadArgs(default_constraints=defaults, defaulting_type=LIST_DEFAULTING),
                Handle(spread_selectors=selectors))
    got = pl.constraints(pod, DNS)
    assert [(c.max_skew, c.topology_key) for c in got] == want
    state = make_state([], [])
    result = pl.pre_filter(CycleState(), pod, state, state.all_nodes)
    assert result.status.is_skip() == (not want)
    if want and not pod.topology_spread_constraints:
        assert all(c.selector == labels_sel(foo="bar") for c in got)


# ------------------------------------------------------------------------------------------
# Filter (TestSingleConstraint, TestMultipleConstraints)
# ------------------------------------------------------------------------------------------

def filter_codes(pod, nodes, existing, handle=None):
    state = make_state(nodes, existing)
    pl = plugin(handle=handle)
    cs = CycleState()
    result = pl.pre_filter(cs, pod, state, state.all_nodes)
    assert result.status.is_success()
    statuses = node_statuses(pl.filter(cs, pod, state, state.all_nodes), state)
    return {name: OK if st is None else st[0] for name, st in statuses.items()}


NODES_ABC = [N("node-a", node="node-a"), N("node-b", node="node-b"), N("node-c", node="node-c")]
NODES_ABXY_FOO = [N("node-a", node="node-a", foo=""), N("node-b", node="node-b", foo=""),
                  N("node-x", node="node-x", foo=""), N("node-y", node="node-y")]
PODS_ABY = [P("p-b1", "node-a", foo=""), P("p-b2", "node-b", foo=""), P("p-y1", "node-y", foo="")]

SINGLE_CONSTRAINT = [
    pytest.param(incoming(sc(1, "zone", DNS, FOO)), FOUR, [], "OOOO", id="no existing pods"),
    pytest.param(incoming(sc(1, "zone", DNS, BAR)), FOUR, [], "OOOO",
                 id="no existing pods, incoming pod doesn't match itself"),
    pytest.param(incoming(sc(1, "zone", DNS, FOO)), FOUR,
                 [P("p-a1", "node-a", ns="ns1", foo=""), P("p-b1", "node-a", ns="ns2", foo=""),
                  P("p-x1", "node-x", foo=""), P("p-y1", "node-y", foo="")],
                 "OOUU", id="existing pods in a different namespace do not count"),
    pytest.param(incoming(sc(1, "zone", DNS, None)), FOUR, [P("p-x1", "node-x", foo=""), P("p-y1", "node-y", foo="")],
                 "OOOO", id="existing pods do not match null selector"),
    pytest.param(incoming(sc(1, "zone", DNS, FOO)), FOUR, pods("a:2,b:1,y:3"), "OOOO",
                 id="pods spread across zones as 3/3, all nodes fit"),
    pytest.param(incoming(sc(1, "zone", DNS, FOO)),
                 [NZ("node-a", "zone1"), N("node-b", zon="zone1", node="node-b"), NZ("node-x", "zone2"),
                  NZ("node-y", "zone2")],
                 pods("a:1,b:1,x:1,y:1"), "OXUU",
                 id="pods spread across zones as 1/2 due to absence of label 'zone' on node-b"),
    pytest.param(incoming(sc(1, "rack", DNS, FOO)), [NZ("node-a", "zone1"), NZ("node-x", "zone2")], [], "XX",
                 id="pod cannot be scheduled as all nodes don't have label 'rack'"),
    pytest.param(incoming(sc(1, "node", DNS, FOO)), FOUR, pods("a:2,b:1,y:3"), "UUOU",
                 id="pods spread across nodes as 2/1/0/3, only node-x fits"),
    pytest.param(incoming(sc(2, "node", DNS, FOO)), FOUR, pods("a:2,b:1,y:3"), "UOOU",
                 id="pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit"),
    pytest.param(incoming(sc(1, "node", DNS, FOO), labels={"bar": ""}), FOUR, pods("a:2,b:1,y:3"), "UOOU",
                 id="pods spread across nodes as 2/1/0/3, but pod doesn't match itself"),
    pytest.param(incoming(sc(1, "node", DNS, FOO), affinity=node_in("node", ["node-a", "node-y"])), FOUR,
                 pods("a:2,b:1,y:3"), "OOOU",
                 id="incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence node-a fits"),
    pytest.param(incoming(sc(1, "zone", DNS, FOO), affinity=node_not_in("node", ["node-b"])), FOUR,
                 pods("b:2,y:1"), "OOUU",
                 id="incoming pod has nodeAffinity, pods spread as 0/~2~/0/1, hence node-a fits"),
    pytest.param(incoming(sc(2, "node", DNS, FOO, min_domains=4)), NODES_ABC, pods("a:2,b:2,c:1"), "UUO",
                 id="pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains < minDomains, "
                    "then the third node fits"),
    pytest.param(incoming(sc(2, "node", DNS, FOO, min_domains=2)), NODES_ABC, pods("a:2,b:2,c:1"), "OOO",
                 id="pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains > minDomains, "
                    "then the all nodes fit"),
    pytest.param(incoming(sc(2, "zone", DNS, FOO, min_domains=3)), FOUR, pods("a:1,b:1,y:1"), "UUOO",
                 id="pods spread across zone as 2/1, maxSkew is 2 and the number of domains < minDomains, "
                    "then the third and fourth nodes fit"),
    pytest.param(incoming(sc(2, "zone", DNS, FOO, min_domains=1)), FOUR, pods("a:1,b:1,y:1"), "OOOO",
                 id="pods spread across zone as 2/1, maxSkew is 2 and the number of domains > minDomains, "
                    "then the all nodes fit"),
    pytest.param(incoming(sc(1, "node", DNS, FOO), node_selector={"foo": ""}), NODES_ABXY_FOO, PODS_ABY, "UUOO",
                 id="NodeAffinityPolicy honored with labelSelectors"),
    pytest.param(incoming(sc(1, "node", DNS, FOO, affinity="Ignore"), node_selector={"foo": ""}), NODES_ABXY_FOO,
                 PODS_ABY, "UUOU", id="NodeAffinityPolicy ignored with labelSelectors"),
    pytest.param(incoming(sc(1, "node", DNS, FOO), affinity=node_in("foo", [""])), NODES_ABXY_FOO, PODS_ABY, "UUOO",
                 id="NodeAffinityPolicy honored with nodeAffinity"),
    pytest.param(incoming(sc(1, "node", DNS, FOO, affinity="Ignore"), affinity=node_in("foo", [""])),
                 NODES_ABXY_FOO, PODS_ABY, "UUOU", id="NodeAffinityPolicy ignored with nodeAffinity"),
    pytest.param(incoming(sc(1, "node", DNS, FOO, taints="Honor")),
                 NODES_ABXY_FOO[:3] + [N("node-y", taints=[UNSCHEDULABLE_TAINT], node="node-y")], PODS_ABY, "UUOO",
                 id="NodeTaintsPolicy honored"),
    pytest.param(incoming(sc(1, "node", DNS, FOO)),
                 NODES_ABXY_FOO[:3] + [N("node-y", taints=[UNSCHEDULABLE_TAINT], node="node-y")], PODS_ABY, "UUOU",
                 id="NodeTaintsPolicy ignored"),
]

MULTIPLE_CONSTRAINTS = [
    pytest.param(incoming(sc(1, "zone", DNS, FOO), sc(1, "node", DNS, FOO)), FOUR, pods("a:2,b:1,y:3"), "UUOU",
                 id="two Constraints on zone and node, spreads = [3/3, 2/1/0/3]"),
    pytest.param(incoming(sc(1, "zone", DNS, FOO), sc(1, "node", DNS, FOO)), FOUR, pods("a:2,b:1,y:4"), "UUUU",
                 id="two Constraints on zone and node, spreads = [3/4, 2/1/0/4]"),
    pytest.param(incoming(sc(1, "zone", DNS, FOO), sc(1, "node", DNS, BAR), labels={"foo": "", "bar": ""}), FOUR,
                 [P("p-a1", "node-a", foo=""), P("p-y1", "node-y", bar="")], "UUOU",
                 id="Constraints hold different labelSelectors, spreads = [1/0, 1/0/0/1]"),
    pytest.param(incoming(sc(1, "zone", DNS, FOO), sc(1, "node", DNS, BAR), labels={"foo": "", "bar": ""}), FOUR,
                 [P("p-a1", "node-a", foo=""), P("p-x1", "node-x", bar=""), P("p-y1", "node-y", bar="")], "UUUU",
                 id="Constraints hold different labelSelectors, spreads = [1/0, 0/0/1/1]"),
    pytest.param(incoming(sc(1, "zone", DNS, FOO), sc(1, "node", DNS, BAR), labels={"foo": "", "bar": ""}), FOUR,
                 [P("p-a1", "node-a", foo=""), P("p-a2", "node-a", foo="", bar=""), P("p-y1", "node-y", foo=""),
                  P("p-y2", "node-y", foo="", bar=""), P("p-y3", "node-y", foo="")], "UOUU",
                 id="Constraints hold different labelSelectors, spreads = [2/3, 1/0/0/1]"),
    pytest.param(incoming(sc(1, "zone", DNS, FOO), sc(1, "node", DNS, BAR), labels={"bar": ""}), FOUR,
                 [P("p-a1", "node-a", foo=""), P("p-x1", "node-x", bar=""), P("p-y1", "node-y", bar="")], "OOUU",
                 id="Constraints hold different labelSelectors but pod doesn't match itself on 'zone' constraint"),
    pytest.param(incoming(sc(1, "zone", DNS, FOO), sc(1, "node", DNS, FOO)),
                 [NZ("node-a", "zone1"), NZ("node-b", "zone1"), N("node-x", zone="zone2"), NZ("node-y", "zone2")],
                 [P("p-a1", "node-a", foo=""), P("p-y3", "node-y", foo="")], "UOXU",
                 id="two Constraints on zone and node, absence of label 'node' on node-x, spreads = [1/1, 1/0/0/1]"),
    pytest.param(incoming(sc(1, "zone", DNS, FOO), sc(1, "node", DNS, FOO, affinity="Ignore"),
                          node_selector={"foo": ""}),
                 [NZ("node-a", "zone1", foo=""), NZ("node-b", "zone1", foo=""), NZ("node-x", "zone2", foo=""),
                  NZ("node-y", "zone2")], pods("a:1,b:1,y:1"), "UUOU",
                 id="two node inclusion Constraints, zone: honor/ignore, node: ignore/ignore"),
    pytest.param(incoming(sc(1, "zone", DNS, FOO, taints="Honor"), sc(1, "node", DNS, FOO)),
                 [NZ("node-a", "zone1", foo=""), NZ("node-b", "zone1", foo=""), NZ("node-x", "zone2", foo=""),
                  NZ("node-y", "zone2", taints=[UNSCHEDULABLE_TAINT])], pods("a:1,b:1,y:1"), "UUOU",
                 id="two node inclusion Constraints, zone: honor/honor, node: honor/ignore"),
    pytest.param(incoming(sc(1, "zone", DNS, FOO), sc(1, "node", DNS, FOO), node_selector={"foo": ""}),
                 [NZ("node-a", "zone1", foo=""), NZ("node-b", "zone1"), NZ("node-x", "zone2", foo=""),
                  NZ("node-y", "zone2", foo="", taints=[UNSCHEDULABLE_TAINT])], pods("a:1,b:1,y:1"), "UOOU",
                 id="two node inclusion Constraints, zone: honor/ignore, node: honor/ignore"),
    pytest.param(incoming(sc(1, "zone", DNS, FOO, taints="Honor"), sc(1, "node", DNS, FOO, affinity="Ignore"),
                          node_selector={"foo": ""}),
                 [NZ("node-a", "zone1", foo=""), NZ("node-b", "zone1"), NZ("node-x", "zone2", foo=""),
                  NZ("node-y", "zone2", foo="", taints=[UNSCHEDULABLE_TAINT])], pods("a:1,b:1,y:1"), "UUOU",
                 id="two node inclusion Constraints, zone: honor/honor, node: ignore/ignore"),
    pytest.param(incoming(sc(1, "zone", DNS, BAR), sc(1, "zone", DNS, FOO), labels={"foo": "", "bar": ""}), FOUR,
                 [P("p-a1", "node-a", foo="", bar=""), P("p-a2", "node-a", foo=""), P("p-b1", "node-b", foo="", bar=""),
                  P("p-y1", "node-y", foo=""), P("p-y2", "node-y", foo="", bar=""), P("p-y3", "node-y", foo="")],
                 "UUOO", id="two Constraints on zone, spreads = [3/3, 2/1]"),
    pytest.param(incoming(sc(1, "zone", DNS, BAR), sc(1, "zone", DNS, FOO), labels={"foo": "", "bar": ""}), FOUR,
                 [P("p-a1", "node-a", foo="", bar=""), P("p-a2", "node-a", foo=""), P("p-b1", "node-b", foo="", bar=""),
                  P("p-y1", "node-y", foo=""), P("p-y2", "node-y", foo="", bar=""), P("p-y3", "node-y", foo=""),
                  P("p-y4", "node-y", foo="")],
                 "UUUU", id="two Constraints on zone, spreads = [3/4, 2/1]"),
]

_LETTER = {"O": OK, "U": U, "X": UU}


@pytest.mark.parametrize("pod, nodes, existing, want", SINGLE_CONSTRAINT + MULTIPLE_CONSTRAINTS)
def test_filter(pod, nodes, existing, want):
    got = filter_codes(pod, nodes, existing)
    names = sorted(n.name for n in nodes)
    assert got == {name: _LETTER[w] for name, w in zip(names, want)}


def test_filter_reasons_and_codes():
    """The reason strings and codes of plugin.go / filtering.go, in constraint order: a node
    missing the key of a later constraint but over the skew of an earlier one is Unschedulable."""
    pod = incoming(sc(1, "zone", DNS, FOO), sc(1, "node", DNS, FOO))
    # Only nodes with both keys count (a: zone1 with 2 pods, c: zone2 with none).
    nodes = [NZ("node-a", "zone1"), N("node-b", zone="zone1"), NZ("node-c", "zone2"), N("node-d", node="node-d"),
             N("node-e", zone="zone2")]
    state = make_state(nodes, pods("a:2"))
    pl = plugin()
    cs = CycleState()
    pl.pre_filter(cs, pod, state, state.all_nodes)
    got = node_statuses(pl.filter(cs, pod, state, state.all_nodes), state)
    assert got == {
        "node-a": (U, (ERR_REASON_CONSTRAINTS_NOT_MATCH,)),  # zone1: 2 + 1 - 0 > 1
        "node-b": (U, (ERR_REASON_CONSTRAINTS_NOT_MATCH,)),  # zone fails first; its missing "node" is not reached
        "node-c": None,
        "node-d": (UU, (ERR_REASON_NODE_LABEL_NOT_MATCH,)),  # no "zone" label
        "node-e": (UU, (ERR_REASON_NODE_LABEL_NOT_MATCH,)),  # zone2 passes, no "node" label
    }
    assert ERR_REASON_CONSTRAINTS_NOT_MATCH == "node(s) didn't match pod topology spread constraints"
    assert ERR_REASON_NODE_LABEL_NOT_MATCH == (
        "node(s) didn't match pod topology spread constraints (missing required label)")


def test_filter_on_a_view_and_after_assume():
    """Filter answers for the rows of a view; counts follow assume/forget/rollback."""
    pod = incoming(sc(1, "node", DNS, FOO))
    state = make_state(FOUR, pods("a:1"))
    pl = plugin()
    view = np.array([state.node_index["node-a"], state.node_index["node-x"]])
    cs = CycleState()
    pl.pre_filter(cs, pod, state, view)
    assert pl.filter(cs, pod, state, view).passed.tolist() == [False, True]
    with state.tentative():
        for name in ("node-b", "node-x", "node-y"):
            state.assume(P(f"new-{name}", foo=""), state.node_index[name])
        cs = CycleState()
        pl.pre_filter(cs, pod, state, view)
        assert pl.filter(cs, pod, state, view).passed.tolist() == [True, True]
    cs = CycleState()
    pl.pre_filter(cs, pod, state, view)
    assert pl.filter(cs, pod, state, view).passed.tolist() == [False, True]


def test_min_domains_with_no_domain_treats_minimum_as_zero():
    pod = incoming(sc(1, "zone", DNS, FOO), node_selector={"nothing": "matches"})
    state = make_state(FOUR, pods("a:3"))
    assert prefilter_counts(plugin(), pod, state) == [({}, 0)]
    assert filter_codes(pod, FOUR, pods("a:3")) == {n.name: OK for n in FOUR}


# ------------------------------------------------------------------------------------------
# Scoring (TestPreScoreSkip, TestPodTopologySpreadScore)
# ------------------------------------------------------------------------------------------

def scores(pod, nodes, existing, failed=(), args=None, handle=None):
    """PreScore + Score + NormalizeScore over `nodes` (the feasible ones); `failed` nodes exist
    in the cluster but did not pass Filter."""
    state = make_state(list(nodes) + list(failed), existing)
    pl = plugin(args or PodTopologySpreadArgs(defaulting_type=SYSTEM_DEFAULTING), handle)
    feasible = np.array(sorted(state.node_index[n.name] for n in nodes), dtype=np.intp)
    cs = CycleState()
    status = pl.pre_score(cs, pod, state, feasible)
    if status.is_skip():
        return "skip"
    raw = pl.score(cs, pod, state, feasible)
    assert raw.dtype == np.int64
    out = pl.normalize(cs, pod, raw)
    return {state.node_names[i]: int(s) for i, s in zip(feasible, out)}


def test_pre_score_skip_without_soft_constraints():
    pod = make_pod("p")
    assert scores(pod, [NH("node-a"), NH("node-b")], [], args=PodTopologySpreadArgs(defaulting_type=LIST_DEFAULTING)) == "skip"


def test_pre_score_skip_default_constraints_and_a_replicaset_that_doesnt_match():
    pod = make_pod("p", labels={"foo": "bar", "baz": "sup"},
                   owner_references=(OwnerReference("ReplicaSet", "rs2", True),))
    args = PodTopologySpreadArgs(default_constraints=(sc(2, "planet", SA, None),), defaulting_type=LIST_DEFAULTING)
    handle = Handle(spread_selectors=(SpreadSelector("ReplicaSet", "default", "rs1", exists("tar")),))
    assert scores(pod, [N("node-a", planet="mars")], [], args=args, handle=handle) == "skip"


NODES_4H = [NH("node-a"), NH("node-b"), NH("node-c"), NH("node-d")]
NODES_ABC_NODEKEY = [N("node-a", node="node-a", foo=""), N("node-b", node="node-b", foo=""), N("node-c", node="node-c")]
PODS_SCORE_POLICY = [P("p-a1", "node-a", foo=""), P("p-a2", "node-a", foo=""), P("p-b1", "node-b", foo=""),
                     P("p-c1", "node-c", foo="")]
NODES_ZH = [make_node(f"node-{x}", labels={"zone": z, HOST: f"node-{x}"})
            for x, z in (("a", "zone1"), ("b", "zone1"), ("c", "zone2"), ("d", "zone2"))]
PODS_MLK = [P("p-a1", "node-a", foo=""), P("p-b1", "node-b", foo="", bar=""), P("p-y1", "node-c", foo=""),
            P("p-y2", "node-c", bar="")]

SCORE_CASES = [
    pytest.param(incoming(sc(1, HOST, SA, FOO)), [NH("node-a"), NH("node-b")], [], (),
                 {"node-a": 100, "node-b": 100}, id="one constraint on node, no existing pods"),
    pytest.param(incoming(sc(1, HOST, SA, FOO)), [NH("node-a")], pods("a:2,b:1"), [NH("node-b")],
                 {"node-a": 100}, id="one constraint on node, only one node is candidate"),
    pytest.param(incoming(sc(1, HOST, SA, FOO)), [NH("node-a"), NH("node-b")], pods("a:1,b:1"), (),
                 {"node-a": 100, "node-b": 100}, id="one constraint on node, all nodes have the same number of matching pods"),
    pytest.param(incoming(sc(1, HOST, SA, FOO)), NODES_4H, pods("a:2,b:1,d:3"), (),
                 {"node-a": 20, "node-b": 60, "node-c": 100, "node-d": 0},
                 id="one constraint on node, all 4 nodes are candidates"),
    pytest.param(incoming(sc(1, HOST, SA, None)), NODES_4H, pods("a:2,b:1,d:3"), (),
                 {"node-a": 100, "node-b": 100, "node-c": 100, "node-d": 100}, id="one constraint on node, null selector"),
    pytest.param(incoming(sc(2, HOST, SA, FOO)), NODES_4H, pods("a:2,b:1,d:3"), (),
                 {"node-a": 33, "node-b": 66, "node-c": 100, "node-d": 16},
                 id="one constraint on node, all 4 nodes are candidates, maxSkew=2"),
    pytest.param(incoming(sc(3, HOST, SA, FOO)), NODES_4H, pods("a:4,b:3,c:2,d:1"), (),
                 {"node-a": 44, "node-b": 66, "node-c": 77, "node-d": 100},
                 id="one constraint on node, all 4 nodes are candidates, maxSkew=3"),
    pytest.param(incoming(sc(1, HOST, SA, FOO)), [NH("node-a"), NH("node-b"), NH("node-x")], pods("a:4,b:2,x:1,y:3"),
                 [NH("node-y")], {"node-a": 33, "node-b": 83, "node-x": 100},
                 id="one constraint on node, 3 out of 4 nodes are candidates"),
    pytest.param(incoming(sc(1, HOST, SA, FOO)), [NH("node-a"), N("node-b", n="node-b"), NH("node-x")],
                 pods("a:4,b:2,x:1,y:3"), [NH("node-y")], {"node-a": 16, "node-b": 0, "node-x": 100},
                 id="one constraint on node, 3 out of 4 nodes are candidates, one node doesn't match topology key"),
    pytest.param(incoming(sc(1, "zone", SA, FOO)),
                 [make_node(f"node-{x}", labels={"zone": z, HOST: f"node-{x}"}) for x, z in
                  (("a", "zone1"), ("b", "zone1"), ("x", "zone2"))],
                 pods("a:4,b:2,x:1,y:3"), [make_node("node-y", labels={"zone": "zone2", HOST: "node-y"})],
                 {"node-a": 75, "node-b": 75, "node-x": 100}, id="one constraint on zone, 3 out of 4 nodes are candidates"),
    pytest.param(incoming(sc(1, "zone", SA, FOO), sc(1, HOST, SA, FOO)),
                 [make_node("node-a", labels={"zone": "zone1", HOST: "node-a"}),
                  make_node("node-x", labels={"zone": "zone2", HOST: "node-x"})],
                 pods("a:2,b:1,x:2,y:4"),
                 [make_node("node-b", labels={"zone": "zone1", HOST: "node-b"}),
                  make_node("node-y", labels={"zone": "zone2", HOST: "node-y"})],
                 {"node-a": 100, "node-x": 63}, id="two Constraints on zone and node, 2 out of 4 nodes are candidates"),
    pytest.param(incoming(sc(1, "zone", SA, FOO), sc(1, "zone", SA, BAR), labels={"foo": "", "bar": ""}),
                 [N("node-a", zone="zone1"), N("node-x", zone="zone2")],
                 [P("p-a1", "node-a", foo="", bar=""), P("p-a2", "node-a", foo=""), P("p-b1", "node-b", foo="", bar=""),
                  P("p-y1", "node-y", foo=""), P("p-y2", "node-y", foo="", bar=""), P("p-y3", "node-y", foo="")],
                 [N("node-b", zone="zone1"), N("node-y", zone="zone2")],
                 {"node-a": 85, "node-x": 100}, id="two Constraints on zone, 2 out of 4 nodes are candidates"),
    pytest.param(incoming(sc(1, "zone", SA, FOO), sc(1, HOST, SA, BAR), labels={"foo": "", "bar": ""}),
                 [make_node(f"node-{x}", labels={"zone": z, HOST: f"node-{x}"}) for x, z in
                  (("a", "zone1"), ("b", "zone1"), ("x", "zone2"), ("y", "zone2"))],
                 [P("p-a1", "node-a", foo=""), P("p-b1", "node-b", foo="", bar=""), P("p-y1", "node-y", foo=""),
                  P("p-y2", "node-y", bar="")], (),
                 {"node-a": 60, "node-b": 20, "node-x": 100, "node-y": 60},
                 id="two Constraints on zone and node, with different labelSelectors"),
    pytest.param(incoming(sc(1, "zone", SA, FOO), sc(1, HOST, SA, BAR), labels={"foo": "", "bar": ""}),
                 [make_node(f"node-{x}", labels={"zone": z, HOST: f"node-{x}"}) for x, z in
                  (("a", "zone1"), ("b", "zone1"), ("x", "zone2"), ("y", "zone2"))],
                 [P("p-b1", "node-b", bar=""), P("p-x1", "node-x", foo=""), P("p-y1", "node-y", foo="", bar="")], (),
                 {"node-a": 100, "node-b": 60, "node-x": 40, "node-y": 0},
                 id="two Constraints on zone and node, with different labelSelectors, some nodes have 0 pods"),
    pytest.param(incoming(sc(1, "zone", SA, FOO), sc(1, HOST, SA, BAR), labels={"foo": "", "bar": ""}),
                 [make_node(f"node-{x}", labels={"zone": z, HOST: f"node-{x}"}) for x, z in
                  (("a", "zone1"), ("b", "zone1"), ("x", "zone2"))],
                 [P("p-a1", "node-a", foo=""), P("p-b1", "node-b", foo="", bar=""), P("p-y1", "node-y", foo=""),
                  P("p-y2", "node-y", bar="")],
                 [make_node("node-y", labels={"zone": "zone2", HOST: "node-y"})],
                 {"node-a": 50, "node-b": 25, "node-x": 100},
                 id="two Constraints on zone and node, with different labelSelectors, 3 out of 4 nodes are candidates"),
    pytest.param(incoming(sc(1, HOST, SA, FOO)), [NH("node-a"), NH("node-b")],
                 [P("p-a1", "node-a", ns="ns1", foo=""), P("p-a2", "node-a", foo=""), P("p-b1", "node-b", foo=""),
                  P("p-b2", "node-b", foo="")], (),
                 {"node-a": 100, "node-b": 33}, id="existing pods in a different namespace do not count"),
    pytest.param(incoming(sc(2, "node", SA, FOO, min_domains=10)), NODES_ABC, pods("a:2,b:2,c:1"), (),
                 {"node-a": 75, "node-b": 75, "node-c": 100}, id="minDomains has no effect when ScheduleAnyway"),
    pytest.param(incoming(sc(1, "node", SA, FOO), node_selector={"foo": ""}), NODES_ABC_NODEKEY, PODS_SCORE_POLICY, (),
                 {"node-a": 0, "node-b": 33, "node-c": 100}, id="NodeAffinityPolicy honoed with labelSelectors"),
    pytest.param(incoming(sc(1, "node", SA, FOO, affinity="Ignore"), node_selector={"foo": ""}), NODES_ABC_NODEKEY,
                 PODS_SCORE_POLICY, (), {"node-a": 66, "node-b": 100, "node-c": 100},
                 id="NodeAffinityPolicy ignored with labelSelectors"),
    pytest.param(incoming(sc(1, "node", SA, FOO), affinity=node_in("foo", [""])), NODES_ABC_NODEKEY,
                 PODS_SCORE_POLICY, (), {"node-a": 0, "node-b": 33, "node-c": 100},
                 id="NodeAffinityPolicy honoed with nodeAffinity"),
    pytest.param(incoming(sc(1, "node", SA, FOO, affinity="Ignore"), affinity=node_in("foo", [""])),
                 NODES_ABC_NODEKEY, PODS_SCORE_POLICY, (), {"node-a": 66, "node-b": 100, "node-c": 100},
                 id="NodeAffinityPolicy ignored with nodeAffinity"),
    pytest.param(incoming(sc(1, "node", SA, FOO, taints="Honor")),
                 NODES_ABC[:2] + [N("node-c", taints=[UNSCHEDULABLE_TAINT], node="node-c")], PODS_SCORE_POLICY, (),
                 {"node-a": 0, "node-b": 33, "node-c": 100}, id="NodeTaintsPolicy honored"),
    pytest.param(incoming(sc(1, "node", SA, FOO)),
                 NODES_ABC[:2] + [N("node-c", taints=[UNSCHEDULABLE_TAINT], node="node-c")], PODS_SCORE_POLICY, (),
                 {"node-a": 66, "node-b": 100, "node-c": 100}, id="NodeTaintsPolicy ignored"),
    pytest.param(incoming(sc(1, "zone", SA, LabelSelector(), keys=["foo"]), sc(1, HOST, SA, LabelSelector(), keys=["bar"]),
                          labels={"foo": "", "bar": ""}),
                 NODES_ZH, PODS_MLK, (), {"node-a": 60, "node-b": 20, "node-c": 60, "node-d": 100},
                 id="matchLabelKeys ANDed with LabelSelector when LabelSelector is empty"),
    pytest.param(incoming(sc(1, "zone", SA, FOO), sc(1, HOST, SA, BAR, keys=["baz"]),
                          labels={"foo": "", "bar": "", "baz": ""}),
                 NODES_ZH,
                 [P("p-a1", "node-a", foo=""), P("p-b1", "node-b", foo="", bar="", baz=""), P("p-c1", "node-c", foo=""),
                  P("p-c2", "node-c", bar=""), P("p-d3", "node-c", bar="", baz="")], (),
                 {"node-a": 60, "node-b": 20, "node-c": 60, "node-d": 100},
                 id="matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty"),
]


@pytest.mark.parametrize("pod, nodes, existing, failed, want", SCORE_CASES)
def test_score(pod, nodes, existing, failed, want):
    assert scores(pod, nodes, existing, failed) == want


def test_score_match_label_keys_gate_disabled():
    """matchLabelKeys ignored when the MatchLabelKeysInPodTopologySpread gate is off."""
    pod = incoming(sc(1, "zone", SA, FOO, keys=["baz"]), sc(1, HOST, SA, BAR, keys=["baz"]),
                   labels={"foo": "", "bar": "", "baz": ""})
    handle = Handle(feature_gates={"MatchLabelKeysInPodTopologySpread": False})
    assert scores(pod, NODES_ZH, PODS_MLK, handle=handle) == {"node-a": 60, "node-b": 20, "node-c": 60, "node-d": 100}
    # With the gate on (the default) the selectors also need baz, which no existing pod has.
    assert scores(pod, NODES_ZH, PODS_MLK) == {"node-a": 100, "node-b": 100, "node-c": 100, "node-d": 100}


def test_score_system_defaulting_nodes_without_zone_pods_match_service():
    """system defaulting, nodes don't have zone, pods match service (same scores as one
    hostname constraint with maxSkew 3)."""
    pod = make_pod("p", labels={"foo": ""})
    handle = Handle(spread_selectors=(service(foo=""),))
    assert scores(pod, NODES_4H, pods("a:4,b:3,c:2,d:1"), handle=handle) == {
        "node-a": 44, "node-b": 66, "node-c": 77, "node-d": 100}


def test_score_system_default_constraints_and_a_replicaset():
    """Derived from upstream's 'system default constraints and a replicaset' PreScore state:
    nodes without a zone form the "" domain (zone weight log(2+2)) but get no zone score;
    hostname weight is log(4+2). Raw: a 2*ln6+2 + 2*ln4+4 = 12, b 2 + 6.77 = 9, c 1*ln6+2 = 4,
    d 2; normalised 100*(12+2-s)/12."""
    pod = make_pod("p", labels={"foo": "tar", "baz": "sup"},
                   owner_references=(OwnerReference("ReplicaSet", "rs1", True),))
    handle = Handle(spread_selectors=(SpreadSelector("ReplicaSet", "default", "rs1", FOO),))
    nodes = [make_node("node-a", labels={HOST: "node-a", ZONE: "mars"}),
             make_node("node-b", labels={HOST: "node-b", ZONE: "mars"}),
             make_node("node-c", labels={HOST: "node-c"}), make_node("node-d", labels={HOST: "node-d"})]
    existing = pods("a:2,c:1")
    assert scores(pod, nodes, existing, handle=handle) == {"node-a": 16, "node-b": 41, "node-c": 83, "node-d": 100}


def test_default_selector_merges_services_and_controller():
    """helper.DefaultSelector: matching Services' labels plus the controlling ReplicaSet's
    selector; a non-controller owner reference and Services of other namespaces are ignored."""
    pod = make_pod("p", labels={"app": "web", "tier": "fe"},
                   owner_references=(OwnerReference("ReplicaSet", "other", False),
                                     OwnerReference("ReplicaSet", "rs", True)))
    handle = Handle(spread_selectors=(
        SpreadSelector("Service", "default", "web", labels_sel(app="web")),
        SpreadSelector("Service", "default", "db", labels_sel(app="db")),
        SpreadSelector("Service", "other", "web", labels_sel(tier="fe")),
        SpreadSelector("ReplicaSet", "default", "rs", exists("tier")),
        SpreadSelector("ReplicaSet", "default", "other", exists("nope")),
    ))
    pl = plugin(PodTopologySpreadArgs(), handle)
    sel = pl.default_selector(pod)
    assert sel.match_labels == (("app", "web"),)
    assert sel.match_expressions == (LabelSelectorRequirement("tier", "Exists"),)
    assert [c.topology_key for c in pl.constraints(pod, SA)] == [HOST, ZONE]
    assert pl.constraints(pod, DNS) == ()
    assert pl.constraints(make_pod("q", labels={"x": "y"}), SA) == ()


def test_pre_filter_cache_follows_state_version():
    pod = incoming(sc(1, "zone", DNS, FOO))
    state = make_state(FOUR, pods("a:1"))
    pl = plugin()
    assert prefilter_counts(pl, pod, state) == [({"zone1": 1, "zone2": 0}, 0)]
    state.assume(P("q", foo=""), state.node_index["node-x"])
    state.assume(P("r", foo=""), state.node_index["node-y"])
    assert prefilter_counts(pl, pod, state) == [({"zone1": 1, "zone2": 2}, 1)]
    state.forget(P("q"))
    assert prefilter_counts(pl, pod, state) == [({"zone1": 1, "zone2": 1}, 1)]


@pytest.mark.parametrize("x, want", [
    pytest.param(0.5, 1, id="half rounds up"), pytest.param(1.5, 2, id="1.5"), pytest.param(2.5, 3, id="2.5 away from zero"),
    pytest.param(0.49999999999999994, 0, id="just below a half"), pytest.param(-0.5, -1, id="negative half"),
])
def test_go_round(x, want):
    assert int(go_round(np.array([x]))[0]) == want


def test_go_log_matches_the_algorithm_go_uses():
    # Values where Go's math.Log and C's log may differ in the last bit still agree to 1 ulp.
    import math
    for x in (2.0, 3.0, 4.0, 5.0, 6.0, 1002.0):
        assert abs(go_log(x) - math.log(x)) <= math.ulp(math.log(x))
    assert go_log(1.0) == 0.0


# ------------------------------------------------------------------------------------------
# Property: the vectorised plugin agrees with a per-node, per-pod transcription of upstream's
# filtering.go / scoring.go on random small clusters.
# ------------------------------------------------------------------------------------------

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from podgroup_plan.plugins.pod_topology_spread import LABEL_HOSTNAME
from podgroup_plan.plugins.taint_toleration import tolerations_tolerate

_KEYS = ["zone", "rack", LABEL_HOSTNAME]
_SELECTORS = [FOO, BAR, None, LabelSelector(), labels_sel(bar="a")]


@st.composite
def clusters(draw):
    n = draw(st.integers(1, 6))
    nodes = []
    for i in range(n):
        labels = {}
        if draw(st.booleans()) or i == 0:
            labels["zone"] = draw(st.sampled_from(["z1", "z2", ""]))
        if draw(st.booleans()):
            labels["rack"] = draw(st.sampled_from(["r1", "r2"]))
        if draw(st.integers(0, 4)):
            labels[LABEL_HOSTNAME] = f"n{i}"
        if draw(st.booleans()):
            labels["disk"] = "ssd"
        taints = [UNSCHEDULABLE_TAINT] if draw(st.integers(0, 3)) == 0 else []
        nodes.append(make_node(f"n{i}", labels=labels, taints=taints))
    existing = []
    for j in range(draw(st.integers(0, 14))):
        labels = {}
        if draw(st.booleans()):
            labels["foo"] = ""
        if draw(st.booleans()):
            labels["bar"] = draw(st.sampled_from(["a", "b"]))
        ns = draw(st.sampled_from(["default", "default", "other"]))
        existing.append(make_pod(f"e{j}", ns, labels=labels, node_name=f"n{draw(st.integers(0, n - 1))}"))
    return nodes, existing


@st.composite
def spread_pods(draw):
    constraints = []
    for _ in range(draw(st.integers(0, 3))):
        constraints.append(sc(
            draw(st.integers(1, 2)), draw(st.sampled_from(_KEYS)), draw(st.sampled_from([DNS, SA])),
            draw(st.sampled_from(_SELECTORS)), draw(st.sampled_from([None, 1, 2, 3])),
            draw(st.sampled_from(["Honor", "Ignore"])), draw(st.sampled_from(["Honor", "Ignore"])),
            draw(st.sampled_from([(), ("bar",)])),
        ))
    labels = {}
    if draw(st.booleans()):
        labels["foo"] = ""
    if draw(st.booleans()):
        labels["bar"] = draw(st.sampled_from(["a", "b"]))
    node_selector = {"disk": "ssd"} if draw(st.integers(0, 3)) == 0 else None
    tolerations = (Toleration("node.kubernetes.io/unschedulable", "Exists", "", "NoSchedule"),) \
        if draw(st.booleans()) else ()
    return make_pod("p", labels=labels, node_selector=node_selector, tolerations=tolerations,
                    topology_spread_constraints=tuple(constraints),
                    owner_references=(OwnerReference("ReplicaSet", "rs", True),))


def _ref_count(node, existing, pod, selector):
    if selector is None or selector.is_empty:
        return 0
    return sum(1 for e in existing if e.node_name == node.name and e.namespace == pod.namespace
               and selector.matches(e.labels))


def _ref_included(c, pod, node):
    if c.honor_node_affinity:
        if any(node.labels.get(k) != v for k, v in pod.node_selector.items()):
            return False
    if c.honor_node_taints:
        for t in node.taints:
            if t.effect in ("NoSchedule", "NoExecute") and not tolerations_tolerate(pod.tolerations, t):
                return False
    return True


def ref_filter(pl, pod, nodes, existing):
    cons = pl.constraints(pod, DNS)
    if not cons:
        return "skip"
    tp = [dict() for _ in cons]
    for node in nodes:
        if not all(c.topology_key in node.labels for c in cons):
            continue
        for i, c in enumerate(cons):
            if _ref_included(c, pod, node):
                v = node.labels[c.topology_key]
                tp[i][v] = tp[i].get(v, 0) + _ref_count(node, existing, pod, c.selector)
    out = {}
    for node in nodes:
        status = OK
        for i, c in enumerate(cons):
            if c.topology_key not in node.labels:
                status = UU
                break
            m = min(tp[i].values()) if tp[i] else 2**31 - 1
            if len(tp[i]) < c.min_domains:
                m = 0
            self_match = 1 if c.selector is not None and c.selector.matches(pod.labels) else 0
            if tp[i].get(node.labels[c.topology_key], 0) + self_match - m > c.max_skew:
                status = U
                break
        out[node.name] = status
    return out


def ref_scores(pl, pod, nodes, existing, feasible_names):
    cons = pl.constraints(pod, SA)
    if not cons:
        return "skip"
    feasible = [n for n in nodes if n.name in feasible_names]
    require_all = bool(pod.topology_spread_constraints) or not pl._system_defaulted
    ignored = {n.name for n in feasible if require_all and not all(c.topology_key in n.labels for c in cons)}
    tv = [dict() for _ in cons]
    for n in feasible:
        if n.name in ignored:
            continue
        for i, c in enumerate(cons):
            if c.topology_key != LABEL_HOSTNAME:
                tv[i].setdefault(n.labels.get(c.topology_key, ""), 0)
    weights = [go_log(float((len(feasible) - len(ignored)) if c.topology_key == LABEL_HOSTNAME else len(tv[i])) + 2)
               for i, c in enumerate(cons)]
    for n in nodes:
        if require_all and not all(c.topology_key in n.labels for c in cons):
            continue
        for i, c in enumerate(cons):
            if not _ref_included(c, pod, n):
                continue
            v = n.labels.get(c.topology_key, "")
            if v in tv[i]:
                tv[i][v] += _ref_count(n, existing, pod, c.selector)
    raw = {}
    for n in feasible:
        if n.name in ignored:
            raw[n.name] = 0
            continue
        s = 0.0
        for i, c in enumerate(cons):
            if c.topology_key in n.labels:
                cnt = (_ref_count(n, existing, pod, c.selector) if c.topology_key == LABEL_HOSTNAME
                       else tv[i][n.labels[c.topology_key]])
                s += float(cnt) * weights[i] + float(c.max_skew - 1)
        raw[n.name] = int(go_round(np.array([s]))[0])
    kept = [raw[n] for n in raw if n not in ignored]
    if not kept:
        return {n: 0 for n in raw}
    mx, mn = max(kept), min(kept)
    return {n: 0 if n in ignored else (100 if mx == 0 else 100 * (mx + mn - s) // mx) for n, s in raw.items()}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(clusters(), spread_pods(), st.sampled_from([SYSTEM_DEFAULTING, LIST_DEFAULTING]), st.data())
def test_matches_reference_implementation(cluster, pod, defaulting, data):
    nodes, existing = cluster
    args = PodTopologySpreadArgs(defaulting_type=defaulting,
                                 default_constraints=() if defaulting == SYSTEM_DEFAULTING
                                 else (sc(1, "zone", DNS, None), sc(2, "rack", SA, None)))
    handle = Handle(spread_selectors=(SpreadSelector("ReplicaSet", "default", "rs", FOO),))
    pl = PodTopologySpread(args, handle)
    state = make_state(nodes, existing)
    placed = [e for e in existing if e.node_name in state.node_index]
    cs = CycleState()
    result = pl.pre_filter(cs, pod, state, state.all_nodes)
    want = ref_filter(pl, pod, nodes, placed)
    if want == "skip":
        assert result.status.is_skip()
    else:
        got = node_statuses(pl.filter(cs, pod, state, state.all_nodes), state)
        assert {k: OK if v is None else v[0] for k, v in got.items()} == want
    names = data.draw(st.sets(st.sampled_from([n.name for n in nodes]), min_size=1))
    assert scores(pod, [n for n in nodes if n.name in names], placed,
                  [n for n in nodes if n.name not in names], args, handle) == ref_scores(pl, pod, nodes, placed, names)


def test_go_round_non_negative_equals_go_round_on_non_negative_scores():
    """PreScore's scores are never negative; the shorter rounding must agree with Go's
    math.Round there, at halves and next to them."""
    from podgroup_plan.plugins.pod_topology_spread import go_round, go_round_non_negative

    rng = np.random.default_rng(7)
    halves = np.arange(0, 200) + 0.5
    x = np.concatenate([halves, np.nextafter(halves, 0), np.nextafter(halves, 1e9),
                        rng.uniform(0, 1e6, 5000), np.array([0.0, 0.49999999999999994, 2**52 + 0.5])])
    assert go_round_non_negative(x).tolist() == go_round(x).tolist()


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_scores_by_count_equal_the_float_sum_per_node(seed):
    """PreScore's one-constraint path works out a score per count and gathers it; it must give
    every node what the per-node float64 sum and rounding give (scoring.go), whatever the
    counts, the weight (a log of the nodes or domains scored) and maxSkew."""
    from podgroup_plan.plugins.pod_topology_spread import raw_scores, raw_scores_by_count

    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 400))
    cnt = rng.integers(0, int(rng.choice([1, 3, 20, n + 1])) + 1, n).astype(np.int64)
    weight = go_log(float(rng.integers(0, 20_000) + 2))
    offset = float(rng.integers(0, 5))
    got = raw_scores_by_count(cnt, weight, offset)
    want = raw_scores([(cnt, weight, offset, None)], n)
    if int(cnt.max()) > n:
        assert got is None
    else:
        assert got.dtype == np.int64 and got.tolist() == want.tolist()


def test_filter_verdict_kept_per_domain_verdicts_is_read_only_and_equals_a_fresh_one():
    """Over every node, Filter's answer for a few domains is kept per per-domain verdict and
    shared by the pods that meet it again: it must equal the answer worked out for a view
    that is not the state's own node list (never kept), and nobody may write into it."""
    nodes = [make_node(f"n{i}", labels={ZONE: f"z{i % 3}", HOST: f"n{i}"} if i != 4 else {HOST: "n4"})
             for i in range(7)]
    placed = [make_pod(f"p{i}", labels={"foo": ""}, node_name=f"n{i % 2}") for i in range(3)]
    state = make_state(nodes, placed)
    pl = PodTopologySpread()
    pods = [make_pod(f"q{i}", labels={"foo": ""}, topology_spread_constraints=(sc(1, ZONE, DNS, FOO),))
            for i in range(3)]
    kept = None
    for pod in pods:
        cs = CycleState()
        pl.pre_filter(cs, pod, state, state.all_nodes)
        verdict = pl.filter(cs, pod, state, state.all_nodes)
        fresh = pl.filter(cs, pod, state, state.all_nodes.copy())
        assert verdict.passed.tolist() == fresh.passed.tolist()
        assert [(f.reasons, f.code, f.mask.tolist()) for f in verdict.failures] == \
            [(f.reasons, f.code, f.mask.tolist()) for f in fresh.failures]
        assert not verdict.passed.flags.writeable
        assert all(not f.mask.flags.writeable for f in verdict.failures)
        assert kept is None or verdict is kept  # the same counts: the kept answer
        kept = verdict
    skew, missing = (U, (ERR_REASON_CONSTRAINTS_NOT_MATCH,)), (UU, (ERR_REASON_NODE_LABEL_NOT_MATCH,))
    # zone z0 holds 2 matching pods, z1 one, z2 none: only z2 keeps the skew within 1
    assert node_statuses(kept, state) == {
        "n0": skew, "n1": skew, "n2": None, "n3": skew, "n4": missing, "n5": None, "n6": skew}
