"""`explain` cases: folders under cases/ with manifests and an expected.yaml whose numbers are
derived by hand (the derivation is in its comments), checked as a subset of the Explanation.

`expected.yaml`: `description`, `explain` (the target: `pod`, `pod-group` or
`composite-pod-group`, plus optional `node`, `top`, `featureGates`) and `expect`: mappings list
only the fields that matter; lists must match item by item (each item again a subset).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import jsonschema
import pytest
import yaml

from podgroup_plan.explain import COMPOSITE_POD_GROUP, POD, POD_GROUP, explain, parse_target
from podgroup_plan.loading import load_input
from podgroup_plan.planner import plan

CASES = Path(__file__).parent / "cases"
SCHEMA = json.loads((Path(__file__).parents[2] / "schemas" / "Explanation.json").read_text())
KINDS = {"pod": POD, "pod-group": POD_GROUP, "composite-pod-group": COMPOSITE_POD_GROUP}


def _cases() -> list[str]:
    return sorted(p.name for p in CASES.iterdir() if (p / "expected.yaml").exists())


def run_case(case: str) -> tuple[dict, dict, dict]:
    expected = yaml.safe_load((CASES / case / "expected.yaml").read_text())
    spec = expected["explain"]
    (flag, text), = [(k, v) for k, v in spec.items() if k in KINDS]
    cluster = load_input([str(CASES / case / "manifests")])
    gates = spec.get("featureGates")
    doc = explain(cluster, parse_target(KINDS[flag], text), feature_gates=gates,
                  node=spec.get("node"), top=spec.get("top", 3))
    result = plan(load_input([str(CASES / case / "manifests")]), feature_gates=gates).to_dict()
    return expected, doc, result


def mismatches(expected: Any, actual: Any, path: str = "") -> Iterator[str]:
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            yield f"{path}: expected a mapping, got {actual!r}"
            return
        for key, value in expected.items():
            if key not in actual:
                yield f"{path}.{key}: missing"
            else:
                yield from mismatches(value, actual[key], f"{path}.{key}")
    elif isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            yield f"{path}: expected {len(expected)} items, got {actual!r}"
            return
        for i, (e, a) in enumerate(zip(expected, actual)):
            yield from mismatches(e, a, f"{path}[{i}]")
    elif expected != actual:
        yield f"{path}: expected {expected!r}, got {actual!r}"


def test_cases_were_collected():
    assert len(_cases()) >= 2


@pytest.mark.parametrize("case", _cases())
def test_explain_case(case):
    expected, doc, result = run_case(case)
    problems = list(mismatches(expected["expect"], doc))
    assert not problems, "\n".join(problems)
    jsonschema.validate(doc, SCHEMA)
    # The explanation is of the plan: a pod's node, status and message are the plan's.
    if doc["target"]["kind"] == POD:
        pod = next(p for p in result["pods"]
                   if (p["namespace"], p["name"]) == (doc["target"]["namespace"], doc["target"]["name"]))
        assert (doc["node"], doc["status"], doc["message"]) == (pod["node"], pod["status"], pod["message"])


@pytest.mark.parametrize("case", _cases())
def test_explain_is_deterministic(case):
    _, first, _ = run_case(case)
    _, second, _ = run_case(case)
    assert json.dumps(first, sort_keys=False) == json.dumps(second, sort_keys=False)
