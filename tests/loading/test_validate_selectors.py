"""Label selectors get apimachinery's ValidateLabelSelector (validate_selectors.py) wherever the
planner reads one: pod affinity terms' labelSelector and namespaceSelector, spread constraints,
the controllers' spec.selector, a PodDisruptionBudget's, with the API server's texts."""
from __future__ import annotations

import copy
import json

import pytest
import yaml

from podgroup_plan.loading.field_errors import invalid
from podgroup_plan.loading.validate_selectors import operators_hold, selector_parses, selector_value

NODE = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n0"},
        "status": {"allocatable": {"cpu": "8", "memory": "16Gi", "pods": "110"}}}
# IsQualifiedName / IsValidLabelValue messages (apimachinery v0.37.0 content.IsLabelKey, IsLabelValue)
QUALIFIED = ("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
             "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
             "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')")
VALUE = ("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must "
         "start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for "
         "validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')")
EMPTY = ['Invalid value: "": name part must be non-empty', 'Invalid value: "": ' + QUALIFIED]

# A selector with one problem of each kind, and what ValidateLabelSelector says (relative paths)
BAD_SELECTOR = {"matchLabels": {"a b": "x", "app": "no way"},
                "matchExpressions": [{"key": "", "operator": "Exists"},
                                     {"key": "bad key", "operator": "In", "values": ["ok", "not ok"]}]}
BAD_SELECTOR_SAYS = [
    'matchLabels: Invalid value: "a b": ' + QUALIFIED,
    'matchLabels: Invalid value: "no way": ' + VALUE,
    "matchExpressions[0].key: " + EMPTY[0],
    "matchExpressions[0].key: " + EMPTY[1],
    'matchExpressions[1].key: Invalid value: "bad key": ' + QUALIFIED,
    'matchExpressions[1].values[1]: Invalid value: "not ok": ' + VALUE,
]


def _problems(manifests, *objs) -> list[str]:
    manifests.write("m.yaml", yaml.safe_dump_all([NODE, *objs], sort_keys=False))
    return [p.split(": ", 2)[2] for p in manifests.problems("m.yaml")]


def _pod(spec_extra: dict) -> dict:
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "a"},
            "spec": {**spec_extra, "containers": [{"name": "c", "image": "x"}]}}


def _term(**fields) -> dict:
    return {"topologyKey": "zone", **fields}


@pytest.mark.parametrize("spec, at", [
    ({"affinity": {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        _term(labelSelector=BAD_SELECTOR)]}}},
     "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector"),
    ({"affinity": {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        _term(namespaceSelector=BAD_SELECTOR)]}}},
     "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].namespaceSelector"),
    ({"affinity": {"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
        {"weight": 5, "podAffinityTerm": _term(labelSelector=BAD_SELECTOR)}]}}},
     "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.labelSelector"),
    ({"topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule",
                                     "labelSelector": BAD_SELECTOR}]},
     "spec.topologySpreadConstraints[0].labelSelector"),
])
def test_pod_selectors(manifests, spec, at):
    """validatePodAffinityTerm (ValidatePodAffinityTermSelector) and
    validateTopologySpreadConstraints: values are checked (no old pod: AllowInvalidLabelValueInSelector
    and AllowInvalidTopologySpreadConstraintLabelSelector are false)."""
    assert _problems(manifests, _pod(spec)) == [f"{at}.{m}" for m in BAD_SELECTOR_SAYS]


def _controller(kind: str, selector: dict, labels: dict | None = None, **spec) -> dict:
    group = "batch/v1" if kind == "Job" else "apps/v1"
    template: dict = {"metadata": {"labels": labels or {"app": "web"}},
                      "spec": {"containers": [{"name": "c", "image": "x"}]}}
    if kind == "Job":
        template["spec"]["restartPolicy"] = "Never"
    return {"apiVersion": group, "kind": kind, "metadata": {"name": "w", "namespace": "a"},
            "spec": {"selector": selector, "template": template, **spec}}


