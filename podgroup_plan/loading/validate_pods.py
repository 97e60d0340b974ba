"""The API server's validation of the pod fields the planner reads, of Node taints, and of the
controllers' selectors, with its messages (field_errors.py).

Mirrors Kubernetes v1.37.0 `pkg/apis/core/validation/validation.go`: ValidatePodSpec's
`unversionedvalidation.ValidateLabels(spec.NodeSelector)`, ValidateTolerations,
validateNodeAffinity (validate_node_affinity.py), validateTopologySpreadConstraints
(ValidateSpreadConstraintNotRepeat, validateMinDomains), validateNodeTaints, and the resources of
containers, pods, overheads and Nodes through validate_resources.py;
validatePodAffinityTerm and ValidatePodAffinityTermSelector; `pkg/apis/apps/validation`
ValidateDeploymentSpec, ValidateReplicaSetSpec, ValidateStatefulSetSpec, ValidateDaemonSetSpec
and ValidatePodTemplateSpecForReplicaSet, `pkg/apis/batch/validation` ValidateJobSpec,
ValidateJobTemplateSpec and validateJobSpec: the selectors (ValidateLabelSelector:
validate_selectors.py), "`selector` does not match template `labels`" and validateGangMinCount
(a gang minCount above parallelism; a CronJob's jobTemplate too).

Structural rules the schemas already state (enums, `maxSkew >= 1`, `minDomains >= 1`, an
`Exists` toleration without a value) are not repeated here. The checks run on a document that
passed its schema, so the types are right. Not checked because v1.37.0 does not check it:
`spec.schedulerName` (no validation of the field in ValidatePodSpec nor in the declarative
`zz_generated.validations.go`: "field corev1.PodSpec.SchedulerName has no validation").
"""
from __future__ import annotations

from typing import Any, Iterator

from podgroup_plan.loading.documents import Document, Issue
from podgroup_plan.loading.field_errors import (
    GoStruct,
    duplicate,
    invalid,
    is_label_value,
    label_name_errors,
    name_is_dns_label,
    name_is_dns_subdomain,
    not_supported,
    required,
)
from podgroup_plan.loading.field_lines import format_path
from podgroup_plan.loading.validate_host_ports import host_port_issues
from podgroup_plan.loading.validate_job_selector import generated_selector_issues
from podgroup_plan.loading.validate_jobs import job_rules
from podgroup_plan.loading.validate_label_keys import label_keys_issues, merged_selector
from podgroup_plan.loading.validate_meta import annotation_issues
from podgroup_plan.loading.validate_node_affinity import node_affinity_issues
from podgroup_plan.loading.validate_resources import (
    node_resource_issues,
    overhead_issues,
    pod_resource_issues,
    resource_requirement_issues,
)
from podgroup_plan.loading.validate_scheduling import job_scheduling_issues
from podgroup_plan.loading.validate_selectors import (
    label_map_issues,
    label_selector_issues,
    selector_parses,
    selector_value,
)
from podgroup_plan.loading.validate_tolerations import TAINT_EFFECTS, toleration_issues

Path = tuple

def _container_issues(doc: Document, at: Path, spec: dict) -> Iterator[Issue]:
    """validateContainers, then validateInitContainers, for a container's name (the planner
    matches containerStatuses by it): validateContainerCommon's ValidateDNS1123Label (an empty
    name is the schema's Required), unique among the regular containers, then among init and
    regular ones (Duplicate). Not checked: validateContainerCommon's `image: Required value`
    (the planner reads an image only to score ImageLocality, and many a hand-written what-if
    pod has none)."""
    names: set[str] = set()
    for field in ("containers", "initContainers"):
        for i, c in enumerate(spec.get(field) or ()):
            if not isinstance(c, dict):
                continue
            name, path = c.get("name"), at + (field, i)
            if isinstance(name, str) and name:
                for m in name_is_dns_label(name):
                    yield Issue(doc, path + ("name",), invalid(name, m))
            if isinstance(name, str):
                if name in names:
                    yield Issue(doc, path + ("name",), duplicate(name))
                elif name or field == "containers":
                    names.add(name)


