"""Reading manifests: paths to documents, and documents back to file lines.

What `kubectl apply -f PATH -R` accepts, minus the network: files and folders (recursive), YAML
streams of several documents, JSON, and the `List` / `*List` envelopes that `kubectl get -o yaml`
and the API write. Each object keeps where it came from (file, 1-based document, line) so that a
Problem can point at it.

Speed and memory matter here (a 150,000-pod dump must load at tens of thousands of documents per
second), so the happy path parses each file once, hands out objects one at a time (the items of
a large JSON List are parsed one by one), and keeps only where each object starts (its line; for
the items of a JSON List, their bytes). The line of an individual field is found only when
something is wrong with it: `FieldLines` re-composes the object's text then.
"""
from __future__ import annotations

import bisect
import math
import mmap
import os
import re
import stat
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Mapping, NamedTuple, Sequence

import orjson
import yaml
from yaml.events import (
    AliasEvent,
    DocumentEndEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)

from podgroup_plan.errors import Problem
from podgroup_plan.loading.aliases import aliasing_problem, too_aliased

try:  # libyaml: a C parser; the constructor (dicts, lists) stays PyYAML's own.
    _BaseLoader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    _BaseLoader = yaml.SafeLoader  # type: ignore[misc,assignment]

STDIN = "-"
STDIN_NAME = "<stdin>"
MANIFEST_SUFFIXES = (".yaml", ".yml", ".json")

Path = tuple  # a JSON path: keys (str) and list indexes (int), outermost first


_STR = "tag:yaml.org,2002:str"
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"
_INT = "tag:yaml.org,2002:int"
_NULL = "tag:yaml.org,2002:null"
_BOOL = "tag:yaml.org,2002:bool"
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_MERGE = "tag:yaml.org,2002:merge"
_PLAIN_INT = re.compile(r"[-+]?(0|[1-9][0-9]*)")
_RESOLVED: dict[str, str] = {}  # plain scalar text -> tag; the same keys recur in every object


class _Loader(_BaseLoader):  # type: ignore[misc,valid-type]
    """SafeLoader with two changes.

    * Timestamps stay text, as the apiserver's YAML-to-JSON step keeps them
      (`creationTimestamp: 2025-01-01T00:00:00Z` unquoted must not become a datetime).
    * A faster construction for the tags manifests use (`construct`), and a memo of implicit
      tag resolution: PyYAML's generic constructor and resolver cost more than libyaml's
      parsing itself. Anything unusual (merge keys, !!binary, !!set, odd integer forms) goes
      through PyYAML's own code, so the result is the same.
    """

    def resolve(self, kind: Any, value: Any, implicit: Any) -> str:
        if kind is yaml.ScalarNode and implicit[0]:  # a plain scalar: its tag depends on its text
            tag = _RESOLVED.get(value)
            if tag is None:
                if len(_RESOLVED) > 100_000:
                    _RESOLVED.clear()
                tag = _RESOLVED[value] = super().resolve(kind, value, implicit)
            return tag
        return super().resolve(kind, value, implicit)

    def construct(self, node: yaml.Node, memo: dict[int, Any]) -> Any:
        tag = node.tag
        if tag == _STR or tag == _TIMESTAMP:
            return node.value
        if tag == _MAP:
            if id(node) in memo:  # an alias: share the object, as PyYAML does
                return memo[id(node)]
            out: dict = {}
            memo[id(node)] = out
            for key_node, value_node in node.value:
                if key_node.tag == _MERGE:
                    memo[id(node)] = out = self.construct_object(node, deep=True)
                    return out
                key = self.construct(key_node, memo)
                try:
                    out[key] = self.construct(value_node, memo)
                except TypeError:
                    raise yaml.constructor.ConstructorError(
                        "while constructing a mapping", node.start_mark,
                        "found unhashable key", key_node.start_mark,
                    ) from None
            return out
        if tag == _SEQ:
            if id(node) in memo:
                return memo[id(node)]
            items: list = []
            memo[id(node)] = items
            items.extend(self.construct(v, memo) for v in node.value)
            return items
        if tag == _INT and _PLAIN_INT.fullmatch(node.value):
            return int(node.value)
        if tag == _NULL:
            return None
        if tag == _BOOL:
            return self.bool_values[node.value.lower()]
        return self.construct_object(node, deep=True)


