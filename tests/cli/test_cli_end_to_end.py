"""The real pipeline behind the command line: files -> loading -> plan() -> renderers.

Manifests in tests/cli/manifests: two gangs of 2 trainers on two one-trainer nodes (the
higher-priority job-a lands whole, job-b does not) and a single web pod that fits.
"""
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from podgroup_plan.cli import app

HERE = Path(__file__).parent
MANIFESTS = HERE / "manifests"
CONFIGS = HERE / "configs"


def _engine_ready() -> bool:
    try:
        from podgroup_plan.loading import load_input, load_scheduler_config, summarize  # noqa: F401
        from podgroup_plan.config.configuration import parse_feature_gates  # noqa: F401
        from podgroup_plan.planner import plan  # noqa: F401
    except ImportError:
        return False
    return True


engine = pytest.mark.skipif(not _engine_ready(), reason="loading / plan() not in this checkout yet")


def run(*args, **kw):
    return CliRunner().invoke(app, [str(a) for a in args], **kw)


def test_console_script_module_runs_and_exits_with_codes():
    """Real process, real exit codes: --version 0, bad usage 2, never a traceback."""
    env = {**os.environ, "PYTHONPATH": str(HERE.parent.parent)}
    ok = subprocess.run([sys.executable, "-m", "podgroup_plan.cli", "--version"],
                        capture_output=True, text=True, env=env)
    assert ok.returncode == 0 and ok.stdout.startswith("podgroup-plan ")
    bad = subprocess.run([sys.executable, "-m", "podgroup_plan.cli", "simulate", "x", "-o", "nope"],
                         capture_output=True, text=True, env=env)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and bad.stdout == ""


@engine
def test_simulate_json(tmp_path):
    result = run("simulate", MANIFESTS, "-o", "json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["feasible"] is False
    pods = {p["name"]: p for p in doc["pods"]}
    assert pods["job-a-0"]["status"] == pods["job-a-1"]["status"] == "Scheduled"
    assert {pods["job-a-0"]["node"], pods["job-a-1"]["node"]} == {"node-1", "node-2"}
    assert pods["job-b-0"]["status"] == "Unschedulable"
    assert pods["web"]["status"] == "Scheduled" and pods["web"]["podGroup"] is None
    groups = {g["name"]: g["status"] for g in doc["podGroups"]}
    assert groups == {"job-a": "Scheduled", "job-b": "Unschedulable"}
    assert str(MANIFESTS) not in result.stdout and "jobs.yaml" not in result.stdout


@engine
def test_simulate_json_is_byte_identical_whatever_the_split(tmp_path):
    first = run("simulate", MANIFESTS, "-o", "json")
    second = run("simulate", MANIFESTS, "-o", "json")
    assert first.stdout_bytes == second.stdout_bytes
    # The same documents in one stream, in another order, through standard input.
    texts = [(MANIFESTS / n).read_text() for n in ("web.yaml", "jobs.yaml", "cluster.yaml")]
    piped = run("simulate", "-", "-o", "json", input="\n---\n".join(texts))
    assert piped.exit_code == 0, piped.stderr
    assert piped.stdout_bytes == first.stdout_bytes


@engine
def test_simulate_table_reads_as_words():
    result = run("simulate", MANIFESTS)
    assert result.exit_code == 0, result.stderr
    assert "1 of 2 PodGroups scheduled; 1 unschedulable" in result.stdout
    assert "3 of 5 pending pods scheduled; 2 unschedulable" in result.stdout
    assert "training/job-b" in result.stdout


@engine
@pytest.mark.parametrize("fail_on,code", [([], 0), (["waiting"], 0), (["preemption"], 0),
                                          (["unschedulable"], 1), (["waiting", "unschedulable"], 1)])
def test_simulate_fail_on(fail_on, code):
    args = [a for f in fail_on for a in ("--fail-on", f)]
    result = run("simulate", MANIFESTS, "-o", "json", *args)
    assert result.exit_code == code, result.stderr


@engine
def test_simulate_junit_and_markdown(tmp_path):
    target = tmp_path / "report.xml"
    assert run("simulate", MANIFESTS, "-o", "junit", "--output-file", target).exit_code == 0
    root = ET.parse(target).getroot()
    # groups job-a, job-b; pods web, job-a-0, job-a-1, job-b-0, job-b-1 (job-b's fail)
    assert int(root.get("tests")) == 7 and int(root.get("failures")) == 3
    xmlschema = pytest.importorskip("xmlschema")
    xmlschema.XMLSchema(str(HERE.parent / "render" / "junit.xsd")).validate(str(target))
    md = run("simulate", MANIFESTS, "-o", "markdown")
    assert md.stdout.startswith("## ❌ podgroup-plan: not feasible")


@engine
def test_errors_name_the_file_and_exit_2(tmp_path):
    (tmp_path / "good.yaml").write_text((MANIFESTS / "cluster.yaml").read_text())
    bad = tmp_path / "broken.yaml"
    bad.write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: x\n")
    result = run("simulate", tmp_path, "-o", "json")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert str(bad) in result.stderr
    assert "Traceback" not in result.stderr


@engine
def test_missing_path_is_an_input_error(tmp_path):
    missing = tmp_path / "nope.yaml"
    result = run("simulate", missing)
    assert result.exit_code == 2
    assert str(missing) in result.stderr and "Traceback" not in result.stderr


@engine
def test_validate():
    ok = run("validate", MANIFESTS)
    assert ok.exit_code == 0, ok.stderr
    assert ok.stdout.endswith("Input is valid.\n")


@engine
def test_validate_invalid(tmp_path):
    bad = tmp_path / "pod.yaml"
    bad.write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n"
                   "  - {name: c, image: i, resources: {requests: {cpu: lots}}}\n")
    result = run("validate", bad)
    assert result.exit_code == 2
    assert str(bad) in result.stderr


