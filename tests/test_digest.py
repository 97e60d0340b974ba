"""The behaviour digest (benchmarks/digest.py) covers what it says and is deterministic.

Its full run is a benchmark-style check (`python -m benchmarks.digest --check`), not a test:
these only make sure the inputs are there and that one input hashes the same twice."""
from __future__ import annotations

from pathlib import Path

from benchmarks import digest

ROOT = Path(__file__).resolve().parent.parent


def test_every_manifests_folder_under_tests_is_an_input(tmp_path):
    names = {i.name for i in digest.inputs(str(tmp_path))}
    folders = [p for p in (ROOT / "tests").rglob("manifests") if p.is_dir()]
    assert folders
    for folder in folders:
        assert f"{folder.parent.relative_to(ROOT)}/simulate" in names
    assert "demo/simulate" in names and any(n.startswith("generated/") for n in names)


def test_an_input_hashes_the_same_twice(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    (item,) = [i for i in digest.inputs(str(tmp_path)) if i.name == "tests/scenarios/basic-policy/simulate"]
    first = item.run()
    assert first.startswith(b"exit 0\n--- stdout\n{") and b'"kind": "PlanResult"' in first
    assert item.run() == first
