"""PodTopologySpread: spread pods over topology domains (hard DoNotSchedule, soft ScheduleAnyway).

Mirrors `pkg/scheduler/framework/plugins/podtopologyspread/` (1.37-dev): `common.go` (constraint
building, inclusion policies, matchLabelKeys, countPodsMatchSelector), `filtering.go`
(PreFilter/Filter, per-constraint counts and minDomains), `scoring.go` (PreScore/Score/
NormalizeScore) and `plugin.go` (reason strings, system default constraints); the default
selector is `plugins/helper/spread.go` (DefaultSelector).

Shape. Everything per node is a numpy column over *all* nodes of the cluster state: upstream's
PreFilter and PreScore count pods on every node of the snapshot (`NodeInfos().List()`, not the
placement), so the view only decides which rows Filter answers for. The number of placed pods
matching a (namespaces, selector) on each node, and per topology domain over the nodes that
count for the constraint (`DomainCounts`), live in one ledger of the cluster state
(`PodMatchCounts`), kept current on every assume/forget/rollback from the undo log; a selector
seen for the first time is counted from the placed pods grouped by label set, not by replaying
every pod. A pod's PreFilter then reads its constraints' per-domain sums (a copy, as its cycle
state must not follow later assumes) instead of summing over every node, and Filter gathers a
per-domain verdict through the nodes' domain codes. Which nodes count (labels, node affinity,
taints) is static and memoised for the state's life. Nothing is memoised per state version: a
trial's rollback moves the version too, so two pods practically never meet one.

Pods of one shape (the same constraint objects, namespace and node selection) read the
same things: what PreFilter and PreScore read for a shape (eligible nodes, domains, the live
ledger entries) is worked out once and kept in the state's shape memo, so such a pod only
copies the live sums; Filter keeps its per-node answer per per-domain verdict (a zone
constraint has a few domains, met again and again); and a one-constraint PreScore scores per
count, not per node (`raw_scores_by_count`).

The per-node counts (`PodMatchCounts`) and the selector helpers it shares with InterPodAffinity
live in `plugins/helper/pod_match_counts.py`, node selectors and taints in `plugins/helper/`;
the memos are the state's own (state/derived.py).
"""
from __future__ import annotations

import itertools
from dataclasses import replace
from typing import Callable, Iterable, Mapping, Sequence

import numpy as np

from podgroup_plan.config.args import (
    SYSTEM_DEFAULT_SPREAD_CONSTRAINTS,
    SYSTEM_DEFAULTING,
    PodTopologySpreadArgs,
)
from podgroup_plan.config.defaults import gate_enabled
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
from podgroup_plan.model.objects import Pod, TopologySpreadConstraint
from podgroup_plan.model.selectors import LabelSelector, LabelSelectorRequirement
from podgroup_plan.plugins.helper.node_affinity import required_node_affinity_mask
from podgroup_plan.plugins.helper.pod_match_counts import (  # noqa: F401  (re-exported for older imports)
    LABEL_METADATA_NAME,
    Clause,
    DomainCounts,
    PodMatchCounts,
    label_selector_matches,
    namespace_labels,
    namespace_labels_token,
    pod_match_counts,
    pod_match_domain_counts,
)
from podgroup_plan.plugins.helper.taint import COMPARISON_OPERATORS_GATE, taint_table, untolerated_per_node
from podgroup_plan.plugins.helper.topology_spread import (  # noqa: F401  (re-exported: tests import them from here)
    SpreadConstraint,
    _ConstraintCounts,
    _FilterShape,
    _merge_match_labels,
    _PreFilterState,
    _PreScoreState,
    _ScorePart,
    _ScoreShape,
    _selector_counts_nothing,
    go_log,
    go_round,
    go_round_non_negative,
    raw_scores,
    raw_scores_by_count,
)
from podgroup_plan.state.cluster import ClusterState
from podgroup_plan.state.derived import DerivedKey, HashedTuple, Memo

NAME = "PodTopologySpread"

# plugin.go
ERR_REASON_CONSTRAINTS_NOT_MATCH = "node(s) didn't match pod topology spread constraints"
ERR_REASON_NODE_LABEL_NOT_MATCH = ERR_REASON_CONSTRAINTS_NOT_MATCH + " (missing required label)"