_Loader.add_constructor(_TIMESTAMP, _BaseLoader.construct_yaml_str)


@dataclass(slots=True)
class Document:
    """One Kubernetes object read from the input, and where it starts.

    `document` is the 1-based YAML document in the file; objects inside a `List` share it and
    differ in `items` (their index path through nested Lists). `line` is None where it is not
    known without more reading (the items of a JSON List); `FieldLines` finds it when a problem
    needs it.
    """

    obj: dict
    file: str
    document: int
    line: int | None
    items: tuple[int, ...] = ()
    # For an item of a JSON List read on its own: (first byte, end byte) of the item that holds
    # this object (items[0]), so that its lines are found without parsing the whole file.
    span: tuple[int, int] | None = None
    kind: str = field(init=False)  # "" when missing or not a string
    api_version: str = field(init=False)

    def __post_init__(self) -> None:
        kind, api_version = self.obj.get("kind"), self.obj.get("apiVersion")
        self.kind = kind if isinstance(kind, str) else ""
        self.api_version = api_version if isinstance(api_version, str) else ""

    @property
    def metadata(self) -> dict:
        m = self.obj.get("metadata")
        return m if isinstance(m, dict) else {}


class Issue(NamedTuple):
    """A problem found in a Document, before it is located: `path` is the JSON path of the
    field (empty: the whole object); `also` names other objects the message refers to (the
    other copy of a duplicate), whose places are added to the message once lines are known."""

    doc: Document
    path: Path
    message: str
    also: tuple[Document, ...] = ()


# --- paths -> files ----------------------------------------------------------------------------


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


# --- files -> documents ------------------------------------------------------------------------


def iter_documents(
    paths: Sequence[str], stdin_text: str | None = None, problems: list[Problem] | None = None
) -> Iterator[Document]:
    """Every object in `paths` (Lists unpacked), one at a time, so that a caller can check and
    decode each before the next is parsed. What keeps something from being read (missing files,
    YAML/JSON syntax, documents that are not objects) is appended to `problems`."""
    problems = problems if problems is not None else []
    files, found = expand_paths(paths)
    problems += found
    for path in files:
        if path == STDIN:
            text = stdin_text if stdin_text is not None else sys.stdin.read()
            yield from read_text(STDIN_NAME, text, problems)
        else:
            yield from read_file(path, problems)


def read_documents(
    paths: Sequence[str], stdin_text: str | None = None
) -> tuple[list[Document], list[Problem]]:
    """`iter_documents` as a list, with the problems."""
    problems: list[Problem] = []
    docs = list(iter_documents(paths, stdin_text, problems))
    return docs, problems


def read_file(path: str, problems: list[Problem]) -> Iterator[Document]:
    # The JSON reader's own generator, not one more level of `yield from` per document.
    return _mapped_json_documents(path, problems) if path.endswith(".json") else _yaml_file(path, problems)


def _yaml_file(path: str, problems: list[Problem]) -> Iterator[Document]:
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as e:
        problems.append(Problem(path, f"cannot read: {e.strerror or e}"))
        return
    text = decode_text(path, data, problems)
    if text is not None:
        yield from _yaml_documents(path, text, problems)


