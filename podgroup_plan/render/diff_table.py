"""The `diff -o table` rendering of a PlanDiff document (see `podgroup_plan.diff`)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Mapping

from rich.console import Console
from rich.text import Text

from podgroup_plan.render import common, layout
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


class Owners:
    """Owner names for a diff's rows, from the two plans the diff was made of (the PlanDiff
    document names pods and PodGroups only): `Job ns/train` for a Job's PodGroup, and pods of
    one owner in the same states on both sides folded into one row (`Job ns/train (40 pods)`).
    Without the plans (a document read back from JSON) every row keeps its own name."""

    def __init__(self, plans: tuple[Any, ...] | None = None):
        self._labels = [common.Labels(p) for p in plans or ()]
        self._pods = [{(x.namespace, x.name): x for x in p.pods} for p in plans or ()]
        self.known = bool(plans)

    def group(self, namespace: str, name: str) -> str:
        for labels in self._labels:
            label = labels.group(namespace, name)
            if label != ref(namespace, name):
                return label
        return ref(namespace, name)

    def pod_owner(self, namespace: str, name: str) -> str | None:
        for labels, pods in zip(self._labels, self._pods, strict=True):
            pod = pods.get((namespace, name))
            if pod is not None:
                return labels.pod_owner(pod)
        return None


def fold_pods(rows: list[Mapping[str, Any]], owners: Owners,
              same: Callable[[Mapping[str, Any]], tuple]) -> list[tuple[str, list[Mapping[str, Any]]]]:
    """(first cell, rows): pods of one owner with equal `same(row)` taken together as `Job
    ns/train (6 pods)`, in the rows' order; a pod without an owner (or alone) by its name."""
    def key(r: Mapping[str, Any]) -> tuple:
        return (owners.pod_owner(r["namespace"], r["name"]) or (r["namespace"], r["name"]), same(r))

    return [(f"{k[0]} ({len(rs)} pods)" if len(rs) > 1 else ref(rs[0]["namespace"], rs[0]["name"]), rs)
            for k, rs in common.fold(rows, key)]


def _where(rows: list[Mapping[str, Any]], side: str, where: str) -> str | None:
    """A folded row's node (or placement): the one its entries share, else `6 nodes`."""
    return common.nodes_cell([r[side][where] for r in rows])


def changes_table(title: str, rows: list[Mapping[str, Any]], where: str, column: str,
                  width: int, owners: Owners | None = None) -> list[Text]:
    """What differs, one row per object; with `owners`, pods of one owner whose status is the
    same under A and under B share a row (their nodes counted when they differ)."""
    owners = owners or Owners()
    # owner names (`Job ns/train (6 pods)`) wrap the row rather than be cut; pod names may be
    t = layout.Table(title, [Column(column, whole=owners.known, elide=not owners.known),
                             Column("A"), Column("B")])
    ordered = sorted(rows, key=lambda r: natural_ref_key(r["namespace"], r["name"]))
    if column == "Pod":
        for first, same in fold_pods(ordered, owners, statuses):
            t.add_row(first, _side(same[0]["a"]["status"], _where(same, "a", where)),
                      _side(same[0]["b"]["status"], _where(same, "b", where)))
        return t.lines(width)
    for row in ordered:
        t.add_row(owners.group(row["namespace"], row["name"]) if column == "PodGroup"
                  else ref(row["namespace"], row["name"]),
                  _side(row["a"]["status"], row["a"][where]),
                  _side(row["b"]["status"], row["b"][where]))
    return t.lines(width)


def statuses(row: Mapping[str, Any]) -> tuple:
    """What pods of one owner must share to fold into one row of "Pods that differ"."""
    return (row["a"]["status"], row["b"]["status"])


def victims_table(doc: Mapping[str, Any], width: int, owners: Owners | None = None) -> list[Text]:
    owners = owners or Owners()
    t = layout.Table("Victims evicted by one plan only", [
        Column("Pod", whole=owners.known, elide=not owners.known), Column("Evicted by")])
    for side, key in (("A only", "onlyA"), ("B only", "onlyB")):
        ordered = sorted(doc["victims"][key], key=lambda r: natural_ref_key(r["namespace"], r["name"]))
        for first, _ in fold_pods(ordered, owners, lambda r: ()):
            t.add_row(first, side)
    return t.lines(width)


def split_notes(doc: Mapping[str, Any]) -> list[tuple[str, list[str]]]:
    """(which plans, notes): notes of both plans once, then those of A only, of B only."""
    a, b = doc["a"].get("notes", []), doc["b"].get("notes", [])
    both = [n for n in a if n in b]
    return [(side, notes) for side, notes in (
        ("A and B", both), ("A only", [n for n in a if n not in b]),
        ("B only", [n for n in b if n not in a])) if notes]


def blocks(doc: Mapping[str, Any], label_a: str, label_b: str, width: int,
           plans: tuple[Any, ...] | None = None) -> list[list[Text]]:
    owners = Owners(plans)
    head = layout.wrap(Text(headline(doc), style="bold green" if doc["identical"] else "bold yellow"),
                       width)
    head += layout.wrap(Text(f"A: {label_a}"), width, 2, 2)
    head += layout.wrap(Text(f"B: {label_b}"), width, 2, 2)
    parts = [head, summary_table(doc, width)]
    if doc["podGroups"]:
        parts.append(changes_table("PodGroups that differ (status, placement)", doc["podGroups"],
                                   "placement", "PodGroup", width, owners))
    if doc.get("compositePodGroups"):
        parts.append(changes_table("CompositePodGroups that differ (status, placement)",
                                   doc["compositePodGroups"], "placement", "CompositePodGroup",
                                   width))
    if doc["pods"]:
        parts.append(changes_table("Pods that differ (status, node)", doc["pods"], "node", "Pod",
                                   width, owners))
    if doc["victims"]["onlyA"] or doc["victims"]["onlyB"]:
        parts.append(victims_table(doc, width, owners))
    for side, notes in split_notes(doc):
        parts.append(notes_lines(notes, width, f"Notes, {side} (what the plan did not apply)"))
    return parts


def print_diff(doc: Mapping[str, Any], console: Console, label_a: str, label_b: str,
               plans: tuple[Any, ...] | None = None) -> None:
    layout.render_lines(blocks(doc, label_a, label_b, console.width, plans), console=console)


def render_diff_table(doc: Mapping[str, Any], *, label_a: str = "A", label_b: str = "B",
                      width: int = DEFAULT_WIDTH, color: bool = False,
                      plans: tuple[Any, ...] | None = None) -> str:
    """`plans`: the PlanResults of A and B the document was made of, for owner names."""
    return layout.render_lines(blocks(doc, label_a, label_b, width, plans), color=color)


# --- the registry's entries (render/registry.py) --------------------------------------------

def render_text(doc: Mapping[str, Any], options: RenderOptions) -> str:
    return render_diff_table(doc, label_a=options.label_a, label_b=options.label_b,
                             width=options.width, plans=options.plans)


def render_terminal(doc: Mapping[str, Any], console: Console, options: RenderOptions) -> None:
    print_diff(doc, console, options.label_a, options.label_b, options.plans)
