"""`podgroup-plan simulate`: formats, streams, --output-file, --fail-on and exit codes."""
import json
import xml.etree.ElementTree as ET

import pytest
from pathlib import Path
import yaml

import sample_plans
from podgroup_plan.cli import inputs, planning
from podgroup_plan.cli.fail_on import fail_conditions
from podgroup_plan.cli import app
from podgroup_plan.errors import InputError, Problem
from podgroup_plan.model.objects import Node

REAL_LOAD = inputs.load
# The loader stand-ins return a cluster with one node: an input with no Node and no Pod is
# bad input (contract.md), which test_cli_robustness.py covers.
ONE_NODE = Node(name="n", labels={}, taints=(), unschedulable=False, allocatable={}, images=())


def run(runner, *args, **kw):
    return runner.invoke(app, list(args), **kw)


def test_version_names_tool_and_kube_scheduler(runner):
    result = run(runner, "--version")
    assert result.exit_code == 0
    assert result.stdout == "podgroup-plan 0.3.0 (kube-scheduler v1.37.0)\n"


@pytest.mark.parametrize("args", [
    [],
    ["simulate"],
    ["simulate", "x.yaml", "-o", "xml"],
    ["simulate", "x.yaml", "--fail-on", "never"],
    ["simulate", "x.yaml", "--no-such-flag"],
    ["simulate", "x.yaml", "--output-file"],
    ["diff", "x.yaml"],
    ["diff", "x.yaml", "--config-b", "b.yaml", "-o", "yaml"],
    ["validate"],
    ["frobnicate"],
], ids=lambda a: " ".join(a) or "no-args")
def test_bad_usage_exits_2_without_traceback(runner, engine, args):
    result = run(runner, *args)
    assert result.exit_code == 2
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.stderr + result.stdout
    assert not [c for c in engine.calls if c[0] == "plan"]


def test_json_follows_the_contract(runner, engine):
    result = run(runner, "simulate", "manifests/", "-o", "json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["apiVersion"] == "podgroup-plan/v1" and doc["kind"] == "PlanResult"
    assert doc["feasible"] is False
    assert set(doc["summary"]) == {"nodes", "podsScheduled", "podsUnschedulable", "podsWaiting",
                                   "podsPreempted", "podGroupsScheduled",
                                   "podGroupsUnschedulable", "podGroupsWaiting"}
    assert {"namespace", "name", "podGroup", "status", "node", "reason", "message",
            "nominatedNode"} <= set(doc["pods"][0])
    assert {"namespace", "name", "policy", "minCount", "topologyKey", "placement",
            "scheduledPods", "pendingPods", "status", "conditions"} <= set(doc["podGroups"][0])
    assert set(doc["victims"][0]) >= {"namespace", "name", "node", "podGroup", "priority", "preemptor"}
    assert doc["victims"][0]["preemptor"] == {"kind": "PodGroup", "namespace": "ml", "name": "train-a"}
    for key in ("pods", "podGroups", "compositePodGroups", "victims"):
        names = [(x["namespace"], x["name"]) for x in doc[key]]
        assert names == sorted(names)
    assert result.stderr == ""


def test_json_is_byte_identical_across_runs(runner, engine):
    first = run(runner, "simulate", "m/", "-o", "json").stdout_bytes
    second = run(runner, "simulate", "m/", "-o", "json").stdout_bytes
    assert first == second and first.endswith(b"}\n")


@pytest.mark.parametrize("fmt,check", [
    ("json", lambda out: json.loads(out)["kind"] == "PlanResult"),
    ("yaml", lambda out: yaml.safe_load(out)["kind"] == "PlanResult"),
    ("markdown", lambda out: out.startswith("## ❌ podgroup-plan: not feasible")),
    ("junit", lambda out: ET.fromstring(out).tag == "testsuites"),
    ("table", lambda out: "1 of 3 PodGroups scheduled; 1 unschedulable, 1 waiting" in out),
    ("JSON", lambda out: json.loads(out)["kind"] == "PlanResult"),
])
def test_every_format_renders(runner, engine, fmt, check):
    result = run(runner, "simulate", "m/", "--output", fmt)
    assert result.exit_code == 0, result.stderr
    assert check(result.stdout)


def test_table_is_default_plain_and_fits_100_columns(runner, engine):
    result = run(runner, "simulate", "m/")
    assert result.exit_code == 0
    assert "\x1b[" not in result.stdout  # not a terminal: no colour
    assert max(len(line) for line in result.stdout.split("\n")) <= 100
    assert "rack-1 (topology.kubernetes.io/rack)" in result.stdout
    assert "Volumes are not modelled" in result.stdout  # notes shown in every format


def test_table_width_follows_columns(runner, engine):
    result = run(runner, "simulate", "m/", env={"COLUMNS": "80"})
    assert max(len(line) for line in result.stdout.split("\n")) <= 80


@pytest.mark.parametrize("sample,fail_on,code", [
    ("feasible", [], 0),
    ("feasible", ["unschedulable", "waiting", "preemption"], 0),
    ("mixed", [], 0),
    ("mixed", ["unschedulable"], 1),
    ("mixed", ["waiting"], 1),
    ("mixed", ["preemption"], 1),
    ("only_waiting", ["unschedulable"], 0),
    ("only_waiting", ["waiting"], 1),
    ("only_waiting", ["unschedulable", "preemption"], 0),
    ("only_waiting", ["preemption", "waiting"], 1),
    ("only_preemption", ["unschedulable", "waiting"], 0),
    ("only_preemption", ["preemption"], 1),
    ("with_composite", ["unschedulable", "waiting", "preemption"], 0),  # Invalid is neither
])
def test_fail_on(runner, engine, sample, fail_on, code):
    engine.results = [getattr(sample_plans, sample)()]
    args = ["simulate", "m/", "-o", "json"] + [a for f in fail_on for a in ("--fail-on", f)]
    result = run(runner, *args)
    assert result.exit_code == code, result.stderr
    json.loads(result.stdout)  # the result is printed whatever the exit code
    if code:
        assert result.stderr.startswith("podgroup-plan: --fail-on ")
    else:
        assert result.stderr == ""


def test_fail_on_says_which_conditions_hold(runner, engine):
    result = run(runner, "simulate", "m/", "--fail-on", "unschedulable", "--fail-on", "preemption")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "podgroup-plan: --fail-on unschedulable: 5 pods and 1 group not placed",
        "podgroup-plan: --fail-on preemption: the plan evicts 1 pod",
    ]


