"""The bundled schemas: what they accept, how their errors read, and the compiled predicate."""
from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from podgroup_plan.loading.schema import SchemaSet, bundled, schema_dir
from podgroup_plan.loading.schema_compiler import CheckCompiler

from .samples import ALL, POD, POD_GROUP_V1BETA1, WORKLOAD_V1ALPHA2, sample

SCHEMAS = bundled()


def test_schemas_are_found_and_valid():
    folder = schema_dir()
    assert (folder / "Pod.v1.json").is_file()
    for path in folder.glob("*.json"):
        Draft202012Validator.check_schema(json.loads(path.read_text()))


def test_kinds_and_versions():
    assert {k: SCHEMAS.versions(k) for k in SCHEMAS.kinds()} == {
        "ClusterTrainingRuntime": ["trainer.kubeflow.org/v1alpha1"],
        "CompositePodGroup": ["scheduling.k8s.io/v1alpha3"],
        "CronJob": ["batch/v1"],
        "DaemonSet": ["apps/v1"],
        "Deployment": ["apps/v1"],
        "Job": ["batch/v1"],
        "JobSet": ["jobset.x-k8s.io/v1alpha2"],
        "KubeSchedulerConfiguration": ["kubescheduler.config.k8s.io/v1"],
        "LeaderWorkerSet": ["leaderworkerset.x-k8s.io/v1"],
        "LimitRange": ["v1"],
        "Namespace": ["v1"],
        "Node": ["v1"],
        "Pod": ["v1"],
        "PodDisruptionBudget": ["policy/v1"],
        "PodGroup": ["scheduling.k8s.io/v1alpha2", "scheduling.k8s.io/v1alpha3", "scheduling.k8s.io/v1beta1"],
        "PriorityClass": ["scheduling.k8s.io/v1"],
        "PyTorchJob": ["kubeflow.org/v1"],
        "RayCluster": ["ray.io/v1"],
        "RayJob": ["ray.io/v1"],
        "RuntimeClass": ["node.k8s.io/v1"],
        "ReplicaSet": ["apps/v1"],
        "ReplicationController": ["v1"],
        "Service": ["v1"],
        "StatefulSet": ["apps/v1"],
        "TFJob": ["kubeflow.org/v1"],
        "TrainJob": ["trainer.kubeflow.org/v1alpha1"],
        "TrainingRuntime": ["trainer.kubeflow.org/v1alpha1"],
        "Workload": ["scheduling.k8s.io/v1alpha1", "scheduling.k8s.io/v1alpha2",
                     "scheduling.k8s.io/v1alpha3", "scheduling.k8s.io/v1beta1"],
    }


@pytest.mark.parametrize(
    "api_version, kind, owned",
    [
        ("scheduling.k8s.io/v1beta1", "PodGroup", True),
        ("scheduling.k8s.io/v9", "PodGroup", True),  # ours, in a version we lack: a problem
        ("kueue.x-k8s.io/v1beta1", "Workload", False),  # another project's kind: ignored
        ("scheduling.volcano.sh/v1beta1", "PodGroup", False),
        ("apps/v1", "DaemonSet", True),
        ("argoproj.io/v1alpha1", "Workflow", False),
        ("kubeflow.org/v1", "PyTorchJob", True),
        ("apps/v1", "Deployment", True),
        ("batch/v1", "Job", True),
        ("v1", "Pod", True),
        ("v2", "Pod", True),
    ],
)
def test_owns(api_version, kind, owned):
    assert SCHEMAS.owns(api_version, kind) is owned


@pytest.mark.parametrize("obj", ALL, ids=lambda o: f"{o['kind']}-{o['apiVersion']}")
def test_samples_are_valid(obj):
    assert SCHEMAS.errors(obj["apiVersion"], obj["kind"], obj) == []


def _errors(obj, change):
    obj = sample(obj)
    change(obj)
    return SCHEMAS.errors(obj["apiVersion"], obj["kind"], obj)


