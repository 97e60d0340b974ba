"""InterPodAffinity: required and preferred pod (anti-)affinity, both directions.

Mirrors `pkg/scheduler/framework/plugins/interpodaffinity/` (1.37-dev): `filtering.go`
(PreFilter/Filter, reason strings), `scoring.go` (PreScore/Score/NormalizeScore), `plugin.go`
(namespace selector merging), and the term model of `pkg/scheduler/framework/types.go`
(AffinityTerm.Matches, getNamespacesFromPodAffinityTerm). matchLabelKeys / mismatchLabelKeys are
merged into the term's selector the way the API server does it at pod creation
(`pkg/registry/core/pod/strategy.go` applyMatchLabelKeysAndMismatchLabelKeys), since the
planner's input never went through an API server.

The gate InterPodAffinityHostnameFastPath is alpha and off by default in 1.37, so the general
(topology-pair map) algorithm is the one mirrored; the fast path only differs in corner cases
(two nodes sharing one hostname label value, matching pods on nodes without a hostname label).

Shape. Upstream walks every pod of every node in PreFilter and PreScore. Here:
* the incoming pod's own terms read `PodMatchCounts` (helper/pod_match_counts.py): per topology
  domain, the placed pods matching the term, a ledger of the cluster state kept current from
  the undo log on every assume, forget and rollback;
* existing pods' terms live in one `_ExistingTerms` ledger: per distinct resolved term, the
  placed pods carrying it per node and per domain of its topology key. An incoming pod is
  tested once per distinct term, not once per existing pod, and PreFilter skips at once when
  no such term it matches has placed pods.
Filter gathers per-domain flags through the nodes' domain codes (one extra slot for the nodes
without the label). Nothing is memoised per state version: a trial's rollback moves the
version too, so two pods practically never meet one.
All counts cover every node of the state (upstream lists all nodes of the snapshot, whatever the
placement); the view only decides which rows Filter answers for.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

from podgroup_plan.config.args import InterPodAffinityArgs
from podgroup_plan.framework.columns import has_pod_terms
from podgroup_plan.framework.interface import (
    MAX_NODE_SCORE,
    CycleState,
    FilterPlugin,
    FilterVerdict,
    NodeFailure,
    PreFilterPlugin,
    PreFilterResult,
    PreScorePlugin,
    ScorePlugin,
    StateKey,
)
from podgroup_plan.framework.status import SUCCESS, Code, Status, skip
from podgroup_plan.model.objects import Pod
from podgroup_plan.plugins.helper.pod_affinity_terms import (  # noqa: F401  (re-exported: tests import them from here)
    _EXISTING_TERMS,
    _KINDS,
    PREFERRED_AFFINITY,
    PREFERRED_ANTI_AFFINITY,
    REQUIRED_AFFINITY,
    REQUIRED_ANTI_AFFINITY,
    AffinityTerm,
    _ExistingTerms,
    _TermPlacement,
    matches_all_required_affinity_terms,
    pod_terms,
    resolve_term,
)
from podgroup_plan.plugins.helper.pod_match_counts import (
    DomainCounts,
    namespace_labels_token,
    pod_match_domain_counts,
)
from podgroup_plan.state.cluster import ClusterState
from podgroup_plan.state.derived import DerivedKey, HashedTuple, Memo

NAME = "InterPodAffinity"

# filtering.go
ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH = "node(s) didn't satisfy existing pods anti-affinity rules"
ERR_REASON_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod affinity rules"
ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod anti-affinity rules"

PRE_FILTER_KEY: "StateKey[_PreFilterState | None]" = StateKey("PreFilter" + NAME)
PRE_SCORE_KEY: "StateKey[_PreScoreState]" = StateKey("PreScore" + NAME)
# [state, the pod's `_Shape` there, kind -> its match entry, its labels as a frozenset]
SHAPE_KEY: "StateKey[list]" = StateKey(NAME + "/shape")

@dataclass(slots=True)
class _Domains:
    """Per topology key: the nodes' domain codes and which domains are flagged (count > 0)."""

    filled: np.ndarray  # all nodes: domain code, or the number of domains without the label
    flagged: np.ndarray  # per label value, then False in one extra slot (nodes without it)


