"""The apiserver's rules, applied as input validation (as the apiserver would: "Apiserver rules are
input validation").

Mirrors what `pkg/apis/core/validation`, `pkg/apis/scheduling/validation`,
`pkg/apis/policy/validation` and the `Priority` admission plugin would reject. Structural rules
that a JSON Schema states well (types, enums, required fields, exactly one of basic/gang,
`minCount >= 1`, at most 8 templates, at most one topology constraint) live in `schemas/`; this
module holds the rest: names, duplicates, references between objects, and unions the schema
cannot word well.

Not errors here, because a live cluster accepts them: a Pod naming a PodGroup (or v1alpha1
Workload) that does not exist (the pod waits); a PodGroup whose parent CompositePodGroup is
missing, composite cycles and depth (the scheduler judges those at run time).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Iterator, Sequence

from podgroup_plan.loading import validate_scheduling
from podgroup_plan.loading.decode import Decoded
from podgroup_plan.loading.decode_groups import V1ALPHA1, V1ALPHA2, template_field
from podgroup_plan.loading.decode_meta import timestamp
from podgroup_plan.loading.decode_pdbs import PERCENT
from podgroup_plan.loading.decode_priorities import SYSTEM_PRIORITY_CLASSES, PriorityTable
from podgroup_plan.loading.documents import Document, Issue
from podgroup_plan.loading.field_errors import (
    GoStruct,
    forbidden,
    invalid,
    is_dns1123_label,
    is_dns1123_subdomain,
    is_label_value,
    label_name_errors,
    name_is_dns_label,
    name_is_dns_subdomain,
    regex_error,
)
from podgroup_plan.loading.schema import CLUSTER_SCOPED
from podgroup_plan.loading.validate_context import limit_range_issues, runtime_class_issues
from podgroup_plan.loading.validate_cron import cron_job_issues
from podgroup_plan.loading.validate_meta import annotation_issues
from podgroup_plan.loading.validate_operators import OPERATOR_KINDS, operator_issues
from podgroup_plan.loading.validate_pods import object_issues
from podgroup_plan.loading.validate_selectors import label_selector_issues, selector_value
from podgroup_plan.loading.validate_service import service_issues
from podgroup_plan.model.objects import (
    BASIC,
    DISRUPTION_ALL,
    CompositePodGroup,
    CompositePodGroupTemplate,
    PodGroup,
    PodGroupTemplate,
    Workload,
)

HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000  # scheduling.HighestUserDefinablePriority
SYSTEM_PREFIX = "system-"  # scheduling.SystemPriorityClassPrefix

def name_problems(name: str, label: bool) -> tuple[str, ...]:
    """A name ValidateObjectMeta judges with NameIsDNSLabel (`label`) or NameIsDNSSubdomain:
    field.Invalid per message of util/validation's IsDNS1123Label / IsDNS1123Subdomain (their
    length in characters, where the declarative formats' content package says bytes)."""
    return tuple(invalid(name, m) for m in (name_is_dns_label(name) if label else name_is_dns_subdomain(name)))


def dns_subdomain_problems(name: str) -> tuple[str, ...]:
    """NameIsDNSSubdomain (the `k8s-long-name` format): field.Invalid per message of
    content.IsDNS1123Subdomain, as ValidateObjectMeta reports metadata.name."""
    return tuple(invalid(name, m) for m in is_dns1123_subdomain(name))


def dns_label_problems(name: str) -> tuple[str, ...]:
    """NameIsDNSLabel (the `k8s-short-name` format): field.Invalid per message of
    content.IsDNS1123Label (a Namespace's name, every metadata.namespace)."""
    return tuple(invalid(name, m) for m in is_dns1123_label(name))


# Label keys and values, as the apiserver checks every object's metadata.labels
# (metav1validation.ValidateLabels: ValidateLabelName's IsQualifiedName, then IsValidLabelValue,
# each message a field.Invalid of its own). A selector can only match what a real cluster could
# hold, so an invalid label is bad input rather than something to plan with. Shown at
# `metadata.labels`, as upstream reports it; located at the key, for its line (Issue.shown).
@lru_cache(maxsize=4096)  # the same keys and values recur on every object
def label_key_problems(key: str) -> tuple[str, ...]:
    """ValidateLabelName: one Invalid per message of IsQualifiedName."""
    return tuple(label_name_errors(key))


