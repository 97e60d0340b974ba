"""How the `podgroup-plan` process ends (`cli.main`, `cli.process._exit_at_once`): once a command has
ended and its output is flushed, the process exits at once, without the interpreter's teardown
(issue 16: about 0.03 s of the demo's 0.35 s start-up budget), and numpy's OpenBLAS starts no
worker threads. None of that may change what a user sees: every command writes the same bytes on
stdout and stderr, with the same exit code, as the same command run by typer's app with the
interpreter's ordinary exit, also when stdout is a slow pipe.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from podgroup_plan.cli import app
from podgroup_plan.cli.process import exit_status

ROOT = Path(__file__).resolve().parents[2]
MANIFESTS = ROOT / "tests" / "cli" / "manifests"
CONFIGS = ROOT / "tests" / "cli" / "configs"
TAINTS = ROOT / "tests" / "explain" / "cases" / "taint-and-resources" / "manifests"
DEMO = [ROOT / "fixtures" / "cluster", ROOT / "fixtures" / "workloads"]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}


def in_process(*args: object):
    return CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": "100"})


def real_process(*args: object, **kw):
    return subprocess.run([sys.executable, "-m", "podgroup_plan", *map(str, args)], env=ENV,
                          capture_output=True, text=True, timeout=120, **kw)


ORDINARY_EXIT = "from podgroup_plan.cli import app\napp(prog_name='podgroup-plan')\n"


def ordinary_process(*args: object):
    """The same command line without `main`: typer's app, then the interpreter's own exit."""
    return subprocess.run([sys.executable, "-c", ORDINARY_EXIT, *map(str, args)], env=ENV,
                          capture_output=True, text=True, timeout=120)


COMMANDS = [
    ["simulate", MANIFESTS],
    ["simulate", MANIFESTS, "-o", "json", "--pods", "all"],
    ["simulate", MANIFESTS, "-o", "yaml", "--fail-on", "unschedulable", "--fail-on", "waiting"],
    ["simulate", MANIFESTS, "-o", "markdown"],
    ["simulate", MANIFESTS, "-o", "junit", "--fail-on", "unschedulable"],
    ["validate", MANIFESTS],
    ["diff", MANIFESTS, "--config-b", CONFIGS / "other-scheduler.yaml"],
    ["diff", MANIFESTS, "--config-b", CONFIGS / "default.yaml", "-o", "json"],
    ["explain", TAINTS, "--pod", "data/etl"],
    ["explain", TAINTS, "--pod", "data/nope"],
    ["--version"],
    ["--help"],
    ["simulate", "--help"],
    [],
    ["simulate"],
    ["simulate", MANIFESTS, "-o", "xml"],
    ["simulate", ROOT / "no-such-folder"],
    ["validate", CONFIGS / "unknown-plugin.yaml"],
]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(map(str, a))[-60:] or "(none)")
def test_the_process_writes_and_exits_as_with_the_ordinary_exit(args):
    expected = ordinary_process(*args)
    got = real_process(*args)
    assert (got.returncode, got.stdout, got.stderr) == \
        (expected.returncode, expected.stdout, expected.stderr)


def test_the_exit_codes_above_are_not_all_alike():
    """The comparison above covers every exit code of the contract but the internal error
    (covered by test_cli_robustness in a real process); in-process runs say which is which."""
    codes = {in_process(*args).exit_code for args in COMMANDS}
    assert codes == {0, 1, 2}


def test_output_file_is_whole_when_the_process_has_ended(tmp_path):
    target = tmp_path / "plan.json"
    got = real_process("simulate", *DEMO, "-o", "json", "--output-file", target)
    expected = in_process("simulate", *DEMO, "-o", "json")
    assert got.returncode == 0 and got.stdout == "" and got.stderr == ""
    assert target.read_text() == expected.stdout


def test_a_slow_reader_gets_every_byte():
    """More than a pipe holds (64 KiB): the process blocks in its flush until the reader has
    taken it all, and only then ends."""
    expected = in_process("simulate", *DEMO, "-o", "yaml", "--pods", "all")
    assert len(expected.stdout.encode()) > 2 * 65536 or len(expected.stdout) > 20000
    child = subprocess.Popen([sys.executable, "-m", "podgroup_plan", "simulate", *map(str, DEMO),
                              "-o", "yaml", "--pods", "all"], env=ENV, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
    time.sleep(1.0)  # the child fills the pipe and waits
    out = b""
    while chunk := child.stdout.read(997):
        out += chunk
        time.sleep(0.0005)
    err = child.stderr.read()
    assert child.wait(timeout=120) == expected.exit_code
    assert out.decode() == expected.stdout and err.decode() == expected.stderr


TEARDOWN_PROBE = """\
import atexit, os, sys, threading
class Teardown:
    def __del__(self, write=os.write):
        write(2, b"teardown ran\\n")
