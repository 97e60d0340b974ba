"""Why the plan passes GangScheduling's Permit through (README, "Deviations from kube-scheduler": "Permit is a
pass-through"; v1.37.0's GangScheduling.Permit).

In v1.37.0 a successful group's pods are submitted one by one (`submitPodGroupAlgorithmResult`
-> prepareForBindingCycle: assume, Reserve, Permit). GangScheduling's Permit holds a gang member
(Wait, at most 5 minutes) until the group's assumed and bound pods reach minCount, and the pod
whose Permit succeeds releases every waiting member. `submit_through_permit` replays that
sequence. The cycle only submits a group whose PlacementFeasible said Success on the same counts
(already scheduled + fitted >= minCount), so the last fitted pod always reaches minCount and
every pod ends allowed: a plan never shows Permit's `waiting for minCount pods from a gang to be
scheduled`. Only a member failing its assume or Reserve after the cycle (a concurrent cache
change; a Reserve plugin such as VolumeBinding or DynamicResources, which the plan does not
model) leaves the count short; then the held members time out. A plan has neither.
"""
from __future__ import annotations

from typing import Sequence

from podgroup_plan.framework.interface import PermitPlugin
from podgroup_plan.framework.status import Code, Status
from podgroup_plan.model.objects import Pod, PodGroup


def submit_through_permit(
    permit: PermitPlugin, group: PodGroup, scheduled_before: int, fitted: Sequence[Pod],
    reserved: Sequence[bool] | None = None,
) -> list[Status]:
    """The final Permit status of each fitted pod, in submit order. `reserved[i]` False means
    pod i failed its assume/Reserve step (it is then rejected and never reaches Permit: its
    status here is Unschedulable). A Wait left at the end is a member that times out."""
    reserved = [True] * len(fitted) if reserved is None else list(reserved)
    statuses: list[Status] = []
    waiting: list[int] = []
    scheduled = scheduled_before
    for i, pod in enumerate(fitted):
        if not reserved[i]:
            statuses.append(Status(Code.UNSCHEDULABLE, ("Reserve failed",)))
            continue
        scheduled += 1
        status = permit.permit(pod, group, scheduled)
        statuses.append(status)
        if status.code == Code.WAIT:
            waiting.append(i)
        elif status.is_success():
            for j in waiting:  # the quorum is met: every waiting member is allowed
                statuses[j] = Status()
            waiting.clear()
    return statuses