def _scheduling_gate_issues(doc: Document, at: Path, gates: list) -> Iterator[Issue]:
    """validateSchedulingGates: each name a qualified name (ValidateQualifiedName, reported at
    the gate itself, an empty name included), no name twice (field.Duplicate)."""
    seen: set[str] = set()
    for i, gate in enumerate(gates):
        name = gate.get("name") if isinstance(gate, dict) else None
        if not isinstance(name, str):
            continue
        for m in label_name_errors(name):
            yield Issue(doc, at + (i,), m)
        if name in seen:
            yield Issue(doc, at + (i,), duplicate(name))
        seen.add(name)


def _pod_affinity_issues(doc: Document, at: Path, affinity: dict, labels: dict | None) -> Iterator[Issue]:
    """validatePodAffinityTerm: ValidatePodAffinityTermSelector (its labelSelector and
    namespaceSelector through ValidateLabelSelector, label values checked: validateAffinity
    passes opts.AllowInvalidLabelValueInSelector, false on create), the namespaces' names,
    matchLabelKeys and mismatchLabelKeys (validate_label_keys.py: a Pod's `labels` merged into
    the labelSelector first, None for a template), then the topologyKey: an
    empty or missing one (Go's "") is `Required value: can not be empty`, and then, whatever
    it is, ValidateLabelName's messages (for "": `name part must be non-empty` and the
    regex's), in that order."""
    for field in ("podAffinity", "podAntiAffinity"):
        rules = affinity.get(field)
        if not isinstance(rules, dict):
            continue
        terms: list[tuple[Path, Any]] = [
            (at + (field, "requiredDuringSchedulingIgnoredDuringExecution", i), t)
            for i, t in enumerate(rules.get("requiredDuringSchedulingIgnoredDuringExecution") or ())]
        terms += [(at + (field, "preferredDuringSchedulingIgnoredDuringExecution", i, "podAffinityTerm"),
                   w.get("podAffinityTerm") if isinstance(w, dict) else None)
                  for i, w in enumerate(rules.get("preferredDuringSchedulingIgnoredDuringExecution") or ())]
        for term_at, term in terms:
            if not isinstance(term, dict):
                continue
            selector = merged_selector(term.get("labelSelector"), term.get("matchLabelKeys"),
                                       term.get("mismatchLabelKeys"), labels)
            yield from label_selector_issues(doc, term_at + ("labelSelector",), selector)
            yield from label_selector_issues(doc, term_at + ("namespaceSelector",), term.get("namespaceSelector"))
            # each of `namespaces` through ValidateNamespaceName (NameIsDNSLabel), reported at
            # upstream's `<term>.namespace` and located at the name itself
            shown = format_path(term_at + ("namespace",))
            for j, name in enumerate(term.get("namespaces") or ()):
                if isinstance(name, str):
                    for m in name_is_dns_label(name):  # ValidateNamespaceName
                        yield Issue(doc, term_at + ("namespaces", j), invalid(name, m), shown=shown)
            yield from label_keys_issues(doc, term_at, term.get("matchLabelKeys"), term.get("mismatchLabelKeys"),
                                         selector)
            key = term.get("topologyKey") or ""
            if isinstance(key, str):
                if not key:
                    yield Issue(doc, term_at + ("topologyKey",), required("can not be empty"))
                for m in label_name_errors(key):
                    yield Issue(doc, term_at + ("topologyKey",), m)


_SCHEDULE_ACTIONS = ("DoNotSchedule", "ScheduleAnyway")  # supportedScheduleActions, sorted
_NOT_POSITIVE = "must be greater than zero"  # isNotPositiveErrorMsg (ValidatePositiveField)