def test_fail_on_scheduler_error_counts_as_unschedulable():
    from dataclasses import replace

    base = sample_plans.feasible()
    pod = replace(base.pods[0], status="Unschedulable", node=None, reason="SchedulerError",
                  message="pods in a group must agree on schedulerName")
    result = replace(base, pods=(pod,) + base.pods[1:])
    assert fail_conditions(result, ["unschedulable"]) == [
        "unschedulable: 1 pod and 0 groups not placed"]


def test_output_file(runner, engine, tmp_path):
    target = tmp_path / "plan.json"
    result = run(runner, "simulate", "m/", "-o", "json", "--output-file", str(target))
    assert result.exit_code == 0
    assert result.stdout == ""
    assert json.loads(target.read_text(encoding="utf-8"))["kind"] == "PlanResult"
    again = run(runner, "simulate", "m/", "-o", "json")
    assert target.read_bytes() == again.stdout_bytes


def test_output_file_table_has_no_colour(runner, engine, tmp_path):
    target = tmp_path / "plan.txt"
    assert run(runner, "simulate", "m/", "--output-file", str(target)).exit_code == 0
    text = target.read_text(encoding="utf-8")
    assert "\x1b[" not in text and "PodGroups" in text


def test_output_file_with_fail_on_still_writes(runner, engine, tmp_path):
    target = tmp_path / "report.xml"
    result = run(runner, "simulate", "m/", "-o", "junit", "--output-file", str(target),
                 "--fail-on", "unschedulable")
    assert result.exit_code == 1
    assert ET.parse(target).getroot().tag == "testsuites"


def test_unwritable_output_file_exits_2(runner, engine, tmp_path):
    target = tmp_path / "missing-dir" / "plan.json"
    result = run(runner, "simulate", "m/", "-o", "json", "--output-file", str(target))
    assert result.exit_code == 2
    assert str(target) in result.stderr and "cannot write" in result.stderr
    assert "Traceback" not in result.stderr


def test_input_errors_list_every_problem_and_exit_2(runner, engine, monkeypatch):
    problems = [
        Problem(file="b.yaml", line=7, kind="Pod", namespace="default", name="p",
                path="spec.containers[0].resources.requests.cpu", message="invalid quantity 'x'"),
        Problem(file="a.yaml", document=2, message="expected a mapping"),
    ]

    def bad_load(*args, **kwargs):
        raise InputError(problems)

    monkeypatch.setattr(inputs, "load", bad_load)
    result = run(runner, "simulate", "a.yaml", "b.yaml", "-o", "json")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [str(problems[1]), str(problems[0])]  # sorted by file
    assert result.stderr.splitlines()[1] == \
        "b.yaml:7: Pod default/p: spec.containers[0].resources.requests.cpu: invalid quantity 'x'"


