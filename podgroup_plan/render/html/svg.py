"""The SVG of the HTML report, generated as text: one map cell per node, grouped by rack, and the
fragmentation histograms. Strings are joined, not templated: a 5,000-node map is 5,000 cells.

Colours are ColorBrewer's single-hue Blues (readable with every kind of colour blindness: they
differ in lightness only); pods the plan places and evicts are marked by shape (a triangle, a
cross), not by colour alone.
"""
from __future__ import annotations

from math import ceil
from typing import Iterable

from markupsafe import escape

from podgroup_plan.capacity import CPU, GPU, MEASURES
from podgroup_plan.render.html.view import EVICTED, MOVED, PLACED, MapNode, Rack

# allocation 0 % .. 100 %, in nine steps (ColorBrewer Blues 9)
PALETTE = ("#f7fbff", "#deebf7", "#c6dbef", "#9ecae1", "#6baed6", "#4292c6", "#2171b5", "#08519c", "#08306b")
NONE_FILL = "#e0e0e0"  # the node has none of the resource shown
CELL, GAP = 18, 3


def level(allocatable: int, requested: int) -> int | None:
    """The palette step of `requested` of `allocatable`; None when there is nothing to allocate."""
    if allocatable <= 0:
        return None
    share = min(max(requested / allocatable, 0.0), 1.0)
    return min(int(share * (len(PALETTE) - 1) + 0.5), len(PALETTE) - 1)


def default_measure(node: MapNode) -> int:
    """GPU where the node has GPUs, else CPU (index into MEASURES)."""
    return MEASURES.index(GPU) if node.allocatable[MEASURES.index(GPU)] > 0 else MEASURES.index(CPU)


def fill(node: MapNode, measure: int | None = None, when: str = "after") -> str:
    m = default_measure(node) if measure is None else measure
    used = node.after if when == "after" else node.before
    step = level(node.allocatable[m], used[m])
    return NONE_FILL if step is None else PALETTE[step]


def columns(count: int) -> int:
    """Cells per row of a rack: racks are short rows, a big unlabelled pool a near-square."""
    if count <= 16:
        return max(count, 1)
    return min(48, max(16, ceil((count * 2) ** 0.5)))


def rack_svg(rack: Rack, label: str, moved: Iterable[int] = ()) -> str:
    """One rack's cells. Each cell is focusable through the map's roving tabindex (report.js);
    its label says what the tooltip says first."""
    moved = set(moved)
    cols = columns(len(rack.nodes))
    rows = ceil(len(rack.nodes) / cols) if rack.nodes else 1
    width, height = cols * (CELL + GAP) + GAP, rows * (CELL + GAP) + GAP
    out = [f'<svg class="rack-cells" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
           f'role="group" aria-label="{escape(label)}">']
    for k, node in enumerate(rack.nodes):
        x, y = GAP + (k % cols) * (CELL + GAP), GAP + (k // cols) * (CELL + GAP)
        m = default_measure(node)
        alloc = node.allocatable[m]
        share = f"{round(100 * node.after[m] / alloc)}%" if alloc > 0 else "none"
        aria = f"{node.name}, {'GPU' if MEASURES[m] == GPU else 'CPU'} {share}"
        placed, evicted = node.count(PLACED), node.count(EVICTED)
        if placed:
            aria += f", {placed} placed"
        if evicted:
            aria += f", {evicted} evicted"
        # size and corners of the rect come from the style sheet (.cell rect): 5,000 cells
        out.append(f'<g class="cell" data-i="{node.index}" tabindex="-1" role="button" '
                   f'aria-label="{escape(aria)}" transform="translate({x},{y})"><rect fill="{fill(node)}"/>')
        if placed:
            out.append('<path class="mk-placed" d="M9 0H18V9Z"/>')
        if evicted:
            out.append('<path class="mk-evicted" d="M3 3L10 10M10 3L3 10"/>')
        if node.index in moved:
            out.append('<circle class="mk-moved" cx="13" cy="13" r="3.5"/>')
        out.append("</g>")
    out.append("</svg>")
    return "".join(out)


def _amount(measure: str, value: int) -> str:
    if measure == CPU:
        return f"{value / 1000:g}" if value % 100 == 0 else f"{value}m"
    if measure == "memory":
        return f"{value / 2**30:.1f}Gi"
    return str(value)


def histogram_svg(before: list[tuple[int, int]], after: list[tuple[int, int]], label: str,
                  top: int | None = None) -> str:
    """Bars of how many nodes have k GPUs free, before (light, left) and after (dark, right) the
    plan, k from 0 to `top` (default: the largest free count seen)."""
    hb, ha = dict(before), dict(after)
    top = max([0, *hb, *ha, top or 0])
    peak = max([1, *hb.values(), *ha.values()])
    bar, gap, height = 5, 4, 34
    width = (top + 1) * (2 * bar + gap) + gap
    out = [f'<svg class="hist" width="{width}" height="{height + 12}" viewBox="0 0 {width} {height + 12}" '
           f'role="img" aria-label="{escape(label)}">']
    for k in range(top + 1):
        x = gap + k * (2 * bar + gap)
        for j, (counts, cls) in enumerate(((hb, "hb"), (ha, "ha"))):
            n = counts.get(k, 0)
            if n:
                h = max(1.0, height * n / peak)
                out.append(f'<rect class="{cls}" x="{x + j * bar}" y="{height - h:.1f}" width="{bar}" height="{h:.1f}">'
                           f'<title>{k} free: {n} node{"s" if n != 1 else ""} {"before" if j == 0 else "after"}</title></rect>')
        out.append(f'<text x="{x + bar}" y="{height + 10}">{k}</text>')
    out.append("</svg>")
    return "".join(out)


MARKERS = {PLACED: "placed by the plan", EVICTED: "evicted by the plan", MOVED: "pod moved between A and B"}
