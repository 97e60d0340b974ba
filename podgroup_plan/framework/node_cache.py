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
arrays). The entries live on the cluster state, in a `Memo` of its own (state/derived.py: the
one caching idiom), so they die with the state and a new state starts empty.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

from podgroup_plan.framework.interface import CycleState, FilterPlugin, FilterVerdict, ScorePlugin
from podgroup_plan.model.objects import Pod
from podgroup_plan.state.cluster import ClusterState
from podgroup_plan.state.derived import DerivedKey, Memo

# Recompute everything when more than this share of the nodes changed (one big numpy pass is
# cheaper than many small ones).
_FULL_RECOMPUTE_SHARE = 0.25
# The arrays of all entries together (about 0.24 MiB an entry at 5,000 nodes with the default
# plugins); read when a cache is created, so tests can shrink it.
MAX_BYTES = 48 << 20

# Memo keys: (_ENTRY, signature, skips) -> CacheEntry; (_STATIC, static signature, skips) ->
# (passed, fail_id) of the static layer; (_SEEN, signature, skips) -> True once a signature's
# first pod was filtered (its entry is kept from the second pod on).
_ENTRY = "entry"
_SEEN = "seen"
_SEEN_BYTES = 64
# Up to this many changed rows, an entry's failure counts are corrected one row at a time;
# beyond, they are counted again when next asked for.
_COUNTED_ROWS = 64
_STATIC = "static"
_cache_ids = itertools.count()


