"""Every JSON and YAML document the tool writes meets its schema (schemas/PlanResult.json,
schemas/PlanDiff.json), and the schemas stand alone: no `$ref` to another file."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml
from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = ROOT / "schemas"
SCENARIOS = ROOT / "tests" / "scenarios"
FIXTURES = ROOT / "fixtures"
OUTPUT_SCHEMAS = ("PlanResult", "PlanDiff", "Explanation")

sys.path.insert(0, str(ROOT / "tests" / "render"))
import sample_plans  # noqa: E402

from podgroup_plan.cli import app  # noqa: E402
from podgroup_plan.diff import diff_plans  # noqa: E402
from podgroup_plan.render.json_yaml import render_json, render_yaml  # noqa: E402


def validator(name: str) -> jsonschema.Draft202012Validator:
    schema = json.loads((SCHEMAS / f"{name}.json").read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())


def check(name: str, document: dict) -> None:
    errors = sorted(validator(name).iter_errors(document), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in errors)


def refs(node) -> list[str]:
    if isinstance(node, dict):
        found = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
        return found + [r for v in node.values() for r in refs(v)]
    if isinstance(node, list):
        return [r for v in node for r in refs(v)]
    return []


@pytest.mark.parametrize("name", OUTPUT_SCHEMAS)
def test_schema_is_valid_and_self_contained(name):
    schema = json.loads((SCHEMAS / f"{name}.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    assert refs(schema) and all(r.startswith("#/") for r in refs(schema))
    # every local reference resolves
    for ref in refs(schema):
        node = schema
        for part in ref[2:].split("/"):
            node = node[part]


SAMPLES = [sample_plans.mixed, sample_plans.feasible, sample_plans.with_composite,
           sample_plans.only_waiting, sample_plans.only_preemption, sample_plans.preempted_group,
           sample_plans.empty]


@pytest.mark.parametrize("make", SAMPLES, ids=lambda f: f.__name__)
def test_rendered_json_and_yaml_meet_the_schema(make):
    doc = make().to_dict()
    check("PlanResult", json.loads(render_json(doc)))
    check("PlanResult", yaml.safe_load(render_yaml(doc)))


def test_rendered_diff_meets_the_schema():
    for a, b in [(sample_plans.mixed, sample_plans.feasible), (sample_plans.feasible, sample_plans.feasible),
                 (sample_plans.mixed, sample_plans.preempted_group)]:
        check("PlanDiff", json.loads(render_json(diff_plans(a(), b()))))


@pytest.mark.parametrize("case", sorted(p.name for p in SCENARIOS.iterdir()
                                        if (p / "expected.yaml").is_file()))
def test_every_scenario_result_meets_the_schema(case):
    from podgroup_plan.loading import load_input
    from podgroup_plan.planner import plan

    expected = yaml.safe_load((SCENARIOS / case / "expected.yaml").read_text(encoding="utf-8"))
    gates = expected.get("featureGates")
    result = plan(load_input([str(SCENARIOS / case / "manifests")], feature_gates=gates), feature_gates=gates)
    check("PlanResult", json.loads(render_json(result.to_dict())))


def run(*args: str) -> str:
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code in (0, 1), result.stderr
    return result.stdout


@pytest.mark.parametrize("extra", [[], ["--scheduler-config", FIXTURES / "scheduler-config" / "most-allocated.yaml"]],
                         ids=["default", "most-allocated"])
def test_the_demo_as_json_and_yaml_meets_the_schema(extra):
    paths = [FIXTURES / "cluster", FIXTURES / "workloads"]
    check("PlanResult", json.loads(run("simulate", *paths, "-o", "json", *extra)))
    check("PlanResult", yaml.safe_load(run("simulate", *paths, "-o", "yaml", *extra)))


def test_the_demo_diff_meets_the_schema():
    out = run("diff", FIXTURES / "cluster", FIXTURES / "workloads",
              "--config-b", FIXTURES / "scheduler-config" / "most-allocated.yaml", "-o", "json")
    check("PlanDiff", json.loads(out))


@pytest.mark.parametrize("change, where", [
    (lambda d: d["pods"][0].update(status="Running"), "pods/0/status"),
    (lambda d: d["podGroups"][0].pop("minCount"), "podGroups/0"),
    (lambda d: d["summary"].update(nodes=-1), "summary/nodes"),
    (lambda d: d.update(kind="PlanDiff"), "kind"),
    (lambda d: d["victims"][0]["preemptor"].update(kind="Node"), "victims/0/preemptor/kind"),
    (lambda d: d["pods"][0].update(surprise=1), "pods/0"),
], ids=["bad-status", "missing-field", "negative-count", "wrong-kind", "bad-preemptor", "unknown-field"])
def test_the_schema_rejects_what_the_contract_forbids(change, where):
    doc = json.loads(render_json(sample_plans.mixed().to_dict()))
    change(doc)
    errors = list(validator("PlanResult").iter_errors(doc))
    assert errors and any("/".join(map(str, e.absolute_path)) == where for e in errors)


def test_fields_being_added_are_already_described():
    """featureGates, placements, compositePodGroups, victims and pods[].owner validate as
    contract.md shapes them, so output carrying them meets the schema when it lands."""
    doc = json.loads(render_json(sample_plans.mixed().to_dict()))
    doc["featureGates"] = {"CompositePodGroup": True, "GenericWorkload": True}
    doc["pods"][0]["owner"] = {"kind": "Job", "name": "train"}
    doc["podGroups"][0]["placements"] = [
        {"name": "rack-1", "nodes": 8, "evaluated": True, "feasible": True, "scheduledPods": 4,
         "message": None, "score": 187, "scores": {"TopologyPlacement": 100, "NodeResourcesFit": 87},
         "chosen": True},
        {"name": "rack-2", "nodes": 8, "evaluated": False, "feasible": None, "scheduledPods": None,
         "message": None, "score": None, "scores": None, "chosen": False}]
    doc["compositePodGroups"] = [{"namespace": "ml", "name": "job", "parent": None, "policy": "Gang",
                                  "minGroupCount": 2, "placement": "z1", "status": "Scheduled",
                                  "message": None, "placements": []}]
    check("PlanResult", doc)


@pytest.mark.parametrize("target", [["--pod", "ml-research/vision-pretrain-24"],
                                    ["--pod", "ml-research/eval-sweep-3"],
                                    ["--pod-group", "ml-research/vision-pretrain-trainers"],
                                    ["--pod-group", "ml-research/rl-rollout-rollout"]],
                         ids=lambda t: t[1])
def test_the_demo_explained_meets_the_schema(target):
    out = CliRunner().invoke(app, ["explain", str(FIXTURES / "cluster"), str(FIXTURES / "workloads"),
                                   *target, "-o", "json"])
    assert out.exit_code == 0, out.stderr
    doc = json.loads(out.stdout)
    check("Explanation", doc)
    assert doc["target"]["name"] == target[1].split("/")[1]
