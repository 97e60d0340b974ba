"""The `headroom` renderings (table, Markdown) of a Headroom document
(podgroup_plan.analyses.headroom.report)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.text import Text

from podgroup_plan.render import layout
from podgroup_plan.render.common import plural
from podgroup_plan.render.layout import Column, natural_key
from podgroup_plan.render.registry import RenderOptions

SHOWN_COPIES = 10
GPU_SUFFIX = "/gpu"
ZONE = "topology.kubernetes.io/zone"


def _workloads(doc: Mapping[str, Any]) -> str:
    return " + ".join(f"{w['kind']} {w['namespace']}/{w['name']}" for w in doc["workloads"])


def headline(doc: Mapping[str, Any]) -> list[str]:
    lines = []
    grow = doc.get("grow")
    if grow is None:
        more = "" if not doc["maxReached"] else f" (--max {doc['max']} reached)"
        lines.append(f"{plural(doc['fits'], 'more copy', 'more copies')} of {_workloads(doc)} fit{more}.")
    else:
        lines.append(f"{plural(grow['before'], 'more copy', 'more copies')} of {_workloads(doc)} fit on the "
                     f"cluster as it is (--target {grow['target']}).")
    exact = doc.get("exact")
    if exact is not None:
        line = f"Exact (CP-SAT, {exact['status']}): {'at most ' if exact['upperBound'] else ''}{exact['fits']}."
        if exact["leftOnTheTable"]:
            line += f" The scheduler's order leaves {plural(exact['leftOnTheTable'], 'copy', 'copies')} on the table."
        lines.append(line)
        if exact["upperBound"]:
            lines.append("Not modelled, so the exact answer is an upper bound: " + "; ".join(exact["notModelled"]) + ".")
    if grow is not None:
        if grow["nodes"] is None:
            lines.append(f"No number of {' / '.join(grow['shapes'])} nodes makes {grow['target']} copies fit.")
        else:
            lines.append(f"Adding {plural(grow['nodes'], 'node')} like {' / '.join(grow['shapes'])} makes "
                         f"{grow['target']} copies fit; the tables below are the grown cluster's.")
    failure = doc.get("firstFailure")
    if failure is not None:
        lines.append(f"The next copy ({failure['name']}) does not fit: {failure['message']}")
    return lines


def _free(free: Mapping[str, int]) -> tuple[str, str]:
    gpus = sum(v for r, v in free.items() if r.endswith(GPU_SUFFIX))
    cpu = free.get("cpu", 0)
    return str(gpus), f"{cpu / 1000:g}"


def blocks(doc: Mapping[str, Any], width: int) -> list[list[Text]]:
    parts = [[line for text in headline(doc) for line in layout.wrap(Text(text), width)]]
    by = doc["by"]
    t = layout.Table(f"Per {by}", [Column("Domain", elide=True), Column("Copies", justify="right"),
                                    Column("Nodes", justify="right"), Column("Free GPUs", justify="right"),
                                    Column("Free CPUs", justify="right")])
    for value, row in sorted(doc["byDomain"][by].items(), key=lambda kv: natural_key(kv[0])):
        t.add_row(value, str(row["copies"]), str(row["nodes"]), *_free(row["free"]))
    parts.append(t.lines(width))
    if doc["copies"]:
        c = layout.Table("Copies", [Column("Copy", elide=True), Column("Nodes", fold=True)])
        for copy in doc["copies"][:SHOWN_COPIES]:
            # the --by label and the zone; -o json has every topology label
            shown = [k for k in (ZONE, by) if k in copy["domains"]]
            where = ", ".join(f"{k.rsplit('/', 1)[-1]}={'/'.join(copy['domains'][k])}" for k in dict.fromkeys(shown))
            c.add_row(copy["name"], ", ".join(sorted(copy["nodes"], key=natural_key)), details=[where])
        if len(doc["copies"]) > SHOWN_COPIES:
            c.caption = f"+{len(doc['copies']) - SHOWN_COPIES} more (-o json lists every copy)"
        parts.append(c.lines(width))
    packing = (doc.get("exact") or {}).get("packing") or []
    if packing:
        p = layout.Table(f"One packing of {plural(len(packing), 'copy', 'copies')} (CP-SAT)",
                         [Column("Copy", justify="right"), Column("Nodes", fold=True)])
        for copy in packing[:SHOWN_COPIES]:
            p.add_row(str(copy["copy"]), _placed(copy, doc["exact"]))
        if len(packing) > SHOWN_COPIES:
            p.caption = f"+{len(packing) - SHOWN_COPIES} more (-o json lists every copy)"
        parts.append(p.lines(width))
    if doc.get("notes"):
        parts.append(layout.bullets("Notes", doc["notes"], width))
    return parts


def _placed(copy: Mapping[str, Any], exact: Mapping[str, Any]) -> str:
    """`n1 (2 pods: 1x 2 GPUs, 1x 6 GPUs), n2 ...`: each node of the copy and what goes there."""
    per_node: dict[str, list[int]] = {}
    for pod in copy["pods"]:
        per_node.setdefault(pod["node"], []).append(pod["shape"])
    out = []
    for node in sorted(per_node, key=natural_key):
        shapes = per_node[node]
        what = ", ".join(f"{shapes.count(s)}x {_shape(exact['shapes'][s])}" for s in sorted(set(shapes)))
        out.append(f"{node} ({what})")
    return ", ".join(out)


def _shape(shape: Mapping[str, Any]) -> str:
    requests = shape["requests"]
    gpus = sum(v for r, v in requests.items() if r.endswith(GPU_SUFFIX))
    if gpus:
        return plural(gpus, "GPU")
    return f"{requests.get('cpu', 0) / 1000:g} CPU"


def render_text(doc: Mapping[str, Any], options: RenderOptions) -> str:
    return layout.render_lines(blocks(doc, options.width))


def _md(text: Any) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def render_markdown(doc: Mapping[str, Any], options: RenderOptions) -> str:
    lines = ["### Headroom", ""] + [f"- {_md(t)}" for t in headline(doc)] + [""]
    by = doc["by"]
    lines += [f"| {_md(by)} | Copies | Nodes | Free GPUs | Free CPUs |", "|---|---:|---:|---:|---:|"]
    for value, row in sorted(doc["byDomain"][by].items(), key=lambda kv: natural_key(kv[0])):
        lines.append(f"| {_md(value)} | {row['copies']} | {row['nodes']} | " + " | ".join(_free(row["free"])) + " |")
    if doc["copies"]:
        lines += ["", "| Copy | Nodes | Domains |", "|---|---|---|"]
        for copy in doc["copies"][:SHOWN_COPIES]:
            where = ", ".join(f"{k}={'/'.join(v)}" for k, v in copy["domains"].items())
            lines.append(f"| {_md(copy['name'])} | {_md(', '.join(copy['nodes']))} | {_md(where)} |")
        if len(doc["copies"]) > SHOWN_COPIES:
            lines += ["", f"+{len(doc['copies']) - SHOWN_COPIES} more (-o json lists every copy)"]
    packing = (doc.get("exact") or {}).get("packing") or []
    if packing:
        lines += ["", f"One packing of {plural(len(packing), 'copy', 'copies')} (CP-SAT):", "",
                  "| Copy | Nodes |", "|---:|---|"]
        for copy in packing[:SHOWN_COPIES]:
            lines.append(f"| {copy['copy']} | {_md(_placed(copy, doc['exact']))} |")
        if len(packing) > SHOWN_COPIES:
            lines += ["", f"+{len(packing) - SHOWN_COPIES} more (-o json lists every copy)"]
    return "\n".join(lines) + "\n"