def decode_text(name: str, data: bytes, problems: list[Problem]) -> str | None:
    """A file's bytes as text (UTF-8, a byte-order mark allowed), or None with a problem."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        problems.append(Problem(name, f"not UTF-8 text (byte {e.start})", line=line))
        return None


def read_text(name: str, text: str, problems: list[Problem]) -> Iterator[Document]:
    """Text whose format is not told by a file name (stdin): JSON if it parses as JSON."""
    if text.lstrip()[:1] in ("{", "["):
        try:
            value = orjson.loads(text)
        except orjson.JSONDecodeError:
            pass  # YAML flow style or broken JSON: the YAML parser tells which, with a line
        else:
            yield from _objects(value, name, 1, 1, (), None, problems)
            return
    yield from _yaml_documents(name, text, problems)


def _mapped_json_documents(path: str, problems: list[Problem]) -> Iterator[Document]:
    """A JSON file read through a memory map: the streamed items of a large List only ever
    need the pages around the cursor, and pages behind it are given back (`_stream_list`), so
    a 750 MB dump does not stay resident while it is decoded."""
    try:
        with open(path, "rb") as fh:
            info = os.fstat(fh.fileno())
            if not stat.S_ISREG(info.st_mode):  # a pipe (`<(kubectl get ... -o json)`): no map
                data: bytes | mmap.mmap = fh.read()
            elif info.st_size == 0:
                data = b""
            else:
                data = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError) as e:
        problems.append(Problem(path, f"cannot read: {getattr(e, 'strerror', None) or e}"))
        return
    try:
        yield from _json_documents(path, data, problems)
    finally:
        if isinstance(data, mmap.mmap):
            try:
                data.close()
            except BufferError:  # a view still open (generator abandoned midway): GC unmaps it
                pass


def _json_documents(path: str, data: bytes | mmap.mmap, problems: list[Problem]) -> Iterator[Document]:
    try:
        yield from _stream_list(path, data, problems)
        return
    except _NotStreamable as e:
        done = e.done
    # Not the layout `_stream_list` reads (or broken JSON): parse the whole file, skipping the
    # items already given.
    try:
        value = orjson.loads(data if isinstance(data, bytes) else data[:])
    except orjson.JSONDecodeError as e:
        problems.append(Problem(path, f"invalid JSON: {e.msg}", line=e.lineno))
        return
    if done:
        value["items"] = value["items"][done:]
    yield from _objects(value, path, 1, 1, (), None, problems, first_item=done)


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


def _stream_list(path: str, data: bytes, problems: list[Problem]) -> Iterator[Document]:
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
        header = orjson.loads(data[: head.end()].rstrip() + b"]}")
    except orjson.JSONDecodeError:
        raise _NotStreamable from None
    item_kind, item_api_version = _item_type(header)
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
                item = orjson.loads(view[p:end])
            except orjson.JSONDecodeError:
                pass
        if item is _NO_ITEM:
            end = data.find(close, p)
            if end < 0:
                raise _NotStreamable(count)
            end += len(close)
            try:
                item = orjson.loads(view[p:end])
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
            yield from _objects(item, path, 1, line, (count,), None, problems, span=(p, end))
        else:  # `_objects` for the usual item, an object, without a generator
            yield Document(item, path, 1, line, (count,), (p, end))
        count += 1
        p = _SPACE.match(data, end).end()
        if p >= size or data[p] != _COMMA:
            break
        p = _SPACE.match(data, p + 1).end()
    if p >= size or data[p] != _CLOSE:
        raise _NotStreamable(count)
    try:  # the rest of the envelope must be JSON too
        orjson.loads(data[: head.end()] + data[p:])
    except orjson.JSONDecodeError:
        raise _NotStreamable(count) from None


def _item_type(envelope: Mapping) -> tuple[str | None, str | None]:
    """`kubectl get -o yaml` writes `kind: List` with complete items; the API's own `PodList`
    omits apiVersion/kind in the items, which are those of the list without "List"."""
    kind = envelope.get("kind")
    if isinstance(kind, str) and kind.endswith("List") and kind != "List":
        return kind[: -len("List")], envelope.get("apiVersion")
    return None, None


def _yaml_documents(path: str, text: str, problems: list[Problem]) -> Iterator[Document]:
    """The documents of a YAML stream: built straight from libyaml's events first (no node
    tree, only the lines of the objects themselves, see `_EventBuilder`). A document with an
    aliased collection is read again, from there on, by the same builder counting go-yaml's
    alias budget as it goes (`_BudgetBuilder`: tools such as PyYAML's dumper write anchors for
    repeated values). A stream using a feature those leave out, or one the budget may refuse,
    is read again from the first document not yet given, through PyYAML's node composer and
    constructor (`_node_documents`), which decides and words the refusal."""
    try:
        yield from _event_documents(path, text, problems)
        return
    except _Unusual as e:
        done, aliased = e.documents_done, e.aliased
    if aliased:
        try:
            yield from _event_documents(path, text, problems, skip=done, budget=True)
            return
        except _Unusual as e:
            done = e.documents_done
    yield from _node_documents(path, text, problems, skip=done)


class _Unusual(Exception):
    """A YAML feature the event builder leaves to PyYAML's constructor (merge keys, explicit
    collection tags, complex keys, undefined aliases: errors are PyYAML's own this way).
    `aliased`: the feature was an alias to a collection, which `_BudgetBuilder` reads."""

    def __init__(self, documents_done: int = 0, aliased: bool = False):
        self.documents_done = documents_done
        self.aliased = aliased


class _AliasedCollection(_Unusual):
    """An alias to a mapping or a list: the alias budget must be counted."""


def _event_documents(path: str, text: str, problems: list[Problem], skip: int = 0,
                     budget: bool = False) -> Iterator[Document]:
    """The documents after the first `skip` (only parsed), built by `_EventBuilder`, or with
    `budget` by `_BudgetBuilder`."""
    loader = _Loader(text)
    document = 0
    try:
        builder = _BudgetBuilder(loader) if budget else _EventBuilder(loader)
        get = builder.get
        get_event = loader.get_event
        get_event()  # StreamStart
        while type(get_event()) is DocumentStartEvent:
            document += 1
            if document <= skip:
                while type(get_event()) is not DocumentEndEvent:
                    pass
                continue
            builder.start_document()
            root = get()
            try:
                value = builder.build(root)
            except RecursionError:  # too deep for Python: the node path says so
                raise _Unusual(document - 1) from None
            except _Unusual as e:
                raise _Unusual(document - 1, aliased=isinstance(e, _AliasedCollection)) from None
            get_event()  # DocumentEnd
            if value is None:  # empty document (only comments, or `---` twice)
                continue
            item_lines, builder.item_lines = builder.item_lines, {}
            yield from _objects(value, path, document, root.start_mark.line + 1, (), item_lines, problems)
    except yaml.MarkedYAMLError as e:
        problems.append(_yaml_problem(path, e))
    except yaml.YAMLError as e:  # a reader error (a control character): marked by position
        problems.append(_unmarked_yaml_problem(path, text, e))
    finally:
        loader.dispose()


_PLAIN_MEMO: dict[str, Any] = {}  # plain scalar text -> its value, for the immutable ones
_NO_VALUE = object()


class _EventBuilder:
    """Builds one document's value from libyaml's events, as `_Loader.construct` would from
    the composed nodes, but without creating a node (and its two marks) per scalar: the
    happy path of a large YAML dump is about twice the parse time instead of three times.
    Only the line of each object (the document root and the items of `List` envelopes) is
    kept; a field's line is found by `FieldLines` when a problem needs it."""

    def __init__(self, loader: _Loader):
        self.loader = loader
        self.get = loader.get_event
        self.anchors: dict[str, Any] = {}
        # id(items list of a List envelope) -> the line of each item
        self.item_lines: dict[int, list[int]] = {}

    def start_document(self) -> None:
        self.anchors = {}  # anchors are local to their document

    def scalar(self, ev: ScalarEvent) -> Any:
        tag = ev.tag
        value = ev.value
        if tag is None or tag == "!":
            if not ev.implicit[0]:
                return value  # quoted: a string
            known = _PLAIN_MEMO.get(value, _NO_VALUE)
            if known is not _NO_VALUE:
                return known
            tag = self.loader.resolve(yaml.ScalarNode, value, ev.implicit)
            if tag == _STR or tag == _TIMESTAMP:
                result: Any = value
            elif tag == _INT and _PLAIN_INT.fullmatch(value):
                result = int(value)
            elif tag == _NULL:
                result = None
            elif tag == _BOOL:
                result = self.loader.bool_values[value.lower()]
            else:
                return self._construct(tag, ev)
            if len(_PLAIN_MEMO) > 100_000:
                _PLAIN_MEMO.clear()
            _PLAIN_MEMO[value] = result
            return result
        if tag == _STR or tag == _TIMESTAMP:
            return value
        return self._construct(tag, ev)

    def _construct(self, tag: str, ev: ScalarEvent) -> Any:
        # floats, !!binary, odd integer forms, unknown tags (PyYAML's error): its constructor
        node = yaml.ScalarNode(tag, ev.value, ev.start_mark, ev.end_mark, ev.style)
        try:
            return self.loader.construct_object(node, deep=True)
        finally:
            self.loader.constructed_objects.clear()

    def build(self, ev: Any) -> Any:
        kind = type(ev)
        if kind is ScalarEvent:
            value = self.scalar(ev)
        elif kind is MappingStartEvent:
            if ev.tag not in (None, "!", _MAP):
                raise _Unusual
            value = {}
            get, scalar, build, memo = self.get, self.scalar, self.build, _PLAIN_MEMO
            while True:
                key_ev = get()
                key_kind = type(key_ev)
                if key_kind is MappingEndEvent:
                    break
                if key_kind is not ScalarEvent:
                    raise _Unusual  # complex or aliased key
                # the usual key: a plain string seen before, with no tag or anchor
                key = memo.get(key_ev.value, _NO_VALUE) if key_ev.implicit[0] else _NO_VALUE
                if key is _NO_VALUE or key_ev.tag is not None or key_ev.anchor is not None:
                    if key_ev.value == "<<" and key_ev.implicit[0] and key_ev.tag is None:
                        raise _Unusual  # merge key
                    key = scalar(key_ev)
                value_ev = get()
                if type(value_ev) is ScalarEvent and value_ev.tag is None and value_ev.anchor is None:
                    text = value_ev.value
                    if not value_ev.implicit[0]:
                        value[key] = text  # quoted: a string
                        continue
                    known = memo.get(text, _NO_VALUE)
                    value[key] = known if known is not _NO_VALUE else scalar(value_ev)
                elif key == "items" and type(value_ev) is SequenceStartEvent:
                    value[key] = self._sequence(value_ev, lines=True)
                else:
                    value[key] = build(value_ev)
        elif kind is SequenceStartEvent:
            value = self._sequence(ev, lines=False)
        elif kind is AliasEvent:
            try:
                value = self.anchors[ev.anchor]
            except KeyError:
                raise _Unusual from None
            if isinstance(value, (dict, list)):
                raise _AliasedCollection  # `_BudgetBuilder` counts the alias budget
            return value
        else:  # pragma: no cover - the parser sends nothing else inside a document
            raise _Unusual
        if ev.anchor is not None and kind is not SequenceStartEvent:  # (a list's: `_sequence`)
            self._anchor(ev.anchor, value)
        return value

    def _anchor(self, anchor: str, value: Any) -> None:
        # An anchor defined twice in a document: PyYAML's composer refuses it ("found
        # duplicate anchor"), the node path words that with both lines. (go-yaml lets the last
        # definition win; this reader keeps PyYAML's refusal on both paths: README, Input limits.)
        if anchor in self.anchors:
            raise _Unusual
        self.anchors[anchor] = value

    def _sequence(self, ev: SequenceStartEvent, lines: bool) -> list:
        if ev.tag not in (None, "!", _SEQ):
            raise _Unusual
        out: list = []
        if ev.anchor is not None:  # an alias inside may refer to the list itself
            self._anchor(ev.anchor, out)
        at: list[int] = []
        get, build = self.get, self.build
        while True:
            item = get()
            if type(item) is SequenceEndEvent:
                break
            if lines:
                at.append(item.start_mark.line + 1)
            out.append(build(item))
        if lines:
            self.item_lines[id(out)] = at
        return out


