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


VIOLATED_CASE = str(HERE.parent / "scenarios" / "preemption-pdb-violated" / "manifests")


def test_a_pdb_violating_eviction_is_named_in_every_output():
    """Issue 26: a violated PodDisruptionBudget was visible only in `explain`."""
    as_json = json.loads(run("simulate", VIOLATED_CASE, "-o", "json").stdout)
    violating = {v["name"]: v.get("pdbs") for v in as_json["victims"]}
    assert violating == {"db-0": None, "db-1": ["apps/db"]}
    assert [v.get("violatesPDB") for v in as_json["victims"]] == [None, True]

    table = run("simulate", VIOLATED_CASE, "-o", "table").stdout
    assert "Violates PDB" in table
    assert "apps/db-1 (priority 0; violates PDB apps/db)" in table
    row = next(line for line in table.splitlines() if line.startswith("apps/db-1 ") and "urgent" in line)
    assert row.rstrip().endswith("apps/db")

    markdown = run("simulate", VIOLATED_CASE, "-o", "markdown").stdout
    assert "| Pod | Node | PodGroup | Priority | Preempted by | Violates PDB |" in markdown
    assert "| `apps/db-1` | node-1 | — | 0 | Pod apps/urgent | apps/db |" in markdown

    junit = run("simulate", VIOLATED_CASE, "-o", "junit").stdout
    assert "violates PodDisruptionBudget: apps/db" in junit

    gate = run("simulate", VIOLATED_CASE, "-o", "json", "--fail-on", "preemption")
    assert gate.exit_code == 1
    assert ("preemption: the plan evicts 2 pods, 1 of them violating a PodDisruptionBudget (apps/db)"
            in gate.stderr)


def test_outputs_without_a_violated_pdb_have_no_pdb_column():
    as_json = json.loads(run("simulate", PDB_CASE, "-o", "json").stdout)
    assert all("violatesPDB" not in v and "pdbs" not in v for v in as_json["victims"])
    assert "Violates PDB" not in run("simulate", PDB_CASE).stdout
    gate = run("simulate", PDB_CASE, "-o", "json", "--fail-on", "preemption")
    assert gate.stderr.strip().endswith("preemption: the plan evicts 1 pod")
