"""Strict field validation (loading/known_fields.py): the compiled check and the reporting walk
agree, misspellings are suggested, every kind read has its known fields, and --validate's
three directives behave as kubectl's."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

from podgroup_plan.cli import app
from podgroup_plan.loading import known_fields as kf
from podgroup_plan.loading import known_fields_checks_v1_37 as shipped
from podgroup_plan.loading.schema import bundled

POD = {
    "apiVersion": "v1", "kind": "Pod",
    "metadata": {"name": "p", "namespace": "d", "labels": {"app": "x"},
                 "ownerReferences": [{"apiVersion": "batch/v1", "kind": "Job", "name": "j", "uid": "u"}]},
    "spec": {
        "containers": [{"name": "c", "image": "x", "env": [{"name": "A", "valueFrom": {"fieldRef": {"fieldPath": "x"}}}],
                        "resources": {"requests": {"cpu": "1"}, "limits": {"cpu": "1"}}}],
        "volumes": [{"name": "v", "configMap": {"name": "cm", "items": [{"key": "k", "path": "p"}]}}],
        "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
            "nodeSelectorTerms": [{"matchExpressions": [{"key": "a", "operator": "In", "values": ["b"]}]}]}}},
        "tolerations": [{"key": "k", "operator": "Exists"}],
        "nodeSelector": {"disk": "ssd"},
    },
    "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}],
               "containerStatuses": [{"name": "c", "ready": True, "restartCount": 0, "image": "x", "imageID": "",
                                      "state": {"running": {"startedAt": "2025-01-01T00:00:00Z"}}}]},
}
POD_TYPE = kf.type_of("v1", "Pod")


def _objects(value, path=()):
    """Every (path, object) of a document whose fields are struct fields (not maps of labels,
    resources or other free keys)."""
    if isinstance(value, dict):
        yield path, value
        for k, v in value.items():
            if k not in ("labels", "nodeSelector", "requests", "limits", "annotations"):
                yield from _objects(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _objects(v, path + (i,))


OBJECT_PATHS = [p for p, _ in _objects(POD)]


def test_a_kubectl_pod_has_no_unknown_field():
    assert kf.check(POD_TYPE)(POD)
    assert list(kf.unknown_fields(POD_TYPE, POD)) == []


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(OBJECT_PATHS), st.sampled_from(["bogus", "naem", "Spec", "x-y"]))
def test_the_check_and_the_walk_agree_on_an_unknown_field_anywhere(path, name):
    doc = copy.deepcopy(POD)
    target = doc
    for part in path:
        target = target[part]
    if name in target:
        return
    target[name] = 1
    assert not kf.check(POD_TYPE)(doc)
    found = list(kf.unknown_fields(POD_TYPE, doc))
    assert [p for p, _ in found] == [path + (name,)]
    assert found[0][1].startswith(f'unknown field "{name}"')


@pytest.mark.parametrize("kind, doc, path, suggested", [
    ("Pod", {"spec": {"nodeselector": {}}}, ("spec", "nodeselector"), "nodeSelector"),
    ("Pod", {"spec": {"containers": [{"name": "c", "resources": {"request": {}}}]}},
     ("spec", "containers", 0, "resources", "request"), "requests"),
    ("PodGroup", {"spec": {"schedulingConstraint": {}}}, ("spec", "schedulingConstraint"), "schedulingConstraints"),
])
def test_a_close_known_field_is_suggested(kind, doc, path, suggested):
    api_version = "scheduling.k8s.io/v1beta1" if kind == "PodGroup" else "v1"
    found = list(kf.unknown_fields(kf.type_of(api_version, kind), doc))
    assert found == [(path, f'unknown field "{path[-1]}"; did you mean "{suggested}"?')]


def test_nothing_close_is_suggested_for_a_far_name():
    assert kf.message("zzzzzz", ["containers", "volumes"]) == 'unknown field "zzzzzz"'


def test_every_kind_with_a_schema_has_its_known_fields():
    # A new kind needs its fields in tools/knownfields (and the generated module), so that it
    # is as strict as the others; the scheduler configuration is strict through its schema.
    schemas = bundled()
    missing = [f"{v}/{k}" for k in schemas.kinds() for v in schemas.versions(k)
               if kf.type_of(v, k) is None and k != "KubeSchedulerConfiguration"]
    assert missing == []


def test_the_generated_checks_are_current():
    # tools/knownfields/generate.sh writes both modules; a hand edit of one would drift
    assert Path(shipped.__file__).read_text(encoding="utf-8") == kf.checks_source()
    assert shipped.SOURCE_TYPES == kf._TYPES_FINGERPRINT


def test_the_shipped_and_the_compiled_checks_agree():
    compiled = kf._Compiler().compile(POD_TYPE)
    doc = copy.deepcopy(POD)
    assert compiled(doc) and shipped.CHECKS[POD_TYPE](doc)
    doc["spec"]["volumes"][0]["configMap"]["itmes"] = []
    assert not compiled(doc) and not shipped.CHECKS[POD_TYPE](doc)


NODE = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"},
        "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "10"}}}


def _run(tmp_path, *args):
    bad = copy.deepcopy(POD)
    del bad["status"]
    bad["spec"]["nodeName"] = None
    bad["spec"]["containers"][0]["resources"]["request"] = {"cpu": "1"}
    (tmp_path / "in.json").write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": [NODE, bad]}))
    return CliRunner().invoke(app, [*args, str(tmp_path / "in.json")])


def test_validate_strict_is_the_default_and_refuses(tmp_path):
    for args in ((), ("--validate", "strict"), ("--validate=true",)):
        result = _run(tmp_path, "simulate", *args)
        assert result.exit_code == 2, args
        assert 'spec.containers[0].resources.request: unknown field "request"; did you mean "requests"?' in result.stderr


def test_validate_warn_plans_and_notes(tmp_path):
    result = _run(tmp_path, "simulate", "--validate", "warn", "-o", "json")
    assert result.exit_code == 0, result.stderr
    notes = json.loads(result.stdout)["notes"]
    assert ('Pod d/p: spec.containers[0].resources.request: unknown field "request"; did you mean '
            '"requests"? (not read: --validate=warn)') in notes


def test_validate_ignore_plans_without_a_word(tmp_path):
    for value in ("ignore", "false"):
        result = _run(tmp_path, "simulate", "--validate", value, "-o", "json")
        assert result.exit_code == 0, result.stderr
        assert not any("unknown field" in n for n in json.loads(result.stdout)["notes"])
