"""InterPodAffinity's terms: a pod's (anti-)affinity terms resolved against its namespace, and the
placed pods' terms kept per node as a ledger of the cluster state.

Mirrors the term handling of `pkg/scheduler/framework/plugins/interpodaffinity/` (filtering.go's
and scoring.go's term lists, `framework.AffinityTerm`); the plugin is
`plugins/inter_pod_affinity.py`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

import numpy as np

from podgroup_plan.model.objects import Pod, PodAffinityTerm
from podgroup_plan.model.selectors import LabelSelector, LabelSelectorRequirement
from podgroup_plan.plugins.helper.pod_match_counts import (
    label_selector_matches,
    namespace_labels,
)
from podgroup_plan.state.cluster import ClusterState
from podgroup_plan.state.derived import DerivedKey

NAME = "InterPodAffinity"

REQUIRED_AFFINITY = "required-affinity"
REQUIRED_ANTI_AFFINITY = "required-anti-affinity"
PREFERRED_AFFINITY = "preferred-affinity"
PREFERRED_ANTI_AFFINITY = "preferred-anti-affinity"
_KINDS = (REQUIRED_AFFINITY, REQUIRED_ANTI_AFFINITY, PREFERRED_AFFINITY, PREFERRED_ANTI_AFFINITY)


@dataclass(frozen=True, slots=True)
class AffinityTerm:
    """A term resolved against the pod that owns it (framework AffinityTerm)."""

    namespaces: frozenset[str]
    namespace_selector: LabelSelector | None  # None: no namespaceSelector (matches nothing)
    selector: LabelSelector | None  # None: nil labelSelector (matches nothing)
    topology_key: str

    def matches(self, pod: Pod, ns_map: Mapping[str, Mapping[str, str]]) -> bool:
        """AffinityTerm.Matches: the pod's namespace is listed or selected, and its labels match."""
        if not label_selector_matches(self.selector, pod.labels):
            return False
        if pod.namespace in self.namespaces:
            return True
        return self.namespace_selector is not None and self.namespace_selector.matches(
            namespace_labels(ns_map, pod.namespace)
        )

    @property
    def clause(self):
        return (self.namespaces, self.namespace_selector, self.selector)


def resolve_term(owner: Pod, term: PodAffinityTerm) -> AffinityTerm:
    """Namespaces: the listed ones, or the owner's namespace when neither namespaces nor a
    namespaceSelector is set. Selector: matchLabelKeys add `key In (value)` and
    mismatchLabelKeys `key NotIn (value)` from the owner's labels (only keys the owner has, and
    never to a nil selector)."""
    if term.namespaces or term.namespace_selector is not None:
        names = frozenset(term.namespaces)
    else:
        names = frozenset((owner.namespace,))
    selector = term.label_selector
    if selector is not None and (term.match_label_keys or term.mismatch_label_keys):
        extra = tuple(
            LabelSelectorRequirement(k, "In", (owner.labels[k],))
            for k in term.match_label_keys if k in owner.labels
        ) + tuple(
            LabelSelectorRequirement(k, "NotIn", (owner.labels[k],))
            for k in term.mismatch_label_keys if k in owner.labels
        )
        if extra:
            selector = LabelSelector(selector.match_labels, selector.match_expressions + extra)
    return AffinityTerm(names, term.namespace_selector, selector, term.topology_key)


def pod_terms(pod: Pod) -> list[tuple[str, AffinityTerm, int]]:
    """(kind, resolved term, weight) for every pod-affinity term of `pod`; weight 0 for
    required terms."""
    a = pod.affinity
    if a is None:
        return []
    out = [(REQUIRED_AFFINITY, resolve_term(pod, t), 0) for t in a.pod_affinity_required]
    out += [(REQUIRED_ANTI_AFFINITY, resolve_term(pod, t), 0) for t in a.pod_anti_affinity_required]
    out += [(PREFERRED_AFFINITY, resolve_term(pod, w.term), w.weight) for w in a.pod_affinity_preferred]
    out += [(PREFERRED_ANTI_AFFINITY, resolve_term(pod, w.term), w.weight) for w in a.pod_anti_affinity_preferred]
    return out


def matches_all_required_affinity_terms(pod: Pod, added: Pod) -> bool:
    """podMatchesAllAffinityTerms over `pod`'s required pod-affinity terms, as the queueing hint
    for an added pod calls it (v1.37.0 isSchedulableAfterAssignedPodChange): False without any
    such term; namespace labels are not looked up (the hint passes none), so only an empty
    namespaceSelector selects another namespace."""
    a = pod.affinity
    if a is None or not a.pod_affinity_required:
        return False
    for term in a.pod_affinity_required:
        t = resolve_term(pod, term)
        if not label_selector_matches(t.selector, added.labels):
            return False
        if added.namespace not in t.namespaces and not (
                t.namespace_selector is not None and t.namespace_selector.matches({})):
            return False
    return True


