"""Start-up: what a run imports (issue 16, `simulate` of the demo in <= 0.35 s as a whole process).

Start-up time is measured by `python -m benchmarks.run --case demo-startup`, never here; these
tests check the imports that made it slow, each in a fresh interpreter, so that a change that
brings one back fails: pydantic (typer 0.29 builds a TypeAdapter per parameter unless
`cli.app._plain_coercion` coerces it), jsonschema (only to describe a rejected document), rich (only
for table output and progress), and the engine's optional parts (controllers, explain,
preemption) when the input does not need them.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

HEAVY = ("pydantic", "pydantic_core", "jsonschema", "referencing", "rich", "jinja2", "markupsafe")
# Loaded only for an input with Jobs, JobSets, Deployments, ReplicaSets or StatefulSets (the
# demo has none): decoding them, their model, and expansion (with hashlib, for pod names).
CONTROLLERS = {"podgroup_plan.controllers", "podgroup_plan.model.controllers",
               "podgroup_plan.loading.decode_controllers", "hashlib"}
# numpy's masked arrays: numpy 2.3+ imports them on the first plain `np.unique` (about 7 ms);
# the planner has no use for them (framework/node_cache.py `_distinct`).
NUMPY_UNUSED = {"numpy.ma"}


def modules_after(code: str, *argv: str) -> tuple[set[str], str]:
    """The modules loaded after `code` runs in a fresh interpreter (from the repository root),
    and what it wrote on stdout. They are listed by an `atexit` callback: `cli.main` ends the
    process as soon as the command is done (after running such callbacks), so nothing placed
    after `main()` would run."""
    script = (
        "import atexit, sys, json\n"
        "atexit.register(lambda: print('\\nMODULES ' + json.dumps(sorted(sys.modules)),\n"
        "                              file=sys.stderr))\n"
        "try:\n"
        + "".join(f"    {line}\n" for line in code.splitlines())
        + "except SystemExit:\n    pass\n"
    )
    proc = subprocess.run([sys.executable, "-c", script, *argv], capture_output=True, text=True,
                          cwd=REPO, timeout=120)
    line = next(x for x in proc.stderr.splitlines() if x.startswith("MODULES "))
    return set(json.loads(line[len("MODULES "):])), proc.stdout


def roots(modules: set[str], names: tuple[str, ...]) -> set[str]:
    return {m.split(".")[0] for m in modules} & set(names)


def test_importing_the_cli_loads_no_heavy_library():
    modules, _ = modules_after("import podgroup_plan.cli")
    assert roots(modules, HEAVY + ("numpy", "yaml")) == set()


def run_cli(*argv: str) -> tuple[set[str], str]:
    return modules_after("sys.argv[0] = 'podgroup-plan'\nfrom podgroup_plan.cli import main\nmain()",
                         *argv)


def test_simulating_the_demo_as_json_loads_neither_pydantic_nor_jsonschema_nor_rich():
    modules, out = run_cli("simulate", "fixtures/cluster", "fixtures/workloads", "-o", "json")
    assert json.loads(out)["pods"]  # the run did plan
    assert roots(modules, HEAVY) == set()
    assert modules & CONTROLLERS == set()
    assert "numpy" in modules and modules & NUMPY_UNUSED == set()


def test_an_input_with_jobs_loads_the_controllers_and_expands_them():
    """The other side of the above: the lazy imports still happen when they are needed."""
    modules, out = run_cli("simulate", "tests/scenarios/job-gang-fits/manifests", "-o", "json")
    assert modules >= CONTROLLERS
    # the Job's 4 indexed pods, created by expansion (`train-<index>-<random suffix>`)
    assert [p["name"].rsplit("-", 1)[0] for p in json.loads(out)["pods"]] == \
        ["train-0", "train-1", "train-2", "train-3"]


def test_the_table_to_a_pipe_loads_rich_but_not_pydantic():
    modules, out = run_cli("simulate", "fixtures/cluster", "fixtures/workloads")
    assert "67 nodes" in out.splitlines()[0]  # the run did plan
    assert roots(modules, HEAVY) == {"rich"}
    # plain text is laid out with rich's Text; its Console (a third of rich) only paints colour
    assert "rich.text" in modules and "rich.console" not in modules
    assert modules & CONTROLLERS == set()


def test_html_loads_jinja2_only_then(tmp_path):
    """The other side: -o html imports its templating library when it renders."""
    pytest.importorskip("jinja2", reason="Jinja2, a dependency of -o html, is not installed (pip install -e .)")
    modules, _ = run_cli("simulate", "fixtures/cluster", "fixtures/workloads", "-o", "html",
                         "--output-file", str(tmp_path / "plan.html"))
    assert {"jinja2", "markupsafe"} <= roots(modules, HEAVY)
    assert (tmp_path / "plan.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


@pytest.mark.parametrize("argv", [["--version"], ["--help"], ["simulate", "--help"]])
def test_version_and_help_load_no_pydantic(argv):
    modules, out = run_cli(*argv)
    assert out
    assert roots(modules, ("pydantic", "pydantic_core", "jsonschema", "numpy")) == set()


def test_python_dash_m_runs_the_same_command_line():
    script = subprocess.run([sys.executable, "-m", "podgroup_plan", "--version"], capture_output=True,
                            text=True, cwd=REPO, timeout=60)
    run = subprocess.run([sys.executable, "-c", "import sys; sys.argv[0] = 'podgroup-plan'\n"
                          "from podgroup_plan.cli import main\nmain()", "--version"],
                         capture_output=True, text=True, cwd=REPO, timeout=60)
    assert script.returncode == run.returncode == 0
    assert script.stdout == run.stdout and script.stdout.startswith("podgroup-plan ")
    usage = subprocess.run([sys.executable, "-m", "podgroup_plan", "simulate"], capture_output=True,
                           text=True, cwd=REPO, timeout=60)
    assert usage.returncode == 2 and "Usage: podgroup-plan simulate" in usage.stderr
