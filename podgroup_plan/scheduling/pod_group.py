"""The PodGroup scheduling cycle: validation, the default (non-placement) algorithm, outcome.

Mirrors v1.37.0's `pkg/scheduler/schedule_one_podgroup.go` (validatePodGroup,
podGroupSchedulingDefaultAlgorithm, runRootSchedulingAlgorithm, completePodGroupAlgorithmResult,
submitPodGroupAlgorithmResult; 1.38-dev moved the algorithms to `algorithm_podgroup.go` and changed
their texts, which is not followed): pods go one by one through the single-pod algorithm without
PostFilter, each fitting pod is assumed so later pods see it, PlacementFeasible decides after
every pod, and the whole group is kept or rolled back at once.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

import numpy as np

from podgroup_plan.framework.interface import Group, PlacementProgress
from podgroup_plan.framework.runtime import Framework
from podgroup_plan.framework.status import Code, Status
from podgroup_plan.model.objects import PREEMPT_LOWER_PRIORITY, CompositePodGroup, Pod, PodGroup
from podgroup_plan.scheduling.schedule_one import PodScheduleResult, schedule_pod
from podgroup_plan.state.cluster import ClusterState
from podgroup_plan.state.group_members import scheduled_count as group_scheduled_count

# errPodGroupUnschedulable: the error upstream attaches to a group status in three places (a
# gang out of reach before any pod, a final Wait, nothing newly placed) and to the status of a
# fitted pod whose group was rejected. (1.38-dev says "no pods were schedulable" for nothing
# newly placed and copies the group status to fitted pods; v1.37.0 does neither.)
POD_GROUP_IS_UNSCHEDULABLE = "pod group is unschedulable"


@dataclass(slots=True)
class GroupCycleResult:
    group: Group  # a PodGroup, or a CompositePodGroup's own result in a tree
    status: Status  # Success, Unschedulable (with the group message) or Error
    # One entry per queued pod, in queue order; None for pods the algorithm never reached.
    pod_results: list[tuple[Pod, PodScheduleResult | None]] = field(default_factory=list)
    any_scheduled: bool = False
    # completePodGroupAlgorithmResult: what a never-evaluated pod carries, a copy of the group
    # status taken when the algorithm returned (before any post-filter text is appended).
    unevaluated_status: Status | None = None
    # The placement algorithm's account (scheduling/placement.py): every candidate in
    # evaluation order, None when the algorithm did not run; and the chosen domain's name.
    placements: Sequence | None = None  # result.PlacementResults
    placement: str | None = None
    # The proposed assignments are already assumed in the state: the chosen trial was kept
    # instead of rolled back (a single candidate, committing cycle; scheduling/cycle.py).
    assumed: bool = False

    @property
    def assignments(self) -> list[tuple[Pod, int]]:
        return [(p, r.node) for p, r in self.pod_results if r is not None and r.node is not None]

    def pod_message(self, pod_result: PodScheduleResult | None) -> tuple[str, str]:
        """(reason, message) a member pod reports when the group did not schedule
        (submitPodGroupAlgorithmResult, v1.37.0):
        * group Error: a pod whose own status is an error keeps it, every other the group's;
        * never evaluated: the copy of the group status, without any prefix;
        * did not fit: its own FitError;
        * fitted: a new status with error `pod group is unschedulable` and the group text as
          its reason, so the prefix appears twice when the group text already starts with it."""
        if self.status.code == Code.ERROR:
            if pod_result is not None and pod_result.status.code == Code.ERROR:
                return "SchedulerError", pod_result.message
            return "SchedulerError", self.status.message
        if pod_result is None:
            copied = self.unevaluated_status if self.unevaluated_status is not None else self.status
            return "Unschedulable", copied.message
        if pod_result.node is None:
            return "Unschedulable", pod_result.message
        return "Unschedulable", Status(Code.UNSCHEDULABLE, (self.status.message,), err=POD_GROUP_IS_UNSCHEDULABLE).message


def validate_pod_group(
    group: PodGroup | CompositePodGroup, queued: Sequence[Pod], scheduled: Sequence[Pod],
    frameworks: Mapping[str, Framework], preemption_policy_gate: bool = True,
) -> str | None:
    """validatePodGroup: the error text, or None when the group (a PodGroup, or the root
    CompositePodGroup of a tree) may be scheduled. Checks the queued pods then the already
    scheduled ones, stopping at the first mismatch."""
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


def run_default_algorithm(
    fwk: Framework, group: Group, queued: Sequence[Pod], state: ClusterState,
    view: np.ndarray | None = None, scheduled_count: int | None = None,
) -> GroupCycleResult:
    """podGroupSchedulingDefaultAlgorithm over `view` (default: every node). Fitting pods are
    assumed in `state` and stay assumed; the caller rolls them back (a placement trial, the
    root algorithm) through the undo log. `scheduled_count` is the group's scheduled pods
    (PodGroupState.ScheduledPodsCount), read from the state unless given."""
    if scheduled_count is None:
        scheduled_count = group_scheduled_count(state, group.key)
    result = GroupCycleResult(group, Status())
    progress = PlacementProgress(remaining=len(queued), scheduled=scheduled_count)
    status = fwk.run_placement_feasible(group, progress)
    evaluated = 0
    if status.code == Code.ERROR:
        status = Status(Code.ERROR, (f"failed to evaluate placement feasibility: {status.message}",))
    elif status.code == Code.UNSCHEDULABLE:
        # Out of reach before any pod: upstream wraps the reason in errPodGroupUnschedulable
        # here (and only here), so the text reads `pod group is unschedulable, minCount ...`.
        status = status.with_error(POD_GROUP_IS_UNSCHEDULABLE)
    else:
        for pod in queued:
            pr = schedule_pod(fwk, pod, state, view)
            evaluated += 1
            result.pod_results.append((pod, pr))
            if pr.status.code == Code.ERROR:
                status = Status(Code.ERROR, (f"failed to schedule other pod from a pod group: {pr.message}",))
                break
            if pr.node is not None:
                state.assume(pod, pr.node)
            progress = PlacementProgress(progress.remaining - 1, progress.scheduled + (pr.node is not None))
            status = fwk.run_placement_feasible(group, progress)
            if status.code == Code.ERROR:
                status = Status(Code.ERROR, (f"failed to evaluate placement feasibility: {status.message}",))
                break
            if status.code == Code.UNSCHEDULABLE:
                break  # the PF status as returned: reason `minCount ... cannot be satisfied`, no error
            result.any_scheduled = result.any_scheduled or pr.node is not None
    if status.code == Code.WAIT:
        # A final Wait (unreachable after the last pod: R = 0) is Unschedulable behind the error.
        status = Status(Code.UNSCHEDULABLE, status.reasons, status.plugin, POD_GROUP_IS_UNSCHEDULABLE)
    if not status.is_success():
        result.any_scheduled = False
    result.status = status
    result.pod_results.extend((pod, None) for pod in queued[evaluated:])
    return result
