"""The built-in kinds' fields the planner reads, validated as kube-apiserver v1.37 validates them:
each rule family with its paths and texts (pkg/apis/core, apps, batch, policy and scheduling
validation). The same manifests, and more variations, are compared with a real server in
tests/live/test_validation_oracle.py (validation_corpus.py `_core()`)."""
from __future__ import annotations

import yaml

from .test_validate import QUALIFIED, SUBDOMAIN

NODE = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"},
        "status": {"allocatable": {"cpu": "1", "pods": "10"}}}


def _problems(manifests, *objs) -> list[str]:
    """The problems of `objs` (with a valid Node), without `FILE:LINE: KIND NS/NAME: `."""
    manifests.write("m.yaml", yaml.safe_dump_all([NODE, *objs], sort_keys=False))
    return [p.split(": ", 2)[2] for p in manifests.problems("m.yaml")]


def _pod(**spec) -> dict:
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "a"},
            "spec": {"containers": [{"name": "c", "image": "x"}], **spec}}


def _required(*terms) -> dict:
    return {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": list(terms)}}}}


REQ = "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms"
PREF = "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution"


# --- node affinity (ValidateNodeSelector, ValidateNodeSelectorRequirement,
# ValidateNodeFieldSelectorRequirement, ValidatePreferredSchedulingTerms) ------------------------


def test_node_selector_requirements_get_their_operator_rules_then_the_key(manifests):
    assert _problems(manifests, _pod(**_required({"matchExpressions": [
        {"key": "a", "operator": "In"},
        {"key": "b", "operator": "Exists", "values": ["x"]},
        {"key": "c", "operator": "Gt", "values": ["1", "2"]},
        {"key": "", "operator": "Bad"},
        {"values": ["not a value"], "operator": "NotIn"},
    ]}))) == [
        f"{REQ}[0].matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
        f"{REQ}[0].matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or "
        "'DoesNotExist'",
        f"{REQ}[0].matchExpressions[2].values: Required value: must be specified single value when `operator` is "
        "'Lt' or 'Gt'",
        # (sorted by line: the key's line comes first)
        f'{REQ}[0].matchExpressions[3].key: Invalid value: "": name part must be non-empty',
        f'{REQ}[0].matchExpressions[3].key: Invalid value: "": name part {QUALIFIED}',
        f'{REQ}[0].matchExpressions[3].operator: Invalid value: "Bad": not a valid selector operator',
        # a missing key is Go's "", as upstream sees it
        f'{REQ}[0].matchExpressions[4].key: Invalid value: "": name part must be non-empty',
        f'{REQ}[0].matchExpressions[4].key: Invalid value: "": name part {QUALIFIED}',
        f'{REQ}[0].matchExpressions[4].values[0]: Invalid value: "not a value": a valid label must be an empty '
        "string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
        "alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is "
        "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ]


def test_gt_and_lt_values_that_are_not_integers_pass_as_the_api_server_lets_them(manifests):
    """ValidateNodeSelectorRequirement counts a Gt/Lt requirement's values and never parses
    them: kube-scheduler refuses such a term when it reads it (plugins/helper/node_affinity.py)."""
    manifests.write("m.yaml", yaml.safe_dump_all([NODE, _pod(**_required({"matchExpressions": [
        {"key": "a", "operator": "Gt", "values": ["abc"]}, {"key": "b", "operator": "Lt", "values": ["0x10"]}]}))]))
    manifests.load("m.yaml")


def test_match_fields_get_the_field_selector_rules(manifests):
    assert _problems(manifests, _pod(**_required({"matchFields": [
        {"key": "metadata.labels", "operator": "In", "values": ["a"]},
        {"key": "metadata.name", "operator": "NotIn", "values": ["Bad_Node", "b"]},
        {"key": "metadata.name", "operator": "Exists"},
    ]}))) == [
        f'{REQ}[0].matchFields[0].key: Invalid value: "metadata.labels": not a valid field selector key',
        f"{REQ}[0].matchFields[1].values: Required value: must be only one value when `operator` is 'In' or "
        "'NotIn' for node field selector",
        f'{REQ}[0].matchFields[1].values[0]: Invalid value: "Bad_Node": {SUBDOMAIN}',
        f'{REQ}[0].matchFields[2].operator: Invalid value: "Exists": not a valid selector operator',
    ]


def test_a_required_selector_needs_a_term(manifests):
    for terms in ([], None):
        pod = _pod(affinity={"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
            "nodeSelectorTerms": terms}}})
        assert _problems(manifests, pod) == [f"{REQ}: Required value: must have at least one node selector term"]


