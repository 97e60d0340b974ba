"""An object's metadata, and a pod template's, as the API server validates them beyond names
and labels (validate.py): the annotations.

Mirrors Kubernetes v1.37.0 `pkg/apis/core/validation/validation.go` ValidateAnnotations
(ValidateObjectMeta for every object's `metadata.annotations`, ValidatePodTemplateSpec for a
template's, which upstream reports at `spec.template.annotations`): each key is a qualified
name once lower-cased (IsQualifiedName's messages, each a field.Invalid of the key as written,
shown at the map and located at the key), and the keys and values together hold at most 256
KiB (ValidateAnnotationsSize, field.TooLong).
"""
from __future__ import annotations

from typing import Iterator

from podgroup_plan.loading.documents import Document, Issue
from podgroup_plan.loading.field_errors import invalid, is_label_key, too_long
from podgroup_plan.loading.field_lines import format_path

Path = tuple
TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024  # TotalAnnotationSizeLimitB


def annotation_issues(doc: Document, at: Path, annotations: dict, shown: str | None = None) -> Iterator[Issue]:
    """ValidateAnnotations(annotations, at); `shown`: upstream's path when it is not `at`'s."""
    shown = shown if shown is not None else format_path(at)
    size = 0
    for key, value in annotations.items():
        if not isinstance(key, str):
            continue  # the schema reports it
        for m in is_label_key(key.lower()):
            yield Issue(doc, at + (key,), invalid(key, m), shown=shown)
        size += len(key.encode()) + (len(value.encode()) if isinstance(value, str) else 0)
    if size > TOTAL_ANNOTATION_SIZE_LIMIT:
        yield Issue(doc, at, too_long(TOTAL_ANNOTATION_SIZE_LIMIT), shown=shown)