class _BudgetBuilder(_EventBuilder):
    """`_EventBuilder` for documents with aliased collections: it counts the nodes go-yaml's
    decoder would decode (`decodeCount`, the document node, then every node in document order,
    an alias as itself plus its target's nodes again) and those decoded through aliases
    (`aliasCount`), as `aliases.aliasing_problem` does on a composed document, and checks the
    budget after each alias. A document the budget refuses, an anchor containing an alias to
    itself, a duplicate anchor (PyYAML's composer error) or nesting past MAX_DEPTH raise
    `_Unusual`: the node path then refuses it with its own words. The counting costs a Python
    call per event, so documents without aliased collections keep the plain builder."""

    def __init__(self, loader: _Loader):
        super().__init__(loader)
        self.counts = counts = [0, 0, 0]  # decodes, aliases, depth
        get_event = loader.get_event

        def get() -> Any:
            ev = get_event()
            kind = type(ev)
            if kind is ScalarEvent or kind is AliasEvent:
                counts[0] += 1
            elif kind is MappingStartEvent or kind is SequenceStartEvent:
                counts[0] += 1
                counts[2] += 1
                if counts[2] > MAX_DEPTH:
                    raise _Unusual
            elif kind is MappingEndEvent or kind is SequenceEndEvent:
                counts[2] -= 1
            return ev

        self.get = get
        self.sizes: dict[str, int] = {}  # anchor -> nodes decoded when an alias expands it

    def start_document(self) -> None:
        super().start_document()
        self.sizes = {}
        self.counts[:] = [1, 0, 0]  # the document node

    def build(self, ev: Any) -> Any:
        anchor = ev.anchor
        if type(ev) is AliasEvent:
            size = self.sizes.get(anchor)
            if size is None:  # undefined, or its value is still being built (contains itself)
                raise _Unusual
            counts = self.counts
            counts[0] += size  # the alias node itself was counted when it was read
            counts[1] += size
            if too_aliased(counts[0], counts[1]):
                raise _Unusual
            return self.anchors[anchor]
        if anchor is None:
            return super().build(ev)
        if anchor in self.anchors:
            raise _Unusual  # a duplicate anchor
        before = self.counts[0]  # the anchored node itself already counted
        value = super().build(ev)
        self.sizes[anchor] = self.counts[0] - before + 1
        return value


