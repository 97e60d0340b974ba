"""A pod's node affinity as the API server validates it, with its messages and in its order.

Mirrors Kubernetes v1.37.0 `pkg/apis/core/validation/validation.go`: validateNodeAffinity,
ValidateNodeSelector, ValidateNodeSelectorTerm, ValidateNodeSelectorRequirement,
ValidateNodeFieldSelectorRequirement and ValidatePreferredSchedulingTerms (a preferred term's
weight is the schema's `weight`, with the same text).

What the server does not check, and so neither does this module: a `Gt` or `Lt` value that is
not an integer (ValidateNodeSelectorRequirement counts the values only; kube-scheduler's
nodeaffinity helper refuses the term when it reads it: plugins/helper/node_affinity.py), and
a preferred term's values (validateNodeAffinity passes allowInvalidLabelValue=true for them:
"they can succeed when the cluster has only one node"). A missing key or operator is Go's "",
reported as upstream reports "" (the schema states only the types).
"""
from __future__ import annotations

from typing import Any, Iterator

from podgroup_plan.loading.documents import Document, Issue
from podgroup_plan.loading.field_errors import (
    forbidden,
    invalid,
    is_label_value,
    label_name_errors,
    name_is_dns_subdomain,
    required,
)

Path = tuple

_IN_NOT_IN = ("In", "NotIn")


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _values(rq: dict) -> list:
    values = rq.get("values")
    return values if isinstance(values, list) else []


def requirement_issues(doc: Document, at: Path, rq: dict, check_values: bool) -> Iterator[Issue]:
    """ValidateNodeSelectorRequirement: the operator's number of values, the key
    (ValidateLabelName), then (unless allowInvalidLabelValueInRequiredNodeAffinity) each value
    (IsValidLabelValue)."""
    operator, values = _text(rq.get("operator")), _values(rq)
    if operator in _IN_NOT_IN:
        if not values:
            yield Issue(doc, at + ("values",), required("must be specified when `operator` is 'In' or 'NotIn'"))
    elif operator in ("Exists", "DoesNotExist"):
        if values:
            yield Issue(doc, at + ("values",),
                        forbidden("may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
    elif operator in ("Gt", "Lt"):
        if len(values) != 1:
            yield Issue(doc, at + ("values",),
                        required("must be specified single value when `operator` is 'Lt' or 'Gt'"))
    else:
        yield Issue(doc, at + ("operator",), invalid(operator, "not a valid selector operator"))
    for m in label_name_errors(_text(rq.get("key"))):
        yield Issue(doc, at + ("key",), m)
    if check_values:
        for j, value in enumerate(values):
            if isinstance(value, str):
                for m in is_label_value(value):
                    yield Issue(doc, at + ("values", j), invalid(value, m))


# nodeFieldSelectorValidators: metav1.ObjectNameField ("metadata.name") -> ValidateNodeName
# (NameIsDNSSubdomain, prefix false)
_FIELD_KEYS = frozenset({"metadata.name"})


def field_requirement_issues(doc: Document, at: Path, rq: dict) -> Iterator[Issue]:
    """ValidateNodeFieldSelectorRequirement: In or NotIn with exactly one value, a key it has a
    validator for (only metadata.name), each value a node name."""
    operator, values = _text(rq.get("operator")), _values(rq)
    if operator in _IN_NOT_IN:
        if len(values) != 1:
            yield Issue(doc, at + ("values",), required(
                "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"))
    else:
        yield Issue(doc, at + ("operator",), invalid(operator, "not a valid selector operator"))
    key = _text(rq.get("key"))
    if key not in _FIELD_KEYS:
        yield Issue(doc, at + ("key",), invalid(key, "not a valid field selector key"))
        return
    for j, value in enumerate(values):
        if isinstance(value, str):
            for m in name_is_dns_subdomain(value):
                yield Issue(doc, at + ("values", j), invalid(value, m))


def term_issues(doc: Document, at: Path, term: Any, check_values: bool) -> Iterator[Issue]:
    """ValidateNodeSelectorTerm: its matchExpressions, then its matchFields."""
    if not isinstance(term, dict):
        return
    for j, rq in enumerate(term.get("matchExpressions") or ()):
        if isinstance(rq, dict):
            yield from requirement_issues(doc, at + ("matchExpressions", j), rq, check_values)
    for j, rq in enumerate(term.get("matchFields") or ()):
        if isinstance(rq, dict):
            yield from field_requirement_issues(doc, at + ("matchFields", j), rq)


def node_affinity_issues(doc: Document, at: Path, na: dict) -> Iterator[Issue]:
    """validateNodeAffinity: the required selector (ValidateNodeSelector: at least one term, a
    null or missing list included; values checked, AllowInvalidLabelValueInRequiredNodeAffinity
    being false on create), then the preferred terms (ValidatePreferredSchedulingTerms, values
    not checked)."""
    req = na.get("requiredDuringSchedulingIgnoredDuringExecution")
    if isinstance(req, dict):
        terms_at = at + ("requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms")
        terms = req.get("nodeSelectorTerms")
        if not terms:
            yield Issue(doc, terms_at, required("must have at least one node selector term"))
        else:
            for i, term in enumerate(terms):
                yield from term_issues(doc, terms_at + (i,), term, True)
    for i, pref in enumerate(na.get("preferredDuringSchedulingIgnoredDuringExecution") or ()):
        if isinstance(pref, dict):
            yield from term_issues(doc, at + ("preferredDuringSchedulingIgnoredDuringExecution", i, "preference"),
                                   pref.get("preference"), False)
