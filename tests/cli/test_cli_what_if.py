"""`podgroup-plan what-if` and simulate's `--cordon/--drain/--fail/--add-node`, through the
command line on the bundled demo (fixtures/): exit codes, the JSON document, usage errors."""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema
from typer.testing import CliRunner

from podgroup_plan.cli import app

ROOT = Path(__file__).resolve().parents[2]
DEMO = [str(ROOT / "fixtures" / "cluster"), str(ROOT / "fixtures" / "workloads")]
RACK = "topology.example.com/rack"
ZONE = "topology.kubernetes.io/zone"


def run(*args: str):
    return CliRunner().invoke(app, [*args], catch_exceptions=False)


def test_what_if_each_zone_json_meets_the_schema_and_fail_on_down_exits_1():
    got = run("what-if", *DEMO, "--each", ZONE, "-o", "json", "--fail-on", "down")
    doc = json.loads(got.stdout)
    schema = json.loads((ROOT / "schemas" / "WhatIf.json").read_text())
    assert not list(jsonschema.Draft202012Validator(schema).iter_errors(doc))
    assert [s["name"] for s in doc["scenarios"]] == [f"{ZONE}=us-east-1a", f"{ZONE}=us-east-1b"]
    assert all(s["failed"] for s in doc["scenarios"])  # --fail is the default action
    # every GPU node of zone a fails: llm-pretrain's 16 pods move to zone b
    first = doc["scenarios"][0]
    [job] = [w for w in first["workloads"] if w["name"] == "llm-pretrain"]
    assert job["fate"] == "rescheduled" and job["displacedPods"] == 16
    assert all(n.startswith("gpu-z2-") for n in job["nodes"])
    assert got.exit_code == 1  # some scenario leaves a workload down


def test_what_if_table_and_markdown_exit_0_without_fail_on():
    table = run("what-if", *DEMO, "--each", RACK, "--drain")
    assert table.exit_code == 0, table.output
    assert "Scenarios by damage" in table.stdout
    md = run("what-if", *DEMO, "--each", RACK, "--cordon", "-o", "markdown")
    assert md.exit_code == 0 and md.stdout.startswith("### What-if: 8 scenarios")


def test_config_and_gates_variants_are_scenarios(tmp_path):
    config = ROOT / "fixtures" / "scheduler-config" / "most-allocated.yaml"
    got = run("what-if", *DEMO, "--config", str(config), "--gates", "WorkloadAwarePreemption=false",
              "-o", "json")
    assert got.exit_code == 0, got.output
    names = [s["name"] for s in json.loads(got.stdout)["scenarios"]]
    assert names == [str(config), "--gates WorkloadAwarePreemption=false"]


def test_usage_errors_exit_2():
    assert run("what-if", *DEMO).exit_code == 2  # nothing to sweep
    got = run("what-if", *DEMO, "--each", "no.such/label")
    assert got.exit_code == 2 and "no node has the label no.such/label" in got.output
    assert run("what-if", *DEMO, "--drain").exit_code == 2  # an action without --each
    assert run("what-if", *DEMO, "--each", RACK, "--drain", "--cordon").exit_code == 2


def test_simulate_fail_recreates_the_pods_and_says_so_in_a_note():
    got = run("simulate", *DEMO, "--fail", f"{RACK}=z1-r1", "-o", "json")
    assert got.exit_code == 0, got.output
    doc = json.loads(got.stdout)
    assert doc["summary"]["nodes"] == 67 - 8
    [note] = [n for n in doc["notes"] if n.startswith("what-if:")]
    assert "8 node(s) failed" in note and "8 running pod(s) displaced: 8 recreated pending" in note
    # the Job's recreated pods are pending again (expansion makes what the Job lacks) and land
    new = [p for p in doc["pods"] if p["owner"] and p["owner"]["name"] == "llm-pretrain"]
    assert len(new) == 8 and all(p["status"] == "Scheduled" for p in new)
    assert not any(p["node"].startswith("gpu-z1-r1-") for p in new)


def test_simulate_change_errors_are_all_reported_at_once(tmp_path):
    got = run("simulate", *DEMO, "--fail", "rack=nope", "--drain", "nonode")
    assert got.exit_code == 2
    assert "--drain nonode: no node named 'nonode' in the input" in got.output
    assert "--fail rack=nope: no node has the label rack=nope" in got.output


def test_add_node_takes_only_nodes_and_is_never_overwritten(tmp_path):
    node = tmp_path / "node.yaml"
    node.write_text("apiVersion: v1\nkind: Node\nmetadata: {name: extra-1, labels: {"
                    f"{RACK}: z9-r1}}}}\nstatus: {{allocatable: {{cpu: '8', memory: 8Gi, pods: '110'}}}}\n")
    got = run("simulate", *DEMO, "--add-node", str(node), "-o", "json")
    assert got.exit_code == 0 and json.loads(got.stdout)["summary"]["nodes"] == 68
    before = node.read_text()
    refused = run("simulate", *DEMO, "--add-node", str(node), "--output-file", str(node))
    assert refused.exit_code == 2 and node.read_text() == before
    pod = tmp_path / "pod.yaml"
    pod.write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\n"
                   "spec: {containers: [{name: c, image: x}]}\n")
    got = run("simulate", *DEMO, "--add-node", str(pod))
    assert got.exit_code == 2 and "must hold Node objects only" in got.output


def test_what_if_html_writes_one_page_with_the_unchanged_plans_map(tmp_path):
    out = tmp_path / "what-if.html"
    got = run("what-if", *DEMO, "--each", RACK, "-o", "html", "--output-file", str(out))
    assert got.exit_code == 0, got.output
    text = out.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and text.count('<g class="cell"') == 67
    assert text.count("<tr data-scenario=") == 8 and f"{RACK}=z1-r1" in text
    again = tmp_path / "again.html"
    run("what-if", *DEMO, "--each", RACK, "-o", "html", "--output-file", str(again))
    assert again.read_bytes() == out.read_bytes()


def test_the_process_pool_prints_the_same_bytes_as_serial():
    serial = run("what-if", *DEMO, "--each", RACK, "--drain", "-o", "json")
    pool = run("what-if", *DEMO, "--each", RACK, "--drain", "-o", "json", "--executor", "processes", "--workers", "2")
    assert serial.exit_code == pool.exit_code == 0
    assert pool.stdout == serial.stdout


def test_an_unknown_executor_is_a_usage_error():
    got = run("what-if", *DEMO, "--each", RACK, "--executor", "dask")
    assert got.exit_code == 2 and "dask" in got.output
