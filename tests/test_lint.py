"""ruff and mypy are clean on podgroup_plan/ (pyproject.toml's [tool.ruff] and [tool.mypy]).

No module is exempt: pyproject.toml has no per-file ignores and no mypy overrides (the lists
the linters came in with are gone, issue 23). Both tools are in the `test` extra.
"""
from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True)


def test_ruff_is_clean():
    found = _run("ruff", "check", "--no-cache", "podgroup_plan")
    assert found.returncode == 0, found.stdout + found.stderr


def test_mypy_is_clean():
    found = _run("mypy", "--no-incremental", "--cache-dir", "/dev/null")  # nothing written into the checkout
    assert found.returncode == 0, found.stdout + found.stderr


def test_no_module_is_exempt():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert not config["tool"]["ruff"]["lint"].get("per-file-ignores")
    assert not config["tool"]["mypy"].get("overrides")
