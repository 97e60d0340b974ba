"""The API server's validation of the v1.37 `scheduling.k8s.io` kinds (v1beta1 and v1alpha3:
Workload, PodGroup, CompositePodGroup) and of a Pod's `spec.schedulingGroup`, field by field.

Most of it is declarative in v1.37.0: the `zz_generated.validations.go` of
`pkg/apis/scheduling/v1beta1` and `v1alpha3` (Validate_WorkloadSpec, Validate_PodGroupTemplate,
Validate_PodGroupSpec, ...), built on apimachinery's `pkg/api/validate` (Union, RequiredValue,
ShortName, LongName, LabelKey, PathSegmentName, MaxItems, ValSliceUnique, Minimum, Maximum).
The rest is handwritten in `pkg/apis/scheduling/validation/validation.go` (ValidateWorkloadSpec:
template names unique across the tree, a depth of at most 4, one priority configuration, a
composite template with a child; ValidatePodGroup: a parent needs a workloadRef) and
`pkg/apis/core/validation` (validateSchedulingGroup). The server lists the handwritten errors
first, then the declarative ones (rest.ValidateDeclarativelyWithMigrationChecks); each list in
the order its validators run, which is the order kept here.

The JSON Schema of these versions checks types only; every rule about values is here, so that
an object's problems are all reported at once, in the server's words. Only what the server
checks on one object is here: references between objects are validate.py's.
"""
from __future__ import annotations

from typing import Any, Callable, Iterator

from podgroup_plan.loading.documents import Document, Issue
from podgroup_plan.loading.field_errors import (
    GoStruct,
    duplicate,
    invalid,
    is_dns1123_label,
    is_dns1123_subdomain,
    is_label_key,
    name_is_dns_subdomain,
    not_supported,
    required,
    too_many,
)

Path = tuple
V1ALPHA3 = "scheduling.k8s.io/v1alpha3"
V1BETA1 = "scheduling.k8s.io/v1beta1"
VERSIONS = frozenset({V1ALPHA3, V1BETA1})

MAX_TEMPLATES = 8  # +k8s:maxItems=8 on both template lists
MAX_TOPOLOGY = 1  # +k8s:maxItems=1 on schedulingConstraints.topology
MAX_RESOURCE_CLAIMS = 4
MAX_TEMPLATE_DEPTH = 4  # scheduling.WorkloadMaxTemplateDepth
HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000
PREEMPTION_POLICIES = ("Never", "PreemptLowerPriority")


def applies(doc: Document) -> bool:
    return doc.api_version in VERSIONS and doc.kind in _RULES


def issues(doc: Document) -> list[Issue]:
    """Every problem the server finds in this Workload, PodGroup or CompositePodGroup."""
    spec = doc.obj.get("spec")
    if not isinstance(spec, dict):
        return []
    return [Issue(doc, path, message) for path, message in _RULES[doc.kind](spec)]


def scheduling_group_issues(doc: Document, spec: dict) -> Iterator[Issue]:
    """core/validation validateSchedulingGroup: a one-of with one member, podGroupName, whose
    value is a PodGroup name (ValidatePodGroupName: a DNS subdomain, empty included)."""
    group = spec.get("schedulingGroup")
    if not isinstance(group, dict):
        return
    at = ("spec", "schedulingGroup", "podGroupName")
    name = group.get("podGroupName")
    if name is None:
        yield Issue(doc, at, invalid(None, "must specify one of: `podGroupName`"))
    elif isinstance(name, str):
        for message in name_is_dns_subdomain(name):  # ValidatePodGroupName: NameIsDNSSubdomain
            yield Issue(doc, at, invalid(name, message))


# --- the field formats (apimachinery validate/strfmt.go) ------------------------------------------

Found = Iterator[tuple[Path, str]]


def _short_name(at: Path, value: str) -> Found:
    """validate.ShortName: content.IsDNS1123Label, each message a field.Invalid."""
    for message in is_dns1123_label(value):
        yield at, invalid(value, message)


