"""The single-pod algorithm: FitError text, host selection and tie-break, node sampling."""
import dataclasses

import numpy as np
import pytest

from podgroup_plan.framework.diagnosis import Diagnosis
from podgroup_plan.framework.diagnosis import fit_error_message
from podgroup_plan.scheduling.schedule_one import num_feasible_nodes_to_find, schedule_pod

from .fakes import framework, node, pod, state


def test_fit_error_histogram_is_sorted_as_strings():
    # sort.Strings on "COUNT reason": "10 ..." sorts before "2 ..." (upstream FitError.Error)
    d = Diagnosis(reasons={"Insufficient cpu": 2, "node(s) had untolerated taint(s)": 10})
    assert fit_error_message(12, d) == "0/12 nodes are available: 10 node(s) had untolerated taint(s), 2 Insufficient cpu."


def test_fit_error_with_prefilter_message_ignores_node_reasons():
    d = Diagnosis(reasons={"x": 1}, pre_filter_msg="node(s) didn't satisfy plugin NodeAffinity")
    assert fit_error_message(3, d) == "0/3 nodes are available: node(s) didn't satisfy plugin NodeAffinity."


def test_unschedulable_pod_reports_first_failing_plugin_per_node():
    s = state([node("a", cpu=500), node("b", cpu=500, bad="1"), node("c", cpu=4000, bad="1")])
    r = schedule_pod(framework(), pod("p", cpu=1000), s)
    assert r.node is None
    # b fails FitsCpu first (filters run in order, first failure wins); c fails only the label check
    assert r.message == "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu."
    assert r.diagnosis.node_codes.tolist() == [2, 2, 3]


def test_highest_score_wins_and_ties_go_to_first_name():
    s = state([node("a"), node("b", prefer="1"), node("c", prefer="1")])
    assert s.node_names[schedule_pod(framework(), pod("p"), s).node] == "b"
    s2 = state([node("b"), node("a")])
    assert s2.node_names[schedule_pod(framework(), pod("p"), s2).node] == "a"


def test_no_nodes():
    r = schedule_pod(framework(), pod("p"), state([]))
    assert r.node is None and r.message == "no nodes available to schedule pods"


def test_view_restricts_the_nodes_considered():
    s = state([node("a"), node("b")])
    r = schedule_pod(framework(), pod("p", cpu=9000), s, np.array([1]))
    assert r.message == "0/1 nodes are available: 1 Insufficient cpu."


@pytest.mark.parametrize(
    "pct,n,expected",
    [
        pytest.param(None, 5000, 5000, id="unset-scores-all"),
        pytest.param(0, 50, 50, id="small-cluster-all"),
        pytest.param(0, 5000, 500, id="adaptive-5000-is-10pct"),
        pytest.param(0, 1000, 420, id="adaptive-1000-is-42pct"),
        pytest.param(0, 100000, 5000, id="adaptive-floor-5pct"),
        pytest.param(1, 5000, 100, id="at-least-100"),
        pytest.param(100, 5000, 5000, id="100pct"),
    ],
)
def test_num_feasible_nodes_to_find(pct, n, expected):
    assert num_feasible_nodes_to_find(pct, n) == expected


class OnlyNodes:
    """A PreFilter that narrows the nodes to a fixed set of names (as NodeAffinity does for
    matchFields metadata.name)."""

    def __init__(self, name, names):
        self.name = name
        self.names = frozenset(names)

    def pre_filter(self, cs, pod, state, view):
        from podgroup_plan.framework.interface import PreFilterResult
        return PreFilterResult(node_names=self.names)


def test_prefilter_narrowing_marks_the_other_nodes_unresolvable():
    s = state([node("a", cpu=500), node("b"), node("c")])
    fwk = framework()
    fwk.pre_filter = [OnlyNodes("NodeAffinity", {"a", "ghost"})]
    r = schedule_pod(fwk, pod("p", cpu=1000), s)
    # upstream findNodesThatFitPod: absent nodes get "node(s) didn't satisfy plugin(s) [...]"
    assert r.message == "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]."
    assert r.diagnosis.node_codes.tolist() == [2, 3, 3]


def test_prefilter_sets_that_do_not_intersect():
    s = state([node("a"), node("b")])
    fwk = framework()
    fwk.pre_filter = [OnlyNodes("NodeAffinity", {"a"}), OnlyNodes("NodeName", {"b"})]
    r = schedule_pod(fwk, pod("p"), s)
    assert r.message == "0/2 nodes are available: node(s) didn't satisfy plugin(s) [NodeAffinity NodeName] simultaneously."
    fwk.pre_filter = [OnlyNodes("NodeName", set())]
    assert schedule_pod(fwk, pod("p"), s).message == "0/2 nodes are available: node(s) didn't satisfy plugin NodeName."


def test_percentage_of_nodes_to_score_samples_from_a_rotating_start():
    from podgroup_plan.framework.interface import Handle
    from podgroup_plan.config.profile import Profile
    from podgroup_plan.framework.runtime import Framework
    from podgroup_plan.plugins.registry import IMPLEMENTED

    from .fakes import FitsCpu, PreferLabel

    fwk = Framework(Profile("default-scheduler", {}, percentage_of_nodes_to_score=50), Handle(), IMPLEMENTED)
    fwk.use_plugins(filter=[FitsCpu()], score=[(PreferLabel(), 1)])
    nodes = [node(f"n{i:03d}", **({"prefer": "1"} if i == 150 else {})) for i in range(200)]
    s = state(nodes)
    # 200 nodes at 50 %: the first 100 feasible from index 0 are scored; n150 is not among them
    first = schedule_pod(fwk, pod("p1"), s)
    assert s.node_names[first.node] == "n000" and fwk.next_start_node_index == 100
    # the next pod starts where the last search stopped and finds the preferred node
    second = schedule_pod(fwk, pod("p2"), s)
    assert s.node_names[second.node] == "n150" and fwk.next_start_node_index == 0


def test_a_pre_score_error_ends_the_cycle_only_when_nodes_are_scored():
    """A preferred node affinity term the API server let through but that does not parse (a Gt
    value that is no integer): NodeAffinity's PreScore answers an Error, which RunPreScorePlugins
    wraps and schedulePod returns (a SchedulerError); schedulePod scores only when more than
    one node is feasible, so with one the pod is placed."""
    from podgroup_plan.config.configuration import build_profiles, resolve_feature_gates
    from podgroup_plan.framework.interface import Handle
    from podgroup_plan.framework.runtime import Framework
    from podgroup_plan.framework.status import Code
    from podgroup_plan.model.objects import Affinity, PreferredSchedulingTerm
    from podgroup_plan.model.selectors import NodeSelectorRequirement, NodeSelectorTerm
    from podgroup_plan.plugins.registry import IMPLEMENTED

    gates = resolve_feature_gates(None)
    fwk = Framework(build_profiles(None, gates)["default-scheduler"], Handle(feature_gates=gates), IMPLEMENTED)
    term = NodeSelectorTerm((NodeSelectorRequirement("size", "Gt", ("abc",)),))
    p = dataclasses.replace(pod("p"), affinity=Affinity(node_preferred=(PreferredSchedulingTerm(3, term),)))
    r = schedule_pod(fwk, p, state([node("a", size="4"), node("b", size="9")]))
    assert (r.node, r.status.code) == (None, Code.ERROR)
    assert r.message == ('running PreScore plugin "NodeAffinity": [0].matchExpressions[0].values[0]: '
                         "Invalid value: \"abc\": for 'Gt', 'Lt' operators, the value must be an integer")
    assert schedule_pod(fwk, p, state([node("a", size="4")])).node == 0
