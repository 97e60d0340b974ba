"""The PodGroup cycle: gang feasibility, all-or-nothing, messages, validation."""
import pytest

from podgroup_plan.framework.status import Code, Status
from podgroup_plan.scheduling.schedule_one import PodScheduleResult
from podgroup_plan.scheduling.cycle import schedule_pod_group
from podgroup_plan.scheduling.pod_group import validate_pod_group

from .fakes import framework, gang, node, pod, state


def run(nodes, group, queued, running=()):
    s = state(nodes, running)
    # the default algorithm (TopologyAwareWorkloadScheduling off); running members are read
    # from the state
    return s, schedule_pod_group(framework(), group, queued, s, placement_algorithm=False)


def test_gang_fits_whole_and_stays_placed():
    s, r = run([node("a", cpu=2000), node("b", cpu=2000)], gang("g", 3), [pod(f"p{i}", group="g") for i in range(3)])
    assert r.status.is_success() and len(r.assignments) == 3
    assert int(s.pod_count.sum()) == 3


def test_gang_that_cannot_meet_min_count_rolls_back_everything():
    s, r = run([node("a", cpu=2000)], gang("g", 3), [pod(f"p{i}", group="g") for i in range(3)])
    assert not r.status.is_success()
    assert r.status.message == "minCount (3) cannot be satisfied: 2 scheduled, 0 remaining"
    assert int(s.pod_count.sum()) == 0
    fitted = [r.pod_message(pr) for _, pr in r.pod_results]
    assert fitted[0] == ("Unschedulable", "pod group is unschedulable, minCount (3) cannot be satisfied: 2 scheduled, 0 remaining")
    assert fitted[2] == ("Unschedulable", "0/1 nodes are available: 1 Insufficient cpu.")


def test_stops_early_when_min_count_is_out_of_reach():
    s, r = run([node("a", cpu=500)], gang("g", 3), [pod(f"p{i}", group="g") for i in range(4)])
    # after two failures 0 scheduled + 2 remaining < 3: the last two pods are never tried
    assert [pr is None for _, pr in r.pod_results] == [False, False, True, True]
    assert r.status.message == "minCount (3) cannot be satisfied: 0 scheduled, 2 remaining"
    # completePodGroupAlgorithmResult: a never-evaluated pod carries a copy of the group status,
    # with no `pod group is unschedulable` in front (v1.37.0 schedule_one_podgroup.go)
    assert r.pod_message(None) == ("Unschedulable", "minCount (3) cannot be satisfied: 0 scheduled, 2 remaining")


def test_min_count_met_by_part_of_the_pods():
    s, r = run([node("a", cpu=2000)], gang("g", 2), [pod(f"p{i}", group="g") for i in range(3)])
    assert r.status.is_success() and [p.name for p, _ in r.assignments] == ["p0", "p1"]


def test_running_members_count_toward_min_count():
    running = [pod("r0", group="g", node_name="a"), pod("r1", group="g", node_name="a")]
    s, r = run([node("a", cpu=3000)], gang("g", 3), [pod("p", group="g")], running)
    assert r.status.is_success() and len(r.assignments) == 1


def test_none_placed_when_min_count_already_met_is_the_bare_text():
    # runRootSchedulingAlgorithm (v1.37.0): Unschedulable with errPodGroupUnschedulable and no
    # reason; 1.38-dev's "no pods were schedulable" is not mirrored.
    running = [pod("r0", group="g", node_name="a")]
    s, r = run([node("a", cpu=1000)], gang("g", 1), [pod("p", group="g")], running)
    assert r.status.code == Code.UNSCHEDULABLE and r.status.reasons == ()
    assert r.status.message == "pod group is unschedulable"
    # the new pod did not fit: it keeps its own FitError
    assert r.pod_message(r.pod_results[0][1]) == ("Unschedulable", "0/1 nodes are available: 1 Insufficient cpu.")


