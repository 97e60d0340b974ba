"""The `diff -o table` rendering of a PlanDiff document (see `podgroup_plan.diff`)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from rich.console import Console
from rich.text import Text

from podgroup_plan.render import layout
from podgroup_plan.render.common import plural, ref
from podgroup_plan.render.layout import Column, natural_ref_key
from podgroup_plan.render.table import DEFAULT_WIDTH, notes_lines, status_text

if TYPE_CHECKING:
    from podgroup_plan.render.registry import RenderOptions

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


def summary_table(doc: Mapping[str, Any], width: int) -> list[Text]:
    sa, sb = doc["a"]["summary"], doc["b"]["summary"]
    t = layout.Table("Summary", [Column(""), Column("A", justify="right"),
                                 Column("B", justify="right"), Column("B − A", justify="right")])
    t.add_row("Feasible", "yes" if doc["a"]["feasible"] else "no",
              "yes" if doc["b"]["feasible"] else "no", "")
    for key, label in SUMMARY_ROWS:
        t.add_row(label, str(sa[key]), str(sb[key]), _delta(sa[key], sb[key]))
    return t.lines(width)


def changes_table(title: str, rows: list[Mapping[str, Any]], where: str, column: str,
                  width: int) -> list[Text]:
    t = layout.Table(title, [Column(column, elide=True), Column("A"), Column("B")])
    for row in sorted(rows, key=lambda r: natural_ref_key(r["namespace"], r["name"])):
        t.add_row(ref(row["namespace"], row["name"]),
                  _side(row["a"]["status"], row["a"][where]),
                  _side(row["b"]["status"], row["b"][where]))
    return t.lines(width)


def victims_table(doc: Mapping[str, Any], width: int) -> list[Text]:
    t = layout.Table("Victims evicted by one plan only", [Column("Pod", elide=True),
                                                          Column("Evicted by")])
    for side, key in (("A only", "onlyA"), ("B only", "onlyB")):
        for v in sorted(doc["victims"][key], key=lambda r: natural_ref_key(r["namespace"], r["name"])):
            t.add_row(ref(v["namespace"], v["name"]), side)
    return t.lines(width)


def split_notes(doc: Mapping[str, Any]) -> list[tuple[str, list[str]]]:
    """(which plans, notes): notes of both plans once, then those of A only, of B only."""
    a, b = doc["a"].get("notes", []), doc["b"].get("notes", [])
    both = [n for n in a if n in b]
    return [(side, notes) for side, notes in (
        ("A and B", both), ("A only", [n for n in a if n not in b]),
        ("B only", [n for n in b if n not in a])) if notes]


def blocks(doc: Mapping[str, Any], label_a: str, label_b: str, width: int) -> list[list[Text]]:
    head = layout.wrap(Text(headline(doc), style="bold green" if doc["identical"] else "bold yellow"),
                       width)
    head += layout.wrap(Text(f"A: {label_a}"), width, 2, 2)
    head += layout.wrap(Text(f"B: {label_b}"), width, 2, 2)
    parts = [head, summary_table(doc, width)]
    if doc["podGroups"]:
        parts.append(changes_table("PodGroups that differ (status, placement)", doc["podGroups"],
                                   "placement", "PodGroup", width))
    if doc.get("compositePodGroups"):
        parts.append(changes_table("CompositePodGroups that differ (status, placement)",
                                   doc["compositePodGroups"], "placement", "CompositePodGroup",
                                   width))
    if doc["pods"]:
        parts.append(changes_table("Pods that differ (status, node)", doc["pods"], "node", "Pod",
                                   width))
    if doc["victims"]["onlyA"] or doc["victims"]["onlyB"]:
        parts.append(victims_table(doc, width))
    for side, notes in split_notes(doc):
        parts.append(notes_lines(notes, width, f"Notes, {side} (what the plan did not apply)"))
    return parts


def print_diff(doc: Mapping[str, Any], console: Console, label_a: str, label_b: str) -> None:
    layout.render_lines(blocks(doc, label_a, label_b, console.width), console=console)


def render_diff_table(doc: Mapping[str, Any], *, label_a: str = "A", label_b: str = "B",
                      width: int = DEFAULT_WIDTH, color: bool = False) -> str:
    return layout.render_lines(blocks(doc, label_a, label_b, width), color=color)


# --- the registry's entries (render/registry.py) --------------------------------------------

def render_text(doc: Mapping[str, Any], options: RenderOptions) -> str:
    return render_diff_table(doc, label_a=options.label_a, label_b=options.label_b,
                             width=options.width)


def render_terminal(doc: Mapping[str, Any], console: Console, options: RenderOptions) -> None:
    print_diff(doc, console, options.label_a, options.label_b)
