"""TaintToleration, with the cases of upstream's
`pkg/scheduler/framework/plugins/tainttoleration/taint_toleration_test.go` (newest:
`node(s) had untolerated taint(s)`, UnschedulableAndUnresolvable)."""
import numpy as np
import pytest

from builders import make_node, make_pod, make_state, node_statuses
from podgroup_plan.framework.interface import CycleState, Handle
from podgroup_plan.framework.status import Code
from podgroup_plan.model.objects import Taint, Toleration
from podgroup_plan.plugins.taint_toleration import TaintToleration, tolerates

UNTOLERATED = ("UnschedulableAndUnresolvable", ("node(s) had untolerated taint(s)",))


def T(key, value, effect):
    return Taint(key, value, effect)


def Tol(key="", operator="Equal", value="", effect=""):
    return Toleration(key=key, operator=operator, value=value, effect=effect)


FILTER_CASES = [
    pytest.param((), [T("dedicated", "user1", "NoSchedule")], UNTOLERATED,
                 id="no tolerations, node with a NoSchedule taint"),
    pytest.param((Tol("dedicated", "Equal", "user1", "NoSchedule"),), [T("dedicated", "user1", "NoSchedule")], None,
                 id="dedicated node assigned to user1, tolerated"),
    pytest.param((Tol("dedicated", "Equal", "user2", "NoSchedule"),), [T("dedicated", "user1", "NoSchedule")],
                 UNTOLERATED, id="dedicated node assigned to user1, pod tolerates user2"),
    pytest.param((Tol("foo", "Exists", "", "NoSchedule"),), [T("foo", "bar", "NoSchedule")], None,
                 id="Exists toleration"),
    pytest.param((Tol("dedicated", "Equal", "user2", "NoSchedule"), Tol("foo", "Exists", "", "NoSchedule")),
                 [T("dedicated", "user2", "NoSchedule"), T("foo", "bar", "NoSchedule")], None,
                 id="several tolerations, several taints, all tolerated"),
    pytest.param((Tol("foo", "Equal", "bar", "PreferNoSchedule"),), [T("foo", "bar", "NoSchedule")], UNTOLERATED,
                 id="key and value match but the (non-empty) effect does not"),
    pytest.param((Tol("foo", "Equal", "bar"),), [T("foo", "bar", "NoSchedule")], None,
                 id="empty toleration effect matches NoSchedule"),
    pytest.param((Tol("dedicated", "Equal", "user2", "NoSchedule"),), [T("dedicated", "user1", "PreferNoSchedule")],
                 None, id="PreferNoSchedule taints never filter"),
    pytest.param((), [T("dedicated", "user1", "PreferNoSchedule")], None,
                 id="no toleration, only a PreferNoSchedule taint"),
    pytest.param((), [T("node.kubernetes.io/not-ready", "", "NoExecute")], UNTOLERATED,
                 id="NoExecute taints filter too"),
    pytest.param((Tol(operator="Exists"),), [T("a", "b", "NoSchedule"), T("c", "", "NoExecute")], None,
                 id="empty key with Exists tolerates everything"),
    pytest.param((Tol("foo", "", "bar", "NoSchedule"),), [T("foo", "bar", "NoSchedule")], None,
                 id="empty operator means Equal"),
]


@pytest.mark.parametrize("tolerations,taints,want", FILTER_CASES)
def test_filter(tolerations, taints, want):
    state = make_state([make_node("nodeA", taints=taints)])
    pod = make_pod("pod1", tolerations=tolerations)
    verdict = TaintToleration().filter(CycleState(), pod, state, state.all_nodes)
    assert node_statuses(verdict, state) == {"nodeA": want}


