"""Where copies landed, by topology domain, and what is left free per domain.

The topology labels are found on the nodes: every label key that names a topology
(`topology.kubernetes.io/zone`, `topology.example.com/rack`, the older
`failure-domain.beta.kubernetes.io/*`, any key with `topology` in it), plus every key a PodGroup,
CompositePodGroup or Workload of the input or the workloads constrains on. The node name
(`kubernetes.io/hostname`) is not one: a copy's nodes say it already.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import Node
from podgroup_plan.state.cluster import ClusterState

ZONE = "topology.kubernetes.io/zone"
HOSTNAME = "kubernetes.io/hostname"


def natural_key(text: str) -> list:
    import re

    return [(0, int(p)) if p.isdigit() else (1, p) for p in re.split(r"(\d+)", text)]


def constrained_keys(inputs: Iterable[ClusterInput]) -> set[str]:
    keys: set[str] = set()
    for ci in inputs:
        keys |= {g.topology_key for g in ci.pod_groups if g.topology_key}
        keys |= {c.topology_key for c in ci.composite_pod_groups if c.topology_key}
        for w in ci.workloads:
            keys |= {t.topology_key for t in w.pod_group_templates if t.topology_key}
            keys |= {t.topology_key for t in w.composite_pod_group_templates if t.topology_key}
        found = ci.controllers
        if found:
            keys |= {j.scheduling.topology_key for j in found.jobs if j.scheduling and j.scheduling.topology_key}
    keys.discard(HOSTNAME)
    return keys


def topology_labels(nodes: Sequence[Node], extra: Iterable[str] = ()) -> list[str]:
    """The topology label keys the nodes carry, broadest first (fewest distinct values), then
    by name."""
    wanted = set(extra)
    present = {k for n in nodes for k in n.labels}
    keys = {k for k in present if ("topology" in k or k.startswith("failure-domain.")) and k != HOSTNAME}
    keys |= wanted & present
    values = {k: len({n.labels[k] for n in nodes if k in n.labels}) for k in keys}
    return sorted(keys, key=lambda k: (values[k], k))


def domains_of(nodes: Iterable[str], by_name: Mapping[str, Node], labels: Sequence[str]) -> dict[str, list[str]]:
    """label -> the values (natural order) the nodes carry; labels none of them carries left out."""
    out: dict[str, list[str]] = {}
    chosen = [by_name[n] for n in nodes]
    for key in labels:
        values = sorted({n.labels[key] for n in chosen if key in n.labels}, key=natural_key)
        if values:
            out[key] = values
    return out


def by_domain(state: ClusterState, label: str, copies: Sequence[Any]) -> dict[str, dict[str, Any]]:
    """value of `label` -> copies that placed a pod there, nodes, and the resources left free
    (allocatable less requested, summed over its nodes, for every resource a node offers), as
    the plan leaves the cluster with the copies that fit."""
    column = [n.labels.get(label) for n in state.nodes]
    values = sorted({v for v in column if v is not None}, key=natural_key)
    free = state.allocatable - state.requested
    out: dict[str, dict[str, Any]] = {}
    node_value = {name: column[i] for i, name in enumerate(state.node_names)}
    for value in values:
        rows = np.array([i for i, v in enumerate(column) if v == value], dtype=np.intp)
        left = {r: int(free[i, rows].sum()) for i, r in enumerate(state.resource_names)
                if int(state.allocatable[i, rows].sum()) > 0}
        left["pods"] = int((state.allowed_pods[rows] - state.pod_count[rows]).sum())
        count = sum(1 for c in copies if any(node_value.get(n) == value for n in c.nodes))
        out[value] = {"copies": count, "nodes": int(rows.size), "free": dict(sorted(left.items()))}
    return out
