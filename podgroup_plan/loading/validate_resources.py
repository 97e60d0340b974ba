"""The API server's validation of the ResourceLists the planner reads, with its messages and
paths (field_errors.py).

Mirrors Kubernetes v1.37.0 `pkg/apis/core/validation/validation.go`:
validateResourceRequirements (a container's `resources` through
ValidateContainerResourceRequirements; the pod-level `spec.resources` through
validatePodResourceRequirements, validatePodResources), validateResourceName,
ValidateContainerResourceName, validatePodResourceName, ValidateResourceQuantityValue
(ValidateNonnegativeQuantity, then an integer for integer resources),
validateResourceQuantityHugePageValue, validateOverhead (a pod's `spec.overhead`; a
RuntimeClass's `overhead.podFixed` through node/validation's validateOverhead) and
ValidateNodeResources; `pkg/apis/core/helper` for what a name is (IsStandardResourceName,
IsStandardContainerResourceName, IsNativeResource, IsExtendedResourceName,
IsIntegerResourceName, IsOvercommitAllowed, IsHugePageResourceName) and
`k8s.io/component-helpers/resource` IsSupportedPodLevelResource.

Paths are upstream's: a ResourceList's key as field.Path.Key writes it
(`resources.requests[cpu]`); the overheads as upstream names them, `limits` included
(`spec.overhead.limits[cpu]`, the ResourceRequirements it builds around them), located at the
overhead's own key; a Node's `status.capacity.cpu` (field.NewPath with the name as a child).
Amounts are shown as the API server holds them (quantity_text.py). Not checked:
validatePodResourceConsistency (pod-level requests against the containers' aggregate) and
resource claims.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Iterator

from podgroup_plan.loading.documents import Document, Issue
from podgroup_plan.loading.field_errors import forbidden, invalid, is_label_key, not_supported, required
from podgroup_plan.loading.field_lines import format_path
from podgroup_plan.loading.quantity_text import quantity_text
from podgroup_plan.model.quantity import parse_quantity, to_milli, to_value

Path = tuple

# pkg/apis/core/helper/helpers.go
_STANDARD_CONTAINER_RESOURCES = frozenset({"cpu", "memory", "ephemeral-storage"})
_STANDARD_RESOURCES = frozenset({
    "cpu", "memory", "ephemeral-storage", "requests.cpu", "requests.memory",
    "requests.ephemeral-storage", "limits.cpu", "limits.memory", "limits.ephemeral-storage",
    "pods", "resourcequotas", "services", "replicationcontrollers", "secrets", "configmaps",
    "persistentvolumeclaims", "storage", "requests.storage", "services.nodeports",
    "services.loadbalancers",
})
_INTEGER_RESOURCES = frozenset({
    "pods", "resourcequotas", "services", "replicationcontrollers", "secrets", "configmaps",
    "persistentvolumeclaims", "services.nodeports", "services.loadbalancers",
})
_HUGE_PAGES = "hugepages-"
_QOS_RESOURCES = ("cpu", "memory")  # supportedQoSComputeResources
# resourcehelper.SupportedPodLevelResources(), sorted as sets.List gives them
_POD_LEVEL_RESOURCES = ("cpu", "hugepages-", "memory")
_NEGATIVE = "must be greater than or equal to 0"  # isNegativeErrorMsg
_NOT_INTEGER = "must be an integer"  # isNotIntegerErrorMsg


def _is_native(name: str) -> bool:
    return "/" not in name or "kubernetes.io/" in name


def _is_extended(name: str) -> bool:
    """IsExtendedResourceName: not native, not `requests.`-prefixed, and a qualified name once
    prefixed with `requests.` (as quota names it)."""
    if _is_native(name) or name.startswith("requests."):
        return False
    return not is_label_key("requests." + name)


def _is_overcommit_allowed(name: str) -> bool:
    return _is_native(name) and not name.startswith(_HUGE_PAGES)


def _is_integer(name: str) -> bool:
    return name in _INTEGER_RESOURCES or _is_extended(name)


def _is_standard(name: str) -> bool:
    # IsStandardResourceName: also `requests.hugepages-*` (IsQuotaHugePageResourceName)
    return name in _STANDARD_RESOURCES or name.startswith((_HUGE_PAGES, "requests." + _HUGE_PAGES))


def _resource_name_errors(name: str) -> list[str]:
    """validateResourceName: IsQualifiedName's messages, and only without them a name with no
    domain that is no standard resource."""
    errs = [invalid(name, m) for m in is_label_key(name)]
    if not errs and "/" not in name and not _is_standard(name):
        errs.append(invalid(name, "must be a standard resource type or fully qualified"))
    return errs


def container_resource_name_errors(name: str) -> list[str]:
    """ValidateContainerResourceName: validateResourceName's messages, and then, whatever they
    were, a name with no domain must be a container's resource (cpu, memory, ephemeral-storage,
    hugepages-*) and one with a domain outside kubernetes.io an extended resource name."""
    errs = _resource_name_errors(name)
    if "/" not in name:
        if name not in _STANDARD_CONTAINER_RESOURCES and not name.startswith(_HUGE_PAGES):
            errs.append(invalid(name, "must be a standard resource for containers"))
    elif not _is_native(name) and not _is_extended(name):
        errs.append(invalid(name, "doesn't follow extended resource name standard"))
    return errs


def _pod_resource_name_errors(name: str) -> list[str]:
    """validatePodResourceName: validateResourceName's messages, else cpu, memory or hugepages-*."""
    errs = _resource_name_errors(name)
    if not errs and name not in ("cpu", "memory") and not name.startswith(_HUGE_PAGES):
        errs.append(not_supported(name, _POD_LEVEL_RESOURCES))
    return errs


