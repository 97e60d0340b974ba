"""Running out of memory is bad input (exit 2, one line), never a traceback, a crash or exit 1.

What made a memory failure escape the command's guard (issue 25, tried under `ulimit -v`):
* The answer itself needs memory: formatting and printing the line, importing `resource`, and
  click and typer unwinding the command all allocate. A **reserve** taken at start-up is let go
  first, so that the answer has room; the line is written with `os.write`.
* A C extension that runs out of memory part-way may return NULL without an exception: Python
  raises `SystemError` (seen escaping typer's `Command.__call__` at 150-195 MiB). Such an error
  while the process is at its address-space limit is a memory failure too.
* OpenBLAS, loaded with numpy, allocates its buffers when numpy is imported and, when it cannot,
  prints `OpenBLAS error: Memory allocation still failed` and calls `exit(1)`: no Python code
  runs. The planner imports numpy late (start-up, issue 16); under an address-space limit it is
  imported at start instead (`numpy_first`), while there is room, and refused cleanly when the
  limit leaves no room for it.

A limit that kills the process from outside (the kernel's OOM killer, a cgroup) cannot be
answered by any process; the planner's own limits (loading/bounded.py, controllers/limits.py)
keep ordinary inputs far from it.
"""
from __future__ import annotations

import os
import sys

from podgroup_plan.cli.app import EXIT_INPUT

RESERVE_BYTES = 16 << 20  # room to answer in: let go before the message is built
# Address space numpy (with OpenBLAS's buffers) takes on import: 85 MiB measured with
# OPENBLAS_NUM_THREADS=1 (VmSize before and after `import numpy`), rounded up.
NUMPY_ROOM = 96 << 20
MESSAGE = "podgroup-plan: not enough memory to plan this input"

_reserve: bytearray | None = None


def take_reserve() -> None:
    global _reserve
    _reserve = bytearray(RESERVE_BYTES)


def release_reserve() -> None:
    global _reserve
    _reserve = None


def _limited() -> bool:
    """Whether an address-space limit is set (asked without loading the loading package, which
    a run that is only `--help` does not need)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return False
    return resource.getrlimit(resource.RLIMIT_AS)[0] != resource.RLIM_INFINITY


def numpy_first() -> None:
    """Under an address-space limit, import numpy now (OpenBLAS takes its buffers while there is
    room), or raise MemoryError when the limit leaves no room for it: OpenBLAS would end the
    process with exit 1."""
    if "numpy" in sys.modules or not _limited():
        return
    from podgroup_plan.loading.room import room_left

    left = room_left()
    if left is None:
        return
    if left < NUMPY_ROOM:
        raise MemoryError("no room for numpy under the address-space limit")
    import numpy  # noqa: F401 - imported for its side effect: OpenBLAS's buffers taken now


def is_memory_failure(err: BaseException) -> bool:
    """A MemoryError, or a SystemError that a C extension left behind when it ran out of memory
    (one caused by a MemoryError, or raised at the address-space limit)."""
    if isinstance(err, MemoryError):
        return True
    if not isinstance(err, SystemError):
        return False
    cause = err.__cause__ or err.__context__
    while cause is not None:
        if isinstance(cause, MemoryError):
            return True
        cause = cause.__cause__ or cause.__context__
    return at_limit()


def at_limit() -> bool:
    """Whether the process has come within the reserve's size of its address-space limit: a
    SystemError then is a C extension that ran out of memory."""
    if not _limited():
        return False
    from podgroup_plan.loading.room import address_space_limit, status_kib

    limit = address_space_limit()
    peak = status_kib("VmPeak")
    return limit is not None and peak is not None and peak * 1024 >= limit - 2 * RESERVE_BYTES


def used_mib() -> int | None:
    """The process's peak resident memory in MiB, where the platform tells it."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux, bytes on macOS
    return round(peak / (1 << 20 if sys.platform == "darwin" else 1 << 10))


def message() -> str:
    used = used_mib()
    return MESSAGE + (f" ({used:,} MiB used)" if used is not None else "")


def answer_and_exit() -> None:
    """The out-of-memory answer from anywhere, with as little memory as can be: the reserve let
    go, the line written straight to descriptor 2, the process ended at once (exit 2). Standard
    output is not flushed: a plan cut short is no answer."""
    release_reserve()
    import gc

    gc.collect()
    try:
        line = message() + "\n"
    except MemoryError:
        line = MESSAGE + "\n"
    try:
        os.write(2, line.encode())
    except OSError:
        pass
    os._exit(EXIT_INPUT)
