"""The bundled JSON Schemas: which (apiVersion, kind) the planner reads, and the structural check.

The schemas in `schemas/` are our own restatement of the Kubernetes API types (`k8s.io/api`
core/v1, policy/v1, scheduling.k8s.io/*, kube-scheduler config v1) for the fields the planner
reads; everything else is allowed. A schema file is named `KIND.GROUP.VERSION.json` (core:
`KIND.VERSION.json`); files starting with `_` hold shared definitions. Adding a file adds support
for that apiVersion. `PlanResult.json`, `PlanDiff.json` and `Explanation.json` (no version in the
name) describe the tool's own output, not input, and are skipped here.

Validators are compiled once per (apiVersion, kind) and reused; every schema error becomes a
(JSON path, message) pair, worded for people rather than for schema authors.

Two validators per schema: `CheckCompiler` turns the schema into a plain Python predicate (the
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
from typing import TYPE_CHECKING, Any, Callable, Iterable

from urllib.parse import unquote, urldefrag, urljoin

if TYPE_CHECKING:  # jsonschema (and referencing) load only when a document is rejected
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

SchemaError = tuple[tuple, str]  # (JSON path, message)

# Kinds without a namespace; every other kind the planner reads is namespaced ("default" when
# metadata.namespace is absent, as kubectl assumes).
CLUSTER_SCOPED = frozenset({"Node", "Namespace", "PriorityClass", "RuntimeClass", "KubeSchedulerConfiguration"})


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
        self._registry = None  # referencing's Registry, built with the first validator
        self._validators: dict[tuple[str, str], Draft202012Validator] = {}
        self._checks: dict[tuple[str, str], Check | None] = {}
        self._compiler = CheckCompiler()
        self._owned: dict[tuple[str, str], bool] = {}
        # The checks shipped in `_schema_checks.py` (schema_precompiled.py), when they were
        # generated from these very files by this compiler; looked up with the first check.
        from podgroup_plan.loading.schema_precompiled import fingerprint

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
            versions = self._versions.get(kind)
            group = group_of(api_version)
            known = bool(versions) and any(group_of(v) == group for v in versions)
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
                from podgroup_plan.loading.schema_precompiled import load

                self._precompiled = load(self.fingerprint)
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
        found = {describe(e) for e in self.validator(api_version, kind).iter_errors(obj)}
        return sorted(found, key=lambda pm: (_path_key(pm[0]), pm[1]))


class Resolved:
    __slots__ = ("contents", "resolver")

    def __init__(self, contents: Any, resolver: "Resolver"):
        self.contents = contents
        self.resolver = resolver


class Resolver:
    """`$ref` resolution among the bundled schemas, for `CheckCompiler`: a reference relative
    to the current schema's `$id`, then a JSON pointer in the fragment. (The bundled schemas
    use nothing else; jsonschema's own resolver, from `referencing`, takes a tenth of a second
    to import, which the happy path skips.)"""

    __slots__ = ("base_uri", "documents")

    def __init__(self, base_uri: str, documents: dict[str, Any]):
        self.base_uri = base_uri
        self.documents = documents

    def lookup(self, ref: str) -> Resolved:
        uri, fragment = urldefrag(urljoin(self.base_uri, ref))
        try:
            target: Any = self.documents[uri]
            for part in fragment.split("/")[1:] if fragment else ():
                part = unquote(part).replace("~1", "/").replace("~0", "~")
                target = target[int(part)] if isinstance(target, list) else target[part]
        except (KeyError, IndexError, ValueError, TypeError):
            raise Unsupported(f"unresolvable $ref {ref!r} in {self.base_uri}") from None
        return Resolved(target, Resolver(uri, self.documents))


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
        properties = schema.get("properties", {})
        extra = sorted(k for k in value if k not in properties)
        # a field listed only to be refused (x-refused, e.g. 1.38-dev's placementFeasible) is not "known"
        known = sorted(k for k, sub in properties.items() if not _refused(sub))
        return path, f"unknown field(s) {', '.join(show(k) for k in extra)}; known: {', '.join(known)}"
    return path, error.message


# --- the compiled predicate ---------------------------------------------------------------------
#
# JSON Schema evaluated by jsonschema costs ~15 interpreter-level objects per keyword per value;
# our schemas are fixed, so they are translated once into plain Python source (one function per
# subschema, simple subschemas inlined as expressions) and exec'd. Only validity comes out; the
# wording of errors stays jsonschema's job.

Check = Callable[[Any], bool]

# Keywords that never make a document invalid.
_ANNOTATIONS = frozenset({"$schema", "$id", "$defs", "title", "description", "default", "examples"})
_KEYWORDS = frozenset({
    "$ref", "type", "enum", "const", "required", "properties", "additionalProperties",
    "minItems", "maxItems", "items", "minLength", "maxLength", "pattern", "minimum", "maximum",
    "allOf", "anyOf", "oneOf", "not", "if", "then", "else",
})
# Keywords an inline expression can hold (no sub-schemas, no loops).
_SCALAR_KEYWORDS = frozenset({"type", "enum", "const", "minimum", "maximum", "minLength", "maxLength", "pattern"})

_PY_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
}


class Unsupported(Exception):
    """The schema uses a keyword the compiler does not implement (jsonschema alone is used)."""


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _json_equal(a: Any, b: Any) -> bool:
    """JSON equality as JSON Schema means it: true is not 1; 1 is 1.0."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_json_equal(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b or (_is_number(a) and _is_number(b) and a == b)


