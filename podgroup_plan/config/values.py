"""Reading a KubeSchedulerConfiguration (plain dicts) value by value, every problem collected.

Mirrors apimachinery: `pkg/util/validation/field` (errors.go: the `Invalid value: 101: ...`,
`Required value`, `Forbidden`, `Duplicate value` and `Unsupported value` bodies of field.Error,
the field path kept apart in `Problem.path`) and `pkg/util/validation` (validation.go:
IsQualifiedName, IsValidLabelValue, IsDNS1123Subdomain with their messages and regexes), plus
`apimachinery/pkg/apis/meta/v1/validation` ValidateLabelName. The typed readers (`read_object`,
`read_int`, ...) stand in for upstream's strict decoding into the Go config types: a value of
the wrong type, an integer outside int32 (or int64) or an unknown field is reported, and the
reader returns None (absent) for it.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from podgroup_plan.errors import Problem
from podgroup_plan.plugins.names import KNOWN_PLUGINS

__all__ = [
    "API_VERSION",
    "INT64",
    "KIND",
    "Ctx",
    "child_path",
    "index_path",
    "is_qualified_name",
    "is_valid_label_value",
    "quote",
    "read_bool",
    "read_int",
    "read_list",
    "read_object",
    "read_str",
    "read_str_list",
    "validate_label_name",
]

API_VERSION = "kubescheduler.config.k8s.io/v1"
KIND = "KubeSchedulerConfiguration"


def quote(s: str) -> str:
    """A string in double quotes for a message (JSON escapes, non-ASCII kept as is)."""
    return json.dumps(s, ensure_ascii=False)


def _show(value: Any) -> str:
    """A bad value as apimachinery's field.Error prints it: strings quoted, numbers and bools
    bare; lists and objects as compact JSON (Go prints a Go literal there)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return quote(value)
    if isinstance(value, (int, float)):
        return repr(value)
    if value is None:
        return "null"
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    except (TypeError, ValueError):
        return repr(value)


def child_path(path: str, name: str) -> str:
    """field.Path.Child: `path.name` (just `name` at the top level)."""
    return f"{path}.{name}" if path else name


def index_path(path: str, i: int) -> str:
    """field.Path.Index: `path[i]`."""
    return f"{path}[{i}]"


@dataclass
class Ctx:
    """The problems found so far in one configuration file, added in field.Error body form."""

    file: str
    problems: list[Problem] = field(default_factory=list)

    def add(self, path: str | None, message: str) -> None:
        self.problems.append(Problem(self.file, message, kind=KIND, path=path or None))

    def invalid(self, path: str, value: Any, detail: str) -> None:
        self.add(path, f"Invalid value: {_show(value)}: {detail}")

    def required(self, path: str, detail: str = "") -> None:
        self.add(path, "Required value" + (f": {detail}" if detail else ""))

    def forbidden(self, path: str, detail: str) -> None:
        self.add(path, f"Forbidden: {detail}")

    def duplicate(self, path: str, value: Any) -> None:
        self.add(path, f"Duplicate value: {_show(value)}")

    def not_supported(self, path: str, value: Any, supported: tuple[str, ...]) -> None:
        listed = ", ".join(quote(s) for s in supported)
        self.add(path, f"Unsupported value: {_show(value)}: supported values: {listed}")

    def unknown_plugin(self, path: str, name: Any) -> None:
        known = ", ".join(sorted(KNOWN_PLUGINS))
        shown = quote(name) if isinstance(name, str) else _show(name)
        self.add(path, f"unknown plugin {shown}; known plugins: {known}")