def _spread_issues(doc: Document, at: Path, constraints: list, labels: dict | None) -> Iterator[Issue]:
    """validateTopologySpreadConstraints, in its order: maxSkew positive, a topologyKey, a
    known whenUnsatisfiable, one constraint per {topologyKey, whenUnsatisfiable} (reported at
    the first of a repeated pair, as upstream), minDomains positive and only with
    DoNotSchedule (validateMinDomains), matchLabelKeys (ValidateMatchLabelKeysAndMismatchLabelKeys,
    the branch a new pod takes with MatchLabelKeysInPodTopologySpreadSelectorMerge on: a Pod's
    `labels` merged into the selector first, None for a template), the labelSelector
    (ValidateLabelSelector). nodeAffinityPolicy and nodeTaintsPolicy are the schema's enums,
    with validateNodeInclusionPolicy's text."""
    for i, c in enumerate(constraints):
        if not isinstance(c, dict):
            continue
        max_skew = c.get("maxSkew")
        if type(max_skew) is int and max_skew <= 0:
            yield Issue(doc, at + (i, "maxSkew"), invalid(max_skew, _NOT_POSITIVE))
        key = c.get("topologyKey")
        if key == "":
            yield Issue(doc, at + (i, "topologyKey"), required("can not be empty"))
        action = c.get("whenUnsatisfiable")
        if isinstance(action, str) and action not in _SCHEDULE_ACTIONS:
            yield Issue(doc, at + (i, "whenUnsatisfiable"), not_supported(action, _SCHEDULE_ACTIONS))
        for rest in constraints[i + 1:]:
            if isinstance(rest, dict) and rest.get("topologyKey") == key and rest.get("whenUnsatisfiable") == action:
                yield Issue(doc, at + (i, "{topologyKey, whenUnsatisfiable}"), duplicate(f"{{{key}, {action}}}"))
                break
        min_domains = c.get("minDomains")
        if type(min_domains) is int and min_domains <= 0:
            yield Issue(doc, at + (i, "minDomains"), invalid(min_domains, _NOT_POSITIVE))
        if min_domains is not None and action != "DoNotSchedule":
            yield Issue(doc, at + (i, "minDomains"), invalid(
                min_domains, f"can only use minDomains if whenUnsatisfiable=DoNotSchedule, not {action}"))
        selector = merged_selector(c.get("labelSelector"), c.get("matchLabelKeys"), None, labels)
        yield from label_keys_issues(doc, at + (i,), c.get("matchLabelKeys"), None, selector)
        # AllowInvalidTopologySpreadConstraintLabelSelector is false on create
        yield from label_selector_issues(doc, at + (i, "labelSelector"), selector)


def pod_spec_issues(doc: Document, at: Path, spec: dict, pod: bool = False) -> list[Issue]:
    """Every rule above for one pod spec (`at`: its path in the document; `pod`: a Pod's, not a
    template's, which the API server defaults further: validate_resources.py,
    validate_host_ports.py)."""
    issues = host_port_issues(doc, at, spec, pod)
    node_name = spec.get("nodeName")
    if isinstance(node_name, str) and node_name:  # ValidatePodSpec: ValidateNodeName (NameIsDNSSubdomain)
        issues += [Issue(doc, at + ("nodeName",), invalid(node_name, m)) for m in name_is_dns_subdomain(node_name)]
    selector = spec.get("nodeSelector")
    if selector:
        issues += label_map_issues(doc, at + ("nodeSelector",), selector)
    tolerations = spec.get("tolerations")
    if tolerations:
        issues += toleration_issues(doc, at + ("tolerations",), tolerations)
    affinity = spec.get("affinity")
    if isinstance(affinity, dict) and isinstance(affinity.get("nodeAffinity"), dict):
        issues += node_affinity_issues(doc, at + ("affinity", "nodeAffinity"), affinity["nodeAffinity"])
    # PrepareForCreate merges a Pod's labels into its selectors (validate_label_keys.py)
    labels = (doc.metadata.get("labels") or {}) if pod else None
    labels = labels if isinstance(labels, dict) else {}
    if isinstance(affinity, dict):
        issues += _pod_affinity_issues(doc, at + ("affinity",), affinity, labels if pod else None)
    gates = spec.get("schedulingGates")
    if gates:
        issues += _scheduling_gate_issues(doc, at + ("schedulingGates",), gates)
    spread = spec.get("topologySpreadConstraints")
    if spread:
        issues += _spread_issues(doc, at + ("topologySpreadConstraints",), spread, labels if pod else None)
    issues += _container_issues(doc, at, spec)
    for field in ("containers", "initContainers"):
        for i, c in enumerate(spec.get(field) or ()):
            if isinstance(c, dict) and isinstance(c.get("resources"), dict):
                issues += resource_requirement_issues(doc, at + (field, i, "resources"), c["resources"], pod)
    if isinstance(spec.get("resources"), dict):
        issues += pod_resource_issues(doc, at + ("resources",), spec, pod)
    if isinstance(spec.get("overhead"), dict):
        issues += overhead_issues(doc, at + ("overhead",), spec["overhead"], at + ("overhead",))
    return issues


