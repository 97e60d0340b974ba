"""Taints and tolerations over all nodes, shared by TaintToleration, NodeUnschedulable,
PodTopologySpread (nodeTaintsPolicy) and the explanations.

Mirrors `pkg/scheduler/framework/plugins/helper/taint.go` and the v1 helpers it calls
(`Toleration.ToleratesTaint`, `TolerationsTolerateTaint` in `k8s.io/api/core/v1` and
`component-helpers/scheduling/corev1`): the matching rules live here once, and a pod's
tolerations are decided once per distinct taint of the cluster (`TaintTable`), then spread to
the nodes with a bincount.
"""
from __future__ import annotations

import re

import numpy as np

from podgroup_plan.model.objects import Taint, Toleration
from podgroup_plan.state.derived import DerivedKey

NO_SCHEDULE = "NoSchedule"
PREFER_NO_SCHEDULE = "PreferNoSchedule"
NO_EXECUTE = "NoExecute"


# Feature gate for the Gt/Lt toleration operators (KEP-5471, alpha in 1.35). Off unless the
# handle's gates turn it on: with the gate off upstream treats Gt/Lt as tolerating nothing.
COMPARISON_OPERATORS_GATE = "TaintTolerationComparisonOperators"

_GO_INT = re.compile(r"[+-]?[0-9]+\Z")
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


def parse_go_int(text: str) -> int | None:
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
        want = parse_go_int(tol.value)
        have = parse_go_int(taint.value)
        if want is None or have is None:
            return False
        return have > want if op == "Gt" else have < want
    return False


def tolerations_tolerate(tolerations: tuple[Toleration, ...], taint: Taint, comparison_operators: bool = False) -> bool:
    """v1 helper `TolerationsTolerateTaint`: any toleration tolerates the taint."""
    return any(tolerates(t, taint, comparison_operators) for t in tolerations)


class TaintTable:
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
    state, table: TaintTable, tolerations: tuple[Toleration, ...], effects: tuple[str, ...],
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


TAINT_TABLE: "DerivedKey[TaintTable]" = DerivedKey("helper/taintTable")


def taint_table(state) -> TaintTable:
    """The state's taint table, built once (taints never change inside a state)."""
    return state.derived(TAINT_TABLE, lambda s: TaintTable(s.nodes))
