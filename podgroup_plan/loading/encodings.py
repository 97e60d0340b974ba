"""The text encodings and JSON layouts kubectl reads, told from a file's first bytes.

kubectl (cli-runtime's `FileVisitor`) reads every file through `unicode.BOMOverride`: a UTF-8
or UTF-16 (big- or little-endian) byte-order mark picks the encoding and is dropped, so the
UTF-16 files Windows PowerShell writes for `kubectl get ... > f.yaml` apply as they are. The
planner reads those, and UTF-32 with its mark too (kubectl would not). Without a mark the text
is UTF-8.

`kubectl get -o json -w` writes one JSON object after another (its YAMLOrJSONDecoder reads
such a stream value by value): `json_values` gives them one at a time.

A file whose first byte is NUL is no YAML or JSON text of any encoding kubectl reads (a sparse
file, a disk image, a binary): `binary_start` tells so from the first bytes, before the rest
is read.
"""
from __future__ import annotations

import codecs
from typing import Any, Iterator

import orjson

from podgroup_plan.loading.room import ensure_room_to_parse_json

# Longest first: UTF-32LE's mark begins with UTF-16LE's.
_MARKS = (
    (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32"),
    (codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32"),
    (codecs.BOM_UTF8, "utf-8", "UTF-8"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16"),
)
# The most bytes a mark takes: what a reader must look at first.
MARK_BYTES = 4


def byte_order_mark(head: bytes) -> tuple[str, int, str] | None:
    """(Python codec, length of the mark, the encoding's name) when `head` (the first bytes of
    a file, at least MARK_BYTES when the file has them) starts with a byte-order mark."""
    for mark, codec, name in _MARKS:
        if head.startswith(mark):
            return codec, len(mark), name
    return None


def binary_start(head: bytes) -> bool:
    """Whether a file starting with `head` cannot be text kubectl reads: its first byte is NUL
    and no byte-order mark explains it."""
    return head[:1] == b"\x00" and byte_order_mark(head) is None


class NotText(ValueError):
    """Bytes that are not text in the encoding they claim (or UTF-8): `offset` is the first bad
    byte in the file, `line` its line (counted in the decoded text before it)."""

    def __init__(self, encoding: str, offset: int, line: int):
        super().__init__(f"not {encoding} text (byte {offset})")
        self.encoding, self.offset, self.line = encoding, offset, line


def decode(data: bytes) -> str:
    """A file's bytes as text: UTF-8, or what its byte-order mark says (the mark dropped).
    Raises NotText."""
    found = byte_order_mark(data[:MARK_BYTES])
    codec, skip, name = found if found is not None else ("utf-8", 0, "UTF-8")
    try:
        return codecs.decode(data[skip:], codec) if skip or codec != "utf-8" else data.decode("utf-8")
    except UnicodeDecodeError as e:
        before = codecs.decode(data[skip:skip + e.start], codec, "replace")
        raise NotText(name, skip + e.start, before.count("\n") + 1) from None


def as_utf8(data: bytes) -> tuple[bytes, int]:
    """JSON bytes for orjson, which reads UTF-8 without a mark: (the bytes, how many were
    dropped from the front). UTF-8 text is given back as it is (a mark cut off: a copy only
    then); UTF-16 and UTF-32 are re-encoded. Raises NotText."""
    found = byte_order_mark(data[:MARK_BYTES])
    if found is None:
        return data, 0
    codec, skip, _ = found
    if codec == "utf-8":
        return data[skip:], skip
    return decode(data).encode("utf-8"), 0


def loads(data: Any) -> Any:
    """orjson.loads, but running out of memory is a MemoryError (orjson reports it as invalid
    JSON, "Not enough memory"), never a problem with the input's syntax; a document it has no
    room for is not handed over (loading/room.py: orjson may crash instead)."""
    ensure_room_to_parse_json(len(data))
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as e:
        if "memory" in e.msg.lower():
            raise MemoryError(e.msg) from None
        raise


def json_values(data: bytes) -> Iterator[tuple[Any, int, int]]:
    """Every JSON value of `data` (UTF-8) in order, each with its (first byte, end byte): one
    for an ordinary file, several for a stream of concatenated values (`kubectl get -o json
    -w`). Raises orjson.JSONDecodeError for broken JSON, with `pos` in `data`'s bytes."""
    at, end = 0, len(data)
    while True:
        try:
            yield loads(data[at:] if at else data), _skip_space(data, at), end
            return
        except orjson.JSONDecodeError as e:
            if e.msg != "unexpected content after document":
                raise _moved(e, data, at) from None
            stop = at + e.pos
        # orjson parsed a whole value before `stop` (its `pos` is a byte offset of bytes input)
        yield loads(data[at:stop]), at, stop
        at = _skip_space(data, stop)
        if at >= end:
            return


def _skip_space(data: bytes, at: int) -> int:
    end = len(data)
    while at < end and data[at] in b" \t\r\n":
        at += 1
    return at


def _moved(e: orjson.JSONDecodeError, data: bytes, at: int) -> orjson.JSONDecodeError:
    """`e`, raised on data[at:], told against the whole of `data`."""
    if not at:
        return e
    pos = at + e.pos
    line = data.count(b"\n", 0, pos) + 1
    column = pos - (data.rfind(b"\n", 0, pos) + 1) + 1
    moved = orjson.JSONDecodeError(e.msg, "", 0)
    moved.pos, moved.lineno, moved.colno = pos, line, column
    return moved
