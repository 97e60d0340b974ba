"""The bundled JSON Schemas: which (apiVersion, kind) the planner reads, and the structural check.

The schemas in `schemas/` are our own restatement of the Kubernetes API types (`k8s.io/api`
core/v1, policy/v1, scheduling.k8s.io/*, kube-scheduler config v1) for the fields the planner
reads; everything else is allowed. A schema file is named `KIND.GROUP.VERSION.json` (core:
`KIND.VERSION.json`); files starting with `_` hold shared definitions. Adding a file adds support
for that apiVersion.

Validators are compiled once per (apiVersion, kind) and reused; every schema error becomes a
(JSON path, message) pair, worded for people rather than for schema authors.

Two validators per schema: `compile_check` turns the schema into a plain Python predicate (the
happy path: about ten times faster than jsonschema walking `$ref`s for every document), and
jsonschema runs only for a document the predicate rejects, to say what and where. The two must
agree on validity; tests/loading/test_schema.py checks that on mutated documents.
"""
from __future__ import annotations

import importlib.resources
import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry
from referencing._core import Resolver
from referencing.jsonschema import DRAFT202012

SchemaError = tuple[tuple, str]  # (JSON path, message)

# Kinds without a namespace; every other kind the planner reads is namespaced ("default" when
# metadata.namespace is absent, as kubectl assumes).
CLUSTER_SCOPED = frozenset({"Node", "Namespace", "PriorityClass", "KubeSchedulerConfiguration"})


def schema_dir() -> Path:
    """`podgroup_plan/schemas` in an installed package (pyproject force-include), else the
    checkout's top-level `schemas/`."""
    packaged = importlib.resources.files("podgroup_plan") / "schemas"
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parents[2] / "schemas"


def group_of(api_version: str) -> str:
    """`scheduling.k8s.io/v1beta1` -> `scheduling.k8s.io`; `v1` -> `` (the core group)."""
    return api_version.rpartition("/")[0]


class SchemaSet:
    """Every schema of one folder, indexed by kind and apiVersion, with compiled validators."""

    def __init__(self, directory: Path):
        resources = []
        self._files: dict[tuple[str, str], dict] = {}
        self._versions: dict[str, list[str]] = {}
        for path in sorted(directory.glob("*.json")):
            contents = json.loads(path.read_text(encoding="utf-8"))
            resources.append((contents["$id"], DRAFT202012.create_resource(contents)))
            if path.name.startswith("_"):
                continue
            kind, _, rest = path.stem.partition(".")
            group, _, version = rest.rpartition(".")
            api_version = f"{group}/{version}" if group else version
            self._files[(api_version, kind)] = contents
            self._versions.setdefault(kind, []).append(api_version)
        self._registry = Registry().with_resources(resources)
        self._validators: dict[tuple[str, str], Draft202012Validator] = {}
        self._checks: dict[tuple[str, str], Check | None] = {}
        self._compiled: dict[int, Check] = {}  # shared by all kinds: _core.json is compiled once

    def kinds(self) -> list[str]:
        return sorted(self._versions)

    def versions(self, kind: str) -> list[str]:
        """The apiVersions supported for `kind` (empty for a kind we do not read)."""
        return sorted(self._versions.get(kind, ()))

    def supports(self, api_version: str, kind: str) -> bool:
        return (api_version, kind) in self._files

    def owns(self, api_version: str, kind: str) -> bool:
        """True when the object is ours to read: a kind we know in one of its API groups.

        Another group's kind of the same name (Kueue's `Workload`, Volcano's `PodGroup`) is not
        ours: it is ignored like any other unknown kind, not reported as a wrong version.
        """
        versions = self._versions.get(kind)
        if not versions:
            return False
        group = group_of(api_version)
        return any(group_of(v) == group for v in versions)

    def validator(self, api_version: str, kind: str) -> Draft202012Validator:
        v = self._validators.get((api_version, kind))
        if v is None:
            v = Draft202012Validator(self._files[(api_version, kind)], registry=self._registry)
            self._validators[(api_version, kind)] = v
        return v

    def check(self, api_version: str, kind: str) -> Check | None:
        """The compiled predicate for a schema (None if it uses a keyword the compiler lacks)."""
        key = (api_version, kind)
        if key not in self._checks:
            schema = self._files[key]
            resolver = self._registry.resolver(base_uri=schema["$id"])
            try:
                self._checks[key] = compile_check(schema, resolver, self._compiled)
            except Unsupported:
                self._checks[key] = None
        return self._checks[key]

    def errors(self, api_version: str, kind: str, obj: Any) -> list[SchemaError]:
        """Every structural problem of `obj`, sorted by path; [] when it is fine."""
        check = self.check(api_version, kind)
        if check is not None and check(obj):
            return []
        found = {describe(e) for e in self.validator(api_version, kind).iter_errors(obj)}
        return sorted(found, key=lambda pm: (_path_key(pm[0]), pm[1]))