_TAINT_EFFECTS = TAINT_EFFECTS


# ValidateNode calls validateNodeTaints(node.Spec.Taints, fldPath.Child("taints")) with
# fldPath the metadata's: the server reports a Node's spec.taints as `metadata.taints[i]...`.
_TAINTS_SHOWN = ("metadata", "taints")


def taint_issues(doc: Document, at: Path, taints: list) -> Iterator[Issue]:
    """validateNodeTaints: key a label name, value a label value, a known effect
    (validateTaintEffect), unique by key and effect (the duplicate's value rendered as
    json.Marshal renders the internal core.Taint). Located at the taint (`at`), shown under
    `metadata.taints` as the server words it."""

    def issue(rel: Path, message: str) -> Issue:
        return Issue(doc, at + rel, message, shown=format_path(_TAINTS_SHOWN + rel))

    seen: set[tuple[str, str]] = set()
    for i, t in enumerate(taints):
        if not isinstance(t, dict):
            continue
        key, value, effect = t.get("key") or "", t.get("value") or "", t.get("effect") or ""
        for m in label_name_errors(key):
            yield issue((i, "key"), m)
        errs = is_label_value(value)
        if errs:
            yield issue((i, "value"), invalid(value, ";".join(errs)))
        if not effect:
            yield issue((i, "effect"), required())
        elif effect not in _TAINT_EFFECTS:
            yield issue((i, "effect"), not_supported(effect, _TAINT_EFFECTS))
        if (key, effect) in seen:
            shown = GoStruct(Key=key, Value=value, Effect=effect, TimeAdded=t.get("timeAdded"))
            yield issue((i,), duplicate(shown, "taints must be unique by key and effect pair"))
            continue
        seen.add((key, effect))


def _selector_matches(selector: dict, labels: dict) -> bool | None:
    """metav1.LabelSelectorAsSelector(selector).Matches(labels); None when the selector is not
    one (the schema or decoder reports that)."""
    for k, v in (selector.get("matchLabels") or {}).items():
        if labels.get(k) != v:
            return False
    for rq in selector.get("matchExpressions") or ():
        if not isinstance(rq, dict):
            return None
        key, op, values = rq.get("key"), rq.get("operator"), rq.get("values") or []
        if op == "In" and labels.get(key) not in values:
            return False
        if op == "NotIn" and key in labels and labels[key] in values:
            return False
        if op == "Exists" and key not in labels:
            return False
        if op == "DoesNotExist" and key in labels:
            return False
    return True


# What ValidateDeploymentSpec / ValidateReplicaSetSpec (apps) and ValidateStatefulSetSpec add
# when metav1.LabelSelectorAsSelector fails on the selector, which it does for whatever
# ValidateLabelSelector refuses (labels.NewRequirement checks the same keys, values and operators):
# field.Invalid(selector, detail) at spec.selector; DaemonSets and Jobs add nothing.
_UNPARSED_SELECTOR = {"Deployment": "invalid label selector", "ReplicaSet": "invalid label selector",
                      "StatefulSet": ""}
# ...and for an empty one (ReplicaSet says "deployment" too)
_EMPTY_SELECTOR = {"Deployment": "deployment", "ReplicaSet": "deployment", "StatefulSet": "statefulset",
                   "DaemonSet": "daemonset"}