@pytest.mark.parametrize("kind, unparsed", [
    ("Deployment", "invalid label selector"),
    ("ReplicaSet", "invalid label selector"),
    ("StatefulSet", None),  # field.Invalid(selector, "")
    ("DaemonSet", ""),  # nothing more
    ("Job", ""),
])
def test_controller_selectors(manifests, kind, unparsed):
    """ValidateLabelSelector on spec.selector, and what each kind adds when
    LabelSelectorAsSelector fails (apps ValidateDeploymentSpec, ValidateReplicaSetSpec,
    ValidateStatefulSetSpec; ValidateDaemonSetSpec and batch ValidateJobSpec add nothing). The
    template's labels are not compared with a selector that does not parse, and the first three
    leave the whole template unchecked (its node selector here) as upstream does."""
    selector = {"matchLabels": {"a b": "x"}}
    obj = _controller(kind, selector, manualSelector=True) if kind == "Job" else _controller(kind, selector)
    obj["spec"]["template"]["spec"]["nodeSelector"] = {"disk": "fast ssd"}
    said = ['spec.selector.matchLabels: Invalid value: "a b": ' + QUALIFIED]
    if unparsed is None:
        said.insert(0, 'spec.selector: Invalid value: {"matchLabels":{"a b":"x"}}')
    elif unparsed:
        said.insert(0, f'spec.selector: Invalid value: {{"matchLabels":{{"a b":"x"}}}}: {unparsed}')
    else:
        said.append('spec.template.spec.nodeSelector: Invalid value: "fast ssd": ' + VALUE)
    assert _problems(manifests, obj) == said


def test_a_job_selector_is_checked_without_manual_selector(manifests):
    """The registry's generateSelector adds controller-uid to what the user wrote: the written
    part is validated all the same (batch ValidateJobSpec)."""
    obj = _controller("Job", {"matchExpressions": [{"key": "app", "operator": "In", "values": ["x y"]}]})
    assert _problems(manifests, obj) == [
        'spec.selector.matchExpressions[0].values[0]: Invalid value: "x y": ' + VALUE]


def test_an_unknown_operator_makes_the_selector_unparsed(manifests):
    """The schema reports the operator ("not a valid selector operator"); LabelSelectorAsSelector
    fails on it too, so the Deployment adds "invalid label selector" and its template's labels are
    not compared."""
    obj = _controller("Deployment", {"matchExpressions": [{"key": "app", "operator": "Matches"}]},
                      labels={"app": "other"})
    assert _problems(manifests, obj) == [
        'spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"Matches"}]}: '
        "invalid label selector",
        'spec.selector.matchExpressions[0].operator: Invalid value: "Matches": not a valid selector operator',
    ]


@pytest.mark.parametrize("kind, what", [("Deployment", "deployment"), ("ReplicaSet", "deployment"),
                                        ("StatefulSet", "statefulset"), ("DaemonSet", "daemonset")])
def test_empty_selectors(manifests, kind, what):
    """An empty selector selects everything: the apps kinds refuse it, a DaemonSet too
    (ValidateDaemonSetSpec); omitempty leaves `{}` of `matchLabels: {}`."""
    assert _problems(manifests, _controller(kind, {"matchLabels": {}})) == [
        f"spec.selector: Invalid value: {{}}: empty selector is invalid for {what}"]


def test_a_valid_selector_still_has_to_match_its_template(manifests):
    obj = _controller("Deployment", {"matchLabels": {"app": "web"}}, labels={"app": "website"})
    assert _problems(manifests, obj) == [
        'spec.template.metadata.labels: Invalid value: {"app":"website"}: `selector` does not match template `labels`']


