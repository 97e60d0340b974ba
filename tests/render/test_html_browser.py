"""The HTML report in a real browser: headless Chromium from the system's packages, driven by
Playwright through its `executable_path` (no browser download). Skipped, with the reason, where
Playwright or Chromium is missing; CI installs both (README, set-up)."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

pytest.importorskip("jinja2", reason="Jinja2, a dependency of -o html, is not installed (pip install -e .)")

from html_pages import demo_page, demo_plan, diff_page, diff_plans_of_demo, what_if_of_demo, what_if_page

sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install '.[test]')")


def chromium_path() -> str | None:
    for candidate in (os.environ.get("PODGROUP_PLAN_CHROMIUM"), "chromium", "chromium-browser", "google-chrome"):
        if candidate and (found := shutil.which(candidate)):
            return found
    return None


CHROMIUM = chromium_path()
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found (apt-get install -y chromium)")


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


class Loaded:
    def __init__(self, page, errors, requests):
        self.page, self.errors, self.requests = page, errors, requests


def load(browser, tmp_path: Path, text: str, name: str = "plan.html") -> Loaded:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    requests: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: requests.append(r.url))
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    return Loaded(page, errors, requests)


@pytest.fixture()
def demo(browser, tmp_path):
    loaded = load(browser, tmp_path, demo_page())
    yield loaded
    loaded.page.close()


def test_loads_without_console_errors_or_network(demo):
    assert demo.errors == []
    assert demo.requests == [demo.page.url]  # the file itself, nothing else


def test_one_cell_per_node_and_one_tab_stop(demo):
    page = demo.page
    assert page.locator(".cell").count() == demo_plan().summary.nodes
    assert page.locator('.cell[tabindex="0"]').count() == 1


def _expected_nodes(result) -> dict[str, set[str]]:
    """Per group with no member running before the plan, the nodes its pods[] name."""
    nodes: dict[str, set[str]] = {}
    placed: dict[str, int] = {}
    for p in result.pods:
        if p.pod_group and p.status == "Scheduled":
            key = f"pg:{p.namespace}/{p.pod_group}"
            nodes.setdefault(key, set()).add(p.node)
            placed[key] = placed.get(key, 0) + 1
    return {k: v for k, v in nodes.items()
            if any(g.scheduled_pods == placed[k] and f"pg:{g.namespace}/{g.name}" == k for g in result.pod_groups)}


def test_selecting_a_gang_highlights_exactly_its_nodes(demo):
    page = demo.page
    expected = _expected_nodes(demo_plan())
    assert len(expected) >= 3
    names = [n for n in demo_plan().usage.names]
    for gid, want in sorted(expected.items()):
        page.locator(f'button.show[data-group="{gid}"]').click()
        lit = page.eval_on_selector_all(".cell.hl", "cs => cs.map(c => +c.getAttribute('data-i'))")
        assert {names[i] for i in lit} == want, gid
        assert page.locator(f'button.show[data-group="{gid}"]').get_attribute("aria-pressed") == "true"
        assert page.locator(".map.dimmed").count() == 1
    page.keyboard.press("Escape")
    assert page.locator(".cell.hl").count() == 0 and page.locator(".map.dimmed").count() == 0


def test_a_composite_highlights_the_nodes_of_its_leaves(demo):
    page = demo.page
    result = demo_plan()
    cpg = result.composite_pod_groups[0]
    leaves = {g.name for g in result.pod_groups if result.group_parents.get((g.namespace, g.name)) == cpg.name}
    want = {p.node for p in result.pods if p.pod_group in leaves and p.status == "Scheduled"}
    page.locator(f'button.show[data-group="cpg:{cpg.namespace}/{cpg.name}"]').click()
    lit = page.eval_on_selector_all(".cell.hl", "cs => cs.map(c => +c.getAttribute('data-i'))")
    assert {result.usage.names[i] for i in lit} == want and want


def test_keyboard_moves_through_the_map_and_shows_details(demo):
    page = demo.page
    names = demo_plan().usage.names
    first = page.locator('.cell[tabindex="0"]')
    first.focus()
    assert page.locator("#tip").is_visible()
    start = int(first.get_attribute("data-i"))
    assert names[start] in page.locator("#tip").inner_text()
    page.keyboard.press("ArrowRight")
    now = int(page.evaluate("document.activeElement.getAttribute('data-i')"))
    assert now != start and names[now] in page.locator("#tip").inner_text()
    assert page.locator('.cell[tabindex="0"]').count() == 1
    page.keyboard.press("Enter")
    assert names[now] in page.locator(".pinned").inner_text()
    page.keyboard.press("End")
    last = page.evaluate("document.activeElement.getAttribute('data-i')")
    cells = page.eval_on_selector_all(".cell", "cs => cs.map(c => c.getAttribute('data-i'))")
    assert last == cells[-1]


def test_hover_tells_allocatable_and_requested_before_and_after(demo):
    page = demo.page
    result = demo_plan()
    placed = {p.node for p in result.pods if p.status == "Scheduled"}
    i = next(k for k, n in enumerate(result.usage.names) if n in placed)
    page.locator(f'.cell[data-i="{i}"]').hover()
    text = page.locator("#tip").inner_text()
    assert result.usage.names[i] in text and "before" in text and "allocatable" in text and "placed" in text


def test_the_colour_switch_recolours_the_map(demo):
    page = demo.page
    result = demo_plan()
    changed = [k for k in range(len(result.usage.names))
               if result.usage.before["gpu"][k] != result.usage.after["gpu"][k]]
    cell = page.locator(f'.cell[data-i="{changed[0]}"] rect')
    after = cell.get_attribute("fill")
    page.locator('input[name="when-plan"][value="before"]').check()
    assert cell.get_attribute("fill") != after
    page.locator('input[name="when-plan"][value="after"]').check()
    assert cell.get_attribute("fill") == after
    page.locator('input[name="measure-plan"][value="pods"]').check()
    assert page.locator(".cell rect").count() == result.summary.nodes


def test_fragmentation_numbers_equal_the_json(demo):
    cap = demo_plan().to_dict()["capacity"]
    domains = [("cluster", cap["cluster"])] + [("zone", z) for z in cap["zones"]] + [("rack", r) for r in cap["racks"]]
    shown = demo.page.eval_on_selector_all(
        "tr[data-domain]", "rows => rows.map(r => [r.getAttribute('data-domain'), "
        "Object.fromEntries([...r.querySelectorAll('[data-field]')].map(e => [e.getAttribute('data-field'), +e.textContent]))])")
    want = []
    for kind, d in domains:
        fields = {"gpuNodes": d["gpuNodes"], "before.free": d["before"]["free"], "after.free": d["after"]["free"]}
        for when in ("before", "after"):
            fields.update({f"{when}.slots.{s['size']}": s["count"] for s in d[when]["slots"]})
        want.append([f'{kind}:{d["zone"] or ""}/{d["name"] or ""}', fields])
    assert dict(shown) == dict(want) and len(shown) == len(want)


def test_prints_without_the_controls(demo):
    page = demo.page
    page.emulate_media(media="print")
    assert not page.locator("nav").is_visible() and not page.locator(".controls").first.is_visible()
    assert page.locator(".map").is_visible()
    pdf = page.pdf()  # Chromium lays the page out for paper without an error
    assert pdf[:4] == b"%PDF" and demo.errors == []


def test_diff_page_has_both_maps_and_shows_a_moved_pod_on_each(browser, tmp_path):
    a, b, doc = diff_plans_of_demo()
    loaded = load(browser, tmp_path, diff_page(), "diff.html")
    page = loaded.page
    assert loaded.errors == [] and loaded.requests == [page.url]
    assert page.locator('.map[data-map="a"] .cell').count() == a.summary.nodes
    assert page.locator('.map[data-map="b"] .cell').count() == b.summary.nodes
    moved = next(p for p in doc["pods"] if p["a"]["node"] and p["b"]["node"] and p["a"]["node"] != p["b"]["node"])
    gid = f'pod:{moved["namespace"]}/{moved["name"]}'
    for key in ("a", "b"):
        page.locator(f'button.show[data-group="{gid}"][data-map="{key}"]').click()
        lit = page.eval_on_selector_all(f'.map[data-map="{key}"] .cell.hl', "cs => cs.map(c => +c.getAttribute('data-i'))")
        names = (a if key == "a" else b).usage.names
        assert [names[i] for i in lit] == [moved[key]["node"]]
    page.close()


def test_what_if_page_highlights_a_scenarios_nodes_and_where_a_workload_went(browser, tmp_path):
    doc, base = what_if_of_demo()
    loaded = load(browser, tmp_path, what_if_page(), "what-if.html")
    page = loaded.page
    assert loaded.errors == [] and loaded.requests == [page.url]
    assert page.locator(".map .cell").count() == base.summary.nodes
    names = base.usage.names

    def lit() -> set[str]:
        return {names[i] for i in page.eval_on_selector_all(".cell.hl", "cs => cs.map(c => +c.getAttribute('data-i'))")}

    for i, s in enumerate(doc["scenarios"]):
        page.locator(f'button.show[data-group="scn:{i}"]').click()
        assert lit() == set(s["nodes"]) and s["nodes"], s["name"]
        assert s["name"] in page.locator('.selection[data-map="plan"]').inner_text()
    moved = [(i, j, w) for i, s in enumerate(doc["scenarios"]) for j, w in enumerate(s["workloads"]) if w["nodes"]]
    assert moved, "some scenario reschedules a workload"
    for i, j, w in moved:
        page.locator(f'button.show[data-group="wl:{i}/{j}"]').click()
        assert lit() == set(w["nodes"]), w["name"]
    page.keyboard.press("Escape")
    assert page.locator(".cell.hl").count() == 0
    page.close()
