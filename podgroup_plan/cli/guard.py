"""Errors at the command line's edge: bad input (every problem on stderr, exit 2), and anything
else that escapes a command, which is a bug (one line, exit 3, the traceback only with
`--debug`). `collect`/`gather` run every step of a command even when an earlier one found
problems, so that one run lists them all."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Iterator

import typer

from podgroup_plan.cli.app import EXIT_INPUT, EXIT_INTERNAL
from podgroup_plan.errors import InputError, Problem, escape_controls

INTERNAL_ERROR = ("podgroup-plan: internal error (a bug); please report it with the input and the "
                  "--debug output: ")


@contextmanager
def guard(debug: bool) -> Iterator[None]:
    """Anything but bad input, a usage error or an exit that escapes a command is a bug: one line
    on stderr and exit 3 (docs/contract.md), with the traceback only under `--debug`. A broken
    pipe is not a bug: `podgroup-plan ... | head` ends quietly (`write`)."""
    # Usage errors derive from the ClickException of the click typer uses: recent typers vendor
    # their own (`typer._click`) and do not install `click` at all, older ones use `click`.
    usage_error: type[Exception] = next(
        c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")
    out_of_memory = False
    try:
        yield
    except (typer.Exit, typer.Abort, usage_error):
        raise
    except MemoryError:
        out_of_memory = True  # answered below, once the failed step's frames are let go
    except Exception as err:  # noqa: BLE001 - the point: no traceback reaches a user
        from podgroup_plan.cli import memory

        if memory.is_memory_failure(err):  # a C extension's SystemError at the limit
            out_of_memory = True  # answered below, as a MemoryError is
        else:
            internal_error(err, debug)
    if out_of_memory:
        not_enough_memory()


def internal_error(err: Exception, debug: bool) -> None:
    """One line, exit 3; the traceback first under --debug."""
    if debug:
        import traceback

        text = "".join(traceback.format_exception(err))
        typer.echo("\n".join(escape_controls(line) for line in text.split("\n")), err=True, nl=False)
    typer.echo(INTERNAL_ERROR + internal_error_text(err), err=True)
    raise typer.Exit(EXIT_INTERNAL) from None


def not_enough_memory() -> None:
    """A MemoryError, wherever it was raised: bad input (too large for this machine or its
    memory limit), exit 2 with how much the process had used, never an internal error. The
    start-up reserve is let go first (cli/memory.py); should even this answer run out of
    memory, it is written straight to the descriptor and the process ends (exit 2)."""
    import gc

    from podgroup_plan.cli import memory

    memory.release_reserve()
    gc.collect()  # what the failed step built is garbage now: room to print
    try:
        typer.echo(memory.message(), err=True)
    except MemoryError:
        memory.answer_and_exit()
    raise typer.Exit(EXIT_INPUT)


def internal_error_text(err: BaseException) -> str:
    """`Type: message` on one line, cut when long, control characters escaped (a message may
    quote the input)."""
    from podgroup_plan.errors import shorten

    message = escape_controls(" ".join(str(err).split()))
    return f"{type(err).__name__}: {shorten(message)}" if message else type(err).__name__


@contextmanager
def input_errors() -> Iterator[None]:
    """Bad input: every problem on stderr, one per line, and exit 2."""
    try:
        yield
    except InputError as err:
        lines = [str(p) for p in err.problems] if err.problems else [str(err)]
        for line in dict.fromkeys(lines):  # the same problem found twice is listed once
            typer.echo(line, err=True)
        raise typer.Exit(EXIT_INPUT) from None


def collect(*steps: Callable[[], Any]) -> list[Any]:
    """Run every step even when an earlier one raised InputError, so that all problems are
    reported together; raise one InputError carrying all of them."""
    values, problems = gather(*steps)
    if problems:
        raise InputError(problems)
    return values


def gather(*steps: Callable[[], Any]) -> tuple[list[Any], list[Problem]]:
    """Every step's value (for a step that raised InputError, what it could read despite the
    problems, or None) and every problem."""
    problems: list[Problem] = []
    values = []
    for step in steps:
        try:
            values.append(step())
        except InputError as err:
            problems.extend(err.problems)
            values.append(err.partial)
    return values, problems
