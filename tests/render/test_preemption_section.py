"""The table's preemption section: per preemptor, whom it evicts on which node at what priority,
and which pod a PodDisruptionBudget spared."""
from __future__ import annotations

from pathlib import Path

from podgroup_plan.loading import load_input
from podgroup_plan.planner import plan
from podgroup_plan.render.table import render_table

SCENARIOS = Path(__file__).parent.parent / "scenarios"


def _table(case: str) -> str:
    return render_table(plan(load_input([str(SCENARIOS / case / "manifests")])), width=100)


def test_preemptor_victims_and_pdb_spared_pod():
    text = _table("preemption-pdb-spares-victim")
    section = text[text.index("Preemption (per preemptor"):]
    assert "Pod apps/urgent evicts 1 pod" in section
    assert "node-1: apps/web-0 (priority 0)" in section
    assert "spared by PDB apps/db: apps/db-0 on node-1" in section


def test_group_preemptor_lists_victims_per_node():
    section = _table("preemption-gang-evicts-single-pods").split("Preemption (per preemptor")[1]
    assert "PodGroup training/job evicts 2 pods" in section
    assert section.index("node-1: batch/batch-2 (priority 0)") < section.index("node-2: batch/batch-4 (priority 0)")
    assert "spared" not in section


def test_no_section_without_preemption():
    assert "Preemption (per preemptor" not in _table("preemption-equal-priority")
