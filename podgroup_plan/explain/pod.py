"""The explanation of one pod: its cycles, what each Filter plugin said, how the nodes scored.

Everything comes from the cycles the tracer recorded during the plan (explain/trace.py). The
*decisive* cycle is the one whose outcome the plan kept: for a scheduled pod the last cycle
that chose the pod's node, else the pod's last cycle.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from podgroup_plan.explain.trace import PodCycle, Tracer
from podgroup_plan.explain.would_fit import would_fit
from podgroup_plan.framework.status import Code
from podgroup_plan.model.objects import Pod
from podgroup_plan.result import PodResult
from podgroup_plan.state.cluster import ClusterState


def code_text(code: int) -> str:
    """A status code as upstream names it (`Unschedulable`, `UnschedulableAndUnresolvable`)."""
    return Code(int(code)).upstream_name


def decisive_cycle(cycles: list[PodCycle], pod_result: PodResult, state: ClusterState | None) -> PodCycle | None:
    kept = [c for c in cycles if not c.rerun] or cycles  # a preemption re-run is never kept
    if pod_result.node is not None and state is not None:
        row = state.node_index.get(pod_result.node)
        for cycle in reversed(kept):
            if cycle.node == row:
                return cycle
    return kept[-1] if kept else None


def explain_pod(pod_result: PodResult, pod: Pod | None, tracer: Tracer, state: ClusterState | None,
                top: int, node: str | None) -> dict[str, Any]:
    cycles = tracer.cycles.get((pod_result.namespace, pod_result.name), [])
    decisive = decisive_cycle(cycles, pod_result, state)
    out: dict[str, Any] = {
        "podGroup": pod_result.pod_group,
        "node": pod_result.node,
        "status": pod_result.status,
        "reason": pod_result.reason,
        "message": pod_result.message,
        "nominatedNode": pod_result.nominated_node,
        "cycles": [_cycle_summary(c, state, c is decisive) for c in cycles],
        "nodesConsidered": None,
        "preFilter": [],
        "filters": [],
        "feasibleNodes": None,
        "scores": [],
        "sampledNodes": None,
        "nodeVerdict": None,
        "wouldFit": None,
    }
    if decisive is None or state is None:
        return out
    out["nodesConsidered"] = len(decisive.view)
    out["preFilter"] = [{"plugin": p, "status": code_text(c), "message": m or None} for p, c, m in decisive.pre_filter]
    out["filters"] = _filters(decisive)
    if decisive.filters:
        out["feasibleNodes"] = _feasible_count(decisive)
    out["scores"] = _scores(decisive, state, top, node)
    if decisive.sampled and decisive.feasible is not None:
        out["sampledNodes"] = [state.node_names[r] for r in decisive.feasible.tolist()]
    if node is not None:
        out["nodeVerdict"] = _node_verdict(decisive, state, node)
    if pod_result.node is None and pod is not None:
        out["wouldFit"] = would_fit(decisive, pod, state)
    return out


def _cycle_summary(cycle: PodCycle, state: ClusterState | None, decisive: bool) -> dict[str, Any]:
    return {
        "cycle": cycle.index,
        "pass": cycle.pass_number,
        "scope": cycle.scope,
        "placement": cycle.placement,
        "preemptionRerun": cycle.rerun,
        "nodes": len(cycle.view),
        "node": state.node_names[cycle.node] if (cycle.node is not None and state is not None) else None,
        "status": code_text(cycle.status_code),
        "message": cycle.message or None,
        "decisive": decisive,
    }


def _feasible_count(cycle: PodCycle) -> int:
    alive = np.ones(len(cycle.view), dtype=bool)
    for verdict in cycle.filters:
        alive &= verdict.passed
    if cycle.narrowed_out is not None:
        alive &= ~cycle.narrowed_out
    return int(alive.sum())


def _filters(cycle: PodCycle) -> list[dict[str, Any]]:
    """Per Filter plugin, in the profile's order, the nodes it rejected first (upstream stops
    at the first rejecting plugin per node, so these counts add up to the FitError's)."""
    out: list[dict[str, Any]] = []
    alive = np.ones(len(cycle.view), dtype=bool)
    if cycle.narrowed_out is not None and cycle.narrowed_out.any():
        count = int(cycle.narrowed_out.sum())
        out.append({"plugin": " ".join(sorted(cycle.narrowing)), "extensionPoint": "PreFilter",
                    "rejected": count,
                    "reasons": [{"reason": f"node(s) didn't satisfy plugin(s) [{' '.join(sorted(cycle.narrowing))}]",
                                 "nodes": count}]})
        alive &= ~cycle.narrowed_out
    for verdict in cycle.filters:
        entry: dict[str, Any] = {"plugin": verdict.plugin, "extensionPoint": "Filter", "rejected": 0, "reasons": []}
        if verdict.skipped:
            entry["skipped"] = True
        newly = alive & ~verdict.passed
        if newly.any():
            tally: dict[str, int] = {}
            for i in np.flatnonzero(newly).tolist():
                for reason in verdict.reasons[i]:
                    tally[reason] = tally.get(reason, 0) + 1
            entry["rejected"] = int(newly.sum())
            entry["reasons"] = [{"reason": r, "nodes": c} for r, c in sorted(tally.items())]
        alive &= verdict.passed
        out.append(entry)
    return out


