"""`-o html` without a browser: one self-contained, deterministic page; names escaped; one map cell
per node; the fragmentation table says what the JSON's capacity section says. The browser tests
(test_html_browser.py) check what the page does when loaded."""
from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

pytest.importorskip("jinja2", reason="Jinja2, a dependency of -o html, is not installed (pip install -e .)")

from html_pages import demo_page, demo_plan, diff_page, diff_plans_of_demo, what_if_of_demo, what_if_page

from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.planner import plan
from podgroup_plan.render.html import render_html, render_what_if_html
from tests.builders import make_node, make_pod


class _Collect(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"

    def handle_endtag(self, tag):
        self._in_script = False

    def handle_data(self, data):
        if self._in_script:
            self.scripts.append(data)


def parse(text: str) -> _Collect:
    p = _Collect()
    p.feed(text)
    return p


def assert_self_contained(text: str) -> None:
    for tag, attrs in parse(text).tags:
        for name in ("src", "href", "action", "data", "poster"):
            value = attrs.get(name)
            if value is not None:
                assert value.startswith("#"), (tag, name, value)  # in-page links only
        assert tag not in ("link", "iframe", "img", "object", "embed"), tag
    assert "http://" not in text.replace("http://www.w3.org", "") and "https://" not in text
    # the page forbids itself any network access, whatever it holds
    assert "default-src 'none'" in text


def test_the_page_is_self_contained():
    assert_self_contained(demo_page())
    assert_self_contained(diff_page())


def test_same_plan_same_bytes():
    assert demo_page() == render_html(demo_plan(), configuration="built-in default")
    assert not re.search(r"20\d\d-\d\d-\d\dT\d\d:\d\d", demo_page())  # no time stamp


def test_one_map_cell_per_node():
    page = parse(demo_page())
    cells = [a for t, a in page.tags if "cell" in (a.get("class") or "").split()]
    assert len(cells) == demo_plan().summary.nodes == 67
    assert sorted(int(a["data-i"]) for a in cells) == list(range(67))
    # one roving tab stop is set by the script; the map table lists every node too
    table = demo_page().split('<details class="map-table">', 1)[1].split("</tbody>", 1)[0]
    assert table.count('<tr><th scope="row">') == 67


def test_fragmentation_table_equals_the_capacity_section():
    cap = demo_plan().to_dict()["capacity"]
    text = demo_page()
    domains = [("cluster", cap["cluster"])] + [("zone", z) for z in cap["zones"]] + [("rack", r) for r in cap["racks"]]
    for kind, d in domains:
        key = f'{kind}:{d["zone"] or ""}/{d["name"] or ""}'
        row = text.split(f'data-domain="{key}"', 1)[1].split("</tr>", 1)[0]
        found = dict(re.findall(r'data-field="([^"]+)">(\d+)<', row))
        want = {"gpuNodes": d["gpuNodes"], "before.free": d["before"]["free"], "after.free": d["after"]["free"]}
        for when in ("before", "after"):
            want.update({f"{when}.slots.{s['size']}": s["count"] for s in d[when]["slots"]})
        assert {k: int(v) for k, v in found.items()} == want, key


def test_names_from_the_input_are_escaped():
    evil = '</script><script>alert(1)</script><b x="'
    nodes = (make_node("n1", cpu="4", memory="8Gi", pods=10, labels={"topology.kubernetes.io/zone": evil}),)
    pods = (make_pod("p-<i>", requests={"cpu": "1"}), make_pod("q", requests={"cpu": "1"}, node_name="n1"))
    text = render_html(plan(ClusterInput(nodes=nodes, pods=pods)))
    assert "<script>alert(1)" not in text and "<i>" not in text.replace("<i style", "").replace("<i class", "")
    assert "&lt;/script&gt;" in text and "\\u003c/script\\u003e" in text


def test_a_cluster_without_gpus_or_labels():
    nodes = tuple(make_node(f"n{i}", cpu="4", memory="8Gi", pods=10) for i in range(3))
    pods = (make_pod("a", requests={"cpu": "3"}),)
    result = plan(ClusterInput(nodes=nodes, pods=pods, pod_groups=()))
    text = render_html(result)
    assert text.count('class="cell"') == 3
    assert "No node has a GPU resource" in text
    assert result.to_dict()["capacity"]["resource"] is None


def test_groups_list_every_podgroup_and_composite_with_placements():
    text = demo_page()
    result = demo_plan()
    for g in result.pod_groups:
        assert f'<span class="kind">PG</span> {g.namespace}/{g.name}</th>' in text
        if g.status == "Scheduled":
            assert f'data-group="pg:{g.namespace}/{g.name}"' in text  # its "Show on map" button
    for c in result.composite_pod_groups:
        assert f'<span class="kind">CPG</span> {c.namespace}/{c.name}</th>' in text
    assert "✔ chosen" in text and "minCount (8) cannot be satisfied" in text


def test_diff_page_draws_moved_pods_on_both_maps():
    a, b, doc = diff_plans_of_demo()
    text = diff_page()
    moved = [p for p in doc["pods"] if p["a"]["node"] != p["b"]["node"]]
    assert moved, "the demo's two configurations move pods"
    for key, result in (("a", a), ("b", b)):
        drawn = text.split(f'<div class="map" id="map-{key}"', 1)[1].split('<div class="pinned"', 1)[0]
        assert drawn.count('<g class="cell"') == result.summary.nodes
    marked = sum('class="mk-moved"' in cell.split("</g>", 1)[0] for cell in text.split('<g class="cell"')[1:])
    assert marked == len({p["a"]["node"] for p in moved if p["a"]["node"]}) + \
        len({p["b"]["node"] for p in moved if p["b"]["node"]})


def test_what_if_page_is_self_contained_deterministic_and_draws_the_unchanged_plan():
    doc, base = what_if_of_demo()
    text = what_if_page()
    assert_self_contained(text)
    page = parse(text)
    assert text == render_what_if_html(doc, base, configuration="built-in default")
    assert not re.search(r"20\d\d-\d\d-\d\dT\d\d:\d\d", text)
    cells = [a for t, a in page.tags if "cell" in (a.get("class") or "").split()]
    assert len(cells) == base.summary.nodes == 67


def test_what_if_page_lists_the_scenarios_in_the_ranking_order_with_their_figures():
    doc, _ = what_if_of_demo()
    text = what_if_page()
    rows = re.findall(r'<tr data-scenario="scn:(\d+)">(.*?)</tr>', text, re.S)
    number = {s["name"]: i for i, s in enumerate(doc["scenarios"])}
    assert [int(i) for i, _ in rows] == [number[r["name"]] for r in doc["ranking"]]
    for (i, row), r in zip(rows, doc["ranking"]):
        figures = dict(re.findall(r'data-field="(\w+)">(?:<span[^>]*>)?(\d+)<', row))
        assert int(figures["pods"]) == r["pods"] and int(figures["gpus"]) == r["gpus"]
        assert int(figures["down"]) == r["workloadsDown"]
        assert doc["scenarios"][int(i)]["name"] in row
    # every touched workload of every scenario is a row of its scenario's table
    for i, s in enumerate(doc["scenarios"]):
        section = text.split(f'<section class="scenario" id="scn-{i}"', 1)[1].split("</section>", 1)[0]
        assert section.count("<tr data-workload=") == len(s["workloads"])
