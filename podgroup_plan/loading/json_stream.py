"""JSON files to documents. A large JSON `List` (`kubectl get -o json`, the API's dumps) is
read through a memory map item by item (`_stream_list`), so that only one item's objects exist
at a time; anything else is parsed whole."""
from __future__ import annotations

import mmap
import re
from typing import Iterator

import orjson

from podgroup_plan.errors import Problem
from podgroup_plan.loading.bounded import read_input
from podgroup_plan.loading.documents import Document, documents_of, item_type
from podgroup_plan.loading.encodings import MARK_BYTES, NotText, as_utf8, byte_order_mark, json_values, loads


def mapped_json_documents(path: str, problems: list[Problem]) -> Iterator[Document]:
    """A JSON file read through a memory map: the streamed items of a large List only ever
    need the pages around the cursor, and pages behind it are given back (`_stream_list`), so
    a 750 MB dump does not stay resident while it is decoded. The file is looked at before it
    is read (loading/bounded.py: its size, a device, NUL bytes first)."""
    data = read_input(path, problems, mapped=True)
    if data is None:
        return
    if byte_order_mark(data[:MARK_BYTES]) is not None:
        # UTF-16/32 (PowerShell) or UTF-8 with a mark: parsed whole from its UTF-8 bytes, so
        # that no item keeps a span of bytes that are not the file's
        try:
            text = as_utf8(data if isinstance(data, bytes) else data[:])[0]
        except NotText as e:
            problems.append(Problem(path, str(e), line=e.line))
            return
        finally:
            if isinstance(data, mmap.mmap):
                data.close()
        yield from _whole(path, text, problems, 0)
        return
    try:
        yield from json_documents(path, data, problems)
    finally:
        if isinstance(data, mmap.mmap):
            try:
                data.close()
            except BufferError:  # a view still open (generator abandoned midway): GC unmaps it
                pass


INVALID_JSON = "invalid JSON: "


def json_documents(path: str, data: bytes | mmap.mmap, problems: list[Problem]) -> Iterator[Document]:
    """The documents of JSON bytes: a large List item by item, anything else parsed whole."""
    try:
        yield from _stream_list(path, data, problems)
        return
    except _NotStreamable as e:
        done = e.done
    # Not the layout `_stream_list` reads (or broken JSON): parse the whole file, skipping the
    # items already given.
    yield from _whole(path, data if isinstance(data, bytes) else data[:], problems, done)


def _whole(path: str, data: bytes, problems: list[Problem], done: int) -> Iterator[Document]:
    """Every JSON value of the file (one, or a stream of them: `kubectl get -o json -w`), the
    first `done` items of the first one (a List) already given."""
    try:
        values = list(json_values(data))
    except orjson.JSONDecodeError as e:
        problems.append(Problem(path, INVALID_JSON + e.msg, line=e.lineno))
        return
    for n, (value, start, end) in enumerate(values):
        if n == 0 and done:
            value["items"] = value["items"][done:]
        line = data.count(b"\n", 0, start) + 1 if n else 1
        # the values after the first are located by their bytes (a stream is no YAML document)
        span = (start, end) if n and not _is_list(value) else None
        yield from documents_of(value, path, n + 1, line, (), None, problems, span=span,
                                first_item=done if n == 0 else 0)


def _is_list(value: object) -> bool:
    kind = value.get("kind") if isinstance(value, dict) else None
    return isinstance(kind, str) and kind.endswith("List")


class _NotStreamable(Exception):
    """The JSON file is not a List written one item per block of lines; `done` items of it
    were already given."""

    def __init__(self, done: int = 0):
        super().__init__(done)
        self.done = done


# `{"apiVersion": "v1", "kind": "PodList", "metadata": {...}, "items": [` : the head of a List
# whose items come before anything nested but a flat metadata (kubectl and the API write this).
_LIST_HEAD = re.compile(
    rb'\s*\{\s*(?:"(?:apiVersion|kind)"\s*:\s*"[^"\\]*"\s*,\s*|"metadata"\s*:\s*\{[^{}]*\}\s*,\s*)*'
    rb'"items"\s*:\s*\[\s*'
)
_SPACE = re.compile(rb"\s*")
_RELEASE_EVERY = 64 << 20  # bytes of a mapped file parsed between two page releases
_OPEN, _CLOSE, _COMMA = ord("{"), ord("]"), ord(",")
_NO_ITEM = object()


