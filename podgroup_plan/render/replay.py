"""The `replay` renderings: a table and Markdown (summary, workloads, focus, and with
`--config-b` the differences), and CSV (the timeline, one row per change)."""
from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from typing import Any

from podgroup_plan.render.registry import RenderOptions

WORKLOAD_COLUMNS = ("workload", "priority", "pods", "arrival", "start", "end", "wait s", "nodes", "status")
SHOWN_NODES = 3


def _nodes(nodes: list[str]) -> str:
    shown = ", ".join(nodes[:SHOWN_NODES])
    return shown + (f" (+{len(nodes) - SHOWN_NODES})" if len(nodes) > SHOWN_NODES else "")


def _cell(value: Any) -> str:
    return "-" if value is None else str(value)


def _summary_lines(doc: Mapping[str, Any]) -> list[str]:
    s = doc["summary"]
    w = s["waitSeconds"]
    lines = [
        f"Replay from {doc['start']} to {doc['end']}" + (f" (--until {doc['until']})" if doc.get("until") else "") + ":",
        f"  {s['workloads']} workloads, {s['pods']} pods: {s['podsStarted']} started, {s['podsCompleted']} completed"
        + (f", {s['podsRunForever']} run forever (no duration)" if s["podsRunForever"] else ""),
        f"  makespan {_cell(s['makespanSeconds'])} s; wait p50 {_cell(w['p50'])} s, p95 {_cell(w['p95'])} s, "
        f"max {_cell(w['max'])} s",
    ]
    for p in s["waitSecondsByPriority"]:
        lines.append(f"    priority {p['priority']}: {p['count']} started, wait p50 {p['p50']} s, p95 {p['p95']} s, "
                     f"max {p['max']} s")
    lines.append(f"  utilisation: GPU {_cell(s['gpuUtilisation'])}, CPU {_cell(s['cpuUtilisation'])}; "
                 f"preemptions {s['preemptions']}")
    for n in s["neverStarted"]:
        lines.append(f"  never started: {n['kind']} {n['namespace']}/{n['name']}: {n['message']}")
    return lines


def _rows(doc: Mapping[str, Any]) -> list[list[str]]:
    return [[f"{w['kind']} {w['namespace']}/{w['name']}", str(w["priority"]), str(w["pods"]), _cell(w["arrival"]),
             _cell(w["start"]), _cell(w["end"]), _cell(w["waitSeconds"]), _nodes(w["nodes"]), w["status"]]
            for w in doc["workloads"]]


def _focus_lines(doc: Mapping[str, Any]) -> list[str]:
    f = doc.get("focus")
    if f is None:
        return []
    if not f["found"]:
        return [f"--focus {f['workload']}: no such workload or pod in the replay"]
    lines = [f"{f['kind']} {f['workload']}: arrived {f['arrival']}, started {_cell(f['start'])} "
             f"(waited {_cell(f['waitSeconds'])} s, {f['attemptCount']} attempt{'' if f['attemptCount'] == 1 else 's'})"]
    if f["waitedFor"]:
        lines.append("  it waited for:")
        lines += [f"    {p['namespace']}/{p['name']} on {p['node']}, {p['endedBy']} at {p['end']}" for p in f["waitedFor"]]
    if f["messageWhileWaiting"]:
        lines.append(f"  while waiting: {f['messageWhileWaiting']}")
    lines.append("  attempts:")
    lines += [f"    {a['time']} ({a['trigger']}): {a['outcome']}" for a in f["attempts"]]
    return lines


def _table(header: tuple[str, ...], rows: list[list[str]]) -> list[str]:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)]
    out = ["  ".join(h.ljust(widths[i]) for i, h in enumerate(header)).rstrip()]
    out += ["  ".join(c.ljust(widths[i]) for i, c in enumerate(r)).rstrip() for r in rows]
    return out


def _one(doc: Mapping[str, Any]) -> list[str]:
    return _summary_lines(doc) + [""] + _table(WORKLOAD_COLUMNS, _rows(doc)) + (
        [""] + _focus_lines(doc) if doc.get("focus") else [])


def _comparison_lines(doc: Mapping[str, Any]) -> list[str]:
    c = doc["comparison"]
    lines = [f"Differences ({c['labelA']} -> {c['labelB']}):"]
    for key, (a, b) in sorted(c["summary"].items()):
        lines.append(f"  {key}: {_cell(a)} -> {_cell(b)}")
    rows = [[w["workload"], _cell(w["startA"]), _cell(w["startB"]), _cell(w["waitA"]), _cell(w["waitB"])]
            for w in c["workloads"]]
    if rows:
        lines += [""] + _table(("workload", "start A", "start B", "wait A s", "wait B s"), rows)
    else:
        lines.append("  every workload starts and ends at the same time")
    return lines


def header_lines(doc: Mapping[str, Any]) -> list[str]:
    """Where the input came from (`--from-cluster`'s note naming the cluster and when it was
    read), above everything else, as simulate's header names its input."""
    return [*doc.get("notes", ()), ""] if doc.get("notes") else []


def render_text(doc: Mapping[str, Any], options: RenderOptions) -> str:
    if "comparison" in doc:
        lines = (header_lines(doc) + ["== A =="] + _one(doc["a"]) + ["", "== B =="] + _one(doc["b"]) + [""]
                 + _comparison_lines(doc))
    else:
        lines = header_lines(doc) + _one(doc)
    return "\n".join(lines) + "\n"


def render_markdown(doc: Mapping[str, Any], options: RenderOptions) -> str:
    def md(d: Mapping[str, Any]) -> list[str]:
        out = ["```", *_summary_lines(d), "```", "",
               "| " + " | ".join(WORKLOAD_COLUMNS) + " |", "|" + "---|" * len(WORKLOAD_COLUMNS)]
        out += ["| " + " | ".join(c.replace("|", "\\|") for c in r) + " |" for r in _rows(d)]
        if d.get("focus"):
            out += ["", "```", *_focus_lines(d), "```"]
        return out

    from podgroup_plan.render.markdown import cell  # simulate's header escapes its notes so

    about = ["_" + " · ".join(cell(n) for n in doc["notes"]) + "_", ""] if doc.get("notes") else []
    if "comparison" in doc:
        lines = [*about, "## A", "", *md(doc["a"]), "", "## B", "", *md(doc["b"]), "", "## Differences", "", "```",
                 *_comparison_lines(doc), "```"]
    else:
        lines = ["## Replay", "", *about, *md(doc)]
    return "\n".join(lines) + "\n"


TIMELINE_FIELDS = ("time", "gpusAllocated", "cpusAllocated", "pendingPods", "pendingGangs")


def render_csv(doc: Mapping[str, Any], options: RenderOptions) -> str:
    """The timeline (with --config-b: both, a `config` column saying which)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    parts = [("A", doc["a"]), ("B", doc["b"])] if "comparison" in doc else [("", doc)]
    slots = sorted({k for _, d in parts for row in d["timeline"] for k in row["freeGpuSlots"]}, key=int)
    header = (["config"] if len(parts) > 1 else []) + list(TIMELINE_FIELDS) + [f"freeGpuSlots{n}" for n in slots]
    writer.writerow(header)
    for label, d in parts:
        for row in d["timeline"]:
            writer.writerow(([label] if len(parts) > 1 else []) + [row[f] for f in TIMELINE_FIELDS]
                            + [row["freeGpuSlots"].get(n, 0) for n in slots])
    return out.getvalue()