@lru_cache(maxsize=4096)
def label_value_problems(value: str) -> tuple[str, ...]:
    """IsValidLabelValue, each message a field.Invalid."""
    return tuple(invalid(value, m) for m in is_label_value(value))


def _label_issues(doc: Document, labels: dict) -> list[Issue]:
    issues = []
    for key, value in labels.items():
        if not isinstance(key, str):
            continue  # the schema reports it
        problems = label_key_problems(key)
        if isinstance(value, str):
            problems += label_value_problems(value)
        issues += [Issue(doc, ("metadata", "labels", key), p, shown="metadata.labels") for p in problems]
    return issues


# core/v1 SetDefaults_Namespace: every Namespace gets the label kubernetes.io/metadata.name with
# its own name (written over any value given), which ValidateObjectMeta then judges as a label.
NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name"


def _namespace_name_label(doc: Document, name: str) -> list[Issue]:
    """The defaulted label's value is the name: too long a name is also too long a label value
    (a name's other faults make no bad label value). Shown at metadata.labels, located at the
    name."""
    return [Issue(doc, ("metadata", "name"), p, shown="metadata.labels") for p in label_value_problems(name)]


Identity = tuple[str, str, str]  # (kind, namespace, name)


def identity(doc: Document) -> Identity:
    """(kind, namespace, name) as the apiserver keys objects ('' namespace if cluster-scoped)."""
    meta = doc.metadata
    name = meta.get("name")
    name = name if isinstance(name, str) else ""
    if doc.kind in CLUSTER_SCOPED:
        return doc.kind, "", name
    namespace = meta.get("namespace")
    return doc.kind, namespace if isinstance(namespace, str) and namespace else "default", name


def check_object(doc: Document, key: Identity) -> list[Issue]:
    """The rules about one object, checked on its raw document as it is read (a Pod's raw
    object is dropped once decoded): its names, a Pod's group links, a budget's union.
    Asked for every document: the usual answer, none, comes without a generator."""
    issues = _object_names(doc, key)
    issues += _timestamps(doc)
    labels = doc.metadata.get("labels")
    if labels and isinstance(labels, dict):
        issues += _label_issues(doc, labels)
    annotations = doc.metadata.get("annotations")
    if annotations and isinstance(annotations, dict):  # ValidateObjectMeta: ValidateAnnotations
        issues += annotation_issues(doc, ("metadata", "annotations"), annotations)
    kind = doc.kind
    if kind == "Namespace" and key[2]:
        issues += _namespace_name_label(doc, key[2])
    if kind == "Pod":
        spec = doc.obj["spec"]
        if spec.get("schedulingGroup") is not None or spec.get("workloadRef"):
            issues += pod_links(doc)
    elif kind == "PodDisruptionBudget":
        issues += pdb_rules(doc)
    elif kind == "CronJob":
        issues += cron_job_issues(doc)
    elif validate_scheduling.applies(doc):
        issues += validate_scheduling.issues(doc)
    elif kind == "RuntimeClass":
        issues += runtime_class_issues(doc)
    elif kind == "LimitRange":
        issues += limit_range_issues(doc)
    elif kind == "Service":
        issues += service_issues(doc)
    if kind in _SPEC_RULES:
        issues += object_issues(doc)
    elif kind in OPERATOR_KINDS:
        issues += operator_issues(doc)
    return issues


# The built-in kinds validate_pods.py has rules for (pod specs, taints, controllers' selectors).
_SPEC_RULES = frozenset({"Pod", "Node", "Deployment", "ReplicaSet", "StatefulSet", "Job", "DaemonSet",
                         "ReplicationController", "CronJob"})


def check_input(decoded: Decoded, owned: list[tuple[Identity, Document]]) -> list[Issue]:
    """The rules across objects, once everything is read. `owned` holds every document of the
    kinds the planner reads (also those that failed their schema: they still count for
    duplicates)."""
    issues: list[Issue] = []
    issues += duplicates(owned)
    issues += priority_rules(decoded)
    issues += workload_rules(decoded)
    issues += pod_group_rules(decoded)
    issues += controller_limits(decoded)
    return issues


