"""Node usage by eviction priority: what every potential victim takes up, node by node.

A derived index of the cluster state (`ClusterState.index`): for each victim-unit priority,
the sums of the usage columns (requested resources, kube-scheduler's non-zero cpu/memory, pod
count) over the placed pods of that priority. It follows every assume, forget and rollback like
any other index, so "the usage of every pod a preemptor of priority P may evict" is a sum of a
few arrays, not a walk over the pods: workload-aware preemption takes all of them off the
nodes in one step (`ClusterState.shift_usage`).
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from podgroup_plan.model.objects import Pod
from podgroup_plan.state.cluster import ClusterState
from podgroup_plan.state.derived import DerivedKey


class _Bucket:
    __slots__ = ("requested", "non_zero", "count", "pods")

    def __init__(self, n_resources: int, n: int):
        self.requested = np.zeros((n_resources, n), dtype=np.int64)
        self.non_zero = np.zeros((2, n), dtype=np.int64)
        self.count = np.zeros(n, dtype=np.int64)
        self.pods = 0


class PriorityUsage:
    def __init__(self, state: ClusterState, priority_of: Callable[[Pod], int]):
        self.state = state
        self.priority_of = priority_of
        self.buckets: dict[int, _Bucket] = {}

    def _bucket(self, priority: int, n_resources: int) -> _Bucket:
        b = self.buckets.get(priority)
        if b is None:
            b = self.buckets[priority] = _Bucket(n_resources, self.state.n)
        elif b.requested.shape[0] < n_resources:
            extra = np.zeros((n_resources - b.requested.shape[0], self.state.n), dtype=np.int64)
            b.requested = np.vstack([b.requested, extra])
        return b

    def add(self, pod: Pod, node: int) -> None:
        vec = self.state.request_vector(pod)
        b = self._bucket(self.priority_of(pod), len(vec))
        b.requested[: len(vec), node] += vec
        b.non_zero[0, node] += pod.non_zero_cpu
        b.non_zero[1, node] += pod.non_zero_memory
        b.count[node] += 1
        b.pods += 1

    def remove(self, pod: Pod, node: int) -> None:
        vec = self.state.request_vector(pod)
        b = self._bucket(self.priority_of(pod), len(vec))
        b.requested[: len(vec), node] -= vec
        b.non_zero[0, node] -= pod.non_zero_cpu
        b.non_zero[1, node] -= pod.non_zero_memory
        b.count[node] -= 1
        b.pods -= 1

    def any_below(self, priority: int) -> bool:
        """Whether some placed pod has a unit priority strictly lower than `priority`."""
        return any(b.pods for prio, b in self.buckets.items() if prio < priority)

    def below(self, priority: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
        """(requested, non_zero, count, pods) summed over every placed pod whose unit priority
        is strictly lower than `priority`."""
        n_res = len(self.state.resource_names)
        requested = np.zeros((n_res, self.state.n), dtype=np.int64)
        non_zero = np.zeros((2, self.state.n), dtype=np.int64)
        count = np.zeros(self.state.n, dtype=np.int64)
        pods = 0
        for prio in sorted(self.buckets):
            if prio >= priority:
                break
            b = self.buckets[prio]
            if not b.pods:
                continue
            requested[: b.requested.shape[0]] += b.requested
            non_zero += b.non_zero
            count += b.count
            pods += b.pods
        return requested, non_zero, count, pods


KEY: DerivedKey[PriorityUsage] = DerivedKey("preemption/priorityUsage")


def priority_usage(state: ClusterState, priority_of: Callable[[Pod], int]) -> PriorityUsage:
    """The state's PriorityUsage index, built on first use."""
    return state.index(KEY, lambda s: PriorityUsage(s, priority_of))
