"""metav1.LabelSelector and label maps as the API server validates them, with its messages.

Mirrors k8s.io/apimachinery v0.37.0 `pkg/apis/meta/v1/validation/validation.go` (which
Kubernetes v1.37.0 imports as `unversionedvalidation`):

* ValidateLabels: each key through ValidateLabelName (IsQualifiedName's messages), each value
  through IsValidLabelValue, every message a field.Invalid of its own;
* ValidateLabelSelector: `matchLabels` through ValidateLabels, then each of `matchExpressions`
  through ValidateLabelSelectorRequirement: its key through ValidateLabelName (an empty key
  included: `name part must be non-empty`), and its values through IsValidLabelValue unless
  the caller's LabelSelectorValidationOptions set AllowInvalidLabelValueInSelector. No caller
  the planner mirrors sets it on create (pod affinity terms and spread constraints:
  pkg/api/pod GetValidationOptionsFromPodSpecAndMeta without an old pod; apps, batch and policy
  validation on create), so values are always checked here. The operator/values rules of
  ValidateLabelSelectorRequirement (`In` without values, `Exists` with values, an unknown
  operator) are the schema's (`_core.json` `labelSelectorRequirement`), with the same texts.

Upstream's path for a label map is the map itself (`spec.selector.matchLabels`), and so is
ours as printed; the problem is located at the key (Issue.shown), so that it carries the key's
line, as for `metadata.labels` and `spec.nodeSelector`.
"""
from __future__ import annotations

from typing import Any, Iterator

from podgroup_plan.loading.documents import Document, Issue
from podgroup_plan.loading.field_errors import (
    GoStruct,
    forbidden,
    invalid,
    is_label_key,
    is_label_value,
    label_name_errors,
    required,
)
from podgroup_plan.loading.field_lines import format_path

Path = tuple


def label_map_issues(doc: Document, at: Path, labels: dict, shown_at: Path | None = None) -> Iterator[Issue]:
    """ValidateLabels(labels, at): shown at the map (or at `shown_at`, where upstream's path
    is another), as upstream reports it, and located at the key, for its line."""
    shown = format_path(at if shown_at is None else shown_at)
    for key, value in labels.items():
        if not isinstance(key, str):
            continue  # the schema reports it
        for m in label_name_errors(key):
            yield Issue(doc, at + (key,), m, shown=shown)
        if isinstance(value, str):
            for m in is_label_value(value):
                yield Issue(doc, at + (key,), invalid(value, m), shown=shown)


def label_selector_issues(doc: Document, at: Path, selector: Any) -> Iterator[Issue]:
    """ValidateLabelSelector(selector, {AllowInvalidLabelValueInSelector: false}, at)."""
    if not isinstance(selector, dict):
        return
    labels = selector.get("matchLabels")
    if isinstance(labels, dict):
        yield from label_map_issues(doc, at + ("matchLabels",), labels)
    for i, rq in enumerate(selector.get("matchExpressions") or ()):
        if isinstance(rq, dict):
            yield from requirement_issues(doc, at + ("matchExpressions", i), rq)


def requirement_issues(doc: Document, at: Path, rq: dict) -> Iterator[Issue]:
    """ValidateLabelSelectorRequirement, in its order: the operator and its number of values,
    the key (ValidateLabelName), each value (IsValidLabelValue). A missing key or operator is
    Go's "" (the schema states only the types)."""
    operator, values = rq.get("operator"), rq.get("values")
    operator = operator if isinstance(operator, str) else ""
    values = values if isinstance(values, list) else []
    if operator in ("In", "NotIn"):
        if not values:
            yield Issue(doc, at + ("values",), required("must be specified when `operator` is 'In' or 'NotIn'"))
    elif operator in ("Exists", "DoesNotExist"):
        if values:
            yield Issue(doc, at + ("values",),
                        forbidden("may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
    else:  # AllowUnknownOperatorInRequirement is false for every caller mirrored here
        yield Issue(doc, at + ("operator",), invalid(operator, "not a valid selector operator"))
    key = rq.get("key")
    for m in label_name_errors(key if isinstance(key, str) else ""):
        yield Issue(doc, at + ("key",), m)
    for j, value in enumerate(values):
        if isinstance(value, str):
            for m in is_label_value(value):
                yield Issue(doc, at + ("values", j), invalid(value, m))


def operators_hold(selector: dict) -> bool:
    """Whether every requirement's operator and values count are as ValidateLabelSelectorRequirement
    wants them (In/NotIn with values, Exists/DoesNotExist without, no other operator):
    requirement_issues reports these, but metav1.LabelSelectorAsSelector fails on them too, and
    its callers say so again (validate_pods.template_selector_issues)."""
    for rq in selector.get("matchExpressions") or ():
        if not isinstance(rq, dict):
            continue
        operator, values = rq.get("operator"), rq.get("values")
        if operator in ("In", "NotIn"):
            if not values:
                return False
        elif operator in ("Exists", "DoesNotExist"):
            if values:
                return False
        else:
            return False
    return True


def selector_parses(selector: dict) -> bool:
    """Whether metav1.LabelSelectorAsSelector takes the selector: labels.NewRequirement checks
    each key (IsQualifiedName), value (IsValidLabelValue) and operator as ValidateLabelSelector
    does."""
    labels = selector.get("matchLabels") or {}
    if any(is_label_key(k) or is_label_value(v) for k, v in labels.items() if isinstance(k, str) and isinstance(v, str)):
        return False
    for rq in selector.get("matchExpressions") or ():
        if isinstance(rq, dict) and (is_label_key(rq.get("key") or "") or any(
                is_label_value(v) for v in rq.get("values") or () if isinstance(v, str))):
            return False
    return operators_hold(selector)


def selector_value(selector: dict) -> GoStruct:
    """The selector as field.Invalid shows it: json.Marshal of metav1.LabelSelector (its fields
    in declaration order, omitempty; matchLabels' keys sorted, as for any map)."""
    shown = GoStruct()
    labels = selector.get("matchLabels")
    if labels:
        shown["matchLabels"] = dict(sorted(labels.items()))
    expressions = selector.get("matchExpressions")
    if expressions:
        shown["matchExpressions"] = [_requirement_value(rq) for rq in expressions if isinstance(rq, dict)]
    return shown


def _requirement_value(rq: dict) -> GoStruct:
    shown = GoStruct(key=rq.get("key") or "", operator=rq.get("operator") or "")
    if rq.get("values"):
        shown["values"] = list(rq["values"])
    return shown
