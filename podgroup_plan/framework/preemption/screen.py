"""DefaultPreemption's dry run, screened over the usage columns before any per-pod work.

kube-scheduler v1.37.0 (`pkg/scheduler/framework/preemption/preemption.go` DryRunPreemption,
`plugins/defaultpreemption/default_preemption.go` SelectVictimsOnNode) visits the candidate
nodes one by one: a node with no victim unit of lower priority than the preemptor answers
UnschedulableAndUnresolvable "No preemption victims found for incoming pod" at once; on any
other node every such unit is removed and Filter runs again; only a node where the preemptor
then fits goes on to the reprieve. The planner answers the first two questions for every
candidate at once, from the per-priority usage sums of `usage.py`:

* `no_victims`: the node holds no pod whose victim-unit priority is below the preemptor's
  (one array of pod counts per priority level, summed);
* `too_small`: with every such pod gone, NodeResourcesFit still rejects the preemptor (pod
  count, or a request above allocatable minus what stays). This is a necessary condition only:
  Filter with nominated pods adds pods, never removes any, and the other filters can only
  reject more; so a node it marks would fail SelectVictimsOnNode's first Filter too.

Only the remaining nodes get SelectVictimsOnNode, in node order, until the dry run has its
candidates; the candidates, and so the victims and the nomination, are the ones the node-by-node
search finds, since a screened-out node is never a candidate. What the screened-out nodes would
have said matters only when no node is a candidate (the FitError message counts every node's
reasons): `no_victims` nodes say the fixed text, and `too_small` nodes' reasons come from one
Filter run over all of them with their lower-priority usage shifted off the columns, which is
exact when the preemptor reads only columns (`framework/columns.py`; the removal on one node
then cannot change its verdict on another); otherwise each gets SelectVictimsOnNode (`None`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Sequence, runtime_checkable

import numpy as np

from podgroup_plan.framework.filter_nominated import filter_with_nominated
from podgroup_plan.framework.interface import CycleState
from podgroup_plan.framework.preemption.common import PreemptionContext, column_only
from podgroup_plan.framework.preemption.usage import priority_usage
from podgroup_plan.framework.runtime import Diagnosis, Framework
from podgroup_plan.framework.status import Code
from podgroup_plan.model.objects import Pod
from podgroup_plan.state.cluster import ClusterState

RESOURCES_FIT = "NodeResourcesFit"


class FitRequest(Protocol):
    """What NodeResourcesFit's PreFilter asks for: the state's resource rows it checks and the
    pod's amount of each."""

    rows: Sequence[int]
    amounts: Sequence[int]


@runtime_checkable
class ResourceFit(Protocol):
    """The part of NodeResourcesFit the screen reads (the framework knows no plugin class)."""

    def fit_request(self, pod: Pod, state: ClusterState) -> FitRequest: ...
# Off: every candidate node gets SelectVictimsOnNode (the equivalence tests compare both ways).
ENABLED = True


@dataclass
class Screen:
    """Over the candidate nodes (`nodes`, ascending): which need no victim search."""

    nodes: np.ndarray
    no_victims: np.ndarray  # bool: no lower-priority pod on the node
    too_small: np.ndarray  # bool: not no_victims, and the pod cannot fit even with them all gone

    @property
    def searched(self) -> np.ndarray:
        """The nodes SelectVictimsOnNode must visit, in order."""
        return self.nodes[~(self.no_victims | self.too_small)]


def screen(fwk: Framework, ctx: PreemptionContext, pod: Pod, state: ClusterState, nodes: np.ndarray) -> Screen:
    usage = priority_usage(state, ctx.hierarchy.priority_of)
    none = np.zeros(len(nodes), dtype=bool)
    if not usage.any_below(pod.priority):  # nothing in the cluster may be evicted by this pod
        return Screen(nodes, ~none, none)
    fit = fwk.plugin(RESOURCES_FIT) if any(p.name == RESOURCES_FIT for p in fwk.filter) else None
    # fit_request first: it may add a resource row to the state that the sums then include
    req = fit.fit_request(pod, state) if isinstance(fit, ResourceFit) else None
    requested, _, count, _ = usage.below(pod.priority)
    freed = count[nodes]
    no_victims = freed == 0
    if req is None:
        return Screen(nodes, no_victims, none)
    short = state.pod_count[nodes] - freed >= state.allowed_pods[nodes]
    for row, amount in zip(req.rows, req.amounts):
        stays = state.requested[row, nodes] - (requested[row, nodes] if row < len(requested) else 0)
        short |= amount > state.allocatable[row, nodes] - stays
    return Screen(nodes, no_victims, short & ~no_victims)


def reasons_after_removal(fwk: Framework, ctx: PreemptionContext, pod: Pod, state: ClusterState,
                          rows: np.ndarray) -> Diagnosis | None:
    """The reasons SelectVictimsOnNode's first Filter gives on each of `rows` (every
    lower-priority pod removed), counted per reason over the rows as the FitError counts them;
    None when that cannot be had exactly from one run (the preemptor reads more than the
    columns, PreFilter narrows or fails, a node passes, or a filter errs)."""
    if not len(rows) or not column_only(ctx, pod, fwk):
        return None if len(rows) else Diagnosis()
    usage = priority_usage(state, ctx.hierarchy.priority_of)
    requested, non_zero, count, _ = usage.below(pod.priority)
    diagnosis = Diagnosis()
    with state.tentative():
        state.shift_usage(rows, -requested[:, rows], -non_zero[:, rows], -count[rows])
        cs = CycleState()
        status, allowed, _ = fwk.run_pre_filter(cs, pod, state, rows)
        if not status.is_success() or allowed is not None:
            return None
        passed = filter_with_nominated(fwk, cs, pod, state, rows, diagnosis)
    if passed.any() or diagnosis.node_codes is None or (diagnosis.node_codes == int(Code.ERROR)).any():
        return None
    return diagnosis
