"""`replay -o html`: one standalone page -- the utilisation over time (GPUs allocated and pending
pods, an SVG step chart drawn from the timeline), the summary and the workloads. No script, no
external file; every text from the input is HTML-escaped."""
from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from html import escape
from typing import Any

from podgroup_plan.render.registry import RenderOptions
from podgroup_plan.render.replay import WORKLOAD_COLUMNS, _rows, _summary_lines

WIDTH, HEIGHT, PAD = 900, 220, 40


def _seconds(stamp: str) -> float:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


def _steps(points: list[tuple[float, float]], t0: float, t1: float, top: float) -> str:
    """An SVG path of a step function through `points` (time, value) on [t0, t1]."""
    span = max(t1 - t0, 1e-9)
    scale = max(top, 1e-9)

    def x(t: float) -> float:
        return PAD + (t - t0) / span * (WIDTH - 2 * PAD)

    def y(v: float) -> float:
        return HEIGHT - PAD - v / scale * (HEIGHT - 2 * PAD)

    parts = []
    for i, (t, v) in enumerate(points):
        parts.append(f"M{x(t):.1f} {y(v):.1f}" if i == 0 else f"H{x(t):.1f} V{y(v):.1f}")
    parts.append(f"H{x(t1):.1f}")
    return " ".join(parts)


def chart(doc: Mapping[str, Any]) -> str:
    rows = doc["timeline"]
    if not rows:
        return "<p>Nothing happened: the timeline is empty.</p>"
    t0, t1 = _seconds(doc["start"]), _seconds(doc["end"])
    gpus = [(_seconds(r["time"]), float(r["gpusAllocated"])) for r in rows]
    pending = [(_seconds(r["time"]), float(r["pendingPods"])) for r in rows]
    top = max(max(v for _, v in gpus), max(v for _, v in pending), 1.0)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" role="img" '
            f'aria-label="GPUs allocated and pending pods over time">'
            f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#fff"/>'
            f'<line x1="{PAD}" y1="{HEIGHT - PAD}" x2="{WIDTH - PAD}" y2="{HEIGHT - PAD}" stroke="#999"/>'
            f'<line x1="{PAD}" y1="{PAD}" x2="{PAD}" y2="{HEIGHT - PAD}" stroke="#999"/>'
            f'<text x="{PAD}" y="{PAD - 8}" font-size="11">{int(top)}</text>'
            f'<text x="{PAD}" y="{HEIGHT - 8}" font-size="11">{escape(doc["start"])}</text>'
            f'<text x="{WIDTH - PAD}" y="{HEIGHT - 8}" font-size="11" text-anchor="end">{escape(doc["end"])}</text>'
            f'<path d="{_steps(gpus, t0, t1, top)}" fill="none" stroke="#1f77b4" stroke-width="1.5"/>'
            f'<path d="{_steps(pending, t0, t1, top)}" fill="none" stroke="#d62728" stroke-width="1.5"/>'
            f'<text x="{WIDTH - PAD}" y="{PAD - 8}" font-size="11" text-anchor="end">'
            f'<tspan fill="#1f77b4">GPUs allocated</tspan> · <tspan fill="#d62728">pending pods</tspan></text>'
            f'</svg>')


def _section(doc: Mapping[str, Any], title: str) -> str:
    head = "".join(f"<th>{escape(c)}</th>" for c in WORKLOAD_COLUMNS)
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in _rows(doc))
    summary = escape("\n".join(_summary_lines(doc)))
    return (f"<h2>{escape(title)}</h2>{chart(doc)}<pre>{summary}</pre>"
            f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")


def render_text(doc: Mapping[str, Any], options: RenderOptions) -> str:
    if "comparison" in doc:
        sections = _section(doc["a"], "A") + _section(doc["b"], "B")
    else:
        sections = _section(doc, "Replay")
    notes = "".join(f"<p>{escape(n)}</p>" for n in doc.get("notes", ()))  # the cluster read, if any
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>podgroup-plan replay</title>"
            "<style>body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse;font-size:12px}"
            "td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}pre{font-size:12px}</style></head>"
            f"<body><h1>podgroup-plan replay</h1>{notes}{sections}</body></html>\n")
