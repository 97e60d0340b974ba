"""The explanation of a PodGroup or CompositePodGroup: every cycle the plan gave it, with its
candidate placements and per-pod outcomes, the preemption decision, and the closest domain.

Cycles are recorded from the plan's own Recorder calls (outcome.py), so they are exactly what
the plan decided; nothing here re-runs an algorithm.
"""
from __future__ import annotations

from typing import Any

from podgroup_plan.explain.targets import not_found
from podgroup_plan.explain.trace import Tracer
from podgroup_plan.explain.would_fit import gang_hint, would_fit
from podgroup_plan.result import CompositePodGroupResult, PlanResult, PodGroupResult
from podgroup_plan.state.cluster import ClusterState


def explain_group(result: PlanResult, target, tracer: Tracer, state: ClusterState | None) -> dict[str, Any]:
    found: PodGroupResult | CompositePodGroupResult | None
    if target.kind == "PodGroup":
        found = next((g for g in result.pod_groups if (g.namespace, g.name) == target.key), None)
        flag = "--pod-group"
    else:
        found = next((g for g in result.composite_pod_groups if (g.namespace, g.name) == target.key), None)
        flag = "--composite-pod-group"
    if found is None:
        raise not_found(result, target.kind, target.namespace, target.name, flag,
                        f"no such {target.kind} in the input")
    group = found.to_dict()
    message = group.get("message")
    if message is None:
        conditions = group.get("conditions") or []
        message = conditions[-1]["message"] if conditions else None
    members = [p.to_dict() for p in result.pods if tracer.wants_member(p.namespace, p.pod_group)]
    return {
        "status": group["status"],
        "message": message or None,
        "placement": group.get("placement"),
        "pods": [{"pod": f"{p['namespace']}/{p['name']}", "node": p["node"], "status": p["status"],
                  "message": p["message"]} for p in members],
        "cycles": tracer.group_cycles,
        "preemption": _preemption(tracer),
        "wouldFit": _closest(tracer),
    }


def _preemption(tracer: Tracer) -> dict[str, Any] | None:
    """The last workload-aware preemption decision of the target, with the victims the plan
    evicted for it (over all its cycles)."""
    if not tracer.preemptions:
        return None
    last = tracer.preemptions[-1]
    return {
        "cycle": last["cycle"],
        "pass": last["pass"],
        "status": last["status"],
        "message": last["message"],
        "units": last["units"],
        "pdbs": last["pdbs"],
        "victims": sorted(tracer.victims, key=lambda v: (v["namespace"], v["name"])),
    }


def _closest(tracer: Tracer) -> list[dict[str, Any]] | None:
    """For a group whose last cycle failed: the candidate domain that placed the most pods, and
    how many it lacked (from the placements the cycle recorded)."""
    if not tracer.group_cycles:
        return None
    last = tracer.group_cycles[-1]
    if last["status"] == "Scheduled":
        return None
    # Candidates with a domain: the closest one. A group without a topology constraint has one
    # nameless candidate (all nodes): then the first pod that did not fit says more.
    placements = [p for p in (last.get("placements") or [])
                  if p.get("evaluated") and not p.get("feasible") and p.get("name") is not None]
    if not placements:
        return _first_unfit(tracer, last)
    best = max(placements, key=lambda p: (p.get("scheduledPods") or 0, -placements.index(p)))
    placed = best.get("scheduledPods") or 0
    name = best.get("name") or "all nodes"
    text = f"closest domain: {name} ({best['nodes']} nodes) placed {placed} pod(s)"
    if best.get("message"):
        text += f"; it failed with: {best['message']}"
    return [{"placement": best.get("name"), "scheduledPods": placed, "text": text}]


def _first_unfit(tracer: Tracer, last: dict[str, Any]) -> list[dict[str, Any]]:
    """For a group cycle without placements: the first pod (in the order the cycle tried them)
    that did not fit, with its FitError and what would make it fit."""
    state = tracer.state
    unfit = []
    for outcome in last["pods"]:
        namespace, name = outcome["pod"].split("/", 1)
        for cycle in tracer.cycles.get((namespace, name), []):
            if cycle.pass_number == last["pass"] and not cycle.rerun and cycle.node is None:
                unfit.append((cycle.seq, namespace, name, cycle))
                break
    if not unfit or state is None:
        return []
    _, namespace, name, cycle = min(unfit)
    hints = [{"pod": f"{namespace}/{name}", "text": f"{namespace}/{name} was the first pod that did not fit: "
                                                    f"{cycle.message}"}]
    # over the gang, not per pod: how many of its pods are left and what room the cluster has
    unplaced = sum(1 for o in last["pods"] if not o.get("node"))
    gang = gang_hint(cycle, state, unplaced)
    if gang is not None:
        hints.append(gang)
    pod = tracer.pods.get((namespace, name))
    if pod is not None:
        for hint in would_fit(cycle, pod, state):
            if gang is not None and hint.get("plugin") == "NodeResourcesFit":
                continue  # one pod's shortfall on one node: the gang's answer above replaces it
            hints.append({**hint, "pod": f"{namespace}/{name}"})
    return hints
