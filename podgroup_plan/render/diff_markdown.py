"""The `diff -o markdown` rendering of a PlanDiff document, for a PR comment or job summary."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Mapping

from podgroup_plan.render.common import nodes_cell
from podgroup_plan.render.diff_table import (
    NOT_LISTED,
    SUMMARY_ROWS,
    Owners,
    fold_pods,
    headline,
    split_notes,
    statuses,
)
from podgroup_plan.render.layout import natural_ref_key
from podgroup_plan.render.markdown import MAX_ROWS, cell, code, notes, table

if TYPE_CHECKING:
    from podgroup_plan.render.registry import RenderOptions


def _side(status: str | None, where: str | None) -> str:
    if status is None:
        return f"_{NOT_LISTED}_"
    text = status if status == "Scheduled" else f"**{status}**"
    if not where:
        return text
    # a folded row's `6 nodes` is a count, not a node name to copy
    return text + (f" on {where}" if re.fullmatch(r"\d+ nodes", where) else f" on `{cell(where)}`")


def _natural(rows: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return sorted(rows, key=lambda r: natural_ref_key(r["namespace"], r["name"]))


def _changes(title: str, rows: list[Mapping[str, Any]], where: str, column: str,
             owners: Owners) -> list[str]:
    """One row per object; pods of one owner in the same states under A and B folded into one
    (`Job ns/train (6 pods)`), PodGroups named by their owner (as `diff -o table`)."""
    if column == "Pod":
        folded = [(first, same[0]["a"]["status"], nodes_cell([r["a"][where] for r in same]),
                   same[0]["b"]["status"], nodes_cell([r["b"][where] for r in same]))
                  for first, same in fold_pods(_natural(rows), owners, statuses)]
    else:
        folded = [(owners.group(r["namespace"], r["name"]) if column == "PodGroup"
                   else f"{r['namespace']}/{r['name']}",
                   r["a"]["status"], r["a"][where], r["b"]["status"], r["b"][where])
                  for r in _natural(rows)]
    shown = folded[:MAX_ROWS]
    lines = [f"### {title}", ""] + table(
        [column, "A", "B"],
        [[code(first), _side(sa, wa), _side(sb, wb)] for first, sa, wa, sb, wb in shown])
    if len(folded) > len(shown):
        lines += ["", f"_{len(folded) - len(shown)} more not listed; `-o json` lists every one._"]
    return lines


def render_diff_markdown(doc: Mapping[str, Any], *, label_a: str = "A", label_b: str = "B",
                         plans: tuple[Any, ...] | None = None) -> str:
    """`plans`: the PlanResults of A and B the document was made of, for owner names."""
    owners = Owners(plans)
    mark = "✅" if doc["identical"] else "⚠️"
    sa, sb = doc["a"]["summary"], doc["b"]["summary"]
    rows = [["Feasible", "yes" if doc["a"]["feasible"] else "no",
             "yes" if doc["b"]["feasible"] else "no", ""]]
    rows += [[label, sa[k], sb[k], f"{sb[k] - sa[k]:+d}" if sa[k] != sb[k] else ""]
             for k, label in SUMMARY_ROWS]
    sections = [
        [f"## {mark} podgroup-plan diff: {headline(doc)}", "",
         f"- **A**: {cell(label_a)}", f"- **B**: {cell(label_b)}"],
        ["### Summary", ""] + table(["", "A", "B", "B − A"], rows, align="lrrr"),
    ]
    if doc["podGroups"]:
        sections.append(_changes("PodGroups that differ", doc["podGroups"], "placement", "PodGroup",
                                 owners))
    if doc.get("compositePodGroups"):
        sections.append(_changes("CompositePodGroups that differ", doc["compositePodGroups"],
                                 "placement", "CompositePodGroup", owners))
    if doc["pods"]:
        sections.append(_changes("Pods that differ", doc["pods"], "node", "Pod", owners))
    victims = [[code(first), side]
               for side, key in (("A only", "onlyA"), ("B only", "onlyB"))
               for first, _ in fold_pods(_natural(doc["victims"][key]), owners, lambda r: ())]
    if victims:
        sections.append(["### Victims evicted by one plan only", ""] +
                        table(["Pod", "Evicted by"], victims))
    for side, items in split_notes(doc):
        sections.append(notes(items, f"Notes, {side} (what the plan did not apply)"))
    return "\n\n".join("\n".join(s) for s in sections) + "\n"


def render_text(doc: Mapping[str, Any], options: RenderOptions) -> str:
    """The registry's entry (render/registry.py)."""
    return render_diff_markdown(doc, label_a=options.label_a, label_b=options.label_b,
                                plans=options.plans)
