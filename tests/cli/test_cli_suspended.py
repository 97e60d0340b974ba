"""Suspended Jobs (Kueue's) and Jobs with nothing to run: `Suspended`, never `Waiting`;
`--admit-suspended` plans them as if admitted."""
from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from podgroup_plan.cli import app

MANIFESTS = str(Path(__file__).resolve().parents[1] / "scenarios" / "job-suspended-not-planned" / "manifests")


def _plan(*args):
    result = CliRunner().invoke(app, ["simulate", MANIFESTS, "-o", "json", *args])
    return result, json.loads(result.stdout) if result.stdout.startswith("{") else None


def _by_job(doc):
    return {g["name"].split("-")[0]: g["status"] for g in doc["podGroups"]}


def test_suspended_and_empty_jobs_are_suspended_and_do_not_fail_waiting():
    result, doc = _plan("--fail-on", "waiting", "--fail-on", "unschedulable")
    assert result.exit_code == 0, result.stderr
    assert _by_job(doc) == {"empty": "Suspended", "queued": "Suspended", "running": "Scheduled"}
    assert doc["feasible"] is True


def test_admit_suspended_plans_the_suspended_job_as_if_admitted():
    result, doc = _plan("--admit-suspended")
    assert result.exit_code == 0, result.stderr
    assert _by_job(doc) == {"empty": "Suspended", "queued": "Scheduled", "running": "Scheduled"}
    assert sum(p["owner"]["name"] == "queued" for p in doc["pods"] if p.get("owner")) == 2
    assert not any("queued is suspended" in n for n in doc["notes"])


def test_the_table_names_suspended_groups_in_its_summary():
    result = CliRunner().invoke(app, ["simulate", MANIFESTS])
    assert result.exit_code == 0
    assert "1 of 3 PodGroups scheduled; 2 suspended" in result.stdout
