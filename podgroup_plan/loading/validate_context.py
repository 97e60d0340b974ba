"""The API server's validation of the objects admission reads for new pods (RuntimeClass,
LimitRange), for the fields the planner reads, with its messages.

Mirrors Kubernetes v1.37.0:

* `pkg/apis/node/validation/validation.go` ValidateRuntimeClass: `handler` is required and a
  DNS label (NameIsDNSLabel's messages, each a field.Invalid; the declarative
  `+k8s:required` and `+k8s:format=k8s-short-name` say the same); validateOverhead: the
  `overhead.podFixed` amounts as a container's limits (validate_resources.py, shown at
  `overhead.limits[...]` as upstream names them; node/v1 has no defaulting that rounds them);
  validateScheduling: the
  node selector through ValidateLabels, the tolerations through ValidateTolerations and unique
  (field.Duplicate of the toleration, json.Marshal of the internal core.Toleration);
* `pkg/apis/core/validation/validation.go` ValidateLimitRange: each item's `type` through
  validateLimitRangeTypeName (IsQualifiedName's messages, an empty type included; a name
  without a prefix must be Pod, Container or PersistentVolumeClaim:
  helper.IsStandardLimitRangeType) and no type twice (field.Duplicate).

Not checked here: a LimitRange's bounds, which the planner does not apply (admission.py's
notes).
"""
from __future__ import annotations

from typing import Any

from podgroup_plan.loading.documents import Document, Issue
from podgroup_plan.loading.field_errors import (
    GoStruct,
    duplicate,
    invalid,
    is_dns1123_label,
    label_name_errors,
    required,
)
from podgroup_plan.loading.validate_resources import overhead_issues
from podgroup_plan.loading.validate_selectors import label_map_issues
from podgroup_plan.loading.validate_tolerations import toleration_issues

_LIMIT_TYPES = frozenset({"Pod", "Container", "PersistentVolumeClaim"})  # standardLimitRangeTypes


def runtime_class_issues(doc: Document) -> list[Issue]:
    obj = doc.obj
    handler = obj.get("handler")
    issues: list[Issue] = []
    if handler is None or handler == "":
        issues.append(Issue(doc, ("handler",), required()))
    elif isinstance(handler, str):
        issues += [Issue(doc, ("handler",), invalid(handler, m)) for m in is_dns1123_label(handler)]
    overhead = obj.get("overhead")
    pod_fixed = overhead.get("podFixed") if isinstance(overhead, dict) else None
    if isinstance(pod_fixed, dict):
        issues += overhead_issues(doc, ("overhead", "podFixed"), pod_fixed, ("overhead",), defaulted=False)
    scheduling = obj.get("scheduling")
    if isinstance(scheduling, dict):
        selector = scheduling.get("nodeSelector")
        if isinstance(selector, dict):
            issues += label_map_issues(doc, ("scheduling", "nodeSelector"), selector)
        tolerations = scheduling.get("tolerations")
        if isinstance(tolerations, list) and tolerations:
            # node validateTolerations passes empty PodValidationOptions: never Gt or Lt
            issues += toleration_issues(doc, ("scheduling", "tolerations"), tolerations, comparison=False)
            issues += _repeated_tolerations(doc, tolerations)
    return issues


def _repeated_tolerations(doc: Document, tolerations: list) -> list[Issue]:
    """node validateTolerations: a toleration equal to an earlier one in key, operator, value
    and effect is a field.Duplicate, shown whole."""
    seen: set[tuple] = set()
    issues = []
    for i, t in enumerate(tolerations):
        if not isinstance(t, dict):
            continue
        key = tuple(t.get(f) or "" for f in ("key", "operator", "value", "effect"))
        if key in seen:
            shown = GoStruct(Key=key[0], Operator=key[1], Value=key[2], Effect=key[3],
                             TolerationSeconds=t.get("tolerationSeconds"))
            issues.append(Issue(doc, ("scheduling", "tolerations", i), duplicate(shown)))
        seen.add(key)
    return issues


def limit_range_issues(doc: Document) -> list[Issue]:
    spec = doc.obj.get("spec")
    items = spec.get("limits") if isinstance(spec, dict) else None
    issues: list[Issue] = []
    seen: set[str] = set()
    for i, item in enumerate(items if isinstance(items, list) else ()):
        if not isinstance(item, dict):
            continue
        kind: Any = item.get("type") or ""
        if not isinstance(kind, str):
            continue  # the schema reports it
        at = ("spec", "limits", i, "type")
        issues += [Issue(doc, at, m) for m in _limit_type_problems(kind)]
        if kind in seen:
            issues.append(Issue(doc, at, duplicate(kind)))
        seen.add(kind)
    return issues


def _limit_type_problems(kind: str) -> list[str]:
    """validateLimitRangeTypeName"""
    problems = label_name_errors(kind)
    if problems:
        return problems
    if "/" not in kind and kind not in _LIMIT_TYPES:
        return [invalid(kind, "must be a standard limit type or fully qualified")]
    return []
