"""Preemption's building blocks, table-driven: victim units and their order, PDB budgets, the
node choice of DefaultPreemption, nominated pods in Filter.

Expected values follow upstream's rules as `framework/preemption/` documents them
(`MoreImportantVictim`, `FilterVictimsWithPDBViolation`, `pickOneNodeForPreemption`,
`RunFilterPluginsWithNominatedPods`).
"""
from __future__ import annotations

import numpy as np
import pytest

from podgroup_plan.config.configuration import build_profiles, resolve_feature_gates
from podgroup_plan.framework.interface import CycleState, Handle
from podgroup_plan.framework.diagnosis import Diagnosis
from podgroup_plan.plugins.registry import IMPLEMENTED
from podgroup_plan.framework.runtime import Framework
from podgroup_plan.framework.status import Code, Status
from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import CompositePodGroup, PodDisruptionBudget, PodGroup
from podgroup_plan.model.selectors import LabelSelector
from podgroup_plan.framework.filter_nominated import filter_with_nominated
from podgroup_plan.framework.nominator import Nominator
from podgroup_plan.framework.preemption.default_preemption import pick_one_node
from podgroup_plan.framework.preemption.victims import (
    COMPOSITE_POD_GROUP,
    POD,
    POD_GROUP,
    Budgets,
    Hierarchy,
    VictimUnit,
    build_units,
    split_by_pdb,
)
from tests.builders import make_node, make_pod, make_state

GATES = resolve_feature_gates(None)


def _unit(name, priority=0, kind=POD, size=1, start=None):
    pods = [make_pod(f"{name}-{i}", node_name="n", priority=priority, start_time=start) for i in range(size)]
    return VictimUnit((kind, "default", name), kind, priority, pods, [0] * size)


@pytest.mark.parametrize(
    "first,second",
    [
        pytest.param(_unit("a", priority=5), _unit("b", priority=1, kind=COMPOSITE_POD_GROUP, size=9), id="priority-first"),
        pytest.param(_unit("a", kind=COMPOSITE_POD_GROUP), _unit("b", kind=POD_GROUP, size=5), id="rank-cpg-over-pg"),
        pytest.param(_unit("a", kind=POD_GROUP), _unit("b", kind=POD, start="2020-01-01T00:00:00Z"), id="rank-pg-over-pod"),
        pytest.param(_unit("a", kind=POD_GROUP, size=3), _unit("b", kind=POD_GROUP, size=2), id="more-pods"),
        pytest.param(_unit("b", start="2026-01-01T00:00:00Z"), _unit("a", start="2026-01-02T00:00:00Z"), id="earlier-start"),
        pytest.param(_unit("b", start="2026-01-01T00:00:00Z"), _unit("a"), id="unstarted-is-latest"),
        pytest.param(_unit("a"), _unit("b"), id="then-name"),
    ],
)
def test_more_important_victim(first, second):
    assert sorted([second, first], key=VictimUnit.importance) == [first, second]


def _pdb(name, selector, allowed, disrupted=(), namespace="default"):
    return PodDisruptionBudget(namespace, name, selector, disruptions_allowed=allowed, disrupted_pods=tuple(disrupted))


def test_pdb_empty_selector_matches_all_missing_matches_none():
    pods = [make_pod("p1", node_name="n", labels={"app": "x"}), make_pod("p2", node_name="n")]
    budgets = Budgets([_pdb("all", LabelSelector(), 1), _pdb("none", None, 0)], pods)
    assert budgets.matching(pods[0]) == (0,)
    assert budgets.matching(pods[1]) == (0,)
    units = [VictimUnit((POD, "default", p.name), POD, 0, [p], [0]) for p in pods]
    violating, fine = split_by_pdb(units, budgets, budgets.allowed_now(lambda p: True))
    # the first unit takes the one disruption allowed; the second goes below zero
    assert [u.id[2] for u in fine] == ["p1"]
    assert [(u.id[2], n) for u, n in violating] == [("p2", 1)]