def _scores(cycle: PodCycle, state: ClusterState, top: int, extra: str | None) -> list[dict[str, Any]]:
    """The chosen node and the next best `top`, plus `extra` when it was scored, each with its
    per-plugin raw, normalised and weighted scores. Order: total descending, then name."""
    feasible = cycle.feasible
    if feasible is None or not cycle.scores:
        return []
    totals = cycle.totals()
    order = sorted(range(len(feasible)), key=lambda j: (-int(totals[j]), int(feasible[j])))
    keep = order[: top + 1]
    chosen_pos = None
    if cycle.node is not None:
        hit = np.flatnonzero(feasible == cycle.node)
        chosen_pos = int(hit[0]) if len(hit) else None
    if chosen_pos is not None and chosen_pos not in keep:
        keep.append(chosen_pos)
    if extra is not None:
        row = state.node_index.get(extra)
        hit = np.flatnonzero(feasible == row) if row is not None else np.zeros(0, dtype=np.intp)
        if len(hit) and int(hit[0]) not in keep:
            keep.append(int(hit[0]))
    keep.sort(key=lambda j: (-int(totals[j]), int(feasible[j])))
    return [_node_scores(cycle, state, j, int(feasible[j]), int(totals[j]), j == chosen_pos) for j in keep]


def _node_scores(cycle: PodCycle, state: ClusterState, j: int, node: int, total: int, chosen: bool) -> dict[str, Any]:
    """The scores of the `j`th feasible node (row `node`)."""
    plugins = []
    for s in cycle.scores:
        entry: dict[str, Any] = {"plugin": s.plugin, "weight": s.weight, "raw": int(s.raw[j]),
                                 "normalized": int(s.normalized[j]),
                                 "weighted": 0 if s.skipped else int(s.normalized[j]) * s.weight}
        if s.skipped:
            entry["skipped"] = True
        plugins.append(entry)
    return {"node": state.node_names[node], "total": total, "chosen": chosen, "plugins": plugins}


def _node_verdict(cycle: PodCycle, state: ClusterState, name: str) -> dict[str, Any]:
    """`--node`: that node's verdict from every Filter plugin (each asked on its own, so a node
    rejected by several shows all of them) and, when it was scored, its scores."""
    row = state.node_index[name]
    hit = np.flatnonzero(cycle.view == row)
    out: dict[str, Any] = {"node": name, "considered": bool(len(hit)), "filters": [], "scores": None}
    if not len(hit):
        return out
    i = int(hit[0])
    if cycle.narrowed_out is not None and cycle.narrowed_out[i]:
        out["filters"].append({"plugin": " ".join(sorted(cycle.narrowing)), "extensionPoint": "PreFilter",
                               "status": "UnschedulableAndUnresolvable",
                               "reasons": [f"node(s) didn't satisfy plugin(s) [{' '.join(sorted(cycle.narrowing))}]"]})
    for verdict in cycle.filters:
        status = "Skip" if verdict.skipped else ("Success" if verdict.passed[i] else code_text(verdict.codes[i]))
        out["filters"].append({"plugin": verdict.plugin, "extensionPoint": "Filter", "status": status,
                               "reasons": list(verdict.reasons[i])})
    if cycle.feasible is not None and cycle.scores:
        pos = np.flatnonzero(cycle.feasible == row)
        if len(pos):
            j = int(pos[0])
            out["scores"] = _node_scores(cycle, state, j, row, int(cycle.totals()[j]), cycle.node == row)
    return out
