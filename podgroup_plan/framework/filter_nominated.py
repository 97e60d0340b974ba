"""RunFilterPluginsWithNominatedPods: Filter that respects the nominator's promises.

Mirrors the framework's RunFilterPluginsWithNominatedPods / addGENominatedPods
(`pkg/scheduler/framework/runtime/framework.go`): a node holding nominated pods of equal or
higher priority than the pod being filtered is filtered twice, once with those pods added (the
pod must fit beside them) and, if that passes, once without them (the pod must not rely on
them, e.g. for pod affinity). The reasons of the first failing pass are the node's. The
nominations themselves are `framework/nominator.py`'s.

Speed: when the pod being filtered and the nominated pods read and change only usage columns
(`framework/columns.py`), the nominated pods are added as one shift of those columns instead
of pod by pod, and PreFilter's state needs no refresh.
"""
from __future__ import annotations

import numpy as np

from podgroup_plan.framework.columns import pod_reads_columns_only
from podgroup_plan.framework.diagnosis import Diagnosis
from podgroup_plan.framework.interface import CycleState
from podgroup_plan.framework.nominator import Nominator, Relevant
from podgroup_plan.framework.runtime import Framework
from podgroup_plan.framework.status import Status
from podgroup_plan.model.objects import Pod
from podgroup_plan.state.cluster import ClusterState


def filter_with_nominated(
    fwk: Framework, cs: CycleState, pod: Pod, state: ClusterState, view: np.ndarray, diagnosis: Diagnosis,
) -> np.ndarray:
    """`Framework.run_filter` over `view` with the nominated pods of `fwk.nominator` counted as
    upstream counts them. Same contract: a pass mask over `view`, reasons in `diagnosis`."""
    nominator: Nominator | None = fwk.nominator
    if not nominator:
        return fwk.run_filter(cs, pod, state, view, diagnosis)
    nominated = nominator.relevant(pod, state, view)
    if not len(nominated):
        return fwk.run_filter(cs, pod, state, view, diagnosis)
    special_mask = np.isin(view, nominated.rows)
    plain, special = view[~special_mask], view[special_mask]
    passed = np.zeros(len(view), dtype=bool)
    codes = np.zeros(len(view), dtype=np.int8)
    if len(plain):
        passed[~special_mask] = fwk.run_filter(cs, pod, state, plain, diagnosis)
        assert diagnosis.node_codes is not None  # run_filter sets them
        codes[~special_mask] = diagnosis.node_codes

    # First pass: with the nominated pods added to their nodes (and to PreFilter's state).
    with_nominated = Diagnosis()
    on_columns = nominator.columns_only and pod_reads_columns_only(pod, fwk) and not _any_host_ports(nominated, special)
    with state.tentative():
        if on_columns:
            _shift_in(nominator, state, special, nominated)
            status, cs2 = Status(), cs
        else:
            for node in special.tolist():
                for other in nominated.pods(node):
                    state.assume(other, node)
            cs2 = CycleState()
            status, _, _ = fwk.run_pre_filter(cs2, pod, state, special)
        if status.is_success():
            ok = fwk.run_filter(cs2, pod, state, special, with_nominated, fresh=on_columns)
            assert with_nominated.node_codes is not None
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


def _any_host_ports(nominated: Relevant, special: np.ndarray) -> bool:
    if not nominated.nominator._any_ports():
        return False
    return any(p.host_ports for node in special.tolist() for p in nominated.pods(node))


def _shift_in(nominator: Nominator, state: ClusterState, special: np.ndarray, nominated: Relevant) -> None:
    """Add the nominated pods' usage to their nodes' columns (inside the caller's checkpoint)."""
    requested = nominator.requested[: len(state.resource_names), special].copy()
    non_zero = nominator.non_zero[:, special].copy()
    count = nominator.count[special].copy()
    if nominated.partial:
        position = {node: i for i, node in enumerate(special.tolist())}
        for node, pods in nominated.partial.items():
            i = position.get(node)
            if i is None:
                continue
            requested[:, i] = 0
            non_zero[:, i] = 0
            count[i] = len(pods)
            for p in pods:
                vec = state.request_vector(p)
                requested[: len(vec), i] += vec
                non_zero[0, i] += p.non_zero_cpu
                non_zero[1, i] += p.non_zero_memory
    state.shift_usage(special, requested, non_zero, count, touch=False)


def _merge(into: Diagnosis, other: Diagnosis) -> None:
    for reason, count in other.reasons.items():
        into.add(reason, count)
    into.unschedulable_plugins |= other.unschedulable_plugins
