"""The bundled JSON Schemas: which (apiVersion, kind) the planner reads, and the structural check.

The schemas in `schemas/` are our own restatement of the Kubernetes API types (`k8s.io/api`
core/v1, policy/v1, scheduling.k8s.io/*, kube-scheduler config v1) for the fields the planner
reads; everything else is allowed. A schema file is named `KIND.GROUP.VERSION.json` (core:
`KIND.VERSION.json`); files starting with `_` hold shared definitions. Adding a file adds support
for that apiVersion. `PlanResult.json`, `PlanDiff.json` and `Explanation.json` (no version in the
name) describe the tool's own output, not input, and are skipped here.

Validators are compiled once per (apiVersion, kind) and reused; every schema error becomes a
(JSON path, message) pair, worded for people rather than for schema authors.

Two validators per schema: `CheckCompiler` (schema_compiler.py) turns the schema into a plain
Python predicate (the
happy path: about ten times faster than jsonschema walking `$ref`s for every document), and
jsonschema runs only for a document the predicate rejects, to say what and where. The two must
agree on validity; tests/loading/test_schema.py checks that on mutated documents.
"""
from __future__ import annotations

import importlib.resources
import json
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

from podgroup_plan.loading.field_errors import invalid, not_supported, required, too_many
from podgroup_plan.loading.schema_compiler import Check, CheckCompiler, Resolver, Unsupported
from podgroup_plan.loading.schema_precompiled import fingerprint
from podgroup_plan.loading.schema_precompiled import load as precompiled_checks

if TYPE_CHECKING:  # jsonschema (and referencing) load only when a document is rejected
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError
    from referencing import Registry

SchemaError = tuple[tuple, str]  # (JSON path, message)

# Kinds without a namespace; every other kind the planner reads is namespaced ("default" when
# metadata.namespace is absent, as kubectl assumes).
CLUSTER_SCOPED = frozenset({"Node", "Namespace", "PriorityClass", "RuntimeClass", "KubeSchedulerConfiguration",
                            "ClusterTrainingRuntime"})


# The API groups whose objects the API server validates with pkg/apis/*/validation (and the
# declarative validation of k8s.io/api): the others are CRDs (their OpenAPI schema's messages) or
# files the API server never sees (the scheduler's configuration).
BUILTIN_GROUPS = frozenset({"", "apps", "batch", "policy", "scheduling.k8s.io", "node.k8s.io"})


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

    def __init__(self, directory: Path, precompiled: bool = True):
        self._documents: dict[str, dict] = {}  # $id -> schema
        self._files: dict[tuple[str, str], dict] = {}
        self._versions: dict[str, list[str]] = {}
        read: list[tuple[str, bytes]] = []
        for path in sorted(directory.glob("*.json")):
            if "." not in path.stem and not path.name.startswith("_"):
                continue  # PlanResult.json, PlanDiff.json, Explanation.json: our output documents
            data = path.read_bytes()
            read.append((path.name, data))
            contents = json.loads(data.decode("utf-8"))
            self._documents[contents["$id"]] = contents
            if path.name.startswith("_"):
                continue
            kind, _, rest = path.stem.partition(".")
            group, _, version = rest.rpartition(".")
            api_version = f"{group}/{version}" if group else version
            self._files[(api_version, kind)] = contents
            self._versions.setdefault(kind, []).append(api_version)
        self._registry: Registry[Any] | None = None  # built with the first validator
        self._validators: dict[tuple[str, str], Draft202012Validator] = {}
        self._checks: dict[tuple[str, str], Check | None] = {}
        self._compiler = CheckCompiler()
        self._owned: dict[tuple[str, str], bool] = {}
        # The checks shipped in `_schema_checks.py` (schema_precompiled.py), when they were
        # generated from these very files by this compiler; looked up with the first check.
        self.fingerprint = fingerprint(read)
        self._precompiled: dict | None = None
        self._look_for_precompiled = precompiled

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
        known = self._owned.get((api_version, kind))
        if known is None:
            versions = self._versions.get(kind) or ()
            group = group_of(api_version)
            known = any(group_of(v) == group for v in versions)
            if len(self._owned) < 4096:  # asked for every document: remembered per type
                self._owned[(api_version, kind)] = known
        return known

    def validator(self, api_version: str, kind: str) -> Draft202012Validator:
        v = self._validators.get((api_version, kind))
        if v is None:
            from jsonschema import Draft202012Validator
            from referencing import Registry
            from referencing.jsonschema import DRAFT202012

            if self._registry is None:
                self._registry = Registry().with_resources(
                    (uri, DRAFT202012.create_resource(doc)) for uri, doc in self._documents.items()
                )
            v = Draft202012Validator(self._files[(api_version, kind)], registry=self._registry)
            self._validators[(api_version, kind)] = v
        return v

    def check(self, api_version: str, kind: str) -> Check | None:
        """The compiled predicate for a schema (None if it uses a keyword the compiler lacks)."""
        key = (api_version, kind)
        if key not in self._checks:
            if self._look_for_precompiled:
                self._look_for_precompiled = False
                self._precompiled = precompiled_checks(self.fingerprint)
            if self._precompiled is not None and key in self._precompiled:
                self._checks[key] = self._precompiled[key]
                return self._checks[key]
            schema = self._files[key]
            resolver = Resolver(schema["$id"], self._documents)
            try:
                self._checks[key] = self._compiler.compile(schema, resolver)
            except Unsupported:
                self._checks[key] = None
        return self._checks[key]

    def errors(self, api_version: str, kind: str, obj: Any) -> list[SchemaError]:
        """Every structural problem of `obj`, sorted by path; [] when it is fine."""
        check = self.check(api_version, kind)
        if check is not None and check(obj):
            return []
        builtin = group_of(api_version) in BUILTIN_GROUPS
        found = {describe(e, builtin) for e in self.validator(api_version, kind).iter_errors(obj)}
        return sorted(found, key=lambda pm: (_path_key(pm[0]), pm[1]))

    def types_hold(self, api_version: str, kind: str, obj: Any) -> bool:
        """Whether every problem the schema finds in `obj` is about a value (an enum, a
        minimum, a length), none about its shape (a type, a missing or unknown field, a union):
        the API server decodes such an object and reports its validation errors all together,
        so the rules that read typed fields (validate.py) can run on it too."""
        if not self.supports(api_version, kind):
            return False
        return all(e.validator in _VALUE_KEYWORDS for e in self.validator(api_version, kind).iter_errors(obj))