@lru_cache(maxsize=None)
def bundled() -> SchemaSet:
    """The schemas that ship with podgroup-plan (loaded and indexed once per process)."""
    return SchemaSet(schema_dir())


def _path_key(path: tuple) -> tuple:
    return tuple((0, p, "") if isinstance(p, int) else (1, 0, p) for p in path)


# --- error wording ------------------------------------------------------------------------------

_JSON_TYPES = {
    "object": "an object",
    "array": "a list",
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "a boolean",
    "null": "null",
}


def json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def show(value: Any) -> str:
    """A value as JSON text, shortened: messages quote what the user wrote."""
    try:
        text = json.dumps(value, sort_keys=True)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _expected(types: str | list[str]) -> str:
    names = [types] if isinstance(types, str) else [t for t in types if t != "null"]
    if {"integer", "string"} == set(names):
        return "an integer or a string"
    if {"number", "string"} == set(names):
        return "a number or a string"
    return " or ".join(_JSON_TYPES.get(t, t) for t in names)


def _one_of_values(values: Iterable[Any]) -> str:
    return ", ".join(show(v) for v in values if v is not None)


def describe(error: ValidationError) -> SchemaError:
    """A schema error as (path, message). A subschema may carry `x-message` (and, for a oneOf
    that more than one branch matched, `x-message-multiple`) to say what the rule means."""
    path = tuple(error.absolute_path)
    keyword = error.validator
    schema = error.schema if isinstance(error.schema, dict) else {}
    value = error.instance
    if keyword == "required":
        missing = [p for p in error.validator_value if p not in value]
        # jsonschema reports each missing property in its own error; the message names which.
        name = next((p for p in missing if repr(p) in error.message), missing[0])
        return path + (name,), schema.get("x-message", "required field is missing")
    custom = schema.get("x-message")
    if keyword == "oneOf" and not error.context:  # several branches matched
        return path, schema.get("x-message-multiple", custom or "matches more than one form")
    if custom:
        return path, custom
    if keyword == "type":
        got = _JSON_TYPES[json_type(value)] if isinstance(value, (dict, list)) else show(value)
        return path, f"must be {_expected(error.validator_value)}, got {got}"
    if keyword == "enum":
        return path, f"unsupported value {show(value)}; supported values: {_one_of_values(error.validator_value)}"
    if keyword == "const":
        return path, f"unsupported value {show(value)}; must be {show(error.validator_value)}"
    if keyword == "minimum":
        return path, f"must be at least {error.validator_value}, got {show(value)}"
    if keyword == "maximum":
        return path, f"must be at most {error.validator_value}, got {show(value)}"
    if keyword == "maxItems":
        n = error.validator_value
        return path, f"must have at most {n} item{'s' if n != 1 else ''}, got {len(value)}"
    if keyword == "minItems":
        n = error.validator_value
        return path, "must not be empty" if n == 1 else f"must have at least {n} items"
    if keyword == "minLength":
        return path, "must not be empty"
    if keyword == "additionalProperties":
        extra = sorted(k for k in value if k not in schema.get("properties", {}))
        return path, f"unknown field(s) {', '.join(show(k) for k in extra)}; known: {', '.join(sorted(schema.get('properties', {})))}"
    return path, error.message


# --- the compiled predicate ---------------------------------------------------------------------

Check = Callable[[Any], bool]

# Keywords that never make a document invalid.
_ANNOTATIONS = frozenset({"$schema", "$id", "$defs", "title", "description", "default", "examples"})


class Unsupported(Exception):
    """The schema uses a keyword `compile_check` does not implement (jsonschema alone is used)."""


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


_PY_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
}


def _type_check(names: list[str]) -> Check:
    # Loaders build exact builtin types, so `type(x) in ...` is exact (and bool is not int).
    types = frozenset(t for n in names for t in _PY_TYPES[n])
    if "integer" in names and "number" not in names:  # 1.0 is an integer too
        return lambda x: type(x) in types or (type(x) is float and x.is_integer())
    return lambda x: type(x) in types