def _or_flags(into: dict[str, np.ndarray], key: str, counts: np.ndarray) -> None:
    """Flag, in `into[key]` (made on first use, with the extra slot), the domains where
    `counts` (never negative) is above 0: over several calls, the domains whose sum is."""
    out = into.get(key)
    if out is None:
        out = into[key] = np.zeros(len(counts) + 1, dtype=bool)
        np.greater(counts, 0, out=out[:-1])
    else:
        out[:-1] |= counts > 0


def _flags(sums: np.ndarray) -> np.ndarray | None:
    """Per domain whether `sums` is above 0, with the extra slot of the nodes without the
    label (never flagged); None when no domain is flagged."""
    out = np.zeros(len(sums) + 1, dtype=bool)
    np.greater(sums, 0, out=out[:-1])
    return out if out.any() else None


_FILLED_MEMO: DerivedKey[Memo] = DerivedKey(NAME + "/filledCodes")


@dataclass(slots=True)
class _PreFilterState:
    affinity: list[_Domains]  # one per distinct key of the required affinity terms
    affinity_counts_empty: bool  # no placed pod matches all affinity terms (on a keyed node)
    self_match: bool  # the pod matches all of its own affinity terms
    has_affinity: bool
    anti_affinity: list[_Domains]
    existing_anti_affinity: list[_Domains]


@dataclass(slots=True)
class _PreScoreState:
    raw: np.ndarray  # per node of feasible


@dataclass(slots=True)
class _Shape:
    """What InterPodAffinity reads for the pods of one shape (namespace, affinity object, and
    the labels only when its terms merge them in) on a state, worked out once: the pod's own
    terms resolved and the ledger entries they read (`live`: per-domain sums, filled as
    asked; the ledgers keep them current on every assume, forget and rollback, so a shape
    never goes stale). What depends on the pod's labels (the existing terms it matches, its
    self-match) is the pod's own."""

    affinity_terms: list[AffinityTerm]
    anti_terms: list[AffinityTerm]
    # PreScore's own terms in upstream's order: (sign, resolved term, weight)
    preferred: list[tuple[int, AffinityTerm, int]]
    live: dict[tuple, DomainCounts | None] = field(default_factory=dict)  # see InterPodAffinity._live


# Pod shapes on the cluster state (state/derived.py): `_Shape` per (plugin, namespace, affinity
# object[, labels]).
_SHAPE_MEMO: DerivedKey[Memo] = DerivedKey(NAME + "/shapes")
_plugin_ids = itertools.count()