DO_NOT_SCHEDULE = "DoNotSchedule"
SCHEDULE_ANYWAY = "ScheduleAnyway"
HONOR = "Honor"
LABEL_HOSTNAME = "kubernetes.io/hostname"
MAX_INT32 = 2**31 - 1

PRE_FILTER_KEY: "StateKey[_PreFilterState]" = StateKey("PreFilter" + NAME)
PRE_SCORE_KEY: "StateKey[_PreScoreState]" = StateKey("PreScore" + NAME)

# A memo on the cluster state (state/derived.py): which nodes count for a pod (labels, node
# affinity, taints: the node table only), the domains they make, domain codes per node.
_ELIGIBLE_MEMO: DerivedKey[Memo] = DerivedKey(NAME + "/eligibleNodes")
# A memo on the cluster state: per pod shape (constraints, namespace, what decides the eligible
# nodes: `_shape_key`) what PreFilter and PreScore read for it, worked out once per shape (the
# ledgers it points to are live, so it stays current); and Filter's verdict per node for a
# per-domain verdict (few domains: a zone constraint has one per zone).
_SHAPE_MEMO: DerivedKey[Memo] = DerivedKey(NAME + "/shapes")
# Filter keeps its verdict per node for a per-domain verdict of at most this many domains.
_VERDICT_DOMAINS = 64
_plugin_ids = itertools.count()

_DO_NOT_SCHEDULE_EFFECTS = ("NoSchedule", "NoExecute")  # the taint effects DoNotScheduleTaintsFilterFunc keeps (helper/taint.go)



