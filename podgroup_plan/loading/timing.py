"""`replay`'s timing facts read from the manifests: `podgroup-plan.io/arrival` and
`podgroup-plan.io/duration` (on a pod, a controller's pod template, or the controller), and
`terminationGracePeriodSeconds` (model/timing.py says what each means).

The model's decoders drop annotations (nothing else reads them), so `replay` reads the
documents once more for these few fields. Every problem is collected, with its file and line.
"""
from __future__ import annotations

from typing import Sequence

from podgroup_plan.errors import InputError, Problem
from podgroup_plan.loading.decode_meta import namespace_of
from podgroup_plan.loading.documents import Document
from podgroup_plan.loading.field_lines import FieldLines, format_path
from podgroup_plan.loading.reading import iter_documents
from podgroup_plan.model.timing import (
    ARRIVAL_ANNOTATION,
    DURATION_ANNOTATION,
    Timing,
    TimingKey,
    parse_duration,
    parse_time,
)


def read_timing(paths: Sequence[str], stdin_text: str | None = None) -> dict[TimingKey, Timing]:
    """The timing facts of every object that has some, by (kind, namespace, name). Raises
    InputError with every bad annotation or grace period at once."""
    problems: list[Problem] = []
    lines = FieldLines(stdin_text)
    facts: dict[TimingKey, Timing] = {}
    for doc in iter_documents(paths, stdin_text, []):  # unreadable files: load_input says so
        meta = doc.metadata
        name = meta.get("name")
        if not doc.kind or not isinstance(name, str):
            continue
        namespace = namespace_of(meta)
        found = _facts_of(doc, lines, problems, namespace, name)
        if found is not None:
            facts[(doc.kind, namespace, name)] = found
    if problems:
        raise InputError(sorted(problems, key=Problem.sort_key))
    return facts


def _facts_of(doc: Document, lines: FieldLines, problems: list[Problem], namespace: str, name: str) -> Timing | None:
    def problem(path: tuple, message: str) -> None:
        problems.append(Problem(doc.file, message, line=lines.line(doc, path), kind=doc.kind,
                                namespace=namespace or None, name=name, path=format_path(path)))

    def duration_at(annotations: object, base: tuple) -> float | None:
        if not isinstance(annotations, dict) or DURATION_ANNOTATION not in annotations:
            return None
        try:
            return parse_duration(annotations[DURATION_ANNOTATION])
        except ValueError as err:
            problem(base + (DURATION_ANNOTATION,), str(err))
            return None

    def grace_at(spec: object, base: tuple) -> float | None:
        if not isinstance(spec, dict) or spec.get("terminationGracePeriodSeconds") is None:
            return None
        value = spec["terminationGracePeriodSeconds"]
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            problem(base + ("terminationGracePeriodSeconds",),
                    f"must be a whole number of seconds, 0 or more, not {value!r}")
            return None
        return float(value)

    annotations = doc.metadata.get("annotations")
    duration = duration_at(annotations, ("metadata", "annotations"))
    arrival = None
    if isinstance(annotations, dict) and ARRIVAL_ANNOTATION in annotations:
        value = annotations[ARRIVAL_ANNOTATION]
        try:
            if not isinstance(value, str):
                raise ValueError(f"arrival must be an RFC 3339 time, not {value!r}")
            arrival = parse_time(value)
        except ValueError as err:
            problem(("metadata", "annotations", ARRIVAL_ANNOTATION), str(err))
    spec = doc.obj.get("spec")
    grace = grace_at(spec, ("spec",)) if doc.kind == "Pod" else None
    template_duration = template_grace = None
    if doc.kind != "Pod" and isinstance(spec, dict) and isinstance(spec.get("template"), dict):
        template = spec["template"]
        meta = template.get("metadata")
        template_duration = duration_at(meta.get("annotations") if isinstance(meta, dict) else None,
                                        ("spec", "template", "metadata", "annotations"))
        template_grace = grace_at(template.get("spec"), ("spec", "template", "spec"))
    found = Timing(duration, arrival, grace, template_duration, template_grace)
    return None if found == Timing() else found
