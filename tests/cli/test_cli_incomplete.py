"""Pods bound to nodes the input does not hold (an incomplete snapshot): named in a note, their
requests counted nowhere, and `--fail-on incomplete` fails on them."""
from __future__ import annotations

import json

from typer.testing import CliRunner

from podgroup_plan.cli import app

MANIFEST = """\
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "2", memory: 8Gi, pods: "110"}}
---
# bound to a node that is not in the snapshot: it must not take n1's cpu, nor vanish unsaid
apiVersion: v1
kind: Pod
metadata: {name: ghost, namespace: d}
spec:
  nodeName: gone-node
  containers: [{name: c, image: x, resources: {requests: {cpu: "2"}}}]
status: {phase: Running}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: d}
spec:
  containers: [{name: c, image: x, resources: {requests: {cpu: "2"}}}]
"""


def _run(tmp_path, *args):
    (tmp_path / "m.yaml").write_text(MANIFEST)
    return CliRunner().invoke(app, ["simulate", str(tmp_path / "m.yaml"), *args])


def test_pods_on_missing_nodes_are_noted_and_not_counted(tmp_path):
    result = _run(tmp_path, "-o", "json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert [(p["name"], p["status"], p["node"]) for p in doc["pods"]] == [("p", "Scheduled", "n1")]
    assert ("1 pod(s) bound to 1 node(s) not in the input, not planned and their requests not "
            "counted (an incomplete snapshot?): gone-node: d/ghost") in doc["notes"]


def test_fail_on_incomplete(tmp_path):
    result = _run(tmp_path, "--fail-on", "incomplete")
    assert result.exit_code == 1
    assert "--fail-on incomplete: 1 pod bound to 1 node not in the input (gone-node)" in result.stderr
    assert _run(tmp_path, "--fail-on", "waiting").exit_code == 0
