"""The alias budget of kubectl's YAML decoder, so that an alias bomb is bad input, not a hang.

A few hundred bytes of anchors and aliases (`&a [x, x, ...]`, `&b [*a, *a, ...]`, ...) stand for
billions of values. PyYAML builds them shared, but anything that walks the value afterwards
(schema checks, JSON serialisation) expands them. kubectl and the apiserver read YAML through
sigs.k8s.io/yaml, whose go-yaml decoder (`decode.go`, `decoder.unmarshal`) counts every node it
decodes (`decodeCount`) and every node decoded while expanding an alias (`aliasCount`), and
fails with "document contains excessive aliasing" as soon as

    aliasCount > 100 and decodeCount > 1000 and aliasCount / decodeCount > allowedAliasRatio

where `allowedAliasRatio` is 0.99 up to 400,000 decodes, 0.10 from 4,000,000, and falls linearly
in between. An anchor whose value contains an alias to itself fails too ("anchor ... value
contains itself"). This module applies the same rule to a composed PyYAML document, without
expanding anything: the size of an alias's expansion is computed once per anchored node.

The counts follow go-yaml's order: the document node, then each node in document order (mapping
keys included); an alias node counts once itself, then every node of its target again, as alias
decodes (nested aliases included). Within one expansion the ratio only grows and the allowed
ratio only falls, so checking after each outermost expansion finds the first point go-yaml fails.
"""
from __future__ import annotations

import yaml

EXCESSIVE_ALIASING = "document contains excessive aliasing"
CONTAINS_ITSELF = "an anchor's value contains an alias to itself"

_RATIO_RANGE_LOW = 400_000
_RATIO_RANGE_HIGH = 4_000_000


def allowed_alias_ratio(decodes: int) -> float:
    """go-yaml's `allowedAliasRatio`."""
    if decodes <= _RATIO_RANGE_LOW:
        return 0.99  # small and medium documents: almost all of it may come from aliases
    if decodes >= _RATIO_RANGE_HIGH:
        return 0.10
    return 0.99 - 0.89 * (decodes - _RATIO_RANGE_LOW) / (_RATIO_RANGE_HIGH - _RATIO_RANGE_LOW)


def too_aliased(decodes: int, aliases: int) -> bool:
    return aliases > 100 and decodes > 1000 and aliases / decodes > allowed_alias_ratio(decodes)


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def aliasing_problem(root: yaml.Node) -> str | None:
    """Why go-yaml would refuse this composed document (None: it would not).

    In PyYAML's node graph an alias is the anchored node object met again; the first meeting in
    document order is the anchor itself."""
    seen: set[int] = set()
    alias_slots: set[tuple[int, int]] = set()  # (id(parent), child index) that are aliases
    # 1. document order: mark alias slots, find self-containing anchors.
    stack: list[tuple[yaml.Node, int]] = [(root, 0)]
    on_path: set[int] = {id(root)}
    seen.add(id(root))
    while stack:
        node, i = stack[-1]
        children = _children(node)
        if i == len(children):
            stack.pop()
            on_path.discard(id(node))
            continue
        stack[-1] = (node, i + 1)
        child = children[i]
        if id(child) in on_path:
            return CONTAINS_ITSELF
        if id(child) in seen:
            alias_slots.add((id(node), i))
            continue
        seen.add(id(child))
        if _children(child):
            stack.append((child, 0))
            on_path.add(id(child))
    if not alias_slots:
        return None

    # 2. the size of each node's expansion (nodes decoded when an alias to it is expanded).
    sizes: dict[int, int] = {}

    def size(node: yaml.Node) -> int:
        known = sizes.get(id(node))
        if known is not None:
            return known
        pending = [(node, False)]  # post-order without recursion (deep documents)
        while pending:
            current, expanded = pending.pop()
            if id(current) in sizes:
                continue
            if expanded:
                total = 1
                for j, child in enumerate(_children(current)):
                    total += sizes[id(child)] + ((id(current), j) in alias_slots)
                sizes[id(current)] = total
                continue
            pending.append((current, True))
            pending.extend((c, False) for c in _children(current) if id(c) not in sizes)
        return sizes[id(node)]

    # 3. go-yaml's counters in document order, checked after each expansion.
    decodes, aliases = 1, 0  # the document node
    stack = [(root, 0)]
    decodes += 1
    while stack:
        node, i = stack[-1]
        children = _children(node)
        if i == len(children):
            stack.pop()
            continue
        stack[-1] = (node, i + 1)
        child = children[i]
        if (id(node), i) in alias_slots:
            expansion = size(child)
            decodes += 1 + expansion  # the alias node itself, then its target again
            aliases += expansion
            if too_aliased(decodes, aliases):
                return EXCESSIVE_ALIASING
            continue
        decodes += 1
        if _children(child):
            stack.append((child, 0))
    return None
