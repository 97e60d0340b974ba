"""The cluster as the scheduler sees it: columnar per-node state with an undo log.

kube-scheduler keeps a NodeInfo per node and a snapshot per cycle; group cycles assume pods in
the snapshot and revert them (`pkg/scheduler/framework/...`, `algorithm_podgroup.go`). Here the
whole cluster is a set of numpy columns (one row per node, nodes sorted by name) so that a
plugin answers for every node in one array operation, and tentative work is undone through a
log rather than by copying: `assume` / `forget` change one row, `checkpoint` / `rollback` undo
back to a mark, and `tentative()` is a context manager that rolls back unless told to keep.
Modelled on cluster-autoscaler's clustersnapshot (fork / revert / commit).

Everything derived from the state (ledgers of placed pods, per-node columns, encodings of the
node table, memos) lives on it under typed keys: state/derived.py explains the rule.
"""
from __future__ import annotations

from array import array
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator, Protocol, Sequence, TypeVar

import numpy as np

from podgroup_plan.model.objects import CPU, EPHEMERAL_STORAGE, MEMORY, PODS, Node, Pod
from podgroup_plan.state.derived import MEMO_BYTES, DerivedKey, Memo

T = TypeVar("T")

DEFAULT_ALLOWED_PODS = 110
# The first rows of the resource table, always present in this order.
BASE_RESOURCES = (CPU, MEMORY, EPHEMERAL_STORAGE)

PodKey = tuple[str, str]


class PodIndex(Protocol):
    """A derived per-node structure (e.g. counts of pods matching a selector) kept up to date as
    pods come and go, so plugins need not rescan every pod. Undo needs nothing special: a
    rollback is a sequence of remove/add calls like any other."""

    def add(self, pod: Pod, node: int) -> None: ...

    def remove(self, pod: Pod, node: int) -> None: ...


