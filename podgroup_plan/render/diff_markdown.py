"""The `diff -o markdown` rendering of a PlanDiff document, for a PR comment or job summary."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from podgroup_plan.render.diff_table import NOT_LISTED, SUMMARY_ROWS, headline, split_notes
from podgroup_plan.render.layout import natural_ref_key
from podgroup_plan.render.markdown import MAX_ROWS, cell, code, notes, table

if TYPE_CHECKING:
    from podgroup_plan.render.registry import RenderOptions


def _side(status: str | None, where: str | None) -> str:
    if status is None:
        return f"_{NOT_LISTED}_"
    text = status if status == "Scheduled" else f"**{status}**"
    return text + (f" on `{cell(where)}`" if where else "")


def _natural(rows: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return sorted(rows, key=lambda r: natural_ref_key(r["namespace"], r["name"]))


def _changes(title: str, rows: list[Mapping[str, Any]], where: str, column: str) -> list[str]:
    shown = _natural(rows)[:MAX_ROWS]
    lines = [f"### {title}", ""] + table(
        [column, "A", "B"],
        [[code(f"{r['namespace']}/{r['name']}"), _side(r["a"]["status"], r["a"][where]),
          _side(r["b"]["status"], r["b"][where])] for r in shown])
    if len(rows) > len(shown):
        lines += ["", f"_{len(rows) - len(shown)} more not listed; `-o json` lists every one._"]
    return lines


def render_diff_markdown(doc: Mapping[str, Any], *, label_a: str = "A", label_b: str = "B") -> str:
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
        sections.append(_changes("PodGroups that differ", doc["podGroups"], "placement", "PodGroup"))
    if doc.get("compositePodGroups"):
        sections.append(_changes("CompositePodGroups that differ", doc["compositePodGroups"],
                                 "placement", "CompositePodGroup"))
    if doc["pods"]:
        sections.append(_changes("Pods that differ", doc["pods"], "node", "Pod"))
    victims = [[code(f"{v['namespace']}/{v['name']}"), side]
               for side, key in (("A only", "onlyA"), ("B only", "onlyB"))
               for v in _natural(doc["victims"][key])]
    if victims:
        sections.append(["### Victims evicted by one plan only", ""] +
                        table(["Pod", "Evicted by"], victims))
    for side, items in split_notes(doc):
        sections.append(notes(items, f"Notes, {side} (what the plan did not apply)"))
    return "\n\n".join("\n".join(s) for s in sections) + "\n"


def render_text(doc: Mapping[str, Any], options: RenderOptions) -> str:
    """The registry's entry (render/registry.py)."""
    return render_diff_markdown(doc, label_a=options.label_a, label_b=options.label_b)