def _long_name(at: Path, value: str) -> Found:
    """validate.LongName: content.IsDNS1123Subdomain."""
    for message in is_dns1123_subdomain(value):
        yield at, invalid(value, message)


def _path_segment_name(at: Path, value: str) -> Found:
    """validate.PathSegmentName: content.IsPathSegmentName ('.' and '..' are names it refuses;
    '/' and '%' are characters)."""
    if value in (".", ".."):
        yield at, invalid(value, f"may not be '{value}'")
        return
    for bad in ("/", "%"):
        if bad in value:
            yield at, invalid(value, f"may not contain '{bad}'")


def _label_key(at: Path, value: str) -> Found:
    """validate.LabelKey: content.IsLabelKey."""
    for message in is_label_key(value):
        yield at, invalid(value, message)


def _required_name(at: Path, value: Any, fmt: Callable[[Path, str], Found]) -> Found:
    """RequiredValue (short-circuit), then the format: a missing or empty string is only
    `Required value`."""
    if value is None or value == "":
        yield at, required()
    elif isinstance(value, str):
        yield from fmt(at, value)


def _union(at: Path, obj: Any, members: tuple[str, ...], is_set: Callable[[Any], bool] = lambda v: v is not None) -> Found:
    """validate.Union: exactly one member set. None set: `Invalid value: "": must specify one
    of: `a`, `b``; more than one: the set ones, unquoted, in braces."""
    obj = obj if isinstance(obj, dict) else {}
    chosen = [m for m in members if is_set(obj.get(m))]
    names = ", ".join(f"`{m}`" for m in members)
    if not chosen:
        yield at, invalid("", f"must specify one of: {names}")
    elif len(chosen) > 1:
        yield at, invalid("{" + ", ".join(chosen) + "}", f"must specify exactly one of: {names}")


def _not_empty(value: Any) -> bool:
    return isinstance(value, list) and len(value) > 0


# --- shared parts of templates and groups -------------------------------------------------------


def _scheduling_policy(at: Path, policy: Any, count: str) -> Found:
    """Validate_PodGroupSchedulingPolicy / Validate_CompositePodGroupSchedulingPolicy: the union,
    then the gang's count: RequiredValue (0 is unset) and Minimum 1."""
    yield from _union(at, policy, ("basic", "gang"))
    gang = policy.get("gang") if isinstance(policy, dict) else None
    if isinstance(gang, dict):
        value = gang.get(count)
        if value is None or value == 0:
            yield at + ("gang", count), required()
        elif isinstance(value, int) and value < 1:
            yield at + ("gang", count), invalid(value, "must be greater than or equal to 1")


def _constraints(at: Path, constraints: Any) -> Found:
    """Validate_PodGroupSchedulingConstraints: at most one topology constraint (MaxItems
    short-circuits the rest), each key required and a label key."""
    if not isinstance(constraints, dict):
        return
    topology = constraints.get("topology")
    if not isinstance(topology, list):
        return
    if len(topology) > MAX_TOPOLOGY:
        yield at + ("topology",), too_many(len(topology), MAX_TOPOLOGY)
        return
    for i, item in enumerate(topology):
        if isinstance(item, dict):
            yield from _required_name(at + ("topology", i, "key"), item.get("key"), _label_key)


def _disruption_mode(at: Path, mode: Any) -> Found:
    if isinstance(mode, dict):
        yield from _union(at, mode, ("single", "all"))


def _resource_claims(at: Path, claims: Any) -> Found:
    """Validate_PodGroupResourceClaim, the list at most 4 and unique by name."""
    if not isinstance(claims, list):
        return
    if len(claims) > MAX_RESOURCE_CLAIMS:
        yield at, too_many(len(claims), MAX_RESOURCE_CLAIMS)
        return
    yield from _unique(at, claims, _claim_json)
    for i, claim in enumerate(claims):
        if not isinstance(claim, dict):
            continue
        yield from _union(at + (i,), claim, ("resourceClaimName", "resourceClaimTemplateName"))
        yield from _required_name(at + (i, "name"), claim.get("name"), _short_name)
        for field in ("resourceClaimName", "resourceClaimTemplateName"):
            if isinstance(claim.get(field), str):
                yield from _long_name(at + (i, field), claim[field])