@engine
def test_diff_same_configuration_exits_0():
    result = run("diff", MANIFESTS, "--config-b", CONFIGS / "default.yaml", "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["identical"] is True


@engine
def test_diff_other_configuration_exits_1():
    result = run("diff", MANIFESTS, "--config-b", CONFIGS / "other-scheduler.yaml", "-o", "json")
    assert result.exit_code == 1, result.stderr
    doc = json.loads(result.stdout)
    assert doc["identical"] is False
    assert {p["b"]["status"] for p in doc["pods"]} == {"Ignored"}
    table = run("diff", MANIFESTS, "--config-b", CONFIGS / "other-scheduler.yaml")
    assert table.exit_code == 1 and "A and B differ" in table.stdout


@engine
def test_diff_missing_config_exits_2(tmp_path):
    result = run("diff", MANIFESTS, "--config-b", tmp_path / "nope.yaml")
    assert result.exit_code == 2
    assert "nope.yaml" in result.stderr


@engine
def test_bad_feature_gate_exits_2():
    result = run("simulate", MANIFESTS, "--feature-gates", "NoSuchGate=true")
    assert result.exit_code == 2
    assert "NoSuchGate" in result.stderr


@engine
def test_feature_gates_apply():
    result = run("simulate", MANIFESTS, "-o", "json", "--feature-gates",
                 "WorkloadAwarePreemption=false,TopologyAwareWorkloadScheduling=true")
    assert result.exit_code == 0, result.stderr


@engine
def test_progress_callback_is_passed_when_stderr_is_a_terminal(monkeypatch):
    import podgroup_plan.planner as plan_module
    from podgroup_plan.cli import planning, progress

    class TTY:
        def isatty(self):
            return True

        def write(self, s):
            return len(s)

        def flush(self):
            pass

    seen = []
    real = plan_module.plan

    def spy(cluster, config, gates, progress=None, **kw):
        seen.append(progress)
        return real(cluster, config, gates, progress=progress, **kw)

    monkeypatch.setattr(plan_module, "plan", spy)
    monkeypatch.setattr(planning.sys, "stderr", TTY())
    from podgroup_plan.loading import load_input
    planning.run_plan(load_input([str(MANIFESTS)]), None, None)
    assert isinstance(seen[0], progress.ProgressBar) and not seen[0].shown  # quick: no bar


@engine
@pytest.mark.parametrize("args", [
    ["simulate", MANIFESTS, "--scheduler-config", CONFIGS / "unknown-plugin.yaml"],
    ["validate", MANIFESTS, "--scheduler-config", CONFIGS / "unknown-plugin.yaml"],
    ["diff", MANIFESTS, "--config-b", CONFIGS / "unknown-plugin.yaml"],
    ["diff", MANIFESTS, "--config-a", CONFIGS / "unknown-plugin.yaml", "--config-b",
     CONFIGS / "default.yaml"],
], ids=["simulate", "validate", "diff-b", "diff-a"])
def test_bad_configuration_names_its_file(args):
    result = run(*args)
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert lines and all(line.startswith(str(CONFIGS / "unknown-plugin.yaml") + ":") for line in lines)
    assert "NoSuchPlugin" in result.stderr and result.stdout == ""
