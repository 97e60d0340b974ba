"""The demo's table at 80 and 120 columns: no line wider, the CompositePodGroup trees included."""
from pathlib import Path

import pytest

from podgroup_plan.cli import app

ROOT = Path(__file__).parents[2]
DEMO = [str(ROOT / "fixtures" / "cluster"), str(ROOT / "fixtures" / "workloads")]


@pytest.mark.parametrize("width", [80, 120])
def test_the_demo_table_fits_the_width_trees_included(runner, width):
    # The CompositePodGroup tree lines wrap like every other detail line (contract.md: no line
    # wider than the width).
    result = runner.invoke(app, ["simulate", *DEMO], env={"COLUMNS": str(width)})
    lines = result.stdout.splitlines()
    assert "CompositePodGroup trees" in lines
    assert max(len(line) for line in lines) <= width
    assert any(line.startswith("  └ ml-research/mm-pretrain-") for line in lines)
