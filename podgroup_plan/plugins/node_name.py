"""NodeName: a pod that names a node (`spec.nodeName`) fits only that node.

Mirrors `pkg/scheduler/framework/plugins/nodename/node_name.go` (newest: PreFilter + Filter):

* PreFilter: when the pod names a node, narrow the cycle to exactly that node name
  (`PreFilterResult{NodeNames: {nodeName}}`); otherwise no narrowing.
* Filter: `len(pod.Spec.NodeName) == 0 || pod.Spec.NodeName == node.Name`, else
  `UnschedulableAndUnresolvable` with `node(s) didn't match the requested node name`
  (ErrReason). Unresolvable: preemption can never change a node's name.

Pending pods in a plan have no nodeName (that is what makes them pending), so in practice this
plugin passes everything; it is kept for fidelity with configurations that list it.
"""
from __future__ import annotations

from typing import Hashable

import numpy as np

from podgroup_plan.framework.interface import (
    CycleState,
    FilterPlugin,
    FilterVerdict,
    PreFilterPlugin,
    PreFilterResult,
)
from podgroup_plan.framework.status import Code
from podgroup_plan.model.objects import Pod

ERR_REASON = "node(s) didn't match the requested node name"


class NodeName(PreFilterPlugin, FilterPlugin):
    """Upstream NodeName (PreFilter, Filter)."""

    name = "NodeName"
    node_local = True
    static = True

    def sign(self, pod: Pod) -> Hashable:
        return pod.node_name

    def pre_filter(self, cs: CycleState, pod: Pod, state, view: np.ndarray) -> PreFilterResult:
        if pod.node_name:
            return PreFilterResult(node_names=frozenset({pod.node_name}))
        return PreFilterResult()

    def filter(self, cs: CycleState, pod: Pod, state, view: np.ndarray) -> FilterVerdict:
        if not pod.node_name:
            return FilterVerdict.all_pass(len(view))
        row = state.node_index.get(pod.node_name, -1)
        return FilterVerdict.reject_where(view != row, ERR_REASON, Code.UNSCHEDULABLE_AND_UNRESOLVABLE)
