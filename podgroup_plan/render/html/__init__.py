"""`-o html`: one self-contained page (inline CSS, script and SVG; no network) that shows a plan,
or two plans side by side (`diff`), as a cluster map with the groups, reasons and fragmentation.

Jinja2 (a dependency of the package) lays out the page from `templates/`; the map's cells and the
histograms are SVG generated in `svg.py`; `view.py` turns the result into what the page shows.
Jinja2 is imported here only, when a page is asked for, so the CLI starts as fast without it.

Reusable for any command that has plans to show: `render_html(result)` for one plan,
`render_diff_html(a, b, document)` for two (`document` is `diff.diff_plans(a, b)`), and
`render_what_if_html(document, base)` for a what-if sweep drawn on the map of its unchanged
plan; each takes the labels the table header uses. The registry's entries (`render_result`,
`render_diff`, `render_what_if`) adapt them to `RenderOptions`.
Same input, same bytes: nothing depends on the time or on hash order.
"""
from __future__ import annotations

import json
from importlib import resources
from typing import Any, Mapping

from markupsafe import Markup, escape

from podgroup_plan import __version__
from podgroup_plan.capacity import MEASURES
from podgroup_plan.render.html import svg
from podgroup_plan.render.html.view import (
    EVICTED,
    MOVED,
    PLACED,
    ClusterMap,
    cluster_map,
    groups,
    header,
    map_data,
    pending_by_reason,
    victims_by_preemptor,
)
from podgroup_plan.render.layout import natural_ref_key
from podgroup_plan.result import PlanResult

CODES = {PLACED: "placed", EVICTED: "evicted", MOVED: "moved"}
_ENV = None


class HtmlUnavailable(RuntimeError):
    """Jinja2 is not installed (a dependency, missing from this environment)."""


