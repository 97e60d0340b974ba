"""The YAML loader manifests are read with: PyYAML's SafeLoader over libyaml's C parser, with
timestamps kept as text and a faster construction of the tags manifests use (`ManifestLoader`).
Shared by the document reader (`yaml_stream`) and the line finder (`field_lines`)."""
from __future__ import annotations

import re
from typing import Any

import yaml

try:  # libyaml: a C parser; the constructor (dicts, lists) stays PyYAML's own.
    BaseLoader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    BaseLoader = yaml.SafeLoader

TAG_STR = "tag:yaml.org,2002:str"
TAG_MAP = "tag:yaml.org,2002:map"
TAG_SEQ = "tag:yaml.org,2002:seq"
TAG_INT = "tag:yaml.org,2002:int"
TAG_NULL = "tag:yaml.org,2002:null"
TAG_BOOL = "tag:yaml.org,2002:bool"
TAG_TIMESTAMP = "tag:yaml.org,2002:timestamp"
TAG_MERGE = "tag:yaml.org,2002:merge"
PLAIN_INT = re.compile(r"[-+]?(0|[1-9][0-9]*)")
_RESOLVED: dict[str, str] = {}  # plain scalar text -> tag; the same keys recur in every object


class ManifestLoader(BaseLoader):  # type: ignore[misc,valid-type]
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
        if tag == TAG_STR or tag == TAG_TIMESTAMP:
            return node.value
        if tag == TAG_MAP:
            if id(node) in memo:  # an alias: share the object, as PyYAML does
                return memo[id(node)]
            out: dict = {}
            memo[id(node)] = out
            for key_node, value_node in node.value:
                if key_node.tag == TAG_MERGE:
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
        if tag == TAG_SEQ:
            if id(node) in memo:
                return memo[id(node)]
            items: list = []
            memo[id(node)] = items
            items.extend(self.construct(v, memo) for v in node.value)
            return items
        if tag == TAG_INT and PLAIN_INT.fullmatch(node.value):
            return int(node.value)
        if tag == TAG_NULL:
            return None
        if tag == TAG_BOOL:
            return self.bool_values[node.value.lower()]
        return self.construct_object(node, deep=True)


ManifestLoader.add_constructor(TAG_TIMESTAMP, BaseLoader.construct_yaml_str)
