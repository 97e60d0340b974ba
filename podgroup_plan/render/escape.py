"""Human-readable output shows no control character from the input (issue 25).

Tables, Markdown, JUnit, the notes, `explain` and `diff` print names, labels, kinds, file names
and messages that came from the input, where a pod named `"\\e]0;owned\\a\\e[2J"` would set the
terminal's title and clear the screen, a kind holding a line break would forge a line, and a
bidi override would reverse the text after it. Each renderer is handed a copy of its document
whose every string went through `errors.escape_controls` (the one escaping function) before any
width is measured, so layout, wrapping and shortening see the text as it will be shown.

JSON and YAML are not escaped here: they keep every string exact, under their own escaping.
"""
from __future__ import annotations

import dataclasses
import operator
from collections.abc import Sequence
from itertools import chain
from typing import Any, Callable, Mapping, TypeVar

from podgroup_plan.errors import CONTROL_CHARACTERS, escape_controls
from podgroup_plan.result import PlacementResults

T = TypeVar("T")

# class -> its fields' names (dataclasses.fields() costs more than the walk itself)
_FIELDS: dict[type, tuple[str, ...]] = {}
# class -> a function giving its fields' values as a tuple
_GETTERS: dict[type, Callable[[Any], tuple]] = {}


def for_display(value: T) -> T:
    """`value` (a PlanResult, a diff or explain document, a string, or anything made of
    dataclasses, tuples, lists, mappings and scalars) with every string escaped, mapping keys
    included. Returns `value` itself, not a copy, when no string needs escaping (the common
    case: a result without control characters costs one quick look and no copy)."""
    return _escaped(value) if has_controls(value) else value


_SCALARS = frozenset({int, float, bool, type(None)})


def has_controls(value: Any) -> bool:
    """Whether any string in `value` holds a control character. Made to be cheap on a
    50,000-pod result (tens of milliseconds): objects of one class are unpacked together
    (`attrgetter` over the whole tuple), every string is gathered, and one search runs over all
    of them joined (about 50 ms for 50,000 pods). A loop over a stack, not recursion."""
    texts: list[str] = []
    todo: list[Any] = [value]
    while todo:
        item = todo.pop()
        kind = type(item)
        if kind is str:
            texts.append(item)
        elif kind in _SCALARS:
            continue
        elif kind is tuple or kind is list:
            texts += [v for v in item if type(v) is str]
            rest = [v for v in item if type(v) is not str and type(v) not in _SCALARS]
            if rest:
                todo.extend(_unpacked(rest))
        elif kind is PlacementResults:
            texts += [v for column in (item.names, item.messages) for v in column if type(v) is str]
        elif isinstance(item, Mapping):
            todo.append(list(item.keys()))
            todo.append(list(item.values()))
        elif dataclasses.is_dataclass(item) and not isinstance(item, type):
            todo.append(list(_getter(kind)(item)))
        elif isinstance(item, Sequence) and not isinstance(item, (bytes, bytearray)):
            todo.append(list(item))
    joined = " ".join(texts)
    # isprintable() is False for every control character (categories Cc, Cf, Zl, Zp) and a
    # few more (a no-break space): a scan in C; the pattern decides only when it fails
    return not joined.isprintable() and CONTROL_CHARACTERS.search(joined) is not None


def _unpacked(items: list[Any]) -> list[Any]:
    """`items` to look into, in a few flat lists: the objects of each dataclass become one
    list of their fields' values (unpacked in C), the tuples and lists one list of their items
    (12,500 groups' conditions are one list, not 12,500), anything else stays itself."""
    by_class: dict[type, list[Any]] = {}
    for v in items:
        by_class.setdefault(type(v), []).append(v)
    out: list[Any] = []
    nested: list[Any] = []
    for kind, objects in by_class.items():
        if kind is tuple or kind is list:
            nested.append(objects)
        elif dataclasses.is_dataclass(kind):
            out.append(list(chain.from_iterable(map(_getter(kind), objects))))
        else:
            out.extend(objects)
    out.extend(list(chain.from_iterable(objects)) for objects in nested)
    return out


def _getter(kind: type) -> Callable[[Any], tuple]:
    getter = _GETTERS.get(kind)
    if getter is None:
        names = [f.name for f in dataclasses.fields(kind)]
        # attrgetter of two names or more gives a tuple; of one, the value itself
        getter = operator.attrgetter(*names) if len(names) > 1 else (
            lambda obj, name=names[0]: (getattr(obj, name),))
        _GETTERS[kind] = getter
    return getter


def text(value: str | None) -> str | None:
    """One string for display (a file name, a configuration label)."""
    return None if value is None else escape_controls(value)


def _escaped(value: Any) -> Any:
    # The shape of a result is the planner's, a few levels deep: this recursion follows it,
    # never the input's nesting.
    kind = type(value)
    if kind is str:
        return escape_controls(value) if CONTROL_CHARACTERS.search(value) else value
    if value is None or kind is int or kind is bool or kind is float:
        return value
    if kind is tuple or kind is list:
        items = [_escaped(v) for v in value]  # (a tuple or list is iterated without copies)
        if all(a is b for a, b in zip(items, value)):
            return value
        return kind(items)
    if isinstance(value, Mapping):
        pairs = [(_escaped(k), _escaped(v)) for k, v in value.items()]
        if all(k is k0 and v is v0 for (k, v), (k0, v0) in zip(pairs, value.items())):
            return value
        return dict(pairs)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        names = _FIELDS.get(kind)
        if names is None:
            names = _FIELDS[kind] = tuple(f.name for f in dataclasses.fields(value))
        changed = {}
        for name in names:
            old = getattr(value, name)
            new = _escaped(old)
            if new is not old:
                changed[name] = new
        return dataclasses.replace(value, **changed) if changed else value
    if kind is PlacementResults:
        # kept by column, its entries made when read: only its names and messages are text
        if not any(isinstance(s, str) and CONTROL_CHARACTERS.search(s)
                   for column in (value.names, value.messages) for s in column):
            return value
        return tuple(_escaped(p) for p in value)
    if isinstance(value, Sequence) and not isinstance(value, (str, bytes)):
        olds = list(value)
        items = [_escaped(v) for v in olds]
        if all(a is b for a, b in zip(items, olds)):
            return value
        return tuple(items)
    return value
