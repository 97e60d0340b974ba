"""Help and usage errors read as a person writes them: no internal types, no library wording."""
import pytest

from podgroup_plan.cli import app


def run(runner, *args):
    return runner.invoke(app, list(args), env={"COLUMNS": "100"})


@pytest.mark.parametrize("command", ["simulate", "validate", "diff", "explain"])
def test_help_names_paths_plainly(runner, command):
    out = run(runner, command, "--help").stdout
    assert f"Usage: podgroup-plan {command} [OPTIONS] PATH..." in out
    assert "\n  PATH...  Manifest files or folders" in out
    assert "list[str]" not in out and "{PATH}" not in out and "<" not in out


def test_simulate_help_lists_the_choices(runner):
    out = run(runner, "simulate", "--help").stdout
    for flag in ("-o, --output table|json|yaml|markdown|junit|html", "--capacity", "--fail-on unschedulable|waiting|preemption|incomplete|unplanned",
                 "--pods pending|all"):
        assert flag in out


@pytest.mark.parametrize("args, message", [
    (["simulate", "x", "-o", "xml"],
     "Invalid value for '-o' / '--output': 'xml' is not an output format; use table, json, yaml, "
     "markdown, junit or html"),
    (["simulate", "x", "--fail-on", "bogus"],
     "Invalid value for '--fail-on': 'bogus' is not a --fail-on condition; use unschedulable, "
     "waiting, preemption, incomplete or unplanned"),
    (["simulate", "x", "--pods", "some"],
     "Invalid value for '--pods': 'some' is not a choice of pods; use pending or all"),
    (["diff", "x", "--config-b", "b.yaml", "-o", "yaml"],
     "Invalid value for '-o' / '--output': 'yaml' is not a diff output format; use table, json, "
     "markdown or html"),
    (["simulate"], "Missing argument 'PATH'."),
    (["explain", "x", "--pod", "a/b", "--top", "abc"],
     "Invalid value for '--top': 'abc' is not a whole number (0 or more), e.g. --top 3"),
    (["explain", "x", "--pod", "a/b", "--top", "-1"],
     "Invalid value for '--top': '-1' is not a whole number (0 or more), e.g. --top 3"),
])
def test_usage_errors(runner, args, message):
    result = run(runner, *args)
    assert result.exit_code == 2
    assert message in " ".join(result.stderr.split())
    for wording in ("Value error", "Input should be", "Traceback", "list[str]"):
        assert wording not in result.stderr


def test_choices_are_case_insensitive(runner, monkeypatch):
    from podgroup_plan.cli import emit, inputs

    seen = {}
    monkeypatch.setattr(inputs, "load", lambda *a, **k: (_ for _ in ()).throw(SystemExit(0)))
    monkeypatch.setattr(emit, "emit", lambda *a, **k: seen.setdefault("args", a))
    result = run(runner, "simulate", "x", "-o", "JSON", "--pods", "All", "--fail-on", "Waiting")
    assert result.exit_code == 0  # parsed without a usage error (then stopped before loading)
