"""Per-signature results of node-local plugins, recomputed only for nodes that changed.

A plugin is *node-local* when its verdict and raw score for node i depend only on node i's
row of the cluster state and on the pod (NodeResourcesFit, TaintToleration, NodeAffinity, ...),
not on other nodes (PodTopologySpread and InterPodAffinity count pods across a domain). Pods
with the same scheduling signature then get the same answers on every node that has not
changed since the last such pod: after one binding only one row differs. So the framework keeps,
per signature, the combined verdict of the leading node-local filters (which plugin rejected
each node first, and with what reasons) and the raw node-local scores over all nodes, and
refreshes only the rows whose `node_version` moved. This is the design's "pods with the same
scheduling signature share precomputed work; only the rows of nodes that changed are
recomputed".

Memory is bounded by bytes, not by the number of signatures: entries are kept in least recently
used order and the oldest go once their arrays add up to more than `MAX_BYTES` (a cluster where
every pod has its own shape then keeps a few hundred entries, not thousands of full-width
arrays).
"""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

import numpy as np

from podgroup_plan.framework.interface import CycleState, FilterPlugin, ScorePlugin
from podgroup_plan.model.objects import Pod
from podgroup_plan.state.cluster import ClusterState

# Recompute everything when more than this share of the nodes changed (one big numpy pass is
# cheaper than many small ones).
_FULL_RECOMPUTE_SHARE = 0.25
# The arrays of all entries together (about 0.24 MiB an entry at 5,000 nodes with the default
# plugins); read when a cache is created, so tests can shrink it.
MAX_BYTES = 48 << 20


def pod_signature(pod: Pod) -> tuple:
    """Everything a node-local plugin reads from the pod."""
    aff = pod.affinity
    return (
        tuple(sorted(pod.requests.items())),
        pod.non_zero_cpu,
        pod.non_zero_memory,
        pod.host_ports,
        tuple(sorted(pod.node_selector.items())),
        (aff.node_required, aff.node_preferred) if aff is not None else None,
        pod.tolerations,
        pod.images,
        pod.node_name,
    )


@dataclass(slots=True)
class _Entry:
    version: int  # state.version the filter columns reflect
    n_resources: int
    passed: np.ndarray  # bool per node: passes every cached filter
    fail_id: np.ndarray  # int32 per node: index into the cache's failure table, -1 if passed
    score_version: int = -1  # state.version the raw scores reflect (-1: never computed)
    raw: dict[str, np.ndarray] = field(default_factory=dict)  # plugin -> raw score per node
    # Weighted sum of the scorers that need no normalisation (their raw score is final), so
    # that a pod's total needs one gather for all of them.
    plain_sum: np.ndarray | None = None
    plain_names: frozenset[str] = frozenset()
    nbytes: int = 0  # what the cache counts for this entry

    def size(self) -> int:
        total = self.passed.nbytes + self.fail_id.nbytes
        for values in self.raw.values():
            total += values.nbytes
        if self.plain_sum is not None:
            total += self.plain_sum.nbytes
        return total


