"""`podgroup-plan diff` (exit 0 same / 1 differ / 2 bad input) and `validate`."""
import io
import json
from dataclasses import replace

import pytest

import sample_plans
from podgroup_plan.cli import app, inputs, planning
from podgroup_plan.cli.progress import ProgressBar
from podgroup_plan.errors import InputError, Problem
from podgroup_plan.model.objects import Node

REAL_LOAD = inputs.load
# The loader stand-ins return a cluster with one node: an input with no Node and no Pod is
# bad input (contract.md), which test_cli_robustness.py covers.
ONE_NODE = Node(name="n", labels={}, taints=(), unschedulable=False, allocatable={}, images=())


def run(runner, *args, **kw):
    return runner.invoke(app, list(args), **kw)


def moved(result):
    """The same plan with one scheduled pod on another node."""
    pods = tuple(replace(p, node="node-z") if p.name == "web-1" else p for p in result.pods)
    return replace(result, pods=pods)


def test_diff_identical_exits_0(runner, engine):
    engine.results = [sample_plans.mixed(), sample_plans.mixed()]
    result = run(runner, "diff", "m/", "--config-b", "b.yaml", "-o", "json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["kind"] == "PlanDiff" and doc["identical"] is True


def test_diff_different_exits_1(runner, engine):
    engine.manifest_config = None
    engine.results = [sample_plans.mixed(), moved(sample_plans.mixed())]
    result = run(runner, "diff", "m/", "--config-b", "b.yaml", "-o", "json")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert doc["identical"] is False
    assert doc["pods"] == [{"namespace": "default", "name": "web-1",
                            "a": {"status": "Scheduled", "node": "node-c"},
                            "b": {"status": "Scheduled", "node": "node-z"}}]
    assert result.stderr == ""


def test_diff_a_defaults_to_the_built_in_profile(runner, engine):
    """Without --config-a, A ignores a KubeSchedulerConfiguration found among the manifests."""
    engine.results = [sample_plans.mixed(), sample_plans.mixed()]
    assert run(runner, "diff", "m/", "--config-b", "b.yaml").exit_code == 0
    plans = [c for c in engine.calls if c[0] == "plan"]
    (_, cluster_a, config_a, _, label_a), (_, cluster_b, config_b, _, label_b) = plans
    assert cluster_a.scheduler_config is None and config_a is None and label_a == "Planning A"
    assert cluster_b.scheduler_config is not None and label_b == "Planning B"
    result = run(runner, "diff", "m/", "--config-b", "b.yaml")
    assert "KubeSchedulerConfiguration among the manifests is not used" in result.stderr


def test_diff_with_config_a(runner, engine):
    engine.manifest_config = {"in": "manifests"}
    engine.results = [sample_plans.mixed(), sample_plans.mixed()]
    result = run(runner, "diff", "m/", "--config-a", "a.yaml", "--config-b", "b.yaml")
    assert result.exit_code == 0, result.stderr
    plans = [c for c in engine.calls if c[0] == "plan"]
    assert plans[0][1].scheduler_config == {"in": "manifests"} and plans[0][2] == {"from": "a.yaml"}
    assert plans[1][2] == {"from": "b.yaml"}
    assert "A: a.yaml" in result.stdout and "B: b.yaml" in result.stdout


def test_diff_table_and_markdown(runner, engine):
    engine.results = [sample_plans.mixed(), moved(sample_plans.mixed())]
    table = run(runner, "diff", "m/", "--config-b", "b.yaml")
    assert table.exit_code == 1
    assert table.stdout.startswith("A and B differ: 1 pod.")
    assert "A: built-in default profile" in table.stdout
    assert "Scheduled on node-c" in table.stdout and "Scheduled on node-z" in table.stdout
    engine.calls.clear()
    md = run(runner, "diff", "m/", "--config-b", "b.yaml", "-o", "markdown")
    assert md.exit_code == 1
    assert "| `default/web-1` | Scheduled on `node-c` | Scheduled on `node-z` |" in md.stdout


def test_diff_output_file(runner, engine, tmp_path):
    engine.results = [sample_plans.mixed(), moved(sample_plans.mixed())]
    target = tmp_path / "diff.json"
    result = run(runner, "diff", "m/", "--config-b", "b.yaml", "-o", "json", "--output-file", str(target))
    assert result.exit_code == 1 and result.stdout == ""
    assert json.loads(target.read_text())["identical"] is False


def test_diff_reports_problems_of_both_configurations(runner, monkeypatch, engine):
    """A bad config B is reported even when A fails too, and the exit code is 2."""
    def plan(cluster, config, gates, label="Planning", config_file=None, configuration=None):
        raise InputError([Problem(file=label[-1].lower() + ".yaml", message="bad profile")])

    monkeypatch.setattr(planning, "run_plan", plan)
    engine.manifest_config = None
    result = run(runner, "diff", "m/", "--config-b", "b.yaml")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == ["a.yaml: bad profile", "b.yaml: bad profile"]


def test_diff_loads_both_configs(runner, monkeypatch, engine):
    from podgroup_plan import loading
    from podgroup_plan.model.cluster_input import ClusterInput

    monkeypatch.setattr(inputs, "load", REAL_LOAD)
    monkeypatch.setattr(loading, "load_input", lambda p, stdin_text=None, **kw: ClusterInput(nodes=(ONE_NODE,)), raising=False)
    loaded = []

    def load_scheduler_config(path):
        loaded.append(path)
        if path == "missing.yaml":
            raise InputError([Problem(file=path, message="no such file")])
        return {"kind": "KubeSchedulerConfiguration"}  # its profiles are built too

    monkeypatch.setattr(loading, "load_scheduler_config", load_scheduler_config, raising=False)
    result = run(runner, "diff", "m/", "--config-a", "a.yaml", "--config-b", "missing.yaml")
    assert result.exit_code == 2
    assert loaded == ["a.yaml", "missing.yaml"]
    assert result.stderr == "missing.yaml: no such file\n"


# --- validate ---------------------------------------------------------------------------------

@pytest.fixture
def loader(monkeypatch):
    from podgroup_plan import loading
    from podgroup_plan.model.cluster_input import ClusterInput

    monkeypatch.setattr(loading, "load_input", lambda p, stdin_text=None, **kw: ClusterInput(nodes=(ONE_NODE,)), raising=False)
    monkeypatch.setattr(loading, "summarize", lambda ci: ["3 Nodes", "2 PodGroups"], raising=False)
    monkeypatch.setattr(loading, "load_scheduler_config", lambda path: {"kind": "KubeSchedulerConfiguration"}, raising=False)
    monkeypatch.setattr(planning, "check_config", lambda cluster, config, gates, config_file=None: None)
    return loading


def test_validate_lists_what_was_read(runner, loader):
    result = run(runner, "validate", "m/")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "3 Nodes\n2 PodGroups\nInput is valid.\n"


def test_validate_invalid_input_exits_2_with_every_problem(runner, loader, monkeypatch):
    problems = [Problem(file="m/a.yaml", line=3, message="unknown field"),
                Problem(file="m/b.yaml", line=9, message="minCount must be at least 1")]

    def bad(paths, stdin_text=None, **kw):
        raise InputError(problems)

    monkeypatch.setattr(loader, "load_input", bad)
    result = run(runner, "validate", "m/")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [str(p) for p in problems]


def test_validate_checks_the_configuration_too(runner, loader, monkeypatch):
    """The configuration file's profiles are built (once, by inputs.load) and their problems
    reported."""
    def bad_config(config, gates, file):
        raise InputError([Problem(file=file, message='profiles[0]: unknown plugin "Nope"')])

    monkeypatch.setattr(inputs, "build_profiles", bad_config)
    result = run(runner, "validate", "m/", "--scheduler-config", "s.yaml")
    assert result.exit_code == 2
    assert result.stderr == 's.yaml: profiles[0]: unknown plugin "Nope"\n'


# --- progress bar -----------------------------------------------------------------------------

class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def terminal_console(buffer):
    from rich.console import Console
    return Console(file=buffer, force_terminal=True, width=80)


def test_progress_bar_stays_hidden_for_a_quick_plan():
    clock, buffer = Clock(), io.StringIO()
    bar = ProgressBar(delay=0.5, clock=clock, console=terminal_console(buffer))
    for done in range(10):
        clock.now += 0.01
        bar(done, 10)
    bar.close()
    assert not bar.shown and buffer.getvalue() == ""


def test_progress_bar_appears_after_the_delay():
    clock, buffer = Clock(), io.StringIO()
    bar = ProgressBar("Planning", delay=0.5, clock=clock, console=terminal_console(buffer))
    bar(1, 10)
    clock.now = 1.0
    bar(5, 10)
    assert bar.shown
    bar(10, 10)
    bar.close()
    assert "Planning" in buffer.getvalue()


def test_delayed_status_hidden_when_quick_and_shown_when_slow():
    import time
    from podgroup_plan.cli.progress import DelayedStatus

    buffer = io.StringIO()
    with DelayedStatus("Reading", delay=5, console=terminal_console(buffer)) as quick:
        pass
    assert not quick.shown and buffer.getvalue() == ""
    with DelayedStatus("Reading", delay=0.01, console=terminal_console(buffer)) as slow:
        deadline = time.monotonic() + 5
        while not slow.shown and time.monotonic() < deadline:
            time.sleep(0.01)
    assert slow.shown
