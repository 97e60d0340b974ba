"""Nominated pods: where preemption promised room, and Filter that respects the promise.

Mirrors the scheduling queue's PodNominator (`pkg/scheduler/backend/queue/nominator.go`) and the
framework's RunFilterPluginsWithNominatedPods / addGENominatedPods
(`pkg/scheduler/framework/runtime/framework.go`): a node holding nominated pods of equal or
higher priority than the pod being filtered is filtered twice, once with those pods added
(the pod must fit beside them) and, if that passes, once without them (the pod must not rely on
them, e.g. for pod affinity). The reasons of the first failing pass are the node's.

Nominations are the plan's own ledger beside the cluster: they change only when a preemption
nominates, a pod binds or a failure clears them, never inside a trial, so no rollback can leave
them stale. A nominated pod that is placed in the cluster (bound, or assumed by the running
trial) is not added a second time.
"""
from __future__ import annotations

from typing import Iterable

import numpy as np

from podgroup_plan.framework.interface import CycleState
from podgroup_plan.framework.runtime import Diagnosis, Framework
from podgroup_plan.model.objects import Pod
from podgroup_plan.state.cluster import ClusterState, PodKey


class Nominator:
    def __init__(self) -> None:
        self._node_of: dict[PodKey, tuple[Pod, int]] = {}
        self._on_node: dict[int, dict[PodKey, Pod]] = {}

    def __bool__(self) -> bool:
        return bool(self._node_of)

    def nominate(self, pod: Pod, node: int) -> None:
        self.clear(pod)
        self._node_of[pod.key] = (pod, node)
        self._on_node.setdefault(node, {})[pod.key] = pod

    def clear(self, pod: Pod) -> None:
        got = self._node_of.pop(pod.key, None)
        if got is not None:
            on = self._on_node[got[1]]
            del on[pod.key]
            if not on:
                del self._on_node[got[1]]

    def node_of(self, pod: Pod) -> int | None:
        got = self._node_of.get(pod.key)
        return None if got is None else got[1]

    def pods_on(self, node: int) -> list[Pod]:
        on = self._on_node.get(node)
        return [on[k] for k in sorted(on)] if on else []

    def lower_priority_on(self, node: int, priority: int) -> list[Pod]:
        return [p for p in self.pods_on(node) if p.priority < priority]

    def relevant(self, pod: Pod, state: ClusterState, rows: np.ndarray) -> dict[int, list[Pod]]:
        """Nominated pods that count when `pod` is filtered on `rows`: priority >= the pod's,
        not the pod itself, not already placed."""
        out: dict[int, list[Pod]] = {}
        if not self._on_node:
            return out
        # views are ascending node rows; nominations are few
        for node in sorted(r for r in self._on_node if _contains(rows, r)):
            pods = [p for p in self.pods_on(node)
                    if p.priority >= pod.priority and p.key != pod.key and state.node_of(p) is None]
            if pods:
                out[node] = pods
        return out


def _contains(sorted_rows: np.ndarray, row: int) -> bool:
    pos = int(np.searchsorted(sorted_rows, row))
    return pos < len(sorted_rows) and int(sorted_rows[pos]) == row


def filter_with_nominated(
    fwk: Framework, cs: CycleState, pod: Pod, state: ClusterState, view: np.ndarray, diagnosis: Diagnosis,
) -> np.ndarray:
    """`Framework.run_filter` over `view` with the nominated pods of `fwk.nominator` counted as
    upstream counts them. Same contract: a pass mask over `view`, reasons in `diagnosis`."""
    nominator: Nominator | None = getattr(fwk, "nominator", None)
    nominated = nominator.relevant(pod, state, view) if nominator else {}
    if not nominated:
        return fwk.run_filter(cs, pod, state, view, diagnosis)
    special_mask = np.isin(view, np.fromiter(nominated, dtype=np.intp, count=len(nominated)))
    plain, special = view[~special_mask], view[special_mask]
    passed = np.zeros(len(view), dtype=bool)
    codes = np.zeros(len(view), dtype=np.int8)
    if len(plain):
        passed[~special_mask] = fwk.run_filter(cs, pod, state, plain, diagnosis)
        codes[~special_mask] = diagnosis.node_codes

    # First pass: with the nominated pods added to their nodes (and to PreFilter's state).
    with_nominated = Diagnosis()
    with state.tentative():
        for node in special.tolist():
            for other in nominated[node]:
                state.assume(other, node)
        cs2 = CycleState()
        status, _, _ = fwk.run_pre_filter(cs2, pod, state, special)
        if status.is_success():
            ok = fwk.run_filter(cs2, pod, state, special, with_nominated)
            special_codes = with_nominated.node_codes.copy()
        else:
            ok = np.zeros(len(special), dtype=bool)
            with_nominated.add(status.message, len(special))
            with_nominated.unschedulable_plugins.add(status.plugin)
            special_codes = np.full(len(special), int(status.code), dtype=np.int8)
    # Second pass: the nodes that passed, without them.
    again = special[ok]
    if len(again):
        without = Diagnosis()
        ok_again = fwk.run_filter(cs, pod, state, again, without)
        _merge(with_nominated, without)
        idx = np.flatnonzero(ok)
        special_codes[idx] = without.node_codes
        ok[idx] = ok_again
    _merge(diagnosis, with_nominated)
    passed[special_mask] = ok
    codes[special_mask] = special_codes
    diagnosis.node_codes = codes
    return passed


def _merge(into: Diagnosis, other: Diagnosis) -> None:
    for reason, count in other.reasons.items():
        into.add(reason, count)
    into.unschedulable_plugins |= other.unschedulable_plugins


def seed(nominator: Nominator, pods: Iterable[Pod], state: ClusterState) -> None:
    """Pending pods whose input carries `status.nominatedNodeName` start nominated there."""
    for pod in pods:
        if pod.nominated_node_name:
            row = state.node_index.get(pod.nominated_node_name)
            if row is not None:
                nominator.nominate(pod, row)

