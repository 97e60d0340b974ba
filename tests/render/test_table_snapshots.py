"""The table as a person sees it at 80, 120 and 200 columns, compared with the rendered
snapshots in tests/render/snapshots/ (long names, long node names, several of each status).

After a deliberate change to the layout, rewrite the snapshots and read the diff:
    UPDATE_SNAPSHOTS=1 python -m pytest tests/render/test_table_snapshots.py
"""
import os
import re
from dataclasses import replace
from pathlib import Path

import pytest

import sample_plans
from podgroup_plan.render.table import render_table
from podgroup_plan.result import PlanResult, PodGroupResult, PodResult, Summary

SNAPSHOTS = Path(__file__).parent / "snapshots"
WIDTHS = (80, 120, 200)


def node(i: int) -> str:
    return f"gpu-a100-us-east-1a-rack-{i // 8 + 1:02d}-node-{i % 8 + 1:03d}"


def wide() -> PlanResult:
    """The mixed sample plus a team with long names and long node names."""
    base = sample_plans.mixed()
    ns = "ml-research-foundation-models"
    pods = tuple(PodResult(ns, f"multimodal-pretrain-worker-{i}", "multimodal-pretrain-workers",
                           "Scheduled", node=node(i)) for i in range(12))
    pods += tuple(PodResult(ns, f"multimodal-eval-sweep-worker-{i}", "multimodal-eval-sweep-workers",
                            "Unschedulable", reason="Unschedulable",
                            message="0/3 nodes are available: 3 Insufficient nvidia.com/gpu.")
                  for i in (10, 2, 1))
    groups = (
        PodGroupResult(ns, "multimodal-pretrain-workers", "Gang", 12, "topology.example.com/rack",
                       "us-east-1a-rack-01", 12, 0, "Scheduled",
                       (sample_plans._cond("True", "Scheduled", ""),)),
        PodGroupResult(ns, "multimodal-eval-sweep-workers", "Basic", 1, None, None, 0, 3,
                       "Unschedulable",
                       (sample_plans._cond("False", "Unschedulable",
                                           "0/3 nodes are available: 3 Insufficient nvidia.com/gpu."),)),
    )
    summary = replace(base.summary, pods_scheduled=base.summary.pods_scheduled + 12,
                      pods_unschedulable=base.summary.pods_unschedulable + 3,
                      pod_groups_scheduled=base.summary.pod_groups_scheduled + 1,
                      pod_groups_unschedulable=base.summary.pod_groups_unschedulable + 1)
    return replace(base, summary=summary, pods=base.pods + pods, pod_groups=base.pod_groups + groups)


@pytest.mark.parametrize("pods", ["pending", "all"])
@pytest.mark.parametrize("width", WIDTHS)
def test_snapshot(width, pods):
    text = render_table(wide(), width=width, pods=pods)
    path = SNAPSHOTS / f"wide-{pods}-{width}.txt"
    if os.environ.get("UPDATE_SNAPSHOTS"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("width", WIDTHS)
def test_fits_and_keeps_node_names_whole(width):
    text = render_table(wide(), width=width, pods="all")
    lines = text.split("\n")
    assert max(len(line) for line in lines) <= width
    for i in range(12):
        assert re.search(rf"(^|\s){re.escape(node(i))}(,|$|\s)", text, re.M), node(i)
    assert all(line == line.rstrip() for line in lines)


def test_names_elide_only_when_they_must():
    at_200 = render_table(wide(), width=200, pods="all")
    at_80 = render_table(wide(), width=80, pods="all")
    names = [f"{p.namespace}/{p.name}" for p in wide().pods]
    assert all(f"\n{name} " in at_200 for name in names)
    assert "ml-research-foundation-models/multimodal-pretrain-worker-11" not in at_80
    row = next(line for line in at_80.split("\n") if "etrain-worker-11  multimodal-pretrain-workers    Scheduled" in line)
    assert row.startswith("ml-research-f") and "…" in row.split()[0]


def test_nothing_is_padded_past_its_longest_value():
    text = render_table(wide(), width=200)
    header = next(line for line in text.split("\n") if line.startswith("PodGroup "))
    longest = max(len(f"{g.namespace}/{g.name}") for g in wide().pod_groups)
    assert header.index("Policy") == longest + 2


def test_rows_in_natural_order():
    text = render_table(wide(), width=200, pods="all")
    rows = [line.split()[0] for line in text.split("\n")
            if line.startswith("ml-research-foundation-models/multimodal-eval-sweep-worker-")]
    assert [r.rsplit("-", 1)[1] for r in rows] == ["1", "2", "10"]