def _node_documents(path: str, text: str, problems: list[Problem], skip: int = 0) -> Iterator[Document]:
    """PyYAML's composer and constructor (`_Loader.construct`), from document `skip` + 1."""
    too_deep = _first_too_deep(text)
    loader = _Loader(text)
    document = 0
    try:
        while loader.check_node():
            if too_deep is not None and document + 1 == too_deep[0]:
                # libyaml's composer would overflow the C stack (kubectl's decoder allows
                # 10,000 levels; Python code, even libyaml's composer, cannot follow so far)
                problems.append(Problem(path, f"invalid YAML: nested more than {MAX_DEPTH} levels "
                                              "deep; the rest of the file was not read",
                                        line=too_deep[1]))
                return
            node = loader.get_node()
            document += 1
            if document <= skip:
                continue
            refused = aliasing_problem(node)
            if refused:  # an alias bomb: refused as kubectl's decoder refuses it
                problems.append(Problem(path, f"invalid YAML: {refused}", line=node.start_mark.line + 1))
                continue
            memo: dict[int, Any] = {}
            value = loader.construct(node, memo)
            if value is None:  # empty document (only comments, or `---` twice)
                continue
            item_lines: dict[int, list[int]] = {}
            _node_item_lines(node, memo, item_lines)
            yield from _objects(value, path, document, node.start_mark.line + 1, (), item_lines, problems)
    except yaml.MarkedYAMLError as e:
        problems.append(_yaml_problem(path, e))
    except yaml.YAMLError as e:  # a reader error (a control character): marked by position
        problems.append(_unmarked_yaml_problem(path, text, e))
    finally:
        loader.dispose()


