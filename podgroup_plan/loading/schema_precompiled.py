"""The bundled schemas' compiled checks, built into the wheel as `_schema_checks.py`.

`schema_compiler.CheckCompiler` turns each schema into Python source and `exec`s it. For the kinds of the
bundled demo that is about 0.02 s of every run (writing the source, then compiling it), a
twentieth of the whole process's start-up budget (issue 16). The schemas are fixed, so the same
source is written once, when the wheel is built (`hatch_build.py` runs `write`), into a module
that pip compiles to bytecode with the rest of the package.

The module is used only when it was generated from the schema files and the compiler's own
source (`schema_compiler.py`) as they are at run time (`fingerprint`), and only when its bytecode is
there: a checkout has no such module (it is not in the repository: half a megabyte of source
that every change of the compiler would rewrite), and compiling the module from source would
cost more than compiling the few checks a run needs. Either way the checks are then compiled as
before, so a missing or stale module costs time but never changes a verdict.
"""
from __future__ import annotations

import re
import zlib
from pathlib import Path
from typing import Any, Callable, Iterable

from podgroup_plan.loading.schema_compiler import CheckCompiler, Resolver, Unsupported

MODULE = Path(__file__).with_name("_schema_checks.py")
COMPILER = Path(__file__).with_name("schema_compiler.py")


def fingerprint(files: Iterable[tuple[str, bytes]]) -> str:
    """Names, sizes and CRC-32s of the schema files and of the compiler: what the generated
    source depends on (zlib, not hashlib: importing hashlib costs more than the check saves)."""
    parts = [f"{name}:{len(data)}:{zlib.crc32(data):08x}" for name, data in files]
    try:
        compiler = COMPILER.read_bytes()
    except OSError:  # no source beside the bytecode: never trust the module
        return "no compiler source"
    parts.append(f"{COMPILER.name}:{len(compiler)}:{zlib.crc32(compiler):08x}")
    return ";".join(parts)


def load(expected: str) -> dict[tuple[str, str], Callable[[Any], bool] | None] | None:
    """The shipped checks by (apiVersion, kind), if they were generated from these schemas by
    this compiler and their bytecode is there; None otherwise."""
    import importlib
    import importlib.util
    import os

    try:
        if not os.path.exists(importlib.util.cache_from_source(str(MODULE))):
            return None
        # generated into the wheel, absent from a checkout (so imported by name)
        checks = importlib.import_module("podgroup_plan.loading._schema_checks")
    except (ImportError, NotImplementedError, OSError):
        return None
    if getattr(checks, "FINGERPRINT", None) != expected:
        return None
    return checks.CHECKS


def module_source(schemas: Any) -> str:
    """The text of `_schema_checks.py` for a `schema.SchemaSet`: every kind's check, compiled in
    (apiVersion, kind) order by one `CheckCompiler` (subschemas shared across kinds once), with
    the constants the checks use written as source."""
    compiler = CheckCompiler()
    names: dict[tuple[str, str], str | None] = {}
    for key in sorted(schemas._files):
        schema = schemas._files[key]
        try:
            names[key] = compiler._function(schema, Resolver(schema["$id"], schemas._documents))
        except Unsupported:
            names[key] = None  # its partial source stays, as at run time: jsonschema checks it
    constants = [f"{name} = {_constant(value)}" for name, value in compiler._namespace.items()
                 if name != "_json_equal"]
    checks = [f"    {key!r}: {name or 'None'}," for key, name in names.items()]
    return "\n".join([
        '"""Generated when the wheel was built (hatch_build.py, loading/schema_precompiled.py)',
        'from schemas/*.json: the bundled schemas\' checks as `schema_compiler.CheckCompiler` writes them."""',
        "# flake8: noqa",
        "import re",
        "",
        "from podgroup_plan.loading.schema_compiler import json_equal as _json_equal",
        "",
        f"FINGERPRINT = {schemas.fingerprint!r}",
        "",
        *constants,
        "",
        *compiler._source,
        "CHECKS = {",
        *checks,
        "}",
        "",
    ])


_TYPE_NAMES = {dict: "dict", list: "list", str: "str", int: "int", float: "float", bool: "bool",
               type(None): "type(None)"}


def _constant(value: Any) -> str:
    """Source for a constant of the compiled checks (`CheckCompiler._const`), the same whatever
    the hash seed (sets are written sorted)."""
    if value is None or isinstance(value, (bool, int, str)):
        return repr(value)
    if isinstance(value, float):
        return f'float("{value}")' if value in (float("inf"), float("-inf")) else repr(value)
    if isinstance(value, type) and value in _TYPE_NAMES:
        return _TYPE_NAMES[value]
    if isinstance(value, re.Pattern):
        if value.flags != re.compile("").flags:
            raise ValueError(f"a pattern with flags: {value!r}")
        return f"re.compile({value.pattern!r})"
    if isinstance(value, (frozenset, set)):
        return "frozenset({" + ", ".join(sorted(_constant(v) for v in value)) + "})"
    if isinstance(value, list):
        return "[" + ", ".join(_constant(v) for v in value) + "]"
    if isinstance(value, tuple):
        return "(" + "".join(_constant(v) + ", " for v in value) + ")"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_constant(k)}: {_constant(v)}" for k, v in value.items()) + "}"
    raise ValueError(f"no source for the constant {value!r}")


def write(target: Path, schemas: Any) -> None:
    """Write the module for a `schema.SchemaSet` (read with `precompiled=False`) to `target`
    (the wheel's build hook; it imports `schema.py`, this module and `schema_compiler.py`
    without the package's dependencies)."""
    target.write_text(module_source(schemas), encoding="utf-8")