def _stream_list(path: str, data: bytes | mmap.mmap, problems: list[Problem]) -> Iterator[Document]:
    """The items of a large JSON List, each parsed on its own, so that only one item's objects
    exist at a time (parsing a 150,000-pod dump whole takes gigabytes).

    Pretty-printed JSON (`kubectl get -o json`, json.dumps(indent=...)) closes an item with a
    line holding only its indentation and `}`; no string can hold that text, since JSON strings
    have no raw line breaks, so it is a real brace, and orjson parsing the slice proves it
    closes the item. Anything else raises `_NotStreamable` and the file is parsed whole."""
    head = _LIST_HEAD.match(data)
    if head is None:
        raise _NotStreamable
    try:
        header = loads(data[: head.end()].rstrip() + b"]}")
    except orjson.JSONDecodeError:
        raise _NotStreamable from None
    item_kind, item_api_version = item_type(header)
    view = memoryview(data)
    release = getattr(data, "madvise", None) if hasattr(mmap, "MADV_DONTNEED") else None
    released = 0
    # Lines are counted only for a file that cannot be read again (a pipe, read into memory):
    # counting an item's line breaks costs half as much as parsing it, and only a problem needs
    # a line, which `FieldLines.line_at` counts from a mapped file then.
    counting = not isinstance(data, mmap.mmap)
    p, count, line, counted = head.end(), 0, None, 0
    shortest: int | None = None  # bytes of the shortest item so far
    skip = 0
    size = len(data)
    start = b""  # a line break and the indentation of the last item's `{`
    close = b""  # a line break, that indentation and `}`: the line that closes an item
    # A dump cut short (a truncated download, a full disk) ends anywhere: every look at the
    # next byte checks the end first; the whole-file parse then reports where the JSON broke.
    while p < size and data[p] == _OPEN:
        if not start or p < len(start) or data[p - len(start):p] != start:
            # (an item indented as the last one needs no search back for its line start)
            line_start = data.rfind(b"\n", 0, p) + 1
            indent = data[line_start:p]
            if indent.strip():
                raise _NotStreamable(count)  # `{` is not the first thing on its line
            start, close = b"\n" + indent, b"\n" + indent + b"}"
        item = _NO_ITEM
        # Search for the closing line from nearly the shortest item's length on: the search
        # itself costs as much as parsing (indentation is mostly the very bytes it looks for).
        # Had it missed this item's end (a shorter item), the slice would hold more than one
        # JSON value and not parse; then the whole item is searched.
        end = data.find(close, p + skip) if skip else -1
        if end >= 0:
            end += len(close)
            try:
                item = loads(view[p:end])
            except orjson.JSONDecodeError:
                pass
        if item is _NO_ITEM:
            end = data.find(close, p)
            if end < 0:
                raise _NotStreamable(count)
            end += len(close)
            try:
                item = loads(view[p:end])
            except orjson.JSONDecodeError:
                raise _NotStreamable(count) from None
        if shortest is None or end - p < shortest:
            shortest = end - p
            # a margin of 1/64: items of one dump differ by a few bytes (names, numbers)
            skip = max(0, shortest - shortest // 64 - len(close))
        if type(item) is not dict:
            raise _NotStreamable(count)  # only the whole file says what the items are
        if item_kind is not None:
            item.setdefault("kind", item_kind)
            item.setdefault("apiVersion", item_api_version)
        elif not ("kind" in item and "apiVersion" in item):
            raise _NotStreamable(count)
        if counting:
            line = (line or 1) + view[counted:p].tobytes().count(b"\n")
            counted = p
        if release is not None and p - released >= _RELEASE_EVERY:
            # give the pages already parsed back to the system (file-backed: reread if needed)
            upto = p - p % mmap.PAGESIZE
            release(mmap.MADV_DONTNEED, released, upto - released)
            released = upto
        kind = item["kind"]
        if type(kind) is str and kind.endswith("List") and isinstance(item.get("items"), list):
            yield from documents_of(item, path, 1, line, (count,), None, problems, span=(p, end))
        else:  # `documents_of` for the usual item, an object, without a generator
            yield Document(item, path, 1, line, (count,), (p, end))
        count += 1
        p = _skip_space(data, end)
        if p >= size or data[p] != _COMMA:
            break
        p = _skip_space(data, p + 1)
    if p >= size or data[p] != _CLOSE:
        raise _NotStreamable(count)
    try:  # the rest of the envelope must be JSON too
        loads(data[: head.end()] + data[p:])
    except orjson.JSONDecodeError:
        raise _NotStreamable(count) from None


def _skip_space(data: bytes | mmap.mmap, at: int) -> int:
    """The first byte at or after `at` that is not white space (`_SPACE` always matches)."""
    space = _SPACE.match(data, at)
    return space.end() if space is not None else at