MAX_DEPTH = 500  # collections inside collections: real manifests use a few dozen


def _first_too_deep(text: str) -> tuple[int, int] | None:
    """(1-based document, line) of the first document nested more than MAX_DEPTH deep, found
    from the parser's events alone (a flat loop: no composer, no recursion)."""
    depth, document = 0, 0
    try:
        for event in yaml.parse(text, Loader=_BaseLoader):
            kind = type(event)
            if kind is MappingStartEvent or kind is SequenceStartEvent:
                depth += 1
                if depth > MAX_DEPTH:
                    return document, event.start_mark.line + 1
            elif kind is MappingEndEvent or kind is SequenceEndEvent:
                depth -= 1
            elif kind is DocumentStartEvent:
                document += 1
    except yaml.YAMLError:
        pass  # the composer reports it, with its line
    return None


def _node_item_lines(node: yaml.Node, memo: dict[int, Any], out: dict[int, list[int]]) -> None:
    """The lines of the items of every List envelope in a composed document, keyed as
    `_EventBuilder.item_lines` keys them."""
    if not isinstance(node, yaml.MappingNode):
        return
    for key, val in node.value:
        if key.value == "items" and isinstance(val, yaml.SequenceNode) and id(val) in memo:
            out[id(memo[id(val)])] = [item.start_mark.line + 1 for item in val.value]
            for item in val.value:
                _node_item_lines(item, memo, out)


