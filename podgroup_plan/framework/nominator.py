"""Nominated pods: where preemption promised room (the PodNominator).

Mirrors the scheduling queue's PodNominator (`pkg/scheduler/backend/queue/nominator.go`); the
Filter that respects its promises is `framework/filter_nominated.py`
(RunFilterPluginsWithNominatedPods).

Nominations are the plan's own ledger beside the cluster: they change only when a preemption
nominates, a pod binds or a failure clears them, never inside a trial, so no rollback can leave
them stale. A nominated pod that is placed in the cluster (bound, or assumed by the running
trial) is not added a second time. A nominated pod in flight -- a member of the PodGroup or
CompositePodGroup tree whose cycle is running (`in_flight`) -- counts as an empty pod: the
queue's NominatedPodsForNode builds a pod that is in none of its queues from its reference
alone (nominatedPodToInfo: name, namespace, UID; no containers, no priority), so it counts only
for a pod of priority 0 or less (addGENominatedPods adds pods of equal or higher priority), and
then holds a pod slot, no resources, no labels.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import replace
from typing import Iterable, Iterator

import numpy as np

from podgroup_plan.model.objects import Pod
from podgroup_plan.state.cluster import ClusterState, PodKey


class Relevant:
    """The nominated pods that count for one Filter call: `rows` (ascending) are the nodes that
    hold some; on each, all of its nominated pods count unless `partial` lists the ones that do."""

    __slots__ = ("rows", "partial", "nominator")

    def __init__(self, nominator: "Nominator", rows: np.ndarray, partial: dict[int, list[Pod]]):
        self.nominator = nominator
        self.rows = rows
        self.partial = partial

    # Read as a mapping node row -> the pods that count there.
    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self):
        return iter(self.rows.tolist())

    def __contains__(self, node: object) -> bool:
        return node in set(self.rows.tolist())

    def __getitem__(self, node: int) -> list[Pod]:
        if node not in self:
            raise KeyError(node)
        return self.pods(node)

    def get(self, node: int, default=None):
        return self[node] if node in self else default

    def items(self):
        return [(node, self.pods(node)) for node in self.rows.tolist()]

    def pods(self, node: int) -> list[Pod]:
        got = self.partial.get(node)
        return got if got is not None else self.nominator.pods_on(node)


class Nominator:
    def __init__(self, columns_only: bool = False) -> None:
        self._node_of: dict[PodKey, tuple[Pod, int]] = {}
        self._on_node: dict[int, dict[PodKey, Pod]] = {}
        # the input has no pod (anti-)affinity (framework/columns.py)
        self.columns_only = columns_only
        # Per node, over all its nominated pods: the lowest priority and the summed usage
        # (requests per resource row, non-zero cpu and memory, count), kept as the nominations
        # change so that Filter adds them to every node in one array operation.
        self._state: ClusterState | None = None
        self._rows: np.ndarray | None = None  # nodes holding nominations, ascending (lazy)
        self._min_priority = np.zeros(0, dtype=np.int64)  # per node of _rows
        self._ports = 0  # nominated pods asking for host ports
        # the pods of the entity whose cycle is running (`cycle`), and their empty stand-ins
        self.in_flight: frozenset[PodKey] = frozenset()
        self._shells: dict[PodKey, Pod] = {}

    @contextmanager
    def cycle(self, pods: Iterable[Pod]) -> Iterator[None]:
        """While a group's or a tree's cycle runs: its pods are in flight."""
        saved = self.in_flight
        self.in_flight = frozenset(p.key for p in pods)
        try:
            yield
        finally:
            self.in_flight = saved

    def _shell(self, pod: Pod) -> Pod:
        shell = self._shells.get(pod.key)
        if shell is None:
            # its own key: the cluster state caches request vectors by key
            shell = replace(pod, name=pod.name + "\x00in-flight", priority=0, labels={}, requests={}, non_zero_cpu=0,
                            non_zero_memory=0, host_ports=(),
                            node_selector={}, affinity=None, tolerations=(), topology_spread_constraints=(),
                            images=())
            self._shells[pod.key] = shell
        return shell

    def _arrays(self, state: ClusterState) -> None:
        if self._state is not state:
            self._state = state
            self.requested = np.zeros((len(state.resource_names), state.n), dtype=np.int64)
            self.non_zero = np.zeros((2, state.n), dtype=np.int64)
            self.count = np.zeros(state.n, dtype=np.int64)
            for pod, node in self._node_of.values():
                self._account(pod, node, +1)
        elif self.requested.shape[0] < len(state.resource_names):
            extra = len(state.resource_names) - self.requested.shape[0]
            self.requested = np.vstack([self.requested, np.zeros((extra, state.n), dtype=np.int64)])

    def _account(self, pod: Pod, node: int, sign: int) -> None:
        if self._state is None:
            return
        vec = self._state.request_vector(pod)
        if self.requested.shape[0] < len(vec):
            self._arrays(self._state)
        self.requested[: len(vec), node] += sign * vec
        self.non_zero[0, node] += sign * pod.non_zero_cpu
        self.non_zero[1, node] += sign * pod.non_zero_memory
        self.count[node] += sign

    def __bool__(self) -> bool:
        return bool(self._node_of)

    def _any_ports(self) -> bool:
        return bool(self._ports)

    def nominate(self, pod: Pod, node: int) -> None:
        self.clear(pod)
        self._node_of[pod.key] = (pod, node)
        self._on_node.setdefault(node, {})[pod.key] = pod
        self._account(pod, node, +1)
        self._rows = None

    def clear(self, pod: Pod) -> None:
        got = self._node_of.pop(pod.key, None)
        if got is not None:
            on = self._on_node[got[1]]
            del on[pod.key]
            if not on:
                del self._on_node[got[1]]
            self._account(pod, got[1], -1)
            self._rows = None

    def node_of(self, pod: Pod) -> int | None:
        got = self._node_of.get(pod.key)
        return None if got is None else got[1]

    def pods_on(self, node: int) -> list[Pod]:
        on = self._on_node.get(node)
        return [on[k] for k in sorted(on)] if on else []

    def lower_priority_on(self, node: int, priority: int) -> list[Pod]:
        return [p for p in self.pods_on(node) if p.priority < priority]

    def relevant(self, pod: Pod, state: ClusterState, rows: np.ndarray) -> Relevant:
        """Nominated pods that count when `pod` is filtered on `rows` (ascending): priority >= the
        pod's, not the pod itself, not already placed (bound, or assumed by a trial)."""
        if not self._on_node:
            return Relevant(self, rows[:0], {})
        self._arrays(state)
        if self._rows is None:
            self._rows = np.array(sorted(self._on_node), dtype=np.intp)
            self._min_priority = np.array([min(p.priority for p in self._on_node[r].values())
                                           for r in self._rows.tolist()], dtype=np.int64)
            self._ports = sum(1 for p, _ in self._node_of.values() if p.host_ports)
        if len(rows) == state.n:  # every node (views are ascending and distinct)
            nodes = self._rows
        elif len(rows) <= 8:
            nodes = np.array([r for r in rows.tolist() if r in self._on_node], dtype=np.intp)
        else:
            nodes = self._rows[np.isin(self._rows, rows)]
        # The nodes where not every nominated pod counts: a lower priority, the pod itself, or
        # a nominated pod that is placed. Few: examined one by one.
        odd: set[int] = set()
        if len(nodes) and len(nodes) < 64:
            odd = set(nodes.tolist())
        else:
            for key in self._node_of.keys() & state.pod_node.keys():
                odd.add(self._node_of[key][1])
            mine = self._node_of.get(pod.key)
            if mine is not None:
                odd.add(mine[1])
            odd.update(self._rows[self._min_priority < pod.priority].tolist())
            for key in self.in_flight & self._node_of.keys():
                odd.add(self._node_of[key][1])
        partial: dict[int, list[Pod]] = {}
        dropped: list[int] = []
        priority, key, placed, in_flight = pod.priority, pod.key, state.pod_node, self.in_flight
        for node in odd:
            on = self._on_node.get(node)
            if on is None:
                continue
            shells = bool(in_flight) and any(k in in_flight for k in on)
            candidates = [self._shell(on[k]) if k in in_flight else on[k] for k in sorted(on)]
            pods = [p for p, k in zip(candidates, sorted(on)) if p.priority >= priority and k != key and k not in placed]
            if len(pods) < len(on) or shells:
                partial[node] = pods
                if not pods:
                    dropped.append(node)
        if dropped:
            nodes = nodes[~np.isin(nodes, np.array(dropped, dtype=np.intp))]
        return Relevant(self, nodes, partial)


def seed(nominator: Nominator, pods: Iterable[Pod], state: ClusterState) -> None:
    """Pending pods whose input carries `status.nominatedNodeName` start nominated there."""
    for pod in pods:
        if pod.nominated_node_name:
            row = state.node_index.get(pod.nominated_node_name)
            if row is not None:
                nominator.nominate(pod, row)

