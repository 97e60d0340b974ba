"""TaintToleration: Filter on NoSchedule/NoExecute taints, PreScore + Score on PreferNoSchedule.

Mirrors `pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go` (newest state,
verified against upstream's `taint_toleration_test.go` and the package AGENTS.md):

* Filter: a node with at least one NoSchedule or NoExecute taint that no toleration of the pod
  tolerates is rejected with `UnschedulableAndUnresolvable` and the reason
  `node(s) had untolerated taint(s)`. (Older releases said
  `node(s) had untolerated taint {key: value}`, and before that
  `node(s) had taints that the pod didn't tolerate`; the newest code and its tests use the
  fixed text, which keeps the FitError histogram from splitting per taint.)
* PreScore: keeps the tolerations with an empty effect or PreferNoSchedule; never skips.
* Score: the number of the node's PreferNoSchedule taints that those tolerations do not tolerate
  (duplicate taints count twice, as upstream iterates `node.Spec.Taints`).
* NormalizeScore: `DefaultNormalizeScore(MaxNodeScore, reverse=true)`.

Why the shape differs from upstream: taints never change inside a ClusterState, so for one
tolerations tuple the answer for every node is computed once (numpy over a (node, taint) pair
table) and cached; a call then only indexes the cached arrays by the view.

The matching rules (`tolerates`, the taint table) are in `plugins/helper/taint.py`, shared with
NodeUnschedulable and PodTopologySpread; the memo is the cluster state's (state/derived.py).
"""
from __future__ import annotations

from typing import Hashable

import numpy as np

from podgroup_plan.config.defaults import gate_enabled
from podgroup_plan.framework.interface import (
    MAX_NODE_SCORE,
    CycleState,
    FilterPlugin,
    FilterVerdict,
    PreScorePlugin,
    ScorePlugin,
    StateKey,
    default_normalize_score,
)
from podgroup_plan.framework.status import SUCCESS, Code, Status
from podgroup_plan.model.objects import Pod, Toleration
from podgroup_plan.plugins.helper.taint import (  # noqa: F401  (re-exported for older imports)
    COMPARISON_OPERATORS_GATE,
    NO_EXECUTE,
    NO_SCHEDULE,
    PREFER_NO_SCHEDULE,
    TaintTable,
    parse_go_int,
    taint_table,
    tolerates,
    tolerations_tolerate,
    untolerated_per_node,
)
from podgroup_plan.state.derived import DerivedKey, Memo

# PreScore's tolerations (those with an empty or PreferNoSchedule effect), for Score.
PRE_SCORE_KEY: StateKey[tuple[Toleration, ...]] = StateKey("PreScoreTaintToleration")
# Per-node results by tolerations (taints never change inside a state).
_MEMO: DerivedKey[Memo] = DerivedKey("TaintToleration/byTolerations")
# Whether any node carries a PreferNoSchedule taint (the node table only).
_PREFER_NO_SCHEDULE_ANYWHERE: DerivedKey[bool] = DerivedKey("TaintToleration/preferNoScheduleAnywhere")

# Upstream ErrReasonNotMatch as the newest Filter returns it (see module docstring).
ERR_REASON_UNTOLERATED = "node(s) had untolerated taint(s)"

class TaintToleration(FilterPlugin, PreScorePlugin, ScorePlugin):
    """Upstream TaintToleration (Filter, PreScore, Score, NormalizeScore)."""

    name = "TaintToleration"
    node_local = True
    static = True

    def sign(self, pod: Pod) -> Hashable:
        return pod.tolerations

    # ----- shared -------------------------------------------------------------------------

    def _comparison_operators(self) -> bool:
        return gate_enabled(self.handle.feature_gates, COMPARISON_OPERATORS_GATE)

    def _table(self, state) -> TaintTable:
        return taint_table(state)

    def _untolerated_per_node(self, state, tolerations: tuple[Toleration, ...], effects: tuple[str, ...]) -> np.ndarray:
        return untolerated_per_node(state, self._table(state), tolerations, effects, self._comparison_operators())

    # ----- Filter -------------------------------------------------------------------------

    def _rejected_all(self, state, pod: Pod) -> np.ndarray:
        key = ("filter", pod.tolerations, self._comparison_operators())
        return state.memo(_MEMO).get(
            key, lambda: self._untolerated_per_node(state, pod.tolerations, (NO_SCHEDULE, NO_EXECUTE)) > 0
        )

    def filter(self, cs: CycleState, pod: Pod, state, view: np.ndarray) -> FilterVerdict:
        rejected = self._rejected_all(state, pod)[view]
        return FilterVerdict.reject_where(rejected, ERR_REASON_UNTOLERATED, Code.UNSCHEDULABLE_AND_UNRESOLVABLE)

    # ----- PreScore / Score ---------------------------------------------------------------

    def pre_score(self, cs: CycleState, pod: Pod, state, feasible: np.ndarray) -> Status:
        # getAllTolerationPreferNoSchedule: an empty effect matches every effect.
        cs.write(PRE_SCORE_KEY, tuple(t for t in pod.tolerations if t.effect in ("", PREFER_NO_SCHEDULE)))
        return SUCCESS

    def score(self, cs: CycleState, pod: Pod, state, feasible: np.ndarray) -> np.ndarray:
        tolerations = cs.read(PRE_SCORE_KEY)
        if tolerations is None:  # PreScore disabled: same filtering on the fly
            tolerations = tuple(t for t in pod.tolerations if t.effect in ("", PREFER_NO_SCHEDULE))
        key = ("score", tolerations, self._comparison_operators())
        counts = state.memo(_MEMO).get(
            key, lambda: self._untolerated_per_node(state, tolerations, (PREFER_NO_SCHEDULE,))
        )
        return counts[feasible]

    def normalize(self, cs: CycleState, pod: Pod, scores: np.ndarray) -> np.ndarray:
        return default_normalize_score(scores, reverse=True)

    def uniform_score(self, cs: CycleState, pod: Pod, state) -> int | None:
        """MaxNodeScore when no node has a PreferNoSchedule taint the pod's PreScore
        tolerations leave untolerated: every raw score is then 0, which the reverse
        normalisation turns into MaxNodeScore on every node (the usual case: few clusters use
        PreferNoSchedule). None otherwise, or when PreScore did not run."""
        tolerations = cs.read(PRE_SCORE_KEY)
        if tolerations is None:
            return None
        if not state.derived(_PREFER_NO_SCHEDULE_ANYWHERE, _prefer_no_schedule_anywhere):
            return MAX_NODE_SCORE
        key = ("scoredAnywhere", tolerations, self._comparison_operators())
        memo = state.memo(_MEMO)
        anywhere = memo.get(key)
        if anywhere is None:
            anywhere = bool(self._untolerated_per_node(state, tolerations, (PREFER_NO_SCHEDULE,)).any())
            memo.put(key, anywhere, 16)
        return None if anywhere else MAX_NODE_SCORE


def _prefer_no_schedule_anywhere(state) -> bool:
    return any(t.effect == PREFER_NO_SCHEDULE for t in taint_table(state).taints)
