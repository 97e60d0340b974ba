"""NodeAffinity, with the cases of upstream's
`pkg/scheduler/framework/plugins/nodeaffinity/node_affinity_test.go` (TestNodeAffinity,
TestNodeAffinityPriority)."""
import numpy as np
import pytest

from builders import make_node, make_pod, make_state, node_statuses
from podgroup_plan.config.args import NodeAffinityArgs
from podgroup_plan.framework.interface import CycleState
from podgroup_plan.framework.status import Code
from podgroup_plan.model.objects import Affinity, PreferredSchedulingTerm
from podgroup_plan.model.selectors import NodeSelector, NodeSelectorRequirement, NodeSelectorTerm
from podgroup_plan.plugins.node_affinity import NodeAffinity, valid_label_key, valid_label_value

POD = ("UnschedulableAndUnresolvable", ("node(s) didn't match Pod's node affinity/selector",))
ENFORCED = ("UnschedulableAndUnresolvable", ("node(s) didn't match scheduler-enforced node affinity",))


def R(key, op, *values):
    return NodeSelectorRequirement(key, op, tuple(values))


def term(*exprs, fields=()):
    return NodeSelectorTerm(tuple(exprs), tuple(fields))


def required(*terms):
    return Affinity(node_required=NodeSelector(tuple(terms)))


NAME = "metadata.name"