def controller_limits(decoded: Decoded) -> Iterator[Issue]:
    """Controllers asking for more pods than the planner will create (controllers/limits.py:
    MAX_CONTROLLER_PODS in all): each such object is named, the biggest first."""
    if not any(decoded.controllers.values()):
        return  # (and the controllers package is not imported)
    from podgroup_plan.controllers.limits import over_limit, pods_asked

    asked = []
    for kind, items in sorted(decoded.controllers.items()):
        for doc, obj in items:
            path, n = pods_asked(kind, obj, len(decoded.nodes))
            asked.append((n, (doc, path)))
    for (doc, path), _, message in over_limit(asked):
        yield Issue(doc, path, message)


# --- objects -----------------------------------------------------------------------------------


# Kinds whose name function is apimachinery's NameIsDNSLabel: ValidateNamespaceName (core),
# ValidateStatefulSetName (apps: pods are named <set>-<ordinal>), and a Service's name, whose
# ValidateServiceName (NameIsDNS1035Label) is replaced by NameIsDNSLabel while the gate
# RelaxedServiceNameValidation is on: GA and locked on in v1.37.0 (pkg/features/kube_features.go).
_DNS_LABEL_NAMED = frozenset({"Namespace", "Service", "StatefulSet"})


def _object_names(doc: Document, key: Identity) -> list[Issue]:
    """metadata.name is a DNS label for the kinds in _DNS_LABEL_NAMED and a DNS subdomain for the
    other kinds the planner reads; metadata.namespace is a DNS label."""
    kind, namespace, name = key
    issues: list[Issue] = []
    if kind == "KubeSchedulerConfiguration" or not name:
        return issues
    problems = name_problems(name, kind in _DNS_LABEL_NAMED)
    issues += [Issue(doc, ("metadata", "name"), p) for p in problems]
    if namespace:
        issues += [Issue(doc, ("metadata", "namespace"), p) for p in _namespace_problems(namespace)]
    return issues


def _timestamps(doc: Document) -> list[Issue]:
    """metadata's times are metav1.Time in every kind: a text that is not RFC 3339 fails the
    API server's decoding of the whole object, whether or not the planner reads the field (a
    Node's creationTimestamp). The decoders of the kinds that read one report it too, with the
    same text: the command line lists each problem once."""
    issues: list[Issue] = []
    meta = doc.metadata
    for field in ("creationTimestamp", "deletionTimestamp"):
        value = meta.get(field)
        if isinstance(value, str) and value:
            timestamp(value, ("metadata", field), lambda path, message: issues.append(Issue(doc, path, message)))
    return issues


@lru_cache(maxsize=1024)  # few namespaces, many objects
def _namespace_problems(namespace: str) -> tuple[str, ...]:
    """ValidateObjectMeta: metadata.namespace is ValidateNamespaceName (NameIsDNSLabel)."""
    return name_problems(namespace, True)


def duplicates(owned: Iterable[tuple[Identity, Document]]) -> Iterator[Issue]:
    """The same kind/namespace/name twice is one object written twice: report every copy.
    A second KubeSchedulerConfiguration is the same mistake (there can be one)."""
    first: dict[Identity, Document] = {}
    copies: dict[Identity, list[Document]] = {}  # only the keys seen twice: no list per object
    for key, doc in owned:
        if key[2] or key[0] == "KubeSchedulerConfiguration":
            seen = first.setdefault(key, doc)
            if seen is not doc:
                copies.setdefault(key, [seen]).append(doc)
    for (kind, _, _), docs in copies.items():
        what = ("more than one KubeSchedulerConfiguration in the input" if kind == "KubeSchedulerConfiguration"
                else "defined more than once")
        for doc in docs:
            yield Issue(doc, (), what, tuple(d for d in docs if d is not doc))


