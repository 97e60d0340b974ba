"""NodeAffinity: nodeSelector + required node affinity (Filter), preferred terms (Score).

Mirrors `pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go` (newest) and the
matching rules of `k8s.io/component-helpers/scheduling/corev1/nodeaffinity`:

* PreFilter: `Skip` when the pod has no nodeSelector, no required node affinity and the plugin
  has no `addedAffinity` required selector. Otherwise, when every required term carries a
  `matchFields` requirement `metadata.name In (...)`, narrow the cycle to those node names
  (intersection inside a term, union across terms); an empty result is
  `UnschedulableAndUnresolvable` `pod affinity terms conflict` (errReasonConflict). A term
  without such a requirement means "any node" (terms are ORed) and nothing is narrowed.
* Filter: a node failing `addedAffinity.requiredDuringScheduling...` is rejected with
  `node(s) didn't match scheduler-enforced node affinity`; otherwise a node failing the pod's
  nodeSelector or required terms with `node(s) didn't match Pod's node affinity/selector`
  (ErrReasonPod). Both `UnschedulableAndUnresolvable`.
* PreScore: `Skip` when neither the pod nor the args have preferred terms.
* Score: the sum of the weights of the matching preferred terms (pod's plus `addedAffinity`'s);
  terms with weight 0 or an empty preference are ignored (NewPreferredSchedulingTerms).
* NormalizeScore: `DefaultNormalizeScore(MaxNodeScore, reverse=false)`.

Matching rules (nodeaffinity helper): the required terms are ORed; a term ANDs its
matchExpressions and matchFields; a term with neither matches no node; a selector with no
terms matches no node; a term with an invalid requirement (e.g. Gt with a non-integer value,
matchFields on another key than `metadata.name`, an operator other than In/NotIn on fields)
matches no node (upstream records a parse error and skips the term). NotIn and DoesNotExist
match nodes without the label. Gt/Lt compare the label value parsed as a base-10 int64.

Why the shape differs from upstream: node labels never change inside a ClusterState, so a
pod's selector/affinity is evaluated once over all nodes, requirement by requirement, as
`np.isin` over the label column's codes (`ClusterState.label_column`), and cached by the
selector itself; a call only indexes the cached array by the view.
"""
from __future__ import annotations

import re
from typing import Any

import numpy as np

from podgroup_plan.framework.args import NodeAffinityArgs
from podgroup_plan.framework.interface import (
    CycleState,
    FilterPlugin,
    FilterVerdict,
    NodeFailure,
    PreFilterPlugin,
    PreFilterResult,
    PreScorePlugin,
    ScorePlugin,
    default_normalize_score,
)
from podgroup_plan.framework.status import SUCCESS, Code, Status, skip, unresolvable
from podgroup_plan.model.objects import Pod
from podgroup_plan.model.selectors import NodeSelector, NodeSelectorRequirement, NodeSelectorTerm
from podgroup_plan.plugins.taint_toleration import PerStateCache, _parse_go_int

ERR_REASON_POD = "node(s) didn't match Pod's node affinity/selector"
ERR_REASON_ENFORCED = "node(s) didn't match scheduler-enforced node affinity"
ERR_REASON_CONFLICT = "pod affinity terms conflict"

OBJECT_NAME_FIELD = "metadata.name"


# ----- vectorized matching over all nodes of a state --------------------------------------

