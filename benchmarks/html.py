"""How big and how fast the HTML report is (issue 31's goals): the demo's page (<= 300 KB) and a
5,000-node x 10,000-pod plan's page (<= 5 MB, rendered in <= 2 s, laid out by Chromium in <= 3 s).

Plans first (not counted), then renders with `render_html` (CPU seconds beside wall time, best of
--repeat), then loads the page from disk in headless Chromium (Debian's, through Playwright) and
reads how long the browser took to parse, run the page's script, style and lay it out: the
page's own `performance.now()` after a forced layout, and the wall time of the whole load.
A figure, not a test.

    python -m benchmarks.html                  # the demo, basic-5k-10k, gangs-5k-10k, what-if-demo
    python -m benchmarks.html --case basic-5k-10k --repeat 3

`what-if-demo` is `what-if --each topology.example.com/rack -o html` of the demo (the sweep is
planned first, not counted; the page is rendered with `render_what_if_html`).
"""
from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from benchmarks.cases import CASES
from benchmarks.generate import cluster_input
from podgroup_plan.loading import load_input
from podgroup_plan.planner import plan
from podgroup_plan.render.html import render_html

ROOT = Path(__file__).resolve().parents[1]
DEMO = [str(ROOT / "fixtures" / "cluster"), str(ROOT / "fixtures" / "workloads")]


def _cases():
    base = CASES["basic-5k-10k"]
    gangs = replace(base, name="gangs-5k-10k", pending_pods=0, gangs=2500, gang_size=4,
                    gang_topology_key="topology.kubernetes.io/rack")
    return {"demo": None, base.name: base, gangs.name: gangs, "what-if-demo": WHAT_IF}


WHAT_IF = "what-if"


def what_if_of_demo():
    """The demo's sweep, each rack failing: (document, the unchanged plan)."""
    from podgroup_plan.analyses.what_if import executors
    from podgroup_plan.analyses.what_if.changes import FAIL
    from podgroup_plan.analyses.what_if.sweep import PlanEach, Sweep, assemble, each_value, with_base

    cluster = load_input(DEMO)
    factory = PlanEach()
    sweep = with_base(Sweep(cluster, tuple(each_value(cluster, "topology.example.com/rack", FAIL))), factory())
    return assemble(sweep, executors.run(sweep, factory)), sweep.base


def render_timed(result, repeat: int, document=None) -> tuple[str, list[tuple[float, float]]]:
    """The page and (CPU, wall) seconds of each render; the first one also compiles the
    templates (once per process, as a CLI run does). With a what-if `document`, its page."""
    from podgroup_plan.render.html import render_what_if_html

    times = []
    text = ""
    for _ in range(repeat):
        c, w = time.process_time(), time.perf_counter()
        if document is None:
            text = render_html(result, configuration="built-in default")
        else:
            text = render_what_if_html(document, result, configuration="built-in default")
        times.append((time.process_time() - c, time.perf_counter() - w))
    return text, times


def chromium_layout(path: Path) -> dict[str, float] | None:
    """What Chromium spent loading the page from disk: the renderer's CPU seconds (DevTools'
    ProcessTime), its layout, style and script seconds, the page's own `performance.now()` after
    a forced layout, and the wall time of the whole load; None without Playwright or Chromium."""
    chromium = shutil.which("chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    if chromium is None:
        return None
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        cdp = page.context.new_cdp_session(page)
        cdp.send("Performance.enable")
        start = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
        wall = time.perf_counter()
        page.goto(path.as_uri(), wait_until="load", timeout=300_000)
        in_page = page.evaluate("() => { document.body.getBoundingClientRect(); return performance.now(); }")
        wall = time.perf_counter() - wall
        end = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
        browser.close()
    spent = {k: end.get(k, 0.0) - start.get(k, 0.0)
             for k in ("ProcessTime", "LayoutDuration", "RecalcStyleDuration", "ScriptDuration")}
    return {**spent, "page": in_page / 1000, "wall": wall}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", action="append", help="demo, basic-5k-10k, gangs-5k-10k, what-if-demo (default: all)")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    cases = _cases()
    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    global_first = True
    for name in args.case or list(cases):
        case = cases[name]
        if not global_first:
            import podgroup_plan.render.html as html  # each case's first render compiles again
            html._ENV = None
        global_first = False
        document = None
        if case == WHAT_IF:
            document, result = what_if_of_demo()
        else:
            result = plan(load_input(DEMO) if case is None else cluster_input(case))
        text, times = render_timed(result, args.repeat, document)
        cpu, wall = times[0]
        best = min(times)
        size = len(text.encode("utf-8"))
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "plan.html"
            path.write_text(text, encoding="utf-8")
            browser = chromium_layout(path)
        goal = "<= 300 KB" if case in (None, WHAT_IF) else "<= 5 MB"
        print(f"{name}: {result.summary.nodes:,} nodes, {len(result.pods):,} pods in pods[]")
        print(f"  page        {size / 1024:8.1f} KiB ({size:,} bytes; goal {goal})")
        print(f"  render      {cpu:8.2f} s CPU, {wall:.2f} s wall (goal <= 2 s; the first render, templates "
              f"compiled){'' if len(times) == 1 else f'; best of {len(times)}: {best[0]:.2f} s CPU, {best[1]:.2f} s wall'}")
        if browser is None:
            print("  chromium    not measured (no Playwright or no Chromium)")
        else:
            print(f"  chromium    {browser['ProcessTime']:8.2f} s CPU of the page's renderer (goal <= 3 s): "
                  f"layout {browser['LayoutDuration']:.2f} s, style {browser['RecalcStyleDuration']:.2f} s, "
                  f"script {browser['ScriptDuration']:.2f} s; {browser['page']:.2f} s wall in the page, "
                  f"{browser['wall']:.2f} s wall for the load")


if __name__ == "__main__":
    main()
