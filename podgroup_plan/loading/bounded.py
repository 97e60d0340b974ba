"""Input read within a limit, and looked at before it is read (issue 25).

Every file, folder entry, `--scheduler-config` and standard input goes through `read_input`:

* a regular file larger than the limit is refused from its size, before a byte is read (a 10 GB
  sparse `zeros.yaml` in a folder once ended in MemoryError);
* a device (`/dev/zero`, `/dev/sda`, also as standard input) is refused unopened or unread; a
  terminal on standard input is read (a user pasting YAML);
* a pipe, a FIFO or standard input is read in chunks up to the limit and refused as soon as it
  passes it (`yes | podgroup-plan simulate -` ends; it cannot take the machine's memory);
* content starting with a NUL byte (a sparse file, a disk image) is refused from its first
  bytes.

The limit is 2 GiB, or `PODGROUP_PLAN_MAX_INPUT` (bytes, or with a suffix: `500Mi`, `4Gi`,
`100M`), per file. The README's "Input limits" names it.
"""
from __future__ import annotations

import mmap
import os
import re
import stat
from typing import IO, Literal, overload

from podgroup_plan.errors import Problem
from podgroup_plan.loading.encodings import MARK_BYTES, binary_start

MAX_INPUT_ENV = "PODGROUP_PLAN_MAX_INPUT"
DEFAULT_MAX_INPUT = 2 << 30
CHUNK = 1 << 20

_AMOUNT = re.compile(r"\s*([0-9]+)\s*(Ki|Mi|Gi|Ti|K|M|G|T|k)?B?\s*")
_UNITS = {None: 1, "k": 10**3, "K": 10**3, "M": 10**6, "G": 10**9, "T": 10**12,
          "Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30, "Ti": 1 << 40}


def max_input() -> int:
    """The limit in bytes: PODGROUP_PLAN_MAX_INPUT when set, else 2 GiB. Raises ValueError
    for a value that is not an amount."""
    text = os.environ.get(MAX_INPUT_ENV)
    if text is None or not text.strip():
        return DEFAULT_MAX_INPUT
    m = _AMOUNT.fullmatch(text)
    if m is None or int(m.group(1)) <= 0:
        raise ValueError(f"{text!r} is not an amount of bytes (e.g. 4Gi, 500Mi, 1000000)")
    return int(m.group(1)) * _UNITS[m.group(2)]


def size_text(n: int) -> str:
    """`2 GiB`, `500 MiB`, `1,000 bytes`: the limit as a person reads it."""
    for unit, name in ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if n >= unit and n % unit == 0:
            return f"{n // unit:,} {name}"
    return f"{n:,} bytes"


def _too_large(limit: int) -> str:
    return (f"larger than the input limit of {size_text(limit)} per file; not read (set "
            f"{MAX_INPUT_ENV} to raise it)")


_NUL_START = ("starts with a NUL byte: not YAML or JSON text (a binary or sparse file?); not "
              "read")


@overload
def read_input(path: str, problems: list[Problem], *, mapped: Literal[False] = False) -> bytes | None: ...


@overload
def read_input(path: str, problems: list[Problem], *, mapped: bool) -> bytes | mmap.mmap | None: ...


def read_input(path: str, problems: list[Problem], *, mapped: bool = False) -> bytes | mmap.mmap | None:
    """The bytes of `path` (a regular file: memory-mapped when `mapped`), or None with a
    problem: too large, a device, starting with NUL, unreadable."""
    try:
        limit = max_input()
    except ValueError as e:
        problems.append(Problem(MAX_INPUT_ENV, str(e)))  # said once, however many files
        return None
    try:
        with open(path, "rb") as fh:
            info = os.fstat(fh.fileno())
            if stat.S_ISREG(info.st_mode):
                if info.st_size > limit:
                    problems.append(Problem(path, _too_large(limit)))
                    return None
                if binary_start(os.pread(fh.fileno(), MARK_BYTES, 0)):
                    problems.append(Problem(path, _NUL_START))
                    return None
                if mapped and info.st_size:
                    return mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
                data = fh.read(info.st_size)  # (asking for more would allocate it first)
                if fh.read(1):
                    problems.append(Problem(path, "grew while it was read; not read"))
                    return None
                return data
            what = _device(info.st_mode, fh)
            if what:
                problems.append(Problem(path, f"{what}, not a file of manifests; not read"))
                return None
            return read_stream(fh, path, problems, limit)
    except (OSError, ValueError) as e:
        problems.append(Problem(path, f"cannot read: {getattr(e, 'strerror', None) or e}"))
        return None


def _device(mode: int, fh: IO[bytes]) -> str | None:
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISCHR(mode) and not fh.isatty():
        return "a character device"
    return None


def read_stream(stream: IO[bytes], name: str, problems: list[Problem],
                limit: int | None = None) -> bytes | None:
    """A pipe, FIFO or standard input, read in chunks: None with a problem as soon as it passes
    the limit (the rest is never read) or when it starts with a NUL byte."""
    if limit is None:
        try:
            limit = max_input()
        except ValueError as e:
            problems.append(Problem(MAX_INPUT_ENV, str(e)))
            return None
    try:
        fileno = stream.fileno()
        info = os.fstat(fileno)
    except (AttributeError, OSError, ValueError):  # not a real file (tests give a buffer)
        info = None
    if info is not None:
        if stat.S_ISREG(info.st_mode) and info.st_size - stream.tell() > limit:
            problems.append(Problem(name, _too_large(limit)))
            return None
        what = _device(info.st_mode, stream)
        if what:
            problems.append(Problem(name, f"{what}, not a stream of manifests; not read"))
            return None
    chunks: list[bytes] = []
    size = 0
    looked = False  # at the first bytes (a pipe may hand them out one by one)
    while True:
        chunk = stream.read(min(CHUNK, limit + 1 - size))
        if chunk:
            chunks.append(chunk)
            size += len(chunk)
        if not looked and (size >= MARK_BYTES or not chunk):
            looked = True
            if binary_start(b"".join(chunks)[:MARK_BYTES]):
                problems.append(Problem(name, _NUL_START))
                return None
        if not chunk:
            return b"".join(chunks)
        if size > limit:
            problems.append(Problem(name, _too_large(limit).replace("; not read",
                                                                    "; the rest was not read")))
            return None