def _check_names(doc: Document, checks: Iterable[tuple[tuple, object, bool]]) -> Iterator[Issue]:
    """(path, value, is_label) triples: report values that are not DNS labels / subdomains
    (the scheduling types' declarative `k8s-short-name` / `k8s-long-name` formats,
    validate.ShortName / LongName: the same field.Invalid texts as metadata.name)."""
    for path, value, is_label in checks:
        if isinstance(value, str) and value:
            for problem in dns_label_problems(value) if is_label else dns_subdomain_problems(value):
                yield Issue(doc, path, problem)


# --- priorities --------------------------------------------------------------------------------


def priority_rules(decoded: Decoded) -> Iterator[Issue]:
    """PriorityClass validation (scheduling ValidatePriorityClass), and what the `Priority`
    admission plugin refuses in new pods and groups (plugin/pkg/admission/priority)."""
    for doc, cls in decoded.priority_classes:
        if cls.name.startswith(SYSTEM_PREFIX):
            # IsKnownSystemPriorityClass: one of the system classes, as the cluster has it (a
            # dump lists them: they pass)
            known = SYSTEM_PRIORITY_CLASSES.get(cls.name)
            if known is None:
                error = f"{cls.name} is not a known system priority class"
            elif known.value != cls.value:
                error = f"value of {cls.name} PriorityClass must be {known.value}"
            elif cls.global_default:
                error = f"globalDefault of {cls.name} PriorityClass must be false"
            else:
                continue
            yield Issue(doc, ("metadata", "name"), forbidden(
                f"priority class names with '{SYSTEM_PREFIX}' prefix are reserved for system use only. error: {error}"))
        elif cls.value > HIGHEST_USER_DEFINABLE_PRIORITY:
            yield Issue(doc, ("value",), forbidden(
                f"maximum allowed value of a user defined priority is {HIGHEST_USER_DEFINABLE_PRIORITY}"))
    # Two globalDefault classes are not an error: the apiserver refuses a second one, but a race
    # can leave two, and Priority admission then takes the lowest value (decode_priorities.py).

    # Admission runs before validation: the API server refuses such an object with this one
    # Forbidden and says nothing else; the tool says it at the field, beside the object's other
    # problems (every problem at once).
    table = PriorityTable([c for _, c in decoded.priority_classes])
    for doc, fields, admitted in decoded.new_pod_priorities:
        refused = table.refusal(fields, admitted)
        if refused is not None:
            yield Issue(doc, ("spec",) + refused[0], refused[1])
    for doc, group in decoded.pod_groups + decoded.composite_pod_groups:
        name = group.priority_class_name
        if name and name not in table.by_name:  # resolvePriorityClass
            yield Issue(doc, ("spec", "priorityClassName"), f"no PriorityClass with name {name} was found")


# --- workloads and their templates -------------------------------------------------------------


def workload_rules(decoded: Decoded) -> Iterator[Issue]:
    """The 1.35 and 1.36 versions' rules (v1alpha1, v1alpha2), which no 1.37 server serves;
    v1alpha3 and v1beta1 are validate_scheduling.py's, checked as each object is read."""
    for doc, workload in decoded.workloads:
        if workload.api_version not in (V1ALPHA1, V1ALPHA2):
            continue
        spec = doc.obj["spec"]
        ref = spec.get("controllerRef") or {}
        yield from _check_names(doc, [
            (("spec", "controllerRef", "apiGroup"), ref.get("apiGroup"), False),
        ])
        yield from _template_rules(doc, ("spec",), workload.api_version,
                                   workload.pod_group_templates, workload.composite_pod_group_templates)