@dataclass(slots=True)
class CacheEntry:
    version: int  # state.version the filter columns reflect
    n_resources: int
    passed: np.ndarray  # bool per node: passes every cached filter
    fail_id: np.ndarray  # int32 per node: index into the cache's failure table, -1 if passed
    # Derived from fail_id and kept with it, so that a pod's diagnosis over every node needs
    # neither a count nor a gather: each node's status code (0 passed), and the number of
    # nodes per failure id (None: not known, counted when asked; zero counts may remain).
    codes: np.ndarray | None = None
    counts: dict[int, int] | None = None
    score_version: int = -1  # state.version the raw scores reflect (-1: never computed)
    raw: dict[str, np.ndarray] = field(default_factory=dict)  # plugin -> raw score per node
    # Weighted sum of the scorers that need no normalisation (their raw score is final), so
    # that a pod's total needs one gather for all of them.
    plain_sum: np.ndarray | None = None
    plain_names: frozenset[str] = frozenset()
    nbytes: int = 0  # what the cache counts for this entry
    key: tuple = ()  # its key in the cache's memo
    # Made for one pod and kept nowhere (the signature's first pod: `filter_entry`): its
    # arrays are that pod's own, and its pod is scored straight from the plugins.
    transient: bool = False

    def size(self) -> int:
        total = self.passed.nbytes + self.fail_id.nbytes + (self.codes.nbytes if self.codes is not None else 0)
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
        n_static = 0
        while n_static < len(filters) and filters[n_static].static:
            n_static += 1
        self.static_filters = filters[:n_static]
        self.dynamic_filters = filters[n_static:]
        self.max_bytes = MAX_BYTES if max_bytes is None else max_bytes
        # Each cache its own memo on the state (its filters and failure ids are its own).
        self.key: DerivedKey[Memo] = DerivedKey(f"framework/signatureCache/{next(_cache_ids)}")
        self._memo: Memo | None = None  # the memo last used (for `nbytes` and `len`)
        # failure id -> (plugin name, reasons, code)
        self.failures: list[tuple[str, tuple[str, ...], int]] = []
        self._failure_ids: dict[tuple[str, tuple[str, ...], int], int] = {}
        self._shifted_codes: np.ndarray | None = None  # see shifted_codes()
        self._static_skips: dict[frozenset[str], frozenset[str]] = {}  # skips -> the static filters'

    def filter_entry(self, signature: tuple, cs: CycleState, pod: Pod, state: ClusterState, skipped) -> CacheEntry:
        """The entry for this signature with its filter columns brought up to date. A
        signature's first pod gets a transient entry, kept nowhere: an entry pays off from a
        signature's second pod on, and a signature seen once (every pod its own shape, or more
        shapes than the byte budget keeps) would only push others out of the memo. A small
        mark remembers the signature, so its second pod makes the entry that is kept."""
        memo = self._bind(state)
        skips = frozenset(skipped)
        key = (_ENTRY, signature, skips)
        e = memo.get(key)
        if e is None and memo.get((_SEEN, signature, skips)) is None:
            memo.put((_SEEN, signature, skips), True, _SEEN_BYTES)
            return CacheEntry(state.version, len(state.resource_names),
                              *self._filter_all(cs, pod, state, skipped, signature[0]), key=key, transient=True)
        if e is None or e.n_resources != len(state.resource_names):
            e = CacheEntry(state.version, len(state.resource_names), *self._filter_all(cs, pod, state, skipped, signature[0]),
                           key=key)
            # Counted with the raw scores it will most likely get (one int64 column per scorer,
            # and their sum), so that scoring need not count it again (`raw_scores`).
            e.nbytes = e.size() + (len(self.scorers) + 1) * 8 * state.n
            memo.put(key, e, e.nbytes)
        elif e.version != state.version:
            rows = _changed_rows(state, e.version)
            if rows is None:
                e.passed, e.fail_id, e.codes, e.counts = self._filter_all(cs, pod, state, skipped, signature[0])
            elif len(rows):
                passed, fail_id = self._filter_rows(cs, pod, state, rows, skipped, signature[0])
                counts = e.counts
                if counts is not None and len(rows) <= _COUNTED_ROWS:
                    for fid in e.fail_id[rows].tolist():
                        if fid >= 0:
                            counts[fid] -= 1
                    for fid in fail_id.tolist():
                        if fid >= 0:
                            counts[fid] = counts.get(fid, 0) + 1
                else:
                    e.counts = None
                e.passed[rows] = passed
                e.fail_id[rows] = fail_id
                e.codes[rows] = self.shifted_codes().take(fail_id + 1)
            e.version = state.version
        return e

    def counts(self, e: CacheEntry) -> dict[int, int]:
        """Nodes per failure id over every node for entry `e` as it stands (zero counts may
        appear: skip them)."""
        if e.counts is None:
            binned = np.bincount(e.fail_id + 1, minlength=1)
            ids = np.flatnonzero(binned[1:])
            e.counts = dict(zip(ids.tolist(), binned[ids + 1].tolist()))
        return e.counts

    @staticmethod
    def score_directly(e: CacheEntry) -> bool:
        """Whether to score the pod straight from the plugins at its feasible nodes: for a
        transient entry (a signature's first pod: `filter_entry`). Filling raw scores covers
        every node and keeps a column per scorer, which only a later pod of the signature
        reads: for the every-pod-unique benchmark, scoring directly cost less even when every
        node was feasible."""
        return e.transient

    def raw_scores(
        self, e: CacheEntry, cs: CycleState, pod: Pod, state: ClusterState,
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
        plain_part = None
        for p, weight in plugins:
            values = np.asarray(p.score(cs, pod, state, target), dtype=np.int64)
            if rows is None:
                e.raw[p.name] = values
            else:
                e.raw[p.name][rows] = values
            if p.name in plain:
                if plain_part is None:  # the first: a copy (values is kept in e.raw)
                    plain_part = values * weight if weight != 1 else values.copy()
                else:
                    plain_part += values * weight if weight != 1 else values
        if plain_part is None:
            plain_part = np.zeros(len(target), dtype=np.int64)
        if rows is None:
            e.plain_sum = plain_part
            size = e.size()
            if size > e.nbytes:  # more than counted when it was made (counting more is harmless)
                e.nbytes = size
                self._bind(state).resize(e.key, e.nbytes)
        else:
            assert e.plain_sum is not None  # filled for every node first (rows None)
            e.plain_sum[rows] = plain_part
        e.score_version = state.version

    @property
    def nbytes(self) -> int:
        """The bytes of every entry's arrays together in the memo last used (what MAX_BYTES
        bounds)."""
        return self._memo.nbytes if self._memo is not None else 0

    def __len__(self) -> int:
        """Signature entries (not static layers nor marks) in the memo last used."""
        if self._memo is None:
            return 0
        return sum(1 for k in self._memo.keys() if isinstance(k, tuple) and k[0] == _ENTRY)

    def _failure_id(self, plugin: str, reasons: tuple[str, ...], code: int) -> int:
        k = (plugin, reasons, code)
        fid = self._failure_ids.get(k)
        if fid is None:
            fid = len(self.failures)
            self.failures.append(k)
            self._failure_ids[k] = fid
            self._shifted_codes = None
        return fid

    def shifted_codes(self) -> np.ndarray:
        """int8 table: [0] is 0 (passed), [fid + 1] the code of failure `fid`; so that
        `shifted_codes().take(fail_id + 1)` gives every node's code in one gather."""
        table = self._shifted_codes
        if table is None:
            table = np.zeros(len(self.failures) + 1, dtype=np.int8)
            table[1:] = [code for _, _, code in self.failures]
            self._shifted_codes = table
        return table

    def fresh_rows(self, signature: tuple, cs, pod, state, rows: np.ndarray, skipped) -> tuple[np.ndarray, np.ndarray]:
        """(passed, fail_id) at `rows` computed from the state as it is now, leaving the
        signature entries alone (for a state holding a change its node versions do not show;
        the static layer still serves, as that change cannot touch labels or taints)."""
        return self._filter_rows(cs, pod, state, rows, skipped, signature[0])

    def _bind(self, state: ClusterState) -> Memo:
        """This cache's memo on `state` (the entries hold for that state only)."""
        memo = self._memo = state.memo(self.key, self.max_bytes)
        return memo

    def _filter_all(self, cs, pod, state, skipped, static_signature: tuple
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[int, int]]:
        """(passed, fail_id, codes, counts) over every node: `_filter_rows` plus the codes and
        counts, taken from the static layer's and corrected only where the other cached filters
        rejected nodes (usually none or few)."""
        static = self._static_layer(cs, pod, state, skipped, static_signature)
        static_passed, _, static_codes, static_counts = static
        passed, fail_id = self._filter_rows(cs, pod, state, state.all_nodes, skipped, static_signature, static)
        codes = static_codes.copy()
        counts = dict(static_counts)
        dynamic = np.flatnonzero(static_passed & ~passed)
        if len(dynamic):
            ids = fail_id[dynamic]
            codes[dynamic] = self.shifted_codes().take(ids + 1)
            if len(dynamic) <= _COUNTED_ROWS:
                for fid in ids.tolist():
                    counts[fid] = counts.get(fid, 0) + 1
            else:
                binned = np.bincount(ids)
                for fid in np.flatnonzero(binned).tolist():
                    counts[fid] = counts.get(fid, 0) + int(binned[fid])
        return passed, fail_id, codes, counts

    def _static_layer(self, cs, pod, state, skipped, static_signature: tuple) -> tuple:
        """(passed, fail_id, codes, counts) of the static filters over all nodes, shared by
        every signature whose static part is `static_signature`."""
        skips = self._static_skips.get(skipped)
        if skips is None:
            skips = self._static_skips[skipped] = frozenset(p.name for p in self.static_filters if p.name in skipped)
        key = (_STATIC, static_signature, skips)
        memo = self._bind(state)
        found = memo.get(key)
        if found is not None:
            return found
        rows = state.all_nodes
        passed = np.ones(state.n, dtype=bool)
        fail_id = np.full(state.n, -1, dtype=np.int32)
        for plugin in self.static_filters:
            if plugin.name in skips or not passed.any():
                continue
            verdict = plugin.filter(cs, pod, state, rows)
            newly = passed & ~verdict.passed
            if newly.any():
                self._record(plugin.name, verdict, newly, fail_id)
                passed &= verdict.passed
        binned = np.bincount(fail_id + 1, minlength=1)
        ids = np.flatnonzero(binned[1:])
        counts = dict(zip(ids.tolist(), binned[ids + 1].tolist()))
        found = (passed, fail_id, self.shifted_codes().take(fail_id + 1), counts)
        memo.put(key, found, _static_size(found))
        return found

    def _filter_rows(
        self, cs, pod, state, rows: np.ndarray, skipped, static_signature: tuple, static: tuple | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """(passed, fail_id) at `rows`: the static layer's verdict (`static`, looked up when
        not given), then each other cached filter in order on the rows still passing (upstream
        stops at a node's first failure)."""
        if static is None:
            static = self._static_layer(cs, pod, state, skipped, static_signature)
        static_passed, static_fail, _, _ = static
        if rows is state.all_nodes:
            alive, fail_id = static_passed.copy(), static_fail.copy()
        else:
            alive, fail_id = static_passed[rows], static_fail[rows]
        live = None  # positions (in `rows`) still passing, once some failed
        every = rows is state.all_nodes
        for plugin in self.dynamic_filters:
            if plugin.name in skipped:
                continue
            if live is None and not alive.all():
                if every and 2 * np.count_nonzero(alive) >= len(alive):
                    # Most nodes passed the static layer: filter all of them, on the state's own
                    # columns, and keep the verdict where they passed (these filters read one
                    # node's row each, so the other nodes' answers change nothing), rather than
                    # gather every column at the passing rows first.
                    verdict = plugin.filter(cs, pod, state, rows)
                    if not verdict.failures:  # every node passed (a rejected node has a failure)
                        continue
                    failed = alive & ~verdict.passed
                    if failed.any():
                        self._record(plugin.name, verdict, failed, fail_id)
                        alive &= verdict.passed
                    continue
                live = np.flatnonzero(alive)
            if live is not None and not len(live):
                break
            sub = rows if live is None else rows[live]
            verdict = plugin.filter(cs, pod, state, sub)
            if not verdict.failures:  # every node passed (a rejected node has a failure)
                continue
            failed = ~verdict.passed
            if not failed.any():
                continue
            where = np.zeros(len(rows), dtype=bool)
            if live is None:
                where = failed
                live = np.flatnonzero(verdict.passed)
            else:
                where[live[failed]] = True
                live = live[verdict.passed]
            self._record(plugin.name, verdict, failed, fail_id, where)
            alive[where] = False
        return alive, fail_id

    def _record(
        self, plugin: str, verdict: FilterVerdict, failed: np.ndarray, fail_id: np.ndarray,
        where: np.ndarray | None = None,
    ) -> None:
        """Set `fail_id` of the newly rejected nodes: `failed` is over the verdict's view,
        `where` the same nodes over `fail_id` (None: the same positions)."""
        failures = verdict.failures
        if len(failures) == 1:  # one reason group: every rejected node carries it
            f = failures[0]
            fid = self._failure_id(plugin, f.reasons, int(f.code))
            fail_id[failed if where is None else where] = fid
            return
        # Encode which failures (reason groups) each newly rejected node carries as a bit
        # combination, then intern each distinct combination once.
        combo = np.zeros(len(failed), dtype=np.int64)
        for j, failure in enumerate(failures):
            combo[failure.mask & failed] |= 1 << j
        target = fail_id if where is None else None
        ids = np.full(len(failed), -1, dtype=np.int32)
        for value in _distinct(combo[failed]):
            chosen = [f for j, f in enumerate(failures) if int(value) >> j & 1]
            reasons = tuple(r for f in chosen for r in f.reasons)
            code = max((int(f.code) for f in chosen), default=2)
            ids[failed & (combo == value)] = self._failure_id(plugin, reasons, code)
        if target is not None:
            target[failed] = ids[failed]
        else:
            fail_id[where] = ids[failed]


def _distinct(values: np.ndarray) -> np.ndarray:
    """`np.unique(values)` for a 1-d array: its distinct values, ascending. Written out because
    numpy 2.3+'s plain `np.unique` asks `np.ma.is_masked`, which imports numpy.ma (about 7 ms)
    on first use: start-up time of every run (issue 16)."""
    ordered = np.sort(values)
    if len(ordered) < 2:
        return ordered
    keep = np.empty(len(ordered), dtype=bool)
    keep[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]


def _static_size(found: tuple) -> int:
    return found[0].nbytes + found[1].nbytes + found[2].nbytes + 16 * len(found[3])


def _changed_rows(state: ClusterState, since: int) -> np.ndarray | None:
    """Rows changed after `since`, or None when so many changed that a full pass is cheaper."""
    return state.changed_rows(since, limit=int(_FULL_RECOMPUTE_SHARE * state.n))
