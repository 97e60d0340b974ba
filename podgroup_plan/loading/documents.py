"""Documents: one Kubernetes object read from the input and where it starts (`Document`), a
problem found in one before it is located (`Issue`), and how a parsed value becomes documents
(`documents_of`: the items of `List` / `*List` envelopes, as `kubectl get -o yaml` and the API
write them, unpacked)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping, NamedTuple

from podgroup_plan.errors import Problem

Path = tuple  # a JSON path: keys (str) and list indexes (int), outermost first


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
    field (empty: the whole object), which finds its line; `also` names other objects the
    message refers to (the other copy of a duplicate), whose places are added to the message
    once lines are known.

    `shown` is the path as printed, where the API server words it otherwise than the field
    that holds the problem: upstream reports a label map's problems at the map
    (`metadata.labels`), where the line to point at is the key's; a ResourceList's keys as
    field.Path.Key writes them (`requests[cpu]`); a Node's taints under `metadata.taints`
    (validateNodeTaints' quirk). None: `path`, formatted."""

    doc: Document
    path: Path
    message: str
    also: tuple[Document, ...] = ()
    shown: str | None = None


def documents_of(
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
    item_kind, item_api_version = item_type(value)
    lines = item_lines.get(id(value["items"])) if item_lines else None
    for i, item in enumerate(value["items"]):
        if item_kind and isinstance(item, dict):
            item.setdefault("kind", item_kind)
            if item_api_version is not None:
                item.setdefault("apiVersion", item_api_version)
        item_line = lines[i] if lines is not None and i < len(lines) else None
        yield from documents_of(item, path, document, item_line, items + (first_item + i,), item_lines, problems, span)


def item_type(envelope: Mapping) -> tuple[str | None, str | None]:
    """`kubectl get -o yaml` writes `kind: List` with complete items; the API's own `PodList`
    omits apiVersion/kind in the items, which are those of the list without "List"."""
    kind = envelope.get("kind")
    if isinstance(kind, str) and kind.endswith("List") and kind != "List":
        return kind[: -len("List")], envelope.get("apiVersion")
    return None, None