def _quantity(raw: Any) -> Fraction | None:
    try:
        return parse_quantity(raw)
    except (ValueError, TypeError, OverflowError):
        return None  # the decoder reports it ("invalid quantity"); the API server cannot decode it


def _quantity_value_errors(name: str, raw: Any, q: Fraction, defaulted: bool = True) -> list[str]:
    """ValidateResourceQuantityValue: not negative, and whole for an integer resource
    (MilliValue()%1000)."""
    errs = []
    if q < 0:
        errs.append(invalid(quantity_text(raw, defaulted), _NEGATIVE))
    if _is_integer(name) and to_milli(q) % 1000:
        errs.append(invalid(quantity_text(raw, defaulted), _NOT_INTEGER))
    return errs


def _huge_page_errors(name: str, raw: Any, q: Fraction, defaulted: bool) -> list[str]:
    """validateResourceQuantityHugePageValue (AllowIndivisibleHugePagesValues is false on
    create): the amount a whole multiple of the page size (IsHugePageResourceValueDivisible)."""
    page = _quantity(name[len(_HUGE_PAGES):])
    if page is not None and page > 0 and to_milli(page) % 1000 == 0 and to_value(q) % to_value(page) == 0:
        return []
    shown = quantity_text(raw, defaulted)
    return [invalid(shown, f"{shown} is not positive integer multiple of {name}")]


# A problem of a ResourceRequirements: the field it is located at (relative: `("limits",
# "cpu")`, the request whose limit is missing or differs), the path upstream shows (relative:
# `limits[cpu]`, `requests`, "" for the requirements themselves), the message
Found = tuple[Path, str, str]


def _requirement_problems(limits: dict, requests: dict, pod_level: bool, defaulted: bool,
                          copied: frozenset[str]) -> Iterator[Found]:
    """validateResourceRequirements, in its order (each map in the order written: upstream
    ranges over maps). Requests and limits are compared as the API server holds them, rounded
    up to milli units when `defaulted`; `copied`: the limits copied into the requests first (a
    Pod's: SetDefaults_Pod), which then say what the limit says, as requests, located at the
    limit."""
    names = _pod_resource_name_errors if pod_level else container_resource_name_errors

    def text(raw: Any) -> str:
        return quantity_text(raw, defaulted)

    def held(q: Fraction) -> Fraction | int:
        return to_milli(q) if defaulted else q

    huge_pages = qos = False
    for name, raw in limits.items():
        at, shown = ("limits", name), f"limits[{name}]"  # limPath.Key(name)
        yield from ((at, shown, m) for m in names(name))
        q = _quantity(raw)
        if q is None:
            continue
        yield from ((at, shown, m) for m in _quantity_value_errors(name, raw, q, defaulted))
        if name.startswith(_HUGE_PAGES):
            huge_pages = True
            yield from ((at, shown, m) for m in _huge_page_errors(name, raw, q, defaulted))
        qos = qos or name in _QOS_RESOURCES
    written = [(("requests", name), name, raw) for name, raw in requests.items()]
    written += [(("limits", name), name, raw) for name, raw in limits.items() if name in copied]
    for at, name, raw in written:
        shown = f"requests[{name}]"
        yield from ((at, shown, m) for m in names(name))
        q = _quantity(raw)
        if q is None:
            continue
        yield from ((at, shown, m) for m in _quantity_value_errors(name, raw, q, defaulted))
        limit = _quantity(limits[name]) if name in limits else None
        if limit is not None:  # reported at reqPath
            if held(q) != held(limit) and not _is_overcommit_allowed(name):
                yield at, "requests", invalid(text(raw), f"must be equal to {name} limit of {text(limits[name])}")
            elif held(q) > held(limit):
                yield at, "requests", invalid(
                    text(raw), f"must be less than or equal to {name} limit of {text(limits[name])}")
        elif name not in limits and not _is_overcommit_allowed(name):  # at limPath
            yield at, "limits", required("Limit must be set for non overcommitable resources")
        if name.startswith(_HUGE_PAGES):
            huge_pages = True
            yield from ((at, shown, m) for m in _huge_page_errors(name, raw, q, defaulted))
        qos = qos or name in _QOS_RESOURCES
    if huge_pages and not qos:
        yield (), "", forbidden("HugePages require cpu or memory")


