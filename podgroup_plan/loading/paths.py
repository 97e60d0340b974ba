"""Paths to files: what `kubectl apply -f PATH -R` reads from the command line's PATHs
(files, folders walked recursively, `-` for standard input)."""
from __future__ import annotations

import os
import stat
from typing import Iterable, Sequence

from podgroup_plan.errors import Problem

STDIN = "-"
STDIN_NAME = "<stdin>"
MANIFEST_SUFFIXES = (".yaml", ".yml", ".json")


def expand_paths(paths: Sequence[str]) -> tuple[list[str], list[Problem]]:
    """The files to read: each PATH in the order given, folders walked recursively in sorted
    order, keeping `.yaml`/`.yml`/`.json` files and skipping hidden entries (`.git`, ...).
    A file named twice is read once. A subfolder that cannot be listed and an entry of a folder
    that is not a regular file (a named pipe would block the run) are problems, not silence; a
    PATH named on the command line may be a pipe (`simulate <(kubectl get pods -o yaml)`)."""
    files: list[str] = []
    problems: list[Problem] = []
    seen: set[str] = set()

    def add(path: str) -> None:
        key = path if path == STDIN else os.path.realpath(path)
        if key not in seen:
            seen.add(key)
            files.append(path)

    for path in paths:
        if path == STDIN:
            add(path)
        elif os.path.isdir(path):
            walked: list[Problem] = []
            found = sorted(_walk(path, walked))
            problems += walked
            if not found and not walked:
                problems.append(Problem(path, "folder holds no .yaml, .yml or .json files"))
            for f in found:
                add(f)
        elif os.path.exists(path):
            add(path)
        else:
            problems.append(Problem(path, "no such file or folder"))
    return files, problems


def _walk(folder: str, problems: list[Problem]) -> Iterable[str]:
    def unreadable(err: OSError) -> None:
        problems.append(Problem(err.filename or folder, f"cannot read folder: {err.strerror or err}"))

    for root, dirs, names in os.walk(folder, onerror=unreadable):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in names:
            if not name.startswith(".") and name.endswith(MANIFEST_SUFFIXES):
                path = os.path.join(root, name)
                what = _not_regular(path)
                if what:
                    problems.append(Problem(path, f"not a regular file ({what}); a folder is read "
                                                  "for regular files only"))
                else:
                    yield path


def _not_regular(path: str) -> str | None:
    """What `path` is when it is not a regular file (following symlinks), else None."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None  # a dangling link or a race: reading it reports the error
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a file"


def same_file(a: str, b: str) -> bool:
    """Whether two paths name the same file (links followed)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)