class InterPodAffinity(PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin):
    name = NAME
    reads_pods = True  # the labels of the pods in a domain

    def reads_pods_of(self, pod: Pod) -> bool:
        """A pod without pod (anti-)affinity terms of its own meets only the existing pods'
        terms, which the planner looks for across the cluster (columns.cluster_reads_columns_only)."""
        return has_pod_terms(pod)

    def requeue_after_bindings(self, failed: Pod, added: Callable[[], Sequence[Pod]]) -> bool:
        """The queueing hint for an added pod (isSchedulableAfterAssignedPodChange, v1.37.0):
        requeue only when that pod matches every required pod-affinity term of the failed pod;
        a pod held back by anti-affinity alone waits for an eviction."""
        return any(matches_all_required_affinity_terms(failed, p) for p in added())

    def __init__(self, args: InterPodAffinityArgs | None = None, handle=None):
        super().__init__(args if args is not None else InterPodAffinityArgs(), handle)
        self._ns_map = self.handle.namespace_labels
        # hashed once: part of the keys of every lookup
        self._ns_token = HashedTuple(namespace_labels_token(self._ns_map))
        # Part of this plugin's keys in the state's shape memo (its namespace labels and args).
        self._id = next(_plugin_ids)

    # ----- helpers ---------------------------------------------------------------------------

    def _existing(self, state: "ClusterState") -> _ExistingTerms:
        return state.index(_EXISTING_TERMS, _ExistingTerms)

    def _shape(self, pod: Pod, state: "ClusterState", cs: CycleState | None = None) -> _Shape:
        """The pod's shape on `state` (made on first use; kept in the pod's cycle state `cs`
        for its other extension points). The affinity object is keyed by its `id` (its
        generated hash walks every term; the decoder shares one object among the pods written
        alike) and kept in the entry, so that id cannot be reused meanwhile; the labels join
        the key only when a term merges them in (matchLabelKeys, mismatchLabelKeys)."""
        if cs is not None:
            kept = cs.read(SHAPE_KEY)
            if kept is not None and kept[0] is state:  # a shape holds this state's ledgers
                return kept[1]
            shape = self._shape(pod, state)
            cs.write(SHAPE_KEY, [state, shape, {}, None])
            return shape
        a = pod.affinity
        memo = state.memo(_SHAPE_MEMO)
        key = (self._id, pod.namespace, id(a))
        found = memo.get(key)
        if found is None or found[0] is not a:
            merges = a is not None and any(
                t.match_label_keys or t.mismatch_label_keys
                for t in (*a.pod_affinity_required, *a.pod_anti_affinity_required,
                          *(w.term for w in a.pod_affinity_preferred), *(w.term for w in a.pod_anti_affinity_preferred)))
            found = (a, merges, None if merges else self._new_shape(pod))
            memo.put(key, found, 64)
        if not found[1]:
            return found[2]
        labelled_key = (self._id, pod.namespace, id(a), tuple(sorted(pod.labels.items())))
        merged = memo.get(labelled_key)
        if merged is None or merged[0] is not a:
            merged = (a, self._new_shape(pod))
            memo.put(labelled_key, merged, 64)
        return merged[1]

    @staticmethod
    def _new_shape(pod: Pod) -> _Shape:
        a = pod.affinity
        if a is None:
            return _Shape([], [], [])
        return _Shape(
            [resolve_term(pod, t) for t in a.pod_affinity_required],
            [resolve_term(pod, t) for t in a.pod_anti_affinity_required],
            [(1, resolve_term(pod, w.term), w.weight) for w in a.pod_affinity_preferred]
            + [(-1, resolve_term(pod, w.term), w.weight) for w in a.pod_anti_affinity_preferred],
        )

    def _matched(self, existing: _ExistingTerms, kind: str, pod: Pod, cs: CycleState | None) -> list[tuple[AffinityTerm, int]]:
        """The kind's terms of placed pods that the pod matches (`matching`), its memo entries
        kept in its cycle state (found by `_shape`) when it has one."""
        found = cs.read(SHAPE_KEY) if cs is not None else None
        if found is None or found[0] is not existing.state:
            return existing.matching(kind, pod, self._ns_map, self._ns_token)
        entry = found[2].get(kind)
        if entry is None:
            if found[3] is None:
                found[3] = frozenset(pod.labels.items())
            entry = found[2][kind] = existing.match_entry(kind, pod, self._ns_token, found[3])
        return existing.refresh(entry, kind, pod, self._ns_map)

    def _live(self, state: ClusterState, shape: _Shape, key: tuple, terms: list[AffinityTerm],
              tkey: str) -> DomainCounts | None:
        """`_term_domains` for one of the shape's term lists (named by `key`), looked up once."""
        try:
            return shape.live[key]
        except KeyError:
            found = shape.live[key] = self._term_domains(state, terms, tkey)
            return found

    def _existing_weights(
        self, state: "ClusterState", pod: Pod, kind: str, weight: int | None, sign: int,
        into: dict[str, np.ndarray], cs: CycleState | None = None,
    ) -> bool:
        """Add, per topology key and domain, sign * weight * (placed pods carrying a term the
        pod matches, on nodes of that domain); the term's own weight when `weight` is None.
        Whether any such pod sits on a node with the term's topology key (each such pair is
        a topologyScore entry upstream)."""
        existing = self._existing(state)
        entries = False
        for term, own in self._matched(existing, kind, pod, cs):
            placed = existing.terms[kind][(term, own)]
            if not placed.nodes:
                continue
            w = sign * (own if weight is None else weight)
            arr = into.get(term.topology_key)
            if arr is None:
                arr = into[term.topology_key] = np.zeros(len(placed.domains), dtype=np.int64)
            arr += w * placed.domains
            entries = entries or bool(placed.domains.any())
        return entries

    def _term_domains(self, state: "ClusterState", terms: list[AffinityTerm], key: str) -> DomainCounts | None:
        """Live per-domain counts of `key` (`.sums`, do not modify) of placed pods matching
        every term, on nodes with the label (a ledger kept current from the undo log,
        helper/pod_match_counts.py); None when nothing can match."""
        if any(t.selector is None for t in terms):
            return None
        codes, values = state.label_column(key)
        return pod_match_domain_counts(
            state, tuple(t.clause for t in terms), (key, "labelled"), lambda: (codes, len(values)),
            self._ns_map, self._ns_token,
        )

    # ----- PreFilter / Filter ----------------------------------------------------------------

    def pre_filter(self, cs: CycleState, pod: Pod, state: "ClusterState", view: np.ndarray) -> PreFilterResult:
        pre = self._pre_filter_state(pod, state, cs)
        if pre is None:
            cs.pop(PRE_FILTER_KEY, None)
            return PreFilterResult(skip(NAME))
        cs.write(PRE_FILTER_KEY, pre)
        return PreFilterResult()

    def _pre_filter_state(self, pod: Pod, state: "ClusterState", cs: CycleState | None = None) -> _PreFilterState | None:
        """None when upstream's PreFilter returns Skip: no existing pod's required anti-affinity
        matches the pod and the pod has no required terms."""
        a = pod.affinity
        if a is None or not (a.pod_affinity_required or a.pod_anti_affinity_required):
            # Skip unless an existing pod's required anti-affinity term matches the pod (the
            # common case: nothing to check either way).
            existing_terms = self._existing(state)
            if not existing_terms.order[REQUIRED_ANTI_AFFINITY]:
                return None
            shape = self._shape(pod, state, cs)
            kind_terms = existing_terms.terms[REQUIRED_ANTI_AFFINITY]
            if not any(kind_terms[sig].nodes for sig in self._matched(
                    existing_terms, REQUIRED_ANTI_AFFINITY, pod, cs)):
                return None
        else:
            shape = self._shape(pod, state, cs)
        affinity_terms = shape.affinity_terms
        anti_terms = shape.anti_terms

        # Existing pods' required anti-affinity terms that the incoming pod matches: a domain
        # is flagged when the placed pods carrying them there add up to more than 0, i.e. when
        # any one term has a pod there (counts are never negative).
        flagged: dict[str, np.ndarray] = {}
        existing_terms = self._existing(state)
        kind_terms = existing_terms.terms[REQUIRED_ANTI_AFFINITY]
        for sig in self._matched(existing_terms, REQUIRED_ANTI_AFFINITY, pod, cs):
            placed = kind_terms[sig]
            if placed.nodes:
                _or_flags(flagged, sig[0].topology_key, placed.domains)
        existing = [_Domains(self._filled_codes(state, tkey), flagged[tkey])
                    for tkey in sorted(flagged) if flagged[tkey].any()]

        result: _PreFilterState | None
        if not existing and not affinity_terms and not anti_terms:
            result = None
        else:
            affinity: list[_Domains] = []
            counts_empty = True
            self_match = False
            if affinity_terms:
                for tkey in dict.fromkeys(t.topology_key for t in affinity_terms):
                    live = self._live(state, shape, ("affinity", tkey), affinity_terms, tkey)
                    sums = (np.zeros(len(state.label_column(tkey)[1]), dtype=np.int64) if live is None
                            else live.sums)
                    flags = _flags(sums)
                    if flags is not None:
                        counts_empty = False
                    else:
                        flags = np.zeros(len(sums) + 1, dtype=bool)
                    affinity.append(_Domains(self._filled_codes(state, tkey), flags))
                self_match = all(t.matches(pod, self._ns_map) for t in affinity_terms)
            # the pod's anti-affinity terms: per key, a domain holding a pod any term matches
            anti_flagged: dict[str, np.ndarray] = {}
            for i, t in enumerate(anti_terms):
                live = self._live(state, shape, ("anti", i), [t], t.topology_key)
                if live is not None:
                    _or_flags(anti_flagged, t.topology_key, live.sums)
            anti = [_Domains(self._filled_codes(state, tkey), anti_flagged[tkey])
                    for tkey in sorted(anti_flagged) if anti_flagged[tkey].any()]
            result = _PreFilterState(affinity, counts_empty, self_match, bool(affinity_terms), anti, existing)
        return result

    @staticmethod
    def _filled_codes(state: "ClusterState", key: str) -> np.ndarray:
        """Per node its domain code for `key`, or the number of domains (one slot past the
        last) without the label: one gather answers for every node."""
        def compute() -> np.ndarray:
            codes, values = state.label_column(key)
            return np.where(codes >= 0, codes, len(values)).astype(np.intp)
        return state.memo(_FILLED_MEMO).get(key, compute)

    @staticmethod
    def _flagged(state: "ClusterState", d: _Domains, view: np.ndarray) -> np.ndarray:
        return d.flagged[state.rows_of(d.filled, view)]

    def filter(self, cs: CycleState, pod: Pod, state: "ClusterState", view: np.ndarray) -> FilterVerdict:
        if PRE_FILTER_KEY in cs:
            pre = cs.read(PRE_FILTER_KEY)
        else:
            pre = self._pre_filter_state(pod, state, cs)
            cs.write(PRE_FILTER_KEY, pre)
        n = len(view)
        if pre is None:
            return FilterVerdict.all_pass(n)
        # None: no node fails for that reason (each such mask would cost passes over the view)
        affinity_fail = None
        if pre.has_affinity:
            # Every term's topology key must be on the node, also for the first pod of a
            # self-affine group; then each term's domain must hold a pod matching all terms,
            # unless no such pod exists anywhere and the pod matches its own terms.
            has_all = np.ones(n, dtype=bool)
            exist_all = np.ones(n, dtype=bool)
            for d in pre.affinity:
                has_all &= state.rows_of(d.filled, view) < len(d.flagged) - 1
                exist_all &= self._flagged(state, d, view)
            ok = has_all & (exist_all | (pre.affinity_counts_empty and pre.self_match))
            affinity_fail = ~ok
        # a node fails for the first reason that applies: affinity, anti-affinity, existing
        anti_fail = self._any_flagged(state, pre.anti_affinity, view)
        if anti_fail is not None and affinity_fail is not None:
            anti_fail &= ~affinity_fail
        existing_fail = self._any_flagged(state, pre.existing_anti_affinity, view)
        if existing_fail is not None:
            for earlier in (affinity_fail, anti_fail):
                if earlier is not None:
                    existing_fail &= ~earlier
        failures = []
        rejected = None
        for fail, reason, code in (
                (affinity_fail, ERR_REASON_AFFINITY_RULES_NOT_MATCH, Code.UNSCHEDULABLE_AND_UNRESOLVABLE),
                (anti_fail, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH, Code.UNSCHEDULABLE),
                (existing_fail, ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH, Code.UNSCHEDULABLE)):
            if fail is None:
                continue
            if fail.any():
                failures.append(NodeFailure(fail, (reason,), code))
            rejected = fail if rejected is None else rejected | fail
        return FilterVerdict(np.ones(n, dtype=bool) if rejected is None else ~rejected, failures)

    def _any_flagged(self, state: "ClusterState", domains: list[_Domains], view: np.ndarray) -> np.ndarray | None:
        """Per node of `view`: flagged in any of `domains` (a new array), None without any."""
        out = None
        for d in domains:
            flagged = self._flagged(state, d, view)  # a gather: a new array
            if out is None:
                out = flagged
            else:
                out |= flagged
        return out

    # ----- PreScore / Score / NormalizeScore -------------------------------------------------

    def pre_score(self, cs: CycleState, pod: Pod, state: "ClusterState", feasible: np.ndarray) -> Status:
        cs.pop(PRE_SCORE_KEY, None)
        a = pod.affinity
        own = a is not None and bool(a.pod_affinity_preferred or a.pod_anti_affinity_preferred)
        if self.args.ignore_preferred_terms_of_existing_pods and not own:
            return skip(NAME)
        existing = self._existing(state)
        order = existing.order
        hard = self.args.hard_pod_affinity_weight
        if not own and not order[PREFERRED_AFFINITY] and not order[PREFERRED_ANTI_AFFINITY] \
                and not (order[REQUIRED_AFFINITY] and hard > 0):
            return skip(NAME)  # no term anywhere that could score: upstream finds no entry either
        shape = self._shape(pod, state, cs)
        if not own and not any(existing.terms[kind][sig].nodes
                               for kind in ((REQUIRED_AFFINITY, PREFERRED_AFFINITY, PREFERRED_ANTI_AFFINITY)
                                            if hard > 0 else (PREFERRED_AFFINITY, PREFERRED_ANTI_AFFINITY))
                               for sig in self._matched(existing, kind, pod, cs)):
            # no own term, and no placed pod carries a term the pod matches: nothing to add
            # up, and no topologyScore entry (what the loops below find in that case)
            return skip(NAME)

        # Per topology key, per domain: the weight the placed pods on the domain's nodes
        # contribute (upstream's topologyScore), from the ledgers' per-domain counts.
        weights: dict[str, np.ndarray] = {}
        # Upstream skips scoring when no (term, pod) pair matched on a node carrying the term's
        # topology key (no topologyScore entry at all), even if weights would cancel out.
        entries = False
        for i, (sign, term, weight) in enumerate(shape.preferred):
            live = self._live(state, shape, ("preferred", i), [term], term.topology_key)
            if live is None:
                continue
            sums = live.sums
            arr = weights.get(term.topology_key)
            if arr is None:
                arr = weights[term.topology_key] = np.zeros(len(sums), dtype=np.int64)
            arr += sign * weight * sums
            entries = entries or bool(sums.any())
        if hard > 0:
            entries |= self._existing_weights(state, pod, REQUIRED_AFFINITY, hard, 1, weights, cs)
        entries |= self._existing_weights(state, pod, PREFERRED_AFFINITY, None, 1, weights, cs)
        entries |= self._existing_weights(state, pod, PREFERRED_ANTI_AFFINITY, None, -1, weights, cs)
        if not entries:
            return skip(NAME)

        raw = None
        for tkey in sorted(weights):
            # nodes without the label take the extra slot, worth 0
            part = np.append(weights[tkey], 0).take(state.rows_of(self._filled_codes(state, tkey), feasible))
            if raw is None:
                raw = part  # a gather: a new array
            else:
                raw += part
        if raw is None:
            raw = np.zeros(len(feasible), dtype=np.int64)
        cs.write(PRE_SCORE_KEY, _PreScoreState(raw))
        return SUCCESS

    def score(self, cs: CycleState, pod: Pod, state: "ClusterState", feasible: np.ndarray) -> np.ndarray:
        pre = cs.read(PRE_SCORE_KEY)
        if pre is None or len(pre.raw) != len(feasible):
            if self.pre_score(cs, pod, state, feasible).is_skip():
                return np.zeros(len(feasible), dtype=np.int64)
            pre = cs[PRE_SCORE_KEY]
        return pre.raw.copy()

    def normalize(self, cs: CycleState, pod: Pod, scores: np.ndarray) -> np.ndarray:
        if PRE_SCORE_KEY not in cs or scores.size == 0:
            return scores
        min_count = int(scores.min())
        max_count = int(scores.max())
        diff = max_count - min_count
        if diff <= 0:
            return np.zeros_like(scores)
        # int64(float64(MaxNodeScore) * (float64(s-min) / float64(max-min))), in place
        frac = (scores - min_count).astype(np.float64)
        frac /= float(diff)
        frac *= float(MAX_NODE_SCORE)
        return frac.astype(np.int64)