probe = Teardown()  # freed only by the interpreter's teardown
atexit.register(lambda: print("atexit ran", file=sys.stderr))
stop = threading.Event()
if sys.argv[1] == "thread":
    threading.Thread(target=stop.wait).start()  # not a daemon: runs until main() returns
import podgroup_plan.cli
import gc, os
real_exit = os._exit
def exit_now(status):
    tasks = len(os.listdir("/proc/self/task")) if os.path.isdir("/proc/self/task") else "?"
    print("threads", threading.active_count(), "blas", os.environ.get("OPENBLAS_NUM_THREADS"),
          "tasks", tasks, "gc", gc.isenabled(), file=sys.stderr)
    sys.stderr.flush()
    real_exit(status)
os._exit = exit_now
sys.argv = ["podgroup-plan", *sys.argv[2:]]
try:
    podgroup_plan.cli.main()
finally:  # reached only when main() lets the interpreter exit
    stop.set()
"""


def probe(*args: object, env: dict | None = None):
    return subprocess.run([sys.executable, "-c", TEARDOWN_PROBE, *map(str, args)],
                          env=env or ENV, capture_output=True, text=True, timeout=120)


def test_the_process_ends_without_teardown_after_atexit_callbacks_with_its_exit_code():
    done = probe("plain", "simulate", MANIFESTS, "-o", "json", "--fail-on", "unschedulable")
    expected = in_process("simulate", MANIFESTS, "-o", "json", "--fail-on", "unschedulable")
    assert done.returncode == expected.exit_code == 1
    assert done.stdout == expected.stdout
    lines = done.stderr.splitlines()
    assert lines[:-2] == expected.stderr.splitlines()
    assert lines[-2] == "atexit ran"
    assert lines[-1].startswith("threads 1 blas 1 tasks ")  # os._exit, no teardown after it
    assert lines[-1].endswith(" gc False")  # no cyclic collections in a run


def test_a_thread_still_running_gets_the_ordinary_exit():
    done = probe("thread", "validate", MANIFESTS)
    assert done.returncode == 0
    assert done.stderr.splitlines() == ["atexit ran", "teardown ran"]


def test_openblas_threads_set_by_the_user_are_kept():
    done = probe("plain", "--version", env={**ENV, "OPENBLAS_NUM_THREADS": "2"})
    assert done.returncode == 0 and done.stdout.startswith("podgroup-plan ")
    assert done.stderr.splitlines()[0] == "atexit ran"
    assert done.stderr.splitlines()[1].startswith("threads 1 blas 2 tasks ")
    assert len(done.stderr.splitlines()) == 2


@pytest.mark.skipif(not Path("/proc/self/task").is_dir() or (os.cpu_count() or 1) < 2,
                    reason="counts threads in /proc, on a machine with more than one core")
def test_numpy_starts_no_blas_threads_under_the_cli():
    """The OS threads of the process as it ends: one; with OpenBLAS allowed two, numpy's import
    starts workers (which is what the default spares)."""
    one = probe("plain", "simulate", MANIFESTS, "-o", "json")
    two = probe("plain", "simulate", MANIFESTS, "-o", "json",
                env={**ENV, "OPENBLAS_NUM_THREADS": "2"})
    assert one.returncode == two.returncode == 0 and one.stdout == two.stdout
    if two.stderr.splitlines()[-1] == "threads 1 blas 2 tasks 1 gc False":
        pytest.skip("this numpy's BLAS starts no threads on import (not OpenBLAS)")
    assert two.stderr.splitlines()[-1] == "threads 1 blas 2 tasks 2 gc False"
    assert one.stderr.splitlines()[-1] == "threads 1 blas 1 tasks 1 gc False"


@pytest.mark.parametrize("code, status", [(None, 0), (0, 0), (1, 1), (2, 2), (3, 3), (True, 1),
                                          (False, 0), ("message", None)])
def test_exit_status_is_what_sys_exit_gives(code, status):
    assert exit_status(code) == status
    if status is not None:
        done = subprocess.run([sys.executable, "-c", f"import sys; sys.exit({code!r})"],
                              timeout=60)
        assert done.returncode == status


@pytest.mark.parametrize("args", [["simulate", MANIFESTS], ["simulate", MANIFESTS, "-o", "json"],
                                  ["validate", MANIFESTS]])
def test_stdout_closed_is_a_write_error_not_a_bug(args):
    """Started with standard output closed (`podgroup-plan ... >&-`): Python gives the process
    no sys.stdout at all; the result cannot be written, which is exit 2 in one line, as for a
    full disk (before: an internal error, exit 3)."""
    done = subprocess.run([sys.executable, "-m", "podgroup_plan", *map(str, args)], env=ENV,
                          stderr=subprocess.PIPE, text=True, timeout=120,
                          preexec_fn=lambda: os.close(1))
    assert done.returncode == 2
    assert done.stderr == "<stdout>: cannot write: Bad file descriptor\n"