class ClusterState:
    def __init__(self, nodes: Sequence[Node], running_pods: Iterable[Pod] = (), resources: Iterable[str] = ()):
        self.nodes: tuple[Node, ...] = tuple(sorted(nodes, key=lambda n: n.name))
        self.node_names: tuple[str, ...] = tuple(n.name for n in self.nodes)
        self.node_index: dict[str, int] = {name: i for i, name in enumerate(self.node_names)}
        self.n = len(self.nodes)
        self.all_nodes = np.arange(self.n, dtype=np.intp)

        names = list(BASE_RESOURCES)
        extra = {r for node in self.nodes for r in node.allocatable} | set(resources)
        names += sorted(extra - set(BASE_RESOURCES) - {PODS})
        self.resource_names: list[str] = names
        self.resource_index: dict[str, int] = {r: i for i, r in enumerate(names)}
        self.allocatable = np.zeros((len(names), self.n), dtype=np.int64)
        for i, node in enumerate(self.nodes):
            for r, amount in node.allocatable.items():
                if r != PODS:
                    self.allocatable[self.resource_index[r], i] = amount
        self.allowed_pods = np.array(
            [node.allocatable.get(PODS, DEFAULT_ALLOWED_PODS) for node in self.nodes], dtype=np.int64
        )
        self.requested = np.zeros_like(self.allocatable)
        # cpu and memory with kube-scheduler's non-zero defaults, as the scoring plugins use them
        self.non_zero_requested = np.zeros((2, self.n), dtype=np.int64)
        self.pod_count = np.zeros(self.n, dtype=np.int64)

        self.pods_on_node: list[dict[PodKey, Pod]] = [{} for _ in range(self.n)]
        self.pod_node: dict[PodKey, int] = {}

        # Incremented on every change; `node_version[i]` is the version at node i's last change,
        # and `changes[v]` the node row whose change made the version v + 1. Caches keyed by
        # (signature, version) know when to recompute, and which rows (`changed_rows`).
        self.version = 0
        self.node_version = np.zeros(self.n, dtype=np.int64)
        self.changes = array("q")  # int64, read as a numpy view
        self._last_changed: tuple[int, int, np.ndarray] = (-1, -1, np.empty(0, dtype=np.intp))  # changed_rows

        # (was_add, pod, node); was_add None marks a usage shift: (None, (req, nz, count), rows)
        self._log: list[tuple] = []
        self._open_checkpoints = 0
        # Derived data (state/derived.py): ledgers of placed pods (`index`), per-node columns
        # (`column`: key -> [version they reflect, values]), node-table data and memos
        # (`derived`, `memo`).
        self._indexes: dict[object, PodIndex] = {}
        self._columns: dict[object, list] = {}
        self._derived: dict[object, Any] = {}
        self._label_columns: dict[str, tuple[np.ndarray, tuple[str, ...]]] = {}
        # pod key -> (resource rows then, request column): a pure function of the pod
        self._request_rows = Memo(4 * MEMO_BYTES)

        for pod in sorted(running_pods, key=lambda p: p.key):
            idx = self.node_index.get(pod.node_name or "")
            if idx is not None:  # a pod bound to a node not in the input consumes nothing here
                self._add(pod, idx)

    # ----- resources -------------------------------------------------------------------------

    def resource_row(self, name: str) -> int:
        """Row of a resource, adding an all-zero row for a resource no node offers (a pod that
        asks for it then fits nowhere, with `Insufficient <name>`)."""
        row = self.resource_index.get(name)
        if row is None:
            row = len(self.resource_names)
            self.resource_names.append(name)
            self.resource_index[name] = row
            self.allocatable = np.vstack([self.allocatable, np.zeros((1, self.n), dtype=np.int64)])
            self.requested = np.vstack([self.requested, np.zeros((1, self.n), dtype=np.int64)])
        return row

    def request_vector(self, pod: Pod) -> np.ndarray:
        """The pod's requests as a column over the resource rows (pods not included)."""
        cached = self._request_rows.get(pod.key)
        if cached is not None and cached[0] == len(self.resource_names):
            return cached[1]
        for r in pod.requests:
            if r != PODS:
                self.resource_row(r)
        vec = np.zeros(len(self.resource_names), dtype=np.int64)
        for r, amount in pod.requests.items():
            if r != PODS:
                vec[self.resource_index[r]] = amount
        self._request_rows.put(pod.key, (len(self.resource_names), vec), vec.nbytes + 64)
        return vec

    # ----- labels ----------------------------------------------------------------------------

    def label_column(self, key: str) -> tuple[np.ndarray, tuple[str, ...]]:
        """Node label `key` encoded once: (codes, values) where codes[i] indexes `values` for
        node i, or is -1 when node i has no such label. Values are sorted, so code order is
        value order."""
        col = self._label_columns.get(key)
        if col is None:
            raw = [node.labels.get(key) for node in self.nodes]
            values = tuple(sorted({v for v in raw if v is not None}))
            code_of = {v: i for i, v in enumerate(values)}
            codes = np.array([-1 if v is None else code_of[v] for v in raw], dtype=np.int32)
            col = (codes, values)
            self._label_columns[key] = col
        return col

    # ----- pods ------------------------------------------------------------------------------

    def node_of(self, pod: Pod) -> int | None:
        return self.pod_node.get(pod.key)

    def assume(self, pod: Pod, node: int) -> None:
        """Place `pod` on node row `node` (kube-scheduler's assume / AddPod)."""
        if pod.key in self.pod_node:
            raise ValueError(f"pod {pod.namespace}/{pod.name} is already placed")
        self._add(pod, node)
        if self._open_checkpoints:
            self._log.append((True, pod, node))

    def forget(self, pod: Pod) -> None:
        """Remove a placed pod (forget an assumed pod, or evict a running one)."""
        node = self.pod_node[pod.key]
        placed = self.pods_on_node[node][pod.key]
        self._remove(placed, node)
        if self._open_checkpoints:
            self._log.append((False, placed, node))

    def shift_usage(self, rows: np.ndarray, requested: np.ndarray, non_zero: np.ndarray, count: np.ndarray,
                    touch: bool = True) -> None:
        """Add amounts to the usage columns of node `rows` (requested: resources x rows,
        non_zero: 2 x rows, count: rows; rows distinct) without moving any pod. Preemption uses
        it to take every potential victim off the nodes at once, and Filter to add nominated
        pods, for plugins that read only these columns (framework/columns.py says when that is
        exact). Only inside a checkpoint: a rollback always undoes it.

        `touch=False` leaves the node versions alone, so version-keyed caches do not see the
        change, nor recompute the rows after the rollback: only for a short look whose readers
        bypass those caches (Framework.run_filter(fresh=True)), undone before anything else."""
        if not self._open_checkpoints:
            raise ValueError("shift_usage outside a checkpoint")
        self._shift(rows, requested, non_zero, count, touch)
        self._log.append((None, (requested, non_zero, count, touch), rows))

    def _shift(self, rows: np.ndarray, requested: np.ndarray, non_zero: np.ndarray, count: np.ndarray,
               touch: bool = True) -> None:
        if len(rows) == 0:
            return
        k = requested.shape[0]
        self.requested[:k, rows] += requested
        self.non_zero_requested[:, rows] += non_zero
        self.pod_count[rows] += count
        if not touch:
            return
        self.node_version[rows] = self.version + 1 + np.arange(len(rows))
        self.version += len(rows)
        self.changes.extend(rows.tolist())

    def checkpoint(self) -> int:
        self._open_checkpoints += 1
        return len(self._log)

    def rollback(self, mark: int) -> None:
        """Undo every change made since `checkpoint()` returned `mark`, newest first."""
        while len(self._log) > mark:
            was_add, pod, node = self._log.pop()
            if was_add is None:
                requested, non_zero, count, touch = pod
                self._shift(node, -requested, -non_zero, -count, touch)
            elif was_add:
                self._remove(pod, node)
            else:
                self._add(pod, node)
        self._release()

    def keep(self, mark: int) -> None:
        """Close a checkpoint, keeping its changes (they still belong to any enclosing one)."""
        self._release()

    def _release(self) -> None:
        self._open_checkpoints -= 1
        if self._open_checkpoints == 0:
            self._log.clear()

    @contextmanager
    def tentative(self) -> Iterator["Tentative"]:
        """`with state.tentative() as t:` changes are rolled back on exit unless `t.keep()`."""
        t = Tentative(self.checkpoint())
        try:
            yield t
        finally:
            if t.kept:
                self.keep(t.mark)
            else:
                self.rollback(t.mark)

    def _add(self, pod: Pod, node: int) -> None:
        # The vector first: it may add a resource row (a resource no node offers), and
        # `requested[:, node] += ...` would take the slice of the array before it grew.
        vec = self.request_vector(pod)
        self.requested[:, node] += vec
        self.non_zero_requested[0, node] += pod.non_zero_cpu
        self.non_zero_requested[1, node] += pod.non_zero_memory
        self.pod_count[node] += 1
        self.pods_on_node[node][pod.key] = pod
        self.pod_node[pod.key] = node
        for index in self._indexes.values():
            index.add(pod, node)
        self._touch(node)

    def _remove(self, pod: Pod, node: int) -> None:
        vec = self.request_vector(pod)
        self.requested[:, node] -= vec
        self.non_zero_requested[0, node] -= pod.non_zero_cpu
        self.non_zero_requested[1, node] -= pod.non_zero_memory
        self.pod_count[node] -= 1
        del self.pods_on_node[node][pod.key]
        del self.pod_node[pod.key]
        for index in self._indexes.values():
            index.remove(pod, node)
        self._touch(node)

    def _touch(self, node: int) -> None:
        self.version += 1
        self.node_version[node] = self.version
        self.changes.append(node)

    def changed_rows(self, since: int, limit: int) -> np.ndarray | None:
        """Sorted node rows changed after version `since`; None when more than `limit` changes
        happened (a caller then recomputes everything rather than row by row). The array is
        read-only: the same one may be handed out again."""
        if self.version - since > limit:
            return None
        # The signature cache asks twice per pod (filter, then scores) and a per-node column
        # often once more, for the same `since`: the answer for (since, version) never changes
        # (versions only grow and `changes` only appends), so the last one is kept. Read-only.
        last = self._last_changed
        if last[0] == since and last[1] == self.version:
            return last[2]
        # usually one or two rows: plain Python beats numpy's fixed costs here
        rows = np.array(sorted(set(self.changes[since:])), dtype=np.intp)
        rows.flags.writeable = False
        self._last_changed = (since, self.version, rows)
        return rows

    def rows_of(self, column: np.ndarray, view: np.ndarray) -> np.ndarray:
        """`column` at the rows of `view`: the column itself (no copy: do not modify it) when
        the view is every node, as for a full refresh of the signature cache."""
        return column if view is self.all_nodes else column.take(view)

    def column(self, key: object, compute: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
        """A per-node column derived from the nodes' rows (`compute(rows)` gives its values at
        `rows`), kept current the way the signature cache keeps its entries: only the rows
        changed since it was last asked for are computed again. Do not modify it."""
        entry = self._columns.get(key)
        if entry is None:
            values = compute(self.all_nodes)
            self._columns[key] = [self.version, values]
            return values
        version, values = entry
        if version != self.version:
            rows = self.changed_rows(version, limit=self.n // 4)
            if rows is None:
                values = entry[1] = compute(self.all_nodes)
            elif len(rows):
                values[rows] = compute(rows)
            entry[0] = self.version
        return values

    # ----- derived indexes -------------------------------------------------------------------

    def index(self, key: DerivedKey[T], factory: Callable[["ClusterState"], T]) -> T:
        """The ledger (a `PodIndex`) registered under `key`, built on first use from the pods
        placed now and kept current from then on by every assume, forget and rollback."""
        got = self._indexes.get(key)
        if got is None:
            idx: Any = factory(self)  # a PodIndex (T names which, for the caller)
            for node, pods in enumerate(self.pods_on_node):
                for pod in pods.values():
                    idx.add(pod, node)
            self._indexes[key] = got = idx
        return got  # type: ignore[return-value]  # T is the PodIndex its factory makes

    def derived(self, key: DerivedKey[T], build: Callable[["ClusterState"], T]) -> T:
        """Data derived from the node table alone (labels, taints, images, cordons never
        change inside a state): `build(state)` on first use, then kept for the state's life."""
        try:
            return self._derived[key]
        except KeyError:
            value = self._derived[key] = build(self)
            return value

    def memo(self, key: DerivedKey[Memo], max_bytes: int = MEMO_BYTES) -> Memo:
        """The `Memo` registered under `key` (created with `max_bytes` on first use): results
        by input, bounded by bytes, for this state's life (state/derived.py says what may go
        in one)."""
        found = self._derived.get(key)
        if found is None:
            found = self._derived[key] = Memo(max_bytes)
        return found

    def placed_pods(self) -> Iterator[tuple[Pod, int]]:
        """Every placed pod with its node row, in node order then pod key order."""
        for node, pods in enumerate(self.pods_on_node):
            for key in sorted(pods):
                yield pods[key], node


class Tentative:
    __slots__ = ("mark", "kept")

    def __init__(self, mark: int):
        self.mark = mark
        self.kept = False

    def keep(self) -> None:
        self.kept = True
