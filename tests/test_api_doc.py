"""docs/api.md's worked example runs as written, and the package exports what it lists."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import podgroup_plan

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "api.md"


def _example() -> str:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 1, "docs/api.md has one worked example"
    return blocks[0]


def test_the_worked_example_runs(tmp_path):
    script = tmp_path / "example.py"
    script.write_text(_example(), encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert re.search(r"^\d+ pods scheduled, \d+ unschedulable$", out, re.M)
    assert "ml-research/vision-pretrain-trainers: Unschedulable" in out
    copies = int(re.search(r"^(\d+) more copies of eval-sweep-evaluators fit$", out, re.M).group(1))
    assert copies > 0
    assert "fixtures/no-such-folder: " in out


def test_every_name_in_all_is_importable_and_documented():
    doc = DOC.read_text(encoding="utf-8")
    for name in podgroup_plan.__all__:
        assert getattr(podgroup_plan, name) is not None
        if not name.startswith("_") and name not in ("KUBERNETES_VERSION", "Scope"):
            assert f"`{name}" in doc, f"{name} is exported but docs/api.md does not list it"


def test_all_lists_every_lazily_loaded_name():
    assert sorted(podgroup_plan.__all__) == sorted(["KUBERNETES_VERSION", "__version__", *podgroup_plan._EXPORTS])
    assert len(set(podgroup_plan.__all__)) == len(podgroup_plan.__all__)


def test_importing_the_package_imports_no_engine():
    code = "import sys, podgroup_plan; print(sorted(m for m in sys.modules if m.startswith(('numpy', 'podgroup_plan.'))))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "[]", done.stdout


def test_plan_is_the_function_whatever_was_imported_before():
    # A submodule named like a public name would shadow it once imported (the import system
    # binds a submodule as an attribute of its package): `plan` has no module of its own.
    import subprocess
    import sys

    code = ("import podgroup_plan.planner, podgroup_plan.cli.planning, podgroup_plan.explain\n"
            "from podgroup_plan import plan, Planner\n"
            "assert callable(plan) and plan.__name__ == 'plan' and plan.__module__ == 'podgroup_plan.planner', plan\n"
            "import podgroup_plan\n"
            "assert podgroup_plan.plan is plan\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
