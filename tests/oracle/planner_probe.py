"""The planner's side of the framework-mode comparison: the same report the oracle's
`framework` mode prints (oracle/framework_mode.go), computed by the planner's own engine.

For every pending pod, against the cluster as given (bound pods only): PreFilter, then the
planner's Filter node by node (a one-node view each, through the runtime and its signature
cache, so the status is what the plan would see), then PreScore/Score/NormalizeScore with the
profile's weights on every feasible node, and `schedule_pod` for the outcome (node or FitError).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from podgroup_plan.config.configuration import build_profiles, resolve_feature_gates
from podgroup_plan.framework.interface import CycleState, Handle
from podgroup_plan.framework.diagnosis import Diagnosis
from podgroup_plan.plugins.registry import IMPLEMENTED
from podgroup_plan.framework.runtime import Framework
from podgroup_plan.framework.status import Code
from podgroup_plan.loading import load_input
from podgroup_plan.scheduling.schedule_one import schedule_pod
from podgroup_plan.state.cluster import ClusterState


def _status(code: Code, plugin: str, reasons: Sequence[str]) -> dict:
    return {"code": code.upstream_name, "plugin": plugin, "reasons": list(reasons)}


def framework_report(paths: Sequence[str], feature_gates: Mapping[str, bool] | None = None,
                     scheduler_config: Mapping | None = None) -> dict[str, Any]:
    cluster = load_input(list(paths))
    gates = resolve_feature_gates(feature_gates)
    config = scheduler_config if scheduler_config is not None else cluster.scheduler_config
    profiles = build_profiles(config, gates)
    handle = Handle(cluster.spread_selectors, cluster.namespaces, gates)
    frameworks = {name: Framework(profile, handle, IMPLEMENTED) for name, profile in sorted(profiles.items())}
    live = [p for p in cluster.pods if p.phase not in ("Succeeded", "Failed")]
    running = [p for p in live if p.is_running]
    pending = [p for p in live if not p.is_running]
    state = ClusterState(cluster.nodes, running, {r for p in pending for r in p.requests})
    pods = [_pod_report(frameworks.get(p.scheduler_name), p, state) for p in sorted(pending, key=lambda p: p.key)]
    return {"mode": "framework", "nodes": state.n, "pods": pods}


def _pod_report(fwk: Framework | None, pod, state: ClusterState) -> dict[str, Any]:
    out: dict[str, Any] = {
        "namespace": pod.namespace, "name": pod.name, "profile": pod.scheduler_name,
        "ignored": fwk is None, "preFilter": None, "preFilterNodeNames": None,
        "filter": {}, "scores": {}, "bestNodes": [], "schedule": None,
    }
    if fwk is None:
        return out
    result = schedule_pod(fwk, pod, state)
    if result.node is not None:
        out["schedule"] = {"node": state.node_names[result.node], "fitError": None, "error": None}
    elif result.status.code == Code.ERROR:
        out["schedule"] = {"node": None, "fitError": None, "error": result.message}
    else:
        out["schedule"] = {"node": None, "fitError": result.message, "error": None}

    cs = CycleState()
    status, allowed, _narrowing = fwk.run_pre_filter(cs, pod, state, state.all_nodes)
    if not status.is_success():
        out["preFilter"] = _status(status.code, status.plugin, status.reasons)
        return out
    rows = state.all_nodes
    if allowed is not None:
        out["preFilterNodeNames"] = sorted(allowed)
        rows = np.array(sorted(state.node_index[n] for n in allowed if n in state.node_index), dtype=np.intp)
    feasible = []
    for row in rows.tolist():
        diagnosis = Diagnosis()
        passed = fwk.run_filter(cs, pod, state, np.array([row], dtype=np.intp), diagnosis)
        name = state.node_names[row]
        if passed[0]:
            out["filter"][name] = _status(Code.SUCCESS, "", ())
            feasible.append(row)
        else:
            plugins = sorted(diagnosis.unschedulable_plugins)
            out["filter"][name] = _status(Code(int(diagnosis.node_codes[0])), ",".join(plugins), list(diagnosis.reasons))
    if not feasible:
        return out
    view = np.array(feasible, dtype=np.intp)
    pre, skipped_ = fwk.run_pre_score(cs, pod, state, view)
    assert pre.is_success(), pre.message
    totals = fwk.run_score(cs, pod, state, view, skipped_)
    skipped = {p.name for p in fwk.pre_score if p.pre_score(cs, pod, state, view).is_skip()}
    per_node: list[dict[str, dict]] = [{} for _ in feasible]
    for plugin, weight in fwk.score:
        if plugin.name in skipped:
            continue
        raw = np.asarray(plugin.score(cs, pod, state, view), dtype=np.int64)
        normalized = plugin.normalize(cs, pod, raw.copy())
        for i in range(len(feasible)):
            per_node[i][plugin.name] = {"raw": int(raw[i]), "normalized": int(normalized[i]),
                                        "weight": weight, "weighted": int(normalized[i]) * weight}
    for i, row in enumerate(feasible):
        out["scores"][state.node_names[row]] = {"total": int(totals[i]), "plugins": per_node[i]}
    best = int(totals.max())
    out["bestNodes"] = sorted(state.node_names[r] for r, t in zip(feasible, totals.tolist()) if t == best)
    return out
