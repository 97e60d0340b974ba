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
