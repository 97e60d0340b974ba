"""Imports are the architecture (docs/architecture.md, after kube-scheduler's own layers).

Every import of every module is read with `ast` (top-level ones, those inside functions and
those under `if TYPE_CHECKING:` alike, so a lazy import cannot hide an arrow), and each must be
allowed by `MAY_IMPORT`: the table of which layer may import which. A layer always may import
itself. The core imports no YAML, JSON Schema or terminal library (`OUTSIDE`). No module is over
`MAX_LINES` lines, except those in `TOO_LONG` while their split is under way. No module
imports itself through others (`import_cycles`), whatever kind of import closes the loop.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "podgroup_plan"

# module (its dotted name below podgroup_plan, or a prefix of it) -> layer; the longest prefix wins.
LAYER_OF = {
    "errors": "base",
    "natural": "base",
    "__init__": "api",  # the public API (its names load lazily); `import podgroup_plan` is base
    "model": "model",
    "state": "state",
    "config": "config",
    "plugins.names": "plugin names",
    "framework": "framework",
    "plugins": "plugins",
    "scheduling": "scheduling",
    "controllers": "controllers",
    "events": "events",
    "planner": "planner",
    "passes": "planner",
    "queue": "planner",
    "outcome": "planner",
    "observer": "planner",
    "result": "result",
    "diff": "result",
    "fail_on": "result",
    "capacity": "result",
    "domains": "result",
    "analyses": "analyses",
    "explain": "analyses",
    "whatif": "analyses",
    "headroom": "analyses",
    "replay": "analyses",
    "loading": "loading",
    "render": "render",
    "live": "live",
    "cli": "cli",
    "__main__": "cli",
}

# layer -> the layers it may import (design.md "Who knows whom"; upstream: the framework is
# handed its registry, plugins know the framework, never the reverse; the configuration knows
# plugin names only).
MAY_IMPORT: dict[str, set[str]] = {
    "base": set(),
    "model": {"base"},
    "state": {"model", "base"},
    "plugin names": set(),
    "config": {"plugin names", "model", "base"},
    "framework": {"config", "state", "model", "base"},
    "plugins": {"plugin names", "framework", "config", "state", "model", "base"},
    "events": {"result", "model", "base"},
    "scheduling": {"events", "framework", "config", "state", "model", "result", "base"},
    "controllers": {"config", "model", "base"},
    "result": {"base"},
    # the planner hands the frameworks their registry (plugins/registry.py), as upstream's
    # scheduler.New does with the in-tree registry
    "planner": {"events", "scheduling", "plugins", "plugin names", "framework", "config", "state", "model", "controllers",
                "result", "base"},
    "analyses": {"events", "planner", "scheduling", "plugins", "plugin names", "framework", "config", "state", "model",
                 "controllers", "result", "base"},
    "loading": {"controllers", "config", "model", "base"},
    "render": {"result", "base"},
    # reading a live cluster: the bundled schemas say which kinds the planner reads
    "live": {"loading", "base"},
    "cli": {"live", "loading", "planner", "analyses", "render", "result", "controllers", "config", "model", "base"},
    "api": {"loading", "planner", "result", "model", "base"},
}

# Imports that break the table today, each with the helper whose work removes it. The list is to
# go; a new entry needs a reason.
KNOWN_EXCEPTIONS: set[tuple[str, str]] = {
    # operators (issue 28): the DaemonSet controller's toleration check reuses the plugins'
    # taint helper (upstream: component-helpers); the helper is to move below both
    ("podgroup_plan.controllers.daemon_set", "podgroup_plan.plugins.helper.taint"),
}

CORE = {"events", "model", "state", "config", "plugin names", "framework", "plugins", "scheduling", "planner", "result",
        "base", "controllers"}
OUTSIDE = {"yaml", "jsonschema", "typer", "rich"}

MAX_LINES = 600
# Modules over MAX_LINES, each with its reason (to go, or to be generated smaller).
TOO_LONG: set[str] = {
    "loading/known_fields_checks_v1_37.py",  # issue 26 (strict): the known-fields table, generated
}


def module_name(path: Path, root: Path = PACKAGE.parent) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" and len(parts) > 2 else parts)


def layer_of(module: str) -> str | None:
    """The layer of a podgroup_plan module (None: not one of ours)."""
    if module == "podgroup_plan":
        return "base"
    if not module.startswith("podgroup_plan."):
        return None
    rest = module[len("podgroup_plan."):]
    best = None
    for prefix in LAYER_OF:
        if rest == prefix or rest.startswith(prefix + "."):
            if best is None or len(prefix) > len(best):
                best = prefix
    if best is None:
        raise AssertionError(f"{module}: no layer in LAYER_OF (add one: which layer is it?)")
    return LAYER_OF[best]


def imported_modules(path: Path, root: Path = PACKAGE.parent) -> set[str]:
    """Every module a file imports anywhere in it, absolute names (relative imports resolved
    from `root`); `from package import name` counts as importing `package.name` too."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    parts = path.relative_to(root).with_suffix("").parts
    package = ".".join(parts[:-1])
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


def _ours(module: str) -> str:
    """A `from package import name` target that is a module of ours, else its package."""
    candidate = PACKAGE.parent / Path(*module.split("."))
    if candidate.with_suffix(".py").is_file() or (candidate / "__init__.py").is_file():
        return module
    return module.rpartition(".")[0]