class PodTopologySpread(PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin):
    name = NAME
    reads_pods = True  # the pods in each domain a constraint counts, for a pod given one (its own or the defaults)

    def reads_pods_of(self, pod: Pod) -> bool:
        return bool(pod.topology_spread_constraints) or any(self.constraints(pod, a) for a in (DO_NOT_SCHEDULE, SCHEDULE_ANYWAY))

    def requeue_after_bindings(self, failed: Pod, added: Callable[[], Sequence[Pod]]) -> bool:
        """EventsToRegister: an added pod changes the domains' counts; any binding may cure a skew rejection."""
        return True

    def __init__(self, args: PodTopologySpreadArgs | None = None, handle=None):
        super().__init__(args if args is not None else PodTopologySpreadArgs(), handle)
        if self.args.defaulting_type == SYSTEM_DEFAULTING:
            self._defaults: tuple[TopologySpreadConstraint, ...] = SYSTEM_DEFAULT_SPREAD_CONSTRAINTS
            self._system_defaulted = True
        else:
            self._defaults = tuple(self.args.default_constraints)
            self._system_defaulted = False
        self._match_label_keys = gate_enabled(self.handle.feature_gates, "MatchLabelKeysInPodTopologySpread")
        self._services: dict[str, list] = {}
        self._controllers: dict[tuple[str, str, str], LabelSelector] = {}
        for s in sorted(self.handle.spread_selectors, key=lambda s: (s.kind, s.namespace, s.name)):
            if s.selector is None:  # selects nothing: contributes nothing (as upstream)
                continue
            if s.kind == "Service":
                self._services.setdefault(s.namespace, []).append(s.selector)
            else:
                self._controllers[(s.kind, s.namespace, s.name)] = s.selector
        # DefaultSelector by (namespace, labels, owner): depends on the handle only
        self._default_selector_memo = Memo()
        # constraints() by the pod's constraints object (see there): depends on the args only
        self._constraints_memo = Memo()
        self._default_actions = frozenset(c.when_unsatisfiable for c in self._defaults)
        # Part of this plugin's keys in the state's shape memo (profiles may differ in args).
        self._id = next(_plugin_ids)

    # ----- constraints -----------------------------------------------------------------------

    def constraints(self, pod: Pod, action: str) -> tuple[SpreadConstraint, ...]:
        """The pod's constraints for `action`, or the default constraints with the default
        selector when the pod has none (common.go).

        The pod's own constraints are parsed once per constraints object (the decoder shares
        one tuple among the pods written alike), and per label set when matchLabelKeys merge
        the pod's labels in; the same tuple comes back every time, which keys the state's
        shape memo (`_filter_shape`, `_score_shape`). The memo is keyed by the object's `id`
        and each entry keeps the object, so that id cannot be reused while the entry lives."""
        own = pod.topology_spread_constraints
        if own:
            memo = self._constraints_memo
            key = (id(own), action)
            found = memo.get(key)
            if found is None or found[0] is not own:
                merges = self._match_label_keys and any(
                    c.match_label_keys and c.label_selector is not None for c in own)
                found = (own, merges, None if merges else self._filter_constraints(own, pod.labels, action))
                memo.put(key, found, 64)
            if not found[1]:
                return found[2]
            labelled_key = (id(own), action, tuple(sorted(pod.labels.items())))
            merged = memo.get(labelled_key)
            if merged is None or merged[0] is not own:
                merged = (own, self._filter_constraints(own, pod.labels, action))
                memo.put(labelled_key, merged, 64)
            return merged[1]
        if action not in self._default_actions:
            return ()
        selector = self.default_selector(pod)
        if selector is None:
            return ()
        # Default constraints have no selector of their own to merge labels into: the result
        # depends on the action and the default selector only (one tuple per pair, as above).
        default_key = ("default", action, selector)
        defaults = self._constraints_memo.get(default_key)
        if defaults is None:
            out = self._filter_constraints(self._defaults, pod.labels, action)
            defaults = tuple(replace(c, selector=selector) for c in out)
            self._constraints_memo.put(default_key, defaults, 64)
        return defaults

    def _filter_constraints(
        self, constraints: Iterable[TopologySpreadConstraint], labels: Mapping[str, str], action: str
    ) -> tuple[SpreadConstraint, ...]:
        out = []
        for c in constraints:
            if c.when_unsatisfiable != action:
                continue
            selector = c.label_selector
            if self._match_label_keys and c.match_label_keys and selector is not None:
                match = {k: labels[k] for k in c.match_label_keys if k in labels}
                if match:
                    selector = _merge_match_labels(selector, match)
            out.append(SpreadConstraint(
                max_skew=c.max_skew,
                topology_key=c.topology_key,
                selector=selector,
                min_domains=c.min_domains if c.min_domains is not None else 1,
                honor_node_affinity=c.node_affinity_policy == HONOR,
                honor_node_taints=c.node_taints_policy == HONOR,
            ))
        return tuple(out)

    def default_selector(self, pod: Pod) -> LabelSelector | None:
        """helper.DefaultSelector: labels of the Services selecting the pod, plus the selector of
        its controlling RC / ReplicaSet / StatefulSet (looked up by name in the pod's
        namespace). None when that selector is empty."""
        owner = next((o for o in pod.owner_references if o.controller), None)
        memo_key = (pod.namespace, frozenset(pod.labels.items()),
                    (owner.kind, owner.name) if owner is not None else None)
        if memo_key in self._default_selector_memo:
            return self._default_selector_memo.get(memo_key)
        label_set: dict[str, str] = {}
        for selector in self._services.get(pod.namespace, ()):
            # Services select by a map; the selector matches when all its labels are on the pod.
            if selector.matches(pod.labels):
                label_set.update(selector.match_labels)
        extra: tuple[LabelSelectorRequirement, ...] = ()
        if owner is not None:
            found = self._controllers.get((owner.kind, pod.namespace, owner.name))
            if found is not None:
                if owner.kind == "ReplicationController":
                    label_set.update(found.match_labels)
                elif owner.kind in ("ReplicaSet", "StatefulSet"):
                    extra = tuple(
                        LabelSelectorRequirement(k, "In", (v,)) for k, v in found.match_labels
                    ) + found.match_expressions
        selector = LabelSelector(tuple(sorted(label_set.items())), extra)
        result = None if selector.is_empty else selector
        self._default_selector_memo.put(memo_key, result)
        return result

    # ----- node eligibility ------------------------------------------------------------------

    def _has_keys(self, state: "ClusterState", keys: tuple[str, ...]) -> np.ndarray:
        def compute() -> np.ndarray:
            mask = np.ones(state.n, dtype=bool)
            for key in dict.fromkeys(keys):
                mask &= state.label_column(key)[0] >= 0
            return mask
        return state.memo(_ELIGIBLE_MEMO).get(("keys", keys), compute)

    def _affinity_mask(self, state: "ClusterState", pod: Pod) -> np.ndarray | None:
        key = ("affinity", tuple(sorted(pod.node_selector.items())),
               pod.affinity.node_required if pod.affinity is not None else None)
        return state.memo(_ELIGIBLE_MEMO).get(key, lambda: required_node_affinity_mask(state, pod))

    def _taint_mask(self, state: "ClusterState", pod: Pod) -> np.ndarray:
        # nodeTaintsPolicy Honor: the pod tolerates every NoSchedule/NoExecute taint there
        gate = gate_enabled(self.handle.feature_gates, COMPARISON_OPERATORS_GATE)
        return state.memo(_ELIGIBLE_MEMO).get(("taints", pod.tolerations, gate), lambda: untolerated_per_node(
            state, taint_table(state), pod.tolerations, _DO_NOT_SCHEDULE_EFFECTS, gate) == 0)

    def _eligible(
        self, state: "ClusterState", pod: Pod, constraints: Sequence[SpreadConstraint], require_all: bool
    ) -> list[tuple[np.ndarray, tuple]]:
        """Per constraint, the nodes whose pods count (all nodes): every topology key present
        (when required) and the constraint's nodeAffinity/nodeTaints inclusion policies; with
        a key naming that node set (static: it depends on the node table and the pod only)."""
        keys = tuple(c.topology_key for c in constraints) if require_all else None
        memo = state.memo(_ELIGIBLE_MEMO)
        out: list[tuple[np.ndarray, tuple]] = []
        for c in constraints:
            aff_key = ((tuple(sorted(pod.node_selector.items())),
                        pod.affinity.node_required if pod.affinity is not None else None)
                       if c.honor_node_affinity else None)
            taint_key = pod.tolerations if c.honor_node_taints else None
            # hashed once: it keys the mask, the domains present and the ledger's sums
            ekey = HashedTuple(("eligible", keys, aff_key, taint_key))
            mask = memo.get(ekey)
            if mask is None:
                mask = self._has_keys(state, keys) if keys is not None else np.ones(state.n, dtype=bool)
                if c.honor_node_affinity:
                    aff = self._affinity_mask(state, pod)
                    if aff is not None:
                        mask = mask & aff
                if c.honor_node_taints:
                    mask = mask & self._taint_mask(state, pod)
                memo.put(ekey, mask)
            out.append((mask, ekey))
        return out

    def _domain_counts(
        self, state: "ClusterState", pod: Pod, c: SpreadConstraint, eligible: np.ndarray, ekey: tuple,
    ) -> DomainCounts | None:
        """Live per-domain counts (`.sums`, do not modify) of the placed pods matching the
        constraint's selector on the eligible nodes (a ledger kept current from the undo log,
        helper/pod_match_counts.py); None when the selector counts nothing."""
        if _selector_counts_nothing(c.selector):
            return None
        codes, values = state.label_column(c.topology_key)

        def node_domain() -> tuple[np.ndarray, int]:
            return np.where(eligible & (codes >= 0), codes, -1), len(values)

        clause = HashedTuple(((frozenset((pod.namespace,)), None, c.selector),))
        return pod_match_domain_counts(state, clause, (c.topology_key, ekey), node_domain)

    def _present(self, state: "ClusterState", key: str, eligible: np.ndarray, ekey: tuple) -> tuple[np.ndarray, int]:
        """(domains holding an eligible node, how many): static, memoised."""
        def compute() -> tuple[np.ndarray, int]:
            codes, values = state.label_column(key)
            present = np.bincount(codes[eligible & (codes >= 0)], minlength=len(values)) > 0
            return present, int(present.sum())
        return state.memo(_ELIGIBLE_MEMO).get(("present", key, ekey), compute)

    def _buckets(self, state: "ClusterState", key: str) -> np.ndarray:
        """PreScore's domain per node: the label value's code, with the nodes without the
        label in the "" domain (a code of its own when no node is labelled "")."""
        def compute() -> np.ndarray:
            codes, values = state.label_column(key)
            empty = values.index("") if "" in values else len(values)
            return np.where(codes >= 0, codes, empty)
        return state.memo(_ELIGIBLE_MEMO).get(("buckets", key), compute)

    def _bucket_counts(
        self, state: "ClusterState", pod: Pod, c: SpreadConstraint, eligible: np.ndarray, ekey: tuple,
        bucket: np.ndarray, size: int,
    ) -> DomainCounts | None:
        """Live per-bucket counts (`.sums`, do not modify) of the placed pods matching the
        constraint's selector on the eligible nodes; None when the selector counts nothing."""
        if _selector_counts_nothing(c.selector):
            return None

        def node_domain() -> tuple[np.ndarray, int]:
            return np.where(eligible, bucket, -1), size

        clause = HashedTuple(((frozenset((pod.namespace,)), None, c.selector),))
        return pod_match_domain_counts(state, clause, (c.topology_key, ekey, "buckets"), node_domain)

    def _filled_codes(self, state: "ClusterState", key: str) -> np.ndarray:
        """Per node its domain code, or the number of domains (one slot past the last domain)
        for a node without the label: one gather then answers for every node."""
        def compute() -> np.ndarray:
            codes, values = state.label_column(key)
            return np.where(codes >= 0, codes, len(values)).astype(np.intp)
        return state.memo(_ELIGIBLE_MEMO).get(("filled", key), compute)

    def _counts(self, state: "ClusterState", pod: Pod, selector: LabelSelector | None) -> np.ndarray | None:
        if selector is None or _selector_counts_nothing(selector):
            return None
        return pod_match_counts(state, ((frozenset((pod.namespace,)), None, selector),))

    # ----- pod shapes ------------------------------------------------------------------------

    def _shape_key(self, kind: str, pod: Pod, constraints: tuple[SpreadConstraint, ...], *extra) -> tuple:
        """A key of the state's shape memo (`_SHAPE_MEMO`) for what PreFilter or PreScore
        read for `pod`: the constraints (one object per distinct parse, `constraints()`: labels
        merged by matchLabelKeys make their own), the pod's namespace (the selectors' clause),
        and what decides the eligible nodes (nodeSelector, required node affinity,
        tolerations). Not the labels: pods that differ only there (every pod its own
        `shape` label, say) share the shape; the self-match is the pod's own. Objects are
        keyed by `id` (their generated hashes walk every field); the entry keeps them
        (`_pinned`)."""
        aff = pod.affinity
        required = aff.node_required if aff is not None else None
        return (kind, self._id, id(constraints), pod.namespace,
                tuple(pod.node_selector.items()), id(required), id(pod.tolerations)) + extra

    @staticmethod
    def _pinned(pod: Pod, constraints: tuple[SpreadConstraint, ...]) -> tuple:
        aff = pod.affinity
        return (constraints, aff.node_required if aff is not None else None, pod.tolerations)

    def _filter_shape(
        self, pod: Pod, state: "ClusterState", constraints: tuple[SpreadConstraint, ...]
    ) -> list[_FilterShape]:
        """Per DoNotSchedule constraint, what PreFilter reads for pods of this shape, worked
        out once per shape and kept in the state's shape memo."""
        memo = state.memo(_SHAPE_MEMO)
        key = self._shape_key("filter", pod, constraints)
        pinned = self._pinned(pod, constraints)
        found = memo.get(key)
        if found is not None and found[0] == pinned:  # the same objects (pinned: ids unique)
            return found[1]
        shapes = []
        for c, (eligible, ekey) in zip(constraints, self._eligible(state, pod, constraints, True)):
            present, domains = self._present(state, c.topology_key, eligible, ekey)
            shapes.append(_FilterShape(
                c.topology_key, self._filled_codes(state, c.topology_key), present, domains,
                len(state.label_column(c.topology_key)[1]), self._domain_counts(state, pod, c, eligible, ekey),
                c.selector, c.max_skew, c.min_domains))
        memo.put(key, (pinned, shapes), 64 * (len(shapes) + 1))
        return shapes

    # ----- PreFilter / Filter ----------------------------------------------------------------

    def pre_filter(self, cs: CycleState, pod: Pod, state: "ClusterState", view: np.ndarray) -> PreFilterResult:
        constraints = self.constraints(pod, DO_NOT_SCHEDULE)
        if not constraints:
            cs.pop(PRE_FILTER_KEY, None)
            return PreFilterResult(skip(NAME))
        cs.write(PRE_FILTER_KEY, self._pre_filter_state(pod, state, constraints))
        return PreFilterResult()

    def _pre_filter_state(
        self, pod: Pod, state: "ClusterState", constraints: tuple[SpreadConstraint, ...]
    ) -> _PreFilterState:
        """calPreFilterState over all nodes of the state (upstream lists every node of the
        snapshot, whatever the placement)."""
        counts_out = []
        for sh in self._filter_shape(pod, state, constraints):
            # a copy: the cycle's PreFilter state must not follow later assumes
            sums = np.zeros(sh.size, dtype=np.int64) if sh.live is None else sh.live.sums.copy()
            # criticalPaths[0]: the minimum over the domains seen (MaxInt32 with none).
            min_match = int(sums[sh.present].min()) if sh.domains else MAX_INT32
            if sh.domains < sh.min_domains:
                min_match = 0
            counts_out.append(_ConstraintCounts(
                sh.filled, sums, sh.present, min_match, 1 if label_selector_matches(sh.selector, pod.labels) else 0,
                sh.max_skew, sh.topology_key))
        return _PreFilterState(constraints, counts_out)

    def filter(self, cs: CycleState, pod: Pod, state: "ClusterState", view: np.ndarray) -> FilterVerdict:
        pre = cs.read(PRE_FILTER_KEY)
        if pre is None:
            constraints = self.constraints(pod, DO_NOT_SCHEDULE)
            if not constraints:
                return FilterVerdict.all_pass(len(view))
            pre = self._pre_filter_state(pod, state, constraints)
            cs.write(PRE_FILTER_KEY, pre)
        if not pre.counts:
            return FilterVerdict.all_pass(len(view))
        if view is not state.all_nodes or any(len(c.sums) > _VERDICT_DOMAINS for c in pre.counts):
            return self._verdict(state, view, pre.counts)
        # Over every node the answer depends on which domains are skewed alone, and a zone
        # constraint has few domains: pods of a shape meet the same ones again and again.
        # (Worked out in plain Python: a handful of domains.)
        key = ("verdict", tuple(
            (c.topology_key, bytes([s > c.max_skew for s in (c.sums + (c.self_match - c.min_match)).tolist()]))
            for c in pre.counts))
        memo = state.memo(_SHAPE_MEMO)
        verdict = memo.get(key)
        if verdict is None:
            verdict = self._verdict(state, view, pre.counts)
            verdict.passed.flags.writeable = False  # shared by the pods that meet it
            for failure in verdict.failures:
                failure.mask.flags.writeable = False
            memo.put(key, verdict, verdict.passed.nbytes * (1 + len(verdict.failures)))
        return verdict

    @staticmethod
    def _verdict(state: "ClusterState", view: np.ndarray, counts: list[_ConstraintCounts]) -> FilterVerdict:
        # Constraints are checked in order and the first failure decides the node's status:
        # per domain 0 (fits), 1 (skew too large), and 2 in the extra slot of the nodes without
        # the label, gathered through the nodes' domain codes.
        status: np.ndarray | None = None
        for c in counts:
            size = len(c.sums)
            verdicts = np.empty(size + 1, dtype=np.int8)
            np.greater(c.sums + (c.self_match - c.min_match), c.max_skew, out=verdicts[:size], casting="unsafe")
            verdicts[size] = 2
            node = verdicts[state.rows_of(c.filled, view)]
            status = node if status is None else np.where(status == 0, node, status)
        assert status is not None, "called with the counts of at least one constraint"
        missing = status == 2
        skewed = status == 1
        failures = []
        if missing.any():
            failures.append(NodeFailure(missing, (ERR_REASON_NODE_LABEL_NOT_MATCH,),
                                        Code.UNSCHEDULABLE_AND_UNRESOLVABLE))
        if skewed.any():
            failures.append(NodeFailure(skewed, (ERR_REASON_CONSTRAINTS_NOT_MATCH,), Code.UNSCHEDULABLE))
        return FilterVerdict(status == 0, failures)

    # ----- PreScore / Score / NormalizeScore -------------------------------------------------

    def _score_shape(
        self, pod: Pod, state: "ClusterState", constraints: tuple[SpreadConstraint, ...], require_all: bool,
    ) -> _ScoreShape:
        """What PreScore reads for pods of this shape, worked out once per shape."""
        memo = state.memo(_SHAPE_MEMO)
        key = self._shape_key("score", pod, constraints, require_all)
        pinned = self._pinned(pod, constraints)
        found = memo.get(key)
        if found is not None and found[0] == pinned:  # the same objects (pinned: ids unique)
            return found[1]
        has_keys = self._has_keys(state, tuple(c.topology_key for c in constraints)) if require_all else None
        parts = []
        for c, (eligible, ekey) in zip(constraints, self._eligible(state, pod, constraints, require_all)):
            codes, values = state.label_column(c.topology_key)
            offset = float(c.max_skew - 1)
            if c.topology_key == LABEL_HOSTNAME:
                parts.append(_ScorePart(True, codes, self._counts(state, pod, c.selector), None, None, 0, offset))
            else:
                bucket = self._buckets(state, c.topology_key)
                size = len(values) + 1
                parts.append(_ScorePart(False, codes, None, bucket,
                                        self._bucket_counts(state, pod, c, eligible, ekey, bucket, size), size, offset))
        shape = _ScoreShape(has_keys, has_keys is not None and bool(has_keys.all()), parts)
        memo.put(key, (pinned, shape), 64 * (len(parts) + 1))
        return shape

    def pre_score(self, cs: CycleState, pod: Pod, state: "ClusterState", feasible: np.ndarray) -> Status:
        cs.pop(PRE_SCORE_KEY, None)
        if state.n == 0:
            return skip(NAME)
        constraints = self.constraints(pod, SCHEDULE_ANYWAY)
        if not constraints:
            return skip(NAME)
        # Only non-system-default rules require every topology key on a node; with system
        # defaults a node without a zone label still gets hostname spreading.
        require_all = bool(pod.topology_spread_constraints) or not self._system_defaulted
        shape = self._score_shape(pod, state, constraints, require_all)
        ignored = None
        scored = feasible
        if shape.has_keys is not None and not shape.all_keyed:
            ignored = ~state.rows_of(shape.has_keys, feasible)
            if ignored.any():
                scored = feasible[~ignored]
            else:
                ignored = None
        cnts = []
        for part in shape.parts:
            if part.hostname:
                weight = go_log(float(len(scored) + 2))
                cnt = (state.rows_of(part.counts, feasible) if part.counts is not None
                       else np.zeros(len(feasible), dtype=np.int64))
            else:
                # A node without the label counts in the "" domain (only possible without
                # require_all); a node labelled "" shares it.
                assert part.bucket is not None, "a part of a key other than the hostname has its domains"
                domain_seen = np.zeros(part.size, dtype=bool)
                domain_seen[part.bucket[scored]] = True
                weight = go_log(float(int(domain_seen.sum()) + 2))
                # Upstream counts the eligible nodes of the domains seen: a scored node's
                # domain is seen, so its count is its domain's count over all eligible nodes
                # (kept current from the undo log); ignored nodes are zeroed below.
                cnt = (part.live.sums[part.bucket[feasible]] if part.live is not None
                       else np.zeros(len(feasible), dtype=np.int64))
            cnts.append((cnt, weight, part.offset, None if require_all else part.codes[feasible] >= 0))
        raw = None
        if len(cnts) == 1 and cnts[0][3] is None:
            raw = raw_scores_by_count(*cnts[0][:3])
        if raw is None:
            raw = raw_scores(cnts, len(feasible))
        if ignored is not None:
            raw[ignored] = 0
        cs.write(PRE_SCORE_KEY, _PreScoreState(ignored, raw))
        return SUCCESS

    def score(self, cs: CycleState, pod: Pod, state: "ClusterState", feasible: np.ndarray) -> np.ndarray:
        pre = cs.read(PRE_SCORE_KEY)
        raw = pre.raw if pre is not None else None
        if raw is None or len(raw) != len(feasible):
            if self.pre_score(cs, pod, state, feasible).is_skip():
                return np.zeros(len(feasible), dtype=np.int64)
            raw = cs[PRE_SCORE_KEY].raw
            assert raw is not None, "PreScore that does not skip leaves the raw scores"
        return raw.copy()

    def normalize(self, cs: CycleState, pod: Pod, scores: np.ndarray) -> np.ndarray:
        pre = cs.read(PRE_SCORE_KEY)
        if pre is None or scores.size == 0:
            return scores
        ignored = pre.ignored
        if ignored is None:  # every node counts
            max_score = int(scores.max())
            if max_score == 0:
                return np.full_like(scores, MAX_NODE_SCORE)
            out = MAX_NODE_SCORE * (max_score + int(scores.min()) - scores)
            out //= max_score
            return out
        out = np.zeros_like(scores)
        valid = ~ignored
        if not valid.any():
            return out
        kept = scores[valid]
        max_score = int(kept.max())
        min_score = int(kept.min())
        if max_score == 0:
            out[valid] = MAX_NODE_SCORE
            return out
        # MaxNodeScore * (max + min - s) / max, integer division of non-negative values
        out[valid] = MAX_NODE_SCORE * (max_score + min_score - kept) // max_score
        return out
