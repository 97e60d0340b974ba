"""GangScheduling: the PodGroup gates (PreEnqueue), the gang rule (PlacementFeasible) and the
binding barrier (Permit).

Mirrors `pkg/scheduler/framework/plugins/gangscheduling/gangscheduling.go` at v1.37.0 (Permit was
removed in 1.38-dev by PR #141182). Basic groups behave as gangs of one. The plan never runs
Permit: scheduling/permit.py shows why it passes every pod of a successful group through.
"""
from __future__ import annotations

from podgroup_plan.framework.interface import (
    Group,
    PermitPlugin,
    PlacementFeasiblePlugin,
    PlacementProgress,
    PodGroupGate,
    PreEnqueuePlugin,
    required_count,
)
from podgroup_plan.framework.status import SUCCESS, Code, Status
from podgroup_plan.model.objects import GANG, Pod, PodGroup

NAME = "GangScheduling"

__all__ = ["GangScheduling", "PlacementProgress", "required_count", "missing_group_message"]


def missing_group_message(name: str) -> str:
    # upstream spells it "pods's"
    return f'waiting for pods\'s pod group "{name}" to appear in scheduling queue'


GANG_BELOW_MIN_COUNT = "waiting for minCount pods from a gang to appear in scheduling queue"
WAITING_FOR_GANG = "waiting for minCount pods from a gang to be scheduled"
# Permit's Wait times out after this long (hard-coded upstream; no plugin args).
PERMIT_TIMEOUT_SECONDS = 300


class GangScheduling(PreEnqueuePlugin, PermitPlugin, PlacementFeasiblePlugin):
    name = NAME

    def __init__(self, args=None, handle=None):
        super().__init__(args, handle)
        self._feasibility: dict[tuple[int, int, int], Status] = {}

    def pre_enqueue(self, pod: Pod, podgroup: PodGroupGate | None) -> Status:
        """The gate a pending group member passes before it is ever tried. `known_pods` counts
        every pod of the group the scheduler knows, scheduled or not (AllPodsCount)."""
        if podgroup is None:
            return Status()  # asked about the pod alone: the group is judged with its facts
        if podgroup.group is None:
            return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, (missing_group_message(podgroup.name),), NAME)
        if podgroup.group.policy == GANG and podgroup.known_pods < podgroup.group.min_count:
            return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, (GANG_BELOW_MIN_COUNT,), NAME)
        return Status()

    def permit(self, pod: Pod, group: PodGroup | None, scheduled: int) -> Status:
        """A pod without group, or of a basic group, binds at once; a gang member waits (up to
        PERMIT_TIMEOUT_SECONDS) until the group's assumed and bound pods reach minCount, when
        it and every waiting member are allowed. (A PodGroup inside a CompositePodGroup tree
        waits for the tree's quorum instead; the plan never needs it, see scheduling/permit.py.)"""
        if group is None or group.policy != GANG:
            return Status()
        if scheduled < group.min_count:
            return Status(Code.WAIT, (WAITING_FOR_GANG,), NAME)
        return Status()

    def placement_feasible(self, group: Group, progress: PlacementProgress) -> Status:
        m = required_count(group)
        s, r = progress.scheduled, progress.remaining
        if s >= m:
            return SUCCESS
        # asked after every pod of every gang: the (immutable) statuses are made once per counts
        key = (m, s, r)
        status = self._feasibility.get(key)
        if status is None:
            if s + r < m:
                status = Status(Code.UNSCHEDULABLE, (f"minCount ({m}) cannot be satisfied: {s} scheduled, {r} remaining",), NAME)
            else:
                status = Status(Code.WAIT, (f"minCount ({m}) is not yet satisfied: {s} scheduled, {r} remaining",), NAME)
            if len(self._feasibility) >= 4096:
                self._feasibility.clear()
            self._feasibility[key] = status
        return status
