"""RuntimeClasses and LimitRanges (read for admission) get the API server's texts
(validate_context.py); the expected lines are kube-apiserver v1.37.2's (dry-run creates)."""
from __future__ import annotations

import pytest
import yaml

NODE = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n0"},
        "status": {"allocatable": {"cpu": "8", "memory": "16Gi", "pods": "110"}}}
DNS_LABEL = ("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start "
             "and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
             "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')")
QUALIFIED = ("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
             "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
             "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')")


def _problems(manifests, *objs) -> list[str]:
    manifests.write("m.yaml", yaml.safe_dump_all([NODE, *objs], sort_keys=False))
    return [p.split(": ", 2)[2] for p in manifests.problems("m.yaml")]


def _runtime_class(**fields) -> dict:
    return {"apiVersion": "node.k8s.io/v1", "kind": "RuntimeClass", "metadata": {"name": "rc"}, **fields}


@pytest.mark.parametrize("fields, said", [
    ({}, ["handler: Required value"]),
    ({"handler": ""}, ["handler: Required value"]),
    ({"handler": "Bad_Handler"}, ['handler: Invalid value: "Bad_Handler": ' + DNS_LABEL]),
    ({"handler": "a.b"}, ['handler: Invalid value: "a.b": must not contain dots']),
    ({"handler": "runc"}, []),
])
def test_runtime_class_handler(manifests, fields, said):
    """ValidateRuntimeClass: Required when empty (was our 'must not be empty'), else NameIsDNSLabel
    (was not checked)."""
    rc = _runtime_class(**fields)
    if not said:
        manifests.write("m.yaml", yaml.safe_dump_all([NODE, rc], sort_keys=False))
        manifests.load("m.yaml")
        return
    assert _problems(manifests, rc) == said


def test_runtime_class_scheduling(manifests):
    """validateScheduling: the node selector's labels (shown at the map, as ValidateLabels
    reports them) and the tolerations, unique (field.Duplicate of the whole toleration); the
    handler's problem comes with them."""
    rc = _runtime_class(scheduling={"nodeSelector": {"a b": "c"},
                                    "tolerations": [{"key": "a", "operator": "Exists"},
                                                    {"key": "a", "operator": "Exists"},
                                                    {"key": "b", "operator": "Exists", "value": "x"}]})
    assert _problems(manifests, rc) == [
        "handler: Required value",
        'scheduling.nodeSelector: Invalid value: "a b": ' + QUALIFIED,
        'scheduling.tolerations[1]: Duplicate value: {"Key":"a","Operator":"Exists","Value":"","Effect":"",'
        '"TolerationSeconds":null}',
        "scheduling.tolerations[2].operator: Invalid value: \"x\": value must be empty when `operator` is 'Exists'",
    ]


def test_limit_range_types(manifests):
    """ValidateLimitRange: validateLimitRangeTypeName (an empty or missing type gets
    IsQualifiedName's messages, was our 'must not be empty'; an unknown one without a prefix
    was not checked) and no type twice."""
    lr = {"apiVersion": "v1", "kind": "LimitRange", "metadata": {"name": "l", "namespace": "a"},
          "spec": {"limits": [{"type": "", "default": {"cpu": "1"}}, {"type": "Bogus"}, {"type": "Container"},
                              {"type": "Container"}, {"type": "example.com/Thing"}, {"max": {"cpu": "2"}}]}}
    assert _problems(manifests, lr) == [
        'spec.limits[0].type: Invalid value: "": name part must be non-empty',
        'spec.limits[0].type: Invalid value: "": ' + QUALIFIED,
        'spec.limits[1].type: Invalid value: "Bogus": must be a standard limit type or fully qualified',
        'spec.limits[3].type: Duplicate value: "Container"',
        'spec.limits[5].type: Invalid value: "": name part must be non-empty',
        'spec.limits[5].type: Invalid value: "": ' + QUALIFIED,
        'spec.limits[5].type: Duplicate value: ""',
    ]
