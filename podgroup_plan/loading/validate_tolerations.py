"""Tolerations as the API server validates them (ValidateTolerations, v1.37.0
pkg/apis/core/validation/validation.go), in its order and with its texts.

The comparison operators `Gt` and `Lt` are taken only with the feature gate
TaintTolerationComparisonOperators (alpha, off in v1.37.0): pkg/api/pod
allowTaintTolerationComparisonOperators sets PodValidationOptions.AllowTaintTolerationComparisonOperators
for pods and pod templates from the gate. Without it the operator is `Unsupported value` (with
Lt and Gt among the values upstream lists); with it the value must be a decimal integer in
canonical form (content.IsDecimalInteger) that strconv.ParseInt takes. The gate is the
planner's (`--feature-gates`, which plans the operators' matching too), handed to loading by
`comparison_operators` (load_input's `feature_gates`); a RuntimeClass's tolerations never take
them (node validateTolerations passes empty options).
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator

from podgroup_plan.loading.documents import Document, Issue
from podgroup_plan.loading.field_errors import EMPTY_ERROR, go_quote, invalid, is_label_value, label_name_errors, not_supported

Path = tuple

TAINT_EFFECTS = ("NoSchedule", "PreferNoSchedule", "NoExecute")  # validateTaintEffect's validValues
GATE = "TaintTolerationComparisonOperators"

# Whether the input is validated with the gate on (set by load_input for its duration)
_COMPARISON: ContextVar[bool] = ContextVar("comparison_operators", default=False)


@contextmanager
def comparison_operators(enabled: bool) -> Iterator[None]:
    """Validate tolerations with TaintTolerationComparisonOperators `enabled` inside."""
    token = _COMPARISON.set(enabled)
    try:
        yield
    finally:
        _COMPARISON.reset(token)


def toleration_issues(doc: Document, at: Path, tolerations: list, comparison: bool | None = None) -> Iterator[Issue]:
    """ValidateTolerations (remembered per list: the pods of a dump share their tolerations).
    `comparison`: whether Gt and Lt are allowed (None: as the gate is set)."""
    allowed = _COMPARISON.get() if comparison is None else comparison
    try:
        key = (allowed, tuple(tuple(t.items()) if isinstance(t, dict) else t for t in tolerations))
        found = _ANSWERS.get(key)
    except TypeError:
        key, found = None, None
    if found is None:
        found = tuple(_problems(tolerations, allowed))
        if key is not None and len(_ANSWERS) < 4096:
            _ANSWERS[key] = found
    for rel, message in found:
        yield Issue(doc, at + rel, message)


_ANSWERS: dict[tuple, tuple[tuple[Path, str], ...]] = {}
_INT64 = (-(2**63), 2**63 - 1)


def _decimal_integer_errors(value: str) -> list[str]:
    """content.IsDecimalInteger, then strconv.ParseInt(value, 10, 64)'s error, each a message."""
    errs = []
    digits = value[1:] if value.startswith("-") else value
    if not value:
        errs.append(EMPTY_ERROR)
    elif not digits or not digits.isascii() or not digits.isdigit() or (digits[0] == "0" and value != "0"):
        errs.append("must be a valid decimal integer in canonical form")
    body = value[1:] if value[:1] in "+-" else value
    if not body or not body.isascii() or not body.isdigit():
        errs.append(f"strconv.ParseInt: parsing {go_quote(value)}: invalid syntax")
    elif not _INT64[0] <= int(value) <= _INT64[1]:
        errs.append(f"strconv.ParseInt: parsing {go_quote(value)}: value out of range")
    return errs


def _problems(tolerations: list, comparison: bool) -> Iterator[tuple[Path, str]]:
    for i, t in enumerate(tolerations):
        if not isinstance(t, dict):
            continue
        path = (i,)
        key = t.get("key") or ""
        effect = t.get("effect") or ""
        operator = t.get("operator") or ""
        if key:
            for m in label_name_errors(key):
                yield path + ("key",), m
        if not key and operator != "Exists":
            yield path + ("operator",), invalid(
                operator, 'operator must be Exists when `key` is empty, which means "match all values and all keys"')
        if t.get("tolerationSeconds") is not None and effect != "NoExecute":
            yield path + ("effect",), invalid(effect, "effect must be 'NoExecute' when `tolerationSeconds` is set")
        value = t.get("value") or ""
        if operator in ("Equal", ""):
            errs = is_label_value(value)
            if errs:
                yield path + ("operator",), invalid(value, ";".join(errs))
        elif operator == "Exists":
            if value:
                yield path + ("operator",), invalid(value, "value must be empty when `operator` is 'Exists'")
        elif operator in ("Gt", "Lt"):
            if not comparison:
                yield path + ("operator",), not_supported(operator, ("Equal", "Exists", "Lt", "Gt"))
            else:
                for m in _decimal_integer_errors(value):
                    yield path + ("value",), invalid(value, m)
        else:
            yield path + ("operator",), not_supported(operator, ("Equal", "Exists"))
        if effect and effect not in TAINT_EFFECTS:
            yield path + ("effect",), not_supported(effect, TAINT_EFFECTS)
