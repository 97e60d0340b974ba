"""What the framework's cycles tell an observer (`explain`'s tracer; none in other runs).

An observer is handed to `Framework(...)` and is only ever notified: the cycles call these
methods as things happen, and the observer keeps whatever state it wants of its own (which
candidate placement is on trial, say). Nobody sets its attributes from outside. A run without
an observer passes None, and the cycles skip every notification (and the work only an observer
needs) behind one `is None` check. The planner's own notifications (passes, group cycles, what
the recorder wrote) extend this protocol: `PlanObserver` in podgroup_plan/observer.py.
"""
from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from podgroup_plan.model.objects import Pod
from podgroup_plan.state.cluster import ClusterState


class CycleObserver(Protocol):
    def wants(self, pod: Pod) -> bool:
        """Whether the observer records this pod's cycles."""
        ...

    def pod_cycle(self, fwk: Any, pod: Pod, state: ClusterState, view: np.ndarray, result: Any) -> None:
        """One pod cycle's outcome (`result` is scheduling/schedule_one.py's PodScheduleResult),
        before anything is assumed."""
        ...

    def trial_started(self, placement: str | None) -> None:
        """The placement algorithm's trial of candidate `placement` (its name) begins: the pod
        cycles that follow run inside it."""
        ...

    def trial_ended(self) -> None:
        """The trial ended (rolled back or kept)."""
        ...