def all_files() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def violations(path: Path, root: Path = PACKAGE.parent) -> list[str]:
    me = module_name(path, root)
    mine = layer_of(me)
    assert mine is not None
    found: list[str] = []
    for module in sorted(imported_modules(path, root)):
        if module.split(".")[0] in OUTSIDE and mine in CORE:
            found.append(f"{me} ({mine}) imports {module}: the core imports no YAML, JSON Schema or terminal library")
            continue
        if not module.startswith("podgroup_plan"):
            continue
        resolved = module if root != PACKAGE.parent else _ours(module)
        target = layer_of(resolved)
        if target is None or target == mine or target in MAY_IMPORT[mine]:
            continue
        if (me, resolved) in KNOWN_EXCEPTIONS:
            continue
        message = f"{me} ({mine}) imports {resolved} ({target})"
        if message not in found:
            found.append(message)
    return found


def test_every_layer_has_a_rule():
    assert set(LAYER_OF.values()) <= set(MAY_IMPORT)
    for allowed in MAY_IMPORT.values():
        assert allowed <= set(MAY_IMPORT)


@pytest.mark.parametrize("path", all_files(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_follow_the_layers(path):
    assert violations(path) == []


def test_known_exceptions_still_exist():
    """An exception that no longer happens is removed from the list."""
    seen = {(module_name(p), _ours(m)) for p in all_files() for m in imported_modules(p)}
    assert KNOWN_EXCEPTIONS <= seen, sorted(KNOWN_EXCEPTIONS - seen)


@pytest.mark.parametrize("path", all_files(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_is_over_600_lines(path):
    name = str(path.relative_to(PACKAGE))
    lines = len(path.read_text(encoding="utf-8").splitlines())
    if name in TOO_LONG:
        return
    assert lines <= MAX_LINES, f"{name}: {lines} lines (split it: one job per module)"


def test_too_long_lists_only_long_modules():
    for name in TOO_LONG:
        path = PACKAGE / name
        if path.is_file():
            assert len(path.read_text(encoding="utf-8").splitlines()) > MAX_LINES, f"{name} is short now: unlist it"


def test_the_checker_sees_every_kind_of_import(tmp_path):
    probe = tmp_path / "podgroup_plan" / "framework" / "probe.py"
    probe.parent.mkdir(parents=True)
    (tmp_path / "podgroup_plan" / "plugins").mkdir()
    (tmp_path / "podgroup_plan" / "plugins" / "registry.py").write_text("")
    probe.write_text(
        "from typing import TYPE_CHECKING\n"
        "import yaml as y\n"
        "from ..loading import files\n"
        "from . import runtime\n"
        "if TYPE_CHECKING:\n"
        "    from podgroup_plan.plugins import registry\n"
        "def f():\n"
        "    from podgroup_plan.scheduling.cycle import run\n"
    )
    assert imported_modules(probe, tmp_path) >= {
        "yaml", "podgroup_plan.loading", "podgroup_plan.loading.files", "podgroup_plan.framework",
        "podgroup_plan.plugins.registry", "podgroup_plan.scheduling.cycle"}
    found = "\n".join(violations(probe, tmp_path))
    assert "imports yaml" in found
    assert "podgroup_plan.loading.files (loading)" in found
    assert "podgroup_plan.plugins.registry (plugins)" in found  # under TYPE_CHECKING
    assert "podgroup_plan.scheduling.cycle (scheduling)" in found  # inside a function
    assert "framework.runtime" not in found  # its own layer


def module_edges(path: Path, root: Path = PACKAGE.parent) -> set[str]:
    """The modules of ours a file imports anywhere in it (top level, in functions, under
    TYPE_CHECKING), as files: `from package import module` is an edge to that module, and only
    `from package import name` (not a module) an edge to the package's `__init__`."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    parts = path.relative_to(root).with_suffix("").parts
    package = ".".join(parts[:-1])

    def is_module(name: str) -> bool:
        candidate = root / Path(*name.split("."))
        return candidate.with_suffix(".py").is_file() or (candidate / "__init__.py").is_file()

    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("podgroup_plan"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if not module.startswith("podgroup_plan"):
                continue
            for alias in node.names:
                found.add(f"{module}.{alias.name}" if is_module(f"{module}.{alias.name}") else module)
    return found - {module_name(path, root)}


def import_cycles(root: Path = PACKAGE.parent) -> list[list[str]]:
    """The strongly connected groups of modules (Tarjan) of more than one module."""
    graph = {module_name(p, root): module_edges(p, root) for p in sorted((root / "podgroup_plan").rglob("*.py"))}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                cycles.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return cycles


def test_no_import_cycles():
    """No module imports itself through others, not even lazily or under TYPE_CHECKING (issue 23
    found four such cycles; each hid a dependency the reverse of the layers')."""
    assert import_cycles() == []


def test_the_cycle_check_sees_a_hidden_cycle(tmp_path):
    pkg = tmp_path / "podgroup_plan"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from podgroup_plan import b\n")
    (pkg / "b.py").write_text("def f():\n    from podgroup_plan.a import x\n")
    (pkg / "c.py").write_text("from podgroup_plan import a\n")
    assert import_cycles(tmp_path) == [["podgroup_plan.a", "podgroup_plan.b"]]


def test_the_architecture_document_shows_this_table():
    """docs/architecture.md's "What each layer may import" is MAY_IMPORT, row by row."""
    text = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    table = text.split("<!-- layers: the test compares this table with MAY_IMPORT -->")[1].split("<!-- /layers -->")[0]
    rows: dict[str, set[str]] = {}
    for line in table.strip().splitlines()[2:]:
        layer, allowed = (cell.strip() for cell in line.strip("|").split("|"))
        rows[layer] = set() if allowed == "(nothing)" else {a.strip() for a in allowed.split(",")}
    assert rows == MAY_IMPORT