@pytest.mark.parametrize(
    "obj, change, expected",
    [
        (POD, lambda o: o["spec"].__setitem__("priority", "high"),
         [(("spec", "priority"), 'must be an integer, got "high"')]),
        # (a toleration's operator, effect and value are the API server's rules now, with its
        # texts: validate_pods.py, tests/loading/test_validate.py)
        (POD, lambda o: o["spec"].pop("containers"),
         [(("spec", "containers"), "Required value")]),
        (POD, lambda o: o["spec"].__setitem__("containers", {}),
         [(("spec", "containers"), "must be a list, got an object")]),
        (POD, lambda o: o["spec"]["containers"][0]["resources"]["requests"].__setitem__("cpu", True),
         [(("spec", "containers", 0, "resources", "requests", "cpu"), "must be a number or a string, got true")]),
        # (node selector requirements: types only here; ValidateNodeSelectorRequirement's and
        # ValidateLabelSelectorRequirement's rules are validate_node_affinity.py's and
        # validate_selectors.py's, tested in test_validate_core.py)
        # (a spread constraint's maxSkew 0 is the API server's rule now, with its text: validate_pods.py)
        # (v1beta1 and v1alpha3 scheduling kinds: types only here, values in validate_scheduling.py,
        # tested in test_validate_scheduling.py)
        (POD_GROUP_V1BETA1, lambda o: o["spec"].__setitem__("disruptionMode", "PodGroup"),
         [(("spec", "disruptionMode"), 'must be an object, got "PodGroup"')]),
        (WORKLOAD_V1ALPHA2, lambda o: o["spec"].__setitem__("podGroupTemplates", [{"name": f"t{i}", "schedulingPolicy": {"basic": {}}} for i in range(9)]),
         [(("spec", "podGroupTemplates"), "Too many: 9: must have at most 8 items")]),
        (WORKLOAD_V1ALPHA2, lambda o: o["spec"]["podGroupTemplates"][0].__setitem__("disruptionMode", {"all": {}}),
         [(("spec", "podGroupTemplates", 0, "disruptionMode"), 'Unsupported value: {"all":{}}: supported values: "Pod", "PodGroup"')]),
        (WORKLOAD_V1ALPHA2, lambda o: o["spec"].__setitem__("podGroupTemplates", []),
         [(("spec", "podGroupTemplates"), "must not be empty")]),
        (POD, lambda o: o.pop("metadata"), [(("metadata",), "Required value")]),
        # the API server's own texts where pkg/apis/core/validation says something else than the
        # generic field.Error (the schemas' x-invalid / x-zero-required / x-required)
        (POD, lambda o: o["metadata"].__setitem__("name", ""),
         [(("metadata", "name"), "Required value: name or generateName is required")]),
        (POD, lambda o: o["spec"].__setitem__("containers", []), [(("spec", "containers"), "Required value")]),
        (POD, lambda o: o["spec"]["containers"][0].__setitem__("name", ""),
         [(("spec", "containers", 0, "name"), "Required value")]),
        (POD, lambda o: o["spec"]["containers"][0].__setitem__("ports", [{"containerPort": 0}, {"containerPort": 70000},
                                                                         {"containerPort": 80, "hostPort": -1}]),
         [(("spec", "containers", 0, "ports", 0, "containerPort"), "Required value"),
          (("spec", "containers", 0, "ports", 1, "containerPort"),
           "Invalid value: 70000: must be between 1 and 65535, inclusive"),
          (("spec", "containers", 0, "ports", 2, "hostPort"), "Invalid value: -1: must be between 1 and 65535, inclusive")]),
        (POD, lambda o: o["spec"].__setitem__("preemptionPolicy", "Sometimes"),
         [(("spec", "preemptionPolicy"), 'Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"')]),
    ],
    ids=lambda v: "" if callable(v) or isinstance(v, dict) else str(v)[:60],
)
def test_error_wording(obj, change, expected):
    assert _errors(obj, change) == expected


def test_plugins_map_is_strict():
    from .samples import SCHEDULER_CONFIG

    errors = _errors(SCHEDULER_CONFIG, lambda o: o["profiles"][0]["plugins"].__setitem__("scores", {}))
    assert errors == [(("profiles", 0, "plugins"),
                       'unknown field(s) "scores"; known: bind, filter, multiPoint, permit, '
                       "placementGenerate, placementScore, podGroupPostFilter, postBind, postFilter, preBind, "
                       "preEnqueue, preFilter, preScore, queueSort, reserve, score")]


