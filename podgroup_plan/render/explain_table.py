"""`explain -o table`: the Explanation document for a person, in plain lines that fit the width.

It reads only the document (the JSON of `explain -o json`), so both outputs always agree.
"""
from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING, Any

from podgroup_plan.render.layout import natural_key

if TYPE_CHECKING:
    from podgroup_plan.render.registry import RenderOptions

DEFAULT_WIDTH = 80


def render_explanation(doc: dict[str, Any], width: int = DEFAULT_WIDTH) -> str:
    out = _Lines(max(width, 40))
    target = doc["target"]
    out.add(f"{target['kind']} {target['namespace']}/{target['name']}")
    owner = doc.get("owner")
    if owner:  # beside the (often generated) name, the object a person wrote
        out.add(f"owner: {owner['kind']} {target['namespace']}/{owner['name']}")
    if target["kind"] == "Pod":
        _pod(doc, out)
    else:
        _group(doc, out)
    return "\n".join(out.lines) + "\n"


class _Lines:
    def __init__(self, width: int):
        self.width = width
        self.lines: list[str] = []

    def add(self, text: str, indent: int = 0) -> None:
        pad = " " * indent
        wrapped = textwrap.wrap(text, self.width, initial_indent=pad, subsequent_indent=pad + "    ",
                                break_long_words=False, break_on_hyphens=False)
        for line in wrapped or [pad]:
            if len(line) > self.width:
                # one name longer than the indented room: shown from the margin, and a name
                # longer than the whole width in pieces (a node name is at most 63 characters)
                word = line.lstrip()
                self.lines.extend(word[i:i + self.width] for i in range(0, len(word), self.width))
            else:
                self.lines.append(line)

    def blank(self) -> None:
        if self.lines and self.lines[-1] != "":
            self.lines.append("")

    def table(self, header: list[str], rows: list[list[str]], indent: int = 2) -> None:
        """Columns as wide as their longest value; a row too wide for the width is wrapped."""
        if not rows:
            return
        widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
        for row in [header] + rows:
            text = "  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip()
            self.add(text, indent)


def _pod(doc: dict[str, Any], out: _Lines) -> None:
    status = doc.get("status")
    where = f" on {doc['node']}" if doc.get("node") else ""
    out.add(f"status: {status}{where}")
    if doc.get("podGroup"):
        out.add(f"PodGroup: {doc['podGroup']}")
    if doc.get("message"):
        out.add(f"message: {doc['message']}")
    if doc.get("nominatedNode"):
        out.add(f"nominated node: {doc['nominatedNode']}")
    cycles = doc.get("cycles") or []
    out.blank()
    if not cycles:
        out.add("The plan gave this pod no scheduling cycle.")
        return
    out.add(f"Cycles ({len(cycles)}):")
    own_group = f"PodGroup {doc['target']['namespace']}/{doc['podGroup']}" if doc.get("podGroup") else None
    for c in cycles:
        # the pod's own PodGroup is named above; its generated name would fill the line again
        scope = "its PodGroup" if c["scope"] == own_group else c["scope"]
        where = scope + (f", placement {c['placement']}" if c.get("placement") else "")
        if c.get("preemptionRerun"):
            where += ", preemption re-run"
        result = c["node"] or c["status"]
        mark = "  <- decisive" if c["decisive"] else ""
        out.add(f"#{c['cycle']} pass {c['pass']} ({where}), {c['nodes']} nodes: {result}{mark}", 2)
    pre = [p for p in doc.get("preFilter") or [] if p["status"] != "Success"]
    if pre:
        out.blank()
        out.add("PreFilter:")
        for p in pre:
            out.add(f"{p['plugin']}: {p['status']}: {p['message']}", 2)
    filters = doc.get("filters") or []
    if filters:
        out.blank()
        considered = doc.get("nodesConsidered")
        feasible = doc.get("feasibleNodes")
        out.add(f"Filter ({considered} nodes considered, {feasible} passed every plugin):")
        quiet = []
        for f in filters:
            if f["rejected"]:
                out.add(f"{f['plugin']} rejected {f['rejected']}: "
                        + "; ".join(f"{r['nodes']} {r['reason']}" for r in f["reasons"]), 2)
            else:
                quiet.append(f["plugin"] + (" (skipped)" if f.get("skipped") else ""))
        if quiet:
            out.add("rejected none: " + ", ".join(quiet), 2)
    scores = doc.get("scores") or []
    if scores:
        out.blank()
        out.add("Score (plugin normalised x weight; * the chosen node; raw scores in -o json):")
        skipped = [p["plugin"] for p in scores[0]["plugins"] if p.get("skipped")]
        for s in scores:
            parts = ", ".join(f"{p['plugin']} {p['normalized']}x{p['weight']}"
                              for p in s["plugins"] if not p.get("skipped"))
            out.add(f"{s['node']}{' *' if s['chosen'] else ''}  {s['total']} = {parts}", 2)
        if skipped:
            out.add(f"skipped by PreScore: {', '.join(skipped)}", 2)
    if doc.get("sampledNodes"):
        out.blank()
        out.add(f"percentageOfNodesToScore: {len(doc['sampledNodes'])} feasible node(s) were scored: "
                + ", ".join(doc["sampledNodes"]))
    verdict = doc.get("nodeVerdict")
    if verdict:
        out.blank()
        if not verdict["considered"]:
            out.add(f"Node {verdict['node']}: not among the nodes this cycle considered.")
        else:
            out.add(f"Node {verdict['node']}:")
            for f in verdict["filters"]:
                reasons = f" ({'; '.join(f['reasons'])})" if f["reasons"] else ""
                out.add(f"{f['plugin']}: {f['status']}{reasons}", 2)
            if verdict.get("scores"):
                s = verdict["scores"]
                parts = ", ".join(f"{p['plugin']} {p['normalized']}x{p['weight']}" for p in s["plugins"])
                out.add(f"score {s['total']}: {parts}", 2)
    hints = doc.get("wouldFit")
    if hints:
        out.blank()
        out.add("What would make it fit:")
        for h in hints:
            out.add(f"- {h['text']}", 2)