def _priority_fields(at: Path, obj: dict) -> Found:
    """priorityClassName (OptionalValue, LongName), priority (Maximum 1e9), preemptionPolicy
    (Enum: field.NotSupported with the sorted symbols)."""
    name = obj.get("priorityClassName")
    if isinstance(name, str) and name:
        yield from _long_name(at + ("priorityClassName",), name)
    priority = obj.get("priority")
    if isinstance(priority, int) and not isinstance(priority, bool) and priority > HIGHEST_USER_DEFINABLE_PRIORITY:
        yield at + ("priority",), invalid(priority, f"must be less than or equal to {HIGHEST_USER_DEFINABLE_PRIORITY}")
    policy = obj.get("preemptionPolicy")
    if isinstance(policy, str) and policy not in PREEMPTION_POLICIES:
        yield at + ("preemptionPolicy",), not_supported(policy, PREEMPTION_POLICIES)


def _unique(at: Path, items: list, shown: Callable[[dict], Any]) -> Found:
    """validate.ValSliceUnique keyed by name: each later copy is a field.Duplicate of the whole
    item (as the versioned type's JSON renders it), in index order."""
    seen: set[str] = set()
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            continue
        name = item["name"] if isinstance(item.get("name"), str) else ""
        if name in seen:
            yield at + (i,), duplicate(shown(item))
        seen.add(name)


# --- the versioned JSON of an item, for Duplicate (json tags of k8s.io/api scheduling/v1beta1,
# --- the same in v1alpha3; a field without omitempty is written even when unset) -------------


def _policy_json(policy: Any, count: str) -> GoStruct:
    policy = policy if isinstance(policy, dict) else {}
    out = GoStruct()
    if policy.get("basic") is not None:
        out["basic"] = GoStruct()
    gang = policy.get("gang")
    if gang is not None:
        out["gang"] = GoStruct({count: gang.get(count, 0) if isinstance(gang, dict) else 0})
    return out


def _constraints_json(constraints: Any) -> GoStruct | None:
    if not isinstance(constraints, dict):
        return None
    topology = constraints.get("topology")
    out = GoStruct()
    if topology:
        out["topology"] = [GoStruct(key=t.get("key", "")) if isinstance(t, dict) else t for t in topology]
    return out


def _mode_json(mode: Any) -> GoStruct:
    mode = mode if isinstance(mode, dict) else {}
    return GoStruct((k, GoStruct()) for k in ("single", "all") if mode.get(k) is not None)


def _claim_json(claim: dict) -> GoStruct:
    out = GoStruct(name=claim.get("name", ""))
    for field in ("resourceClaimName", "resourceClaimTemplateName"):
        if claim.get(field) is not None:
            out[field] = claim[field]
    return out


def _tail_json(out: GoStruct, item: dict) -> None:
    if item.get("priorityClassName"):
        out["priorityClassName"] = item["priorityClassName"]
    for field in ("priority", "preemptionPolicy"):
        if item.get(field) is not None:
            out[field] = item[field]


def _template_json(item: dict) -> GoStruct:
    """PodGroupTemplate: name, schedulingPolicy and schedulingConstraints always written."""
    out = GoStruct(name=item.get("name", ""), schedulingPolicy=_policy_json(item.get("schedulingPolicy"), "minCount"),
                   schedulingConstraints=_constraints_json(item.get("schedulingConstraints")))
    if item.get("resourceClaims"):
        out["resourceClaims"] = [_claim_json(c) if isinstance(c, dict) else c for c in item["resourceClaims"]]
    if item.get("disruptionMode") is not None:
        out["disruptionMode"] = _mode_json(item["disruptionMode"])
    _tail_json(out, item)
    return out


