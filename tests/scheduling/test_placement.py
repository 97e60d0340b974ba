"""The placement algorithm: candidates, trials as rolled-back views, scoring, failure texts."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from podgroup_plan.config.configuration import build_profiles, resolve_feature_gates
from podgroup_plan.framework.interface import Handle, Placement, PodGroupAssignments
from podgroup_plan.plugins.registry import IMPLEMENTED
from podgroup_plan.framework.runtime import Framework
from podgroup_plan.model.objects import PodGroup
from podgroup_plan.plugins.node_resources_fit import NodeResourcesFit
from podgroup_plan.plugins.pod_group_pods_count import PodGroupPodsCount
from podgroup_plan.plugins.topology_placement import TopologyPlacement
from podgroup_plan.scheduling.cycle import run_root_algorithm, schedule_pod_group
from podgroup_plan.scheduling.placement import as_error_text, schedule_placements
from podgroup_plan.framework.status import Code, Status

from .fakes import node, pod, state

RACK = "topology.kubernetes.io/rack"


def default_framework(config=None) -> Framework:
    gates = resolve_feature_gates(None)
    return Framework(build_profiles(config, gates)["default-scheduler"], Handle(feature_gates=gates), IMPLEMENTED)


def rack_node(name, rack, cpu=4000):
    n = node(name, cpu=cpu)
    return dataclasses.replace(n, labels={RACK: rack} if rack else {})


def group(name="g", min_count=2, key=RACK, policy="Gang"):
    return PodGroup(namespace="ns", name=name, api_version="scheduling.k8s.io/v1beta1", policy=policy,
                    min_count=min_count, topology_key=key)


def members(n, cpu=1000, name="g", prefix="p"):
    return [pod(f"{prefix}{i}", cpu=cpu, group=name) for i in range(n)]


# ----- TopologyPlacementGenerator -----------------------------------------------------------


def test_one_candidate_per_label_value_in_value_order_unlabelled_nodes_left_out():
    s = state([rack_node("a1", "rack-b"), rack_node("x", None), rack_node("b1", "rack-a"), rack_node("b2", "rack-a")])
    placements, status = TopologyPlacement().generate_placements(group(), Placement(None, s.all_nodes), s)
    assert status.is_success()
    assert [(p.name, [s.node_names[i] for i in p.nodes]) for p in placements] == [
        ("rack-a", ["b1", "b2"]), ("rack-b", ["a1"])]


def test_no_constraint_is_the_parent_placement():
    s = state([rack_node("a1", "rack-a")])
    parent = Placement(None, s.all_nodes)
    placements, _ = TopologyPlacement().generate_placements(group(key=None), parent, s)
    assert placements == [parent]


@pytest.mark.parametrize("running, expected", [
    pytest.param([("r0", "a1")], ("ok", ["rack-a"]), id="pinned"),
    pytest.param([("r0", "a1"), ("r1", "b1")], ("error", "cannot determine domain for already scheduled pods: more than 1 domain found for pod group: rack-a, rack-b"), id="two-domains"),
    pytest.param([("r1", "b1"), ("r0", "a1")], ("error", "cannot determine domain for already scheduled pods: more than 1 domain found for pod group: rack-a, rack-b"), id="two-domains-name-order"),
    pytest.param([("r0", "x")], ("error", "cannot determine domain for already scheduled pods: no topology domain found for pod ns/r0"), id="unlabelled"),
])
def test_scheduled_members_pin_the_domain(running, expected):
    nodes = [rack_node("a1", "rack-a"), rack_node("a2", "rack-a"), rack_node("b1", "rack-b"), rack_node("x", None)]
    s = state(nodes, [pod(name, group="g", node_name=n) for name, n in running])
    placements, status = TopologyPlacement().generate_placements(group(), Placement(None, s.all_nodes), s)
    kind, want = expected
    if kind == "ok":
        assert status.is_success() and [p.name for p in placements] == want
    else:
        assert status.code == Code.ERROR and status.message == want and placements == []


# ----- PlacementScore plugins ---------------------------------------------------------------


def test_pod_group_pods_count_counts_scheduled_and_proposed_and_normalises_by_the_maximum():
    s = state([rack_node("a1", "rack-a")], [pod("r0", group="g", node_name="a1")])
    plugin = PodGroupPodsCount()
    p = Placement("rack-a", s.all_nodes)
    raw = [plugin.score_placement(group(), PodGroupAssignments(p, tuple((q, 0) for q in members(k))), s)[0] for k in (3, 1)]
    assert raw == [4, 2]
    assert plugin.normalize_placement_scores(group(), raw) == ([100, 50], Status())
    _, status = plugin.normalize_placement_scores(group(), [0, 0])
    assert status.code == Code.ERROR and status.message == "no pods from pod group are assigned to any of the candidate placements"


def test_node_resources_fit_placement_score_is_most_allocated_over_the_whole_placement():
    # two 4-cpu nodes, one with 3 cpu running; two 1-cpu pods proposed: cpu (3+2)/8 -> 62;
    # memory: non-zero 200Mi per pod (running pod included) out of 2 x 16Gi -> 1; mean 31.
    s = state([rack_node("a1", "rack-a"), rack_node("a2", "rack-a")], [pod("r0", cpu=3000, node_name="a1")])
    proposed = tuple((q, 1) for q in members(2))
    score, status = NodeResourcesFit().score_placement(group(), PodGroupAssignments(Placement("rack-a", s.all_nodes), proposed), s)
    cpu = 5000 * 100 // 8000
    mem = 3 * (200 << 20) * 100 // (2 << 34)
    assert status.is_success() and score == (cpu + mem) // 2 == 31


# ----- the algorithm --------------------------------------------------------------------------


def test_only_one_rack_fits_and_is_chosen_without_scoring():
    fwk = default_framework()
    s = state([rack_node("a1", "rack-a", cpu=1000), rack_node("b1", "rack-b", cpu=2000), rack_node("b2", "rack-b", cpu=2000)])
    r = schedule_placements(fwk, group(min_count=3), members(3), s)
    assert r.status.is_success() and r.placement == "rack-b"
    assert sorted(s.node_names[n] for _, n in r.assignments) == ["b1", "b1", "b2"]
    assert [(t.name, t.feasible, t.scheduled_pods, t.score, t.chosen) for t in r.placements] == [
        ("rack-a", False, 1, None, False), ("rack-b", True, 3, None, True)]
    # pod 1 fits, pod 2 does not: 1 scheduled + 1 remaining < 3 stops the trial
    assert r.placements[0].message == "minCount (3) cannot be satisfied: 1 scheduled, 1 remaining"
    # the trials were rolled back: nothing is placed until the cycle commits
    assert int(s.pod_count.sum()) == 0


def test_trials_do_not_leak_into_each_other():
    # Every trial assumes the same pod objects: one left assumed by an earlier trial would make
    # the next trial's assume fail ("already placed"), and the columns would not come back.
    fwk = default_framework()
    nodes = [rack_node(f"{r}{i}", f"rack-{r}", cpu=2000) for r in "abc" for i in range(2)]
    s = state(nodes)
    before = s.requested.copy()
    r = schedule_placements(fwk, group(min_count=4), members(4), s)
    assert [t.scheduled_pods for t in r.placements] == [4, 4, 4]
    assert all(t.feasible for t in r.placements)
    assert np.array_equal(s.requested, before) and not s.pod_node


def test_pod_count_decides_when_several_fit():
    # gang of minCount 2 with 3 pods: rack-a holds 2, rack-b all 3 -> PodGroupPodsCount 67 vs 100
    fwk = default_framework()
    s = state([rack_node("a1", "rack-a", cpu=2000), rack_node("b1", "rack-b", cpu=3000)])
    r = schedule_placements(fwk, group(min_count=2), members(3), s)
    assert r.placement == "rack-b"
    scores = {t.name: (t.score, t.scores) for t in r.placements}
    assert scores["rack-a"][1]["PodGroupPodsCount"] == 66 and scores["rack-b"][1]["PodGroupPodsCount"] == 100


def test_fuller_rack_wins_on_node_resources_fit():
    fwk = default_framework()
    nodes = [rack_node("a1", "rack-a"), rack_node("b1", "rack-b")]
    s = state(nodes, [pod("other", cpu=2000, node_name="b1")])
    r = schedule_placements(fwk, group(min_count=2), members(2), s)
    assert r.placement == "rack-b"
    assert r.placements[0].scores["PodGroupPodsCount"] == r.placements[1].scores["PodGroupPodsCount"] == 100
    assert r.placements[1].scores["NodeResourcesFit"] > r.placements[0].scores["NodeResourcesFit"]


def test_equal_scores_go_to_the_name_that_sorts_first():
    fwk = default_framework()
    s = state([rack_node("z", "rack-z"), rack_node("a", "rack-a"), rack_node("m", "rack-m")])
    r = schedule_placements(fwk, group(min_count=2), members(2), s)
    assert len({t.score for t in r.placements}) == 1 and r.placement == "rack-a"


def test_none_fits_reports_the_first_candidate_and_the_explanation_keeps_every_reason():
    # v1.37.0 (podGroupSchedulingPlacementAlgorithm): `first placement status`, the status of the
    # first candidate evaluated, for a standalone PodGroup as for a CompositePodGroup
    fwk = default_framework()
    s = state([rack_node("a1", "rack-a", cpu=1000), rack_node("b1", "rack-b", cpu=2000)])
    r = run_root_algorithm(fwk, group(min_count=3), members(3), s)
    assert r.status.message == (
        "pod group is unschedulable, 0/2 placements are available, first placement status: "
        "minCount (3) cannot be satisfied: 1 scheduled, 1 remaining")
    assert [t.message for t in r.placements] == [
        "minCount (3) cannot be satisfied: 1 scheduled, 1 remaining",
        "minCount (3) cannot be satisfied: 2 scheduled, 0 remaining"]
    # the pods' results are the first candidate's
    assert [pr.node is not None if pr else None for _, pr in r.pod_results] == [True, False, None]


def test_failure_before_any_pod_loses_the_min_count_detail():
    # S0 + R0 < M before any pod: the candidate's status carries the error, so `%v` of it is the
    # bare error (kube-scheduler v1.37.0)
    fwk = default_framework()
    s = state([rack_node("a1", "rack-a")])
    r = run_root_algorithm(fwk, group(min_count=3), members(2), s)
    assert r.status.message == "pod group is unschedulable, 0/1 placements are available, first placement status: pod group is unschedulable"
    assert r.placements[0].message == "pod group is unschedulable, minCount (3) cannot be satisfied: 0 scheduled, 2 remaining"


def test_no_candidate_is_the_runners_no_feasible_placements_found():
    # RunPlacementGeneratePlugins (v1.37.0) answers an empty candidate list with Unschedulable
    # `no feasible placements found` from the generator: no wrapping, no `pod group is
    # unschedulable` error, no pod tried
    fwk = default_framework()
    s = state([rack_node("x", None)])
    r = run_root_algorithm(fwk, group(), members(2), s)
    assert r.status.code == Code.UNSCHEDULABLE and not r.status.err
    assert r.status.message == "no feasible placements found"
    assert r.status.plugin == "TopologyPlacementGenerator"
    assert r.placements == [] and all(pr is None for _, pr in r.pod_results)
    assert r.pod_message(None) == ("Unschedulable", "no feasible placements found")


def test_nominated_pods_do_not_reorder_or_shortcut_the_candidates():
    # v1.37.0 has no nominated-placement fast path: every candidate is evaluated in generation
    # order and scored; rack-a (fuller: MostAllocated over the candidate) wins although both
    # pods are nominated to rack-b (checked against kube-scheduler v1.37.2,
    # tests/scenarios/nominated-pods-no-placement-fast-path)
    fwk = default_framework()
    s = state([rack_node("a1", "rack-a", cpu=2000), rack_node("b1", "rack-b", cpu=8000)])
    pods = [dataclasses.replace(p, nominated_node_name="b1") for p in members(2)]
    r = schedule_placements(fwk, group(min_count=2), pods, s)
    assert r.placement == "rack-a"
    assert [(t.name, t.evaluated, t.feasible, t.chosen) for t in r.placements] == [
        ("rack-a", True, True, True), ("rack-b", True, True, False)]
    assert r.placements[0].score > r.placements[1].score


def test_nominated_candidate_that_fails_is_not_the_reported_one():
    fwk = default_framework()
    s = state([rack_node("a1", "rack-a", cpu=1000), rack_node("b1", "rack-b", cpu=500)])
    pods = [dataclasses.replace(p, nominated_node_name="b1") for p in members(2)]
    r = run_root_algorithm(fwk, group(min_count=2), pods, s)
    assert [t.name for t in r.placements] == ["rack-a", "rack-b"]
    assert r.status.message == ("pod group is unschedulable, 0/2 placements are available, first placement status: "
                                "minCount (2) cannot be satisfied: 1 scheduled, 0 remaining")
    assert r.pod_results[0][1].node == s.node_index["a1"]


def test_commit_places_the_winner_and_the_state_knows_its_members():
    from podgroup_plan.state.group_members import scheduled_count
    fwk = default_framework()
    s = state([rack_node("a1", "rack-a", cpu=1000), rack_node("b1", "rack-b", cpu=2000)])
    r = schedule_pod_group(fwk, group(min_count=2), members(2), s)
    assert r.status.is_success() and scheduled_count(s, ("ns", "g")) == 2
    assert {s.node_names[s.node_of(p)] for p in members(2)} == {"b1"}


def test_rotating_start_index_advances_through_trials_and_is_not_rolled_back():
    # 300 nodes per rack with percentageOfNodesToScore 10: each pod filters 100 of 300 nodes, and
    # every trial's pods advance the framework's index; rollback leaves it where it got to.
    config = {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
              "percentageOfNodesToScore": 10}
    fwk = default_framework(config)
    nodes = [rack_node(f"{r}{i:03d}", f"rack-{r}") for r in "ab" for i in range(300)]
    s = state(nodes)
    schedule_placements(fwk, group(min_count=1, policy="Basic"), members(1), s)
    # one pod per trial, two trials, each processing 100 nodes from the index: 0 -> 100 -> 200
    assert fwk.next_start_node_index == 200


def test_as_error_text():
    assert as_error_text(Status()) == "<nil>"
    assert as_error_text(Status(Code.UNSCHEDULABLE, ("a", "b"))) == "a, b"
    assert as_error_text(Status(Code.UNSCHEDULABLE, ("a",), err="e")) == "e"
