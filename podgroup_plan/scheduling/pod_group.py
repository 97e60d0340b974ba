"""The PodGroup scheduling cycle: validation, the default (non-placement) algorithm, outcome.

Mirrors `pkg/scheduler/schedule_one_podgroup.go` (validatePodGroup, submitPodGroupResult) and
`pkg/scheduler/algorithm_podgroup.go` (podGroupSchedulingDefaultAlgorithm,
RunRootSchedulingAlgorithm): pods go one by one through the single-pod algorithm without
PostFilter, each fitting pod is assumed so later pods see it, PlacementFeasible decides after
every pod, and the whole group is kept or rolled back at once.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from podgroup_plan.framework.runtime import Framework
from podgroup_plan.framework.status import Code, Status
from podgroup_plan.model.objects import PREEMPT_LOWER_PRIORITY, Pod, PodGroup
from podgroup_plan.plugins.gang_scheduling import GangScheduling, PlacementProgress
from podgroup_plan.scheduling.schedule_one import PodScheduleResult, schedule_pod
from podgroup_plan.state.cluster import ClusterState

NO_PODS_WERE_SCHEDULABLE = "no pods were schedulable"
POD_GROUP_IS_UNSCHEDULABLE = "pod group is unschedulable"


@dataclass(slots=True)
class GroupCycleResult:
    group: PodGroup
    status: Status  # Success, Unschedulable (with the group message) or Error
    # One entry per queued pod, in queue order; None for pods the algorithm never reached.
    pod_results: list[tuple[Pod, PodScheduleResult | None]] = field(default_factory=list)
    any_scheduled: bool = False

    @property
    def assignments(self) -> list[tuple[Pod, int]]:
        return [(p, r.node) for p, r in self.pod_results if r is not None and r.node is not None]

    def pod_message(self, pod_result: PodScheduleResult | None) -> tuple[str, str]:
        """(reason, message) a member pod reports when the group did not schedule: its own
        FitError when it did not fit, else the group's status behind `pod group is
        unschedulable` (the error upstream wraps around the group status)."""
        if self.status.code == Code.ERROR:
            return "SchedulerError", self.status.message
        if pod_result is not None and pod_result.node is None:
            return "Unschedulable", pod_result.message
        return "Unschedulable", f"{POD_GROUP_IS_UNSCHEDULABLE}, {self.status.message}"


def validate_pod_group(
    group: PodGroup, queued: Sequence[Pod], scheduled: Sequence[Pod], frameworks: dict[str, Framework],
    preemption_policy_gate: bool = True,
) -> str | None:
    """validatePodGroup: the error text, or None when the group may be scheduled. Checks the
    queued pods then the already scheduled ones, stopping at the first mismatch."""
    scheduler_name = queued[0].scheduler_name if queued else ""
    group_priority = group.priority if group.priority is not None else (queued[0].priority if queued else 0)
    # With the gate every pod must match the group's policy; without it, the first pod's.
    group_policy = (group.preemption_policy or PREEMPT_LOWER_PRIORITY) if preemption_policy_gate else ""
    for pod in list(queued) + list(scheduled):
        if pod.scheduler_name != scheduler_name:
            return (
                "all pods in a single pod group should have the same .spec.schedulerName set, "
                f'got: "{pod.scheduler_name}" and "{scheduler_name}"'
            )
        if pod.priority != group_priority:
            return (
                "all pods in a single pod group should have the same priority as the pod group's "
                f"priority, got {pod.priority} and {group_priority}"
            )
        if preemption_policy_gate:
            if pod.preemption_policy != group_policy:
                return (
                    "all pods in a single pod group should have the same preemption policy as the pod "
                    f"group's preemption policy, got {pod.preemption_policy} and {group_policy}"
                )
        elif not group_policy:
            group_policy = pod.preemption_policy
        elif pod.preemption_policy != group_policy:
            return (
                "all pods in a single pod group should have the same preemption policy, "
                f"got {pod.preemption_policy} and {group_policy}"
            )
    if scheduler_name not in frameworks:
        return f'profile not found for scheduler name "{scheduler_name}"'
    return None


def _feasible(gang: GangScheduling | None, group: PodGroup, progress: PlacementProgress) -> tuple[bool, Status]:
    """podGroupPotentiallyFeasible: (proceed, status to record). Wait proceeds but would end as
    Unschedulable; Unschedulable stops."""
    if gang is None:  # GangScheduling disabled at placementFeasible: every placement is feasible
        return True, Status()
    status = gang.placement_feasible(group, progress)
    if status.code == Code.UNSCHEDULABLE:
        return False, status
    if status.code == Code.WAIT:
        return True, Status(Code.UNSCHEDULABLE, status.reasons, status.plugin)
    return True, status


def run_default_algorithm(
    fwk: Framework, group: PodGroup, queued: Sequence[Pod], scheduled_count: int,
    state: ClusterState, view: np.ndarray | None = None,
) -> GroupCycleResult:
    """podGroupSchedulingDefaultAlgorithm over `view`. Fitting pods are assumed in `state` and
    stay assumed; the caller decides to keep or roll back (see `schedule_pod_group`)."""
    gang = fwk.plugin("GangScheduling") if "GangScheduling" in fwk.enabled_names("placementFeasible") else None
    result = GroupCycleResult(group, Status(Code.UNSCHEDULABLE))
    progress = PlacementProgress(remaining=len(queued), scheduled=scheduled_count)
    proceed, result.status = _feasible(gang, group, progress)
    evaluated = 0
    if proceed:
        for pod in queued:
            pr = schedule_pod(fwk, pod, state, view)
            evaluated += 1
            result.pod_results.append((pod, pr))
            if pr.status.code == Code.ERROR:
                result.status = Status(Code.ERROR, (f"failed to schedule other pod from a pod group: {pr.message}",))
                break
            if pr.node is not None:
                state.assume(pod, pr.node)
            progress = PlacementProgress(progress.remaining - 1, progress.scheduled + (pr.node is not None))
            proceed, result.status = _feasible(gang, group, progress)
            if not proceed:
                break
            result.any_scheduled = result.any_scheduled or pr.node is not None
    # completePodGroupAlgorithmResult: pods the loop never reached carry the group status.
    result.pod_results.extend((pod, None) for pod in queued[evaluated:])
    return result


def schedule_pod_group(
    fwk: Framework, group: PodGroup, queued: Sequence[Pod], scheduled_count: int,
    state: ClusterState, view: np.ndarray | None = None,
) -> GroupCycleResult:
    """One root PodGroup cycle without preemption: on Success the fitting pods stay placed
    (they are bound); otherwise every tentative assume is rolled back."""
    with state.tentative() as attempt:
        result = run_default_algorithm(fwk, group, queued, scheduled_count, state, view)
        if result.status.is_success() and not result.any_scheduled:
            # RunRootSchedulingAlgorithm: success requires at least one newly placed pod.
            result.status = Status(Code.UNSCHEDULABLE, (NO_PODS_WERE_SCHEDULABLE,))
        if result.status.is_success():
            attempt.keep()
        else:
            result.any_scheduled = False
    return result