def _composite_json(item: dict) -> GoStruct:
    """CompositePodGroupTemplate: only name and schedulingPolicy are written when unset."""
    out = GoStruct(name=item.get("name", ""),
                   schedulingPolicy=_policy_json(item.get("schedulingPolicy"), "minGroupCount"))
    if item.get("schedulingConstraints") is not None:
        out["schedulingConstraints"] = _constraints_json(item["schedulingConstraints"])
    if item.get("disruptionMode") is not None:
        out["disruptionMode"] = _mode_json(item["disruptionMode"])
    _tail_json(out, item)
    if item.get("podGroupTemplates"):
        out["podGroupTemplates"] = [_template_json(t) if isinstance(t, dict) else t for t in item["podGroupTemplates"]]
    if item.get("compositePodGroupTemplates"):
        out["compositePodGroupTemplates"] = [_composite_json(t) if isinstance(t, dict) else t
                                             for t in item["compositePodGroupTemplates"]]
    return out


# --- the internal type's JSON (Go field names, every field), for the depth error ---------------


def _internal_policy(policy: Any, count: str) -> GoStruct:
    """`count` is the versioned field (minCount); the internal one is its Go name (MinCount)."""
    policy = policy if isinstance(policy, dict) else {}
    gang = policy.get("gang")
    return GoStruct(Basic=GoStruct() if policy.get("basic") is not None else None,
                    Gang=GoStruct({count[0].upper() + count[1:]: gang.get(count, 0)}) if isinstance(gang, dict) else None)


def _internal_constraints(constraints: Any) -> GoStruct | None:
    if not isinstance(constraints, dict):
        return None
    topology = constraints.get("topology")
    return GoStruct(Topology=[GoStruct(Key=t.get("key", "")) for t in topology if isinstance(t, dict)]
                    if isinstance(topology, list) and topology else None)


def _internal_mode(mode: Any) -> GoStruct | None:
    if not isinstance(mode, dict):
        return None
    return GoStruct(Single=GoStruct() if mode.get("single") is not None else None,
                    All=GoStruct() if mode.get("all") is not None else None)


def _internal_template(item: dict) -> GoStruct:
    claims = item.get("resourceClaims")
    return GoStruct(
        Name=item.get("name", ""), SchedulingPolicy=_internal_policy(item.get("schedulingPolicy"), "minCount"),
        SchedulingConstraints=_internal_constraints(item.get("schedulingConstraints")),
        ResourceClaims=[GoStruct(Name=c.get("name", ""), ResourceClaimName=c.get("resourceClaimName"),
                                 ResourceClaimTemplateName=c.get("resourceClaimTemplateName"))
                        for c in claims if isinstance(c, dict)] if isinstance(claims, list) and claims else None,
        DisruptionMode=_internal_mode(item.get("disruptionMode")), PriorityClassName=item.get("priorityClassName") or "",
        Priority=item.get("priority"), PreemptionPolicy=item.get("preemptionPolicy"))


def _internal_composites(items: Any) -> list | None:
    if not isinstance(items, list) or not items:
        return None
    out = []
    for item in items:
        if not isinstance(item, dict):
            continue
        templates = item.get("podGroupTemplates")
        out.append(GoStruct(
            Name=item.get("name", ""),
            SchedulingPolicy=_internal_policy(item.get("schedulingPolicy"), "minGroupCount"),
            SchedulingConstraints=_internal_constraints(item.get("schedulingConstraints")),
            DisruptionMode=_internal_mode(item.get("disruptionMode")),
            PriorityClassName=item.get("priorityClassName") or "", Priority=item.get("priority"),
            PreemptionPolicy=item.get("preemptionPolicy"),
            PodGroupTemplates=[_internal_template(t) for t in templates if isinstance(t, dict)]
            if isinstance(templates, list) and templates else None,
            CompositePodGroupTemplates=_internal_composites(item.get("compositePodGroupTemplates"))))
    return out


# --- Workload -------------------------------------------------------------------------------------