FILTER_CASES = [
    # (pod kwargs, node name, node labels, args, want pre-filter (code, names), want filter)
    pytest.param({}, "n", {}, None, (Code.SKIP, None), None, id="no selector"),
    pytest.param({"node_selector": {"foo": "bar"}}, "n", {}, None, (Code.SUCCESS, None), POD, id="missing labels"),
    pytest.param({"node_selector": {"foo": "bar"}}, "n", {"foo": "bar"}, None, (Code.SUCCESS, None), None,
                 id="same labels"),
    pytest.param({"node_selector": {"foo": "bar"}}, "n", {"foo": "bar", "baz": "blah"}, None,
                 (Code.SUCCESS, None), None, id="node labels are superset"),
    pytest.param({"node_selector": {"foo": "bar", "baz": "blah"}}, "n", {"foo": "bar"}, None,
                 (Code.SUCCESS, None), POD, id="node labels are subset"),
    pytest.param({"affinity": required(term(R("foo", "In", "bar", "value2")))}, "n", {"foo": "bar"}, None,
                 (Code.SUCCESS, None), None, id="matchExpressions In matches"),
    pytest.param({"affinity": required(term(R("kernel-version", "Gt", "0204")))}, "n", {"kernel-version": "0206"},
                 None, (Code.SUCCESS, None), None, id="matchExpressions Gt matches"),
    pytest.param({"affinity": required(term(R("mem-type", "NotIn", "DDR", "DDR2")))}, "n", {"mem-type": "DDR3"},
                 None, (Code.SUCCESS, None), None, id="matchExpressions NotIn matches"),
    pytest.param({"affinity": required(term(R("GPU", "Exists")))}, "n", {"GPU": "NVIDIA-GRID-K1"}, None,
                 (Code.SUCCESS, None), None, id="matchExpressions Exists matches"),
    pytest.param({"affinity": required(term(R("foo", "In", "value1", "value2")))}, "n", {"foo": "bar"}, None,
                 (Code.SUCCESS, None), POD, id="affinity that doesn't match node labels"),
    pytest.param({"affinity": required()}, "n", {"foo": "bar"}, None, (Code.SUCCESS, None), POD,
                 id="nil or empty NodeSelectorTerms match no node"),
    pytest.param({"affinity": required(term())}, "n", {"foo": "bar"}, None, (Code.SUCCESS, None), POD,
                 id="empty matchExpressions match no node"),
    pytest.param({"affinity": Affinity()}, "n", {"foo": "bar"}, None, (Code.SKIP, None), None,
                 id="affinity but nil required node selector"),
    pytest.param({"affinity": required(term(R("GPU", "Exists"), R("GPU", "NotIn", "AMD", "INTER")))}, "n",
                 {"GPU": "NVIDIA-GRID-K1"}, None, (Code.SUCCESS, None), None,
                 id="multiple matchExpressions ANDed, matching"),
    pytest.param({"affinity": required(term(R("GPU", "Exists"), R("GPU", "In", "AMD", "INTER")))}, "n",
                 {"GPU": "NVIDIA-GRID-K1"}, None, (Code.SUCCESS, None), POD,
                 id="multiple matchExpressions ANDed, not matching"),
    pytest.param({"affinity": required(term(R("foo", "In", "bar", "value2")), term(R("diffkey", "In", "wrong", "value2")))},
                 "n", {"foo": "bar"}, None, (Code.SUCCESS, None), None, id="multiple terms ORed"),
    pytest.param({"node_selector": {"foo": "bar"}, "affinity": required(term(R("foo", "Exists")))}, "n",
                 {"foo": "bar"}, None, (Code.SUCCESS, None), None, id="affinity and nodeSelector both satisfied"),
    pytest.param({"node_selector": {"foo": "bar"}, "affinity": required(term(R("foo", "Exists")))}, "n",
                 {"foo": "barrrrrr"}, None, (Code.SUCCESS, None), POD, id="affinity matches, nodeSelector does not"),
    pytest.param({"affinity": required(term(R("foo", "NotIn", "invalid value: ___@#$%^")))}, "n", {"foo": "bar"},
                 None, (Code.SUCCESS, None), POD, id="invalid value in affinity term"),
    pytest.param({"affinity": required(term(fields=[R(NAME, "In", "node1")]))}, "node1", {}, None,
                 (Code.SUCCESS, frozenset({"node1"})), None, id="matchFields In matches"),
    pytest.param({"affinity": required(term(fields=[R(NAME, "In", "node1")]))}, "node2", {}, None,
                 (Code.SUCCESS, frozenset({"node1"})), POD, id="matchFields In does not match"),
    pytest.param({"affinity": required(term(fields=[R(NAME, "In", "node1")]), term(R("foo", "In", "bar")))},
                 "node2", {"foo": "bar"}, None, (Code.SUCCESS, None), None,
                 id="two terms: matchFields does not match, matchExpressions matches"),
    pytest.param({"affinity": required(term(R("foo", "In", "bar"), fields=[R(NAME, "In", "node1")]))},
                 "node2", {"foo": "bar"}, None, (Code.SUCCESS, frozenset({"node1"})), POD,
                 id="one term: matchFields does not match, matchExpressions matches"),
    pytest.param({"affinity": required(term(R("foo", "In", "bar"), fields=[R(NAME, "In", "node1")]))},
                 "node1", {"foo": "bar"}, None, (Code.SUCCESS, frozenset({"node1"})), None,
                 id="one term: both matchFields and matchExpressions match"),
    pytest.param({"affinity": required(term(fields=[R(NAME, "In", "node1")]), term(R("foo", "In", "not-match-to-bar")))},
                 "node2", {"foo": "bar"}, None, (Code.SUCCESS, None), POD,
                 id="two terms: neither matches"),
    pytest.param({"affinity": required(term(fields=[R(NAME, "In", "node1")]), term(fields=[R(NAME, "In", "node2")]))},
                 "node2", {}, None, (Code.SUCCESS, frozenset({"node1", "node2"})), None,
                 id="two terms of node.Name affinity"),
    pytest.param({"affinity": required(term(fields=[R(NAME, "In", "node1"), R(NAME, "In", "node2")]))},
                 "node2", {"foo": "bar"}, None,
                 (Code.UNSCHEDULABLE_AND_UNRESOLVABLE, None), POD, id="two conflicting matchFields requirements"),
    pytest.param({"affinity": required(term(R("zone", "In", "foo")))}, "node2", {"zone": "foo"},
                 NodeAffinityArgs(added_affinity_required=NodeSelector((term(fields=[R(NAME, "In", "node2")]),))),
                 (Code.SUCCESS, None), None, id="matches added affinity and pod's node affinity"),
    pytest.param({"affinity": required(term(R("zone", "In", "bar")))}, "node2", {"zone": "foo"},
                 NodeAffinityArgs(added_affinity_required=NodeSelector((term(fields=[R(NAME, "In", "node2")]),))),
                 (Code.SUCCESS, None), POD, id="matches added affinity but not pod's node affinity"),
    pytest.param({}, "node2", {"zone": "foo"},
                 NodeAffinityArgs(added_affinity_required=NodeSelector((term(R("zone", "In", "bar")),))),
                 (Code.SUCCESS, None), ENFORCED, id="doesn't match added affinity"),
    pytest.param({"affinity": required(term(R("num", "Lt", "10")))}, "n", {"num": "+9"}, None,
                 (Code.SUCCESS, None), None, id="Lt parses the label as a Go int (sign allowed)"),
    pytest.param({"affinity": required(term(R("num", "Gt", "1")))}, "n", {"num": "2x"}, None,
                 (Code.SUCCESS, None), POD, id="Gt on a label that is not an int does not match"),
    pytest.param({"affinity": required(term(R("num", "Gt", "one")))}, "n", {"num": "2"}, None,
                 (Code.SUCCESS, None), POD, id="Gt with a non-integer value is an invalid term"),
    pytest.param({"affinity": required(term(R("foo", "DoesNotExist")))}, "n", {"bar": "x"}, None,
                 (Code.SUCCESS, None), None, id="DoesNotExist matches a node without the label"),
    pytest.param({"affinity": required(term(fields=[R("metadata.uid", "In", "n")]))}, "n", {}, None,
                 (Code.SUCCESS, None), POD, id="matchFields on another field is an invalid term"),
]