def _int_values(values: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Parsed int64 value and validity for every distinct value of a label column."""
    parsed = [_parse_go_int(v) for v in values]
    ok = np.fromiter((p is not None for p in parsed), dtype=bool, count=len(parsed))
    ints = np.fromiter((p if p is not None else 0 for p in parsed), dtype=np.int64, count=len(parsed))
    return ints, ok


_QUALIFIED_NAME = re.compile(r"([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\Z")
_DNS1123_SUBDOMAIN = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\Z")


def valid_label_key(key: str) -> bool:
    """validation.IsQualifiedName: [prefix/]name, prefix a DNS-1123 subdomain (<= 253),
    name <= 63 alphanumerics with '-', '_', '.' inside."""
    prefix, slash, name = key.rpartition("/")
    if slash and (not prefix or len(prefix) > 253 or not _DNS1123_SUBDOMAIN.match(prefix)):
        return False
    return 0 < len(name) <= 63 and bool(_QUALIFIED_NAME.match(name))


def valid_label_value(value: str) -> bool:
    """validation.IsValidLabelValue: empty, or <= 63 characters of the qualified-name form."""
    return value == "" or (len(value) <= 63 and bool(_QUALIFIED_NAME.match(value)))


def label_requirement_mask(state, req: NodeSelectorRequirement) -> np.ndarray | None:
    """Nodes whose labels satisfy `req`, or None when the requirement is invalid
    (labels.NewRequirement refuses it: bad key or value, wrong number of values)."""
    if not valid_label_key(req.key) or not all(valid_label_value(v) for v in req.values):
        return None
    codes, values = state.label_column(req.key)
    op = req.operator
    if op in ("In", "NotIn"):
        if not req.values:
            return None
        wanted = set(req.values)
        hit_codes = [i for i, v in enumerate(values) if v in wanted]
        hit = np.isin(codes, hit_codes) if hit_codes else np.zeros(state.n, dtype=bool)
        return hit if op == "In" else ~hit
    if op == "Exists":
        return codes >= 0 if not req.values else None
    if op == "DoesNotExist":
        return codes < 0 if not req.values else None
    if op in ("Gt", "Lt"):
        if len(req.values) != 1:
            return None
        want = _parse_go_int(req.values[0])
        if want is None:
            return None
        ints, ok = _int_values(values)
        present = codes >= 0
        safe = np.where(present, codes, 0)
        if not len(values):
            return np.zeros(state.n, dtype=bool)
        cmp = ints[safe] > want if op == "Gt" else ints[safe] < want
        return present & ok[safe] & cmp
    return None


def field_requirement_mask(state, req: NodeSelectorRequirement) -> np.ndarray | None:
    """matchFields: only `metadata.name` with In/NotIn and exactly one value is valid."""
    if req.key != OBJECT_NAME_FIELD or req.operator not in ("In", "NotIn") or len(req.values) != 1:
        return None
    hit = state.all_nodes == state.node_index.get(req.values[0], -1)
    return hit if req.operator == "In" else ~hit


def term_mask(state, term: NodeSelectorTerm) -> np.ndarray:
    """A NodeSelectorTerm over all nodes; empty or invalid terms match nothing."""
    out = np.zeros(state.n, dtype=bool)
    if not term.match_expressions and not term.match_fields:
        return out
    out[:] = True
    for req in term.match_expressions:
        m = label_requirement_mask(state, req)
        if m is None:
            return np.zeros(state.n, dtype=bool)
        out &= m
    for req in term.match_fields:
        m = field_requirement_mask(state, req)
        if m is None:
            return np.zeros(state.n, dtype=bool)
        out &= m
    return out


def node_selector_mask(state, selector: NodeSelector) -> np.ndarray:
    """Required node affinity: the terms ORed; no terms matches no node."""
    out = np.zeros(state.n, dtype=bool)
    for term in selector.terms:
        out |= term_mask(state, term)
    return out


def label_set_mask(state, labels: tuple[tuple[str, str], ...]) -> np.ndarray:
    """spec.nodeSelector (labels.SelectorFromSet): every key present with exactly that value."""
    out = np.ones(state.n, dtype=bool)
    for key, value in labels:
        codes, values = state.label_column(key)
        try:
            code = values.index(value)
        except ValueError:
            return np.zeros(state.n, dtype=bool)
        out &= codes == code
    return out


def preferred_score(state, terms: tuple) -> np.ndarray:
    """PreferredSchedulingTerms.Score over all nodes: Σ weight of matching terms."""
    out = np.zeros(state.n, dtype=np.int64)
    for term in terms:
        pref = term.preference
        if term.weight == 0 or (not pref.match_expressions and not pref.match_fields):
            continue
        out += np.int64(term.weight) * term_mask(state, pref)
    return out


def _required(pod: Pod) -> NodeSelector | None:
    return pod.affinity.node_required if pod.affinity is not None else None


def _preferred(pod: Pod) -> tuple:
    return pod.affinity.node_preferred if pod.affinity is not None else ()


class NodeAffinity(PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin):
    """Upstream NodeAffinity (PreFilter, Filter, PreScore, Score, NormalizeScore)."""

    name = "NodeAffinity"

    def __init__(self, args: NodeAffinityArgs | None = None, handle=None):
        super().__init__(args if args is not None else NodeAffinityArgs(), handle)
        self._cache = PerStateCache()

    # ----- PreFilter ----------------------------------------------------------------------

    def pre_filter(self, cs: CycleState, pod: Pod, state, view: np.ndarray) -> PreFilterResult:
        required = _required(pod)
        if required is None and self.args.added_affinity_required is None and not pod.node_selector:
            return PreFilterResult(status=skip(self.name))
        if required is None or not required.terms:
            return PreFilterResult()
        names: set[str] | None = None
        for term in required.terms:
            term_names: set[str] | None = None
            for req in term.match_fields:
                if req.key == OBJECT_NAME_FIELD and req.operator == "In":
                    s = set(req.values)
                    term_names = s if term_names is None else term_names & s
            if term_names is None:
                return PreFilterResult()  # this term may match any node
            names = term_names if names is None else names | term_names
        if names is not None and not names:
            return PreFilterResult(status=unresolvable(ERR_REASON_CONFLICT, plugin=self.name))
        return PreFilterResult(node_names=frozenset(names) if names else None)

    # ----- Filter -------------------------------------------------------------------------

    def _added_required(self, state) -> np.ndarray | None:
        added = self.args.added_affinity_required
        if added is None:
            return None
        return self._cache.state_data(state, "added_required", lambda: node_selector_mask(state, added))

    def _pod_required(self, state, pod: Pod) -> np.ndarray:
        selector = tuple(sorted(pod.node_selector.items()))
        required = _required(pod)

        def compute() -> np.ndarray:
            out = label_set_mask(state, selector)
            if required is not None:
                out &= node_selector_mask(state, required)
            return out

        return self._cache.get(state, ("required", selector, required), compute)

    def filter(self, cs: CycleState, pod: Pod, state, view: np.ndarray) -> FilterVerdict:
        failures: list[NodeFailure] = []
        rejected: np.ndarray | None = None
        added = self._added_required(state)
        if added is not None:
            enforced = ~added.take(view)
            if enforced.any():
                failures.append(NodeFailure(enforced, (ERR_REASON_ENFORCED,), Code.UNSCHEDULABLE_AND_UNRESOLVABLE))
                rejected = enforced
        if pod.node_selector or _required(pod) is not None:
            own = ~self._pod_required(state, pod).take(view)
            if rejected is not None:
                own &= ~rejected
            if own.any():
                failures.append(NodeFailure(own, (ERR_REASON_POD,), Code.UNSCHEDULABLE_AND_UNRESOLVABLE))
                rejected = own if rejected is None else rejected | own
        if rejected is None:
            return FilterVerdict.all_pass(len(view))
        return FilterVerdict(~rejected, failures)

    # ----- PreScore / Score ---------------------------------------------------------------

    def pre_score(self, cs: CycleState, pod: Pod, state, feasible: np.ndarray) -> Status:
        if not _preferred(pod) and not self.args.added_affinity_preferred:
            return skip(self.name)
        return SUCCESS

    def score(self, cs: CycleState, pod: Pod, state, feasible: np.ndarray) -> np.ndarray:
        terms = tuple(self.args.added_affinity_preferred) + tuple(_preferred(pod))
        if not terms:
            return np.zeros(len(feasible), dtype=np.int64)
        raw = self._cache.get(state, ("preferred", terms), lambda: preferred_score(state, terms))
        return raw[feasible]

    def normalize(self, cs: CycleState, pod: Pod, scores: np.ndarray) -> np.ndarray:
        return default_normalize_score(scores, reverse=False)
