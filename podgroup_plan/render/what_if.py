"""The `what-if` renderings of a WhatIfResult document (podgroup_plan.analyses.what_if):
a table for the terminal and Markdown for a CI summary or a pull-request comment.

Both lead with the ranking (the scenarios by damage: workloads that stay down, GPUs and pods
displaced), then, for every scenario that touched a workload, what became of each one.
Scenarios that failed are listed with their reason.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rich.text import Text

from podgroup_plan.render import layout
from podgroup_plan.render.common import plural
from podgroup_plan.render.layout import Column, natural_key
from podgroup_plan.render.registry import RenderOptions
from podgroup_plan.render.table import DEFAULT_WIDTH

if TYPE_CHECKING:
    from rich.console import Console

FATE_WORDS = {
    "rescheduled": "rescheduled",
    "unschedulable": "stays down",
    "lost": "lost",
    "preempted": "preempted",
}


def headline(doc: Mapping[str, Any]) -> str:
    rows = doc["scenarios"]
    down = [r for r in doc["ranking"] if r["workloadsDown"]]
    failed = [r for r in rows if r.get("error")]
    text = f"{plural(len(rows), 'scenario')}: "
    if down:
        text += f"{plural(len(down), 'scenario')} leave workloads down (worst: {down[0]['name']})"
    else:
        text += "every displaced workload finds a place again"
    if failed:
        text += f"; {len(failed)} could not be planned"
    return text + "."


def _where(nodes: list[str], limit: int = 4) -> str:
    shown = sorted(nodes, key=natural_key)
    if len(shown) > limit:
        return ", ".join(shown[:limit]) + f" (+{len(shown) - limit} more)"
    return ", ".join(shown)


def _ranking_rows(doc: Mapping[str, Any]) -> list[tuple[str, str, str, str, str]]:
    by_name = {r["name"]: r for r in doc["scenarios"]}
    out = []
    for r in doc["ranking"]:
        row = by_name[r["name"]]
        fates = [w["fate"] for w in row.get("workloads", ())]
        out.append((r["name"], str(r["pods"]), str(r["gpus"]), str(r["workloadsDown"]),
                    str(fates.count("rescheduled"))))
    return out


def blocks(doc: Mapping[str, Any], width: int) -> list[list[Text]]:
    parts = [layout.wrap(Text(headline(doc), style="bold"), width)]
    base = doc["base"]
    parts.append(layout.wrap(Text(
        f"Compared with the plan of the unchanged input ({'feasible' if base['feasible'] else 'not feasible'}: "
        f"{base['summary']['podsScheduled']} pods scheduled, {base['summary']['podsUnschedulable']} unschedulable)."),
        width))
    ranking = layout.Table("Scenarios by damage", [
        Column("Scenario", elide=True), Column("Pods displaced", justify="right"),
        Column("GPUs", justify="right"), Column("Workloads down", justify="right"),
        Column("Rescheduled", justify="right")])
    for row in _ranking_rows(doc):
        ranking.add_row(*row)
    parts.append(ranking.lines(width))
    for r in doc["ranking"]:
        row = next(s for s in doc["scenarios"] if s["name"] == r["name"])
        if row.get("workloads") or row.get("refusedEvictions"):
            parts.append(_scenario_table(row, width))
    failed = [r for r in doc["scenarios"] if r.get("error")]
    if failed:
        parts.append(layout.bullets("Scenarios that could not be planned",
                                    [f"{r['name']}: {r['error']}" for r in failed], width))
    if doc.get("notes"):
        parts.append(layout.bullets("Notes", doc["notes"], width))
    return parts


def _scenario_table(row: Mapping[str, Any], width: int) -> list[Text]:
    t = layout.Table(f"{row['name']}: {plural(row['pods'], 'pod')} displaced", [
        Column("Workload", elide=True), Column("Fate"), Column("Displaced", justify="right"),
        Column("Now on", fold=True)])
    for w in row.get("workloads", ()):
        what = f"{w['kind']} {w['namespace']}/{w['name']}"
        fate = FATE_WORDS[w["fate"]]
        if w.get("belowMinCount"):
            fate += " (below minCount)"
        why = "a bare pod: nothing recreates it" if w["fate"] == "lost" else w.get("message")
        t.add_row(what, fate, str(w["displacedPods"]), _where(w["nodes"]), details=[why])
    for e in row.get("refusedEvictions", ()):
        t.add_row(f"Pod {e['namespace']}/{e['name']}", "not evicted", "0", "",
                  details=[f"{e['message']} ({', '.join(e['budgets'])})"])
    return t.lines(width)


def render_what_if_table(doc: Mapping[str, Any], *, width: int = DEFAULT_WIDTH, color: bool = False) -> str:
    return layout.render_lines(blocks(doc, width), color=color)


def _md(text: str) -> str:
    """A Markdown table cell: pipes escaped, one line."""
    return " ".join(str(text).split()).replace("|", "\\|")


def render_what_if_markdown(doc: Mapping[str, Any]) -> str:
    lines = [f"### What-if: {_md(headline(doc))}", ""]
    lines += ["| Scenario | Pods displaced | GPUs | Workloads down | Rescheduled |",
              "|---|---:|---:|---:|---:|"]
    lines += ["| " + " | ".join(_md(c) for c in row) + " |" for row in _ranking_rows(doc)]
    for r in doc["ranking"]:
        row = next(s for s in doc["scenarios"] if s["name"] == r["name"])
        if not row.get("workloads"):
            continue
        lines += ["", f"<details><summary>{_md(row['name'])}: {plural(row['pods'], 'pod')} displaced</summary>", "",
                  "| Workload | Fate | Where / why |", "|---|---|---|"]
        for w in row["workloads"]:
            why = _where(w["nodes"]) if w["fate"] == "rescheduled" else (w.get("message") or "")
            lines.append(f"| {_md(w['kind'])} {_md(w['namespace'])}/{_md(w['name'])} | {FATE_WORDS[w['fate']]} | {_md(why)} |")
        lines += ["", "</details>"]
    failed = [r for r in doc["scenarios"] if r.get("error")]
    if failed:
        lines += ["", "**Scenarios that could not be planned:**", ""]
        lines += [f"- {_md(r['name'])}: {_md(r['error'])}" for r in failed]
    return "\n".join(lines) + "\n"


# --- the registry's entries (render/registry.py) --------------------------------------------

def render_text(doc: Mapping[str, Any], options: RenderOptions) -> str:
    return render_what_if_table(doc, width=options.width)


def render_terminal(doc: Mapping[str, Any], console: Console, options: RenderOptions) -> None:
    layout.render_lines(blocks(doc, console.width), console=console)


def render_markdown(doc: Mapping[str, Any], options: RenderOptions) -> str:
    return render_what_if_markdown(doc)