class CheckCompiler:
    """Translates schemas into predicates equivalent to `Draft202012Validator.is_valid`, for the
    keywords our schemas use. Subschemas are compiled once (keyed by identity: each belongs to
    one file, so its `$ref`s always resolve alike), also across kinds: `_core.json` is shared.

    A subschema whose result only decides whether to go on (a property, an item, a `$ref`, an
    `allOf` branch, a `then`) is inlined into its parent's function as statements that `return
    False`, down to `_INLINE_DEPTH` levels: a Python call per field and item was about half the
    time of checking a kubectl pod. A subschema whose result is a value (`anyOf`, `oneOf`,
    `not`, an `if` condition) is an expression when it is simple (`_expr`), else a call."""

    def __init__(self) -> None:
        self._names: dict[int, str] = {}
        self._namespace: dict[str, Any] = {"_json_equal": _json_equal}
        self._source: list[str] = []
        self._keep: list[Any] = []  # keeps compiled subschemas alive, so their ids stay unique
        self._vars = 0  # local variables of the function being written

    def compile(self, schema: Any, resolver: Resolver) -> Check:
        name = self._function(schema, resolver)
        if self._source:
            exec("\n".join(self._source), self._namespace)  # noqa: S102 - our own generated code
            self._source = []
        return self._namespace[name]

    # Source generation. `_function` gives the name of a function checking a subschema;
    # `_block` the statements checking `var` inside a function; `_test` an expression that is
    # true when `var` is valid.

    def _function(self, schema: Any, resolver: Resolver) -> str:
        key = id(schema)
        if key in self._names:
            return self._names[key]
        self._keep.append(schema)
        if _pure_ref(schema):
            resolved = resolver.lookup(schema["$ref"])
            if resolved.contents is not schema:  # a pure reference: the target's function itself
                self._names[key] = self._function(resolved.contents, resolved.resolver)
                return self._names[key]
        name = f"_check{len(self._names)}"
        self._names[key] = name
        outer_vars, self._vars = self._vars, 0
        body = self._block(schema, resolver, "x", 0, frozenset({key}))
        self._vars = outer_vars
        self._source += [f"def {name}(x):", *("    " + line for line in body), "    return True", ""]
        return name

    def _var(self) -> str:
        self._vars += 1
        return f"_v{self._vars}"

    def _const(self, value: Any) -> str:
        name = f"_c{len(self._namespace)}"
        self._namespace[name] = value
        return name

    def _test(self, schema: Any, resolver: Resolver, var: str) -> str:
        expr = self._expr(schema, resolver, var, 0)
        return expr if expr is not None else f"{self._function(schema, resolver)}({var})"

    def _expr(self, schema: Any, resolver: Resolver, var: str, depth: int) -> str | None:
        """An expression true when `var` is valid, for a schema of scalar keywords, required
        and properties, item counts and references to such; None for anything else."""
        seen = 0
        while _pure_ref(schema) and seen < 8:
            resolved = resolver.lookup(schema["$ref"])
            schema, resolver, seen = resolved.contents, resolved.resolver, seen + 1
        if schema is True:
            return "True"
        if schema is False:
            return "False"
        if not isinstance(schema, dict) or depth > 3:
            return None
        keywords = {k for k in schema if not k.startswith("x-")} - _ANNOTATIONS
        if keywords - _SCALAR_KEYWORDS - {"required", "properties", "minItems", "maxItems", "$ref"}:
            return None
        parts = self._scalar_tests(schema, var)
        if "$ref" in schema:
            resolved = resolver.lookup(schema["$ref"])
            sub = self._expr(resolved.contents, resolved.resolver, var, depth + 1)
            if sub is None:
                return None
            parts.append(sub)
        required = schema.get("required", [])
        conditions = [f"{name!r} in {var}" for name in required]
        for name, sub_schema in schema.get("properties", {}).items():
            sub = self._expr(sub_schema, resolver, f"{var}[{name!r}]", depth + 1)
            if sub is None:
                return None
            if sub != "True":
                conditions.append(f"({sub})" if name in required else f"({name!r} not in {var} or ({sub}))")
        if conditions:
            parts.append(f"type({var}) is not dict or ({' and '.join(conditions)})")
        if "minItems" in schema or "maxItems" in schema:
            lo = self._const(schema.get("minItems", 0))
            hi = self._const(schema.get("maxItems", float("inf")))
            parts.append(f"type({var}) is not list or {lo} <= len({var}) <= {hi}")
        expr = " and ".join(f"({p})" for p in parts) if parts else "True"
        return expr if len(expr) <= 600 else None

    def _scalar_tests(self, schema: dict, var: str) -> list[str]:
        tests: list[str] = []
        if "type" in schema:
            names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
            types = frozenset(t for n in names for t in _PY_TYPES[n])
            if "integer" in names and "number" not in names:  # 1.0 is an integer too
                tests.append(f"{_type_test(types, var, self._const)} or (type({var}) is float and {var}.is_integer())")
            else:
                tests.append(_type_test(types, var, self._const))
        if "enum" in schema:
            values = schema["enum"]
            if all(v is None or isinstance(v, str) for v in values):
                strings = self._const(frozenset(v for v in values if v is not None))
                null = f"{var} is None or " if None in values else ""
                tests.append(f"{null}(type({var}) is str and {var} in {strings})")
            else:
                tests.append(f"any(_json_equal({var}, v) for v in {self._const(list(values))})")
        if "const" in schema:
            const = schema["const"]
            if isinstance(const, str):
                tests.append(f"type({var}) is str and {var} == {self._const(const)}")
            else:
                tests.append(f"_json_equal({var}, {self._const(const)})")
        if "minLength" in schema or "maxLength" in schema:
            lo, hi = schema.get("minLength", 0), schema.get("maxLength", float("inf"))
            tests.append(f"type({var}) is not str or {self._const(lo)} <= len({var}) <= {self._const(hi)}")
        if "pattern" in schema:
            pattern = self._const(re.compile(schema["pattern"]))
            tests.append(f"type({var}) is not str or {pattern}.search({var}) is not None")
        if "minimum" in schema or "maximum" in schema:
            lo = self._const(schema.get("minimum", float("-inf")))
            hi = self._const(schema.get("maximum", float("inf")))
            # type() excludes bool, which JSON Schema does not count as a number
            tests.append(f"type({var}) not in (int, float) or {lo} <= {var} <= {hi}")
        return tests

    def _require(self, schema: Any, resolver: Resolver, var: str, depth: int, inlining: frozenset) -> list[str]:
        """Lines that `return False` unless `var` is valid: the subschema's own statements
        (inlined), or a call when it is already being inlined (recursion) or too deep."""
        seen = 0
        while _pure_ref(schema) and seen < 8:
            resolved = resolver.lookup(schema["$ref"])
            if resolved.contents is schema:
                break
            schema, resolver, seen = resolved.contents, resolved.resolver, seen + 1
        if schema is True:
            return []
        if isinstance(schema, dict) and {k for k in schema if not k.startswith("x-")} - _ANNOTATIONS <= _SCALAR_KEYWORDS:
            return [f"if not ({t}): return False" for t in self._scalar_tests(schema, var)]
        if depth < _INLINE_DEPTH and id(schema) not in inlining:
            self._keep.append(schema)
            return self._block(schema, resolver, var, depth + 1, inlining | {id(schema)})
        return [f"if not ({self._test(schema, resolver, var)}): return False"]

    def _block(self, schema: Any, resolver: Resolver, var: str, depth: int, inlining: frozenset) -> list[str]:
        """Lines that `return False` when `var` is invalid."""
        if schema is True:
            return []
        if schema is False:
            return ["return False"]
        if not isinstance(schema, dict):
            raise Unsupported(repr(schema))
        for keyword in schema:
            if keyword not in _KEYWORDS and keyword not in _ANNOTATIONS and not keyword.startswith("x-"):
                raise Unsupported(keyword)

        def fail_unless(test: str) -> str:
            return f"if not ({test}): return False"

        lines = [fail_unless(t) for t in self._scalar_tests(schema, var)]
        # After `type: object` (or `array`) alone has passed, `var` is known to be one.
        known = schema.get("type") if schema.get("type") in ("object", "array") else None
        if "$ref" in schema:
            resolved = resolver.lookup(schema["$ref"])
            lines += self._require(resolved.contents, resolved.resolver, var, depth, inlining)
        lines += self._object_statements(schema, resolver, var, depth, inlining, known == "object")
        lines += self._array_statements(schema, resolver, var, depth, inlining, known == "array")
        for sub in schema.get("allOf", ()):
            lines += self._require(sub, resolver, var, depth, inlining)
        if "anyOf" in schema:
            lines.append(fail_unless(" or ".join(f"({self._test(s, resolver, var)})" for s in schema["anyOf"])))
        if "oneOf" in schema:
            count = " + ".join(f"bool({self._test(s, resolver, var)})" for s in schema["oneOf"])
            lines.append(f"if ({count}) != 1: return False")
        if "not" in schema:
            lines.append(f"if {self._test(schema['not'], resolver, var)}: return False")
        if "if" in schema:
            then = self._require(schema.get("then", True), resolver, var, depth, inlining)
            other = self._require(schema.get("else", True), resolver, var, depth, inlining)
            if then or other:
                lines.append(f"if {self._test(schema['if'], resolver, var)}:")
                lines += _indented(then or ["pass"])
                if other:
                    lines.append("else:")
                    lines += _indented(other)
        return lines

    def _object_statements(self, schema: dict, resolver: Resolver, var: str, depth: int,
                           inlining: frozenset, known: bool) -> list[str]:
        required = schema.get("required", [])
        properties = schema.get("properties", {})
        additional = schema.get("additionalProperties", True)
        if not required and not properties and additional is True:
            return []
        body = [f"if {name!r} not in {var}: return False" for name in required]
        for name, sub in properties.items():
            value = self._var()
            checks = self._require(sub, resolver, value, depth, inlining)
            if not checks:
                continue
            if name in required:  # present: checked just above
                body += [f"{value} = {var}[{name!r}]", *checks]
            else:
                body += [f"if {name!r} in {var}:", f"    {value} = {var}[{name!r}]", *_indented(checks)]
        if additional is not True:
            key, value = self._var(), self._var()
            checks = self._require(additional, resolver, value, depth, inlining)
            if checks:
                known_names = self._const(frozenset(properties))
                body += [f"for {key}, {value} in {var}.items():",
                         f"    if {key} not in {known_names}:", *_indented(checks, 2)]
        if known or not body:
            return body
        return [f"if type({var}) is dict:", *_indented(body)]

    def _array_statements(self, schema: dict, resolver: Resolver, var: str, depth: int,
                          inlining: frozenset, known: bool) -> list[str]:
        body: list[str] = []
        if "minItems" in schema or "maxItems" in schema:
            lo = self._const(schema.get("minItems", 0))
            hi = self._const(schema.get("maxItems", float("inf")))
            body.append(f"if not ({lo} <= len({var}) <= {hi}): return False")
        if "items" in schema:
            item = self._var()
            checks = self._require(schema["items"], resolver, item, depth, inlining)
            if checks:
                body += [f"for {item} in {var}:", *_indented(checks)]
        if known or not body:
            return body
        return [f"if type({var}) is list:", *_indented(body)]


# Levels of subschemas inlined into one function. Python allows 20 nested loops in a function
# and each level may add one; deeper levels are calls (rare fields: affinity terms' selectors).
_INLINE_DEPTH = 8


def _pure_ref(schema: Any) -> bool:
    """A schema that is only a `$ref` (and annotations): it means its target."""
    return isinstance(schema, dict) and {k for k in schema if not k.startswith("x-")} - _ANNOTATIONS == {"$ref"}


def _type_test(types: frozenset, var: str, const: Callable[[Any], str]) -> str:
    """`var` is a value of one of `types` (exact types: a bool is not an int in JSON)."""
    if len(types) == 1:
        (only,) = types
        return f"{var} is None" if only is type(None) else f"type({var}) is {only.__name__}"
    return f"type({var}) in {const(types)}"


def _indented(lines: list[str], levels: int = 1) -> list[str]:
    return ["    " * levels + line for line in lines]
