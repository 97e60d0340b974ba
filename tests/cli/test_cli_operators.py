"""The command line with the operators' objects (docs/controllers.md): `--gang`, the summary
line naming objects that create pods but are not planned, and `--fail-on unplanned`."""
import json
import textwrap

from typer.testing import CliRunner

from podgroup_plan.cli import app

NODES = """
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
"""
# 3 pods x 2 cpu on one 4-cpu node: pod by pod two bind; as one gang none does.
PYTORCH = """
---
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: pt, namespace: ml}
spec:
  pytorchReplicaSpecs:
    Master:
      template:
        spec: {containers: [{name: pytorch, image: pt, resources: {requests: {cpu: "2"}}}]}
    Worker:
      replicas: 2
      template:
        spec: {containers: [{name: pytorch, image: pt, resources: {requests: {cpu: "2"}}}]}
"""
WORKFLOW = """
---
apiVersion: argoproj.io/v1alpha1
kind: Workflow
metadata: {name: etl, namespace: data}
spec: {entrypoint: main}
"""


def run(*args):
    return CliRunner().invoke(app, list(args))


def write(tmp_path, text):
    (tmp_path / "in.yaml").write_text(textwrap.dedent(NODES) + text)
    return str(tmp_path / "in.yaml")


def test_gang_flag_plans_the_pytorch_job_as_one_gang(tmp_path):
    path = write(tmp_path, PYTORCH)
    plain = json.loads(run("simulate", path, "-o", "json").stdout)
    gang = json.loads(run("simulate", path, "--gang", "-o", "json").stdout)
    assert plain["summary"]["podsScheduled"] == 2 and plain["podGroups"] == []
    assert gang["summary"]["podsScheduled"] == 0
    assert [(g["name"], g["minCount"]) for g in gang["podGroups"]] == [("pt-gang", 3)]
    assert any(n.startswith("PyTorchJob ml/pt: planned pod by pod") for n in plain["notes"])
    assert any(n.startswith("PyTorchJob ml/pt: planned as a gang") for n in gang["notes"])


def test_unplanned_objects_are_named_in_the_summary_line_and_fail_on_unplanned(tmp_path):
    path = write(tmp_path, WORKFLOW)
    out = run("simulate", path)
    assert out.exit_code == 0
    assert "1 object that creates pods was not planned: Workflow data/etl" in out.stdout
    failed = run("simulate", path, "--fail-on", "unplanned")
    assert failed.exit_code == 1
    assert "--fail-on unplanned: 1 object that creates pods was not planned: Workflow data/etl" in failed.stderr
    doc = json.loads(run("simulate", path, "-o", "json").stdout)
    assert doc["unplanned"] == [{"kind": "Workflow", "namespace": "data", "name": "etl"}]
    # without such objects the condition does not hold and the key is absent
    clean = write(tmp_path, "")
    assert run("simulate", clean, "--fail-on", "unplanned").exit_code == 0
    assert "unplanned" not in json.loads(run("simulate", clean, "-o", "json").stdout)


def test_table_says_per_object_how_it_was_planned(tmp_path):
    path = write(tmp_path, PYTORCH)
    plain = run("simulate", path, "--pods", "all").stdout
    gang = run("simulate", path, "--pods", "all", "--gang").stdout
    row = [line for line in plain.splitlines() if line.startswith("PyTorchJob ml/pt")]
    assert row and row[0].rstrip().endswith("pod by pod") and "Planned as" in plain
    # the PodGroups table names the gang by its owner too; the By owner row says how it was planned
    row = [line for line in gang.splitlines() if line.startswith("PyTorchJob ml/pt") and "pods scheduled" in line]
    assert row and row[0].rstrip().endswith("gang")
    assert any(line.startswith("PyTorchJob ml/pt  Gang") for line in gang.splitlines())