def _json_equal(a: Any, b: Any) -> bool:
    """JSON equality as JSON Schema means it: true is not 1; 1 is 1.0."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_json_equal(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b or (_is_number(a) and _is_number(b) and a == b)


def compile_check(schema: Any, resolver: Resolver, cache: dict[int, Check]) -> Check:
    """A predicate equivalent to `Draft202012Validator(schema).is_valid`, for the keywords our
    schemas use. `cache` maps subschemas (by identity: each belongs to one file, so its `$ref`s
    always resolve alike) to their predicates, and lets recursive schemas refer to themselves."""
    if schema is True:
        return lambda x: True
    if schema is False:
        return lambda x: False
    if not isinstance(schema, dict):
        raise Unsupported(repr(schema))
    key = id(schema)
    if key in cache:
        return cache[key]
    slot: list[Check] = []
    cache[key] = lambda x: slot[0](x)  # a forward reference while the schema compiles
    check = _build(schema, resolver, cache)
    slot.append(check)
    cache[key] = check
    return check


def _build(schema: dict, resolver: Resolver, cache: dict[int, Check]) -> Check:
    def sub(s: Any) -> Check:
        return compile_check(s, resolver, cache)

    checks: list[Check] = []
    for keyword in schema:
        if keyword not in _KEYWORDS and keyword not in _ANNOTATIONS and not keyword.startswith("x-"):
            raise Unsupported(keyword)
    if "$ref" in schema:
        resolved = resolver.lookup(schema["$ref"])
        checks.append(compile_check(resolved.contents, resolved.resolver, cache))
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        checks.append(_type_check(names))
    if "enum" in schema:
        values = schema["enum"]
        if all(v is None or isinstance(v, str) for v in values):
            strings, nullable = frozenset(v for v in values if v is not None), None in values
            checks.append(lambda x: (x is None and nullable) or (isinstance(x, str) and x in strings))
        else:
            checks.append(lambda x: any(_json_equal(x, v) for v in values))
    if "const" in schema:
        const = schema["const"]
        checks.append(lambda x: _json_equal(x, const))
    checks += _object_checks(schema, sub)
    checks += _array_checks(schema, sub)
    checks += _scalar_checks(schema)
    checks += _combinator_checks(schema, sub)
    if not checks:
        return lambda x: True
    if len(checks) == 1:
        return checks[0]
    all_checks = tuple(checks)

    def every(x: Any) -> bool:
        for c in all_checks:
            if not c(x):
                return False
        return True

    return every


def _object_checks(schema: dict, sub: Callable[[Any], Check]) -> list[Check]:
    required = tuple(schema.get("required", ()))
    properties = tuple((name, sub(s)) for name, s in schema.get("properties", {}).items())
    additional = schema.get("additionalProperties", True)
    if not required and not properties and additional is True:
        return []
    known = frozenset(schema.get("properties", {}))
    extra = None if additional is True else sub(additional)

    def check(x: Any) -> bool:
        if type(x) is not dict:
            return True
        for name in required:
            if name not in x:
                return False
        for name, c in properties:
            if name in x and not c(x[name]):
                return False
        if extra is not None:
            for name, value in x.items():
                if name not in known and not extra(value):
                    return False
        return True

    return [check]


def _array_checks(schema: dict, sub: Callable[[Any], Check]) -> list[Check]:
    out: list[Check] = []
    low, high = schema.get("minItems"), schema.get("maxItems")
    if low is not None or high is not None:
        lo, hi = low or 0, high if high is not None else float("inf")
        out.append(lambda x: not isinstance(x, list) or lo <= len(x) <= hi)
    if "items" in schema:
        item = sub(schema["items"])

        def items(x: Any) -> bool:
            if type(x) is list:
                for v in x:
                    if not item(v):
                        return False
            return True

        out.append(items)
    return out


def _scalar_checks(schema: dict) -> list[Check]:
    out: list[Check] = []
    if "minLength" in schema or "maxLength" in schema:
        lo, hi = schema.get("minLength", 0), schema.get("maxLength", float("inf"))
        out.append(lambda x: not isinstance(x, str) or lo <= len(x) <= hi)
    if "pattern" in schema:
        pattern = re.compile(schema["pattern"])
        out.append(lambda x: not isinstance(x, str) or pattern.search(x) is not None)
    if "minimum" in schema or "maximum" in schema:
        lo, hi = schema.get("minimum", float("-inf")), schema.get("maximum", float("inf"))
        out.append(lambda x: not _is_number(x) or lo <= x <= hi)
    return out


def _combinator_checks(schema: dict, sub: Callable[[Any], Check]) -> list[Check]:
    out: list[Check] = []
    if "allOf" in schema:
        out += [sub(s) for s in schema["allOf"]]
    if "anyOf" in schema:
        any_parts = [sub(s) for s in schema["anyOf"]]
        out.append(lambda x: any(p(x) for p in any_parts))
    if "oneOf" in schema:
        one_parts = [sub(s) for s in schema["oneOf"]]
        out.append(lambda x: sum(1 for p in one_parts if p(x)) == 1)
    if "not" in schema:
        negated = sub(schema["not"])
        out.append(lambda x: not negated(x))
    if "if" in schema:
        cond = sub(schema["if"])
        then = sub(schema.get("then", True))
        other = sub(schema.get("else", True))
        out.append(lambda x: then(x) if cond(x) else other(x))
    return out


_KEYWORDS = frozenset({
    "$ref", "type", "enum", "const", "required", "properties", "additionalProperties",
    "minItems", "maxItems", "items", "minLength", "maxLength", "pattern", "minimum", "maximum",
    "allOf", "anyOf", "oneOf", "not", "if", "then", "else",
})
