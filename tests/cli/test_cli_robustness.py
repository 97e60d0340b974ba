"""Whatever a user feeds the command line: a clear answer, no traceback, no hang, nothing
overwritten (issue 14; contract.md's exit codes, empty-input and write-error rules).

These run the real loader and planner. The catalogue of every problem message lives in
tests/problems (it generates docs/problems.md); here are the behaviours around the messages:
streams, exit codes, files left alone, bounded time.
"""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from podgroup_plan.cli import inputs, planning
from podgroup_plan.cli import app

HERE = Path(__file__).parent
MANIFESTS = HERE / "manifests"
ROOT = HERE.parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}

NODE = """\
apiVersion: v1
kind: Node
metadata: {name: node-1}
status:
  allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
"""
POD = """\
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default}
spec:
  containers:
  - {name: c, image: nginx, resources: {requests: {cpu: "1"}}}
"""


def run(*args, **kw):
    return CliRunner().invoke(app, [str(a) for a in args], **kw)


def process(*args, **kw):
    """The real console entry point in a child process (real streams, real exit code)."""
    return subprocess.run([sys.executable, "-m", "podgroup_plan.cli", *map(str, args)],
                          env=ENV, timeout=60, **kw)


def no_traceback(result):
    assert "Traceback" not in result.stderr and "─" not in result.stderr, result.stderr


# --- quantities past upstream's limits ----------------------------------------------------------

def test_quantity_past_int64_is_bad_input_with_its_line(tmp_path):
    (tmp_path / "m.yaml").write_text(NODE.replace('cpu: "4"', 'cpu: "1e18"') + "---\n" +
                                     POD.replace('cpu: "1"', 'cpu: "1e18"'))
    for command in ("validate", "simulate"):
        result = run(command, tmp_path / "m.yaml")
        assert result.exit_code == 2, result.stdout
        no_traceback(result)
        lines = result.stderr.splitlines()
        assert lines == [
            f"{tmp_path / 'm.yaml'}:5: Node node-1: status.allocatable.cpu: \"1e18\" is too large: "
            "kube-scheduler counts cpu in millicores in a 64-bit integer, at most "
            "9223372036854775807m",
            f"{tmp_path / 'm.yaml'}:12: Pod default/web: spec.containers[0].resources.requests.cpu: "
            "\"1e18\" is too large: kube-scheduler counts cpu in millicores in a 64-bit integer, at "
            "most 9223372036854775807m",
        ]


