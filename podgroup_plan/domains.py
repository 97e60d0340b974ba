"""The topology levels a cluster's nodes carry, and the domains a group's pods span at each.

A level is a node label that names where a node sits: `topology.kubernetes.io/region` and
`/zone`, any label whose key mentions `topology` (GKE's `cloud.google.com/gce-topology-block`
and `-subblock`, `topology.example.com/rack`, ...) and any key a PodGroup or CompositePodGroup
constrains its placement to. `kubernetes.io/hostname` is the node itself, not a level. Levels
are ordered coarse to fine by how many values the nodes give them (a region before its zones,
zones before blocks), then by key. This is the planner's own account (kube-scheduler reports
only the domain of a constrained group's placement), shown as `podGroups[].domains`.
"""
from __future__ import annotations

from typing import Iterable, Mapping, Sequence

HOSTNAME = "kubernetes.io/hostname"
WELL_KNOWN = ("topology.kubernetes.io/region", "topology.kubernetes.io/zone")


def topology_levels(node_labels: Sequence[Mapping[str, str]], constraint_keys: Iterable[str | None]) -> list[str]:
    """The topology label keys the nodes carry, coarse to fine."""
    wanted = {k for k in constraint_keys if k} | set(WELL_KNOWN)
    values: dict[str, set[str]] = {}
    for labels in node_labels:
        for key, value in labels.items():
            if key != HOSTNAME and (key in wanted or "topology" in key):
                values.setdefault(key, set()).add(value)
    return sorted(values, key=lambda k: (len(values[k]), k not in WELL_KNOWN, k))


def domains(levels: Sequence[str], node_labels: Iterable[Mapping[str, str]]) -> list[tuple[str, tuple[str, ...]]]:
    """(key, the values the given nodes have for it, sorted) per level; a level none of the nodes
    carries is left out."""
    labels = list(node_labels)
    out = []
    for key in levels:
        values = sorted({lab[key] for lab in labels if key in lab})
        if values:
            out.append((key, tuple(values)))
    return out
