"""`wouldFit`: what would make an unschedulable pod fit, computed from its recorded cycle.

Nothing here is guessed: each hint names nodes that a recorded cycle rejected for exactly one
reason, so removing that reason (more free resources, a toleration, no node selector) is
enough for that node to pass every Filter plugin. Feasibility after that still depends on
scoring and on the pods that come later in the plan; the hint says what blocks, not a promise.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from podgroup_plan.explain.trace import PodCycle
from podgroup_plan.model.objects import Pod
from podgroup_plan.plugins.helper.taint import tolerations_tolerate
from podgroup_plan.state.cluster import ClusterState

RESOURCES_PLUGIN = "NodeResourcesFit"
TAINTS_PLUGIN = "TaintToleration"
AFFINITY_PLUGIN = "NodeAffinity"
_BYTES = ("memory", "ephemeral-storage")
_BINARY = (("Ti", 1 << 40), ("Gi", 1 << 30), ("Mi", 1 << 20), ("Ki", 1 << 10))
# How many nodes a hint names (the rest are counted).
_NAMED = 3


def format_amount(resource: str, amount: int) -> str:
    """A resource amount as a person writes it: cpu in cores or millicores, bytes in the
    largest binary unit that divides them, everything else as a count."""
    if resource == "cpu":
        return str(amount // 1000) if amount % 1000 == 0 else f"{amount}m"
    if resource in _BYTES or resource.startswith("hugepages-"):
        for suffix, size in _BINARY:
            if amount and amount % size == 0:
                return f"{amount // size}{suffix}"
        return str(amount)
    return str(amount)


# Taints the node lifecycle controller and the kubelet set (unreachable, not-ready, unschedulable,
# memory-pressure, ...): a pod should not tolerate them to get scheduled; the node has to recover.
LIFECYCLE_TAINTS = "node.kubernetes.io/"


def _failing(cycle: PodCycle) -> np.ndarray:
    """How many Filter plugins rejected each node of the cycle (a node left out of a narrowed
    search counts one)."""
    failing = np.zeros(len(cycle.view), dtype=np.int32)
    for verdict in cycle.filters:
        failing += ~verdict.passed
    if cycle.narrowed_out is not None:
        failing += cycle.narrowed_out
    return failing


def would_fit(cycle: PodCycle, pod: Pod, state: ClusterState) -> list[dict[str, Any]]:
    """Hints for a cycle that placed nothing; when no node is one reason away, one hint that
    says why there is no hint (every node fails two or more plugins, with the commonest pairs)."""
    if cycle.node is not None or cycle.pre_filter_rejected or not cycle.filters:
        return []
    failing = _failing(cycle)
    hints: list[dict[str, Any]] = []
    for verdict in cycle.filters:
        only = np.flatnonzero(~verdict.passed & (failing == 1))
        if len(only) == 0:
            continue
        if verdict.plugin == RESOURCES_PLUGIN:
            hints.append(_resources_hint(cycle, state, only))
        elif verdict.plugin == TAINTS_PLUGIN:
            hints.append(_taints_hint(cycle, pod, state, only))
        elif verdict.plugin == AFFINITY_PLUGIN:
            hints.append(_plain_hint(cycle, state, only, verdict.plugin,
                                     "would pass without the pod's node selector and required node affinity"))
        else:
            reasons = sorted({r for i in only.tolist() for r in verdict.reasons[i]})
            hints.append(_plain_hint(cycle, state, only, verdict.plugin,
                                     f"fail only on {verdict.plugin} ({'; '.join(reasons)})"))
    return hints or [_no_hint(cycle, failing)]


def _no_hint(cycle: PodCycle, failing: np.ndarray) -> dict[str, Any]:
    """Why there is no hint: no node fails exactly one plugin, so no single change makes one pass."""
    combos: dict[str, int] = {}
    for i in np.flatnonzero(failing >= 2).tolist():
        names = " and ".join(v.plugin for v in cycle.filters if not v.passed[i])
        combos[names] = combos.get(names, 0) + 1
    common = sorted(combos.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
    listed = "; ".join(f"{n} node(s): {names}" for names, n in common)
    return {"text": "no hint: no node fails only one filter plugin, so no single change makes one pass"
                    + (f" ({listed})" if listed else "")}


def _names(cycle: PodCycle, state: ClusterState, positions) -> list[str]:
    return [state.node_names[int(cycle.view[i])] for i in positions]


def _plain_hint(cycle: PodCycle, state: ClusterState, only: np.ndarray, plugin: str, what: str) -> dict[str, Any]:
    names = _names(cycle, state, only.tolist())
    shown = ", ".join(names[:_NAMED]) + (f" and {len(names) - _NAMED} more" if len(names) > _NAMED else "")
    return {"plugin": plugin, "nodes": names,
            "text": f"{len(names)} node(s) {what}: {shown}"}


def _resources_hint(cycle: PodCycle, state: ClusterState, only: np.ndarray) -> dict[str, Any]:
    """The nodes short only of resources, closest first: fewest resources short, then the
    smallest shortfall as a share of the node's allocatable, then name."""
    rows = []
    for i in only.tolist():
        short: list[tuple[str, int, int, int]] = []  # (resource, missing, free, allocatable)
        share = 0.0
        for res, amount in cycle.requests.items():
            free = int(cycle.free[res][i])
            if amount > free:
                alloc = int(cycle.allocatable[res][i])
                short.append((res, amount - max(free, 0), max(free, 0), alloc))
                share += (amount - max(free, 0)) / alloc if alloc else float("inf")
        pods_full = cycle.pods_free is not None and int(cycle.pods_free[i]) <= 0
        rows.append((len(short) + pods_full, share, state.node_names[int(cycle.view[i])], short, pods_full))
    rows.sort(key=lambda r: (r[0], r[1], r[2]))
    nodes = []
    for _, _, name, short, pods_full in rows:
        nodes.append({
            "node": name,
            "short": {res: missing for res, missing, _, _ in short},
            "free": {res: free for res, _, free, _ in short},
            "allocatable": {res: alloc for res, _, _, alloc in short},
            "podSlotsFull": pods_full,
        })
    best = rows[0]
    parts = [f"needs {format_amount(res, missing)} {res} more; {best[2]} has "
             f"{format_amount(res, free)} of {format_amount(res, alloc)} free"
             for res, missing, free, alloc in best[3]]
    if best[4]:
        parts.append(f"{best[2]} already runs as many pods as it allows")
    text = " and ".join(parts) if parts else f"{best[2]} is short of resources"
    if len(rows) > 1:
        text += f" ({len(rows)} node(s) fail only on resources)"
    return {"plugin": RESOURCES_PLUGIN, "nodes": [r["node"] for r in nodes], "text": text,
            "closest": nodes[:_NAMED]}