def test_binary_si_is_capped_as_upstream_parses_it_and_plans(tmp_path):
    """ParseQuantity caps binarySI at 2^63-1: `99999999999999999999Ei` is a (huge) valid amount."""
    (tmp_path / "m.yaml").write_text(
        NODE.replace("memory: 8Gi", "memory: 99999999999999999999Ei") + "---\n" +
        POD.replace('cpu: "1"', "memory: 99999999999999999999Ei"))
    result = run("simulate", tmp_path / "m.yaml", "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert '"status": "Scheduled"' in result.stdout


def test_a_pods_summed_request_past_int64_is_bad_input(tmp_path):
    pod = POD.replace('{name: c, image: nginx, resources: {requests: {cpu: "1"}}}',
                      "{name: a, image: x, resources: {requests: {memory: 8Ei}}}\n"
                      "  - {name: b, image: x, resources: {requests: {memory: 8Ei}}}")
    (tmp_path / "m.yaml").write_text(NODE + "---\n" + pod)
    result = run("validate", tmp_path / "m.yaml")
    assert result.exit_code == 2
    assert "Pod default/web: spec: the pod's total memory request (18446744073709551614) is too " \
           "large" in result.stderr


# --- truncated and undecodable input ------------------------------------------------------------

ITEM = '    {\n      "apiVersion": "v1",\n      "kind": "Node",\n      "metadata": {"name": "n"}\n    }'
HEAD = '{\n  "apiVersion": "v1",\n  "kind": "List",\n  "items": [\n'


@pytest.mark.parametrize("text", [
    HEAD,                         # cut after `[`
    HEAD + ITEM,                  # after an item
    HEAD + ITEM + ",\n",          # after a comma
    HEAD + ITEM + ",\n" + ITEM[:40],  # inside the second item
    '{"apiVersion":"v1","kind":"List","items":[',  # one line
])
def test_truncated_json_dump_is_bad_input_with_a_line(tmp_path, text):
    (tmp_path / "dump.json").write_text(text)
    result = run("validate", tmp_path / "dump.json")
    assert result.exit_code == 2
    no_traceback(result)
    end = text.count("\n") + 1  # where the data ends
    assert result.stderr == f"{tmp_path / 'dump.json'}:{end}: invalid JSON: unexpected end of data\n"


def test_bytes_that_are_not_utf8_on_stdin_are_bad_input():
    result = run("validate", "-", input=b"apiVersion: v1\nkind: Node\xff\xfe\n")
    assert result.exit_code == 2
    assert result.stderr == "<stdin>:2: not UTF-8 text (byte 25)\n"


# --- empty input ------------------------------------------------------------------------------------

@pytest.mark.parametrize("command", [["simulate"], ["validate"], ["diff", "--config-b", "B"]])
def test_empty_stdin_is_bad_input_for_every_command(tmp_path, command):
    if "B" in command:
        (tmp_path / "B").write_text("apiVersion: kubescheduler.config.k8s.io/v1\n"
                                    "kind: KubeSchedulerConfiguration\n")
        command = [c if c != "B" else str(tmp_path / "B") for c in command]
    result = run(command[0], "-", *command[1:], input=b"")
    assert result.exit_code == 2, result.stdout
    assert result.stderr == "-: no Node and no Pod found in the input\n"


def test_empty_file_and_only_ignored_kinds_are_bad_input(tmp_path):
    (tmp_path / "empty.yaml").write_text("# nothing here\n")
    (tmp_path / "cm.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n")
    for paths in ([tmp_path / "empty.yaml"], [tmp_path / "cm.yaml", tmp_path / "empty.yaml"]):
        result = run("simulate", *paths)
        assert result.exit_code == 2
        assert result.stderr == f"{paths[0]}: no Node and no Pod found in the input\n"


def test_one_empty_file_among_others_is_fine(tmp_path):
    (tmp_path / "empty.yaml").write_text("")
    (tmp_path / "node.yaml").write_text(NODE)
    assert run("simulate", tmp_path).exit_code == 0


# --- folders -------------------------------------------------------------------------------------

def test_fifo_in_a_folder_is_reported_not_read(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes here")
    (tmp_path / "node.yaml").write_text(NODE)
    os.mkfifo(tmp_path / "pipe.yaml")
    result = process("validate", tmp_path, capture_output=True, text=True)  # would hang if read
    assert result.returncode == 2
    assert result.stderr == (f"{tmp_path / 'pipe.yaml'}: not a regular file (a named pipe); "
                             "a folder is read for regular files only\n")


def test_a_pipe_named_on_the_command_line_is_read(tmp_path):
    """`simulate <(kubectl get nodes -o json)` hands the tool a pipe: that one is wanted."""
    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes here")
    os.mkfifo(tmp_path / "nodes.json")
    child = subprocess.Popen([sys.executable, "-m", "podgroup_plan.cli", "validate",
                              str(tmp_path / "nodes.json")], env=ENV, text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    with open(tmp_path / "nodes.json", "w") as pipe:
        pipe.write('{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}}')
    out, err = child.communicate(timeout=60)
    assert child.returncode == 0, err
    assert "Node: 1" in out


def test_unreadable_subfolder_is_reported(tmp_path, monkeypatch):
    # Permissions do not stop root (CI runs as root), so the listing itself is made to fail.
    (tmp_path / "node.yaml").write_text(NODE)
    (tmp_path / "secret").mkdir()
    (tmp_path / "secret" / "pods.yaml").write_text(POD)
    real_scandir = os.scandir

    def scandir(path="."):
        if os.fspath(path) == str(tmp_path / "secret"):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    result = run("simulate", tmp_path)
    assert result.exit_code == 2
    assert result.stderr == f"{tmp_path / 'secret'}: cannot read folder: Permission denied\n"


# --- writing the result ----------------------------------------------------------------------------

def test_output_file_naming_an_input_is_refused_and_the_input_kept(tmp_path):
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "all.yaml").write_text(NODE + "---\n" + POD)
    config = tmp_path / "sched.yaml"
    config.write_text("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n")
    (tmp_path / "link.yaml").symlink_to(tmp_path / "m" / "all.yaml")
    before = {p: p.read_bytes() for p in (tmp_path / "m" / "all.yaml", config)}
    for target, args in [(tmp_path / "m" / "all.yaml", ["simulate", tmp_path / "m"]),
                         (tmp_path / "link.yaml", ["simulate", tmp_path / "m"]),
                         (config, ["simulate", tmp_path / "m", "--scheduler-config", config]),
                         (config, ["diff", tmp_path / "m", "--config-b", config])]:
        result = run(*args, "-o", "json", "--output-file", target)
        assert result.exit_code == 2, (args, result.stdout)
        assert "--output-file names an input" in result.stderr
    assert {p: p.read_bytes() for p in before} == before


def test_output_file_is_replaced_atomically(tmp_path, monkeypatch):
    target = tmp_path / "plan.json"
    target.write_text("old result\n")
    os.chmod(target, 0o640)
    assert run("simulate", MANIFESTS, "-o", "json", "--output-file", target).exit_code == 0
    assert target.read_text().startswith("{") and oct(target.stat().st_mode & 0o777) == "0o640"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plan.json"]  # no temporary left

    target.write_text("old result\n")

    def fail(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    result = run("simulate", MANIFESTS, "-o", "json", "--output-file", target)
    assert result.exit_code == 2
    assert result.stderr == f"{target}: cannot write: No space left on device\n"
    assert target.read_text() == "old result\n"  # a failed write leaves the old file whole
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plan.json"]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_full_disk_on_stdout_is_one_line_and_exit_2():
    with open("/dev/full", "w") as full:
        result = process("simulate", MANIFESTS, "-o", "json", stdout=full, stderr=subprocess.PIPE,
                         text=True)
    assert result.returncode == 2
    assert result.stderr == "<stdout>: cannot write: No space left on device\n"


def test_broken_pipe_ends_quietly_with_the_plans_exit_code():
    for args, code in ((["-o", "json"], 0), (["-o", "json", "--fail-on", "unschedulable"], 1)):
        child = subprocess.Popen([sys.executable, "-m", "podgroup_plan.cli", "simulate",
                                  str(MANIFESTS), *args], env=ENV, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        child.stdout.close()  # `| head -0`: nobody reads
        err = child.stderr.read()
        assert child.wait(timeout=60) == code
        assert "Traceback" not in err and "Exception ignored" not in err, err
        assert "cannot write" not in err


# --- internal errors --------------------------------------------------------------------------------

def test_internal_error_exits_3_with_one_line(monkeypatch):
    def broken(*args, **kw):
        raise KeyError("a bug")

    monkeypatch.setattr(planning, "run_plan", broken)
    result = run("simulate", MANIFESTS)
    assert result.exit_code == 3
    assert result.stderr == ("podgroup-plan: internal error (a bug); please report it with the "
                             "input and the --debug output: KeyError: 'a bug'\n")
    debug = run("simulate", MANIFESTS, "--debug")
    assert debug.exit_code == 3
    assert debug.stderr.startswith("Traceback (most recent call last):")
    assert debug.stderr.endswith("--debug output: KeyError: 'a bug'\n")


@pytest.mark.parametrize("command", [["validate"], ["diff", "--config-b", MANIFESTS / "x.yaml"]])
def test_every_command_guards_against_internal_errors(monkeypatch, command):
    def broken(*args, **kw):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(inputs, "load", broken)
    result = run(command[0], MANIFESTS, *command[1:])
    assert result.exit_code == 3
    assert result.stderr.endswith("ZeroDivisionError: division by zero\n")
    assert result.stderr.count("\n") == 1


def test_an_internal_error_in_a_real_process_has_no_traceback(tmp_path):
    """The whole process: one line on stderr, exit 3, whatever rich or typer would print."""
    script = ("import sys; from podgroup_plan import cli\n"
              "cli.planning.run_plan = lambda *a, **k: 1 / 0\n"
              "sys.argv = ['podgroup-plan', 'simulate', sys.argv[1]]\n"
              "cli.main()\n")
    result = subprocess.run([sys.executable, "-c", script, str(MANIFESTS)], env=ENV,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 3
    assert result.stderr.splitlines() == [
        "podgroup-plan: internal error (a bug); please report it with the input and the --debug "
        "output: ZeroDivisionError: division by zero"]


# --- long values ------------------------------------------------------------------------------------

def test_a_huge_scalar_is_cut_in_the_message(tmp_path):
    huge = "9" * 2_000_000 + "x"
    (tmp_path / "m.yaml").write_text(NODE + "---\n" + POD.replace('cpu: "1"', f'cpu: "{huge}"'))
    result = run("validate", tmp_path / "m.yaml")
    assert result.exit_code == 2
    assert len(result.stderr) < 500
    assert "characters cut" in result.stderr and "invalid quantity" in result.stderr


# --- alias bombs ------------------------------------------------------------------------------------

def test_alias_bomb_is_refused_as_kubectl_refuses_it(tmp_path):
    levels = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi"):
        levels.append(f"{name}: &{name} [{', '.join(['*' + prev] * 9)}]")
    bomb = "".join(f"  {line}\n" for line in levels)  # 9^9 strings in under 500 bytes
    (tmp_path / "m.yaml").write_text(
        NODE + "---\n" + POD.replace("spec:\n", "spec:\n" + bomb) +
        "  tolerations: *i\n")
    result = run("simulate", tmp_path / "m.yaml")
    assert result.exit_code == 2
    assert result.stderr == f"{tmp_path / 'm.yaml'}:7: invalid YAML: document contains excessive aliasing\n"


# --- every problem of a run together -------------------------------------------------------------

UNKNOWN_PLUGIN = """\
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    score:
      enabled:
      - {name: NoSuchPlugin, weight: 2}
"""
DUPLICATE_PROFILE = """\
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
- schedulerName: default-scheduler
"""


def test_bad_feature_gates_do_not_hide_a_configurations_profile_problems(tmp_path):
    (tmp_path / "m.yaml").write_text(NODE)
    (tmp_path / "sched.yaml").write_text(UNKNOWN_PLUGIN)
    for command in ("validate", "simulate"):
        result = run(command, tmp_path / "m.yaml", "--scheduler-config", tmp_path / "sched.yaml",
                     "--feature-gates", "GenericWorkload=maybe")
        assert result.exit_code == 2
        lines = result.stderr.splitlines()
        assert lines[0].startswith("--feature-gates: invalid value of GenericWorkload=maybe")
        # a profile problem found while building the profiles, with the line of its field
        assert lines[1].startswith(f"{tmp_path / 'sched.yaml'}:8: KubeSchedulerConfiguration: "
                                   "profiles[0].plugins.score.enabled[0].name: unknown plugin "
                                   '"NoSuchPlugin"')
        assert len(lines) == 2


def test_diff_reports_both_configurations_problems(tmp_path):
    (tmp_path / "m.yaml").write_text(NODE)
    (tmp_path / "a.yaml").write_text(UNKNOWN_PLUGIN)
    (tmp_path / "b.yaml").write_text(DUPLICATE_PROFILE)
    result = run("diff", tmp_path / "m.yaml", "--config-a", tmp_path / "a.yaml",
                 "--config-b", tmp_path / "b.yaml")
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert [line.split(": KubeSchedulerConfiguration")[0] for line in lines] == [
        f"{tmp_path / 'a.yaml'}:8", f"{tmp_path / 'b.yaml'}:5"]
    assert lines[1].endswith('profiles[1].schedulerName: Duplicate value: "default-scheduler": '
                             "already used by profiles[0].schedulerName")


def test_a_configuration_among_broken_manifests_is_still_checked(tmp_path):
    (tmp_path / "a-broken.yaml").write_text("kind: [\n")
    (tmp_path / "node.yaml").write_text(NODE)
    (tmp_path / "sched.yaml").write_text(UNKNOWN_PLUGIN)
    result = run("validate", tmp_path)
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert lines[0].startswith(f"{tmp_path / 'a-broken.yaml'}:2: invalid YAML")
    assert lines[1].startswith(f"{tmp_path / 'sched.yaml'}:8: KubeSchedulerConfiguration: ")
    assert len(lines) == 2


def test_a_bad_group_is_reported_with_a_syntax_error_elsewhere(tmp_path):
    (tmp_path / "a-broken.yaml").write_text("kind: [\n")
    (tmp_path / "node.yaml").write_text(NODE)
    (tmp_path / "pg.yaml").write_text(
        "apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\n"
        "metadata: {name: g, namespace: default}\nspec:\n"
        "  workloadRef: {workloadName: nowhere, templateName: t}\n"
        "  schedulingPolicy: {}\n")
    result = run("simulate", tmp_path)
    assert result.exit_code == 2
    assert result.stderr.splitlines()[1] == (
        f"{tmp_path / 'pg.yaml'}:6: PodGroup default/g: spec.schedulingPolicy: Invalid value: \"\": "
        "must specify one of: `basic`, `gang`")


def test_a_reference_to_a_missing_workload_is_planned_with_a_note(tmp_path):
    """kube-apiserver v1.37 accepts it and kube-scheduler never reads a PodGroup's Workload."""
    (tmp_path / "node.yaml").write_text(NODE)
    (tmp_path / "pg.yaml").write_text(
        "apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\n"
        "metadata: {name: g, namespace: default}\nspec:\n"
        "  workloadRef: {workloadName: nowhere, templateName: t}\n"
        "  schedulingPolicy: {gang: {minCount: 2}}\n")
    result = run("simulate", tmp_path, "-o", "json")
    assert result.exit_code in (0, 1), result.stderr
    assert ('PodGroup default/g: spec.workloadRef.workloadName: Workload "nowhere" not found in namespace '
            '"default"; the API server accepts the reference and kube-scheduler does not read it'
            in json.loads(result.stdout)["notes"])
    checked = run("validate", tmp_path)
    assert checked.exit_code == 0
    assert 'Warning: PodGroup default/g: spec.workloadRef.workloadName: Workload "nowhere" not found' in checked.stderr


def test_an_output_file_that_is_not_a_regular_file_is_written_in_place(tmp_path):
    """A pipe or a device (`--output-file /dev/stdout`, `>(jq .)`) is written into, never
    renamed over: the atomic replacement is for regular files only."""
    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes here")
    import threading

    fifo = tmp_path / "out.pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo).read()))
    reader.start()
    result = run("simulate", MANIFESTS, "-o", "json", "--output-file", fifo)
    reader.join(timeout=60)
    assert result.exit_code == 0, result.stderr
    assert got and got[0].startswith("{")
    assert os.path.exists(fifo) and not os.path.isfile(fifo)  # still the pipe
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.pipe"]


# --- controllers asking for too many pods ---------------------------------------------------------

def _deployment(name: str, replicas: int) -> str:
    return (f"apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: {name}, namespace: shop}}\n"
            f"spec:\n  replicas: {replicas}\n  selector: {{matchLabels: {{app: {name}}}}}\n"
            f"  template:\n    metadata: {{labels: {{app: {name}}}}}\n"
            "    spec: {containers: [{name: c, image: nginx}]}\n")


def test_controllers_asking_for_too_many_pods_get_an_answer_not_a_hang(tmp_path):
    (tmp_path / "one.yaml").write_text(NODE + "---\n" + _deployment("typo", 2_000_000_000))
    result = process("simulate", tmp_path / "one.yaml", capture_output=True, text=True)
    assert result.returncode == 2
    assert "Deployment shop/typo: spec.replicas: asks for 2,000,000,000 pods" in result.stderr

    # together too many: the big ones are named, the small ones are not
    many = [_deployment(f"d{i}", 80_000) for i in range(3)] + [_deployment("small", 5)]
    (tmp_path / "many.yaml").write_text("---\n".join([NODE] + many))
    result = run("validate", tmp_path / "many.yaml")
    assert result.exit_code == 2
    named = [line.split(": spec.replicas")[0].rsplit(" ", 1)[-1] for line in result.stderr.splitlines()]
    assert named == ["shop/d0", "shop/d1", "shop/d2"]
    assert "creates at most 200,000 pods" in result.stderr and "(240,005 asked in all)" in result.stderr

    # many small ones: the biggest is named all the same
    small = [_deployment(f"s{i}", 4_000 + i) for i in range(60)]
    (tmp_path / "small.yaml").write_text("---\n".join([NODE] + small))
    result = run("validate", tmp_path / "small.yaml")
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "shop/s59" in result.stderr

    # at the limit: planned
    (tmp_path / "fits.yaml").write_text("---\n".join([NODE] + [_deployment(f"f{i}", 50_000) for i in range(4)]))
    assert run("validate", tmp_path / "fits.yaml").exit_code == 0


def test_completed_indexes_are_intervals_not_a_set_of_billions(tmp_path):
    from podgroup_plan.model.controllers import IndexIntervals

    done = IndexIntervals([(5, 9), (0, 1), (2, 3), (20, 20)])
    assert len(done) == 10 and 3 in done and 4 not in done and 9 in done and 10 not in done
    assert done.end_of(0) == 4 and done.end_of(20) == 21 and done.end_of(4) is None
    assert IndexIntervals([(3, 1)]).end_of(2) is None  # an empty range holds nothing

    job = ("apiVersion: batch/v1\nkind: Job\nmetadata: {name: j, namespace: default}\nspec:\n"
           "  completionMode: Indexed\n  completions: 2000000000\n  parallelism: 2\n"
           "  template:\n    spec:\n      restartPolicy: Never\n"
           "      containers: [{name: c, image: x}]\n"
           "status:\n  completedIndexes: \"0-1999999990\"\n")
    (tmp_path / "m.yaml").write_text(NODE + "---\n" + job)
    result = process("simulate", tmp_path / "m.yaml", "-o", "json", capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert '"j-1999999991-' in result.stdout and '"j-1999999992-' in result.stdout


def test_a_new_output_file_inside_an_input_folder_is_refused(tmp_path):
    """It would be read as a manifest by the next run (and refused then): said on the first."""
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "all.yaml").write_text(NODE)
    result = run("simulate", tmp_path / "m", "-o", "json", "--output-file", tmp_path / "m" / "plan.json")
    assert result.exit_code == 2
    assert "--output-file is inside the input folder" in result.stderr
    assert not (tmp_path / "m" / "plan.json").exists()
    # a name the folder walk does not read is fine, and so is a file outside the folder
    assert run("simulate", tmp_path / "m", "--output-file", tmp_path / "m" / "plan.txt").exit_code == 0
    assert run("simulate", tmp_path / "m", "--output-file", tmp_path / "plan.json").exit_code == 0