def test_other_fields_are_allowed():
    pod = sample(POD)
    pod["spec"]["volumes"] = [{"name": "v", "emptyDir": {}}]
    pod["metadata"]["managedFields"] = [{"manager": "kubectl"}]
    pod["status"]["conditions"] = [{"type": "PodScheduled", "status": "False"}]
    assert SCHEMAS.errors("v1", "Pod", pod) == []


def test_validators_are_built_once():
    assert SCHEMAS.validator("v1", "Pod") is SCHEMAS.validator("v1", "Pod")
    assert SCHEMAS.check("v1", "Pod") is SCHEMAS.check("v1", "Pod")


def test_a_schema_with_an_unknown_keyword_falls_back_to_jsonschema(tmp_path):
    (tmp_path / "Thing.v1.json").write_text(json.dumps({
        "$id": "https://podgroup-plan.invalid/schemas/Thing.v1.json",
        "type": "object", "properties": {"name": {"type": "string", "format": "email"}},
        "dependentRequired": {"a": ["b"]},
    }))
    schemas = SchemaSet(tmp_path)
    assert schemas.check("v1", "Thing") is None
    assert schemas.errors("v1", "Thing", {"a": 1}) == [((), "'b' is a dependency of 'a'")]


# --- the compiled predicate agrees with jsonschema -----------------------------------------------

INTERESTING = st.sampled_from([
    None, True, False, 0, 1, -1, 1.0, 1.5, 9, 2**40, "", "x", "In", "Exists", "Gt", "3", "Always",
    "NoSchedule", "Pod", "PodGroup", "Never", "metadata.name", [], [1], ["a"], ["a", "b"], {},
    {"basic": {}}, {"gang": {"minCount": 1}}, {"gang": {"minCount": 0}}, {"all": {}}, {"single": {}},
    {"key": "k", "operator": "Exists"}, {"name": "n"}, {"minGroupCount": 2},
])
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=4,
)
KEYS = st.sampled_from(["basic", "gang", "all", "single", "values", "operator", "key", "name", "minCount",
                        "topology", "podGroupTemplates", "compositePodGroupTemplates", "x"])


def _paths(value, at=()):
    yield at
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, at + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, at + (i,))


def _mutate(obj, path, action, new, key):
    parent = obj
    for part in path[:-1]:
        parent = parent[part]
    if not path:
        return new
    last = path[-1]
    if action == "replace":
        parent[last] = new
    elif action == "delete" and isinstance(parent, dict):
        del parent[last]
    elif action == "add" and isinstance(parent[last], dict):
        parent[last][key] = new
    elif action == "add" and isinstance(parent[last], list):
        parent[last].append(new)
    return obj


def draw_mutated(data, min_mutations: int) -> tuple[dict, dict]:
    """A bundled sample and a copy of it with `min_mutations` to 3 random changes (a value
    replaced, a field deleted or added): (sample, mutated copy)."""
    base = data.draw(st.sampled_from(ALL), label="sample")
    obj = copy.deepcopy(base)
    for _ in range(data.draw(st.integers(min_mutations, 3), label="mutations")):
        path = data.draw(st.sampled_from(list(_paths(obj))), label="path")
        action = data.draw(st.sampled_from(["replace", "delete", "add"]), label="action")
        new = copy.deepcopy(data.draw(INTERESTING | JSON, label="value"))
        obj = _mutate(obj, path, action, new, data.draw(KEYS, label="key"))
    return base, obj


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_compiled_check_agrees_with_jsonschema(data):
    base, obj = draw_mutated(data, 1)
    api_version, kind = base["apiVersion"], base["kind"]
    expected = SCHEMAS.validator(api_version, kind).is_valid(obj)
    assert SCHEMAS.check(api_version, kind)(obj) == expected
    assert (SCHEMAS.errors(api_version, kind, obj) == []) == expected


def test_compiled_check_handles_recursion_and_booleans():
    from referencing import Registry
    from referencing.jsonschema import DRAFT202012

    schema = {"$id": "urn:t", "type": "object", "properties": {
        "child": {"$ref": "#"}, "yes": True, "no": False}}
    resolver = Registry().with_resource("urn:t", DRAFT202012.create_resource(schema)).resolver("urn:t")
    check = CheckCompiler().compile(schema, resolver)
    assert check({"child": {"child": {"yes": 1}}})
    assert not check({"child": {"child": {"no": 1}}})
    assert not check({"child": []})
