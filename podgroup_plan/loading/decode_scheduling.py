"""Selectors and scheduling constraints, as the API defaults them: shared by pods, PDBs and the
objects that select pods for spreading.

Mirrors `metav1.LabelSelector`, `v1.NodeSelector` and the pod's `Affinity`, `Toleration` and
`TopologySpreadConstraint` after apiserver defaulting (toleration operator `Equal`, spread
policies `Honor`/`Ignore`), and kube-scheduler's `helper.DefaultSelector` sources: the
Services, ReplicationControllers, ReplicaSets and StatefulSets that select a pod.
"""
from __future__ import annotations

from typing import Mapping

from podgroup_plan.loading.decode_meta import namespace_of
from podgroup_plan.loading.documents import Document
from podgroup_plan.model.objects import (
    Affinity,
    PodAffinityTerm,
    PreferredSchedulingTerm,
    SpreadSelector,
    Toleration,
    TopologySpreadConstraint,
    WeightedPodAffinityTerm,
)
from podgroup_plan.model.selectors import (
    LabelSelector,
    LabelSelectorRequirement,
    NodeSelector,
    NodeSelectorRequirement,
    NodeSelectorTerm,
)


def label_selector(raw: Mapping | None) -> LabelSelector | None:
    """metav1.LabelSelector; None when absent (callers decide what nil means). A missing key or
    operator is Go's "" (refused by validate_selectors.py, so never planned)."""
    if raw is None:
        return None
    labels = raw.get("matchLabels") or {}
    return LabelSelector(
        tuple(sorted(labels.items())),
        tuple(
            LabelSelectorRequirement(e.get("key") or "", e.get("operator") or "", tuple(e.get("values") or ()))
            for e in raw.get("matchExpressions") or ()
        ),
    )


def node_selector_term(raw: Mapping | None) -> NodeSelectorTerm:
    raw = raw or {}
    return NodeSelectorTerm(
        tuple(
            NodeSelectorRequirement(e.get("key") or "", e.get("operator") or "", tuple(e.get("values") or ()))
            for e in raw.get("matchExpressions") or ()
        ),
        tuple(
            NodeSelectorRequirement(e.get("key") or "", e.get("operator") or "", tuple(e.get("values") or ()))
            for e in raw.get("matchFields") or ()
        ),
    )


def pod_affinity_term(raw: Mapping) -> PodAffinityTerm:
    return PodAffinityTerm(
        label_selector=label_selector(raw.get("labelSelector")),
        topology_key=raw.get("topologyKey") or "",  # missing: refused by validate_pods.py
        namespaces=tuple(raw.get("namespaces") or ()),
        namespace_selector=label_selector(raw.get("namespaceSelector")),
        match_label_keys=tuple(raw.get("matchLabelKeys") or ()),
        mismatch_label_keys=tuple(raw.get("mismatchLabelKeys") or ()),
    )


def _weighted_terms(raw: list | None) -> tuple[WeightedPodAffinityTerm, ...]:
    return tuple(
        WeightedPodAffinityTerm(t["weight"], pod_affinity_term(t["podAffinityTerm"]))
        for t in raw or ()
    )


def affinity(raw: Mapping | None) -> Affinity | None:
    if not raw:
        return None
    node = raw.get("nodeAffinity") or {}
    pod = raw.get("podAffinity") or {}
    anti = raw.get("podAntiAffinity") or {}
    required = node.get("requiredDuringSchedulingIgnoredDuringExecution")
    result = Affinity(
        node_required=(
            NodeSelector(tuple(node_selector_term(t) for t in required.get("nodeSelectorTerms") or ()))
            if required is not None
            else None
        ),
        node_preferred=tuple(
            PreferredSchedulingTerm(t["weight"], node_selector_term(t["preference"]))
            for t in node.get("preferredDuringSchedulingIgnoredDuringExecution") or ()
        ),
        pod_affinity_required=tuple(
            pod_affinity_term(t) for t in pod.get("requiredDuringSchedulingIgnoredDuringExecution") or ()
        ),
        pod_affinity_preferred=_weighted_terms(pod.get("preferredDuringSchedulingIgnoredDuringExecution")),
        pod_anti_affinity_required=tuple(
            pod_affinity_term(t) for t in anti.get("requiredDuringSchedulingIgnoredDuringExecution") or ()
        ),
        pod_anti_affinity_preferred=_weighted_terms(anti.get("preferredDuringSchedulingIgnoredDuringExecution")),
    )
    return None if result == Affinity() else result


def toleration(raw: Mapping) -> Toleration:
    return Toleration(
        key=raw.get("key") or "",
        operator=raw.get("operator") or "Equal",
        value=raw.get("value") or "",
        effect=raw.get("effect") or "",
    )


def spread_constraint(raw: Mapping) -> TopologySpreadConstraint:
    return TopologySpreadConstraint(
        max_skew=raw["maxSkew"],
        topology_key=raw["topologyKey"],
        when_unsatisfiable=raw["whenUnsatisfiable"],
        label_selector=label_selector(raw.get("labelSelector")),
        min_domains=raw.get("minDomains"),
        node_affinity_policy=raw.get("nodeAffinityPolicy") or "Honor",
        node_taints_policy=raw.get("nodeTaintsPolicy") or "Ignore",
        match_label_keys=tuple(raw.get("matchLabelKeys") or ()),
    )


def decode_spread_selector(doc: Document) -> SpreadSelector | None:
    """Services and ReplicationControllers select with a map, ReplicaSets and StatefulSets with
    a LabelSelector. Objects that select nothing are left out, as DefaultSelector skips them."""
    obj, kind = doc.obj, doc.kind
    meta = obj["metadata"]
    spec = obj.get("spec") or {}
    if kind in ("Service", "ReplicationController"):
        labels = spec.get("selector")
        if not labels and kind == "ReplicationController":  # defaulted from the pod template
            labels = ((spec.get("template") or {}).get("metadata") or {}).get("labels")
        if not labels:
            return None
        selector = LabelSelector(tuple(sorted(labels.items())))
    else:
        given = label_selector(spec.get("selector"))
        if given is None:  # refused (apps validation: Required), never planned
            return None
        selector = given
    return SpreadSelector(kind, namespace_of(meta), meta["name"], selector)