def test_pdb_disrupted_pods_do_not_consume_the_budget():
    pods = [make_pod("p1", node_name="n", labels={"app": "x"}), make_pod("p2", node_name="n", labels={"app": "x"})]
    budgets = Budgets([_pdb("x", LabelSelector((("app", "x"),)), 0, disrupted=["p1"])], pods)
    units = [VictimUnit((POD, "default", p.name), POD, 0, [p], [0]) for p in pods]
    violating, fine = split_by_pdb(units, budgets, budgets.allowed_now(lambda p: True))
    assert [u.id[2] for u in fine] == ["p1"]
    assert [u.id[2] for u, _ in violating] == ["p2"]


def test_pdb_unit_violates_when_any_pod_does():
    pods = [make_pod(f"p{i}", node_name="n", labels={"app": "x"}) for i in range(3)]
    budgets = Budgets([_pdb("x", LabelSelector((("app", "x"),)), 1)], pods)
    unit = VictimUnit((POD_GROUP, "default", "g"), POD_GROUP, 0, pods, [0, 0, 0])
    violating, fine = split_by_pdb([unit], budgets, budgets.allowed_now(lambda p: True))
    assert fine == [] and violating == [(unit, 2)]


def test_pdb_computed_from_spec_and_reduced_by_evictions():
    pods = [make_pod(f"p{i}", node_name="n", labels={"app": "x"}) for i in range(4)]
    pdb = PodDisruptionBudget("default", "x", LabelSelector((("app", "x"),)), min_available="50%")
    budgets = Budgets([pdb], pods)
    assert budgets.base == [2]  # 4 healthy, 50% of 4 rounded up = 2 must stay
    assert budgets.allowed_now(lambda p: p.name != "p0") == [1]


def _group(name, disruption="single", parent=None, priority=None, policy="Gang"):
    return PodGroup("default", name, "scheduling.k8s.io/v1alpha3", policy, disruption_mode=disruption,
                    parent=parent, priority=priority)


def _cpg(name, disruption="single", parent=None, priority=None):
    return CompositePodGroup("default", name, "scheduling.k8s.io/v1alpha3", "Gang", disruption_mode=disruption,
                             parent=parent, priority=priority)


def test_units_take_the_highest_all_ancestor_and_the_root_priority():
    groups = (_group("leaf-a", disruption="all", parent="mid"), _group("leaf-b", parent="mid"), _group("solo"))
    cpgs = (_cpg("mid", disruption="all", parent="root"), _cpg("root", priority=70))
    pods = (
        make_pod("a0", node_name="n", pod_group="leaf-a", priority=70),
        make_pod("a1", node_name="n", pod_group="leaf-a", priority=70),
        make_pod("b0", node_name="n", pod_group="leaf-b", priority=70),
        make_pod("s0", node_name="n", pod_group="solo", priority=3),
        make_pod("lone", node_name="n", priority=9),
    )
    h = Hierarchy(ClusterInput(pods=pods, pod_groups=groups, composite_pod_groups=cpgs), GATES)
    state = make_state([make_node("n", cpu=100)], pods)
    units = {u.id: u for u in build_units(pods, h, state.node_of)}
    mid = units[(COMPOSITE_POD_GROUP, "default", "mid")]
    assert mid.kind == COMPOSITE_POD_GROUP and mid.priority == 70
    assert [p.name for p in mid.pods] == ["a0", "a1", "b0"]  # the whole subtree, across leaves
    assert units[(POD, "default", "s0")].kind == POD_GROUP  # a grouped pod ranks as a PodGroup
    assert units[(POD, "default", "lone")].kind == POD
    # Without the CompositePodGroup gate only the PodGroup is looked at.
    h2 = Hierarchy(ClusterInput(pods=pods, pod_groups=groups, composite_pod_groups=cpgs),
                   {**GATES, "CompositePodGroup": False})
    assert h2.unit_of(pods[0]).id == (POD_GROUP, "default", "leaf-a")
    assert h2.unit_of(pods[2]).id == (POD, "default", "b0")


def _candidate(node, units, violations=0):
    return (node, units, violations)


