"""Preemption through the CLI: `--fail-on preemption` and `diff`'s victims only in A or in B."""
import json
from pathlib import Path

from typer.testing import CliRunner

from podgroup_plan.cli import app

HERE = Path(__file__).parent
PDB_CASE = str(HERE.parent / "scenarios" / "preemption-pdb-spares-victim" / "manifests")
GANG_CASE = str(HERE.parent / "scenarios" / "preemption-gang-evicts-single-pods" / "manifests")
NO_PREEMPTION = str(HERE / "diff_cases" / "no-preemption.yaml")


def run(*args):
    return CliRunner().invoke(app, list(args))


def test_fail_on_preemption_holds_when_the_plan_evicts():
    result = run("simulate", GANG_CASE, "-o", "json", "--fail-on", "preemption")
    assert result.exit_code == 1
    assert "preemption: the plan evicts 2 pods" in result.stderr
    assert run("simulate", GANG_CASE, "-o", "json", "--fail-on", "unschedulable").exit_code == 0


def test_fail_on_preemption_does_not_hold_without_preemption():
    result = run("simulate", GANG_CASE, "-o", "json", "--fail-on", "preemption", "--scheduler-config", NO_PREEMPTION)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["victims"] == []


def test_diff_lists_victims_of_one_plan_only():
    a_evicts = run("diff", PDB_CASE, "--config-b", NO_PREEMPTION, "-o", "json")
    assert a_evicts.exit_code == 1, a_evicts.stderr
    doc = json.loads(a_evicts.stdout)
    assert doc["victims"] == {"onlyA": [{"namespace": "apps", "name": "web-0"}], "onlyB": []}
    pods = {p["name"]: p for p in doc["pods"]}
    assert pods["urgent"]["a"] == {"status": "Scheduled", "node": "node-1"}
    assert pods["urgent"]["b"] == {"status": "Unschedulable", "node": None}
    # the evicted pod is listed in A only (B leaves it running and does not list it)
    assert pods["web-0"]["a"]["status"] == "Preempted" and pods["web-0"]["b"]["status"] is None

    b_evicts = run("diff", PDB_CASE, "--config-a", NO_PREEMPTION, "--config-b", NO_PREEMPTION.replace(
        "no-preemption.yaml", "reordered.yaml"), "-o", "json")
    assert json.loads(b_evicts.stdout)["victims"] == {"onlyA": [], "onlyB": [{"namespace": "apps", "name": "web-0"}]}