COMPARISON_CASES = [
    pytest.param(Tol("node.example.com/priority-level", "Gt", "950", "NoSchedule"),
                 T("node.example.com/priority-level", "800", "NoSchedule"), False, id="Gt, taint value below"),
    pytest.param(Tol("node.kubernetes.io/sla", "Gt", "750", "NoSchedule"),
                 T("node.kubernetes.io/sla", "950", "NoSchedule"), True, id="Gt, taint value above"),
    pytest.param(Tol("node.example.com/priority-level", "Lt", "800", "NoSchedule"),
                 T("node.example.com/priority-level", "950", "NoSchedule"), False, id="Lt, taint value above"),
    pytest.param(Tol("node.kubernetes.io/sla", "Gt", "950", "PreferNoSchedule"),
                 T("node.kubernetes.io/sla", "high", "PreferNoSchedule"), False, id="Gt, taint value not an int"),
]


@pytest.mark.parametrize("tol,taint,want", COMPARISON_CASES)
def test_comparison_operators_behind_gate(tol, taint, want):
    assert tolerates(tol, taint, comparison_operators=True) is want
    # With TaintTolerationComparisonOperators off, Gt/Lt tolerate nothing.
    assert tolerates(tol, taint, comparison_operators=False) is False


def test_comparison_operators_gate_read_from_handle():
    state = make_state([make_node("nodeA", taints=[T("sla", "950", "NoSchedule")])])
    pod = make_pod("p", tolerations=(Tol("sla", "Gt", "750", "NoSchedule"),))
    off = TaintToleration().filter(CycleState(), pod, state, state.all_nodes)
    on = TaintToleration(handle=Handle(feature_gates={"TaintTolerationComparisonOperators": True})).filter(
        CycleState(), pod, state, state.all_nodes)
    assert not off.passed[0] and on.passed[0]


P = "PreferNoSchedule"
SCORE_CASES = [
    pytest.param((Tol("foo", "Equal", "bar", P),),
                 {"nodeA": [T("foo", "bar", P)], "nodeB": [T("foo", "blah", P)]},
                 {"nodeA": 100, "nodeB": 0},
                 id="node with tolerated taints scores higher than node with intolerable taints"),
    pytest.param((Tol("cpu-type", "Equal", "arm64", P), Tol("disk-type", "Equal", "ssd", P)),
                 {"nodeA": [], "nodeB": [T("cpu-type", "arm64", P)],
                  "nodeC": [T("cpu-type", "arm64", P), T("disk-type", "ssd", P)]},
                 {"nodeA": 100, "nodeB": 100, "nodeC": 100},
                 id="number of tolerated taints does not matter"),
    pytest.param((Tol("foo", "Equal", "bar", P),),
                 {"nodeA": [], "nodeB": [T("cpu-type", "arm64", P)],
                  "nodeC": [T("cpu-type", "arm64", P), T("disk-type", "ssd", P)]},
                 {"nodeA": 100, "nodeB": 50, "nodeC": 0},
                 id="the more intolerable taints, the lower the score"),
    pytest.param((Tol("cpu-type", "Equal", "arm64", "NoSchedule"), Tol("disk-type", "Equal", "ssd", "NoSchedule")),
                 {"nodeA": [], "nodeB": [T("cpu-type", "arm64", "NoSchedule")],
                  "nodeC": [T("cpu-type", "arm64", P), T("disk-type", "ssd", P)]},
                 {"nodeA": 100, "nodeB": 100, "nodeC": 0},
                 id="only PreferNoSchedule taints and tolerations count"),
    pytest.param((), {"nodeA": [], "nodeB": [T("cpu-type", "arm64", P)]}, {"nodeA": 100, "nodeB": 0},
                 id="no taints and tolerations lands on the node without taints"),
]


@pytest.mark.parametrize("tolerations,node_taints,want", SCORE_CASES)
def test_score(tolerations, node_taints, want):
    state = make_state([make_node(n, taints=t) for n, t in node_taints.items()])
    pod = make_pod("pod1", tolerations=tolerations)
    plugin, cs = TaintToleration(), CycleState()
    assert plugin.pre_score(cs, pod, state, state.all_nodes).code == Code.SUCCESS
    raw = plugin.score(cs, pod, state, state.all_nodes)
    assert raw.dtype == np.int64
    got = plugin.normalize(cs, pod, raw)
    assert dict(zip(state.node_names, got.tolist())) == want


