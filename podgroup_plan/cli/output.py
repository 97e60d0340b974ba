"""Writing a command's output: to standard output or to `--output-file` (replaced atomically),
a write error reported in one line with exit 2, a broken pipe ended quietly; and the width and
terminal tests the renderers are chosen by."""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Callable

import typer

from podgroup_plan.cli.app import EXIT_INPUT

# The name write errors on standard output are reported under.
STDOUT_NAME = "<stdout>"

# Width of table output when neither COLUMNS nor a terminal says (contract.md).
DEFAULT_WIDTH = 80


def table_width() -> int:
    """The contract's width for `-o table`: COLUMNS when set (also when the output is
    redirected), else the terminal's, else 80."""
    import shutil

    return shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns or DEFAULT_WIDTH


def to_terminal(output_file: Path | None) -> bool:
    return output_file is None and is_terminal(sys.stdout)


def is_terminal(stream: Any) -> bool:
    """False also for a stream the process was started without (`>&-`, `2>&-`: then None)."""
    return stream is not None and stream.isatty()



def write(text: str, output_file: Path | None) -> None:
    """The result, to `output_file` (replaced atomically: a reader never sees half a result, and
    a failed write leaves the old file as it was) or to standard output. A write error is
    reported in one line with exit 2; a broken pipe on standard output ends quietly."""
    if output_file is None:
        to_stdout(lambda: typer.echo(text, nl=False))
        return
    try:
        write_atomically(output_file, text)
    except OSError as err:
        write_failed(str(output_file), err)


def to_stdout(write: Callable[[], Any]) -> None:
    if sys.stdout is None:  # started with standard output closed (`>&-`): nowhere to write
        import errno

        write_failed(STDOUT_NAME, OSError(errno.EBADF, os.strerror(errno.EBADF)))
    try:
        write()
        sys.stdout.flush()  # a full disk shows at the flush, not at interpreter exit
    except BrokenPipeError:
        silence_stdout()
    except OSError as err:
        silence_stdout()
        write_failed(STDOUT_NAME, err)


def write_atomically(target: Path, text: str) -> None:
    """Write `text` to a new file beside `target`, then rename it over `target` (a regular
    file, or none yet); anything else is written in place."""
    import stat
    import tempfile

    target = Path(os.path.realpath(target))  # replace a symlink's target, not the link
    try:
        info = target.stat()
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    else:
        if not stat.S_ISREG(info.st_mode):
            # a pipe (`--output-file >(jq .)`), a terminal, /dev/null or /dev/full: written in
            # place; renaming over it would replace the device with a file
            with open(target, "w", encoding="utf-8") as fh:
                fh.write(text)
            return
        mode = info.st_mode & 0o777
    fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def write_failed(name: str, err: OSError) -> None:
    from podgroup_plan.errors import escape_controls

    typer.echo(escape_controls(f"{name}: cannot write: {err.strerror or err}"), err=True)
    raise typer.Exit(EXIT_INPUT) from None


def silence_stdout() -> None:
    """After a failed write, point stdout at /dev/null so that the interpreter's own flush at
    exit neither fails again nor prints "Exception ignored"."""
    try:
        fileno = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file (tests capture it)
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fileno)
    os.close(devnull)
