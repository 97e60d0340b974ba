"""The table's drawing of CompositePodGroup trees: root first, children indented under their
parent, each level with its status and placement (render/table.py `trees`)."""
from pathlib import Path

from podgroup_plan.loading import load_input
from podgroup_plan.planner import plan
from podgroup_plan.render.table import render_table

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def _tree_lines(case: str, **gates) -> list[str]:
    result = plan(load_input([str(SCENARIOS / case / "manifests")]), feature_gates=gates or None)
    lines = render_table(result, width=120).split("\n")
    start = lines.index("CompositePodGroup trees")
    end = next(i for i in range(start + 1, len(lines)) if not lines[i].strip())
    return lines[start + 1:end]


def test_zone_over_rack_tree_shows_each_level_and_its_placement():
    assert _tree_lines("composite-zone-over-rack") == [
        "training/job  Gang ≥2 groups  Scheduled  @ zone-b",
        "  └ training/ps  Basic 1/1  Scheduled",
        "  └ training/workers-1  Gang 2/2  Scheduled  @ rack-b2 (example.com/rack)",
        "  └ training/workers-2  Gang 2/2  Scheduled  @ rack-b1 (example.com/rack)",
    ]


def test_failed_tree_shows_every_level_unschedulable():
    lines = _tree_lines("composite-parent-fails", WorkloadAwarePreemption=False)
    assert lines[0] == "training/job  Gang ≥2 groups  Unschedulable"
    assert sorted(lines[1:]) == ["  └ training/big  Gang 0/1  Unschedulable",
                                 "  └ training/workers  Gang 0/2  Unschedulable"]


def test_an_operators_tree_is_named_by_its_object_and_its_leaves_by_their_own_names():
    # --gang plans the LeaderWorkerSet as a Basic CompositePodGroup over one PodGroup per group
    from podgroup_plan.controllers import with_gangs

    cluster = with_gangs(load_input([str(SCENARIOS / "leaderworkerset-gang" / "manifests")]))
    lines = render_table(plan(cluster), width=120).split("\n")
    start = lines.index("CompositePodGroup trees")
    assert lines[start + 1:start + 4] == [
        "LeaderWorkerSet serving/vllm  Basic  Scheduled",
        "  └ vllm-group-0  Gang 2/2  Scheduled",
        "  └ vllm-group-1  Gang 0/2  Unschedulable"]
    table = lines.index("CompositePodGroups")
    assert lines[table + 3].split("  ")[0] == "LeaderWorkerSet serving/vllm"
