"""The v1.37 scheduling kinds' value rules (validate_scheduling.py), in kube-apiserver's words.
The same texts are compared with a real kube-apiserver in tests/live/test_validation_oracle.py;
these run everywhere, without Go."""
from __future__ import annotations

import pytest

from podgroup_plan.loading import validate_scheduling
from podgroup_plan.loading.documents import Document

from .samples import POD_GROUP_V1BETA1, sample

UNION = "must specify one of: `basic`, `gang`"
TOO_DEEP = "maximum template hierarchy depth is 4"


def _problems(obj: dict) -> list[tuple[tuple, str]]:
    return [(i.path, i.message) for i in validate_scheduling.issues(Document(obj, "in.yaml", 1, 1))]


def _group(change) -> dict:
    obj = sample(POD_GROUP_V1BETA1)
    change(obj)
    return obj


def _workload(spec: dict, version: str = "v1beta1") -> dict:
    return {"apiVersion": f"scheduling.k8s.io/{version}", "kind": "Workload",
            "metadata": {"name": "w", "namespace": "ns"}, "spec": spec}


GANG = {"gang": {"minCount": 2}}


@pytest.mark.parametrize("change, expected", [
    (lambda o: o["spec"]["schedulingPolicy"]["gang"].__setitem__("minCount", 0),
     [(("spec", "schedulingPolicy", "gang", "minCount"), "Required value")]),
    (lambda o: o["spec"]["schedulingPolicy"]["gang"].__setitem__("minCount", -1),
     [(("spec", "schedulingPolicy", "gang", "minCount"), "Invalid value: -1: must be greater than or equal to 1")]),
    (lambda o: o["spec"]["schedulingPolicy"].__setitem__("basic", {}),
     [(("spec", "schedulingPolicy"), 'Invalid value: "{basic, gang}": must specify exactly one of: `basic`, `gang`')]),
    (lambda o: o["spec"].__setitem__("schedulingPolicy", {}),
     [(("spec", "schedulingPolicy"), f'Invalid value: "": {UNION}')]),
    (lambda o: o["spec"].pop("schedulingPolicy"),
     [(("spec", "schedulingPolicy"), f'Invalid value: "": {UNION}')]),
    (lambda o: o["spec"].__setitem__("disruptionMode", {}),
     [(("spec", "disruptionMode"), 'Invalid value: "": must specify one of: `single`, `all`')]),
    (lambda o: o["spec"].__setitem__("priority", 2_000_000_000),
     [(("spec", "priority"), "Invalid value: 2000000000: must be less than or equal to 1000000000")]),
    (lambda o: o["spec"].__setitem__("preemptionPolicy", "Sometimes"),
     [(("spec", "preemptionPolicy"), 'Unsupported value: "Sometimes": supported values: "Never", "PreemptLowerPriority"')]),
    (lambda o: o["spec"].__setitem__("schedulingConstraints", {"topology": [{"key": "a"}, {"key": "b"}]}),
     [(("spec", "schedulingConstraints", "topology"), "Too many: 2: must have at most 1 item")]),
    (lambda o: o["spec"].__setitem__("schedulingConstraints", {"topology": [{"key": ""}]}),
     [(("spec", "schedulingConstraints", "topology", 0, "key"), "Required value")]),
    (lambda o: (o["spec"].pop("workloadRef", None), o["spec"].__setitem__("parentCompositePodGroupName", "top")),
     [(("spec", "workloadRef"), "Required value: must be set when parentCompositePodGroupName is set")]),
    (lambda o: o["spec"].__setitem__("workloadRef", {"workloadName": "", "templateName": "a.b"}),
     [(("spec", "workloadRef", "workloadName"), "Required value"),
      (("spec", "workloadRef", "templateName"), 'Invalid value: "a.b": must not contain dots')]),
    (lambda o: o["spec"].__setitem__("priorityClassName", "Not_A_Name"),
     [(("spec", "priorityClassName"), 'Invalid value: "Not_A_Name": a lowercase RFC 1123 subdomain must consist of '
       "lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character "
       "(e.g. 'example.com', regex used for validation is "
       "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')")]),
])
def test_pod_group(change, expected):
    assert _problems(_group(change)) == expected


def test_a_valid_pod_group_has_none():
    assert _problems(_group(lambda o: None)) == []