@pytest.mark.parametrize(
    "candidates,expected",
    [
        pytest.param([_candidate(0, [_unit("a", 1)], 1), _candidate(1, [_unit("b", 9)], 0)], 1, id="fewest-pdb-violations"),
        pytest.param([_candidate(0, [_unit("a", 10)]), _candidate(1, [_unit("b", 5), _unit("c", 5)])], 1,
                     id="lowest-highest-priority"),
        pytest.param([_candidate(0, [_unit("a", 5), _unit("b", 5)]), _candidate(1, [_unit("c", 5), _unit("d", 1)])], 1,
                     id="smallest-priority-sum"),
        pytest.param([_candidate(0, [_unit("a", 5), _unit("b", -5)]), _candidate(1, [_unit("c", 5)])], 1,
                     id="sum-offset-keeps-negative-priorities-costly"),
        pytest.param([_candidate(0, [_unit("a", 5, size=2)]), _candidate(1, [_unit("c", 5)])], 1, id="fewest-victims"),
        pytest.param([_candidate(0, [_unit("a", 5, start="2026-01-01T00:00:00Z")]),
                      _candidate(1, [_unit("c", 5, start="2026-01-02T00:00:00Z")])], 1, id="latest-start"),
        pytest.param([_candidate(0, [_unit("a", 5)]), _candidate(1, [_unit("c", 5)])], 0, id="first-in-order"),
    ],
)
def test_pick_one_node(candidates, expected):
    assert pick_one_node(candidates)[0] == expected


def _framework(nominator=None):
    profile = build_profiles(None, GATES)["default-scheduler"]
    return Framework(profile, Handle(feature_gates=GATES), IMPLEMENTED, nominator=nominator)


def test_nominated_pods_of_equal_or_higher_priority_count():
    state = make_state([make_node("n1", cpu=4, memory="8Gi"), make_node("n2", cpu=4, memory="8Gi")])
    fwk = _framework(Nominator())
    fwk.nominator.nominate(make_pod("big", requests={"cpu": 3}, priority=10), 0)
    view = state.all_nodes

    def passes(priority):
        pod = make_pod("p", requests={"cpu": 2}, priority=priority)
        d = Diagnosis()
        return filter_with_nominated(fwk, CycleState(), pod, state, view, d).tolist(), d.reasons

    assert passes(10) == ([False, True], {"Insufficient cpu": 1})  # equal priority counts
    assert passes(5) == ([False, True], {"Insufficient cpu": 1})
    assert passes(11) == ([True, True], {})  # a lower-priority nomination does not
    assert state.pod_count.tolist() == [0, 0]  # nothing stays assumed


def test_a_placed_nominated_pod_is_not_counted_twice():
    state = make_state([make_node("n1", cpu=4, memory="8Gi")])
    fwk = _framework(Nominator())
    big = make_pod("big", requests={"cpu": 2}, priority=10)
    fwk.nominator.nominate(big, 0)
    state.assume(big, 0)
    pod = make_pod("p", requests={"cpu": 2}, priority=1)
    assert filter_with_nominated(fwk, CycleState(), pod, state, np.array([0]), Diagnosis()).tolist() == [True]


class _PodGroupPostFilterAnswering:
    """A PodGroupPostFilter plugin that answers a fixed status (upstream's runner tests use fakes
    the same way)."""

    def __init__(self, name, status):
        self.name, self.status = name, status

    def pod_group_post_filter(self, root, pods, state, scheduling_func):
        return "outcome", self.status


@pytest.mark.parametrize("status, expected", [
    # an error is reported under the plugin's name, without the plugin's result
    (Status(Code.ERROR, ("pod group preemption: failed to schedule other pod from a pod group: boom",)),
     (None, Status(Code.ERROR, ('error in "Fake" PodGroupPostFilter plugins: pod group preemption: '
                                 "failed to schedule other pod from a pod group: boom",), "Fake"))),
    # rejections and success come back as the plugin gave them
    (Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ("pod group preemption: No preemption victims found for incoming preemptor",)),
     ("outcome", Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, ("pod group preemption: No preemption victims found for incoming preemptor",)))),
    (Status(Code.UNSCHEDULABLE, ("pod group preemption: minCount (1) cannot be satisfied: 0 scheduled, 0 remaining",)),
     ("outcome", Status(Code.UNSCHEDULABLE, ("pod group preemption: minCount (1) cannot be satisfied: 0 scheduled, 0 remaining",)))),
])
def test_run_pod_group_post_filter_statuses(status, expected):
    """RunPodGroupPostFilterPlugins (v1.37.0 framework/runtime/framework.go)."""
    fwk = _framework()
    fwk.pod_group_post_filter = [_PodGroupPostFilterAnswering("Fake", status)]
    assert fwk.run_pod_group_post_filter(None, [], None, lambda: ([], Status())) == expected