def test_preferred_terms_check_weights_keys_and_fields_but_not_values(manifests):
    """ValidatePreferredSchedulingTerms passes allowInvalidLabelValue=true: a preferred term's
    values are not label-checked (kube-scheduler refuses them later, at PreScore)."""
    assert _problems(manifests, _pod(affinity={"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
        {"weight": 0, "preference": {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["not a value"]},
                                                          {"key": "", "operator": "Exists"}],
                                     "matchFields": [{"key": "metadata.uid", "operator": "In", "values": ["a"]}]}},
    ]}})) == [
        f"{PREF}[0].weight: Invalid value: 0: must be in the range 1-100",
        f"{PREF}[0].preference.matchExpressions[1].key: Invalid value: \"\": name part must be non-empty",
        f'{PREF}[0].preference.matchExpressions[1].key: Invalid value: "": name part {QUALIFIED}',
        f'{PREF}[0].preference.matchFields[0].key: Invalid value: "metadata.uid": not a valid field selector key',
    ]


def test_label_selector_requirements_come_with_the_objects_other_problems(manifests):
    """ValidateLabelSelectorRequirement's operator rules are no longer the schema's: an `In`
    without values comes with the same object's label problems, as the server reports both."""
    sel = {"matchExpressions": [{"key": "a", "operator": "In"}, {"key": "b", "operator": "Gt", "values": ["1"]}]}
    pod = _pod(topologySpreadConstraints=[
        {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule", "labelSelector": sel},
        {"maxSkew": 1, "topologyKey": "rack", "whenUnsatisfiable": "DoNotSchedule",
         "labelSelector": {"matchLabels": {"app": "bad value"}}}])
    at = "spec.topologySpreadConstraints"
    assert _problems(manifests, pod) == [
        f"{at}[0].labelSelector.matchExpressions[0].values: Required value: must be specified when `operator` is "
        "'In' or 'NotIn'",
        f'{at}[0].labelSelector.matchExpressions[1].operator: Invalid value: "Gt": not a valid selector operator',
        f'{at}[1].labelSelector.matchLabels: Invalid value: "bad value": a valid label must be an empty string or '
        "consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
        "character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is "
        "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ]


# --- matchLabelKeys and mismatchLabelKeys (PrepareForCreate's merge, then
# ValidateMatchLabelKeysAndMismatchLabelKeys), a pod's nodeName --------------------------------


def test_a_pods_label_keys_are_merged_into_its_selectors_before_they_are_checked(manifests):
    pod = _pod(topologySpreadConstraints=[
        {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule",
         "labelSelector": {"matchLabels": {"app": "x"}}, "matchLabelKeys": ["app"]},
        {"maxSkew": 1, "topologyKey": "rack", "whenUnsatisfiable": "DoNotSchedule", "matchLabelKeys": ["app"]}],
        affinity={"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
            {"topologyKey": "zone", "labelSelector": {"matchLabels": {"zone": "z"}},
             "matchLabelKeys": ["tier", "bad key"], "mismatchLabelKeys": ["zone", "tier"]}]}})
    pod["metadata"]["labels"] = {"app": "x", "tier": "y", "zone": "z"}
    term = "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]"
    assert _problems(manifests, pod) == [  # (in the order of their lines)
        # upstream's path for a key the merged selector already had: the constraint's own, indexed
        'spec.topologySpreadConstraints[0][0]: Invalid value: "app": exists in both matchLabelKeys and labelSelector',
        "spec.topologySpreadConstraints[1].matchLabelKeys: Forbidden: must not be specified when labelSelector is "
        "not set",
        f'{term}.matchLabelKeys[0]: Invalid value: "tier": exists in both matchLabelKeys and mismatchLabelKeys',
        f'{term}[0]: Invalid value: "tier": exists in both matchLabelKeys and labelSelector',
        f'{term}.matchLabelKeys[1]: Invalid value: "bad key": name part {QUALIFIED}',
    ]


