"""JSON and YAML renderings: contract order kept, stable bytes, parse back to the same document."""
import json

import pytest
import yaml

import sample_plans
from podgroup_plan.render.json_yaml import render_json, render_yaml

SAMPLES = [sample_plans.mixed, sample_plans.feasible, sample_plans.with_composite,
           sample_plans.only_waiting, sample_plans.only_preemption]


@pytest.mark.parametrize("make", SAMPLES, ids=lambda f: f.__name__)
def test_json_round_trips_and_keeps_contract_order(make):
    doc = make().to_dict()
    text = render_json(doc)
    assert json.loads(text) == doc
    assert list(json.loads(text)) == ["apiVersion", "kind", "feasible", "featureGates", "summary", "pods",
                                      "podGroups", "compositePodGroups", "victims", "notes"]
    assert text.endswith("}\n") and not text.endswith("\n\n")
    assert '\n  "apiVersion": "podgroup-plan/v1",\n' in text  # 2-space indent


def test_json_is_byte_identical_across_renders():
    assert render_json(sample_plans.mixed().to_dict()) == render_json(sample_plans.mixed().to_dict())


def test_json_keeps_key_order_as_given_and_unicode_as_is():
    text = render_json({"z": 1, "a": "node-ä ×2"})
    assert text == '{\n  "z": 1,\n  "a": "node-ä ×2"\n}\n'


@pytest.mark.parametrize("make", SAMPLES, ids=lambda f: f.__name__)
def test_yaml_round_trips_and_keeps_contract_order(make):
    doc = make().to_dict()
    text = render_yaml(doc)
    assert yaml.safe_load(text) == doc
    assert text.startswith("apiVersion: podgroup-plan/v1\nkind: PlanResult\nfeasible: ")


def test_yaml_does_not_fold_long_messages():
    text = render_yaml(sample_plans.mixed().to_dict())
    assert sample_plans.NODE_MSG in text
