"""How the `podgroup-plan` process runs and ends (`main`, the console-script entry point)."""
from __future__ import annotations

import gc
import os
import sys
import threading

from podgroup_plan.cli import memory
from podgroup_plan.cli.app import EXIT_INTERNAL, app


def main() -> None:
    """Console-script entry point (`podgroup-plan`).

    What only a whole process pays for (issue 16: the demo's whole run in 0.35 s):
    * OpenBLAS, which numpy loads on import, starts a worker thread per core and sizes its
      buffers for them (about 0.05 s of CPU on 2 cores). The planner does no linear algebra
      (no BLAS call anywhere), so one thread is enough; a value the user set is kept.
    * The cyclic garbage collector: loading and `plan()` already turn it off (they allocate
      masses of objects that stay alive, and make no cycles worth collecting); the rest of a run
      (imports, configuration, queue, result, output) is short and makes few cycles, yet paid
      about 80 collections, 0.01 s of the demo. Peak memory is unchanged (10,000 pods).
    * The interpreter's teardown (freeing every module and object, about 0.03 s): once the
      command has ended and its output is flushed, the process ends at once (`_exit_at_once`).

    Running out of memory anywhere, even outside a command's guard (while click unwinds it, or
    as a C extension's SystemError at the address-space limit), is answered with one line and
    exit 2 (cli/memory.py); any other error that escapes is an internal error (exit 3).
    """
    run("podgroup-plan")


def kubectl_main() -> None:
    """Console-script entry point of the kubectl plugin (`kubectl-podgroup_plan`, so that
    `kubectl podgroup-plan ...` runs it): the same commands, named as kubectl shows them."""
    run("kubectl podgroup-plan")


def run(prog_name: str) -> None:
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    gc.disable()
    try:
        memory.take_reserve()
        memory.numpy_first()
        app(prog_name=prog_name)
    except SystemExit as done:
        _exit_at_once(done.code)
        raise
    except MemoryError:
        memory.answer_and_exit()
    except Exception as err:  # noqa: BLE001 - escaped typer itself: never a traceback
        if isinstance(err, SystemError) and memory.at_limit():
            memory.answer_and_exit()
        from podgroup_plan.cli.guard import INTERNAL_ERROR, internal_error_text

        sys.stderr.write(INTERNAL_ERROR + internal_error_text(err) + "\n")
        _exit_at_once(EXIT_INTERNAL)
        raise SystemExit(EXIT_INTERNAL) from None


def exit_status(code: object) -> int | None:
    """The status `sys.exit(code)` gives the process, or None when the interpreter itself would
    print `code` first (a message) and exit 1."""
    if code is None:
        return 0
    if isinstance(code, int):  # bool included, as sys.exit takes it
        return int(code)
    return None


def _exit_at_once(code: object) -> None:
    """End the process with the command's exit status without the interpreter's teardown, as
    mypy does, doing first what the interpreter's exit would do that anyone can see: wait for
    threads that are not daemons (none here: then the ordinary exit), run the `atexit`
    callbacks, flush standard output and error. Returns (and the caller lets the interpreter
    exit as it always did) whenever any of that cannot be done exactly: a message as exit code,
    a thread still running, or a flush that fails (a full disk or a closed pipe then reads as
    the interpreter reports it, exit 120, not as a silent success)."""
    import atexit

    status = exit_status(code)
    run_exitfuncs = getattr(atexit, "_run_exitfuncs", None)
    clear = getattr(atexit, "_clear", None)
    if status is None or run_exitfuncs is None or clear is None:
        return
    if any(t is not threading.main_thread() and t.is_alive() and not t.daemon
           for t in threading.enumerate()):
        return
    if not _flushed():
        return
    run_exitfuncs()
    clear()  # run once, should a flush below fail and the ordinary exit follow
    if not _flushed():
        return
    os._exit(status & 0xFF)


def _flushed() -> bool:
    for stream in (sys.stdout, sys.stderr):
        if stream is None:  # started with the descriptor closed
            continue
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 - whatever it is, the ordinary exit reports it
            return False
    return True
