"""Reading manifests: paths to documents, and documents back to file lines.

What `kubectl apply -f PATH -R` accepts, minus the network: files and folders (recursive), YAML
streams of several documents, JSON, and the `List` / `*List` envelopes that `kubectl get -o yaml`
and the API write. Each object keeps where it came from (file, 1-based document, line) so that a
Problem can point at it.

Speed matters here (tens of thousands of documents per second are wanted), so the happy path
parses each file once and keeps only the line where each object starts. The line of an individual
field is found only when something is wrong with it: `FieldLines` re-composes the file then.
"""
from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field
from typing import Any, Iterable, NamedTuple, Sequence

import orjson
import yaml

from podgroup_plan.errors import Problem

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
    differ in `items` (their index path through nested Lists). `line` is None only where it is
    not known without a re-parse (items of a JSON List); `FieldLines` finds it when needed.
    """

    obj: dict
    file: str
    document: int
    line: int | None
    items: tuple[int, ...] = ()
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
    A file named twice is read once."""
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
            found = sorted(_walk(path))
            if not found:
                problems.append(Problem(path, "folder holds no .yaml, .yml or .json files"))
            for f in found:
                add(f)
        elif os.path.exists(path):
            add(path)
        else:
            problems.append(Problem(path, "no such file or folder"))
    return files, problems


def _walk(folder: str) -> Iterable[str]:
    for root, dirs, names in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in names:
            if not name.startswith(".") and name.endswith(MANIFEST_SUFFIXES):
                yield os.path.join(root, name)


# --- files -> documents ------------------------------------------------------------------------


def read_documents(
    paths: Sequence[str], stdin_text: str | None = None
) -> tuple[list[Document], list[Problem]]:
    """Every object in `paths` (Lists unpacked), and the problems that kept some from being
    read (missing files, YAML/JSON syntax, documents that are not objects)."""
    files, problems = expand_paths(paths)
    docs: list[Document] = []
    for path in files:
        if path == STDIN:
            text = stdin_text if stdin_text is not None else sys.stdin.read()
            read_text(STDIN_NAME, text, docs, problems)
        else:
            read_file(path, docs, problems)
    return docs, problems


def read_file(path: str, docs: list[Document], problems: list[Problem]) -> None:
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as e:
        problems.append(Problem(path, f"cannot read: {e.strerror or e}"))
        return
    if path.endswith(".json"):
        _read_json(path, data, docs, problems)
        return
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        problems.append(Problem(path, f"not UTF-8 text (byte {e.start})"))
        return
    _read_yaml(path, text, docs, problems)


def read_text(name: str, text: str, docs: list[Document], problems: list[Problem]) -> None:
    """Text whose format is not told by a file name (stdin): JSON if it parses as JSON."""
    if text.lstrip()[:1] in ("{", "["):
        try:
            value = orjson.loads(text)
        except orjson.JSONDecodeError:
            pass  # YAML flow style or broken JSON: the YAML parser tells which, with a line
        else:
            _add_object(value, name, 1, 1, (), None, docs, problems)
            return
    _read_yaml(name, text, docs, problems)


def _read_json(path: str, data: bytes, docs: list[Document], problems: list[Problem]) -> None:
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError as e:
        problems.append(Problem(path, f"invalid JSON: {e.msg}", line=e.lineno))
        return
    _add_object(value, path, 1, 1, (), None, docs, problems)


def _read_yaml(path: str, text: str, docs: list[Document], problems: list[Problem]) -> None:
    loader = _Loader(text)
    document = 0
    try:
        while loader.check_node():
            node = loader.get_node()
            document += 1
            value = loader.construct(node, {})
            if value is None:  # empty document (only comments, or `---` twice)
                continue
            _add_object(value, path, document, node.start_mark.line + 1, (), node, docs, problems)
    except yaml.MarkedYAMLError as e:
        problems.append(_yaml_problem(path, e))
    except yaml.YAMLError as e:  # pragma: no cover - libyaml errors are marked
        problems.append(Problem(path, f"invalid YAML: {e}"))
    finally:
        loader.dispose()