def _template_rules(
    doc: Document,
    at: tuple,
    api_version: str,
    pod_group_templates: tuple[PodGroupTemplate, ...],
    composite_templates: tuple[CompositePodGroupTemplate, ...],
) -> Iterator[Issue]:
    """Template names are DNS labels, unique in their list (a list-map keyed by name); a basic
    template cannot ask for `all` disruption; a composite template needs children."""
    pg_field = template_field(api_version)
    lists: tuple[tuple[str, Sequence[PodGroupTemplate | CompositePodGroupTemplate]], ...] = (
        (pg_field, pod_group_templates), ("compositePodGroupTemplates", composite_templates))
    for field, templates in lists:
        first: dict[str, int] = {}
        for i, t in enumerate(templates):
            path = at + (field, i)
            yield from _check_names(doc, [(path + ("name",), t.name, True)])
            if t.name in first:
                yield Issue(doc, path + ("name",), f'duplicate template name "{t.name}" (also {field}[{first[t.name]}])')
            first.setdefault(t.name, i)
            if isinstance(t, PodGroupTemplate) and t.policy == BASIC and t.disruption_mode == DISRUPTION_ALL:
                yield Issue(doc, path + ("disruptionMode",), _all_on_basic(api_version))
    for i, t in enumerate(composite_templates):
        path = at + ("compositePodGroupTemplates", i)
        if not t.pod_group_templates and not t.composite_pod_group_templates:
            yield Issue(doc, path, "must have podGroupTemplates or compositePodGroupTemplates")
        yield from _template_rules(doc, path, api_version, t.pod_group_templates, t.composite_pod_group_templates)


def _all_on_basic(api_version: str) -> str:
    mode = '"PodGroup"' if api_version == V1ALPHA2 else "all"
    return f"{mode} disruption is not allowed with a basic scheduling policy; use a gang policy or single disruption"


def _templates(workload: Workload) -> tuple[set[str], set[str]]:
    """Names of every pod group template and every composite template in the tree."""
    pg: set[str] = {t.name for t in workload.pod_group_templates}
    cpg: set[str] = set()
    stack = list(workload.composite_pod_group_templates)
    while stack:
        t = stack.pop()
        cpg.add(t.name)
        pg.update(c.name for c in t.pod_group_templates)
        stack.extend(t.composite_pod_group_templates)
    return pg, cpg


# --- PodGroups and CompositePodGroups ----------------------------------------------------------


def _ref_paths(api_version: str) -> tuple[tuple, tuple]:
    if api_version == V1ALPHA2:
        base = ("spec", "podGroupTemplateRef", "workload")
        return base + ("workloadName",), base + ("podGroupTemplateName",)
    return ("spec", "workloadRef", "workloadName"), ("spec", "workloadRef", "templateName")


def _groups(decoded: Decoded) -> list[tuple[Document, PodGroup | CompositePodGroup, bool]]:
    """Every PodGroup and CompositePodGroup, with whether it is a composite."""
    return ([(doc, g, False) for doc, g in decoded.pod_groups]
            + [(doc, g, True) for doc, g in decoded.composite_pod_groups])


def pod_group_rules(decoded: Decoded) -> Iterator[Issue]:
    """The v1alpha2 (1.36) PodGroup's rules: names in its template reference are DNS names,
    `PodGroup` disruption needs a gang, a parent link needs a workload reference. v1alpha3 and
    v1beta1 are validate_scheduling.py's, checked as each object is read."""
    groups = _groups(decoded)
    for doc, group, composite in groups:
        if group.api_version != V1ALPHA2:
            continue
        workload_path, template_path = _ref_paths(group.api_version)
        yield from _check_names(doc, [
            (workload_path, group.workload_name, False),
            (template_path, group.template_name, True),
            (("spec", "parentCompositePodGroupName"), group.parent, False),
        ])
        if group.parent is not None and group.workload_name is None:
            yield Issue(doc, ("spec", "parentCompositePodGroupName"), "requires spec.workloadRef")
        if not composite and group.policy == BASIC and group.disruption_mode == DISRUPTION_ALL:
            yield Issue(doc, ("spec", "disruptionMode"), _all_on_basic(group.api_version))


# A reference to a Workload or template that is not there: kube-apiserver v1.37 accepts it (no
# validation nor admission plugin looks the Workload up; PodGroupProtection only adds a
# finalizer) and kube-scheduler never reads a PodGroup's Workload, so the group is planned by its
# own spec. Said as a note: it is most often a typo.
_DANGLING = "; the API server accepts the reference and kube-scheduler does not read it"


