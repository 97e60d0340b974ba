"""The command line with Jobs and other controllers (docs/controllers.md): `--no-expand`,
`pods[].owner` in JSON, `--fail-on` by owner, one JUnit test case per owning Job."""
import json
import textwrap
import xml.etree.ElementTree as ET

import pytest
from typer.testing import CliRunner

from podgroup_plan.cli import app

CLUSTER = """
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
"""

# 3 pods of 1 cpu fit a 4-cpu node; 6 do not (a gang of 6 fails whole)
JOB = """
apiVersion: batch/v1
kind: Job
metadata: {{name: {name}, namespace: ml}}
spec:
  parallelism: {n}
  completions: {n}
  completionMode: Indexed
  scheduling: {{schedulingPolicy: {{gang: {{}}}}}}
  template:
    spec:
      restartPolicy: Never
      containers: [{{name: c, image: x, resources: {{requests: {{cpu: "1"}}}}}}]
"""


@pytest.fixture
def files(tmp_path):
    def write(*jobs):
        (tmp_path / "cluster.yaml").write_text(textwrap.dedent(CLUSTER))
        (tmp_path / "jobs.yaml").write_text("---".join(JOB.format(name=n, n=k) for n, k in jobs))
        return [str(tmp_path / "cluster.yaml"), str(tmp_path / "jobs.yaml")]
    return write


def run(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def test_json_pods_carry_their_owner(files):
    out = run("simulate", *files(("train", 3)), "-o", "json")
    assert out.exit_code == 0, out.output
    doc = json.loads(out.stdout)
    assert {p["status"] for p in doc["pods"]} == {"Scheduled"}
    assert [p["owner"] for p in doc["pods"]] == [{"kind": "Job", "name": "train"}] * 3
    [group] = doc["podGroups"]
    assert (group["policy"], group["minCount"], group["status"]) == ("Gang", 3, "Scheduled")


def test_fail_on_names_the_owning_job(files):
    out = run("simulate", *files(("train", 3), ("big", 6)), "--fail-on", "unschedulable", "-o", "json")
    assert out.exit_code == 1
    assert "--fail-on unschedulable: 6 pods and 1 group not placed; by owner: Job ml/big (6 pods, 1 group)" \
        in out.stderr


def test_junit_has_one_case_per_owning_job(files):
    out = run("simulate", *files(("train", 3), ("big", 6)), "-o", "junit")
    root = ET.fromstring(out.stdout)
    cases = {c.get("classname") + "/" + c.get("name"): c for c in root.iter("testcase")}
    assert sorted(cases) == ["Job.ml/big", "Job.ml/train"]  # no per-pod or per-group cases
    assert cases["Job.ml/big"].find("failure").get("message") == "Job ml/big: 0 of 6 pods scheduled, 6 Unschedulable"
    assert cases["Job.ml/train"].find("failure") is None


def test_no_expand_plans_only_the_input_pods_and_says_so(files):
    out = run("simulate", *files(("train", 3)), "--no-expand", "-o", "json")
    doc = json.loads(out.stdout)
    assert doc["pods"] == [] and doc["podGroups"] == []
    assert "expansion off (--no-expand): Job (1) not expanded into the pods their controllers would create" \
        in doc["notes"]


def test_workload_with_job_off_plans_plain_pods(files):
    out = run("simulate", *files(("big", 6)), "--feature-gates", "WorkloadWithJob=false", "-o", "json")
    doc = json.loads(out.stdout)
    assert doc["podGroups"] == []
    assert sum(p["status"] == "Scheduled" for p in doc["pods"]) == 4  # pod by pod: 4 fit


def test_bad_job_is_exit_2_with_its_line(tmp_path):
    (tmp_path / "job.yaml").write_text(JOB.format(name="j", n=-1))
    out = run("simulate", tmp_path / "job.yaml")
    assert out.exit_code == 2
    assert f"{tmp_path / 'job.yaml'}:6: Job ml/j: spec.parallelism: Invalid value: -1: must be greater than or equal to 0" in out.stderr


def test_a_job_alone_is_not_empty_input(tmp_path):
    # contract: Jobs and other workload objects that expand into pods count as pods
    (tmp_path / "job.yaml").write_text(JOB.format(name="j", n=1))
    out = run("validate", tmp_path / "job.yaml")
    assert out.exit_code == 0, out.output
    assert "Job: 1" in out.stdout


@pytest.mark.parametrize("fmt, line", [
    pytest.param("table", "Job ml/big    0 of 6 pods scheduled, 6 Unschedulable", id="table"),
    pytest.param("markdown", "| `Job ml/big` | 0 of 6 pods scheduled, 6 Unschedulable |", id="markdown"),
])
def test_tables_group_pods_by_owner(files, monkeypatch, fmt, line):
    monkeypatch.setenv("COLUMNS", "120")
    out = run("simulate", *files(("train", 3), ("big", 6)), "-o", fmt)
    assert "By owner" in out.stdout
    assert line in out.stdout
    assert "Job ml/train" in out.stdout


def test_explain_finds_an_expanded_pod_and_no_expand_hides_it(tmp_path):
    (tmp_path / "in.yaml").write_text(textwrap.dedent(CLUSTER) + "---" + STATEFUL_SET)
    out = run("explain", tmp_path / "in.yaml", "--pod", "data/db-0")
    assert out.exit_code == 0, out.output
    assert "status: Scheduled" in out.stdout
    out = run("explain", tmp_path / "in.yaml", "--pod", "data/db-0", "--no-expand")
    assert out.exit_code == 2


STATEFUL_SET = """
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: data}
spec:
  replicas: 1
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: db:1, resources: {requests: {cpu: "1"}}}]
"""