def _workload(spec: dict) -> Found:
    yield from _workload_handwritten(spec)
    # Validate_WorkloadSpec (declarative)
    yield from _union(("spec",), spec, ("podGroupTemplates", "compositePodGroupTemplates"), _not_empty)
    ref = spec.get("controllerRef")
    if isinstance(ref, dict):  # Validate_TypedLocalObjectReference
        at = ("spec", "controllerRef")
        if isinstance(ref.get("apiGroup"), str) and ref["apiGroup"]:
            yield from _long_name(at + ("apiGroup",), ref["apiGroup"])
        yield from _required_name(at + ("kind",), ref.get("kind"), _path_segment_name)
        yield from _required_name(at + ("name",), ref.get("name"), _path_segment_name)
    yield from _template_lists(("spec",), spec)


def _template_lists(at: Path, owner: dict) -> Found:
    templates = owner.get("podGroupTemplates")
    if isinstance(templates, list):
        if len(templates) > MAX_TEMPLATES:
            yield at + ("podGroupTemplates",), too_many(len(templates), MAX_TEMPLATES)
        else:
            yield from _unique(at + ("podGroupTemplates",), templates, _template_json)
            for i, t in enumerate(templates):
                if isinstance(t, dict):
                    yield from _template(at + ("podGroupTemplates", i), t)
    composites = owner.get("compositePodGroupTemplates")
    if isinstance(composites, list):
        if len(composites) > MAX_TEMPLATES:
            yield at + ("compositePodGroupTemplates",), too_many(len(composites), MAX_TEMPLATES)
        else:
            yield from _unique(at + ("compositePodGroupTemplates",), composites, _composite_json)
            for i, c in enumerate(composites):
                if isinstance(c, dict):
                    yield from _composite_template(at + ("compositePodGroupTemplates", i), c)


def _template(at: Path, t: dict) -> Found:
    """Validate_PodGroupTemplate, in field order."""
    yield from _required_name(at + ("name",), t.get("name"), _short_name)
    yield from _scheduling_policy(at + ("schedulingPolicy",), t.get("schedulingPolicy"), "minCount")
    yield from _constraints(at + ("schedulingConstraints",), t.get("schedulingConstraints"))
    yield from _resource_claims(at + ("resourceClaims",), t.get("resourceClaims"))
    yield from _disruption_mode(at + ("disruptionMode",), t.get("disruptionMode"))
    yield from _priority_fields(at, t)


def _composite_template(at: Path, c: dict) -> Found:
    """Validate_CompositePodGroupTemplate, in field order, then its two lists."""
    yield from _required_name(at + ("name",), c.get("name"), _short_name)
    yield from _scheduling_policy(at + ("schedulingPolicy",), c.get("schedulingPolicy"), "minGroupCount")
    yield from _constraints(at + ("schedulingConstraints",), c.get("schedulingConstraints"))
    yield from _disruption_mode(at + ("disruptionMode",), c.get("disruptionMode"))
    yield from _priority_fields(at, c)
    yield from _template_lists(at, c)


def _workload_handwritten(spec: dict) -> Found:
    """scheduling/validation ValidateWorkloadSpec: names unique across the tree, the depth,
    one priority configuration, a child for every composite template."""
    composites = [c for c in spec.get("compositePodGroupTemplates") or () if isinstance(c, dict)]
    names = {_name(t) for t in spec.get("podGroupTemplates") or () if isinstance(t, dict)}
    yield from _composite_names(("spec",), spec.get("compositePodGroupTemplates"), names)
    for i, c in enumerate(spec.get("compositePodGroupTemplates") or ()):
        if isinstance(c, dict) and _height(c) > MAX_TEMPLATE_DEPTH:
            yield (("spec", "compositePodGroupTemplates", i),
                   invalid(_internal_composites(c.get("compositePodGroupTemplates")),
                           f"maximum template hierarchy depth is {MAX_TEMPLATE_DEPTH}"))
    yield from _priorities(spec, composites)
    for i, c in enumerate(spec.get("compositePodGroupTemplates") or ()):
        if isinstance(c, dict):
            yield from _has_child(("spec", "compositePodGroupTemplates", i), c)