def template_selector_issues(doc: Document, spec_at: Path, spec: dict, kind: str) -> Iterator[Issue]:
    """A controller's selector: valid (ValidateLabelSelector: apps ValidateDeploymentSpec,
    ValidateReplicaSetSpec, ValidateStatefulSetSpec, ValidateDaemonSetSpec, batch
    ValidateJobSpec), not empty for apps kinds ("empty selector is invalid for deployment"), and
    selecting its own template's pods (ValidatePodTemplateSpecForReplicaSet, ...: "`selector`
    does not match template `labels`", judged only when the selector parses). A Job without
    `manualSelector` has its selector generated, so only a manual one is compared with the
    template's labels."""
    selector = spec.get("selector")
    at = spec_at + ("selector",)
    if selector is None:
        if kind == "Job" and not spec.get("manualSelector"):
            return  # generated (PrepareForCreate's generateSelector)
        if kind != "DaemonSet":  # ValidateDaemonSetSpec asks for none
            yield Issue(doc, at, required())
        # metav1.LabelSelectorAsSelector(nil) is labels.Nothing(): not Empty, matches no labels
        template = spec.get("template")
        labels = (template.get("metadata") or {}).get("labels") if isinstance(template, dict) else None
        yield Issue(doc, spec_at + ("template", "metadata", "labels"),
                    invalid(labels if isinstance(labels, dict) else None, "`selector` does not match template `labels`"))
        return
    if not isinstance(selector, dict):
        return
    yield from label_selector_issues(doc, at, selector)
    if not selector_parses(selector):
        if kind in _UNPARSED_SELECTOR:
            yield Issue(doc, at, invalid(selector_value(selector), _UNPARSED_SELECTOR[kind]))
        return
    if not selector.get("matchLabels") and not selector.get("matchExpressions"):
        if kind in _EMPTY_SELECTOR:
            yield Issue(doc, at, invalid(selector_value(selector), f"empty selector is invalid for {_EMPTY_SELECTOR[kind]}"))
        return
    template = spec.get("template")
    if not isinstance(template, dict) or (kind == "Job" and not spec.get("manualSelector")):
        return
    labels = (template.get("metadata") or {}).get("labels") or {}
    if _selector_matches(selector, labels) is False:
        yield Issue(doc, spec_at + ("template", "metadata", "labels"),
                    invalid(labels, "`selector` does not match template `labels`"))


def job_template_selector_issues(doc: Document, spec_at: Path, spec: dict) -> Iterator[Issue]:
    """batch ValidateJobTemplateSpec (a CronJob's jobTemplate): the Jobs' selectors are
    generated, so a selector is refused whatever it holds, and so is `manualSelector: true`."""
    selector = spec.get("selector")
    if isinstance(selector, dict):
        yield Issue(doc, spec_at + ("selector",), invalid(selector_value(selector), "`selector` will be auto-generated"))
    if spec.get("manualSelector") is True:
        yield Issue(doc, spec_at + ("manualSelector",), not_supported(True, ("nil", "false")))


def gang_min_count_issues(doc: Document, spec_at: Path, spec: dict) -> Iterator[Issue]:
    """batch validateGangMinCount (v1.37.0 pkg/apis/batch/validation/validation.go, on create
    and for a CronJob's jobTemplate): an explicit gang minCount above parallelism (default 1)
    could never be met, the Job's controller never creating that many pods at once."""
    scheduling = spec.get("scheduling")
    policy = scheduling.get("schedulingPolicy") if isinstance(scheduling, dict) else None
    gang = policy.get("gang") if isinstance(policy, dict) else None
    min_count = gang.get("minCount") if isinstance(gang, dict) else None
    if type(min_count) is not int:
        return
    parallelism = spec.get("parallelism")
    parallelism = parallelism if type(parallelism) is int else 1
    if min_count > parallelism:
        yield Issue(doc, spec_at + ("scheduling", "schedulingPolicy", "gang", "minCount"),
                    invalid(min_count, f"must not be greater than parallelism ({parallelism})"))