def _unmarked_yaml_problem(path: str, text: str, e: yaml.YAMLError) -> Problem:
    """A YAML error without a mark: the reader's refusal of a character YAML does not allow
    (`\x00`, most control characters), which knows only its position in the text."""
    if isinstance(e, yaml.reader.ReaderError):
        line = text.count("\n", 0, e.position) + 1 if isinstance(e.position, int) else None
        what = f"unacceptable character #x{e.character:04x}: {e.reason}" \
            if isinstance(e.character, int) else str(e.reason)
        return Problem(path, f"invalid YAML: {what}", line=line)
    return Problem(path, f"invalid YAML: {' '.join(str(e).split())}")


def _yaml_problem(path: str, e: yaml.MarkedYAMLError) -> Problem:
    mark = e.problem_mark or e.context_mark
    what = e.problem or "syntax error"
    if e.context and e.context.startswith("found duplicate anchor") and e.context_mark is not None:
        # PyYAML's words ("found duplicate anchor; first occurrence: second occurrence") lose
        # the first occurrence's line, which is what the reader needs
        what = f"anchor defined twice in one document (first at line {e.context_mark.line + 1})"
    elif e.context:
        what = f"{e.context}: {what}"
    return Problem(path, f"invalid YAML: {what}", line=mark.line + 1 if mark else None)


def _objects(
    value: Any,
    path: str,
    document: int,
    line: int | None,
    items: tuple[int, ...],
    item_lines: dict[int, list[int]] | None,
    problems: list[Problem],
    span: tuple[int, int] | None = None,
    first_item: int = 0,
) -> Iterator[Document]:
    """`value` as a Document, or its items if it is a List envelope (recursively).
    `first_item` numbers the items when the first ones were already read; `item_lines` gives
    the line of each item of a List read from YAML (by `id` of its items list)."""
    if not isinstance(value, dict):
        got = "a list" if isinstance(value, list) else f"{type(value).__name__} {value!r}"
        problems.append(
            Problem(
                path,
                f"expected a Kubernetes object (a mapping with apiVersion and kind), got {got}",
                line=line,
                document=document,
            )
        )
        return
    kind = value.get("kind")
    if not (isinstance(kind, str) and kind.endswith("List") and isinstance(value.get("items"), list)):
        yield Document(value, path, document, line, items, span)
        return
    item_kind, item_api_version = _item_type(value)
    lines = item_lines.get(id(value["items"])) if item_lines else None
    for i, item in enumerate(value["items"]):
        if item_kind and isinstance(item, dict):
            item.setdefault("kind", item_kind)
            if item_api_version is not None:
                item.setdefault("apiVersion", item_api_version)
        item_line = lines[i] if lines is not None and i < len(lines) else None
        yield from _objects(item, path, document, item_line, items + (first_item + i,), item_lines, problems, span)


# --- JSON paths and their lines (only when reporting a problem) --------------------------------

_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


def format_path(path: Path) -> str:
    """`("spec", "containers", 0, "resources", "requests", "cpu")` ->
    `spec.containers[0].resources.requests.cpu`; keys that are not plain names (labels,
    extended resources) go in brackets: `resources.requests[nvidia.com/gpu]`."""
    out: list[str] = []
    for part in path:
        if isinstance(part, int):
            out.append(f"[{part}]")
        elif _PLAIN_KEY.fullmatch(part):
            out.append(f".{part}" if out else part)
        else:
            out.append(f"[{part}]")
    return "".join(out)


_PATH_PART = re.compile(r"\.?([A-Za-z_][A-Za-z0-9_-]*)|\[([0-9]+)\]|\[([^\]]*)\]")


def parse_path(text: str) -> Path:
    """`format_path`'s text back to its parts: `profiles[0].plugins.score.enabled[1].name`."""
    parts: list = []
    at = 0
    while at < len(text):
        m = _PATH_PART.match(text, at)
        if m is None or m.end() == at:
            break  # not a path format_path writes: keep what was read
        name, index, bracketed = m.groups()
        parts.append(int(index) if index is not None else name if name is not None else bracketed)
        at = m.end()
    return tuple(parts)