def _composite_names(at: Path, templates: Any, names: set) -> Found:
    """validateCompositePodGroupTemplateListNames: a composite template's name may not be taken
    by a template met before it (its own list is checked declaratively); then, composite by
    composite, its pod group templates' names, then its own composites."""
    templates = [t for t in templates or () if isinstance(t, dict)] if isinstance(templates, list) else []
    indexed = [(i, t) for i, t in enumerate(templates)]
    for i, t in indexed:
        if _name(t) in names:
            yield at + ("compositePodGroupTemplates", i, "name"), duplicate(_name(t))
    names |= {_name(t) for _, t in indexed}
    for i, t in indexed:
        here = at + ("compositePodGroupTemplates", i)
        children = [(j, c) for j, c in enumerate(t.get("podGroupTemplates") or ()) if isinstance(c, dict)]
        for j, c in children:
            if _name(c) in names:
                yield here + ("podGroupTemplates", j, "name"), duplicate(_name(c))
        names |= {_name(c) for _, c in children}
        yield from _composite_names(here, t.get("compositePodGroupTemplates"), names)


def _name(template: dict) -> str:
    """A template's name as Go holds it: a missing one is ""."""
    name = template.get("name")
    return name if isinstance(name, str) else ""


def _height(c: dict) -> int:
    """Levels of composite templates from `c` down (c alone: 1), without recursion."""
    best, stack = 0, [(c, 1)]
    while stack:
        node, depth = stack.pop()
        best = max(best, depth)
        stack += [(k, depth + 1) for k in node.get("compositePodGroupTemplates") or () if isinstance(k, dict)]
    return best


def _priorities(spec: dict, composites: list[dict]) -> Found:
    """validateWorkloadPriority: every template the same priorityClassName and priority. A
    difference among the top-level pod group templates and one in the composites' trees have
    messages of their own; only the first difference is reported."""
    keys = [(t.get("priorityClassName") or "", t.get("priority"))
            for t in spec.get("podGroupTemplates") or () if isinstance(t, dict)]
    if len(set(keys)) > 1:
        yield ("spec",), invalid(None, "detected multiple priority configurations")
        return
    first = keys[0] if keys else None
    for c in composites:
        for item in _check_cpg_order(c):
            key = (item.get("priorityClassName") or "", item.get("priority"))
            if first is None:
                first = key
            elif key != first:
                yield ("spec",), invalid(None, "all priority and priorityClassName values must be identical, "
                                               "detected multiple values")
                return


def _check_cpg_order(c: dict) -> Iterator[dict]:
    """checkCpg's order: the composite, its composites (each depth first), then its pod group
    templates. Recursive: the YAML reader's nesting limit bounds the depth."""
    yield c
    for child in c.get("compositePodGroupTemplates") or ():
        if isinstance(child, dict):
            yield from _check_cpg_order(child)
    for t in c.get("podGroupTemplates") or ():
        if isinstance(t, dict):
            yield t


def _has_child(at: Path, c: dict) -> Found:
    """validateCompositePodGroupTemplateHasAtLeastOneChild, down the tree."""
    stack = [(at, c)]
    while stack:
        here, node = stack.pop()
        kids = [k for k in node.get("compositePodGroupTemplates") or () if isinstance(k, dict)]
        if not node.get("podGroupTemplates") and not kids:
            yield here, invalid(node.get("name", ""), "must have at least one child PodGroupTemplate or "
                                                      "CompositePodGroupTemplate")
        stack += reversed([(here + ("compositePodGroupTemplates", i), k)
                           for i, k in enumerate(node.get("compositePodGroupTemplates") or ()) if isinstance(k, dict)])


# --- PodGroup and CompositePodGroup -----------------------------------------------------------------


def _workload_ref(at: Path, ref: Any) -> Found:
    """Validate_WorkloadReference: workloadName a LongName, templateName a ShortName, both
    required."""
    if isinstance(ref, dict):
        yield from _required_name(at + ("workloadName",), ref.get("workloadName"), _long_name)
        yield from _required_name(at + ("templateName",), ref.get("templateName"), _short_name)


