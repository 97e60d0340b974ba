"""What is left of the cluster before and after the plan: per node usage, and GPU fragmentation
per zone and rack (the result's `capacity` section, docs/contract.md).

kube-scheduler has no such report; this is the planner's own account, computed from the
cluster state's columns (state/cluster.py) as the plan found and left them, so it can never
disagree with the decisions. "How many 8-GPU slots are left per rack" is the question it
answers (kueue#10505): a node with 6 free GPUs holds one 4-GPU slot and no 8-GPU slot, and
eight nodes with one free GPU each hold eight free GPUs but no 2-GPU slot.

The map's levels come from the topology labels the input uses: the zone is
`topology.kubernetes.io/zone` when a node carries it, the rack the finest other key a PodGroup
or CompositePodGroup constrains its placement to (the one with most values over the nodes).
Nodes without a label are grouped apart (`null`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

ZONE_LABEL = "topology.kubernetes.io/zone"
# N-GPU slots counted per domain: a pod asking for N GPUs fits in one.
SLOT_SIZES = (1, 2, 4, 8)
# The resources of a node's map cell and the table view, in this order.
CPU, MEMORY, GPU, PODS = "cpu", "memory", "gpu", "pods"
MEASURES = (CPU, MEMORY, GPU, PODS)


def gpu_resource(resource_names: Sequence[str], allocatable: np.ndarray) -> str | None:
    """The extended resource counted as GPUs: one named `<vendor>/gpu` (nvidia.com/gpu,
    amd.com/gpu), the one with most allocatable over the nodes when several (then by name);
    None when no node has one."""
    best: tuple[int, str] | None = None
    for row, name in enumerate(resource_names):
        if name.endswith("/gpu"):
            total = int(allocatable[row].sum())
            if total > 0 and (best is None or (-total, name) < (-best[0], best[1])):
                best = (total, name)
    return None if best is None else best[1]


def topology_keys(node_labels: Sequence[Mapping[str, str]], constraint_keys: Iterable[str | None]
                  ) -> tuple[str | None, str | None]:
    """(zone key, rack key) for the map, from the labels the input uses (module docstring)."""
    used = sorted({k for k in constraint_keys if k})
    zone = ZONE_LABEL if any(ZONE_LABEL in labels for labels in node_labels) else None
    values: dict[str, set[str]] = {k: set() for k in used if k != zone}
    for labels in node_labels:
        for key, seen in values.items():
            if key in labels:
                seen.add(labels[key])
    ranked = sorted(values, key=lambda k: (-len(values[k]), k))
    ranked = [k for k in ranked if values[k]]
    if zone is None and len(ranked) > 1:
        zone = ranked.pop()  # the coarsest key used stands in for the zone
    return zone, (ranked[0] if ranked else None)


@dataclass(frozen=True)
class NodeUsage:
    """Every node (in name order) with its topology and its usage before and after the plan:
    plain columns, one entry per node. cpu in millicores, memory in bytes, gpu in devices of
    `gpu_resource` (0 everywhere when it is None), pods in pods."""

    names: tuple[str, ...]
    zone_key: str | None
    rack_key: str | None
    zones: tuple[str | None, ...]
    racks: tuple[str | None, ...]
    gpu_resource: str | None
    allocatable: Mapping[str, np.ndarray]
    before: Mapping[str, np.ndarray]
    after: Mapping[str, np.ndarray]
    # (namespace, name) of the pods on each node after the plan (the renderers tell running from
    # newly placed ones with the result's pods[], and add the evicted ones from victims[])
    pods_after: Sequence[Iterable[tuple[str, str]]] = field(default=(), compare=False, repr=False)

    @classmethod
    def from_state(cls, nodes: Sequence[Any], resource_names: Sequence[str], allocatable: np.ndarray,
                   allowed_pods: np.ndarray, before: tuple[np.ndarray, np.ndarray],
                   after: tuple[np.ndarray, np.ndarray], constraint_keys: Iterable[str | None],
                   pods_after: Sequence[Iterable[tuple[str, str]]] = ()) -> "NodeUsage":
        """From the cluster state's columns: `allocatable` (resource x node), `before` and `after`
        each (requested resource x node, pod count per node)."""
        labels = [n.labels for n in nodes]
        zone_key, rack_key = topology_keys(labels, constraint_keys)
        gpu = gpu_resource(resource_names, allocatable)
        rows = {CPU: resource_names.index("cpu"), MEMORY: resource_names.index("memory")}
        if gpu is not None:
            rows[GPU] = list(resource_names).index(gpu)
        zero = np.zeros(len(nodes), dtype=np.int64)

        def columns(requested: np.ndarray, pods: np.ndarray) -> dict[str, np.ndarray]:
            out = {m: requested[r].copy() for m, r in rows.items()}
            out.setdefault(GPU, zero)
            out[PODS] = pods.copy()
            return out

        return cls(
            names=tuple(n.name for n in nodes),
            zone_key=zone_key, rack_key=rack_key,
            zones=tuple(lab.get(zone_key) if zone_key else None for lab in labels),
            racks=tuple(lab.get(rack_key) if rack_key else None for lab in labels),
            gpu_resource=gpu,
            allocatable=columns(allocatable, allowed_pods),
            before=columns(*before), after=columns(*after),
            pods_after=pods_after,
        )

    def free(self, when: str, measure: str = GPU) -> np.ndarray:
        """Free amount per node (`when`: "before" or "after"); an over-committed node has 0."""
        used = self.before if when == "before" else self.after
        return np.maximum(self.allocatable[measure] - used[measure], 0)


@dataclass(frozen=True, slots=True)
class FreeGpus:
    """Free GPUs of a domain at one moment: the total, how many nodes have k free (k ascending,
    only counts that occur), and how many N-GPU slots are left (sum over nodes of free // N)."""

    free: int
    histogram: tuple[tuple[int, int], ...]
    slots: tuple[tuple[int, int], ...]

    def to_dict(self) -> dict[str, Any]:
        return {"free": self.free,
                "histogram": [{"free": k, "nodes": n} for k, n in self.histogram],
                "slots": [{"size": s, "count": c} for s, c in self.slots]}


@dataclass(frozen=True, slots=True)
class DomainCapacity:
    """A zone, a rack or the whole cluster (name None for the cluster and for nodes without the
    label)."""

    name: str | None
    zone: str | None
    nodes: int
    gpu_nodes: int
    allocatable: int
    before: FreeGpus
    after: FreeGpus

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "zone": self.zone, "nodes": self.nodes, "gpuNodes": self.gpu_nodes,
                "allocatable": self.allocatable, "before": self.before.to_dict(),
                "after": self.after.to_dict()}


