"""`simulate --capacity`: the table's GPU fragmentation section, from the result's `capacity`
section (podgroup_plan/capacity.py): per zone and rack, the GPU nodes, the free GPUs and the N-GPU
slots left, before -> after the plan, and the nodes by free GPUs after it."""
from __future__ import annotations

from typing import Any, Mapping

from rich.text import Text

from podgroup_plan.render import layout
from podgroup_plan.render.layout import Column


def _change(before: int, after: int) -> str:
    return str(after) if before == after else f"{before}→{after}"


def _histogram(free: Mapping[str, Any]) -> str:
    """`0×48 4×4 7×11`: how many nodes have k GPUs free."""
    return " ".join(f"{h['free']}×{h['nodes']}" for h in free["histogram"]) or "—"


def _label(kind: str, domain: Mapping[str, Any]) -> str:
    if kind == "cluster":
        return "cluster"
    name = domain["name"] if domain["name"] is not None else "(unlabelled)"
    return f"  {name}" if kind == "rack" else name


def capacity_lines(section: Mapping[str, Any] | None, width: int) -> list[Text]:
    """The section's lines; a sentence when no node has a GPU resource."""
    if section is None:
        return []
    if section["resource"] is None:
        return layout.bullets("GPU fragmentation", ["no node has a GPU resource (<vendor>/gpu)"], width)
    sizes = section["slotSizes"]
    t = layout.Table(f"GPU fragmentation ({section['resource']}, before→after the plan)",
                     [Column("Zone / rack", elide=True), Column("GPU nodes", justify="right"),
                      Column("Free", justify="right")] +
                     [Column(f"{s}-GPU", justify="right") for s in sizes] +
                     [Column("Free×nodes after", fold=True)],
                     caption=f"slots: N-GPU pods that still fit by GPU count; zones from "
                             f"{section['zoneKey'] or 'no zone label'}, racks from "
                             f"{section['rackKey'] or 'no rack label'}")
    rows = [("cluster", section["cluster"])]
    for zone in section["zones"]:
        rows.append(("zone", zone))
        rows += [("rack", r) for r in section["racks"] if r["zone"] == zone["name"]]
    for kind, d in rows:
        slots = [_change(b["count"], a["count"]) for b, a in zip(d["before"]["slots"], d["after"]["slots"], strict=True)]
        t.add_row(_label(kind, d), str(d["gpuNodes"]), _change(d["before"]["free"], d["after"]["free"]),
                  *slots, _histogram(d["after"]))
    return t.lines(width)
