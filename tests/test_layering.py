"""The core never touches the outside (design.md, "One direction of flow").

Only `loading/`, `render/` and `cli.py` may import YAML, JSON Schema or terminal libraries; the
core (`model`, `state`, `framework`, `plugins`, `scheduling`, `plan`, `result`) may not, nor may it
import the edges themselves. Imports are read with `ast`, so nothing is executed.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "podgroup_plan"
CORE = ["model", "state", "framework", "plugins", "scheduling", "plan", "queue", "outcome", "result", "diff", "errors", "fail_on",
        "capacity"]
OUTSIDE = {"yaml", "jsonschema", "typer", "rich"}
EDGES = {"podgroup_plan.loading", "podgroup_plan.render", "podgroup_plan.cli"}


def core_files() -> list[Path]:
    files: list[Path] = []
    for name in CORE:
        if (PACKAGE / name).is_dir():
            files += sorted((PACKAGE / name).rglob("*.py"))
        if (PACKAGE / f"{name}.py").is_file():
            files.append(PACKAGE / f"{name}.py")
    return files


def imported_modules(path: Path, root: Path = PACKAGE.parent) -> set[str]:
    """Every module a file imports, absolute names (relative imports resolved from `root`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = ".".join(path.relative_to(root).with_suffix("").parts[:-1])
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def test_there_is_a_core_to_check():
    assert any(f.parts[-2] == "model" for f in core_files())


@pytest.mark.parametrize("path", core_files(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_core_imports_nothing_from_the_outside(path):
    imports = imported_modules(path)
    outside = sorted(m for m in imports if m.split(".")[0] in OUTSIDE)
    edges = sorted(m for m in imports if any(m == e or m.startswith(e + ".") for e in EDGES))
    assert outside == [], f"{path.name} imports {outside}"
    assert edges == [], f"{path.name} imports {edges}"


def test_the_checker_sees_relative_and_aliased_imports(tmp_path):
    probe = tmp_path / "podgroup_plan" / "model" / "probe.py"
    probe.parent.mkdir(parents=True)
    probe.write_text("import yaml as y\nfrom ..loading import files\nfrom . import objects\n")
    assert imported_modules(probe, tmp_path) >= {
        "yaml", "podgroup_plan.loading", "podgroup_plan.loading.files", "podgroup_plan.model"}
