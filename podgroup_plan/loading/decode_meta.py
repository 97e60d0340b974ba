"""What every kind decodes alike: ObjectMeta and metav1.Time.

Mirrors the apiserver's defaulting of `metadata.namespace` (`default` for namespaced objects)
and apimachinery's `metav1.Time` (RFC 3339, second precision, fractions dropped). Problems are
passed to a `Report` callback with their JSON path; the Decoder turns them into Issues.
"""
from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import Callable, Mapping

from podgroup_plan.loading.documents import Document
from podgroup_plan.model.objects import Source

DEFAULT_NAMESPACE = "default"

Report = Callable[[tuple, str], None]


def labels_of(meta: Mapping) -> Mapping[str, str]:
    return meta.get("labels") or {}


def namespace_of(meta: Mapping) -> str:
    return meta.get("namespace") or DEFAULT_NAMESPACE


def source_of(doc: Document) -> Source:
    return Source(doc.file, doc.document, doc.line)


_TIMESTAMPS: dict[str, str] = {}  # many objects share a timestamp: parse each text once
# time.RFC3339 as Go's time.Parse reads it (metav1.Time.UnmarshalJSON): an upper-case T and Z,
# fractional seconds allowed, a numeric offset with a colon. The fields must also name a real
# time (month 1-12, a day of that month, hour < 24, ...): checked by datetime.
_RFC3339 = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})")


def timestamp(value: str | None, path: tuple, report: Report) -> str | None:
    """An RFC 3339 time as `YYYY-MM-DDTHH:MM:SSZ` in UTC, so that text order is time order.

    metav1.Time has second precision; fractions are dropped as the apiserver drops them.
    """
    if not value:
        return None
    known = _TIMESTAMPS.get(value)  # before the pattern: pods of one dump share their times
    if known is not None:
        return known
    try:
        if not _RFC3339.fullmatch(value):
            raise ValueError(value)
        parsed = datetime.fromisoformat(value)  # raises for 2026-13-45T99:99:99Z
        if len(value) == 20 and value[19] == "Z":  # what the apiserver writes: already UTC seconds
            if len(_TIMESTAMPS) < 10_000:
                _TIMESTAMPS[value] = value
            return value
    except ValueError:
        report(path, f'invalid timestamp "{value}"; expected RFC 3339, e.g. 2025-01-01T00:00:00Z')
        return None
    text = parsed.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    if len(_TIMESTAMPS) < 10_000:
        _TIMESTAMPS[value] = text
    return text
