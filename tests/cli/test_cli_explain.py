"""`podgroup-plan explain` through the command line: exit codes, JSON that meets
schemas/Explanation.json, and a table that fits the width (contract.md, `explain`)."""
import json
from pathlib import Path

import jsonschema
import pytest

from podgroup_plan.cli import app

ROOT = Path(__file__).parents[2]
TAINTS = str(ROOT / "tests" / "explain" / "cases" / "taint-and-resources" / "manifests")
DEMO = [str(ROOT / "fixtures" / "cluster"), str(ROOT / "fixtures" / "workloads")]
SCHEMA = json.loads((ROOT / "schemas" / "Explanation.json").read_text())


def run(runner, *args, **kw):
    return runner.invoke(app, ["explain", *args], **kw)


def test_json_meets_the_schema_and_exits_0_for_an_unschedulable_pod(runner):
    result = run(runner, TAINTS, "--pod", "data/etl", "-o", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    jsonschema.validate(doc, SCHEMA)
    assert doc["target"] == {"kind": "Pod", "namespace": "data", "name": "etl"}
    assert doc["status"] == "Unschedulable"


@pytest.mark.parametrize("args, says", [
    (["--pod", "data/nope"], "--pod data/nope: no such pending Pod in the input"),
    (["--pod", "data/etl", "--node", "gpu-9"], "--node gpu-9: no such Node in the input"),
    (["--pod-group", "data/nope"], "--pod-group data/nope: no such PodGroup in the input"),
    (["--pod", "data/etl", "--pod-group", "data/g"], "exactly one of --pod, --pod-group"),
    ([], "exactly one of --pod, --pod-group"),
    (["--pod", "a/b/c"], "expected NAMESPACE/NAME"),
])
def test_a_target_not_in_the_input_is_exit_2(runner, args, says):
    result = run(runner, TAINTS, *args)
    assert result.exit_code == 2
    assert says in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize("width", [80, 120])
def test_table_fits_the_width(runner, width):
    result = run(runner, *DEMO, "--pod", "ml-research/vision-pretrain-0", env={"COLUMNS": str(width)})
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "Pod ml-research/vision-pretrain-0"
    assert max(len(line) for line in lines) <= width
    assert any(line.startswith("Filter (67 nodes considered") for line in lines)


def test_group_explanation_lists_its_cycles(runner):
    result = run(runner, *DEMO, "--pod-group", "ml-research/vision-pretrain-trainers", "-o", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    jsonschema.validate(doc, SCHEMA)
    assert doc["status"] == "Unschedulable"
    assert doc["cycles"], "the plan gave the gang at least one cycle"
    first = doc["cycles"][0]
    assert first["podGroup"] == "ml-research/vision-pretrain-trainers"
    assert len(first["pods"]) == 32
    # the gang needs 32 and only 24 fitted before the group was rejected
    assert sum(1 for p in first["pods"] if p["fittedNode"]) == 24
    # a rejected group is tried again in the next pass (upstream's backoff queue), when the
    # lower-priority pods have taken a GPU on every node: nothing fits
    assert [c["pass"] for c in doc["cycles"]] == [1, 2]
    assert sum(1 for p in doc["cycles"][1]["pods"] if p["fittedNode"]) == 0


def test_a_gang_without_placements_names_its_first_unfit_pod(runner):
    result = run(runner, *DEMO, "--pod-group", "ml-research/vision-pretrain-trainers", "-o", "json")
    hints = json.loads(result.stdout)["wouldFit"]
    # The hints read the group's last cycle (its retry in the second pass): the lower-priority
    # pods hold a GPU on every GPU node by then, so the first pod tried finds no node with 8.
    assert hints[0]["pod"] == "ml-research/vision-pretrain-0"
    assert "64 Insufficient nvidia.com/gpu" in hints[0]["text"]
    # then the gang's own answer (issue 27): 32 pods of 8 GPUs against the room on the 64 GPU
    # nodes, not one pod's "needs 1 nvidia.com/gpu more" on one node
    assert hints[1]["plugin"] == "NodeResourcesFit"
    assert hints[1]["text"] == (
        "the gang has 32 pod(s) left to place, each asking 40 cpu and 400Gi memory and 8 nvidia.com/gpu: "
        "the 64 node(s) that pass every other filter have room for 0 now and 64 if emptied; room for 32 "
        "more must be freed on them (preemption or fewer running pods)")
    assert not any(h["text"].startswith("needs ") for h in hints)

