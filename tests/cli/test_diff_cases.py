"""`podgroup-plan diff` on the real engine: what a configuration change does to a plan.

Each case is a manifest file and a configuration B in tests/cli/diff_cases; A is the built-in
default profile.
"""
import json
from pathlib import Path

from typer.testing import CliRunner

from podgroup_plan.cli import app

CASES = Path(__file__).parent / "diff_cases"


def diff(manifest: str, config_b: str):
    result = CliRunner().invoke(app, ["diff", str(CASES / manifest), "--config-b", str(CASES / config_b), "-o", "json"])
    return result.exit_code, (json.loads(result.stdout) if result.stdout.strip() else None), result.stderr


def test_scoring_strategy_change_moves_a_pod():
    code, doc, err = diff("scoring.yaml", "most-allocated.yaml")
    assert code == 1, err
    assert doc["pods"] == [{
        "namespace": "apps", "name": "new",
        "a": {"status": "Scheduled", "node": "node-b"},
        "b": {"status": "Scheduled", "node": "node-a"},
    }]


def test_disabled_plugin_makes_a_group_unschedulable():
    code, doc, err = diff("taints.yaml", "no-taint-toleration.yaml")
    assert code == 1, err
    groups = {g["name"]: g for g in doc["podGroups"]}
    assert groups["train-workers"]["a"]["status"] == "Scheduled"
    assert groups["train-workers"]["b"]["status"] == "Unschedulable"
    pods = {p["name"]: p for p in doc["pods"]}
    assert pods["web"]["a"] == {"status": "Unschedulable", "node": None}
    assert pods["web"]["b"] == {"status": "Scheduled", "node": "gpu-node"}


def test_reordered_score_plugins_change_nothing():
    code, doc, err = diff("scoring.yaml", "reordered.yaml")
    assert code == 0, err
    assert doc["identical"] is True and doc["pods"] == [] and doc["podGroups"] == []


def test_a_change_that_moves_nothing_exits_0():
    code, doc, err = diff("taints.yaml", "most-allocated.yaml")
    # MostAllocated changes nothing here: every pod has exactly one feasible node
    assert code == 0, err
    assert doc["identical"] is True