def test_out_of_reach_before_any_pod_carries_the_error():
    # podGroupSchedulingDefaultAlgorithm step 1: PlacementFeasible Unschedulable before any pod
    # is wrapped in errPodGroupUnschedulable; no pod is tried.
    s, r = run([node("a", cpu=8000)], gang("g", 3), [pod("p0", group="g"), pod("p1", group="g")])
    assert r.status.message == "pod group is unschedulable, minCount (3) cannot be satisfied: 0 scheduled, 2 remaining"
    assert [pr for _, pr in r.pod_results] == [None, None]
    assert r.pod_message(None) == ("Unschedulable", r.status.message)


def test_fitted_pod_of_a_group_whose_text_starts_with_the_error_gets_it_twice():
    # submitPodGroupAlgorithmResult: a fitted pod's new status has the group's Message() as its
    # reason and errPodGroupUnschedulable as its error, whatever the group text already says.
    s, r = run([node("a", cpu=2000)], gang("g", 3), [pod(f"p{i}", group="g") for i in range(3)])
    r.status = Status(Code.UNSCHEDULABLE, ("0/1 placements are available",), err="pod group is unschedulable")
    assert r.pod_message(r.pod_results[0][1]) == (
        "Unschedulable", "pod group is unschedulable, pod group is unschedulable, 0/1 placements are available")


def test_group_error_keeps_a_pods_own_error():
    s, r = run([node("a", cpu=2000)], gang("g", 2), [pod("p0", group="g"), pod("p1", group="g")])
    own = PodScheduleResult(r.pod_results[0][0], None, Status(Code.ERROR, ("boom",)))
    r.status = Status(Code.ERROR, ("failed to schedule other pod from a pod group: boom",))
    assert r.pod_message(own) == ("SchedulerError", "boom")
    assert r.pod_message(r.pod_results[1][1]) == ("SchedulerError", "failed to schedule other pod from a pod group: boom")


def test_basic_policy_binds_what_fits():
    s, r = run([node("a", cpu=1000)], gang("g", 1, policy="Basic"), [pod("p0", group="g"), pod("p1", group="g")])
    assert r.status.is_success() and [p.name for p, _ in r.assignments] == ["p0"]


@pytest.mark.parametrize(
    "pods,expected",
    [
        pytest.param([pod("a", group="g"), pod("b", group="g", scheduler="other")],
                     'all pods in a single pod group should have the same .spec.schedulerName set, got: "other" and "default-scheduler"', id="scheduler-name"),
        pytest.param([pod("a", group="g"), pod("b", group="g", priority=5)],
                     "all pods in a single pod group should have the same priority as the pod group's priority, got 5 and 0", id="priority"),
        pytest.param([pod("a", group="g", policy="Never")],
                     "all pods in a single pod group should have the same preemption policy as the pod group's preemption policy, got Never and PreemptLowerPriority", id="preemption-policy"),
        pytest.param([pod("a", group="g", scheduler="nope")], 'profile not found for scheduler name "nope"', id="no-profile"),
        pytest.param([pod("a", group="g"), pod("b", group="g")], None, id="valid"),
    ],
)
def test_validation(pods, expected):
    assert validate_pod_group(gang("g", 1), pods, [], {"default-scheduler": framework()}) == expected


def test_validation_without_policy_gate_compares_pods():
    pods = [pod("a", group="g", policy="Never"), pod("b", group="g")]
    msg = validate_pod_group(gang("g", 1), pods, [], {"default-scheduler": framework()}, preemption_policy_gate=False)
    assert msg == "all pods in a single pod group should have the same preemption policy, got PreemptLowerPriority and Never"


def test_group_priority_checked_against_pods():
    msg = validate_pod_group(gang("g", 1, priority=100), [pod("a", group="g")], [], {"default-scheduler": framework()})
    assert msg == "all pods in a single pod group should have the same priority as the pod group's priority, got 0 and 100"
