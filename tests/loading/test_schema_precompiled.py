"""The schema checks built into the wheel (`loading/schema_precompiled.py`, `hatch_build.py`):
the generated module checks as jsonschema does, is the same text whatever the hash seed, is
built without the package's dependencies, and is used only when it matches the schemas and the
compiler it was generated from and its bytecode is there."""
from __future__ import annotations

import ast
import importlib.util
import os
import py_compile
import subprocess
import sys
import types
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from podgroup_plan.loading import schema_precompiled
from podgroup_plan.loading.schema import SchemaSet, bundled, schema_dir

from .samples import ALL
from .test_schema import draw_mutated

ROOT = Path(__file__).resolve().parents[2]
SOURCE = schema_precompiled.module_source(SchemaSet(schema_dir(), precompiled=False))


def generated_module(source: str = SOURCE) -> types.ModuleType:
    module = types.ModuleType("podgroup_plan.loading._schema_checks")
    exec(compile(source, "_schema_checks.py", "exec"), module.__dict__)  # noqa: S102
    return module


GENERATED = generated_module()


def test_every_kind_has_its_check():
    schemas = bundled()
    assert set(GENERATED.CHECKS) == set(schemas._files)
    assert GENERATED.FINGERPRINT == schemas.fingerprint
    assert all(callable(check) for check in GENERATED.CHECKS.values())


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_generated_checks_agree_with_jsonschema(data):
    base, obj = draw_mutated(data, 0)
    key = (base["apiVersion"], base["kind"])
    assert GENERATED.CHECKS[key](obj) == bundled().validator(*key).is_valid(obj)


def test_the_text_does_not_depend_on_the_hash_seed():
    script = ("from podgroup_plan.loading import schema_precompiled as p\n"
              "from podgroup_plan.loading.schema import SchemaSet, schema_dir\n"
              "import sys; sys.stdout.write(p.module_source(SchemaSet(schema_dir(), precompiled=False)))")
    texts = {subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT,
                            env={**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)},
                            timeout=120,
                            check=True).stdout
             for seed in ("1", "2")}
    assert texts == {SOURCE}


def test_the_build_hook_generates_it_without_the_dependencies(tmp_path):
    """hatch_build.py's generator in an interpreter without site-packages (no numpy, yaml,
    orjson: as in pip's isolated build environment)."""
    tree = ast.parse((ROOT / "hatch_build.py").read_text())
    generate = next(node.value.value for node in tree.body if isinstance(node, ast.Assign)
                    and node.targets[0].id == "GENERATE")
    target = tmp_path / "_schema_checks.py"
    done = subprocess.run([sys.executable, "-S", "-I", "-c", generate, str(ROOT), str(target)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert target.read_text() == SOURCE


def test_the_fingerprint_follows_the_schemas_and_the_compiler(tmp_path, monkeypatch):
    files = [("Pod.v1.json", b'{"type": "object"}')]
    base = schema_precompiled.fingerprint(files)
    assert schema_precompiled.fingerprint([("Pod.v1.json", b'{"type": "array"}')]) != base
    assert schema_precompiled.fingerprint(files + [("Node.v1.json", b"{}")]) != base
    compiler = tmp_path / "schema_compiler.py"
    compiler.write_bytes(schema_precompiled.COMPILER.read_bytes() + b"\n# changed\n")
    monkeypatch.setattr(schema_precompiled, "COMPILER", compiler)
    assert schema_precompiled.fingerprint(files) != base
    monkeypatch.setattr(schema_precompiled, "COMPILER", tmp_path / "missing.py")
    assert schema_precompiled.fingerprint(files) == "no compiler source"


@pytest.fixture
def shipped(tmp_path, monkeypatch):
    """A `_schema_checks` module as an installed copy has it: source, bytecode, importable."""
    def install(source: str, bytecode: bool = True) -> None:
        path = tmp_path / "_schema_checks.py"
        path.write_text(source)
        if bytecode:
            py_compile.compile(str(path), cfile=importlib.util.cache_from_source(str(path)))
        monkeypatch.setattr(schema_precompiled, "MODULE", path)
        monkeypatch.setitem(sys.modules, "podgroup_plan.loading._schema_checks",
                            generated_module(source))
    return install


def test_a_schema_set_uses_the_shipped_checks_that_match(shipped):
    shipped(SOURCE)
    schemas = SchemaSet(schema_dir())
    shipped_checks = sys.modules["podgroup_plan.loading._schema_checks"].CHECKS
    assert schemas.check("v1", "Pod") is shipped_checks[("v1", "Pod")]
    assert schemas.check("v1", "Node") is shipped_checks[("v1", "Node")]


@pytest.mark.parametrize("case", ["stale", "no bytecode", "not asked"])
def test_otherwise_the_checks_are_compiled_as_before(shipped, case):
    stale = SOURCE.replace("FINGERPRINT = '", "FINGERPRINT = 'stale;")
    shipped(stale if case == "stale" else SOURCE, bytecode=case != "no bytecode")
    schemas = SchemaSet(schema_dir(), precompiled=case != "not asked")
    check = schemas.check("v1", "Pod")
    assert check.__module__ != "podgroup_plan.loading._schema_checks"  # compiled here
    assert check(ALL[0]) and not check({**ALL[0], "spec": []})