def reference_notes(decoded: Decoded) -> list[Issue]:
    """PodGroups and CompositePodGroups whose workload reference leads nowhere, as notes."""
    workloads = {(w.namespace, w.name): _templates(w) for _, w in decoded.workloads}
    groups = _groups(decoded)
    notes = []
    for doc, group, composite in groups:
        if group.workload_name is None:
            continue
        workload_path, template_path = _ref_paths(group.api_version)
        templates = workloads.get((group.namespace, group.workload_name))
        if templates is None:
            notes.append(Issue(doc, workload_path, f'Workload "{group.workload_name}" not found in namespace '
                                                   f'"{group.namespace}"{_DANGLING}'))
            continue
        kind = "composite pod group template" if composite else "pod group template"
        names_ = templates[1] if composite else templates[0]
        if group.template_name not in names_:
            have = ", ".join(sorted(names_)) or "none"
            notes.append(Issue(doc, template_path, f'Workload "{group.workload_name}" has no {kind} '
                                                   f'"{group.template_name}" (it has: {have}){_DANGLING}'))
    return notes


def _pdb_spec_value(spec: dict) -> GoStruct:
    """The internal policy.PodDisruptionBudgetSpec as json.Marshal renders it in field.Invalid:
    its fields in declaration order, no json tags, so every one shown (null when unset); an
    IntOrString as its int or string; the selector a metav1.LabelSelector (json tags)."""
    selector = spec.get("selector")
    return GoStruct(MinAvailable=spec.get("minAvailable"),
                    Selector=selector_value(selector) if isinstance(selector, dict) else None,
                    MaxUnavailable=spec.get("maxUnavailable"),
                    UnhealthyPodEvictionPolicy=spec.get("unhealthyPodEvictionPolicy"))


# --- pods and budgets --------------------------------------------------------------------------


def pod_links(doc: Document) -> Iterator[Issue]:
    """A pod names its group one way (1.35 workloadRef or 1.36+ schedulingGroup), with DNS names."""
    spec = doc.obj["spec"]
    yield from validate_scheduling.scheduling_group_issues(doc, spec)
    group = spec.get("schedulingGroup")
    ref = spec.get("workloadRef") or {}
    if not ref:
        return
    if group is not None:
        yield Issue(doc, ("spec", "schedulingGroup"), "cannot be set together with spec.workloadRef")
    # 1.35's field, which a 1.37 server does not have: its names are checked as 1.35 did
    yield from _check_names(doc, [
        (("spec", "workloadRef", "name"), ref.get("name"), False),
        (("spec", "workloadRef", "podGroup"), ref.get("podGroup"), True),
        (("spec", "workloadRef", "podGroupReplicaKey"), ref.get("podGroupReplicaKey"), True),
    ])


def pdb_rules(doc: Document) -> Iterator[Issue]:
    """policy ValidatePodDisruptionBudgetSpec, in its order: not both minAvailable and
    maxUnavailable (the whole internal spec shown as json.Marshal renders it), each of them
    through apps ValidatePositiveIntOrPercent and IsNotMoreThan100Percent, the selector."""
    spec = doc.obj.get("spec") or {}
    if spec.get("minAvailable") is not None and spec.get("maxUnavailable") is not None:
        yield Issue(doc, ("spec",), invalid(_pdb_spec_value(spec), "minAvailable and maxUnavailable cannot be both set"))
    for field in ("minAvailable", "maxUnavailable"):
        value = spec.get(field)
        if isinstance(value, bool) or value is None:
            continue  # (a type the schema refuses)
        if isinstance(value, int):
            if value < 0:  # ValidateNonnegativeField
                yield Issue(doc, ("spec", field), invalid(value, "must be greater than or equal to 0"))
        elif isinstance(value, str):
            if not PERCENT.fullmatch(value):  # IsValidPercent
                yield Issue(doc, ("spec", field), invalid(value, regex_error(
                    "a valid percent string must be a numeric string followed by an ending '%'", "[0-9]+%",
                    "1%", "93%")))
            elif int(value[:-1]) > 100:
                yield Issue(doc, ("spec", field), invalid(value, "must not be greater than 100%"))
    # ValidateLabelSelector, label values checked
    # (AllowInvalidLabelValueInSelector is false on create: poddisruptionbudget/strategy.go)
    yield from label_selector_issues(doc, ("spec", "selector"), spec.get("selector"))