def test_filter_answers_only_for_the_view_and_caches_per_tolerations():
    state = make_state([make_node(f"n{i}", taints=[T("k", str(i % 2), "NoSchedule")]) for i in range(6)])
    plugin = TaintToleration()
    pod = make_pod("p", tolerations=(Tol("k", "Equal", "0", "NoSchedule"),))
    view = np.array([1, 2, 5])
    verdict = plugin.filter(CycleState(), pod, state, view)
    assert verdict.passed.tolist() == [False, True, False]
    again = plugin.filter(CycleState(), make_pod("q", tolerations=pod.tolerations), state, view)
    assert again.passed.tolist() == [False, True, False]


@pytest.mark.parametrize("tolerations,node_taints,want", SCORE_CASES)
def test_uniform_score_only_when_score_and_normalize_give_every_node_the_same(tolerations, node_taints, want):
    """The runtime adds `uniform_score` to every node instead of Score and NormalizeScore:
    given, it must be what they give each node (here and over every non-empty subset of
    nodes); None whenever the normalised scores differ."""
    import itertools

    state = make_state([make_node(n, taints=t) for n, t in node_taints.items()])
    pod = make_pod("pod1", tolerations=tolerations)
    plugin, cs = TaintToleration(), CycleState()
    plugin.pre_score(cs, pod, state, state.all_nodes)
    uniform = plugin.uniform_score(cs, pod, state)
    assert (uniform is None) == (len(set(want.values())) > 1)
    for k in range(1, state.n + 1):
        for rows in itertools.combinations(range(state.n), k):
            view = np.array(rows, dtype=np.intp)
            got = plugin.normalize(cs, pod, plugin.score(cs, pod, state, view)).tolist()
            if uniform is not None:
                assert got == [uniform] * k


@pytest.mark.parametrize("seed", range(40))
def test_uniform_score_equals_scoring_every_node(seed):
    """Random taints (PreferNoSchedule on a few nodes or none) and tolerations: whenever
    `uniform_score` answers, Score then NormalizeScore give that on every node; and it answers
    whenever no node has a PreferNoSchedule taint."""
    rng = np.random.default_rng(seed)
    effects = ("NoSchedule", "PreferNoSchedule", "NoExecute")
    prefer = rng.random() < 0.6
    nodes = []
    for i in range(int(rng.integers(1, 8))):
        taints = [T(f"k{int(rng.integers(3))}", f"v{int(rng.integers(2))}",
                    effects[int(rng.integers(3 if prefer else 1))] if rng.random() < 0.7 else "NoSchedule")
                  for _ in range(int(rng.integers(0, 3)))]
        nodes.append(make_node(f"n{i}", taints=list(dict.fromkeys(taints))))
    state = make_state(nodes)
    plugin = TaintToleration()
    for _ in range(5):
        tolerations = tuple(Tol(f"k{int(rng.integers(3))}", "Exists", "", rng.choice(["", "PreferNoSchedule", "NoSchedule"]))
                            for _ in range(int(rng.integers(0, 3))))
        pod = make_pod("p", tolerations=tolerations)
        cs = CycleState()
        plugin.pre_score(cs, pod, state, state.all_nodes)
        uniform = plugin.uniform_score(cs, pod, state)
        got = plugin.normalize(cs, pod, plugin.score(cs, pod, state, state.all_nodes)).tolist()
        if uniform is not None:
            assert got == [uniform] * state.n
        elif not any(t.effect == "PreferNoSchedule" for n in nodes for t in n.taints):
            raise AssertionError("no PreferNoSchedule taint anywhere, yet no uniform score")
        else:
            assert len(set(got)) > 1 or got == [0] * state.n  # some node loses points
