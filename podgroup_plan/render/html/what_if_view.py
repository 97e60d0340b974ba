"""What the `what-if -o html` page shows of a sweep, as plain data for its template: the
scenarios by damage, each with the map rows of the nodes it changes, and each workload it
touches with the map rows it runs on in the scenario's plan.

The map is the unchanged input's plan (the sweep's base, the plan every scenario is compared
with): a scenario's nodes and a workload's new nodes are highlighted on it. Read from the
WhatIfResult document (analyses/what_if/sweep.py `assemble`); nothing is decided here, and the
order is the document's (the ranking), so the same sweep gives the same page.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from podgroup_plan.render.common import plural
from podgroup_plan.render.html.view import ClusterMap

# How the page words a workload's fate (the table's words, render/what_if.py).
FATE_WORDS = {"rescheduled": "rescheduled", "unschedulable": "stays down", "lost": "lost",
              "preempted": "preempted"}
DOWN = ("lost", "unschedulable")


@dataclass
class TouchedWorkload:
    id: str  # "wl:<scenario index>/<workload index>": its entry in the page's group index
    ref: str  # "Job ml/llm-pretrain"
    fate: str
    down: bool
    below_min_count: bool
    displaced: int
    gpus: int
    why: str | None
    nodes: list[str]  # where it runs in the scenario's plan
    rows: list[int]  # those nodes' map rows (a node the base plan has not: none)


@dataclass
class ScenarioView:
    id: str  # "scn:<index>"
    name: str
    error: str | None
    action: str  # "fails 8 nodes", "another configuration", ...
    pods: int = 0
    gpus: int = 0
    down: int = 0
    rescheduled: int = 0
    rows: list[int] = field(default_factory=list)  # the map rows of the nodes it changes
    workloads: list[TouchedWorkload] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)


def _action(row: Mapping[str, Any]) -> str:
    parts = [f"{verb} {plural(len(row.get(key) or ()), 'node')}"
             for key, verb in (("failed", "fails"), ("drained", "drains"), ("cordoned", "cordons"),
                               ("added", "adds"))
             if row.get(key)]
    return ", ".join(parts) or "no node changed (configuration or feature gates)"


def scenarios(doc: Mapping[str, Any], cmap: ClusterMap) -> list[ScenarioView]:
    """Every scenario: those planned in the ranking's order (worst first), then those that could
    not be planned, in the sweep's order."""
    index = {n.name: n.index for n in cmap.nodes}
    number = {r["name"]: i for i, r in enumerate(doc["scenarios"])}
    planned = [doc["scenarios"][number[r["name"]]] for r in doc["ranking"]]
    failed = [r for r in doc["scenarios"] if r.get("error")]
    out = []
    for row in [*planned, *failed]:
        i = number[row["name"]]
        view = ScenarioView(f"scn:{i}", row["name"], row.get("error"), _action(row))
        if view.error is None:
            view.pods, view.gpus = int(row.get("pods", 0)), int(row.get("gpus", 0))
            view.rows = _rows(index, row.get("nodes") or ())
            view.workloads = [_workload(i, j, w, index) for j, w in enumerate(row.get("workloads") or ())]
            view.down = sum(1 for w in view.workloads if w.down)
            view.rescheduled = sum(1 for w in view.workloads if w.fate == "rescheduled")
            view.refused = [f"{e['namespace']}/{e['name']} on {e['node']}: {e['message']} "
                            f"({', '.join(e['budgets'])})" for e in row.get("refusedEvictions") or ()]
        out.append(view)
    return out


def _workload(i: int, j: int, w: Mapping[str, Any], index: Mapping[str, int]) -> TouchedWorkload:
    why = "a bare pod: nothing recreates it" if w["fate"] == "lost" else w.get("message")
    nodes = list(w.get("nodes") or ())
    return TouchedWorkload(
        f"wl:{i}/{j}", f"{w['kind']} {w['namespace']}/{w['name']}", FATE_WORDS.get(w["fate"], w["fate"]),
        w["fate"] in DOWN, bool(w.get("belowMinCount")), int(w.get("displacedPods", 0)), int(w.get("gpus", 0)),
        why, nodes, _rows(index, nodes))


def _rows(index: Mapping[str, int], nodes: Sequence[str]) -> list[int]:
    return sorted({index[n] for n in nodes if n in index})


def group_index(views: Sequence[ScenarioView]) -> dict[str, list[int]]:
    """The page's selectable things -> the map rows a selection highlights."""
    out: dict[str, list[int]] = {}
    for v in views:
        out[v.id] = v.rows
        for w in v.workloads:
            out[w.id] = w.rows
    return out
