"""GangScheduling: the PodGroup gates (PreEnqueue) and the gang rule (PlacementFeasible).

Mirrors `pkg/scheduler/framework/plugins/gangscheduling/gangscheduling.go` (1.37-dev). Basic
groups behave as gangs of one.
"""
from __future__ import annotations

from dataclasses import dataclass

from podgroup_plan.framework.interface import Plugin
from podgroup_plan.framework.status import Code, Status
from podgroup_plan.model.objects import GANG, PodGroup

NAME = "GangScheduling"


@dataclass(frozen=True, slots=True)
class PlacementProgress:
    remaining: int  # pods (or children) still to evaluate
    scheduled: int  # pods already scheduled (bound or assumed) plus those placed so far


def missing_group_message(name: str) -> str:
    # upstream spells it "pods's"
    return f'waiting for pods\'s pod group "{name}" to appear in scheduling queue'


GANG_BELOW_MIN_COUNT = "waiting for minCount pods from a gang to appear in scheduling queue"


def required_count(group: PodGroup) -> int:
    return group.min_count if group.policy == GANG else 1


class GangScheduling(Plugin):
    name = NAME

    def pre_enqueue(self, group: PodGroup | None, group_name: str, known_pods: int) -> Status:
        """The gate a pending group member passes before it is ever tried. `known_pods` counts
        every pod of the group the scheduler knows, scheduled or not (AllPodsCount)."""
        if group is None:
            return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, (missing_group_message(group_name),), NAME)
        if group.policy == GANG and known_pods < group.min_count:
            return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, (GANG_BELOW_MIN_COUNT,), NAME)
        return Status()

    def placement_feasible(self, group: PodGroup, progress: PlacementProgress) -> Status:
        m = required_count(group)
        s, r = progress.scheduled, progress.remaining
        if s + r < m:
            return Status(Code.UNSCHEDULABLE, (f"minCount ({m}) cannot be satisfied: {s} scheduled, {r} remaining",), NAME)
        if s < m:
            return Status(Code.WAIT, (f"minCount ({m}) is not yet satisfied: {s} scheduled, {r} remaining",), NAME)
        return Status()