def test_a_cron_jobs_job_template_takes_no_selector(manifests):
    """batch ValidateJobTemplateSpec: the selector is generated; manualSelector must be nil or
    false (and the template's labels are not compared with the refused selector)."""
    cron = {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": {"name": "c", "namespace": "a"},
            "spec": {"schedule": "0 * * * *", "jobTemplate": {"spec": {
                "manualSelector": True, "selector": {"matchLabels": {"app": "web", "a b": "c"}},
                "template": {"metadata": {"labels": {"app": "other"}},
                             "spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "x"}]}}}}}}
    assert _problems(manifests, cron) == [
        'spec.jobTemplate.spec.manualSelector: Unsupported value: true: supported values: "nil", "false"',
        'spec.jobTemplate.spec.selector: Invalid value: {"matchLabels":{"a b":"c","app":"web"}}: '
        "`selector` will be auto-generated",
    ]


def test_pod_disruption_budget_selector(manifests):
    """policy ValidatePodDisruptionBudgetSpec: ValidateLabelSelector, values checked on create."""
    pdb = {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "b", "namespace": "a"},
           "spec": {"minAvailable": 1, "selector": BAD_SELECTOR}}
    assert _problems(manifests, pdb) == [f"spec.selector.{m}" for m in BAD_SELECTOR_SAYS]


def test_an_operator_template_selector(manifests):
    """A LeaderWorkerSet's worker pods are validated as pods: their affinity terms' selectors too."""
    lws = {"apiVersion": "leaderworkerset.x-k8s.io/v1", "kind": "LeaderWorkerSet",
           "metadata": {"name": "l", "namespace": "a"},
           "spec": {"leaderWorkerTemplate": {"size": 2, "workerTemplate": {"spec": {
               "affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                   _term(labelSelector={"matchExpressions": [{"key": "", "operator": "Exists"}]})]}},
               "containers": [{"name": "c", "image": "x"}]}}}}}
    at = ("spec.leaderWorkerTemplate.workerTemplate.spec.affinity.podAntiAffinity."
          "requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions[0].key")
    assert _problems(manifests, lws) == [f"{at}: {m}" for m in EMPTY]


def test_valid_selectors_load(manifests):
    good = {"matchLabels": {"app": "web", "example.com/tier": ""},
            "matchExpressions": [{"key": "example.com/zone", "operator": "NotIn", "values": ["a", "b-1"]},
                                 {"key": "gpu", "operator": "DoesNotExist"}]}
    pod = _pod({"affinity": {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        _term(labelSelector=good, namespaceSelector=good)]}}})
    pdb = {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "b", "namespace": "a"},
           "spec": {"minAvailable": 1, "selector": good}}
    deployment = _controller("Deployment", copy.deepcopy(good), labels={"app": "web", "example.com/tier": ""})
    manifests.write("m.yaml", yaml.safe_dump_all([NODE, pod, pdb, deployment], sort_keys=False))
    manifests.load("m.yaml")


def test_selector_value_is_json_marshal_of_the_go_struct():
    """matchLabels before matchExpressions (declaration order), map keys sorted, empty fields
    left out (omitempty), a requirement's key and operator always there."""
    selector = {"matchExpressions": [{"operator": "Exists", "key": "", "values": []}],
                "matchLabels": {"z": "1", "a": "2"}}
    shown = selector_value(selector)
    assert json.dumps(shown, separators=(",", ":")) == (
        '{"matchLabels":{"a":"2","z":"1"},"matchExpressions":[{"key":"","operator":"Exists"}]}')
    assert invalid(selector_value({"matchExpressions": [{"operator": "In", "values": ["v"], "key": "k"}]}), "d") == (
        'Invalid value: {"matchExpressions":[{"key":"k","operator":"In","values":["v"]}]}: d')
    assert invalid(selector_value({"matchLabels": None, "matchExpressions": []}), "d") == "Invalid value: {}: d"


@pytest.mark.parametrize("selector, parses", [
    ({}, True),
    ({"matchLabels": {"app": "web"}, "matchExpressions": [{"key": "a", "operator": "In", "values": ["x"]}]}, True),
    ({"matchLabels": {"a b": "web"}}, False),
    ({"matchLabels": {"app": "w w"}}, False),
    ({"matchExpressions": [{"key": "", "operator": "Exists"}]}, False),
    ({"matchExpressions": [{"key": "a", "operator": "In", "values": ["x", "y z"]}]}, False),
    ({"matchExpressions": [{"key": "a", "operator": "Has"}]}, False),
])
def test_selector_parses(selector, parses):
    """metav1.LabelSelectorAsSelector's verdict."""
    assert selector_parses(selector) is parses


@pytest.mark.parametrize("rq, holds", [
    ({"key": "a", "operator": "In", "values": ["x"]}, True),
    ({"key": "a", "operator": "In"}, False),
    ({"key": "a", "operator": "Exists"}, True),
    ({"key": "a", "operator": "DoesNotExist", "values": ["x"]}, False),
    ({"key": "a", "operator": "Gt", "values": ["1"]}, False),
])
def test_operators_hold(rq, holds):
    assert operators_hold({"matchExpressions": [rq]}) is holds


def test_pod_affinity_namespaces_are_dns_labels(manifests):
    """validatePodAffinityTerm: each of `namespaces` through ValidateNamespaceName, reported at
    upstream's `<term>.namespace` (sic) with the name's own line (kube-apiserver v1.37.2 says the
    same)."""
    pod = _pod({"affinity": {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        _term(namespaces=["Team_A", "ok", "a.b"])]}}})
    at = "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].namespace"
    dns_label = ("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must "
                 "start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for "
                 "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')")
    manifests.write("m.yaml", yaml.safe_dump_all([NODE, pod], sort_keys=False))
    problems = manifests.problems("m.yaml")
    assert [p.split(": ", 2)[2] for p in problems] == [
        f'{at}: Invalid value: "Team_A": {dns_label}', f'{at}: Invalid value: "a.b": must not contain dots']
    assert [p.split(":")[1] for p in problems] == ["22", "24"]  # each name's own line