_INT32 = (-(2**31), 2**31 - 1)
INT64 = (-(2**63), 2**63 - 1)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def read_object(ctx: Ctx, value: Any, path: str, known: tuple[str, ...]) -> Mapping | None:
    """`value` as an object (null -> {}); unknown keys are reported. None if not an object."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        ctx.invalid(path, value, "expected an object")
        return None
    for key in value:
        if key not in known:
            ctx.add(child_path(path, str(key)), f'unknown field "{key}"; known fields: {", ".join(sorted(known))}')
    return value


def read_list(ctx: Ctx, value: Any, path: str) -> list:
    if value is None:
        return []
    if not isinstance(value, list):
        ctx.invalid(path, value, "expected a list")
        return []
    return value


def read_int(ctx: Ctx, value: Any, path: str, bounds: tuple[int, int] = _INT32) -> int | None:
    """An integer field (null -> None). Reports and returns None on a bad value."""
    if value is None:
        return None
    if not _is_int(value):
        ctx.invalid(path, value, "expected an integer")
        return None
    if not bounds[0] <= value <= bounds[1]:
        bits = 32 if bounds == _INT32 else 64
        ctx.invalid(path, value, f"must fit in a {bits}-bit integer")
        return None
    return value


def read_str(ctx: Ctx, value: Any, path: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        ctx.invalid(path, value, "expected a string")
        return None
    return value


def read_bool(ctx: Ctx, value: Any, path: str) -> bool | None:
    if value is None:
        return None
    if not isinstance(value, bool):
        ctx.invalid(path, value, "expected a boolean")
        return None
    return value


def read_str_list(ctx: Ctx, value: Any, path: str) -> list[str]:
    out = []
    for i, item in enumerate(read_list(ctx, value, path)):
        s = read_str(ctx, item, index_path(path, i))
        if s is not None:
            out.append(s)
    return out


# ---------------------------------------------------------------------------------------------
# apimachinery name validation (k8s.io/apimachinery/pkg/util/validation)
# ---------------------------------------------------------------------------------------------

_QNAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
_QNAME_RE = re.compile(_QNAME_FMT)
_QNAME_MSG = (
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character"
)
_LABEL_VALUE_FMT = "(" + _QNAME_FMT + ")?"
_LABEL_VALUE_RE = re.compile(_LABEL_VALUE_FMT)
_LABEL_VALUE_MSG = (
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character"
)
_DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_DNS1123_SUBDOMAIN_FMT = _DNS1123_LABEL_FMT + "(\\." + _DNS1123_LABEL_FMT + ")*"
_DNS1123_SUBDOMAIN_RE = re.compile(_DNS1123_SUBDOMAIN_FMT)
_DNS1123_SUBDOMAIN_MSG = (
    "a DNS-1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and "
    "must start and end with an alphanumeric character"
)


def _regex_error(msg: str, fmt: str, *examples: str) -> str:
    if not examples:
        return f"{msg} (regex used for validation is '{fmt}')"
    shown = " or ".join(f"'{e}', " for e in examples)
    return f"{msg} (e.g. {shown}regex used for validation is '{fmt}')"


def _max_len_error(n: int) -> str:
    return f"must be no more than {n} characters"


def _is_dns1123_subdomain(value: str) -> list[str]:
    errs = []
    if len(value.encode()) > 253:
        errs.append(_max_len_error(253))
    if not _DNS1123_SUBDOMAIN_RE.fullmatch(value):
        errs.append(_regex_error(_DNS1123_SUBDOMAIN_MSG, _DNS1123_SUBDOMAIN_FMT, "example.com"))
    return errs


def is_qualified_name(value: str) -> list[str]:
    """validation.IsQualifiedName: `[prefix/]name`, the form of label keys and resource names."""
    errs: list[str] = []
    parts = value.split("/")
    if len(parts) == 1:
        name = parts[0]
    elif len(parts) == 2:
        prefix, name = parts
        if not prefix:
            errs.append("prefix part must be non-empty")
        else:
            errs.extend("prefix part " + m for m in _is_dns1123_subdomain(prefix))
    else:
        return [
            "a qualified name "
            + _regex_error(_QNAME_MSG, _QNAME_FMT, "MyName", "my.name", "123-abc")
            + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
        ]
    if not name:
        errs.append("name part must be non-empty")
    elif len(name.encode()) > 63:
        errs.append("name part " + _max_len_error(63))
    if not _QNAME_RE.fullmatch(name):
        errs.append("name part " + _regex_error(_QNAME_MSG, _QNAME_FMT, "MyName", "my.name", "123-abc"))
    return errs


def is_valid_label_value(value: str) -> list[str]:
    errs = []
    if len(value.encode()) > 63:
        errs.append(_max_len_error(63))
    if not _LABEL_VALUE_RE.fullmatch(value):
        errs.append(_regex_error(_LABEL_VALUE_MSG, _LABEL_VALUE_FMT, "MyValue", "my_value", "12345"))
    return errs


def validate_label_name(ctx: Ctx, value: str, path: str) -> bool:
    """metav1validation.ValidateLabelName: one Invalid error per message."""
    errs = is_qualified_name(value)
    for msg in errs:
        ctx.invalid(path, value, msg)
    return not errs