def _template_spec_issues(doc: Document, spec_at: Path, spec: dict, kind: str, gang: bool = True,
                          job_set: bool = False) -> list[Issue]:
    """A controller's spec (`kind` "JobTemplate": a CronJob's jobTemplate's; `job_set`: a
    JobSet's replicated Job's, validate_jobs.py)."""
    if kind == "JobTemplate":
        issues = list(job_template_selector_issues(doc, spec_at, spec))
    else:
        issues = list(template_selector_issues(doc, spec_at, spec, kind))
        selector = spec.get("selector")
        if kind in _UNPARSED_SELECTOR and isinstance(selector, dict) and not selector_parses(selector):
            # ValidateDeploymentSpec, ValidateReplicaSetSpec, ValidateStatefulSetSpec: the
            # template is validated only with a selector that parses (a StatefulSet's
            # restartPolicy is checked outside ValidatePodTemplateSpecForStatefulSet, always)
            template = spec.get("template")
            if kind == "StatefulSet" and isinstance(template, dict):
                issues += always_restarted_issues(doc, spec_at + ("template",), template)
            return issues
    if kind in ("Job", "JobTemplate"):
        if gang:
            issues += gang_min_count_issues(doc, spec_at, spec)
        issues += job_scheduling_issues(doc, spec_at + ("scheduling",), spec.get("scheduling"))
    template = spec.get("template")
    if isinstance(template, dict):
        issues += template_issues(doc, spec_at + ("template",), template)
        if kind in _ALWAYS_RESTARTED:
            issues += always_restarted_issues(doc, spec_at + ("template",), template)
    if kind in ("Job", "JobTemplate"):
        name = doc.metadata.get("name") if kind == "Job" and spec_at == ("spec",) else ""
        issues += job_rules(doc, spec_at, spec, name if isinstance(name, str) else "", job_set)
    return issues


# The kinds whose pods must restart (ValidatePodTemplateSpecForReplicaSet, ValidateStatefulSetSpec,
# ValidateDaemonSetSpec, ValidatePodTemplateSpecForRC): a restartPolicy left out is defaulted to
# Always (SetDefaults_PodSpec).
_ALWAYS_RESTARTED = frozenset({"Deployment", "ReplicaSet", "StatefulSet", "DaemonSet", "ReplicationController"})


def always_restarted_issues(doc: Document, template_at: Path, template: dict) -> Iterator[Issue]:
    """field.NotSupported(<template>.spec.restartPolicy, [Always])."""
    spec = template.get("spec")
    policy = spec.get("restartPolicy") if isinstance(spec, dict) else None
    if isinstance(policy, str) and policy not in ("", "Always"):
        yield Issue(doc, template_at + ("spec", "restartPolicy"), not_supported(policy, ("Always",)))


def template_issues(doc: Document, template_at: Path, template: dict) -> list[Issue]:
    """ValidatePodTemplateSpec: the template's labels through ValidateLabels and its
    annotations through ValidateAnnotations, reported at upstream's `<template>.labels` /
    `<template>.annotations` (fldPath.Child(...): the metadata's own path is left out) and
    located at the key, then its pod spec."""
    issues: list[Issue] = []
    meta = template.get("metadata")
    labels = meta.get("labels") if isinstance(meta, dict) else None
    if isinstance(labels, dict) and labels:
        issues += label_map_issues(doc, template_at + ("metadata", "labels"), labels, shown_at=template_at + ("labels",))
    annotations = meta.get("annotations") if isinstance(meta, dict) else None
    if isinstance(annotations, dict) and annotations:
        issues += annotation_issues(doc, template_at + ("metadata", "annotations"), annotations,
                                    format_path(template_at + ("annotations",)))
    if isinstance(template.get("spec"), dict):
        issues += pod_spec_issues(doc, template_at + ("spec",), template["spec"])
    return issues


def defaulted_label_issues(doc: Document, spec: dict) -> list[Issue]:
    """A Job's or ReplicationController's metadata.labels, when left empty, are its template's
    (batch SetDefaults_Job, core SetDefaults_ReplicationController): ValidateObjectMeta then
    judges them as metadata.labels, located at the template's keys."""
    if doc.metadata.get("labels"):
        return []
    template = spec.get("template")
    meta = template.get("metadata") if isinstance(template, dict) else None
    labels = meta.get("labels") if isinstance(meta, dict) else None
    if not isinstance(labels, dict) or not labels:
        return []
    return list(label_map_issues(doc, ("spec", "template", "metadata", "labels"), labels, shown_at=("metadata", "labels")))