def test_duplicate_templates_are_shown_as_the_versioned_json():
    obj = _workload({"podGroupTemplates": [{"name": "a", "schedulingPolicy": GANG},
                                           {"name": "a", "schedulingPolicy": {"basic": {}}, "priority": 5}]})
    # the two templates' priorities differ too: the handwritten rule comes first
    assert _problems(obj) == [
        (("spec",), "Invalid value: null: detected multiple priority configurations"),
        (("spec", "podGroupTemplates", 1),
         'Duplicate value: {"name":"a","schedulingPolicy":{"basic":{}},"schedulingConstraints":null,"priority":5}'),
    ]


def test_names_are_unique_across_the_template_tree():
    obj = _workload({"podGroupTemplates": [{"name": "x", "schedulingPolicy": GANG}],
                     "compositePodGroupTemplates": [{"name": "x", "schedulingPolicy": {"basic": {}},
                                                     "podGroupTemplates": [{"name": "x", "schedulingPolicy": GANG}]}]})
    assert [p for p in _problems(obj) if "Duplicate" in p[1]] == [
        (("spec", "compositePodGroupTemplates", 0, "name"), 'Duplicate value: "x"'),
        (("spec", "compositePodGroupTemplates", 0, "podGroupTemplates", 0, "name"), 'Duplicate value: "x"'),
    ]


def _chain(levels: int) -> dict:
    node: dict = {"name": f"c{levels}", "schedulingPolicy": {"basic": {}},
                  "podGroupTemplates": [{"name": "w", "schedulingPolicy": GANG}]}
    for i in range(levels - 1, 0, -1):
        node = {"name": f"c{i}", "schedulingPolicy": {"basic": {}}, "compositePodGroupTemplates": [node]}
    return node


def test_four_levels_of_composite_templates_are_allowed_five_are_not():
    assert _problems(_workload({"compositePodGroupTemplates": [_chain(4)]})) == []
    problems = _problems(_workload({"compositePodGroupTemplates": [_chain(5)]}))
    assert [(p, m.rsplit(": ", 1)[1]) for p, m in problems] == [(("spec", "compositePodGroupTemplates", 0), TOO_DEEP)]
    # the value is the internal type's JSON of the top template's children, Go field names
    assert problems[0][1].startswith('Invalid value: [{"Name":"c2","SchedulingPolicy":{"Basic":{},"Gang":null},'
                                     '"SchedulingConstraints":null,"DisruptionMode":null,"PriorityClassName":""')


@pytest.mark.parametrize("version", ["v1beta1", "v1alpha3"])
def test_one_priority_configuration_in_the_tree(version):
    differing = _workload({"compositePodGroupTemplates": [
        {"name": "c", "schedulingPolicy": {"basic": {}}, "priorityClassName": "high",
         "podGroupTemplates": [{"name": "w", "schedulingPolicy": GANG, "priorityClassName": "low"}]}]}, version)
    assert _problems(differing) == [
        (("spec",), "Invalid value: null: all priority and priorityClassName values must be identical, "
                    "detected multiple values")]
    same = _workload({"compositePodGroupTemplates": [
        {"name": "c", "schedulingPolicy": {"basic": {}}, "priority": 7,
         "podGroupTemplates": [{"name": "w", "schedulingPolicy": GANG, "priority": 7}]}]}, version)
    assert _problems(same) == []


def test_template_lists_union_and_empty_composites():
    assert _problems(_workload({})) == [
        (("spec",), 'Invalid value: "": must specify one of: `podGroupTemplates`, `compositePodGroupTemplates`')]
    empty_child = _workload({"compositePodGroupTemplates": [
        {"name": "c", "schedulingPolicy": {"basic": {}}, "compositePodGroupTemplates": [
            {"name": "d", "schedulingPolicy": {"basic": {}}}]}]})
    assert _problems(empty_child) == [
        (("spec", "compositePodGroupTemplates", 0, "compositePodGroupTemplates", 0),
         'Invalid value: "d": must have at least one child PodGroupTemplate or CompositePodGroupTemplate')]


def test_controller_ref_names_are_path_segments():
    obj = _workload({"controllerRef": {"kind": "a/b%", "name": ".."},
                     "podGroupTemplates": [{"name": "a", "schedulingPolicy": GANG}]})
    assert _problems(obj) == [
        (("spec", "controllerRef", "kind"), "Invalid value: \"a/b%\": may not contain '/'"),
        (("spec", "controllerRef", "kind"), "Invalid value: \"a/b%\": may not contain '%'"),
        (("spec", "controllerRef", "name"), "Invalid value: \"..\": may not be '..'"),
    ]
