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

from typing import Callable, Mapping

import numpy as np

from podgroup_plan.model.objects import Pod
from podgroup_plan.model.selectors import LabelSelector
from podgroup_plan.state.cluster import ClusterState
from podgroup_plan.state.derived import DerivedKey

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


class DomainCounts:
    """Per topology domain (a label value's code, `state.label_column`), the placed pods on
    the *eligible* nodes of that domain that match a counter's clauses: what upstream sums per
    `TpPairToMatchNum` (spreading) or per topology pair (pod affinity). Kept current with the
    counter, one row at a time, so a plugin reads the sums instead of a `bincount` over all
    nodes per pod."""

    __slots__ = ("node_domain", "sums")

    def __init__(self, node_domain: np.ndarray, size: int, counts: np.ndarray):
        # per node: its domain when it counts (eligible and labelled), else -1
        self.node_domain = node_domain
        counted = node_domain >= 0
        self.sums = np.bincount(node_domain[counted], weights=counts[counted], minlength=size).astype(np.int64)


class _Counter:
    """Per node, the number of placed pods matching every clause of a selector, and the
    per-domain sums (`DomainCounts`) asked for over it."""

    __slots__ = ("clauses", "namespaces", "counts", "domains", "_ns_map", "_ns_memo")

    def __init__(self, n: int, clauses: tuple[Clause, ...], ns_map: Mapping):
        self.clauses = clauses
        # the only namespaces a matching pod can be in; None when a namespaceSelector may match
        self.namespaces: frozenset | None = (
            frozenset.intersection(*(c[0] for c in clauses))
            if all(ns_selector is None for _, ns_selector, _ in clauses) else None
        )
        self.counts = np.zeros(n, dtype=np.int64)
        self.domains: dict[object, DomainCounts] = {}
        self._ns_map = ns_map
        self._ns_memo: dict[tuple[int, str], bool] = {}

    def matches(self, namespace: str, labels: Mapping[str, str]) -> bool:
        if self.namespaces is not None and namespace not in self.namespaces:
            return False
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


class _LabelClass:
    """Placed pods of one (namespace, labels): node -> count, and the counters they match
    (tested once per counter, as counters are added)."""

    __slots__ = ("namespace", "labels", "nodes", "matched", "tested")

    def __init__(self, namespace: str, labels: Mapping[str, str]):
        self.namespace = namespace
        self.labels = labels
        self.nodes: dict[int, int] = {}
        self.matched: list[_Counter] = []
        self.tested = 0  # counters (in creation order) tested so far


class PodMatchCounts:
    """A ledger (`state.index(POD_MATCH_COUNTS, ...)`, one per cluster state): per-node counts
    of placed pods matching a set of clauses, for every clause set asked for so far, and their
    per-domain sums, kept current on assume/forget/rollback.

    Placed pods are grouped by (namespace, labels), so a clause set asked for the first time is
    counted by testing each distinct label set once, O(label sets), instead of replaying every
    pod (a separate `state.index` per selector would replay all pods on creation); a label set
    remembers which counters it matches, so a pod change tests nothing already tested."""

    def __init__(self, state: "ClusterState"):
        self.n = state.n
        self.classes: dict[tuple, _LabelClass] = {}
        self.counters: dict[tuple, _Counter] = {}
        self._order: list[_Counter] = []  # creation order

    def add(self, pod: Pod, node: int) -> None:
        self._update(pod, node, 1)

    def remove(self, pod: Pod, node: int) -> None:
        self._update(pod, node, -1)

    def _update(self, pod: Pod, node: int, delta: int) -> None:
        key = (pod.namespace, frozenset(pod.labels.items()))
        cls = self.classes.get(key)
        if cls is None:
            cls = self.classes[key] = _LabelClass(pod.namespace, pod.labels)
        nodes = cls.nodes
        left = nodes.get(node, 0) + delta
        if left:
            nodes[node] = left
        else:
            nodes.pop(node, None)
        if cls.tested < len(self._order):
            self._test(cls)
        for counter in cls.matched:
            counter.counts[node] += delta
            for dc in counter.domains.values():
                d = dc.node_domain[node]
                if d >= 0:
                    dc.sums[d] += delta

    def _test(self, cls: _LabelClass) -> None:
        for counter in self._order[cls.tested:]:
            if counter.matches(cls.namespace, cls.labels):
                cls.matched.append(counter)
        cls.tested = len(self._order)

    def _counter(self, clauses: tuple[Clause, ...], ns_map: Mapping, token: object) -> _Counter:
        key = (clauses, token)
        counter = self.counters.get(key)
        if counter is None:
            counter = self.counters[key] = _Counter(self.n, clauses, ns_map)
            self._order.append(counter)
            for cls in self.classes.values():
                self._test(cls)
                if cls.nodes and cls.matched and cls.matched[-1] is counter:
                    for node, count in cls.nodes.items():
                        counter.counts[node] += count
        return counter

    def counts(self, clauses: tuple[Clause, ...], ns_map: Mapping, token: object) -> np.ndarray:
        return self._counter(clauses, ns_map, token).counts

    def domain_counts(
        self, clauses: tuple[Clause, ...], ns_map: Mapping, token: object, domain_key: object,
        node_domain: Callable[[], tuple[np.ndarray, int]],
    ) -> DomainCounts:
        """The counter's per-domain sums registered as `domain_key`; `node_domain()` gives, the
        first time, (per node its domain or -1 where it does not count, number of domains)."""
        counter = self._counter(clauses, ns_map, token)
        dc = counter.domains.get(domain_key)
        if dc is None:
            codes, size = node_domain()
            dc = counter.domains[domain_key] = DomainCounts(codes, size, counter.counts)
        return dc


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


def _token(clauses: tuple[Clause, ...], ns_map: Mapping, ns_token: tuple | None) -> tuple | None:
    for c in clauses:
        if c[1] is not None:  # a namespaceSelector: the counter depends on namespace labels
            return ns_token if ns_token is not None else namespace_labels_token(ns_map)
    return None


def pod_match_domain_counts(
    state: "ClusterState",
    clauses: tuple[Clause, ...],
    domain_key: object,
    node_domain: Callable[[], tuple[np.ndarray, int]],
    ns_map: Mapping | None = None,
    ns_token: tuple | None = None,
) -> DomainCounts:
    """Live per-domain sums (do not modify `.sums`) of placed pods matching all `clauses`
    over the nodes `node_domain()` maps to a domain; `domain_key` names that mapping (the
    topology key and which nodes count), and `node_domain` is called only the first time."""
    ns_map = ns_map or {}
    index = state.index(POD_MATCH_COUNTS, PodMatchCounts)
    return index.domain_counts(clauses, ns_map, _token(clauses, ns_map, ns_token), domain_key, node_domain)
