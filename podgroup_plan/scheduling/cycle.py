"""The root group cycle: run a group's algorithm against the current state, roll every
tentative assume back, and commit a success.

Mirrors v1.37.0's `pkg/scheduler/schedule_one_podgroup.go` runRootSchedulingAlgorithm (with its
deferred revert) and the assume step of submitPodGroupAlgorithmResult. Kept apart from the
algorithms (`pod_group`, `placement`) so that workload-aware preemption can re-run the same
entry point after removing victims, and get proposals without anything being committed.
"""
from __future__ import annotations

from typing import Sequence

from podgroup_plan.framework.runtime import Framework
from podgroup_plan.framework.status import Code, Status
from podgroup_plan.model.objects import Pod, PodGroup
from podgroup_plan.scheduling.placement import schedule_placements
from podgroup_plan.scheduling.pod_group import POD_GROUP_IS_UNSCHEDULABLE, GroupCycleResult, run_default_algorithm
from podgroup_plan.state.cluster import ClusterState

# A committing cycle keeps the assumes its algorithm left instead of rolling them back and
# assuming the proposal again (`run_root_algorithm(commit=True)`). False takes the long way; a
# property test plans both ways and compares the results byte for byte.
KEEP_ASSUMED = True


def run_root_algorithm(
    fwk: Framework, group: PodGroup, queued: Sequence[Pod], state: ClusterState,
    placement_algorithm: bool = True, commit: bool = False,
) -> GroupCycleResult:
    """runRootSchedulingAlgorithm for a standalone PodGroup, against the state as it is now:
    the placement algorithm (scheduling/placement.py) when TopologyAwareWorkloadScheduling is
    on, else the default algorithm over every node. Every tentative assume is rolled back
    before returning: the result *proposes* (`assignments`, per-pod results, status) and
    commits nothing. The cycle commits a Success; workload-aware preemption calls this again
    after removing its victims.

    With `commit` (the cycle's own run, never preemption's re-run) a Success whose proposal
    is exactly what the algorithm left assumed keeps those assumes instead of undoing them
    (`result.assumed`): the default algorithm, or the placement algorithm's only candidate.
    The state ends the same as after rolling back and assuming the proposal again, pod by
    pod in the same order; only fewer changes are journalled (versions are compared, never
    counted, so no cache or retry decision can tell)."""
    with state.tentative() as root:
        if placement_algorithm:
            result = schedule_placements(fwk, group, queued, state, keep_single=commit)
        else:
            result = run_default_algorithm(fwk, group, queued, state)
            result.assumed = commit
        if result.status.is_success() and not result.any_scheduled:
            # runRootSchedulingAlgorithm: success requires a newly placed pod; otherwise the
            # status is Unschedulable with the bare error and no reason (v1.37.0 text).
            result.status = Status(Code.UNSCHEDULABLE, err=POD_GROUP_IS_UNSCHEDULABLE)
        if not result.status.is_success():
            result.any_scheduled = False
            result.assumed = False
        if result.assumed:
            root.keep()
    # completePodGroupAlgorithmResult: never-evaluated pods get a copy of the status as it is now.
    result.unevaluated_status = result.status
    return result


def schedule_pod_group(
    fwk: Framework, group: PodGroup, queued: Sequence[Pod], state: ClusterState,
    placement_algorithm: bool = True,
) -> GroupCycleResult:
    """One root PodGroup cycle without preemption: the root algorithm, then, on Success, its
    proposed pods are assumed for good (they are bound); otherwise nothing changes."""
    result = run_root_algorithm(fwk, group, queued, state, placement_algorithm, commit=KEEP_ASSUMED)
    if result.status.is_success() and not result.assumed:
        for pod, node in result.assignments:
            state.assume(pod, node)
    return result