class FieldLines:
    """Maps (document, JSON path) to a file line by composing the YAML once more.

    Used only on the error path. JSON is read as YAML here (JSON is YAML's flow style); an item
    of a JSON List that was read on its own is composed on its own too. A file that no longer
    parses gives the object's own line (or None).
    """

    def __init__(self, stdin_text: str | None = None):
        self._stdin_text = stdin_text
        self._roots: dict[object, list[yaml.Node] | None] = {}
        self._marks: dict[str, list[tuple[int, int]]] = {}  # file -> (byte, its line), sorted

    def line(self, doc: Document, path: Path = ()) -> int | None:
        node, offset = self._document_node(doc)
        if node is None:  # the text no longer parses: the object's own line
            if doc.line is None and doc.span is not None and len(doc.items) == 1:
                return self.line_at(doc.file, doc.span[0])
            return doc.line
        best = node.start_mark.line + 1
        for part in path:
            found = _child(node, part)
            if found is None:
                break  # a missing field: point at its parent
            best, node = found
        return best + offset

    def line_in(self, file: str, kind: str, path: Path) -> int | None:
        """The line of `path` in the first document of `file` whose kind is `kind`: for
        problems found after loading, which know their file and object but not their
        document (a KubeSchedulerConfiguration's profiles are checked when they are built)."""
        roots = self._composed(file, lambda: self._read(file))
        for node in roots or ():
            found = _child(node, "kind")
            if found is not None and isinstance(found[1], yaml.ScalarNode) and found[1].value == kind:
                best = node.start_mark.line + 1
                for part in path:
                    child = _child(node, part)
                    if child is None:
                        break
                    best, node = child
                return best
        return None

    def _document_node(self, doc: Document) -> tuple[yaml.Node | None, int]:
        """The node of `doc` and what to add to its lines (the line its text starts on, - 1)."""
        if doc.span is not None:
            start, end = doc.span
            roots = self._composed((doc.file, start), lambda: self._read(doc.file, start, end))
            first_line = self.line_at(doc.file, start) if roots else None
            if first_line is None:
                return None, 0
            node, items, offset = roots[0], doc.items[1:], first_line - 1
        else:
            roots = self._composed(doc.file, lambda: self._read(doc.file))
            node = roots[doc.document - 1] if roots and doc.document <= len(roots) else None
            items, offset = doc.items, 0
        for i in items:
            found = _child(node, "items") if node is not None else None
            found = _child(found[1], i) if found is not None else None
            node = found[1] if found is not None else None
        return node, offset

    def line_at(self, file: str, offset: int) -> int | None:
        """The line holding byte `offset` of `file`. Line breaks are counted from the nearest
        byte counted before: problems are located in file order, so a dump is read about once
        however many of its items have problems."""
        marks = self._marks.setdefault(file, [(0, 1)])
        at, line = marks[bisect.bisect_right(marks, (offset, math.inf)) - 1]
        if at < offset:
            if not os.path.isfile(file):  # a pipe: its lines were counted as it was read
                return None
            try:
                with open(file, "rb") as fh:
                    fh.seek(at)
                    while at < offset:
                        chunk = fh.read(min(offset - at, 16 << 20))
                        if not chunk:
                            return None  # the file changed since it was read
                        line += chunk.count(b"\n")
                        at += len(chunk)
            except OSError:
                return None
            bisect.insort(marks, (offset, line))
        return line

    def _composed(self, key: object, read: Callable[[], str | None]) -> list[yaml.Node] | None:
        if key not in self._roots:
            text = read()
            try:
                self._roots[key] = None if text is None else list(yaml.compose_all(text, Loader=_Loader))
            except yaml.YAMLError:
                self._roots[key] = None
        return self._roots[key]

    def _read(self, file: str, start: int = 0, end: int | None = None) -> str | None:
        if file == STDIN_NAME:
            return self._stdin_text or ""
        if not os.path.isfile(file):  # a pipe read once (opening a named one again would wait)
            return None
        try:
            with open(file, "rb") as fh:
                fh.seek(start)
                data = fh.read() if end is None else fh.read(end - start)
            return data.decode("utf-8-sig")
        except (OSError, UnicodeDecodeError):
            return None


def _child(node: yaml.Node, part: str | int) -> tuple[int, yaml.Node] | None:
    """The child at `part` and the line that names it (a mapping key's line, a list item's)."""
    if isinstance(node, yaml.MappingNode) and isinstance(part, str):
        for key, val in node.value:
            if isinstance(key, yaml.ScalarNode) and key.value == part:
                return key.start_mark.line + 1, val
    elif isinstance(node, yaml.SequenceNode) and isinstance(part, int):
        if 0 <= part < len(node.value):
            item = node.value[part]
            return item.start_mark.line + 1, item
    return None
