"""Placed pods matching label selectors, per node: the ledger PodTopologySpread and
InterPodAffinity count with.

Upstream walks every pod of every node for each incoming pod (podtopologyspread
`countPodsMatchSelector`, interpodaffinity `AffinityTerm.Matches` in `filtering.go` /
`scoring.go`); the framework's `AffinityTerm.Matches` and the namespace handling live in
`pkg/scheduler/framework/types.go`. Here the number of placed pods matching a set of clauses
on each node is a ledger of the cluster state (state/derived.py), kept current by every
assume, forget and rollback, so a plugin reads a column instead of replaying pods.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

import numpy as np

from podgroup_plan.model.objects import Pod
from podgroup_plan.model.selectors import LabelSelector
from podgroup_plan.state.derived import DerivedKey

if TYPE_CHECKING:  # pragma: no cover
    from podgroup_plan.state.cluster import ClusterState

LABEL_METADATA_NAME = "kubernetes.io/metadata.name"

POD_MATCH_COUNTS: "DerivedKey[PodMatchCounts]" = DerivedKey("helper/podMatchCounts")



def label_selector_matches(selector: LabelSelector | None, labels: Mapping[str, str]) -> bool:
    """metav1.LabelSelectorAsSelector semantics: nil matches nothing, empty matches everything."""
    return selector is not None and selector.matches(labels)


def namespace_labels(ns_map: Mapping[str, Mapping[str, str]], namespace: str) -> Mapping[str, str]:
    """A namespace's labels, with the `kubernetes.io/metadata.name` label the API server puts on
    every namespace (so a namespaceSelector on it works even when the input has no Namespace
    objects)."""
    labels = ns_map.get(namespace)
    if labels is None:
        return {LABEL_METADATA_NAME: namespace}
    if LABEL_METADATA_NAME in labels:
        return labels
    out = dict(labels)
    out[LABEL_METADATA_NAME] = namespace
    return out


# A clause selects pods: (namespace names, namespaceSelector or None, label selector). A pod
# matches when its namespace is named or its namespace's labels match the namespaceSelector, and
# its labels match the selector (upstream AffinityTerm.Matches; for spreading, names is the
# pod's own namespace and there is no namespaceSelector).
Clause = tuple[frozenset, LabelSelector | None, LabelSelector]


class _Counter:
    """Per node, the number of placed pods matching every clause of a selector."""

    __slots__ = ("clauses", "counts", "_ns_map", "_ns_memo")

    def __init__(self, n: int, clauses: tuple[Clause, ...], ns_map: Mapping):
        self.clauses = clauses
        self.counts = np.zeros(n, dtype=np.int64)
        self._ns_map = ns_map
        self._ns_memo: dict[tuple[int, str], bool] = {}

    def matches(self, namespace: str, labels: Mapping[str, str]) -> bool:
        for i, (names, ns_selector, selector) in enumerate(self.clauses):
            if namespace not in names:
                if ns_selector is None:
                    return False
                hit = self._ns_memo.get((i, namespace))
                if hit is None:
                    hit = ns_selector.matches(namespace_labels(self._ns_map, namespace))
                    self._ns_memo[(i, namespace)] = hit
                if not hit:
                    return False
            if not selector.matches(labels):
                return False
        return True


class PodMatchCounts:
    """A ledger (`state.index(POD_MATCH_COUNTS, ...)`, one per cluster state): per-node counts of placed pods matching a set of
    clauses, for every clause set asked for so far, kept current on assume/forget/rollback.

    Placed pods are also grouped by (namespace, labels), so a clause set asked for the first
    time is counted by testing each distinct label set once, O(label sets), instead of
    replaying every pod (a separate `state.index` per selector would replay all pods on
    creation). On a pod change only the counters that can match its namespace are tested."""

    def __init__(self, state: "ClusterState"):
        self.n = state.n
        self.classes: dict[tuple, list] = {}  # (namespace, labels) -> [namespace, labels, {node: count}]
        self.counters: dict[tuple, _Counter] = {}
        # Counters whose clauses only name namespaces, by namespace; the rest are always tested.
        self._by_namespace: dict[str, list[_Counter]] = {}
        self._any_namespace: list[_Counter] = []

    def add(self, pod: Pod, node: int) -> None:
        self._update(pod, node, 1)

    def remove(self, pod: Pod, node: int) -> None:
        self._update(pod, node, -1)

    def _update(self, pod: Pod, node: int, delta: int) -> None:
        key = (pod.namespace, frozenset(pod.labels.items()))
        entry = self.classes.get(key)
        if entry is None:
            entry = self.classes[key] = [pod.namespace, pod.labels, {}]
        nodes = entry[2]
        left = nodes.get(node, 0) + delta
        if left:
            nodes[node] = left
        else:
            nodes.pop(node, None)
        for counter in self._by_namespace.get(pod.namespace, ()):
            if counter.matches(pod.namespace, pod.labels):
                counter.counts[node] += delta
        for counter in self._any_namespace:
            if counter.matches(pod.namespace, pod.labels):
                counter.counts[node] += delta

    def counts(self, clauses: tuple[Clause, ...], ns_map: Mapping, token: object) -> np.ndarray:
        key = (clauses, token)
        counter = self.counters.get(key)
        if counter is None:
            counter = self.counters[key] = _Counter(self.n, clauses, ns_map)
            for namespace, labels, nodes in self.classes.values():
                if nodes and counter.matches(namespace, labels):
                    for node, count in nodes.items():
                        counter.counts[node] += count
            if all(ns_selector is None for _, ns_selector, _ in clauses):
                names = frozenset.intersection(*(c[0] for c in clauses))
                for namespace in names:
                    self._by_namespace.setdefault(namespace, []).append(counter)
            else:
                self._any_namespace.append(counter)
        return counter.counts


def namespace_labels_token(ns_map: Mapping[str, Mapping[str, str]]) -> tuple:
    """A hashable stand-in for the namespace labels (part of index keys that depend on them)."""
    return tuple(sorted((ns, tuple(sorted(lbl.items()))) for ns, lbl in ns_map.items()))


def pod_match_counts(
    state: "ClusterState",
    clauses: tuple[Clause, ...],
    ns_map: Mapping | None = None,
    ns_token: tuple | None = None,
) -> np.ndarray:
    """Live per-node counts (do not modify) of placed pods matching all `clauses` (at least
    one). `ns_token` (namespace_labels_token(ns_map)) is needed only when a clause has a
    namespaceSelector; pass it precomputed to avoid rebuilding it per call."""
    ns_map = ns_map or {}
    token = None
    if any(c[1] is not None for c in clauses):
        # namespaceSelector results depend on namespace labels: key the counter on them too.
        token = ns_token if ns_token is not None else namespace_labels_token(ns_map)
    return state.index(POD_MATCH_COUNTS, PodMatchCounts).counts(clauses, ns_map, token)