@dataclass(frozen=True, slots=True)
class Capacity:
    resource: str | None
    zone_key: str | None
    rack_key: str | None
    cluster: DomainCapacity
    zones: tuple[DomainCapacity, ...]
    racks: tuple[DomainCapacity, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"resource": self.resource, "zoneKey": self.zone_key, "rackKey": self.rack_key,
                "slotSizes": list(SLOT_SIZES), "cluster": self.cluster.to_dict(),
                "zones": [z.to_dict() for z in self.zones], "racks": [r.to_dict() for r in self.racks]}


def _free_gpus(free: np.ndarray) -> FreeGpus:
    counts = np.bincount(free) if free.size else np.zeros(0, dtype=np.int64)
    histogram = tuple((int(k), int(n)) for k, n in enumerate(counts) if n)
    slots = tuple((s, int((free // s).sum())) for s in SLOT_SIZES)
    return FreeGpus(int(free.sum()), histogram, slots)


def _domain(usage: NodeUsage, rows: np.ndarray, name: str | None, zone: str | None,
            free_before: np.ndarray, free_after: np.ndarray) -> DomainCapacity:
    alloc = usage.allocatable[GPU][rows]
    gpu_rows = rows[alloc > 0]  # the histogram counts GPU nodes only
    return DomainCapacity(name, zone, int(rows.size), int(gpu_rows.size), int(alloc.sum()),
                          _free_gpus(free_before[gpu_rows]), _free_gpus(free_after[gpu_rows]))


def _order(value: str | None) -> tuple[bool, str]:
    return (value is None, value or "")  # nodes without the label last


def capacity(usage: NodeUsage) -> Capacity:
    """The fragmentation figures of the whole cluster, each zone and each (zone, rack)."""
    before, after = usage.free("before"), usage.free("after")
    everything = np.arange(len(usage.names), dtype=np.intp)
    zones: dict[str | None, list[int]] = {}
    racks: dict[tuple[str | None, str | None], list[int]] = {}
    for i, (zone, rack) in enumerate(zip(usage.zones, usage.racks, strict=True)):
        zones.setdefault(zone, []).append(i)
        if usage.rack_key is not None:
            racks.setdefault((zone, rack), []).append(i)
    return Capacity(
        resource=usage.gpu_resource, zone_key=usage.zone_key, rack_key=usage.rack_key,
        cluster=_domain(usage, everything, None, None, before, after),
        zones=tuple(_domain(usage, np.array(zones[z], dtype=np.intp), z, z, before, after)
                    for z in sorted(zones, key=_order)),
        racks=tuple(_domain(usage, np.array(racks[k], dtype=np.intp), k[1], k[0], before, after)
                    for k in sorted(racks, key=lambda k: (_order(k[0]), _order(k[1])))),
    )
