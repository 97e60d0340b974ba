"""YAML streams to documents: built straight from libyaml's events (`_EventBuilder`), counting
go-yaml's alias budget where a document aliases a collection (`_BudgetBuilder`), and through
PyYAML's composer for anything unusual (`_node_documents`), which decides and words refusals."""
from __future__ import annotations

from typing import Any, Iterator

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
from podgroup_plan.loading.documents import Document, documents_of
from podgroup_plan.loading.yaml_loader import (
    PLAIN_INT,
    TAG_BOOL,
    TAG_INT,
    TAG_MAP,
    TAG_NULL,
    TAG_SEQ,
    TAG_STR,
    TAG_TIMESTAMP,
    BaseLoader,
    ManifestLoader,
)


def yaml_documents(path: str, text: str, problems: list[Problem]) -> Iterator[Document]:
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
    loader = ManifestLoader(text)
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
            yield from documents_of(value, path, document, root.start_mark.line + 1, (), item_lines, problems)
    except yaml.MarkedYAMLError as e:
        problems.append(_yaml_problem(path, e))
    except yaml.YAMLError as e:  # a reader error (a control character): marked by position
        problems.append(_unmarked_yaml_problem(path, text, e))
    finally:
        loader.dispose()


_PLAIN_MEMO: dict[str, Any] = {}  # plain scalar text -> its value, for the immutable ones
_NO_VALUE = object()


class _EventBuilder:
    """Builds one document's value from libyaml's events, as `ManifestLoader.construct` would from
    the composed nodes, but without creating a node (and its two marks) per scalar: the
    happy path of a large YAML dump is about twice the parse time instead of three times.
    Only the line of each object (the document root and the items of `List` envelopes) is
    kept; a field's line is found by `FieldLines` when a problem needs it."""

    def __init__(self, loader: ManifestLoader):
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
            if tag == TAG_STR or tag == TAG_TIMESTAMP:
                result: Any = value
            elif tag == TAG_INT and PLAIN_INT.fullmatch(value):
                result = int(value)
            elif tag == TAG_NULL:
                result = None
            elif tag == TAG_BOOL:
                result = self.loader.bool_values[value.lower()]
            else:
                return self._construct(tag, ev)
            if len(_PLAIN_MEMO) > 100_000:
                _PLAIN_MEMO.clear()
            _PLAIN_MEMO[value] = result
            return result
        if tag == TAG_STR or tag == TAG_TIMESTAMP:
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
            if ev.tag not in (None, "!", TAG_MAP):
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
        if ev.tag not in (None, "!", TAG_SEQ):
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

    def __init__(self, loader: ManifestLoader):
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
    """PyYAML's composer and constructor (`ManifestLoader.construct`), from document `skip` + 1."""
    too_deep = _first_too_deep(text)
    loader = ManifestLoader(text)
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
            yield from documents_of(value, path, document, node.start_mark.line + 1, (), item_lines, problems)
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
        for event in yaml.parse(text, Loader=BaseLoader):
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