def _pod_group(spec: dict) -> Found:
    # ValidatePodGroup (handwritten), then Validate_PodGroupSpec
    if spec.get("parentCompositePodGroupName") is not None and spec.get("workloadRef") is None:
        yield ("spec", "workloadRef"), required("must be set when parentCompositePodGroupName is set")
    yield from _group_common(spec, "minCount")
    yield from _resource_claims(("spec", "resourceClaims"), spec.get("resourceClaims"))
    yield from _disruption_mode(("spec", "disruptionMode"), spec.get("disruptionMode"))
    yield from _priority_fields(("spec",), spec)


def _composite_pod_group(spec: dict) -> Found:
    """Validate_CompositePodGroupSpec: as a PodGroup's, but its workloadRef is required."""
    if spec.get("workloadRef") is None:
        yield ("spec", "workloadRef"), required()
    yield from _group_common(spec, "minGroupCount")
    yield from _disruption_mode(("spec", "disruptionMode"), spec.get("disruptionMode"))
    yield from _priority_fields(("spec",), spec)


def _group_common(spec: dict, count: str) -> Found:
    """The fields a PodGroup and a CompositePodGroup validate alike, in their order."""
    parent = spec.get("parentCompositePodGroupName")
    if isinstance(parent, str) and parent:
        yield from _long_name(("spec", "parentCompositePodGroupName"), parent)
    yield from _workload_ref(("spec", "workloadRef"), spec.get("workloadRef"))
    yield from _scheduling_policy(("spec", "schedulingPolicy"), spec.get("schedulingPolicy"), count)
    yield from _constraints(("spec", "schedulingConstraints"), spec.get("schedulingConstraints"))


_RULES: dict[str, Callable[[dict], Found]] = {
    "Workload": _workload,
    "PodGroup": _pod_group,
    "CompositePodGroup": _composite_pod_group,
}


# --- a Job's spec.scheduling (batch/v1, gate WorkloadWithJob) -----------------------------------


def job_scheduling_issues(doc: Document, at: Path, scheduling: Any) -> list[Issue]:
    """A Job's `spec.scheduling` as v1.37.0 validates it on create: the declarative rules of
    `pkg/apis/batch/v1` Validate_JobSchedulingConfiguration (each block optional: the
    schedulingPolicy union of basic and gang, with Validate_WorkloadPodGroupGangSchedulingPolicy's
    optional minCount at least 1, the controller defaulting an unset one to parallelism; at most
    one topology constraint with a label key; the disruptionMode union of single and all), then
    `pkg/apis/batch/validation` validateJobScheduling: workloadbuilder's controller-policy checks
    on the resolved configuration (a policy left out resolves to Basic, WorkloadItemForJob's
    default), of which a Job can only break validateDisruptionModeCompatibleWithSchedulingPolicy
    (`all` disruption with the Basic policy, field.Invalid with an empty value)."""
    if not isinstance(scheduling, dict):
        return []
    found: list[tuple[Path, str]] = []
    policy = scheduling.get("schedulingPolicy")
    mode = scheduling.get("disruptionMode")
    # resolveSchedulingConfig through mapSchedulingPolicy / mapDisruptionMode: basic wins over
    # gang and single over all when both are set; a policy with neither is the default, Basic
    gang_only = isinstance(policy, dict) and policy.get("basic") is None and policy.get("gang") is not None
    all_only = isinstance(mode, dict) and mode.get("single") is None and mode.get("all") is not None
    if all_only and not gang_only:
        found.append((at + ("disruptionMode",),
                      invalid("", "the disruptionMode `all` is not supported with the Basic scheduling policy")))
    if isinstance(policy, dict):
        found += _union(at + ("schedulingPolicy",), policy, ("basic", "gang"))
        gang = policy.get("gang")
        min_count = gang.get("minCount") if isinstance(gang, dict) else None
        if type(min_count) is int and min_count < 1:
            found.append((at + ("schedulingPolicy", "gang", "minCount"),
                          invalid(min_count, "must be greater than or equal to 1")))
    found += _constraints(at + ("schedulingConstraints",), scheduling.get("schedulingConstraints"))
    found += _disruption_mode(at + ("disruptionMode",), mode)
    return [Issue(doc, path, message) for path, message in found]
