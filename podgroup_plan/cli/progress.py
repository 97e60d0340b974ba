"""Progress on stderr for a long run: a bar for the plan (`ProgressBar`, `plan()`'s progress
callback) and a spinner for reading the manifests (`DelayedStatus`), each shown only once the
step has run for `PROGRESS_DELAY` seconds (a quick run prints nothing). rich is imported only
when one is shown."""
from __future__ import annotations

import threading
import time
from typing import Any, Callable

# The progress bar appears only if the plan is still running after this many seconds.
PROGRESS_DELAY = 0.5


class ProgressBar:
    """`plan()`'s progress callback: a rich bar on stderr, shown only once the plan has run for
    `delay` seconds (a quick plan prints nothing), removed when the plan ends."""

    def __init__(self, label: str = "Planning", delay: float = PROGRESS_DELAY,
                 clock: Callable[[], float] = time.monotonic, console: Any = None):
        self.label = label
        self.delay = delay
        self.clock = clock
        self.console = console
        self.started = clock()
        self._progress: Any = None
        self._task: Any = None

    def __call__(self, done: int, total: int) -> None:
        if self._progress is None:
            if self.clock() - self.started < self.delay:
                return
            self._start(total)
        self._progress.update(self._task, completed=done, total=total)

    def _start(self, total: int) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        console = self.console if self.console is not None else Console(stderr=True)
        self._progress = Progress(TextColumn("{task.description}"), BarColumn(),
                                  MofNCompleteColumn(), TimeElapsedColumn(),
                                  console=console, transient=True)
        self._progress.start()
        self._task = self._progress.add_task(self.label, total=total)

    @property
    def shown(self) -> bool:
        return self._progress is not None

    def close(self) -> None:
        if self._progress is not None:
            self._progress.stop()


class DelayedStatus:
    """A rich spinner on stderr for a step without progress reports (reading the manifests),
    shown only if the step is still running after `delay` seconds."""

    def __init__(self, message: str, delay: float = PROGRESS_DELAY, console: Any = None):
        self.message = message
        self.delay = delay
        self.console = console
        self._lock = threading.Lock()
        self._status: Any = None
        self._done = False
        self._timer = threading.Timer(delay, self._show)
        self._timer.daemon = True

    def __enter__(self) -> "DelayedStatus":
        self._timer.start()
        return self

    def _show(self) -> None:
        from rich.console import Console

        with self._lock:
            if self._done:
                return
            console = self.console if self.console is not None else Console(stderr=True)
            self._status = console.status(self.message)
            self._status.start()

    @property
    def shown(self) -> bool:
        return self._status is not None

    def __exit__(self, *exc: object) -> None:
        self._timer.cancel()
        with self._lock:
            self._done = True
            if self._status is not None:
                self._status.stop()
