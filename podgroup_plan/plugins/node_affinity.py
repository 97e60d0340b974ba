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

from typing import Hashable

import numpy as np

from podgroup_plan.config.args import NodeAffinityArgs
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
from podgroup_plan.model.selectors import NodeSelector
from podgroup_plan.plugins.helper.node_affinity import (  # noqa: F401  (re-exported for older imports)
    OBJECT_NAME_FIELD,
    field_requirement_mask,
    label_requirement_mask,
    label_set_mask,
    node_selector_mask,
    preferred_score,
    preferred_terms_error,
    term_mask,
    valid_label_key,
    valid_label_value,
)
from podgroup_plan.state.derived import DerivedKey, Memo

ERR_REASON_POD = "node(s) didn't match Pod's node affinity/selector"
ERR_REASON_ENFORCED = "node(s) didn't match scheduler-enforced node affinity"
ERR_REASON_CONFLICT = "pod affinity terms conflict"

# Per-node results by selector (node labels never change inside a state).
_MEMO: DerivedKey[Memo] = DerivedKey("NodeAffinity/bySelector")

def _required(pod: Pod) -> NodeSelector | None:
    return pod.affinity.node_required if pod.affinity is not None else None


def _preferred(pod: Pod) -> tuple:
    return pod.affinity.node_preferred if pod.affinity is not None else ()


class NodeAffinity(PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin):
    """Upstream NodeAffinity (PreFilter, Filter, PreScore, Score, NormalizeScore)."""

    name = "NodeAffinity"
    node_local = True
    static = True

    def sign(self, pod: Pod) -> Hashable:
        aff = pod.affinity
        if aff is None:
            return (tuple(sorted(pod.node_selector.items())), None, None)
        return (tuple(sorted(pod.node_selector.items())), aff.node_required, aff.node_preferred)

    def sign_filter(self, pod: Pod) -> Hashable:
        # The preferred terms are Score's: keying the static layer on them would give pods
        # that differ only in preferences a layer each, which crowd each other out of the
        # byte budget (tests/properties/test_plan_invariants.py).
        aff = pod.affinity
        return (tuple(sorted(pod.node_selector.items())), aff.node_required if aff is not None else None)

    def __init__(self, args: NodeAffinityArgs | None = None, handle=None):
        super().__init__(args if args is not None else NodeAffinityArgs(), handle)

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
        # keyed by the selector itself: profiles may configure different ones
        return state.memo(_MEMO).get(("added", added), lambda: node_selector_mask(state, added))

    def _pod_required(self, state, pod: Pod) -> np.ndarray:
        selector = tuple(sorted(pod.node_selector.items()))
        required = _required(pod)

        def compute() -> np.ndarray:
            out = label_set_mask(state, selector)
            if required is not None:
                out &= node_selector_mask(state, required)
            return out

        return state.memo(_MEMO).get(("required", selector, required), compute)

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
        preferred = _preferred(pod)
        if preferred:
            # getPodPreferredNodeAffinity: a term the API server let through but that does not
            # parse (a Gt value that is no integer, a value that is no label value) is an Error
            err = preferred_terms_error(preferred)
            if err is not None:
                return Status(Code.ERROR, (err,), self.name)
        elif not self.args.added_affinity_preferred:
            return skip(self.name)
        return SUCCESS

    def score(self, cs: CycleState, pod: Pod, state, feasible: np.ndarray) -> np.ndarray:
        terms = tuple(self.args.added_affinity_preferred) + tuple(_preferred(pod))
        if not terms:
            return np.zeros(len(feasible), dtype=np.int64)
        raw = state.memo(_MEMO).get(("preferred", terms), lambda: preferred_score(state, terms))
        return raw[feasible]

    def normalize(self, cs: CycleState, pod: Pod, scores: np.ndarray) -> np.ndarray:
        return default_normalize_score(scores, reverse=False)