@pytest.mark.parametrize("pod_kwargs,node,labels,args,want_pre,want", FILTER_CASES)
def test_pre_filter_and_filter(pod_kwargs, node, labels, args, want_pre, want):
    state = make_state([make_node(node, labels=labels)])
    pod = make_pod("p", **pod_kwargs)
    plugin, cs = NodeAffinity(args), CycleState()
    pre = plugin.pre_filter(cs, pod, state, state.all_nodes)
    assert (pre.status.code, pre.node_names) == want_pre
    if pre.status.code == Code.UNSCHEDULABLE_AND_UNRESOLVABLE:
        assert pre.status.reasons == ("pod affinity terms conflict",)
    assert node_statuses(plugin.filter(cs, pod, state, state.all_nodes), state) == {node: want}


def test_filter_without_pre_filter():
    state = make_state([make_node("n", labels={"foo": "bar", "baz": "blah"})])
    pod = make_pod("p", node_selector={"foo": "bar"})
    assert NodeAffinity().filter(CycleState(), pod, state, state.all_nodes).passed.all()


def test_enforced_reason_takes_precedence_per_node():
    state = make_state([make_node("a", labels={"zone": "x"}), make_node("b", labels={"zone": "y"}),
                        make_node("c", labels={"zone": "x", "gpu": "1"})])
    args = NodeAffinityArgs(added_affinity_required=NodeSelector((term(R("zone", "In", "x")),)))
    pod = make_pod("p", node_selector={"gpu": "1"})
    verdict = NodeAffinity(args).filter(CycleState(), pod, state, state.all_nodes)
    assert node_statuses(verdict, state) == {"a": POD, "b": ENFORCED, "c": None}


def pref(weight, *exprs):
    return PreferredSchedulingTerm(weight, term(*exprs))


AFFINITY1 = Affinity(node_preferred=(pref(2, R("foo", "In", "bar")),))
AFFINITY2 = Affinity(node_preferred=(
    pref(2, R("foo", "In", "bar")),
    pref(4, R("key", "In", "value")),
    pref(5, R("foo", "In", "bar"), R("key", "In", "value"), R("az", "In", "az1")),
))
LABEL1 = {"foo": "bar"}
LABEL2 = {"key": "value"}
LABEL3 = {"az": "az1"}
LABEL4 = {"abc": "az11", "def": "az22"}
LABEL5 = {"foo": "bar", "key": "value", "az": "az1"}

SCORE_CASES = [
    pytest.param(None, {"node1": LABEL1, "node2": LABEL2, "node3": LABEL3}, None, None,
                 id="all nodes are same priority as NodeAffinity is nil"),
    pytest.param(AFFINITY1, {"node1": LABEL4, "node2": LABEL2, "node3": LABEL3}, None,
                 {"node1": 0, "node2": 0, "node3": 0}, id="no node matches preferred terms"),
    pytest.param(AFFINITY1, {"node1": LABEL1, "node2": LABEL2, "node3": LABEL3}, None,
                 {"node1": 100, "node2": 0, "node3": 0}, id="only node1 matches"),
    pytest.param(AFFINITY2, {"node1": LABEL1, "node5": LABEL5, "node2": LABEL2}, None,
                 {"node1": 18, "node5": 100, "node2": 36}, id="all nodes match with different priorities"),
    pytest.param(None, {"node1": LABEL1, "node2": LABEL2}, NodeAffinityArgs(added_affinity_preferred=(pref(5, R("foo", "In", "bar")),)),
                 {"node1": 100, "node2": 0}, id="added affinity"),
    pytest.param(AFFINITY1, {"node1": LABEL1, "node2": LABEL2, "node3": LABEL5},
                 NodeAffinityArgs(added_affinity_preferred=(pref(3, R("key", "In", "value")),)),
                 {"node1": 40, "node2": 60, "node3": 100}, id="added affinity and pod has default affinity"),
    pytest.param(Affinity(node_preferred=(pref(0, R("foo", "In", "bar")), PreferredSchedulingTerm(7, term()))),
                 {"node1": LABEL1}, None, {"node1": 0}, id="zero-weight and empty preferred terms are ignored"),
]