def _yaml_problem(path: str, e: yaml.MarkedYAMLError) -> Problem:
    mark = e.problem_mark or e.context_mark
    what = e.problem or "syntax error"
    if e.context:
        what = f"{e.context}: {what}"
    return Problem(path, f"invalid YAML: {what}", line=mark.line + 1 if mark else None)


def _add_object(
    value: Any,
    path: str,
    document: int,
    line: int | None,
    items: tuple[int, ...],
    node: yaml.Node | None,
    docs: list[Document],
    problems: list[Problem],
) -> None:
    """Append `value` as a Document, or its items if it is a List envelope."""
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
    if isinstance(kind, str) and kind.endswith("List") and isinstance(value.get("items"), list):
        _add_list(value, kind, path, document, items, node, docs, problems)
        return
    docs.append(Document(value, path, document, line, items))


def _add_list(
    value: dict,
    kind: str,
    path: str,
    document: int,
    items: tuple[int, ...],
    node: yaml.Node | None,
    docs: list[Document],
    problems: list[Problem],
) -> None:
    # `kubectl get -o yaml` writes `kind: List` with complete items; the API's own `PodList`
    # omits apiVersion/kind in the items, which are those of the list without "List".
    item_kind = kind[: -len("List")] if kind != "List" else None
    api_version = value.get("apiVersion")
    item_nodes = _items_nodes(node)
    for i, item in enumerate(value["items"]):
        if item_kind and isinstance(item, dict):
            item.setdefault("kind", item_kind)
            if api_version is not None:
                item.setdefault("apiVersion", api_version)
        item_node = item_nodes[i] if item_nodes is not None else None
        line = item_node.start_mark.line + 1 if item_node is not None else None
        _add_object(item, path, document, line, items + (i,), item_node, docs, problems)


def _items_nodes(node: yaml.Node | None) -> list[yaml.Node] | None:
    if not isinstance(node, yaml.MappingNode):
        return None
    for key, val in node.value:
        if key.value == "items" and isinstance(val, yaml.SequenceNode):
            return val.value
    return None


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


class FieldLines:
    """Maps (document, JSON path) to a file line by composing the file's YAML once more.

    Used only on the error path. JSON is read as YAML here (JSON is YAML's flow style), which is
    how items of a JSON List get their line too. A file that no longer parses gives None.
    """

    def __init__(self, stdin_text: str | None = None):
        self._stdin_text = stdin_text
        self._roots: dict[str, list[yaml.Node] | None] = {}

    def line(self, doc: Document, path: Path = ()) -> int | None:
        node = self._document_node(doc)
        if node is None:
            return doc.line
        best = node.start_mark.line + 1
        for part in path:
            found = _child(node, part)
            if found is None:
                break  # a missing field: point at its parent
            key_line, node = found
            best = key_line
        return best

    def _document_node(self, doc: Document) -> yaml.Node | None:
        roots = self._roots.get(doc.file, ...)
        if roots is ...:
            roots = self._roots[doc.file] = self._compose(doc.file)
        if roots is None or doc.document > len(roots):
            return None
        node: yaml.Node | None = roots[doc.document - 1]
        for i in doc.items:
            found = _child(node, "items")
            node = found[1] if found else None
            found = _child(node, i) if node is not None else None
            if found is None:
                return None
            node = found[1]
        return node

    def _compose(self, file: str) -> list[yaml.Node] | None:
        try:
            if file == STDIN_NAME:
                text = self._stdin_text or ""
            else:
                with open(file, encoding="utf-8-sig") as fh:
                    text = fh.read()
            return list(yaml.compose_all(text, Loader=_Loader))
        except (OSError, UnicodeDecodeError, yaml.YAMLError):
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
