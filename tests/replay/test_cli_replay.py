"""`podgroup-plan replay` from the command line: formats, --config-b, bad input."""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema
from scenarios import at, node, pod, write
from typer.testing import CliRunner

from podgroup_plan.cli import app

SCHEMA = json.loads((Path(__file__).parents[2] / "schemas" / "Replay.json").read_text())


def invoke(*args):
    return CliRunner().invoke(app, ["replay", *map(str, args)])


def abc(tmp_path):
    return write(tmp_path, node("gpu-1"), pod("a", 8, 0, "100s"), pod("b", 8, 10, "50s"), pod("c", 4, 20, "30s"))


def test_json_meets_the_schema_and_csv_is_the_timeline(tmp_path):
    path = abc(tmp_path)
    result = invoke(path, "-o", "json", "--focus", "default/b")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    jsonschema.validate(doc, SCHEMA)
    assert doc["focus"]["start"] == at(100)
    csv = invoke(path, "-o", "csv")
    lines = csv.output.splitlines()
    assert lines[0].startswith("time,gpusAllocated,cpusAllocated,pendingPods,pendingGangs,freeGpuSlots1")
    assert lines[-1].startswith(f"{at(180)},0,")
    table = invoke(path)
    assert "makespan 180 s" in table.output
    markdown = invoke(path, "-o", "markdown")
    assert "| Pod default/c | 0 | 1 |" in markdown.output


def test_until_stops_the_clock(tmp_path):
    result = invoke(abc(tmp_path), "-o", "json", "--until", "120s")
    doc = json.loads(result.output)
    w = {x["name"]: x for x in doc["workloads"]}
    assert doc["end"] == at(120)
    assert (w["b"]["start"], w["b"]["end"], w["b"]["status"]) == (at(100), None, "Running")
    assert w["c"]["start"] is None


def test_default_duration_and_pods_that_run_forever(tmp_path):
    path = write(tmp_path, node("gpu-1"), pod("a", 4, 0), pod("b", 4, 0, "10s"))
    doc = json.loads(invoke(path, "-o", "json").output)
    assert doc["summary"]["podsRunForever"] == 1
    doc = json.loads(invoke(path, "-o", "json", "--default-duration", "1m").output)
    assert doc["summary"]["podsRunForever"] == 0 and doc["summary"]["makespanSeconds"] == 60


def test_config_b_compares_both_replays(tmp_path):
    path = abc(tmp_path)
    config = tmp_path / "b.yaml"
    config.write_text("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
                      "podInitialBackoffSeconds: 2\npodMaxBackoffSeconds: 20\n")
    result = invoke(path, "-o", "json", "--config-b", config)
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    jsonschema.validate(doc, SCHEMA)
    assert doc["kind"] == "ReplayComparison"
    # the waits here come from pods' ends, not from backoff: nothing differs
    assert doc["comparison"]["workloads"] == [] and doc["comparison"]["summary"] == {}
    assert "Differences" in invoke(path, "--config-b", config).output


def test_bad_durations_and_times_every_problem_at_once(tmp_path):
    path = write(tmp_path, node("gpu-1"), pod("a", 8, 0, "soon"), pod("b", 8, 0, "-5s"))
    result = invoke(path, "--until", "whenever", "--default-duration", "x")
    assert result.exit_code == 2
    out = result.output
    assert f'{path}:12: Pod default/a: metadata.annotations[podgroup-plan.io/duration]: invalid duration "soon"' in out
    assert f'{path}:26: Pod default/b: metadata.annotations[podgroup-plan.io/duration]: duration "-5s" is negative' in out
    assert "--until" in out and "--default-duration" in out
    assert "Traceback" not in out


def test_html_draws_the_utilisation_and_escapes_names(tmp_path):
    path = write(tmp_path, node("gpu-1"), pod("a", 8, 0, "100s"), pod("b", 8, 10, "50s"))
    result = invoke(path, "-o", "html")
    assert result.exit_code == 0, result.output
    page = result.output
    assert page.startswith("<!DOCTYPE html>") and "<svg" in page and "GPUs allocated" in page
    assert "<td>Pod default/b</td>" in page


def test_config_b_lists_the_workloads_that_differ(tmp_path):
    # LeastAllocated (A, the default) spreads the two pods over both nodes; MostAllocated (B) packs.
    path = write(tmp_path, node("n1"), node("n2"), pod("a", 4, 0, "100s"), pod("b", 4, 10, "100s"))
    config = tmp_path / "most.yaml"
    config.write_text("""apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
        resources: [{name: nvidia.com/gpu, weight: 1}]
""")
    doc = json.loads(invoke(path, "-o", "json", "--config-b", config).output)
    nodes = {w["name"]: w["nodes"] for w in doc["a"]["workloads"]}
    assert nodes["a"] != nodes["b"]
    (changed,) = doc["comparison"]["workloads"]
    assert changed["workload"] == "Pod default/b" and changed["nodesB"] == nodes["a"]
