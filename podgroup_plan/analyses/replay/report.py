"""The replay's document (`replay -o json`, schemas/Replay.json): per workload when it arrived,
started and ended and where, the summary, the timeline and, for `--focus`, one workload's story.
Everything is sorted, so the same input gives the same bytes."""
from __future__ import annotations

import math
from typing import Any, Iterable

from podgroup_plan.analyses.replay.engine import Engine
from podgroup_plan.analyses.replay.timeline import SLOT_SIZES
from podgroup_plan.analyses.replay.units import PodRun, Unit
from podgroup_plan.model.timing import format_time


def _time(t: float | None) -> str | None:
    return None if t is None else format_time(t)


def _seconds(value: float) -> float | int:
    rounded = round(value, 3)
    return int(rounded) if rounded == int(rounded) else rounded


def percentiles(values: list[float]) -> dict[str, Any]:
    """Nearest-rank p50 and p95, and the maximum (None for no values)."""
    if not values:
        return {"count": 0, "p50": None, "p95": None, "max": None}
    ordered = sorted(values)

    def rank(p: float) -> float | int:
        return _seconds(ordered[max(0, math.ceil(p * len(ordered)) - 1)])

    return {"count": len(ordered), "p50": rank(0.5), "p95": rank(0.95), "max": _seconds(ordered[-1])}


def _workloads(engine: Engine, end: float) -> dict[tuple[str, str, str], list[PodRun]]:
    """The pods by workload; pods that arrive after the end (`--until`) are left out."""
    by: dict[tuple[str, str, str], list[PodRun]] = {}
    for run in engine.runs.values():
        if run.arrival <= end or run.start is not None:
            by.setdefault(run.workload, []).append(run)
    return by


def _units_of(engine: Engine, runs: Iterable[PodRun]) -> list[Unit]:
    seen: dict[tuple[str, str, str], Unit] = {}
    for run in runs:
        unit = engine.unit_of_pod.get(run.pod.key)
        if unit is not None:
            seen[unit.key] = unit
    return [seen[k] for k in sorted(seen)]


def workload_entry(engine: Engine, key: tuple[str, str, str], runs: list[PodRun]) -> dict[str, Any]:
    started = [r.start for r in runs if r.start is not None]
    arrival = min(r.arrival for r in runs)
    start = min(started) if started else None
    ended = all(r.end is not None for r in runs)
    end = max(r.end for r in runs if r.end is not None) if ended else None
    units = _units_of(engine, runs)
    waiting = [u for u in units if u.entity.pods]
    if all(r.running_at_start for r in runs):
        arrival = min(arrival, start if start is not None else arrival)
    status = "Pending" if start is None else ("Running" if end is None else (
        "Preempted" if any(r.ended_by == "preempted" for r in runs) else "Completed"))
    entry: dict[str, Any] = {
        "kind": key[0], "namespace": key[1], "name": key[2],
        "priority": max(r.pod.priority for r in runs),
        "pods": len(runs),
        "gang": any(u.kind != "Pod" for u in units),
        "arrival": _time(arrival), "start": _time(start), "end": _time(end),
        "waitSeconds": None if start is None else _seconds(max(0.0, start - arrival)),
        "nodes": sorted({r.node for r in runs if r.node}),
        "status": status,
        "attempts": sum(u.attempt_count for u in units),
    }
    held = [r.held for r in runs if r.held]
    if waiting:
        entry["message"] = waiting[0].message
    elif held and start is None:
        entry["message"] = held[0]
    return entry


def build_document(engine: Engine, end: float, focus: str | None) -> dict[str, Any]:
    groups = _workloads(engine, end)
    workloads = [workload_entry(engine, key, groups[key]) for key in sorted(groups)]
    return {
        "kind": "Replay",
        "start": _time(engine.start),
        "end": _time(end),
        "until": _time(engine.until),
        "workloads": workloads,
        "summary": summary(engine, workloads, end),
        "timeline": timeline(engine),
        **({"focus": focus_entry(engine, focus, groups)} if focus is not None else {}),
    }


