"""Nodes: allocatable resources, taints, schedulability and the images they hold.

Mirrors what kube-scheduler's `NodeInfo` takes from a Node: `status.allocatable` (else
`status.capacity`) in scheduler units, with no pods allowed when it does not list `pods`
(NodeInfo's AllowedPodNumber is what the node reports: kube-scheduler then says `Too many pods`
for every pod, and so does the plan); `spec.taints` and `spec.unschedulable`; and `status.images` under ImageLocality's
normalized names (which pods' images use too, so that the two compare).
"""
from __future__ import annotations

from podgroup_plan.loading.decode_meta import Report, labels_of, source_of
from podgroup_plan.loading.decode_quantities import in_units, quantities
from podgroup_plan.loading.documents import Document
from podgroup_plan.model.objects import PODS, ImageState, Node, Taint

# Pods a node allows when its allocatable resources do not list `pods`: none. The kubelet
# always reports `pods` (110 by default); a node without it is hand-written, and kube-scheduler
# v1.37.0 (framework.NodeInfo.SetNode: Allocatable from node.Status.Allocatable) fits no pod there.
DEFAULT_NODE_PODS = 0


def normalized_image(name: str) -> str:
    """ImageLocality's `normalizedImageName`: an image without a tag or digest is `:latest`."""
    if name.rfind(":") <= name.rfind("/"):
        return name + ":latest"
    return name


def decode_node(doc: Document, report: Report) -> Node:
    obj = doc.obj
    meta = obj["metadata"]
    spec = obj.get("spec") or {}
    status = obj.get("status") or {}
    if status.get("allocatable"):
        allocatable = in_units(quantities(status["allocatable"], ("status", "allocatable"), report, validated=True))
    else:
        allocatable = in_units(quantities(status.get("capacity"), ("status", "capacity"), report, validated=True))
    allocatable.setdefault(PODS, DEFAULT_NODE_PODS)
    return Node(
        name=meta["name"],
        labels=dict(labels_of(meta)),
        taints=tuple(
            Taint(t.get("key") or "", t.get("value") or "", t.get("effect") or "") for t in spec.get("taints") or ()
        ),
        unschedulable=bool(spec.get("unschedulable")),
        allocatable=allocatable,
        images=tuple(
            ImageState(tuple(normalized_image(n) for n in i.get("names") or ()), i.get("sizeBytes") or 0)
            for i in status.get("images") or ()
        ),
        source=source_of(doc),
    )