@pytest.mark.parametrize("affinity,nodes,args,want", SCORE_CASES)
def test_score(affinity, nodes, args, want):
    state = make_state([make_node(n, labels=l) for n, l in nodes.items()])
    pod = make_pod("p", affinity=affinity)
    plugin, cs = NodeAffinity(args), CycleState()
    status = plugin.pre_score(cs, pod, state, state.all_nodes)
    if want is None:
        assert status.code == Code.SKIP
        return
    raw = plugin.score(cs, pod, state, state.all_nodes)
    assert raw.dtype == np.int64
    got = dict(zip(state.node_names, plugin.normalize(cs, pod, raw).tolist()))
    assert got == want


@pytest.mark.parametrize(
    "text,key_ok,value_ok",
    [
        ("foo", True, True),
        ("example.com/foo", True, False),
        ("", False, True),
        ("-foo", False, False),
        ("a" * 63, True, True),
        ("a" * 64, False, False),
        ("Example.com/foo", False, False),
    ],
)
def test_label_validation(text, key_ok, value_ok):
    assert valid_label_key(text) is key_ok
    assert valid_label_value(text) is value_ok


KEY_MSG = ("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
           "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
           "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')")
VALUE_MSG = ("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must "
             "start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used "
             "for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')")

PRE_SCORE_ERRORS = [
    # upstream TestNodeAffinityPriority "invalid key in preferred" (node_affinity_test.go)
    pytest.param((pref(2, R("invalid key", "In", "bar")),),
                 f'[0].matchExpressions[0].key: Invalid value: "invalid key": {KEY_MSG}', id="invalid key"),
    # the API server lets these through (ValidateNodeSelectorRequirement counts Gt's values and
    # leaves a preferred term's values alone); labels.NewRequirement refuses them
    pytest.param((pref(1, R("size", "Exists")), pref(3, R("size", "Gt", "abc"))),
                 "[1].matchExpressions[0].values[0]: Invalid value: \"abc\": for 'Gt', 'Lt' operators, "
                 "the value must be an integer", id="Gt with a value that is not an integer"),
    pytest.param((pref(1, R("zone", "In", "not a value", "a")),),
                 f'[0].matchExpressions[0].values[0][zone]: Invalid value: "not a value": {VALUE_MSG}',
                 id="a value that is not a label value"),
    pytest.param((pref(1, R("a", "Lt", "1.5"), R("b", "Gt", "0x10")),),
                 "[[0].matchExpressions[0].values[0]: Invalid value: \"1.5\": for 'Gt', 'Lt' operators, the value "
                 "must be an integer, [0].matchExpressions[1].values[0]: Invalid value: \"0x10\": for 'Gt', 'Lt' "
                 "operators, the value must be an integer]", id="two errors in one aggregate"),
    # upstream TestPreferredSchedulingTermsScore's matchFields case
    pytest.param((PreferredSchedulingTerm(1, term(fields=(R(NAME, "In", "host_1", "host_2"),))),),
                 '[0].matchFields[0].values: Invalid value: ["host_1","host_2"]: must have one element',
                 id="matchFields with two values"),
    # NewPreferredSchedulingTerms skips terms of weight 0 and empty terms before parsing
    pytest.param((pref(0, R("size", "Gt", "abc")), pref(1, R("size", "Gt", "5"))), None,
                 id="a zero-weight term is not parsed"),
]


@pytest.mark.parametrize("terms,want", PRE_SCORE_ERRORS)
def test_pre_score_refuses_terms_that_do_not_parse(terms, want):
    state = make_state([make_node("n1", labels={"size": "4"}), make_node("n2", labels={"size": "9"})])
    pod = make_pod("p", affinity=Affinity(node_preferred=terms))
    status = NodeAffinity().pre_score(CycleState(), pod, state, state.all_nodes)
    if want is None:
        assert status.code == Code.SUCCESS
    else:
        assert (status.code, status.message) == (Code.ERROR, want)

