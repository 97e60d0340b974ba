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

This module also holds `tolerates` (v1 helper `Toleration.ToleratesTaint`) and `PerStateCache`,
shared by the other static-filter plugins.
"""
from __future__ import annotations

import re
import weakref
from collections import OrderedDict
from typing import Any, Callable, Hashable

import numpy as np

from podgroup_plan.framework.interface import (
    CycleState,
    FilterPlugin,
    FilterVerdict,
    PreScorePlugin,
    ScorePlugin,
    default_normalize_score,
)
from podgroup_plan.framework.status import SUCCESS, Code, Status
from podgroup_plan.model.objects import Pod, Taint, Toleration

NO_SCHEDULE = "NoSchedule"
PREFER_NO_SCHEDULE = "PreferNoSchedule"
NO_EXECUTE = "NoExecute"

# Upstream ErrReasonNotMatch as the newest Filter returns it (see module docstring).
ERR_REASON_UNTOLERATED = "node(s) had untolerated taint(s)"

# Feature gate for the Gt/Lt toleration operators (KEP-5471, alpha in 1.35). Off unless the
# handle's gates turn it on: with the gate off upstream treats Gt/Lt as tolerating nothing.
COMPARISON_OPERATORS_GATE = "TaintTolerationComparisonOperators"

_GO_INT = re.compile(r"[+-]?[0-9]+\Z")
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


def _parse_go_int(text: str) -> int | None:
    """strconv.ParseInt(text, 10, 64): optional sign, decimal digits, int64 range."""
    if not _GO_INT.match(text):
        return None
    value = int(text)
    return value if _INT64_MIN <= value <= _INT64_MAX else None


def tolerates(tol: Toleration, taint: Taint, comparison_operators: bool = False) -> bool:
    """v1 `Toleration.ToleratesTaint`: effect (empty matches all), key (empty matches all),
    then the operator. An empty operator means Equal; an unknown operator tolerates nothing.
    The one place tolerations are matched (NodeUnschedulable and PodTopologySpread use it too)."""
    if tol.effect and tol.effect != taint.effect:
        return False
    if tol.key and tol.key != taint.key:
        return False
    op = tol.operator
    if op in ("", "Equal"):
        return tol.value == taint.value
    if op == "Exists":
        return True
    if op in ("Gt", "Lt") and comparison_operators:
        want = _parse_go_int(tol.value)
        have = _parse_go_int(taint.value)
        if want is None or have is None:
            return False
        return have > want if op == "Gt" else have < want
    return False


def tolerations_tolerate(tolerations: tuple[Toleration, ...], taint: Taint, comparison_operators: bool = False) -> bool:
    """v1 helper `TolerationsTolerateTaint`: any toleration tolerates the taint."""
    return any(tolerates(t, taint, comparison_operators) for t in tolerations)


class PerStateCache:
    """Results that depend only on a pod signature and on the nodes of one ClusterState.

    Nodes (labels, taints, images, unschedulable) never change inside a ClusterState, so a
    result computed for all nodes stays valid for the state's life. The cache belongs to one
    state at a time (held by weak reference) and empties itself when a plugin instance is used
    with another state. Per-signature entries are LRU-bounded; `state_data` entries (encodings
    of the node table) are not evicted.
    """

    def __init__(self, maxsize: int = 4096):
        self.maxsize = maxsize
        self._owner: weakref.ref | None = None
        self._entries: OrderedDict[Hashable, Any] = OrderedDict()
        self._state_data: dict[str, Any] = {}

    def _bind(self, state: object) -> None:
        if self._owner is None or self._owner() is not state:
            self._entries.clear()
            self._state_data.clear()
            self._owner = weakref.ref(state)

    def get(self, state: object, key: Hashable, compute: Callable[[], Any]) -> Any:
        self._bind(state)
        try:
            value = self._entries[key]
        except KeyError:
            value = compute()
            self._entries[key] = value
            if len(self._entries) > self.maxsize:
                self._entries.popitem(last=False)
            return value
        self._entries.move_to_end(key)
        return value

    def state_data(self, state: object, name: str, compute: Callable[[], Any]) -> Any:
        self._bind(state)
        try:
            return self._state_data[name]
        except KeyError:
            value = self._state_data[name] = compute()
            return value


class _TaintTable:
    """Every (node, taint) pair of the state, with taints deduplicated: tolerating is decided
    once per distinct taint, then spread to nodes with bincount."""

    __slots__ = ("taints", "pair_node", "pair_taint", "effect")

    def __init__(self, nodes) -> None:
        ids: dict[Taint, int] = {}
        pair_node: list[int] = []
        pair_taint: list[int] = []
        for i, node in enumerate(nodes):
            for taint in node.taints:
                pair_node.append(i)
                pair_taint.append(ids.setdefault(taint, len(ids)))
        self.taints: tuple[Taint, ...] = tuple(ids)
        self.pair_node = np.asarray(pair_node, dtype=np.intp)
        self.pair_taint = np.asarray(pair_taint, dtype=np.intp)
        self.effect = np.asarray([t.effect for t in self.taints], dtype=object)


def untolerated_per_node(
    state, table: _TaintTable, tolerations: tuple[Toleration, ...], effects: tuple[str, ...],
    comparison_operators: bool = False,
) -> np.ndarray:
    """Count per node (all nodes) of taints with one of `effects` that `tolerations` do not
    tolerate (v1helper.TolerationsTolerateTaint per taint, once per distinct taint)."""
    bad = np.fromiter(
        (t.effect in effects and not tolerations_tolerate(tolerations, t, comparison_operators) for t in table.taints),
        dtype=bool,
        count=len(table.taints),
    )
    if not bad.any():
        return np.zeros(state.n, dtype=np.int64)
    pairs = bad[table.pair_taint]
    return np.bincount(table.pair_node[pairs], minlength=state.n).astype(np.int64)


def taint_table(state) -> _TaintTable:
    return _TaintTable(state.nodes)


class TaintToleration(FilterPlugin, PreScorePlugin, ScorePlugin):
    """Upstream TaintToleration (Filter, PreScore, Score, NormalizeScore)."""

    name = "TaintToleration"

    def __init__(self, args: Any = None, handle=None):
        super().__init__(args, handle)
        self._cache = PerStateCache()

    # ----- shared -------------------------------------------------------------------------

    def _comparison_operators(self) -> bool:
        return bool(self.handle.feature_gates.get(COMPARISON_OPERATORS_GATE, False))

    def _table(self, state) -> _TaintTable:
        return self._cache.state_data(state, "taints", lambda: _TaintTable(state.nodes))

    def _untolerated_per_node(self, state, tolerations: tuple[Toleration, ...], effects: tuple[str, ...]) -> np.ndarray:
        return untolerated_per_node(state, self._table(state), tolerations, effects, self._comparison_operators())

    # ----- Filter -------------------------------------------------------------------------

    def _rejected_all(self, state, pod: Pod) -> np.ndarray:
        key = ("filter", pod.tolerations, self._comparison_operators())
        return self._cache.get(
            state, key, lambda: self._untolerated_per_node(state, pod.tolerations, (NO_SCHEDULE, NO_EXECUTE)) > 0
        )

    def filter(self, cs: CycleState, pod: Pod, state, view: np.ndarray) -> FilterVerdict:
        rejected = self._rejected_all(state, pod)[view]
        return FilterVerdict.reject_where(rejected, ERR_REASON_UNTOLERATED, Code.UNSCHEDULABLE_AND_UNRESOLVABLE)

    # ----- PreScore / Score ---------------------------------------------------------------

    def pre_score(self, cs: CycleState, pod: Pod, state, feasible: np.ndarray) -> Status:
        # getAllTolerationPreferNoSchedule: an empty effect matches every effect.
        cs["PreScore" + self.name] = tuple(
            t for t in pod.tolerations if t.effect in ("", PREFER_NO_SCHEDULE)
        )
        return SUCCESS

    def score(self, cs: CycleState, pod: Pod, state, feasible: np.ndarray) -> np.ndarray:
        tolerations = cs.get("PreScore" + self.name)
        if tolerations is None:  # PreScore disabled: same filtering on the fly
            tolerations = tuple(t for t in pod.tolerations if t.effect in ("", PREFER_NO_SCHEDULE))
        key = ("score", tolerations, self._comparison_operators())
        counts = self._cache.get(
            state, key, lambda: self._untolerated_per_node(state, tolerations, (PREFER_NO_SCHEDULE,))
        )
        return counts[feasible]

    def normalize(self, cs: CycleState, pod: Pod, scores: np.ndarray) -> np.ndarray:
        return default_normalize_score(scores, reverse=True)
