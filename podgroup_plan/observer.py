"""What the planner tells an observer (`explain`'s tracer; none in other runs).

`PlanObserver` is the framework's `CycleObserver` (what the pod cycles and the placement trials
report, framework/observer.py) plus what the passes (passes.py, scheduling/tree_cycle.py) and
the recorder (outcome.py) report. It is handed to `Planner(observer=...)` (or
`plan(observer=...)`), which gives it to every `Framework`, to the passes and to the recorder
as a constructor argument, and it is only ever notified: nobody sets its attributes from
outside. `explain` (podgroup_plan/explain/trace.py) implements it.
"""
from __future__ import annotations

from typing import Protocol

from podgroup_plan.framework.observer import CycleObserver
from podgroup_plan.framework.preemption.common import PreemptionOutcome
from podgroup_plan.model.objects import Pod


class PlanObserver(CycleObserver, Protocol):
    # ----- the passes and the group cycles --------------------------------------------------

    def pass_started(self) -> None:
        """A new pass over the queue begins."""
        ...

    def group_cycle_started(self, scope: str) -> None:
        """A group's cycle begins: `scope` is "PodGroup ns/name" or "CompositePodGroup ns/name";
        the pod cycles that follow run inside it, until `group_cycle_finished`."""
        ...

    def group_cycle_finished(self) -> None:
        ...

    def rerun_started(self) -> None:
        """Workload-aware preemption re-runs the group's algorithm (it proposes, nothing stays)."""
        ...

    def rerun_finished(self) -> None:
        ...

    def preemption(self, namespace: str, name: str, outcome: PreemptionOutcome) -> None:
        """PodGroupPostFilter's decision for the group (or tree root) `namespace/name`."""
        ...

    # ----- what the recorder wrote (outcome.py) ---------------------------------------------

    def outcome(self, pod: Pod, status: str, node: str | None, message: str | None) -> None:
        """A pod's outcome as the recorder wrote it."""
        ...

    def victim(self, preemptor_kind: str, namespace: str, name: str, victim: dict) -> None:
        """A pod evicted for the preemptor `preemptor_kind namespace/name` (its result's dict)."""
        ...

    def placement_run(self, namespace: str, name: str, placements: list[dict] | None) -> None:
        """The candidates of a group's placement-algorithm run as the recorder kept them."""
        ...

    def group_cycle(self, namespace: str, name: str, reason: str, message: str) -> None:
        """A PodGroup's (or CompositePodGroup's) cycle ended with `reason`."""
        ...