_ANSWERS: dict[tuple, tuple[Found, ...]] = {}


def _problems(limits: dict, requests: dict, pod_level: bool = False, defaulted: bool = True,
              copied: frozenset[str] = frozenset()) -> tuple[Found, ...]:
    """The problems of one ResourceRequirements, remembered per shape: the pods of a dump
    share a few."""
    try:
        key = (tuple(limits.items()), tuple(requests.items()), pod_level, defaulted, copied)
        found = _ANSWERS.get(key)
    except TypeError:  # a value that is no string or number: the schema said so already
        key, found = None, None
    if found is None:
        found = tuple(_requirement_problems(limits, requests, pod_level, defaulted, copied))
        if key is not None and len(_ANSWERS) < 4096:
            _ANSWERS[key] = found
    return found


def _shown(at: Path, rel: str) -> str:
    path = format_path(at)
    return f"{path}.{rel}" if rel and path else rel or path


def resource_requirement_issues(doc: Document, at: Path, resources: dict, pod: bool = False) -> Iterator[Issue]:
    """ValidateContainerResourceRequirements of a container's `resources` at `at`, after
    defaulting: a Pod's (`pod`; not a pod template's) limit without a request is its request
    too (SetDefaults_Pod). Each problem is located at the amount it is about (a request whose
    limit is missing: the request), shown at upstream's path."""
    limits, requests = _lists(resources)
    copied = frozenset(n for n in limits if n not in requests) if pod else frozenset()
    for rel, shown, message in _problems(limits, requests, copied=copied):
        yield Issue(doc, at + rel, message, shown=_shown(at, shown))


def pod_resource_issues(doc: Document, at: Path, spec: dict, pod: bool = False) -> Iterator[Issue]:
    """validatePodResources' validatePodResourceRequirements of the pod-level `resources` of
    `spec` (PodLevelResources is on in v1.37.0), after a Pod's defaultPodRequests (`pod`): a
    pod-level limit of a pod-level resource that no container requests becomes the request; one
    the containers request would get their aggregate, which is not made up here."""
    limits, requests = _lists(spec["resources"])
    copied: frozenset[str] = frozenset()
    if pod and limits:
        asked = {name for field in ("containers", "initContainers") for c in spec.get(field) or ()
                 if isinstance(c, dict) for name in _requested(c)}
        copied = frozenset(n for n in limits if n not in requests and n not in asked
                           and (n in ("cpu", "memory") or n.startswith(_HUGE_PAGES)))
    for rel, shown, message in _problems(limits, requests, pod_level=True, copied=copied):
        yield Issue(doc, at + rel, message, shown=_shown(at, shown))


def _lists(resources: Any) -> tuple[dict, dict]:
    if not isinstance(resources, dict):
        return {}, {}
    limits, requests = resources.get("limits") or {}, resources.get("requests") or {}
    return (limits if isinstance(limits, dict) else {}), (requests if isinstance(requests, dict) else {})


def _requested(container: dict) -> set[str]:
    """What a container requests after SetDefaults_Pod (its limits too)."""
    limits, requests = _lists(container.get("resources"))
    return set(limits) | set(requests)


def overhead_issues(doc: Document, at: Path, overhead: dict, shown_at: Path, defaulted: bool = True) -> Iterator[Issue]:
    """validateOverhead: ValidateContainerResourceRequirements(&ResourceRequirements{Limits:
    overhead}, shown_at), so upstream names the overhead `limits` under the overhead's parent
    path (a pod's `spec.overhead.limits[cpu]`, a RuntimeClass's `overhead.limits[cpu]`); located
    at the overhead's own key (`at`). `defaulted`: the amounts were rounded up to milli units by
    SetDefaults_ResourceList (a pod's; node/v1 has no such defaulting)."""
    for rel, shown, message in _problems(overhead, {}, defaulted=defaulted):
        yield Issue(doc, at + rel[1:], message, shown=_shown(shown_at, shown))


def node_resource_issues(doc: Document, status: dict) -> Iterator[Issue]:
    """ValidateNodeResources: every amount of status.capacity and status.allocatable through
    ValidateResourceQuantityValue, at field.NewPath("status", FIELD, name) (the name as a child:
    `status.capacity.nvidia.com/gpu`). SetDefaults_NodeStatus first makes a missing allocatable
    the capacity, whose amounts then say it twice (located at the capacity's)."""
    lists = [("capacity", "capacity"), ("allocatable", "allocatable")]
    if status.get("allocatable") is None:
        lists[1] = ("allocatable", "capacity")
    for field, written in lists:
        values = status.get(written)
        if not isinstance(values, dict):
            continue
        for name, raw in values.items():
            q = _quantity(raw)
            if q is None or not isinstance(name, str):
                continue
            for m in _quantity_value_errors(name, raw, q):
                yield Issue(doc, ("status", written, name), m, shown=f"status.{field}.{name}")
