"""The `diff -o table` rendering of a PlanDiff document (see `podgroup_plan.diff`)."""
from __future__ import annotations

from typing import Any, Mapping

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from podgroup_plan.render.common import plural, ref
from podgroup_plan.render.table import new_table, notes_block, render_text, status_text

# A pod that one plan does not list was running in the input and that plan did not evict it
# (pods[] lists every pending pod and every evicted one).
NOT_LISTED = "running, not evicted"

SUMMARY_ROWS = (
    ("nodes", "Nodes"),
    ("podsScheduled", "Pods scheduled"),
    ("podsUnschedulable", "Pods unschedulable"),
    ("podsWaiting", "Pods waiting"),
    ("podsPreempted", "Pods preempted"),
    ("podGroupsScheduled", "PodGroups scheduled"),
    ("podGroupsUnschedulable", "PodGroups unschedulable"),
    ("podGroupsWaiting", "PodGroups waiting"),
)


def headline(doc: Mapping[str, Any]) -> str:
    """`A and B give the same plan.` or what differs, counted."""
    if doc["identical"]:
        return "A and B give the same plan."
    parts = []
    if doc["podGroups"]:
        parts.append(plural(len(doc["podGroups"]), "PodGroup"))
    if doc.get("compositePodGroups"):
        parts.append(plural(len(doc["compositePodGroups"]), "CompositePodGroup"))
    if doc["pods"]:
        parts.append(plural(len(doc["pods"]), "pod"))
    victims = len(doc["victims"]["onlyA"]) + len(doc["victims"]["onlyB"])
    if victims:
        parts.append(plural(victims, "victim"))
    return "A and B differ: " + (", ".join(parts) or "summary counts") + "."


def _delta(a: int, b: int) -> Text:
    if a == b:
        return Text("", style="dim")
    return Text(f"{b - a:+d}", style="bold")


def _side(status: str | None, where: str | None) -> Text:
    if status is None:
        return Text(NOT_LISTED, style="dim")
    text = status_text(status)
    if where:
        text.append(f" on {where}")
    return text


def summary_table(doc: Mapping[str, Any], label_a: str, label_b: str) -> Table:
    sa, sb = doc["a"]["summary"], doc["b"]["summary"]
    t = new_table("Summary")
    t.add_column("")
    t.add_column("A", justify="right")
    t.add_column("B", justify="right")
    t.add_column("B − A", justify="right")
    t.add_row("Feasible", "yes" if doc["a"]["feasible"] else "no",
              "yes" if doc["b"]["feasible"] else "no", "")
    for key, label in SUMMARY_ROWS:
        t.add_row(label, str(sa[key]), str(sb[key]), _delta(sa[key], sb[key]))
    return t


def changes_table(title: str, rows: list[Mapping[str, Any]], where: str, column: str) -> Table:
    t = new_table(title)
    t.add_column(column, overflow="fold")
    t.add_column("A", overflow="fold")
    t.add_column("B", overflow="fold")
    for row in rows:
        t.add_row(Text(ref(row["namespace"], row["name"])),
                  _side(row["a"]["status"], row["a"][where]),
                  _side(row["b"]["status"], row["b"][where]))
    return t


def victims_table(doc: Mapping[str, Any]) -> Table:
    t = new_table("Victims evicted by one plan only")
    t.add_column("Pod", overflow="fold")
    t.add_column("Evicted by")
    for side, key in (("A only", "onlyA"), ("B only", "onlyB")):
        for v in doc["victims"][key]:
            t.add_row(Text(ref(v["namespace"], v["name"])), side)
    return t


def split_notes(doc: Mapping[str, Any]) -> list[tuple[str, list[str]]]:
    """(which plans, notes): notes of both plans once, then those of A only, of B only."""
    a, b = doc["a"].get("notes", []), doc["b"].get("notes", [])
    both = [n for n in a if n in b]
    return [(side, notes) for side, notes in (
        ("A and B", both), ("A only", [n for n in a if n not in b]),
        ("B only", [n for n in b if n not in a])) if notes]


def renderables(doc: Mapping[str, Any], label_a: str, label_b: str) -> list[RenderableType]:
    head = Text(headline(doc), style="bold green" if doc["identical"] else "bold yellow")
    head.append(f"\n  A: {label_a}\n  B: {label_b}", style="")
    parts: list[RenderableType] = [head, summary_table(doc, label_a, label_b)]
    if doc["podGroups"]:
        parts.append(changes_table("PodGroups that differ (status, placement)", doc["podGroups"],
                                   "placement", "PodGroup"))
    if doc.get("compositePodGroups"):
        parts.append(changes_table("CompositePodGroups that differ (status, placement)",
                                   doc["compositePodGroups"], "placement", "CompositePodGroup"))
    if doc["pods"]:
        parts.append(changes_table("Pods that differ (status, node)", doc["pods"], "node", "Pod"))
    if doc["victims"]["onlyA"] or doc["victims"]["onlyB"]:
        parts.append(victims_table(doc))
    for side, notes in split_notes(doc):
        parts.append(notes_block(notes, f"Notes, {side} (what the plan did not apply)"))
    return parts


def render_diff_table(doc: Mapping[str, Any], *, label_a: str = "A", label_b: str = "B",
                      width: int = 100, color: bool = False) -> str:
    return render_text(renderables(doc, label_a, label_b), width=width, color=color)

