"""The timeline: after every event time, what is allocated, what waits, and how fragmented the
free GPUs are (free N-GPU slots: how many pods asking N GPUs would fit on the free GPUs, node by
node). A row is kept only when something in it changed, so its length follows the changes."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from podgroup_plan.state.cluster import ClusterState

SLOT_SIZES = (1, 2, 4, 8)


@dataclass(frozen=True, slots=True)
class Row:
    time: float
    gpus: int
    cpus: float
    pending_pods: int
    pending_gangs: int
    free_slots: tuple[int, ...]  # per SLOT_SIZES


class Timeline:
    def __init__(self, state: ClusterState, gpu: str):
        self.state = state
        self.gpu = gpu
        self.rows: list[Row] = []
        self.pending_pods = 0
        self.pending_gangs = 0
        self.gpu_seconds = 0.0  # allocated GPUs integrated over time, row by row
        self.total_gpus = int(state.allocatable[state.resource_index[gpu]].sum()) if gpu in state.resource_index else 0
        self.total_cpus = float(state.allocatable[state.resource_index["cpu"]].sum()) / 1000.0

    def pending(self, pods: int, gangs: int) -> None:
        self.pending_pods += pods
        self.pending_gangs += gangs

    def snapshot(self, time: float) -> None:
        state = self.state
        row = state.resource_index.get(self.gpu)
        if row is not None:
            used = state.requested[row]
            free = state.allocatable[row] - used
            gpus = int(used.sum())
            slots = tuple(int((np.maximum(free, 0) // n).sum()) for n in SLOT_SIZES)
        else:
            gpus, slots = 0, (0,) * len(SLOT_SIZES)
        cpus = float(state.requested[state.resource_index["cpu"]].sum()) / 1000.0
        new = Row(time, gpus, cpus, self.pending_pods, self.pending_gangs, slots)
        if self.rows:
            last = self.rows[-1]
            if (last.gpus, last.cpus, last.pending_pods, last.pending_gangs, last.free_slots) == \
                    (new.gpus, new.cpus, new.pending_pods, new.pending_gangs, new.free_slots):
                return
            self.gpu_seconds += last.gpus * (time - last.time)
        self.rows.append(new)

    def close(self, time: float) -> None:
        """Integrate up to the end of the replay."""
        if self.rows:
            self.gpu_seconds += self.rows[-1].gpus * (time - self.rows[-1].time)
