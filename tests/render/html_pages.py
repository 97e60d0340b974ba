"""The demo's plans and their HTML pages, made once per test session (planning the demo takes a
second)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import yaml

from podgroup_plan.diff import diff_plans
from podgroup_plan.loading import load_input
from podgroup_plan.planner import plan
from podgroup_plan.render.html import render_diff_html, render_html

ROOT = Path(__file__).resolve().parents[2]
DEMO = [str(ROOT / "fixtures" / "cluster"), str(ROOT / "fixtures" / "workloads")]
MOST_ALLOCATED = ROOT / "fixtures" / "scheduler-config" / "most-allocated.yaml"


@lru_cache(maxsize=None)
def demo_plan():
    return plan(load_input(DEMO))


@lru_cache(maxsize=None)
def demo_page() -> str:
    return render_html(demo_plan(), configuration="built-in default")


@lru_cache(maxsize=None)
def diff_plans_of_demo():
    cluster = load_input(DEMO)
    a = plan(cluster)
    b = plan(cluster, scheduler_config=yaml.safe_load(MOST_ALLOCATED.read_text()))
    return a, b, diff_plans(a, b)


@lru_cache(maxsize=None)
def diff_page() -> str:
    a, b, doc = diff_plans_of_demo()
    return render_diff_html(a, b, doc, label_a="built-in default profile", label_b=str(MOST_ALLOCATED.name))


RACK = "topology.example.com/rack"


@lru_cache(maxsize=None)
def what_if_of_demo():
    """The sweep `what-if --each topology.example.com/rack` (each rack failing) of the demo: its
    document and the plan of the unchanged input."""
    from podgroup_plan.analyses.what_if import executors
    from podgroup_plan.analyses.what_if.changes import FAIL
    from podgroup_plan.analyses.what_if.sweep import PlanEach, Sweep, assemble, each_value, with_base

    cluster = load_input(DEMO)
    factory = PlanEach()
    sweep = with_base(Sweep(cluster, tuple(each_value(cluster, RACK, FAIL))), factory())
    return assemble(sweep, executors.run(sweep, factory)), sweep.base


@lru_cache(maxsize=None)
def what_if_page() -> str:
    from podgroup_plan.render.html import render_what_if_html

    doc, base = what_if_of_demo()
    return render_what_if_html(doc, base, configuration="built-in default")