def summary(engine: Engine, workloads: list[dict[str, Any]], end: float) -> dict[str, Any]:
    runs = [r for r in engine.runs.values() if r.arrival <= end or r.start is not None]
    waits = [w["waitSeconds"] for w in workloads if w["waitSeconds"] is not None]
    by_priority: dict[int, list[float]] = {}
    for w in workloads:
        if w["waitSeconds"] is not None:
            by_priority.setdefault(w["priority"], []).append(w["waitSeconds"])
    ends = [r.end for r in runs if r.end is not None]
    span = end - engine.start
    gpu_seconds = sum(((r.end if r.end is not None else end) - r.start) * r.gpus for r in runs if r.start is not None)
    cpu_seconds = sum(((r.end if r.end is not None else end) - r.start) * r.cpu_milli / 1000.0
                      for r in runs if r.start is not None)
    timeline = engine.timeline
    never = [{"kind": w["kind"], "namespace": w["namespace"], "name": w["name"], "gang": w["gang"],
              "message": w.get("message", "")} for w in workloads if w["start"] is None]
    return {
        "workloads": len(workloads),
        "pods": len(runs),
        "podsStarted": sum(1 for r in runs if r.start is not None),
        "podsCompleted": sum(1 for r in runs if r.ended_by == "completed"),
        "podsRunForever": sum(1 for r in runs if r.duration is None and r.start is not None),
        "podsWithoutDuration": sum(1 for r in runs if r.duration is None),
        "makespanSeconds": _seconds(max(ends) - engine.start) if ends else None,
        "waitSeconds": percentiles(waits),
        "waitSecondsByPriority": [{"priority": p, **percentiles(v)} for p, v in sorted(by_priority.items(),
                                                                                         reverse=True)],
        "gpuSecondsUsed": _seconds(gpu_seconds),
        "gpuUtilisation": round(gpu_seconds / (timeline.total_gpus * span), 4) if timeline.total_gpus and span > 0 else None,
        "cpuUtilisation": round(cpu_seconds / (timeline.total_cpus * span), 4) if timeline.total_cpus and span > 0 else None,
        "preemptions": engine.preemptions,
        "replacementPods": engine.replacements,
        "neverStarted": never,
        "events": engine.events_handled,
    }


def timeline(engine: Engine) -> list[dict[str, Any]]:
    return [{"time": _time(row.time), "gpusAllocated": row.gpus, "cpusAllocated": _seconds(row.cpus),
             "pendingPods": row.pending_pods, "pendingGangs": row.pending_gangs,
             "freeGpuSlots": {str(n): v for n, v in zip(SLOT_SIZES, row.free_slots)}}
            for row in engine.timeline.rows]


def focus_entry(engine: Engine, focus: str, groups: dict[tuple[str, str, str], list[PodRun]]) -> dict[str, Any]:
    """One workload's story: when it started, which pods had to end first (those that ended on
    the nodes it got between its arrival and its start, and its victims), the message while it
    waited, and its attempts."""
    namespace, _, name = focus.rpartition("/")
    namespace = namespace or "default"
    key = next((k for k in sorted(groups) if k[1] == namespace and k[2] == name), None)
    if key is None:
        key = next((r.workload for r in sorted(engine.runs.values(), key=lambda r: r.pod.key)
                    if r.pod.namespace == namespace and r.pod.name == name), None)
    if key is None:
        return {"workload": focus, "found": False}
    runs = groups[key]
    entry = workload_entry(engine, key, runs)
    start = min((r.start for r in runs if r.start is not None), default=None)
    arrival = min(r.arrival for r in runs)
    nodes = set(entry["nodes"])
    waited = []
    if start is not None and start > arrival:
        for other in sorted(engine.runs.values(), key=lambda r: (r.end or 0.0, r.pod.key)):
            if other.workload != key and other.end is not None and arrival <= other.end <= start and other.node in nodes:
                waited.append({"namespace": other.pod.namespace, "name": other.pod.name, "node": other.node,
                               "end": _time(other.end), "endedBy": other.ended_by})
    units = _units_of(engine, runs)
    attempts = [{"time": _time(a.time), "trigger": a.trigger, "outcome": a.outcome, "message": a.message}
                for u in units for a in u.attempts]
    failures = [a for u in units for a in u.attempts if a.outcome != "Scheduled"]
    return {"workload": f"{key[1]}/{key[2]}", "kind": key[0], "found": True, "arrival": entry["arrival"],
            "start": entry["start"], "waitSeconds": entry["waitSeconds"], "waitedFor": waited,
            "messageWhileWaiting": failures[-1].message if failures else None,
            "attempts": attempts, "attemptCount": sum(u.attempt_count for u in units)}
