"""Label selectors and node selectors, with apimachinery's matching rules.

Mirrors `k8s.io/apimachinery/pkg/labels` (LabelSelectorAsSelector) and
`k8s.io/component-helpers/scheduling/corev1/nodeaffinity` (NodeSelector / NodeSelectorTerm).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping


@dataclass(frozen=True, slots=True)
class LabelSelectorRequirement:
    key: str
    operator: str  # In | NotIn | Exists | DoesNotExist
    values: tuple[str, ...] = ()

    def matches(self, labels: Mapping[str, str]) -> bool:
        op = self.operator
        if op == "In":
            return self.key in labels and labels[self.key] in self.values
        if op == "NotIn":
            # apimachinery: NotIn matches when the key is absent too.
            return self.key not in labels or labels[self.key] not in self.values
        if op == "Exists":
            return self.key in labels
        if op == "DoesNotExist":
            return self.key not in labels
        return False


@dataclass(frozen=True, slots=True)
class LabelSelector:
    """metav1.LabelSelector. An empty selector matches everything; callers represent a nil
    selector as None (which matches nothing where upstream says so)."""

    match_labels: tuple[tuple[str, str], ...] = ()
    match_expressions: tuple[LabelSelectorRequirement, ...] = ()

    def matches(self, labels: Mapping[str, str]) -> bool:
        for k, v in self.match_labels:
            if labels.get(k) != v:
                return False
        for req in self.match_expressions:
            if not req.matches(labels):
                return False
        return True

    @property
    def is_empty(self) -> bool:
        return not self.match_labels and not self.match_expressions

    def with_match_labels(self, extra: Mapping[str, str]) -> "LabelSelector":
        """The selector plus `key In (value)` requirements (used for matchLabelKeys)."""
        if not extra:
            return self
        reqs = self.match_expressions + tuple(
            LabelSelectorRequirement(k, "In", (v,)) for k, v in sorted(extra.items())
        )
        return LabelSelector(self.match_labels, reqs)


_GO_INT = re.compile(r"[+-]?[0-9]+\Z")


def _parse_int(value: str) -> int | None:
    """strconv.ParseInt(value, 10, 64), as labels.NewRequirement parses a Gt/Lt value and
    Requirement.Matches a label's: an optional sign and ASCII digits in the int64 range (Python's
    int() would also take spaces, underscores and other scripts' digits)."""
    if not _GO_INT.match(value):
        return None
    number = int(value)
    return number if -(2**63) <= number < 2**63 else None


@dataclass(frozen=True, slots=True)
class NodeSelectorRequirement:
    key: str
    operator: str  # In | NotIn | Exists | DoesNotExist | Gt | Lt
    values: tuple[str, ...] = ()

    def matches(self, labels: Mapping[str, str]) -> bool:
        op = self.operator
        if op in ("In", "NotIn", "Exists", "DoesNotExist"):
            return LabelSelectorRequirement(self.key, op, self.values).matches(labels)
        if op in ("Gt", "Lt"):
            if self.key not in labels or len(self.values) != 1:
                return False
            have = _parse_int(labels[self.key])
            want = _parse_int(self.values[0])
            if have is None or want is None:
                return False
            return have > want if op == "Gt" else have < want
        return False


@dataclass(frozen=True, slots=True)
class NodeSelectorTerm:
    match_expressions: tuple[NodeSelectorRequirement, ...] = ()
    match_fields: tuple[NodeSelectorRequirement, ...] = ()  # only metadata.name is supported

    def matches(self, node_name: str, labels: Mapping[str, str]) -> bool:
        # A term with neither expressions nor fields matches no node (nodeaffinity helper).
        if not self.match_expressions and not self.match_fields:
            return False
        for req in self.match_expressions:
            if not req.matches(labels):
                return False
        fields = {"metadata.name": node_name}
        for req in self.match_fields:
            if req.key != "metadata.name" or not req.matches(fields):
                return False
        return True


@dataclass(frozen=True, slots=True)
class NodeSelector:
    """Required node affinity: the terms are ORed; no terms matches no node."""

    terms: tuple[NodeSelectorTerm, ...] = ()

    def matches(self, node_name: str, labels: Mapping[str, str]) -> bool:
        return any(t.matches(node_name, labels) for t in self.terms)