def _environment() -> Any:
    global _ENV
    if _ENV is None:
        try:
            import jinja2
        except ImportError as err:  # pragma: no cover - the extra is a dependency of the tests
            raise HtmlUnavailable(
                "-o html needs Jinja2, a dependency of podgroup-plan: pip install jinja2") from err
        _ENV = jinja2.Environment(
            loader=jinja2.PackageLoader("podgroup_plan.render.html", "templates"),
            autoescape=True, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
        _ENV.globals.update(fmt=_fmt, codes=CODES, version=__version__, map_rows=map_rows,
                            palette=svg.PALETTE, none_fill=svg.NONE_FILL)
    return _ENV


def _static(name: str) -> str:
    return resources.files("podgroup_plan.render.html").joinpath("static", name).read_text(encoding="utf-8")


def _fmt(measure: int, value: int) -> str:
    """A node's amount as the table view shows it: cores, GiB, devices, pods."""
    name = MEASURES[measure]
    if name == "cpu":
        return f"{value / 1000:.4g}"
    if name == "memory":
        return f"{value / 2**30:.1f}Gi"
    return str(value)


def _script_json(data: Any) -> str:
    """JSON safe inside a <script> element: no `</script>`, no `<!--`, whatever the names hold."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e") \
        .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def map_rows(cmap: ClusterMap) -> Markup:
    """The table view's rows, one per node (joined here, not looped in the template: 5,000 rows of
    ten cells each are most of a big page's rendering time)."""
    rows = []
    dash = "—"
    for n in cmap.nodes:
        amounts = "".join(f"<td>{_fmt(k, n.before[k])}→{_fmt(k, n.after[k])}/{_fmt(k, n.allocatable[k])}</td>"
                          for k in range(len(MEASURES)))
        pods = ", ".join(str(escape(ref)) + ("" if code == "r" else f" ({CODES[code]})") for ref, code in n.pods)
        placed = sum(1 for _, c in n.pods if c == PLACED)
        evicted = sum(1 for _, c in n.pods if c == EVICTED)
        rows.append(f'<tr><th scope="row">{escape(n.name)}</th><td>{escape(n.zone or dash)}</td>'
                    f'<td>{escape(n.rack or dash)}</td>{amounts}<td>{placed}</td><td>{evicted}</td><td>{pods}</td></tr>\n')
    return Markup("".join(rows))


def _with_svgs(cmap: ClusterMap, moved: Mapping[int, list[str]] | None = None) -> ClusterMap:
    for zone in cmap.zones:
        for rack in zone.racks:
            label = " / ".join(x for x in (zone.name, rack.name) if x) or "nodes"
            rack.svg = svg.rack_svg(rack, f"{cmap.title}: {label}", moved or ())
    return cmap


def frag_rows(section: Mapping[str, Any] | None) -> list[tuple[str, Mapping[str, Any], str]]:
    """(kind, domain, histogram SVG) for the cluster, then each zone followed by its racks; every
    histogram on one scale (0 to the most GPUs free on any node)."""
    if section is None or section.get("resource") is None:
        return []
    rows = [("cluster", section["cluster"])]
    for zone in section["zones"]:
        rows.append(("zone", zone))
        rows += [("rack", r) for r in section["racks"] if r["zone"] == zone["name"]]
    cluster = section["cluster"]
    top = max([0] + [h["free"] for when in ("before", "after") for h in cluster[when]["histogram"]])
    out = []
    for kind, d in rows:
        hb = [(h["free"], h["nodes"]) for h in d["before"]["histogram"]]
        ha = [(h["free"], h["nodes"]) for h in d["after"]["histogram"]]
        out.append((kind, d, svg.histogram_svg(hb, ha, f"{kind} {d['name'] or ''}: nodes by free GPUs", top)))
    return out


def render_html(result: PlanResult, *, configuration: str | None = None) -> str:
    """The plan report (`simulate -o html`)."""
    env = _environment()
    cmap = _with_svgs(cluster_map(result))
    group_list = groups(result, cmap)
    capacity = result.capacity.to_dict() if result.capacity is not None else None
    data = {"maps": [map_data(cmap, group_list)], "codes": CODES}
    return env.get_template("report.html.j2").render(
        header=header(result, configuration), m={"map": cmap}, groups=group_list,
        pending=pending_by_reason(result), evictions=victims_by_preemptor(result),
        victim_count=len(result.victims), capacity=capacity, frag_rows=frag_rows(capacity),
        notes=list(result.notes), css=_static("report.css"), js=_static("report.js"),
        data=_script_json(data))


def render_diff_html(a: PlanResult, b: PlanResult, document: Mapping[str, Any], *,
                     label_a: str = "A", label_b: str = "B") -> str:
    """The comparison report (`diff -o html`): A and B side by side, each pod that moved drawn on
    both maps (where it runs under A, and under B)."""
    env = _environment()
    moved_pods = [p for p in document["pods"] if p["a"]["node"] != p["b"]["node"]]
    maps: list[tuple[ClusterMap, dict[int, list[str]]]] = []
    group_lists: list[list[Any]] = []
    moved_rows: list[dict[str, Any]] = []
    for key, result, label in (("a", a, label_a), ("b", b, label_b)):
        cmap = cluster_map(result, key, f"{key.upper()}: {label}")
        index = {n.name: n.index for n in cmap.nodes}
        moved: dict[int, list[str]] = {}
        for p in moved_pods:
            row = index.get(p[key]["node"]) if p[key]["node"] else None
            if row is not None:
                moved.setdefault(row, []).append(f"{p['namespace']}/{p['name']}")
        maps.append((_with_svgs(cmap, moved), moved))
        group_lists.append(groups(result, cmap))
    for p in moved_pods:
        moved_rows.append({"ref": f"{p['namespace']}/{p['name']}", "a": p["a"], "b": p["b"],
                           "id": f"pod:{p['namespace']}/{p['name']}"})
    entries: list[dict[str, Any]] = []
    for (cmap, moved), glist in zip(maps, group_lists, strict=True):
        entry = map_data(cmap, glist, moved)
        rows = {n.name: n.index for n in cmap.nodes}
        for pod in moved_rows:  # a moved pod selects its node on each map
            node = pod[cmap.key]["node"]
            entry["groups"][pod["id"]] = [rows[node]] if node in rows else []
        entries.append(entry)
    data = {"maps": entries, "codes": CODES}
    sides = []
    for (cmap, _), result, glist, label in zip(maps, (a, b), group_lists, (label_a, label_b), strict=True):
        capacity = result.capacity.to_dict() if result.capacity is not None else None
        sides.append({"map": cmap, "label": label, "header": header(result, label), "capacity": capacity,
                      "frag_rows": frag_rows(capacity), "groups": glist})
    natural = {k: sorted(document[k], key=lambda e: natural_ref_key(e["namespace"], e["name"]))
               for k in ("pods", "podGroups", "compositePodGroups")}
    return env.get_template("diff.html.j2").render(
        document=document, changed=natural, sides=sides, moved=moved_rows, css=_static("report.css"),
        js=_static("report.js"), data=_script_json(data))


def render_what_if_html(document: Mapping[str, Any], base: PlanResult, *,
                        configuration: str | None = None) -> str:
    """The sweep report (`what-if -o html`): the scenarios by damage on the map of the unchanged
    input's plan; selecting a scenario highlights the nodes it changes, selecting a workload the
    nodes it runs on in that scenario's plan."""
    from podgroup_plan.render.html import what_if_view
    from podgroup_plan.render.what_if import headline

    env = _environment()
    cmap = _with_svgs(cluster_map(base, "plan", "Cluster (the unchanged input's plan)"))
    views = what_if_view.scenarios(document, cmap)
    entry = map_data(cmap, ())
    entry["groups"] = what_if_view.group_index(views)
    capacity = base.capacity.to_dict() if base.capacity is not None else None
    return env.get_template("what_if.html.j2").render(
        header=header(base, configuration), headline=headline(document), m={"map": cmap},
        scenarios=views, capacity=capacity, frag_rows=frag_rows(capacity), css=_static("report.css"),
        js=_static("report.js"), data=_script_json({"maps": [entry], "codes": CODES}))


# --- the registry's entries (render/registry.py) --------------------------------------------

def render_result(result: PlanResult, options: Any) -> str:
    return render_html(result, configuration=options.configuration)


def render_diff(document: Mapping[str, Any], options: Any) -> str:
    if options.plans is None:
        raise ValueError("diff -o html needs the two plans (RenderOptions.plans)")
    a, b = options.plans
    return render_diff_html(a, b, document, label_a=options.label_a, label_b=options.label_b)


def render_what_if(document: Mapping[str, Any], options: Any) -> str:
    if not options.plans:
        raise ValueError("what-if -o html needs the plan of the unchanged input (RenderOptions.plans)")
    return render_what_if_html(document, options.plans[0], configuration=options.configuration)