def _taints_hint(cycle: PodCycle, pod: Pod, state: ClusterState, only: np.ndarray) -> dict[str, Any]:
    """The taints that the pod does not tolerate on the nodes rejected only for taints."""
    taints: dict[str, int] = {}
    lifecycle: dict[str, int] = {}
    for i in only.tolist():
        node = state.nodes[int(cycle.view[i])]
        for taint in node.taints:
            if taint.effect not in ("NoSchedule", "NoExecute"):
                continue
            if tolerations_tolerate(pod.tolerations, taint, cycle.comparison_operators):
                continue
            text = f"{taint.key}={taint.value}:{taint.effect}" if taint.value else f"{taint.key}:{taint.effect}"
            # never suggest tolerating a lifecycle taint: the node is unreachable, not ready, ...
            into = lifecycle if taint.key.startswith(LIFECYCLE_TAINTS) else taints
            into[text] = into.get(text, 0) + 1
    names = _names(cycle, state, only.tolist())
    parts = []
    if taints:
        listed = ", ".join(f"{t} ({c} node(s))" for t, c in sorted(taints.items()))
        parts.append(f"would pass if the pod tolerated {listed}")
    if lifecycle:
        listed = ", ".join(f"{t} ({c} node(s))" for t, c in sorted(lifecycle.items()))
        parts.append(f"are held by node lifecycle taints ({listed}): the node must recover "
                     f"(tolerating them would schedule onto a node that cannot run the pod)")
    return {"plugin": TAINTS_PLUGIN, "nodes": names, "taints": sorted(taints),
            "text": f"{len(names)} node(s) " + "; others ".join(parts)}


def gang_hint(cycle: PodCycle, state: ClusterState, unplaced: int) -> dict[str, Any] | None:
    """What a gang lacks, over the gang: `unplaced` more pods shaped like the cycle's pod. Counts
    how many such pods the nodes that pass every other plugin hold now (free resources) and could
    hold at most (allocatable), so the answer is 'free room for N pods on these nodes' or 'no set
    of nodes can hold them'. None when the cycle's pod asks for no resource."""
    requests = {res: amount for res, amount in cycle.requests.items() if amount > 0}
    if not requests or unplaced <= 0:
        return None
    others = np.zeros(len(cycle.view), dtype=np.int32)  # rejections other than resources
    for verdict in cycle.filters:
        if verdict.plugin != RESOURCES_PLUGIN:
            others += ~verdict.passed
    if cycle.narrowed_out is not None:
        others += cycle.narrowed_out
    room_now = room_max = 0
    holders = []
    for i in np.flatnonzero(others == 0).tolist():
        now = min(max(int(cycle.free[res][i]), 0) // amount for res, amount in requests.items())
        most = min(int(cycle.allocatable[res][i]) // amount for res, amount in requests.items())
        if cycle.pods_free is not None:
            now = min(now, max(int(cycle.pods_free[i]), 0))
        room_now += now
        room_max += most
        if most:
            holders.append(i)
    shape = " and ".join(f"{format_amount(res, amount)} {res}" for res, amount in sorted(requests.items()))
    eligible = int((others == 0).sum())
    head = f"the gang has {unplaced} pod(s) left to place, each asking {shape}"
    if room_max < unplaced:
        text = (f"{head}: even empty, the {eligible} node(s) that pass every other filter could hold only "
                f"{room_max} such pod(s) ({len(holders)} node(s) large enough); the gang needs more or "
                f"larger nodes (or a smaller gang)")
    else:
        text = (f"{head}: the {eligible} node(s) that pass every other filter have room for {room_now} now "
                f"and {room_max} if emptied; room for {unplaced - room_now} more must be freed on them "
                f"(preemption or fewer running pods)")
    return {"plugin": RESOURCES_PLUGIN, "nodes": _names(cycle, state, holders), "text": text}