def test_bad_configuration_found_by_plan_exits_2(runner, engine):
    engine.error = InputError([Problem(file="sched.yaml", message="unknown plugin \"Nope\"")])
    result = run(runner, "simulate", "m/", "--scheduler-config", "sched.yaml")
    assert result.exit_code == 2
    assert result.stderr == 'sched.yaml: unknown plugin "Nope"\n'


def test_flags_reach_loading_and_plan(runner, engine):
    result = run(runner, "simulate", "a/", "b.yaml", "--scheduler-config", "s.yaml",
                 "--feature-gates", "CompositePodGroup=false", "-o", "json")
    assert result.exit_code == 0, result.stderr
    load = engine.calls[0]
    assert load[1] == ["a/", "b.yaml"] and [str(f) for f in load[2]] == ["s.yaml"]
    assert load[3] == "CompositePodGroup=false"
    plan = engine.calls[1]
    assert plan[2] == {"from": "s.yaml"}


def test_all_problems_from_input_config_and_gates_together(runner, monkeypatch):
    """Manifests, --scheduler-config and --feature-gates are all checked before giving up."""
    from podgroup_plan import loading

    def load_input(paths, stdin_text=None, **kw):
        raise InputError([Problem(file="m.yaml", line=1, message="bad manifest")])

    def load_scheduler_config(path):
        raise InputError([Problem(file=path, message="bad config")])

    def parse_gates(text):
        raise InputError([Problem(file="--feature-gates", message=f"unknown feature gate {text!r}")])

    monkeypatch.setattr(loading, "load_input", load_input, raising=False)
    monkeypatch.setattr(loading, "load_scheduler_config", load_scheduler_config, raising=False)
    monkeypatch.setattr(inputs, "parse_gates", parse_gates)
    result = run(runner, "simulate", "m.yaml", "--scheduler-config", "s.yaml",
                 "--feature-gates", "Nope=true")
    assert result.exit_code == 2
    assert sorted(result.stderr.splitlines()) == sorted([
        "m.yaml:1: bad manifest", "s.yaml: bad config",
        "--feature-gates: unknown feature gate 'Nope=true'"])


def test_dash_reads_standard_input(runner, monkeypatch, engine):
    from podgroup_plan import loading
    from podgroup_plan.model.cluster_input import ClusterInput

    seen = {}

    def load_input(paths, stdin_text=None, **kw):
        seen.update(paths=paths, stdin=stdin_text)
        return ClusterInput(nodes=(ONE_NODE,))

    monkeypatch.setattr(loading, "load_input", load_input, raising=False)
    monkeypatch.setattr(inputs, "load", REAL_LOAD)  # the real one, over a fake loader
    result = run(runner, "simulate", "-", "-o", "json", input="kind: Node\n")
    assert result.exit_code == 0, result.stderr
    assert seen == {"paths": ["-"], "stdin": b"kind: Node\n"}


def test_no_progress_bar_when_stderr_is_not_a_terminal(runner, monkeypatch):
    plan_module = pytest.importorskip("podgroup_plan.planner", reason="engine not importable yet")
    from podgroup_plan import loading
    from podgroup_plan.model.cluster_input import ClusterInput

    seen = []
    monkeypatch.setattr(loading, "load_input", lambda paths, stdin_text=None, **kw: ClusterInput(nodes=(ONE_NODE,)),
                        raising=False)
    monkeypatch.setattr(plan_module, "plan", lambda c, s, g, progress=None, **kw:
                        seen.append(progress) or sample_plans.feasible())
    result = run(runner, "simulate", "m/", "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert seen == [None] and result.stderr == ""


def test_configuration_problems_name_the_flag_file():
    """The configuration file's name reaches plan(), which names it in every problem (the one
    resolution of configuration and gates, config/configuration.resolve_configuration)."""
    from podgroup_plan.model.cluster_input import ClusterInput

    with pytest.raises(InputError) as exc:
        planning.run_plan(ClusterInput(), {"profiles": [{"schedulerName": ""}]}, None, config_file=Path("conf/s.yaml"))
    assert [str(p) for p in exc.value.problems] == [
        "conf/s.yaml: KubeSchedulerConfiguration: profiles[0].schedulerName: Required value"]


def test_duplicate_problems_are_listed_once(runner, engine):
    problem = Problem(file="a.yaml", line=1, message="bad")
    engine.error = InputError([problem, problem])
    result = run(runner, "simulate", "a.yaml")
    assert result.exit_code == 2 and result.stderr == "a.yaml:1: bad\n"
