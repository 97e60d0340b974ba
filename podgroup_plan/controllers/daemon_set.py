"""A DaemonSet -> one pod per node it should run on (`pkg/controller/daemon`).

Mirrors `daemon_controller.go` (`nodeShouldRunDaemonPod`, `predicates`: the template's
`nodeName` if set, its required node affinity and nodeSelector match the node, and no NoSchedule
or NoExecute taint goes untolerated, with the default daemon tolerations of
`util.AddOrUpdateDaemonPodTolerations`; `podsShouldBeOnNode`: a node that already has a live pod
of the DaemonSet gets none) and `util/daemonset_util.go` (`ReplaceDaemonSetPodNodeNameNodeAffinity`:
each pod's required node affinity becomes one term `matchFields metadata.name In [node]`,
replacing the template's terms; `CreatePodTemplate`: label `controller-revision-hash`; pods
`<daemonset>-<5 chars>`). The pods are then scheduled by kube-scheduler like any pod (the
DaemonSet controller only creates them), so a full node leaves its pod pending.
"""
from __future__ import annotations

from dataclasses import replace

from podgroup_plan.controllers.context import Creation
from podgroup_plan.model.objects import Affinity, Node, OwnerReference
from podgroup_plan.model.operators import DaemonSet
from podgroup_plan.model.selectors import NodeSelector, NodeSelectorRequirement, NodeSelectorTerm
from podgroup_plan.plugins.helper.taint import COMPARISON_OPERATORS_GATE, tolerations_tolerate

REVISION_HASH = "controller-revision-hash"
NAME_FIELD = "metadata.name"


def expand_daemon_set(ds: DaemonSet, nodes: tuple[Node, ...], ctx: Creation) -> None:
    ns = ds.namespace
    owner = OwnerReference("DaemonSet", ds.name, True)
    have = {_node_of(p) for p in ctx.owned_pods(ns, "DaemonSet", ds.name)}
    labels = {**ds.template.labels, REVISION_HASH: ds.template_hash}
    untolerated = 0
    comparison = ctx.gate(COMPARISON_OPERATORS_GATE)
    for node in nodes:
        if ds.node_name is not None and ds.node_name != node.name:
            continue
        if not _fits_affinity(ds, node):
            continue
        if not _tolerates(ds, node, comparison):
            untolerated += 1
            continue
        if node.name in have:
            continue
        affinity = _pinned(ds.template.affinity, node.name)
        template = replace(ds.template, affinity=affinity)
        name = ctx.free_name(ns, f"{ds.name}-", node.name)
        ctx.add_pod(template, ns, name, labels, owner, ds.template.pod_group, (),
                    ds.creation_timestamp, ds.source)
    if untolerated:
        ctx.notes.add(f"DaemonSet {ns}/{ds.name}: no pod for {untolerated} node(s) whose "
                      "NoSchedule/NoExecute taints it does not tolerate")


def _node_of(pod) -> str | None:
    """The node a daemon pod is for: where it runs, else the node its matchFields pin."""
    if pod.node_name:
        return pod.node_name
    required = pod.affinity.node_required if pod.affinity else None
    for term in (required.terms if required else ()):
        for req in term.match_fields:
            if req.key == NAME_FIELD and req.operator == "In" and len(req.values) == 1:
                return req.values[0]
    return None


def _fits_affinity(ds: DaemonSet, node: Node) -> bool:
    """nodeaffinity.RequiredNodeAffinity.Match: nodeSelector and required node affinity."""
    pod = ds.template
    if any(node.labels.get(k) != v for k, v in pod.node_selector.items()):
        return False
    required = pod.affinity.node_required if pod.affinity else None
    return required is None or required.matches(node.name, node.labels)


def _tolerates(ds: DaemonSet, node: Node, comparison_operators: bool) -> bool:
    """FindMatchingUntoleratedTaint over NoSchedule and NoExecute taints."""
    return all(tolerations_tolerate(ds.template.tolerations, taint, comparison_operators)
               for taint in node.taints if taint.effect in ("NoSchedule", "NoExecute"))


def _pinned(affinity: Affinity | None, node: str) -> Affinity:
    term = NodeSelectorTerm(match_fields=(NodeSelectorRequirement(NAME_FIELD, "In", (node,)),))
    if affinity is None:
        return Affinity(node_required=NodeSelector((term,)))
    return replace(affinity, node_required=NodeSelector((term,)))
