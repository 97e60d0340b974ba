"""The single-pod algorithm every group algorithm calls (no PostFilter here).

Mirrors `pkg/scheduler/schedule_one.go` (schedulePod, findNodesThatFitPod, numFeasibleNodesToFind,
prioritizeNodes, selectHost) and the FitError message of `framework/types.go`.
Deviation: ties between top-scored nodes go to the node whose name sorts first, not a random
one (README, "Deviations from kube-scheduler").
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from podgroup_plan.framework.diagnosis import Diagnosis, fit_error_message
from podgroup_plan.framework.filter_nominated import filter_with_nominated
from podgroup_plan.framework.interface import CycleState
from podgroup_plan.framework.runtime import Framework
from podgroup_plan.framework.status import Code, Status
from podgroup_plan.model.objects import Pod
from podgroup_plan.state.cluster import ClusterState

NO_NODES_AVAILABLE = "no nodes available to schedule pods"
MIN_FEASIBLE_NODES_TO_FIND = 100
MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5


@dataclass(slots=True)
class PodScheduleResult:
    pod: Pod
    node: int | None  # chosen node row, None when the pod does not fit
    status: Status  # Success, or Unschedulable/UnschedulableAndUnresolvable with the message
    diagnosis: Diagnosis | None = None
    view: np.ndarray | None = None  # the nodes considered (for preemption)
    # the feasible nodes that were scored (after percentageOfNodesToScore), for `explain`
    feasible: np.ndarray | None = None
    sampled: bool = False  # percentageOfNodesToScore left feasible nodes out

    @property
    def fits(self) -> bool:
        return self.node is not None

    @property
    def message(self) -> str:
        return self.status.message


def num_feasible_nodes_to_find(percentage: int | None, num_all_nodes: int) -> int:
    """upstream numFeasibleNodesToFind; None (unset) means every node (our deviation)."""
    if percentage is None or num_all_nodes < MIN_FEASIBLE_NODES_TO_FIND:
        return num_all_nodes
    pct = percentage
    if pct == 0:
        pct = max(50 - num_all_nodes // 125, MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND)
    if pct >= 100:
        return num_all_nodes
    return max(num_all_nodes * pct // 100, MIN_FEASIBLE_NODES_TO_FIND)


def schedule_pod(fwk: Framework, pod: Pod, state: ClusterState, view: np.ndarray | None = None) -> PodScheduleResult:
    """Filter and score `pod` over `view` (default: every node) and pick a host."""
    if view is None:
        view = state.all_nodes
    result = _schedule_pod(fwk, pod, state, view)
    tracer = fwk.observer
    if tracer is not None and tracer.wants(pod):
        # `explain`: the same plugins asked about the same state, before anything is assumed.
        tracer.pod_cycle(fwk, pod, state, view, result)
    return result


def _schedule_pod(fwk: Framework, pod: Pod, state: ClusterState, view: np.ndarray) -> PodScheduleResult:
    num_all = len(view)
    if num_all == 0:
        return PodScheduleResult(pod, None, Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, (NO_NODES_AVAILABLE,)))
    cs = CycleState()
    diagnosis = Diagnosis()

    status, allowed, narrowing = fwk.run_pre_filter(cs, pod, state, view)
    if not status.is_success():
        if status.code == Code.ERROR:
            return PodScheduleResult(pod, None, status, diagnosis, view)
        diagnosis.pre_filter_msg = status.message
        diagnosis.node_codes = np.full(num_all, int(status.code), dtype=np.int8)
        diagnosis.unschedulable_plugins.update(narrowing or [status.plugin])
        return _unfit(pod, num_all, diagnosis, view)

    candidates = view
    absent = 0
    if allowed is not None:
        # PreFilter named the only nodes worth filtering; names not in the cluster are dropped
        rows = np.array(sorted(state.node_index[n] for n in allowed if n in state.node_index), dtype=np.intp)
        candidates = view[np.isin(view, rows)]
        absent = num_all - len(candidates)

    # A nominated node (set by an earlier preemption) that passes Filter is taken directly.
    nominated = _nominated_row(fwk, pod, state, candidates)
    if nominated is not None:
        one = np.array([nominated], dtype=np.intp)
        nominated_diag = Diagnosis()
        if filter_with_nominated(fwk, cs, pod, state, one, nominated_diag)[0]:
            return PodScheduleResult(pod, nominated, Status(), diagnosis, view)

    passed = filter_with_nominated(fwk, cs, pod, state, candidates, diagnosis)
    if absent:
        diagnosis.add(f"node(s) didn't satisfy plugin(s) [{' '.join(sorted(narrowing))}]", absent)
        codes = np.full(num_all, int(Code.UNSCHEDULABLE_AND_UNRESOLVABLE), dtype=np.int8)
        assert diagnosis.node_codes is not None  # set by the filter run
        codes[np.searchsorted(view, candidates)] = diagnosis.node_codes
        diagnosis.node_codes = codes
    feasible, sampled = _sample(fwk, candidates, passed, candidates is state.all_nodes)
    if len(feasible) == 0:
        return _unfit(pod, num_all, diagnosis, view)
    if len(feasible) == 1:
        return PodScheduleResult(pod, int(feasible[0]), Status(), diagnosis, view, feasible, sampled)
    status, skipped = fwk.run_pre_score(cs, pod, state, feasible)
    if not status.is_success():  # prioritizeNodes' error: the cycle ends without a host
        return PodScheduleResult(pod, None, status, diagnosis, view, feasible, sampled)
    totals = fwk.run_score(cs, pod, state, feasible, skipped)
    # argmax returns the first maximum; feasible is in node-name order, so ties go to the
    # node whose name sorts first (deviation from upstream's random tie-break).
    return PodScheduleResult(pod, int(feasible[totals.argmax()]), Status(), diagnosis, view,
                             feasible, sampled)


def _unfit(pod: Pod, num_all: int, diagnosis: Diagnosis, view: np.ndarray) -> PodScheduleResult:
    msg = fit_error_message(num_all, diagnosis)
    return PodScheduleResult(pod, None, Status(Code.UNSCHEDULABLE, (msg,)), diagnosis, view)


def _nominated_row(fwk: Framework, pod: Pod, state: ClusterState, candidates: np.ndarray) -> int | None:
    """The pod's nominated node among `candidates`: the plan's nomination when a nominator
    is attached, else `status.nominatedNodeName` from the input."""
    nominator = fwk.nominator
    if nominator is not None:
        row = nominator.node_of(pod)
    else:
        row = state.node_index.get(pod.nominated_node_name) if pod.nominated_node_name else None
    if row is None:
        return None
    pos = int(np.searchsorted(candidates, row))
    if pos < len(candidates) and candidates[pos] == row:
        return row
    return None


def _sample(fwk: Framework, candidates: np.ndarray, passed: np.ndarray, every: bool = False) -> tuple[np.ndarray, bool]:
    """Apply percentageOfNodesToScore: take the first `k` feasible nodes starting at the
    rotating start index, then advance the index by the nodes processed (upstream). Returns
    them with whether feasible nodes were left out. `every`: the candidates are every node
    (row i at position i)."""
    n = len(candidates)
    k = num_feasible_nodes_to_find(fwk.profile.percentage_of_nodes_to_score, n)
    if k >= n:
        # every feasible node is scored (positions are rows when the candidates are every
        # node: flatnonzero is several times cheaper than a boolean selection)
        return (np.flatnonzero(passed) if every else candidates[passed]), False
    start = fwk.next_start_node_index % n
    order = np.concatenate([np.arange(start, n), np.arange(0, start)])
    hits = order[passed[order]]
    if len(hits) <= k:
        processed = n
        chosen = hits
    else:
        chosen = hits[:k]
        processed = (int(chosen[-1]) - start) % n + 1  # position of the last chosen node in `order`
    fwk.next_start_node_index = (start + processed) % n
    return candidates[np.sort(chosen)], len(chosen) < len(hits)
