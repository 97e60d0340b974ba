"""JSON and YAML renderings of a result (or diff) document.

The document is already in contract order (`PlanResult.to_dict()`, `diff.diff_plans()`); these
functions only serialise it: keys in the order given (never re-sorted), so two runs on the same
input are byte-identical.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Mapping

import orjson

if TYPE_CHECKING:
    from podgroup_plan.render.registry import RenderOptions
    from podgroup_plan.result import PlanResult


def render_json(document: Mapping[str, Any]) -> str:
    """2-space indented JSON, keys as given, UTF-8 text, one trailing newline: the bytes
    `orjson.dumps(document, option=OPT_INDENT_2)` writes, made piece by piece (`_json`)."""
    return (_json(document, 0) + b"\n").decode("utf-8")


# The document is written piece by piece: its top-level fields one by one, and a long list (the
# pods, the groups) a slice of items at a time, each into orjson's own small buffer. orjson
# does not survive running out of memory while it grows one buffer for a whole 50,000-pod
# result (a segmentation fault under a memory limit, issue 25); joining the pieces is Python's,
# which raises MemoryError instead.
_SLICE = 1000  # list items per piece (a few hundred KiB of text)


def _json(value: Any, depth: int) -> bytes:
    if depth == 0 and isinstance(value, Mapping) and value:
        parts = [b"  " + orjson.dumps(key) + b": " + _json(item, 1) for key, item in value.items()]
        return b"{\n" + b",\n".join(parts) + b"\n}"
    pad = b"  " * depth
    if isinstance(value, (list, tuple)) and len(value) > _SLICE:
        # each slice as orjson writes a list ("[\n" ... "\n" pad "]"), without its brackets
        cut = len(pad) + 2
        parts = [_json(list(value[i:i + _SLICE]), depth)[2:-cut] for i in range(0, len(value), _SLICE)]
        return b"[\n" + b",\n".join(parts) + b"\n" + pad + b"]"
    text = orjson.dumps(value, option=orjson.OPT_INDENT_2)
    # a line break in the text is orjson's own (inside strings it writes \n)
    return text.replace(b"\n", b"\n" + pad) if depth and b"\n" in text else text


def render_yaml(document: Mapping[str, Any]) -> str:
    """Block-style YAML, keys as given. Strings are written double-quoted in JSON's escaping,
    which YAML reads the same way, so no value can be mistaken for another type ("True",
    "null", "0/3 nodes ...: ..."), and long messages stay on one line. Written by hand because
    PyYAML, even with libyaml, takes seconds on a 50,000-pod plan."""
    lines: list[str] = []
    _emit_mapping(document, "", lines)
    return "\n".join(lines) + "\n"


# Strings written plain: names, label values, enum words. Anything else (spaces, ": ", leading
# digits, YAML 1.1 booleans and nulls) is double-quoted.
_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9._/-]*\Z")
_RESERVED = frozenset({"y", "n", "yes", "no", "true", "false", "on", "off", "null"})
# Characters YAML does not allow even inside quotes unless escaped (outside its printable set).
_UNPRINTABLE = re.compile("[\x7f-\x9f\ufeff\ufffe\uffff]")


def _scalar(value: Any) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return repr(value)
    text = str(value)
    if _PLAIN.match(text) and text.lower() not in _RESERVED:
        return text
    quoted = orjson.dumps(text).decode("utf-8")
    return _UNPRINTABLE.sub(lambda m: "\\u%04x" % ord(m.group()), quoted)


def _emit_mapping(mapping: Mapping[str, Any], pad: str, lines: list[str], first_prefix: str | None = None) -> None:
    """Each key at `pad`; the first line starts with `first_prefix` instead (a list item's "- ")."""
    for i, (key, value) in enumerate(mapping.items()):
        head = (first_prefix if i == 0 and first_prefix is not None else pad) + f"{_scalar(str(key))}:"
        _emit_value(value, head, pad, lines)


def _emit_value(value: Any, head: str, pad: str, lines: list[str]) -> None:
    if isinstance(value, Mapping):
        if not value:
            lines.append(head + " {}")
        else:
            lines.append(head)
            _emit_mapping(value, pad + "  ", lines)
    elif isinstance(value, (list, tuple)):
        if not value:
            lines.append(head + " []")
        else:
            lines.append(head)
            for item in value:
                _emit_item(item, pad, lines)
    else:
        lines.append(f"{head} {_scalar(value)}")


def _emit_item(item: Any, pad: str, lines: list[str]) -> None:
    """A list item at `pad` (block sequences sit at their key's indentation, as PyYAML writes)."""
    if isinstance(item, Mapping) and item:
        _emit_mapping(item, pad + "  ", lines, first_prefix=pad + "- ")
    elif isinstance(item, (list, tuple)) and item:
        lines.append(pad + "-")
        for sub in item:
            _emit_item(sub, pad + "  ", lines)
    elif not isinstance(item, (Mapping, list, tuple)):
        lines.append(f"{pad}- {_scalar(item)}")
    else:  # an empty collection
        lines.append(f"{pad}- " + ("{}" if isinstance(item, Mapping) else "[]"))


# --- the registry's entries (render/registry.py) --------------------------------------------

def render_result_json(result: PlanResult, options: RenderOptions) -> str:
    return render_json(result.to_dict())


def render_result_yaml(result: PlanResult, options: RenderOptions) -> str:
    return render_yaml(result.to_dict())


def render_document_json(document: Mapping[str, Any], options: RenderOptions) -> str:
    """A plain document (a diff, an explanation) as JSON."""
    return render_json(document)
