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


NEVER_CLASS_JOB = """\
apiVersion: v1
kind: Node
metadata: {name: node-1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: batch-never}
value: 1000
preemptionPolicy: Never
---
apiVersion: batch/v1
kind: Job
metadata: {name: train, namespace: ml}
spec:
  parallelism: 2
  completions: 2
  template:
    spec:
      priorityClassName: batch-never
      restartPolicy: Never
      containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]
"""


def test_a_job_whose_class_never_preempts_gets_what_v1_37_gives_its_podgroup(tmp_path):
    """Issue 26: the PodGroup made for a Job names the pods' PriorityClass (workloadbuilder)
    and no preemptionPolicy; v1.37.0's apiserver defaults it to PreemptLowerPriority
    (scheduling/v1beta1 SetDefaults_PodGroup, PodGroupPreemptionPolicy on) and the Priority
    admission plugin then refuses it (admitPodGroup): syncJob returns before creating pods. The
    plan says so in a note instead of ending in a SchedulerError; without the gate the group is
    admitted and the Job planned."""
    (tmp_path / "m.yaml").write_text(NEVER_CLASS_JOB)
    result = CliRunner().invoke(app, ["simulate", str(tmp_path), "-o", "json", "--fail-on", "unschedulable"])
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["pods"] == [] and doc["podGroups"] == []
    assert any(n.startswith("Job ml/train: the apiserver refuses its PodGroup ") and
               "(the string value of PreemptionPolicy (PreemptLowerPriority) must not be provided in pod "
               "group spec; priority admission controller computed Never from the given PriorityClass "
               "name): its controller creates no pods" in n for n in doc["notes"]), doc["notes"]
    off = CliRunner().invoke(app, ["simulate", str(tmp_path), "-o", "json",
                                   "--feature-gates", "PodGroupPreemptionPolicy=false"])
    doc = json.loads(off.stdout)
    assert [p["status"] for p in doc["pods"]] == ["Scheduled", "Scheduled"]
    assert "SchedulerError" not in off.stdout