class _TermPlacement:
    """Where the placed pods carrying one term are: node -> pods, and per domain of the term's
    topology key (`state.label_column`) the pods on nodes of that domain."""

    __slots__ = ("nodes", "codes", "domains")

    def __init__(self, codes: np.ndarray, size: int):
        self.nodes: dict[int, int] = {}
        self.codes = codes
        self.domains = np.zeros(size, dtype=np.int64)  # nodes without the label count nowhere

    def update(self, node: int, delta: int) -> None:
        left = self.nodes.get(node, 0) + delta
        if left:
            self.nodes[node] = left
        else:
            del self.nodes[node]
        code = self.codes[node]
        if code >= 0:
            self.domains[code] += delta


class _ExistingTerms:
    """A ledger (`state.index`): for each distinct (kind, resolved term, weight) carried by
    placed pods, where those pods are (`_TermPlacement`: per node and per topology domain),
    kept current on assume/forget/rollback. Terms with a nil selector match nothing and are
    not kept."""

    def __init__(self, state: "ClusterState"):
        self.state = state
        self.terms: dict[str, dict[tuple[AffinityTerm, int], _TermPlacement]] = {k: {} for k in _KINDS}
        # insertion order per kind, so match results can be extended incrementally
        self.order: dict[str, list[tuple[AffinityTerm, int]]] = {k: [] for k in _KINDS}
        self.match_memo: dict[tuple, list] = {}
        # resolved terms per pod (a pod's terms are resolved once, not on every add/remove)
        self._pod_terms: dict[tuple, tuple[object, list[tuple[str, AffinityTerm, int]]]] = {}

    def _terms_of(self, pod: Pod) -> list[tuple[str, AffinityTerm, int]]:
        # The affinity object is keyed by its `id` (its generated hash walks every term on
        # every add and remove) and kept in the entry, so that id cannot be reused meanwhile.
        a = pod.affinity
        key = (pod.namespace, tuple(pod.labels.items()), id(a))
        found = self._pod_terms.get(key)
        if found is None or found[0] is not a:
            found = self._pod_terms[key] = (a, [t for t in pod_terms(pod) if t[1].selector is not None])
        return found[1]

    def add(self, pod: Pod, node: int) -> None:
        if pod.affinity is None:
            return
        for kind, term, weight in self._terms_of(pod):
            sig = (term, weight)
            placed = self.terms[kind].get(sig)
            if placed is None:
                codes, values = self.state.label_column(term.topology_key)
                placed = self.terms[kind][sig] = _TermPlacement(codes, len(values))
                self.order[kind].append(sig)
            placed.update(node, 1)

    def remove(self, pod: Pod, node: int) -> None:
        if pod.affinity is None:
            return
        for kind, term, weight in self._terms_of(pod):
            self.terms[kind][(term, weight)].update(node, -1)

    def matching(self, kind: str, pod: Pod, ns_map: Mapping, ns_token: tuple) -> list[tuple[AffinityTerm, int]]:
        """The kind's terms (of placed pods) that the incoming pod matches."""
        return self.refresh(self.match_entry(kind, pod, ns_token), kind, pod, ns_map)

    def match_entry(self, kind: str, pod: Pod, ns_token: tuple, labels: frozenset | None = None) -> list:
        """The memo entry [terms tested, terms matched] of the kind's terms for pods of
        `pod`'s namespace and labels (`labels`: those items as a frozenset, when known;
        `refresh` brings it up to date)."""
        key = (kind, pod.namespace, frozenset(pod.labels.items()) if labels is None else labels, ns_token)
        entry = self.match_memo.get(key)
        if entry is None:
            entry = self.match_memo[key] = [0, []]
        return entry

    def refresh(self, entry: list, kind: str, pod: Pod, ns_map: Mapping) -> list[tuple[AffinityTerm, int]]:
        """`entry`'s matched terms, after testing the terms placed pods brought since."""
        order = self.order[kind]
        if entry[0] < len(order):
            entry[1].extend(sig for sig in order[entry[0]:] if sig[0].matches(pod, ns_map))
            entry[0] = len(order)
        return entry[1]


# The ledger of existing pods' terms (state/derived.py).
_EXISTING_TERMS: DerivedKey[_ExistingTerms] = DerivedKey(NAME + "/existingTerms")
