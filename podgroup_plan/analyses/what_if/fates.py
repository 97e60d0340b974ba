"""What a scenario did to each workload: compare its plan with the plan of the unchanged input.

A *workload* is the object a user wrote: the top of a pod's chain of controlling owners (a
JobSet for a pod of one of its Jobs, a Deployment for a pod of its ReplicaSet), or the pod
itself when it has none. A scenario *touches* a workload when it displaced one of its running
pods, when a pod of it the unchanged plan scheduled now ends otherwise or elsewhere, or when the
scenario's plan evicts one of its pods that the unchanged plan left alone. Its fate:

* `lost`: every displaced pod was a bare pod (nothing brings it back; a bare pod of a
  PodGroup counts under its group);
* `unschedulable`: a pod it needs did not find a place (the message is kube-scheduler's, the
  PodGroup's condition message for a member of a group);
* `preempted`: the scenario's plan evicts pods of it to place others;
* `rescheduled`: every displaced or moved pod found a place (`nodes` says where).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from podgroup_plan.analyses.what_if.changes import Applied, controller_of
from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import Pod
from podgroup_plan.result import PREEMPTED, SCHEDULED, OwnerRef, PlanResult, PodResult

LOST = "lost"
UNSCHEDULABLE = "unschedulable"
PREEMPTED_FATE = "preempted"
RESCHEDULED = "rescheduled"
# Worst first: a workload's fate is the worst that happened to any of its pods.
FATE_ORDER = (LOST, UNSCHEDULABLE, PREEMPTED_FATE, RESCHEDULED)

WorkloadKey = tuple[str, str, str]  # (kind, namespace, name)


def is_gpu(resource: str) -> bool:
    """An accelerator resource as device plugins name them (`nvidia.com/gpu`, `amd.com/gpu`)."""
    return resource.rsplit("/", 1)[-1] == "gpu"


def gpus_of(pod: Pod) -> int:
    return sum(v for r, v in pod.requests.items() if is_gpu(r))


@dataclass
class _Touched:
    displaced: int = 0
    lost: int = 0
    gpus: int = 0
    below_min_count: bool = False
    results: list[PodResult] = field(default_factory=list)  # its pods the scenario planned anew
    preempted: int = 0


def workload_fates(base: PlanResult, scenario: PlanResult, applied: Applied | None,
                   cluster: ClusterInput | None = None) -> list[dict[str, Any]]:
    """One entry per workload the scenario touches, sorted by (kind, namespace, name).
    `cluster` (the scenario's input) says which Workload a PodGroup of bare pods belongs to."""
    touched: dict[WorkloadKey, _Touched] = {}
    tops = group_workloads(cluster) if cluster is not None else {}

    def entry(key: WorkloadKey) -> _Touched:
        return touched.setdefault(key, _Touched())

    if applied is not None:
        groups_running = _running_members(applied.cluster)
        min_counts = {(g.namespace, g.name): g.min_count for g in applied.cluster.pod_groups if g.policy == "Gang"}
        for d in applied.displaced:
            t = entry(_pod_workload(scenario, d.pod, tops))
            t.displaced += 1
            t.gpus += gpus_of(d.pod)
            if d.fate == LOST:
                t.lost += 1
            group = (d.pod.namespace, d.pod.pod_group) if d.pod.pod_group else None
            if group in min_counts and groups_running.get(group, 0) < min_counts[group]:
                t.below_min_count = True

    before = {(p.namespace, p.name): p for p in base.pods}
    for pod in scenario.pods:
        old = before.get((pod.namespace, pod.name))
        if pod.status == PREEMPTED:
            if old is None or old.status != PREEMPTED:
                entry(_result_workload(scenario, pod, tops)).preempted += 1
            continue
        if old is None:
            # a pod only the scenario has: made again for a displaced pod (by expansion or by
            # the change itself); a pod of an untouched workload cannot be new
            key = _result_workload(scenario, pod, tops)
            if key in touched:
                touched[key].results.append(pod)
        elif old.status != pod.status:
            entry(_result_workload(scenario, pod, tops)).results.append(pod)
        elif old.node != pod.node:
            # pending work that lands elsewhere: touched only if the scenario displaced it
            key = _result_workload(scenario, pod, tops)
            if key in touched:
                touched[key].results.append(pod)

    groups = {(g.namespace, g.name): g for g in scenario.pod_groups}
    out = []
    for key in sorted(touched):
        t = touched[key]
        failed = sorted((p for p in t.results if p.status != SCHEDULED), key=lambda p: (p.namespace, p.name))
        nodes = sorted({p.node for p in t.results if p.status == SCHEDULED and p.node})
        if failed:
            fate, message = UNSCHEDULABLE, _message(failed[0], groups)
        elif t.preempted:
            fate, message = PREEMPTED_FATE, None
        elif t.displaced and t.lost == t.displaced:
            fate, message = LOST, None
        else:
            fate, message = RESCHEDULED, None
        kind, namespace, name = key
        out.append({
            "kind": kind, "namespace": namespace, "name": name, "fate": fate, "message": message,
            "nodes": nodes, "displacedPods": t.displaced, "lostPods": t.lost, "gpus": t.gpus,
            "unschedulablePods": len(failed), "preemptedPods": t.preempted,
            "belowMinCount": t.below_min_count,
        })
    return out


def _message(pod: PodResult, groups: Mapping[tuple[str, str], Any]) -> str | None:
    group = groups.get((pod.namespace, pod.pod_group)) if pod.pod_group else None
    if group is not None:
        for cond in group.conditions:
            if cond.message:
                return str(cond.message)
    return pod.message


def _running_members(cluster: ClusterInput) -> dict[tuple[str, str], int]:
    counts: dict[tuple[str, str], int] = {}
    for p in cluster.pods:
        if p.node_name is not None and p.pod_group and p.phase not in ("Succeeded", "Failed"):
            key = (p.namespace, p.pod_group)
            counts[key] = counts.get(key, 0) + 1
    return counts


Tops = Mapping[tuple[str, str], WorkloadKey]


def group_workloads(cluster: ClusterInput) -> dict[tuple[str, str], WorkloadKey]:
    """(namespace, PodGroup) -> the workload it is part of: the Workload its tree's root names
    (up through CompositePodGroup parents), else that root (a CompositePodGroup or the group)."""
    composites = {(c.namespace, c.name): c for c in cluster.composite_pod_groups}
    out: dict[tuple[str, str], WorkloadKey] = {}
    for g in cluster.pod_groups:
        kind, seen = "PodGroup", set()
        node: Any = g  # a PodGroup, then CompositePodGroups up the tree
        while node.parent and (g.namespace, node.parent) in composites and node.parent not in seen:
            seen.add(node.parent)
            kind, node = "CompositePodGroup", composites[(g.namespace, node.parent)]
        out[(g.namespace, g.name)] = (("Workload", g.namespace, node.workload_name) if node.workload_name
                                      else (kind, g.namespace, node.name))
    return out


def _pod_workload(result: PlanResult, pod: Pod, tops: Tops) -> WorkloadKey:
    ref = controller_of(pod)
    return _workload(result, pod.namespace, pod.name, pod.pod_group,
                     OwnerRef(ref.kind, ref.name) if ref else None, tops)


def _result_workload(result: PlanResult, pod: PodResult, tops: Tops) -> WorkloadKey:
    return _workload(result, pod.namespace, pod.name, pod.pod_group, pod.owner, tops)


def _workload(result: PlanResult, namespace: str, name: str, group: str | None,
              owner: OwnerRef | None, tops: Tops) -> WorkloadKey:
    """The owner at the top of the chain; else the Workload (or tree, or PodGroup) a bare pod's
    group belongs to (a gang of bare pods is one workload); else the pod."""
    root = result.root_owner(namespace, owner)
    if root is not None:
        return (root.kind, namespace, root.name)
    if group:
        return tops.get((namespace, group), ("PodGroup", namespace, group))
    return ("Pod", namespace, name)


def damage(row: Mapping[str, Any]) -> tuple[int, ...]:
    """How bad a scenario is, for the ranking (larger is worse): workloads that stay down, GPUs
    displaced, pods displaced."""
    down = sum(1 for w in row.get("workloads", ()) if w["fate"] in (LOST, UNSCHEDULABLE))
    return (down, int(row.get("gpus", 0)), int(row.get("pods", 0)))


def summed(rows: Iterable[Mapping[str, Any]], field_name: str) -> int:
    return sum(int(r.get(field_name, 0)) for r in rows)
