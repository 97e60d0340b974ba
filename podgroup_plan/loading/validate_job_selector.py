"""A Job's selector when the API server generates it (no `manualSelector: true`).

Mirrors Kubernetes v1.37.0 `pkg/registry/batch/job/strategy.go` generateSelector (PrepareForCreate:
the template gets `job-name` and `batch.kubernetes.io/job-name` = the Job's name and
`controller-uid` and `batch.kubernetes.io/controller-uid` = its new uid, each unless the user set
it; the selector gets `batch.kubernetes.io/controller-uid` = the uid unless set) and
`pkg/apis/batch/validation` validateGeneratedSelector (ValidateJobCreate, RequirePrefixedLabels
on create: each of the four template labels must hold its generated value, ValidateHasLabel;
the selector must select exactly such labels, "`selector` not auto-generated") and
ValidateJobSpec's "`selector` does not match template `labels`".

The uid is the server's, made when the Job is created (whatever metadata.uid says): the
messages that show it say `<uid>`.
"""
from __future__ import annotations

from typing import Iterator

from podgroup_plan.loading.documents import Document, Issue
from podgroup_plan.loading.field_errors import invalid
from podgroup_plan.loading.field_lines import format_path
from podgroup_plan.loading.validate_selectors import selector_parses, selector_value

Path = tuple
UID = "<uid>"  # stands for the uid the API server gives the Job
_UID_LABELS = ("controller-uid", "batch.kubernetes.io/controller-uid")
_NAME_LABELS = ("job-name", "batch.kubernetes.io/job-name")


def _matches(selector: dict, labels: dict) -> bool:
    """LabelSelectorAsSelector(selector).Matches(labels), for a selector that parses."""
    if any(labels.get(k) != v for k, v in (selector.get("matchLabels") or {}).items()):
        return False
    for rq in selector.get("matchExpressions") or ():
        key, op, values = rq.get("key"), rq.get("operator"), rq.get("values") or []
        present = key in labels
        if (op == "In" and labels.get(key) not in values) or (op == "NotIn" and present and labels[key] in values) \
                or (op == "Exists" and not present) or (op == "DoesNotExist" and present):
            return False
    return True


def generated_selector_issues(doc: Document, spec_at: Path, spec: dict, name: str) -> Iterator[Issue]:
    """The problems of a Job whose selector the server generates (`spec_at`: the Job's spec)."""
    template, meta, given = spec.get("template"), None, None
    if isinstance(template, dict):
        meta = template.get("metadata")
    if isinstance(meta, dict):
        given = meta.get("labels")
    labels = dict(given) if isinstance(given, dict) else {}
    for key in _NAME_LABELS:
        labels.setdefault(key, name)
    for key in _UID_LABELS:
        labels.setdefault(key, UID)
    given_selector = spec.get("selector")
    given_selector = given_selector if isinstance(given_selector, dict) else {}
    selector = dict(given_selector)
    selector["matchLabels"] = dict(given_selector.get("matchLabels") or {})
    selector["matchLabels"].setdefault("batch.kubernetes.io/controller-uid", UID)
    labels_at = spec_at + ("template", "metadata", "labels")
    # validateGeneratedSelector: ValidateHasLabel for the legacy labels, then the prefixed ones
    for key, want in (("controller-uid", UID), ("job-name", name),
                      ("batch.kubernetes.io/controller-uid", UID), ("batch.kubernetes.io/job-name", name)):
        if labels[key] != want:
            yield Issue(doc, labels_at + (key,), invalid(labels, f"must be '{want}'"),
                        shown=format_path(labels_at) + f"[{key}]")
    if not selector_parses(given_selector):  # (what generation adds parses; UID stands for a uid)
        return  # ValidateLabelSelector reports it; the comparisons need a selector
    expected = {key: UID for key in _UID_LABELS} | {key: name for key in _NAME_LABELS}
    if not _matches(selector, expected):
        yield Issue(doc, spec_at + ("selector",), invalid(selector_value(selector), "`selector` not auto-generated"))
    if not _matches(selector, labels):  # ValidateJobSpec
        yield Issue(doc, labels_at, invalid(labels, "`selector` does not match template `labels`"))
