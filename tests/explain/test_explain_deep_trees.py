"""`explain --composite-pod-group` follows the target's whole tree, however deep: trees have no
depth limit since the tree cycle runs on an explicit stack, and the tracer once looked only 8-9
parents up from a group (a 12-level chain's leaf pod and its deepest group cycles were missed)."""
import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from podgroup_plan.cli import app

sys.path.insert(0, str(Path(__file__).parents[1] / "cli"))
from test_cli_hostile import chain  # noqa: E402


@pytest.mark.parametrize("levels", [3, 12, 40])
def test_a_composite_target_sees_every_level_below_it(tmp_path, levels):
    (tmp_path / "chain.json").write_text(json.dumps(chain(levels)))
    result = CliRunner().invoke(app, ["explain", str(tmp_path / "chain.json"),
                                      "--composite-pod-group", "t/c0", "-o", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert [p["pod"] for p in doc["pods"]] == ["t/p"]  # the leaf's pod, at the bottom
    # a group cycle of every composite and of the leaf PodGroup
    assert {c["podGroup"] for c in doc["cycles"]} == {f"t/c{i}" for i in range(levels)} | {"t/leaf"}


def test_a_target_inside_the_chain_sees_only_what_is_below_it(tmp_path):
    (tmp_path / "chain.json").write_text(json.dumps(chain(12)))
    result = CliRunner().invoke(app, ["explain", str(tmp_path / "chain.json"),
                                      "--composite-pod-group", "t/c5", "-o", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert [p["pod"] for p in doc["pods"]] == ["t/p"]
    assert {c["podGroup"] for c in doc["cycles"]} == {f"t/c{i}" for i in range(5, 12)} | {"t/leaf"}