# Schema keywords that judge a value whose type is right (see SchemaSet.types_hold)
_VALUE_KEYWORDS = frozenset({"enum", "const", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
                             "minLength", "maxLength", "minItems", "maxItems", "pattern", "multipleOf"})




def _zero(value: Any) -> bool:
    """Go's zero value of a number, a string or a list: what field.Required reports as unset."""
    return value is not False and (value == 0 or value == "" or value == [])


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


def _refused(subschema: Any) -> bool:
    """Whether a property's subschema only refuses the field (inline `x-refused`, or a $ref into
    the `notIn137` definitions of fields kube-scheduler v1.37.0 does not have)."""
    return isinstance(subschema, dict) and (
        subschema.get("x-refused") is True or str(subschema.get("$ref", "")).startswith("#/$defs/notIn137/"))


def describe(error: ValidationError, builtin: bool = True) -> SchemaError:
    """A schema error as (path, message). A subschema may carry `x-message` (and, for a oneOf
    that more than one branch matched, `x-message-multiple`) to say what the rule means.

    The common families are worded as the API server's field.Error renders them
    (field_errors.py): a missing field `Required value` (with the detail of `x-required`, keyed
    by the property, where upstream gives one), a value outside an enum `Unsupported value:
    "X": supported values: ...` (sorted, as the validators' `sets.List` gives them, for the
    built-in kinds; a CRD's enum, or one marked `x-ordered` whose validator lists a slice as
    written, in its schema's order), a number below a minimum of a built-in
    kind `Invalid value: N: must be greater than or equal to M` (ValidateNonnegativeField,
    the declarative `+k8s:minimum`'s content.MinError), a list over a built-in kind's maxItems
    `Too many: N: must have at most M items` (the declarative `+k8s:maxItems`). Where upstream says something else for a
    field, its schema carries it: `x-invalid` (the detail of a field.Invalid, e.g. a selector
    operator's "not a valid selector operator") and `x-zero-required` (0 or "" is `Required
    value`, as for a port or an empty list of containers). `builtin` is False for the kinds the API server does not validate
    with pkg/apis (CRDs, the scheduler's configuration), whose minimums keep our wording."""
    path = tuple(error.absolute_path)
    keyword = error.validator
    schema = error.schema if isinstance(error.schema, dict) else {}
    value = error.instance
    if keyword == "required":
        missing = [p for p in error.validator_value if p not in value]
        # jsonschema reports each missing property in its own error; the message names which.
        name = next((p for p in missing if repr(p) in error.message), missing[0])
        if "x-message" in schema:
            return path + (name,), str(schema["x-message"])
        return path + (name,), required(str(schema.get("x-required", {}).get(name, "")))
    custom = schema.get("x-message")
    if keyword == "oneOf" and not error.context:  # several branches matched
        return path, str(schema.get("x-message-multiple", custom or "matches more than one form"))
    if custom:
        return path, custom
    if keyword in _VALUE_KEYWORDS and schema.get("x-zero-required") and _zero(value):
        return path, required(str(schema.get("x-required-detail", "")))
    if keyword in _VALUE_KEYWORDS and "x-invalid" in schema:
        return path, invalid(value, str(schema["x-invalid"]))
    if keyword == "type":
        got = _JSON_TYPES[json_type(value)] if isinstance(value, (dict, list)) else show(value)
        return path, f"must be {_expected(error.validator_value)}, got {got}"
    if keyword == "enum":
        values = [str(v) for v in error.validator_value if v is not None]
        # `x-ordered`: a validator that lists its values as written, not through sets.List
        return path, not_supported(value, sorted(values) if builtin and not schema.get("x-ordered") else values)
    if keyword == "const":
        return path, f"unsupported value {show(value)}; must be {show(error.validator_value)}"
    if keyword == "minimum" and builtin:
        return path, invalid(value, f"must be greater than or equal to {error.validator_value}")
    if keyword == "minimum":
        return path, f"must be at least {error.validator_value}, got {show(value)}"
    if keyword == "maximum":
        return path, f"must be at most {error.validator_value}, got {show(value)}"
    if keyword == "maxItems" and builtin:  # the declarative +k8s:maxItems: field.TooMany
        return path, too_many(len(value), error.validator_value)
    if keyword == "maxItems":
        n = error.validator_value
        return path, f"must have at most {n} item{'s' if n != 1 else ''}, got {len(value)}"
    if keyword == "minItems":
        n = error.validator_value
        return path, "must not be empty" if n == 1 else f"must have at least {n} items"
    if keyword == "minLength":
        return path, "must not be empty"
    if keyword == "additionalProperties":
        properties = schema.get("properties", {})
        extra = sorted(k for k in value if k not in properties)
        # a field listed only to be refused (x-refused, e.g. 1.38-dev's placementFeasible) is not "known"
        known = sorted(k for k, sub in properties.items() if not _refused(sub))
        return path, f"unknown field(s) {', '.join(show(k) for k in extra)}; known: {', '.join(known)}"
    return path, error.message