def test_a_templates_label_keys_are_not_merged(manifests):
    """Only a Pod's PrepareForCreate merges: a Deployment's template with the same keys in both
    places is fine."""
    deployment = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d", "namespace": "a"},
                  "spec": {"selector": {"matchLabels": {"app": "x"}}, "template": {
                      "metadata": {"labels": {"app": "x"}},
                      "spec": {"containers": [{"name": "c", "image": "x"}], "topologySpreadConstraints": [
                          {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule",
                           "labelSelector": {"matchLabels": {"app": "x"}}, "matchLabelKeys": ["app"]}]}}}}
    manifests.write("m.yaml", yaml.safe_dump_all([NODE, deployment]))
    manifests.load("m.yaml")


def test_a_pods_node_name_is_a_node_name(manifests):
    assert _problems(manifests, _pod(nodeName="Node_1")) == [f'spec.nodeName: Invalid value: "Node_1": {SUBDOMAIN}']


# --- controllers (apps ValidateDeploymentSpec and siblings, core ValidateReplicationControllerSpec) --


def _deployment(kind="Deployment", selector=None, labels=None, restart=None, **spec) -> dict:
    pod_spec = {"containers": [{"name": "c", "image": "x"}]}
    if restart:
        pod_spec["restartPolicy"] = restart
    spec = {"template": {"metadata": {"labels": labels or {"app": "web"}}, "spec": pod_spec}, **spec}
    if selector is not None:
        spec["selector"] = selector
    return {"apiVersion": "apps/v1", "kind": kind, "metadata": {"name": "web", "namespace": "a"}, "spec": spec}


def test_a_missing_selector_selects_nothing(manifests):
    """LabelSelectorAsSelector(nil) is labels.Nothing(): the template's labels never match it;
    a DaemonSet is not asked for a selector at all."""
    mismatch = 'spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`'
    assert _problems(manifests, _deployment()) == ["spec.selector: Required value", mismatch]
    assert _problems(manifests, _deployment("DaemonSet")) == [mismatch]


def test_controller_pods_must_restart_always(manifests):
    """ValidatePodTemplateSpecForReplicaSet (only with a selector that parses), and a
    StatefulSet's own check (always)."""
    assert _problems(manifests, _deployment(selector={"matchLabels": {"app": "web"}}, restart="Never")) == [
        'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"']
    unparsed = {"matchExpressions": [{"key": "app", "operator": "In"}]}
    assert ('spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"'
            in _problems(manifests, _deployment("StatefulSet", selector=unparsed, restart="OnFailure")))
    assert not any("restartPolicy" in p for p in _problems(manifests, _deployment(selector=unparsed, restart="Never")))