def replication_controller_issues(doc: Document, spec: dict) -> list[Issue]:
    """core ValidateReplicationControllerSpec, for the fields the planner reads: the selector,
    defaulted from the template's labels (SetDefaults_ReplicationController), must not be empty
    (ValidateNonEmptySelector), then ValidatePodTemplateSpecForRC: a template (Required), the
    selector matching its labels, the template itself, pods that restart always."""
    issues = defaulted_label_issues(doc, spec)
    template = spec.get("template")
    labels = None
    if isinstance(template, dict) and isinstance(template.get("metadata"), dict):
        labels = template["metadata"].get("labels")
    selector = spec.get("selector") or labels or {}
    if not selector:
        issues.append(Issue(doc, ("spec", "selector"), required()))
    if not isinstance(template, dict):
        issues.append(Issue(doc, ("spec", "template"), required()))
        return issues
    if selector and isinstance(selector, dict) and any((labels or {}).get(k) != v for k, v in selector.items()):
        issues.append(Issue(doc, ("spec", "template", "metadata", "labels"),
                            invalid(labels, "`selector` does not match template `labels`")))
    issues += template_issues(doc, ("spec", "template"), template)
    issues += always_restarted_issues(doc, ("spec", "template"), template)
    return issues


_POD_MANAGEMENT = ("OrderedReady", "Parallel")


def stateful_set_issues(doc: Document, spec: dict) -> list[Issue]:
    """apps ValidateStatefulSetSpec's podManagementPolicy (an empty one is defaulted to
    OrderedReady by SetDefaults_StatefulSet)."""
    policy = spec.get("podManagementPolicy")
    if isinstance(policy, str) and policy and policy not in _POD_MANAGEMENT:
        return [Issue(doc, ("spec", "podManagementPolicy"), invalid(policy, "must be 'OrderedReady' or 'Parallel'"))]
    return []


def job_spec_issues(doc: Document, spec_at: Path, spec: dict, gang: bool = True) -> list[Issue]:
    """A JobSet's replicated Job's spec at `spec_at` (validate_operators.py), as a Job's, with
    the JobSet webhook's defaults; `gang` False leaves its gang minCount alone (its parallelism
    is set by the operator)."""
    return _template_spec_issues(doc, spec_at, spec, "Job", gang, job_set=True)


def object_issues(doc: Document) -> list[Issue]:
    """The rules of this module that apply to one document of a built-in kind (the operators'
    pod templates: validate_operators.py)."""
    kind = doc.kind
    spec = doc.obj.get("spec")
    if kind == "Node":  # ValidateNode: the taints, ValidateNodeResources
        status = doc.obj.get("status")
        issues = list(taint_issues(doc, ("spec", "taints"), spec.get("taints") or [])) if isinstance(spec, dict) else []
        return issues + list(node_resource_issues(doc, status)) if isinstance(status, dict) else issues
    if not isinstance(spec, dict):
        return []
    if kind == "Pod":
        return pod_spec_issues(doc, ("spec",), spec, pod=True)
    if kind in ("Deployment", "ReplicaSet", "StatefulSet", "Job", "DaemonSet"):
        issues = _template_spec_issues(doc, ("spec",), spec, kind)
        if kind == "Job":
            issues += defaulted_label_issues(doc, spec)
            if not spec.get("manualSelector"):
                name = doc.metadata.get("name")
                issues += generated_selector_issues(doc, ("spec",), spec, name if isinstance(name, str) else "")
        elif kind == "StatefulSet":
            issues += stateful_set_issues(doc, spec)
        return issues
    if kind == "ReplicationController":
        return replication_controller_issues(doc, spec)
    if kind == "CronJob":
        job = spec.get("jobTemplate")
        if isinstance(job, dict) and isinstance(job.get("spec"), dict):
            return _template_spec_issues(doc, ("spec", "jobTemplate", "spec"), job["spec"], "JobTemplate")
        return []
    return []
