"""How long each output takes for a big plan: table, Markdown, JUnit, JSON and YAML.

A synthetic PlanResult (no planning): PODS pods in gangs of 4 over 5,000 nodes, two thirds of
them Unschedulable with a shared message, one third Scheduled, every group with its condition.
Prints seconds per renderer (best of --repeat). A figure, not a test.

    python -m benchmarks.render                 # 50,000 pods
    python -m benchmarks.render --pods 10000 --repeat 3
"""
from __future__ import annotations

import argparse
import time

from podgroup_plan.render.json_yaml import render_json, render_yaml
from podgroup_plan.render.junit import render_junit
from podgroup_plan.render.markdown import render_markdown
from podgroup_plan.render.table import render_table
from podgroup_plan.result import ConditionResult, PlanResult, PodGroupResult, PodResult, Summary

MESSAGE = "0/5000 nodes are available: 5000 Insufficient cpu."


def synthetic(pods: int) -> PlanResult:
    items = tuple(
        PodResult("ns", f"job-{i // 4}-{i % 4}", f"job-{i // 4}",
                  "Scheduled" if i % 3 == 0 else "Unschedulable",
                  node=f"node-{i % 5000}" if i % 3 == 0 else None,
                  reason=None if i % 3 == 0 else "Unschedulable",
                  message=None if i % 3 == 0 else MESSAGE)
        for i in range(pods))
    failed = ConditionResult("PodGroupInitiallyScheduled", "False", "Unschedulable",
                             "minCount (4) cannot be satisfied: 1 scheduled, 3 remaining")
    groups = tuple(PodGroupResult("ns", f"job-{g}", "Gang", 4, None, None, 1, 3, "Unschedulable",
                                  (failed,)) for g in range(pods // 4))
    scheduled = sum(1 for p in items if p.status == "Scheduled")
    return PlanResult(Summary(nodes=5000, pods_scheduled=scheduled,
                              pods_unschedulable=pods - scheduled,
                              pod_groups_unschedulable=len(groups)), items, groups)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pods", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    result = synthetic(args.pods)
    renderers = {
        "table (80 columns)": lambda: render_table(result, width=80),
        "table --pods all": lambda: render_table(result, width=80, pods="all"),
        "markdown": lambda: render_markdown(result),
        "junit": lambda: render_junit(result),
        "json": lambda: render_json(result.to_dict()),
        "yaml": lambda: render_yaml(result.to_dict()),
    }
    print(f"{args.pods:,} pods, {len(result.pod_groups):,} PodGroups")
    for name, render in renderers.items():
        best = min(_timed(render) for _ in range(args.repeat))
        print(f"  {name:<20} {best:6.2f} s")


def _timed(render) -> float:
    start = time.perf_counter()
    render()
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