def test_template_labels_are_shown_at_upstreams_path(manifests):
    """ValidatePodTemplateSpec reports the labels at `<template>.labels`; a Job whose own labels
    are left out takes its template's (SetDefaults_Job), judged again as metadata.labels."""
    bad = {"app": "web", "bad key": "x"}
    assert _problems(manifests, _deployment(selector={"matchLabels": {"app": "web"}}, labels=bad)) == [
        f'spec.template.labels: Invalid value: "bad key": name part {QUALIFIED}']
    job = {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j", "namespace": "a"},
           "spec": {"template": {"metadata": {"labels": {"bad key": "x"}},
                                 "spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "x"}]}}}}
    assert _problems(manifests, job) == [f'metadata.labels: Invalid value: "bad key": name part {QUALIFIED}',
                                         f'spec.template.labels: Invalid value: "bad key": name part {QUALIFIED}']


def test_a_replication_controllers_selector_is_defaulted_from_its_template(manifests):
    rc = {"apiVersion": "v1", "kind": "ReplicationController", "metadata": {"name": "rc", "namespace": "a"},
          "spec": {"template": {"metadata": {"labels": {"app": "rc"}}, "spec": {"containers": [{"name": "c", "image": "x"}]}}}}
    manifests.write("m.yaml", yaml.safe_dump_all([NODE, rc]))
    manifests.load("m.yaml")
    rc["spec"]["selector"] = {"app": "other"}
    assert _problems(manifests, rc) == [
        'spec.template.metadata.labels: Invalid value: {"app":"rc"}: `selector` does not match template `labels`']
    rc["spec"] = {"selector": {}, "template": {"spec": {"containers": [{"name": "c", "image": "x"}]}}}
    assert _problems(manifests, rc) == ["spec.selector: Required value"]


def test_a_stateful_sets_pod_management_policy(manifests):
    sts = _deployment("StatefulSet", selector={"matchLabels": {"app": "web"}}, podManagementPolicy="Sometimes")
    assert _problems(manifests, sts) == [
        "spec.podManagementPolicy: Invalid value: \"Sometimes\": must be 'OrderedReady' or 'Parallel'"]
    sts["spec"]["podManagementPolicy"] = ""  # defaulted to OrderedReady
    manifests.write("m.yaml", yaml.safe_dump_all([NODE, sts]))
    manifests.load("m.yaml")


# --- Jobs (batch validateJobSpec, validateJobScheduling, validateGeneratedSelector) --------------


def _job(**spec) -> dict:
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "train", "namespace": "a"},
            "spec": {"template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "x"}]}},
                     **spec}}


def test_a_jobs_scheduling_in_the_api_servers_words(manifests):
    at = "spec.scheduling"
    assert _problems(manifests, _job(scheduling={"schedulingPolicy": {"basic": {}, "gang": {"minCount": 0}}})) == [
        f'{at}.schedulingPolicy: Invalid value: "{{basic, gang}}": must specify exactly one of: `basic`, `gang`',
        f"{at}.schedulingPolicy.gang.minCount: Invalid value: 0: must be greater than or equal to 1"]
    assert _problems(manifests, _job(scheduling={"schedulingPolicy": {}})) == [
        f'{at}.schedulingPolicy: Invalid value: "": must specify one of: `basic`, `gang`']
    # a policy left out resolves to Basic (WorkloadItemForJob's default)
    assert _problems(manifests, _job(scheduling={"disruptionMode": {"all": {}}})) == [
        f'{at}.disruptionMode: Invalid value: "": the disruptionMode `all` is not supported with the Basic '
        "scheduling policy"]
    manifests.write("m.yaml", yaml.safe_dump_all([NODE, _job(parallelism=2, scheduling={
        "schedulingPolicy": {"gang": {}}, "disruptionMode": {"all": {}}})]))
    manifests.load("m.yaml")


def test_a_job_selector_the_server_would_generate(manifests):
    """Without manualSelector the server generates the selector from the Job's new uid (shown as
    `<uid>`): a selector of one's own must select exactly the generated labels."""
    selector, labels = sorted(_problems(manifests, _job(selector={"matchLabels": {"app": "a"}})))
    assert selector == ('spec.selector: Invalid value: {"matchLabels":{"app":"a","batch.kubernetes.io/controller-uid":'
                        '"<uid>"}}: `selector` not auto-generated')
    # (the labels' middle is cut in the message: errors.shorten)
    assert labels.startswith('spec.template.metadata.labels: Invalid value: {"batch.kubernetes.io/controller-u')
    assert labels.endswith('b-name":"train"}: `selector` does not match template `labels`')
    manifests.write("m.yaml", yaml.safe_dump_all([NODE, _job(selector={"matchLabels": {"job-name": "train"}})]))
    manifests.load("m.yaml")


def test_names_too_long_are_counted_in_characters(manifests):
    """NameIsDNSLabel (util/validation) words a name's length in characters, IsValidLabelValue
    in bytes; a Namespace's name is also its kubernetes.io/metadata.name label."""
    name = "a" * 64
    namespace = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}}
    assert _problems(manifests, namespace) == [
        f'metadata.labels: Invalid value: "{name}": must be no more than 63 bytes',
        f'metadata.name: Invalid value: "{name}": must be no more than 63 characters']


