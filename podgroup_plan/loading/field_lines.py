"""JSON paths and their lines, only when reporting a problem: `format_path` / `parse_path`
between a path's parts and its text, and `FieldLines`, which finds the file line of a field by
composing the object's YAML once more."""
from __future__ import annotations

import bisect
import math
import os
import re
from typing import Callable

import yaml

from podgroup_plan.loading.documents import Document, Path
from podgroup_plan.loading.encodings import NotText, decode
from podgroup_plan.loading.paths import STDIN_NAME
from podgroup_plan.loading.yaml_loader import ManifestLoader

_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
# Children upstream's field paths name that are no field: a pair of fields judged together
# (validateTopologySpreadConstraints: `[0].{topologyKey, whenUnsatisfiable}`)
_TUPLE_CHILDREN = frozenset({"{topologyKey, whenUnsatisfiable}"})


def format_path(path: Path) -> str:
    """`("spec", "containers", 0, "resources", "requests", "cpu")` ->
    `spec.containers[0].resources.requests.cpu`; keys that are not plain names (labels,
    extended resources) go in brackets: `resources.requests[nvidia.com/gpu]`."""
    out: list[str] = []
    for part in path:
        if isinstance(part, int):
            out.append(f"[{part}]")
        elif _PLAIN_KEY.fullmatch(part) or part in _TUPLE_CHILDREN:
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
        self._stdin_bytes: bytes | None = None  # its UTF-8, as reading.read_text parsed it
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
            if not roots or first_line is None:
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
        if file == STDIN_NAME:
            data = self._stdin_data()
            return None if data is None or offset > len(data) else data.count(b"\n", 0, offset) + 1
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
                self._roots[key] = None if text is None else list(yaml.compose_all(text, Loader=ManifestLoader))
            except yaml.YAMLError:
                self._roots[key] = None
        return self._roots[key]

    def _read(self, file: str, start: int = 0, end: int | None = None) -> str | None:
        if file == STDIN_NAME:
            if start == 0 and end is None:
                return self._stdin_text or ""
            data = self._stdin_data()  # an item of a List read item by item: its bytes
            return None if data is None else data[start:end].decode("utf-8", "surrogatepass")
        if not os.path.isfile(file):  # a pipe read once (opening a named one again would wait)
            return None
        try:
            with open(file, "rb") as fh:
                fh.seek(start)
                data = fh.read() if end is None else fh.read(end - start)
            # a whole file in the encoding its byte-order mark says; a span is UTF-8 JSON
            return decode(data) if start == 0 else data.decode("utf-8")
        except (OSError, UnicodeDecodeError, NotText):
            return None


    def _stdin_data(self) -> bytes | None:
        if self._stdin_bytes is None and self._stdin_text is not None:
            self._stdin_bytes = self._stdin_text.encode("utf-8", "surrogatepass")
        return self._stdin_bytes


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
