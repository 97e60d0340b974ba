"""What the framework's cycles tell an observer (`explain`'s tracer; none in other runs).

An observer is handed to `Framework(...)`; the scheduling code reads it as `fwk.observer`.
The protocol names what the cycles call today; `explain` (podgroup_plan/explain/trace.py)
implements it.
"""
from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from podgroup_plan.model.objects import Pod
from podgroup_plan.state.cluster import ClusterState


class CycleObserver(Protocol):
    # the candidate placement whose trial runs now (None outside a trial)
    placement: str | None

    def wants(self, pod: Pod) -> bool:
        """Whether the observer records this pod's cycles."""
        ...

    def pod_cycle(self, fwk: Any, pod: Pod, state: ClusterState, view: np.ndarray, result: Any) -> None:
        """One pod cycle's outcome (`result` is scheduling/schedule_one.py's PodScheduleResult)."""
        ...