# --- Gt and Lt tolerations, with and without the API server's gate ------------------------------


def _tolerations(*tolerations) -> dict:
    return _pod(tolerations=list(tolerations))


def test_comparison_tolerations_are_refused_without_the_gate(manifests):
    """TaintTolerationComparisonOperators is alpha and off in v1.37.0: ValidateTolerations
    refuses the operators (listing them among the values it names)."""
    assert _problems(manifests, _tolerations({"key": "a", "operator": "Gt", "value": "5"})) == [
        'spec.tolerations[0].operator: Unsupported value: "Gt": supported values: "Equal", "Exists", "Lt", "Gt"']


def test_comparison_tolerations_with_the_gate_need_decimal_integers(manifests):
    """With --feature-gates TaintTolerationComparisonOperators=true: content.IsDecimalInteger,
    then strconv.ParseInt (checked against kube-apiserver v1.37.2 with the gate on). A
    RuntimeClass's tolerations never take them (empty PodValidationOptions)."""
    from podgroup_plan.errors import InputError
    from podgroup_plan.loading import load_input

    pod = _tolerations({"key": "a", "operator": "Gt", "value": "10"}, {"key": "b", "operator": "Lt", "value": "007"},
                       {"key": "c", "operator": "Gt"}, {"key": "d", "operator": "Lt", "value": "1" * 20})
    runtime = {"apiVersion": "node.k8s.io/v1", "kind": "RuntimeClass", "metadata": {"name": "rc"}, "handler": "h",
               "scheduling": {"tolerations": [{"key": "a", "operator": "Gt", "value": "1"}]}}
    manifests.write("m.yaml", yaml.safe_dump_all([NODE, pod, runtime], sort_keys=False))
    try:
        load_input(["m.yaml"], feature_gates={"TaintTolerationComparisonOperators": True})
    except InputError as err:
        problems = [str(p).split(": ", 2)[2] for p in err.problems]
    assert problems == [
        'spec.tolerations[1].value: Invalid value: "007": must be a valid decimal integer in canonical form',
        'spec.tolerations[2].value: Invalid value: "": must be non-empty',
        'spec.tolerations[2].value: Invalid value: "": strconv.ParseInt: parsing "": invalid syntax',
        f'spec.tolerations[3].value: Invalid value: "{"1" * 20}": strconv.ParseInt: parsing "{"1" * 20}": '
        "value out of range",
        'scheduling.tolerations[0].operator: Unsupported value: "Gt": supported values: "Equal", "Exists", "Lt", "Gt"',
    ]


def test_container_names_are_dns_labels_and_unique(manifests):
    """validateContainers, then validateInitContainers (unique among init and regular ones)."""
    pod = _pod(initContainers=[{"name": "c", "image": "x"}, {"name": "Init_1", "image": "x"}])
    pod["spec"]["containers"].append({"name": "c", "image": "x"})
    assert _problems(manifests, pod) == [
        'spec.containers[1].name: Duplicate value: "c"',
        'spec.initContainers[0].name: Duplicate value: "c"',
        'spec.initContainers[1].name: Invalid value: "Init_1": a lowercase RFC 1123 label must consist of lower case '
        "alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or "
        "'123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ]
