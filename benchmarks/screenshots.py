"""The README's screenshots of the HTML report (docs/img/), at 1280x800, from the demo:

    python -m benchmarks.screenshots

Plans the demo, renders `simulate -o html`, `diff -o html` (against the most-allocated
configuration) and `what-if --each topology.example.com/rack -o html`, opens them in headless Chromium (Debian's `chromium`, through Playwright) and
takes: the top of the report, the map with a gang selected, the fragmentation table, the
diff's two maps, and `what-if -o html` (each rack failing) with the worst scenario selected. Same demo, same pictures (fonts permitting).
"""
from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

import yaml

from podgroup_plan.diff import diff_plans
from podgroup_plan.loading import load_input
from podgroup_plan.planner import plan
from podgroup_plan.render.html import render_diff_html, render_html

ROOT = Path(__file__).resolve().parents[1]
DEMO = [str(ROOT / "fixtures" / "cluster"), str(ROOT / "fixtures" / "workloads")]
MOST_ALLOCATED = ROOT / "fixtures" / "scheduler-config" / "most-allocated.yaml"
OUT = ROOT / "docs" / "img"
SELECTED = "pg:ml-research/rl-rollout-rollout"  # the gang the map screenshot selects


def pages() -> dict[str, str]:
    cluster = load_input(DEMO)
    a = plan(cluster)
    b = plan(cluster, scheduler_config=yaml.safe_load(MOST_ALLOCATED.read_text(encoding="utf-8")))
    return {"plan": render_html(a, configuration="built-in default"),
            "diff": render_diff_html(a, b, diff_plans(a, b), label_a="built-in default profile",
                                     label_b="fixtures/scheduler-config/most-allocated.yaml"),
            "what-if": what_if_page(cluster)}


def what_if_page(cluster) -> str:
    """`what-if --each topology.example.com/rack -o html` of the demo."""
    from podgroup_plan.analyses.what_if import executors
    from podgroup_plan.analyses.what_if.changes import FAIL
    from podgroup_plan.analyses.what_if.sweep import PlanEach, Sweep, assemble, each_value, with_base
    from podgroup_plan.render.html import render_what_if_html

    factory = PlanEach()
    sweep = with_base(Sweep(cluster, tuple(each_value(cluster, "topology.example.com/rack", FAIL))), factory())
    return render_what_if_html(assemble(sweep, executors.run(sweep, factory)), sweep.base,
                               configuration="built-in default")


def main() -> int:
    chromium = shutil.which("chromium")
    if chromium is None:
        print("no Chromium found (apt-get install -y chromium)", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        files = {}
        for name, text in pages().items():
            files[name] = Path(tmp) / f"{name}.html"
            files[name].write_text(text, encoding="utf-8")
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(files["plan"].as_uri())
        page.screenshot(path=OUT / "report-top.png")
        page.locator(f'button.show[data-group="{SELECTED}"]').click()
        page.locator("#map-title").scroll_into_view_if_needed()
        page.evaluate("document.getElementById('map-title').scrollIntoView()")
        cell = page.locator(".map .cell.hl").first
        cell.hover()
        page.screenshot(path=OUT / "report-map.png")
        page.evaluate("document.getElementById('frag-title').scrollIntoView()")
        page.screenshot(path=OUT / "report-fragmentation.png")
        page.goto(files["diff"].as_uri())
        page.evaluate("document.getElementById('maps-title').scrollIntoView()")
        page.screenshot(path=OUT / "diff-maps.png")
        page.goto(files["what-if"].as_uri())
        page.locator('tr[data-scenario] button.show').first.click()  # the worst scenario
        page.evaluate("document.getElementById('map-title').scrollIntoView()")
        page.screenshot(path=OUT / "what-if.png")
        browser.close()
    for png in sorted(OUT.glob("*.png")):
        print(f"{png.relative_to(ROOT)}  {png.stat().st_size / 1024:.0f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
