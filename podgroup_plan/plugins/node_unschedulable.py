"""NodeUnschedulable: rejects nodes with `spec.unschedulable: true` (cordoned).

Mirrors `pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go` (Filter only):
a cordoned node is rejected with `UnschedulableAndUnresolvable`, reason
`node(s) were unschedulable` (ErrReasonUnschedulable), unless the pod tolerates the taint
`{key: node.kubernetes.io/unschedulable, effect: NoSchedule}` (empty value), checked with the v1
helper TolerationsTolerateTaint. Unresolvable because evicting pods never uncordons a node.

The cordon column is built once per ClusterState; whether a pod tolerates the cordon depends
only on its tolerations, so a call is one indexing of a cached boolean array.
"""
from __future__ import annotations

from typing import Any, Hashable

import numpy as np

from podgroup_plan.config.defaults import gate_enabled
from podgroup_plan.framework.interface import CycleState, FilterPlugin, FilterVerdict
from podgroup_plan.framework.status import Code
from podgroup_plan.model.objects import Pod, Taint
from podgroup_plan.plugins.helper.taint import COMPARISON_OPERATORS_GATE, NO_SCHEDULE, tolerations_tolerate
from podgroup_plan.state.derived import DerivedKey, Memo

ERR_REASON_UNSCHEDULABLE = "node(s) were unschedulable"
TAINT_NODE_UNSCHEDULABLE = "node.kubernetes.io/unschedulable"

_UNSCHEDULABLE_TAINT = Taint(key=TAINT_NODE_UNSCHEDULABLE, value="", effect=NO_SCHEDULE)

# The cordon column (node table) and whether any node is cordoned.
_CORDONED: DerivedKey[tuple[np.ndarray, bool]] = DerivedKey("NodeUnschedulable/cordoned")


def _cordon_column(state) -> tuple[np.ndarray, bool]:
    cordoned = np.fromiter((n.unschedulable for n in state.nodes), dtype=bool, count=state.n)
    return cordoned, bool(cordoned.any())


class NodeUnschedulable(FilterPlugin):
    """Upstream NodeUnschedulable (Filter)."""

    name = "NodeUnschedulable"
    node_local = True
    static = True

    def sign(self, pod: Pod) -> Hashable:
        return pod.tolerations  # whether they tolerate the unschedulable taint

    def __init__(self, args: Any = None, handle=None):
        super().__init__(args, handle)
        # whether tolerations tolerate the cordon: no state involved, one answer per input
        self._tolerated = Memo()

    def filter(self, cs: CycleState, pod: Pod, state, view: np.ndarray) -> FilterVerdict:
        cordoned, any_cordoned = state.derived(_CORDONED, _cordon_column)
        if not any_cordoned:
            return FilterVerdict.all_pass(len(view))
        gate = gate_enabled(self.handle.feature_gates, COMPARISON_OPERATORS_GATE)
        tolerated = self._tolerated.get(
            (pod.tolerations, gate), lambda: tolerations_tolerate(pod.tolerations, _UNSCHEDULABLE_TAINT, gate)
        )
        if tolerated:
            return FilterVerdict.all_pass(len(view))
        return FilterVerdict.reject_where(
            cordoned[view], ERR_REASON_UNSCHEDULABLE, Code.UNSCHEDULABLE_AND_UNRESOLVABLE
        )