class NodeLocalCache:
    """Cache for one framework. `filters` are the leading node-local filter plugins (the first
    rejecting plugin per node must be the same with or without the cache, so only a prefix of
    the filter order qualifies); `scorers` the node-local score plugins."""

    def __init__(self, filters: list[FilterPlugin], scorers: list[ScorePlugin], max_bytes: int | None = None):
        self.filters = filters
        self.scorers = scorers
        self.max_bytes = MAX_BYTES if max_bytes is None else max_bytes
        self._entries: OrderedDict[tuple, _Entry] = OrderedDict()  # least recently used first
        self._bytes = 0
        # failure id -> (plugin name, reasons, code)
        self.failures: list[tuple[str, tuple[str, ...], int]] = []
        self._failure_ids: dict[tuple[str, tuple[str, ...], int], int] = {}

    def filter_entry(self, signature: tuple, cs: CycleState, pod: Pod, state: ClusterState, skipped) -> _Entry:
        """The entry for this signature with its filter columns brought up to date."""
        key = (signature, frozenset(skipped))
        e = self._entries.get(key)
        if e is not None:
            self._entries.move_to_end(key)
        if e is None or e.n_resources != len(state.resource_names):
            passed, fail_id = self._filter_rows(cs, pod, state, state.all_nodes, skipped)
            if e is not None:
                self._bytes -= e.nbytes
            e = _Entry(state.version, len(state.resource_names), passed, fail_id)
            self._entries[key] = e
            self._resized(e)
        elif e.version != state.version:
            rows = _changed_rows(state, e.version)
            if rows is None:
                e.passed, e.fail_id = self._filter_rows(cs, pod, state, state.all_nodes, skipped)
            elif len(rows):
                e.passed[rows], e.fail_id[rows] = self._filter_rows(cs, pod, state, rows, skipped)
            e.version = state.version
        return e

    def raw_scores(
        self, e: _Entry, cs: CycleState, pod: Pod, state: ClusterState,
        plugins: list[tuple[ScorePlugin, int]], plain: frozenset[str],
    ) -> None:
        """Bring the entry's raw scores of `plugins` (with weights) up to date, after PreScore ran
        for `pod`. Plugins named in `plain` need no normalisation and are also summed, weighted,
        into `plain_sum`."""
        rows = None
        if e.score_version == -1 or e.plain_names != plain or any(p.name not in e.raw for p, _ in plugins):
            e.plain_names = plain
        elif e.score_version != state.version:
            rows = _changed_rows(state, e.score_version)
            if rows is not None and not len(rows):
                e.score_version = state.version
                return
        else:
            return
        target = state.all_nodes if rows is None else rows
        plain_part = np.zeros(len(target), dtype=np.int64)
        for p, weight in plugins:
            values = np.asarray(p.score(cs, pod, state, target), dtype=np.int64)
            if rows is None:
                e.raw[p.name] = values
            else:
                e.raw[p.name][rows] = values
            if p.name in plain:
                plain_part += weight * values
        if rows is None:
            e.plain_sum = plain_part
            self._resized(e)
        else:
            e.plain_sum[rows] = plain_part
        e.score_version = state.version

    def _resized(self, e: _Entry) -> None:
        """Account for `e`'s arrays now, then drop least recently used entries (never the one
        in use) until the total is within the budget."""
        size = e.size()
        self._bytes += size - e.nbytes
        e.nbytes = size
        while self._bytes > self.max_bytes and len(self._entries) > 1:
            _, old = next(iter(self._entries.items()))
            if old is e:
                break
            self._entries.popitem(last=False)
            self._bytes -= old.nbytes

    @property
    def nbytes(self) -> int:
        """The bytes of every entry's arrays together (what MAX_BYTES bounds)."""
        return self._bytes

    def __len__(self) -> int:
        return len(self._entries)

    def _failure_id(self, plugin: str, reasons: tuple[str, ...], code: int) -> int:
        k = (plugin, reasons, code)
        fid = self._failure_ids.get(k)
        if fid is None:
            fid = len(self.failures)
            self.failures.append(k)
            self._failure_ids[k] = fid
        return fid

    def _filter_rows(self, cs, pod, state, rows: np.ndarray, skipped) -> tuple[np.ndarray, np.ndarray]:
        alive = np.ones(len(rows), dtype=bool)
        fail_id = np.full(len(rows), -1, dtype=np.int32)
        for plugin in self.filters:
            if plugin.name in skipped or not alive.any():
                continue
            verdict = plugin.filter(cs, pod, state, rows)
            newly = alive & ~verdict.passed
            if newly.any():
                # Encode which failures (reason groups) each newly rejected node carries as a bit
                # combination, then intern each distinct combination once.
                combo = np.zeros(len(rows), dtype=np.int64)
                for j, failure in enumerate(verdict.failures):
                    combo[failure.mask & newly] |= 1 << j
                for value in np.unique(combo[newly]):
                    chosen = [f for j, f in enumerate(verdict.failures) if int(value) >> j & 1]
                    reasons = tuple(r for f in chosen for r in f.reasons)
                    code = max((int(f.code) for f in chosen), default=2)
                    fail_id[newly & (combo == value)] = self._failure_id(plugin.name, reasons, code)
            alive &= verdict.passed
        return alive, fail_id


def _changed_rows(state: ClusterState, since: int) -> np.ndarray | None:
    """Rows changed after `since`, or None when so many changed that a full pass is cheaper."""
    return state.changed_rows(since, limit=int(_FULL_RECOMPUTE_SHARE * state.n))