def _group(doc: dict[str, Any], out: _Lines) -> None:
    out.add(f"status: {doc.get('status')}")
    if doc.get("message"):
        out.add(f"message: {doc['message']}")
    cycles = doc.get("cycles") or []
    out.blank()
    if not cycles:
        out.add("The plan gave this group no scheduling cycle.")
    for c in cycles:
        out.add(f"Cycle {c['cycle']} (pass {c['pass']}): {c['status']}")
        if c.get("message"):
            out.add(c["message"], 2)
        placements = c.get("placements")
        if placements:
            out.add("candidate placements (evaluation order):", 2)
            for p in placements:
                out.add("- " + _placement_text(p), 4)
        pods = c.get("pods") or []
        fitted = [p for p in pods if p["status"] != "Scheduled" and p.get("fittedNode")]
        if pods:
            bound = [p for p in pods if p["status"] == "Scheduled"]
            missed = [p for p in pods if p["status"] != "Scheduled" and not p.get("fittedNode")]
            if bound:
                out.add(f"{len(bound)} pod(s) bound: " + _pods_on(bound, "node"), 2)
            if fitted:
                out.add(f"{len(fitted)} pod(s) fitted but were not bound (the group failed): "
                        + _pods_on(fitted, "fittedNode"), 2)
            if missed:
                out.add(f"{len(missed)} pod(s) did not fit or were not evaluated: "
                        + ", ".join(_short(p["pod"]) for p in _natural(missed)), 2)
        out.blank()
    pre = doc.get("preemption")
    if pre:
        out.add(f"Preemption (cycle {pre['cycle']}, pass {pre['pass']}): {pre['status']}")
        if pre.get("message"):
            out.add(pre["message"], 2)
        if pre.get("pdbs"):
            out.add("PDBs consulted: " + ", ".join(pre["pdbs"]), 2)
        units = pre.get("units") or []
        if units:
            out.add("victim units in the order the reprieve tried them "
                    f"(PDB-violating first, then by importance; {len(units)}):", 2)
            for unit in units[:20]:
                pdb = f"; PDB {', '.join(unit['pdbs'])}" if unit["pdbs"] else ""
                if unit["pdbViolatingPods"]:
                    pdb += f" (evicting it would violate it for {unit['pdbViolatingPods']} pod(s))"
                out.add(f"- {unit['unit']} (priority {unit['priority']}{pdb}): {unit['verdict']}", 4)
            if len(units) > 20:
                out.add(f"... +{len(units) - 20} more in -o json", 4)
        for v in pre.get("victims") or []:
            out.add(f"evicted {v['namespace']}/{v['name']} on {v['node']} (priority {v['priority']})", 2)
        out.blank()
    hints = doc.get("wouldFit")
    if hints:
        out.add("What would make it fit:")
        for h in hints:
            out.add(f"- {h['text']}", 2)


def _placement_text(p: dict[str, Any]) -> str:
    name = p.get("name") or "(all nodes)"
    if not p.get("evaluated"):
        return f"{name}: not evaluated"
    text = f"{name} ({p['nodes']} nodes): "
    text += "feasible" if p.get("feasible") else f"infeasible, {p.get('scheduledPods') or 0} pods placed"
    if p.get("score") is not None:
        parts = ", ".join(f"{k} {v}" for k, v in sorted((p.get("scores") or {}).items()))
        text += f", score {p['score']} ({parts})"
    if p.get("message"):
        text += f": {p['message']}"
    if p.get("chosen"):
        text += "  <- chosen"
    return text


def _natural(pods: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(pods, key=lambda p: natural_key(p["pod"]))


def _short(ref: str) -> str:
    return ref.split("/", 1)[1]


def _pods_on(pods: list[dict[str, Any]], field: str, limit: int = 8) -> str:
    items = [f"{_short(p['pod'])}->{p[field]}" for p in _natural(pods)]
    more = f", ... +{len(items) - limit} more" if len(items) > limit else ""
    return ", ".join(items[:limit]) + more


def render_text(doc: dict[str, Any], options: RenderOptions) -> str:
    """The registry's entry (render/registry.py)."""
    return render_explanation(doc, width=options.width)
