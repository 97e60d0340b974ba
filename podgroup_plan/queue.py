"""The simulated scheduling queue: its entities, their order, and the PreEnqueue gates.

Queue entities are single pending pods and PodGroups with pending pods (upstream's
QueuedPodGroupInfo per root group), in PrioritySort order. Gates come first, as upstream's
PreEnqueue plugins do: a pod held by schedulingGates, a pod whose PodGroup is missing, or a gang
with fewer known pods than minCount waits and is never tried (README, "Deviations from kube-scheduler").

A pending pod being deleted (metadata.deletionTimestamp) is `Ignored`: kube-scheduler pops it and
skips it (skipPodSchedule; in a group cycle skipPodGroupPodSchedule drops it before the algorithm).
Until it is gone it is still a pod the scheduler knows, so it counts for the gang gate
(AllPodsCount), but not as a remaining pod of the cycle: a gang that needed it then fails at the
cycle's first PlacementFeasible check (`pod group is unschedulable, minCount (M) cannot be
satisfied: ...`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from podgroup_plan import events as ev
from podgroup_plan.config.defaults import gate_enabled
from podgroup_plan.framework.interface import PodGroupGate
from podgroup_plan.framework.interface import default_queue_key as priority_queue_key
from podgroup_plan.framework.runtime import Framework
from podgroup_plan.framework.status import Status
from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.hierarchy import Hierarchy, TreeNode
from podgroup_plan.model.objects import Pod, PodGroup
from podgroup_plan.plugins.gang_scheduling import missing_group_message


@dataclass(slots=True)
class Entity:
    """One queue entry: a single pod (group is None) or a PodGroup with its pending pods."""

    key: tuple
    pods: list[Pod]
    group: PodGroup | None = None
    # a root CompositePodGroup's whole tree (`group` is then None); `pods` holds the pending
    # pods of every leaf below it
    tree: TreeNode | None = None
    failed_at_version: int | None = None
    failed_plugins: set[str] = field(default_factory=set)
    # the plan's count of cycles that bound or evicted something, and of pods it bound, when
    # this entity last failed
    failed_at_commit: int = -1
    failed_at_bound: int = 0


def _pre_enqueue_gates(fwk: Framework | None, pod: Pod) -> Status | None:
    """The first rejecting PreEnqueue status for the pod alone (SchedulingGates, if enabled);
    the group's gate runs later, once its known pods are counted."""
    if fwk is None:
        return None
    status = fwk.run_pre_enqueue(pod, None)
    return None if status.is_success() else status


def _group_priority(group: PodGroup, pods: list[Pod]) -> int:
    if group.priority is not None:
        return group.priority
    return pods[0].priority if pods else 0


def _group_timestamp(group: PodGroup, pods: list[Pod]) -> str | None:
    if group.creation_timestamp:
        return group.creation_timestamp
    stamps = sorted(p.creation_timestamp for p in pods if p.creation_timestamp)
    return stamps[0] if stamps else None


def _queue_key(frameworks: Mapping[str, Framework]):
    """The QueueSort order: every profile shares one (upstream requires it), so the first
    profile's serves; with no profile at all, PrioritySort's."""
    fwk = next(iter(frameworks.values()), None)
    return fwk.queue_key if fwk is not None else priority_queue_key


def build_queue(
    cluster: ClusterInput, pending: list[Pod], running: list[Pod], frameworks: Mapping[str, Framework],
    gates: Mapping[str, bool], emit: ev.Emit, hierarchy: Hierarchy | None = None,
) -> list[Entity]:
    """The queue entities in PrioritySort order, after the PreEnqueue gates. Pods that a gate
    holds back or that no profile serves are reported through `emit` (PodsWaiting, PodIgnored)
    and left out."""
    queue_key = _queue_key(frameworks)

    def _pod_order(pod: Pod) -> tuple:
        return queue_key(pod.priority, pod.creation_timestamp, pod.namespace, pod.name)

    # With GenericWorkload off kube-scheduler knows no PodGroups: every pod goes on its own.
    workload_aware = gate_enabled(gates, "GenericWorkload")
    groups = {g.key: g for g in cluster.pod_groups}
    members: dict[tuple[str, str], list[Pod]] = {}
    running_count: dict[tuple[str, str], int] = {}
    for pod in running:
        if pod.pod_group:
            key = (pod.namespace, pod.pod_group)
            running_count[key] = running_count.get(key, 0) + 1
    deleting: dict[tuple[str, str], int] = {}
    entities: list[Entity] = []
    for pod in pending:
        if pod.deletion_timestamp is not None:
            emit(ev.PodIgnored(pod))
            if pod.pod_group is not None and workload_aware and pod.scheduler_name in frameworks:
                key = (pod.namespace, pod.pod_group)
                deleting[key] = deleting.get(key, 0) + 1
                members.setdefault(key, [])
            continue
        fwk = frameworks.get(pod.scheduler_name)
        gate = _pre_enqueue_gates(fwk, pod)
        if gate is not None:
            # The pod never enters the queue. Inside a group it is not counted toward minCount
            # either (see README, "Deviations").
            emit(ev.PodsWaiting((pod,), None, gate.message))
            continue
        if pod.pod_group is None or not workload_aware:
            if pod.scheduler_name not in frameworks:
                emit(ev.PodIgnored(pod))
                continue
            entities.append(Entity(_pod_order(pod), [pod]))
        else:
            members.setdefault((pod.namespace, pod.pod_group), []).append(pod)

    trees: dict[tuple[str, str], dict[tuple[str, str], list[Pod]]] = {}
    for key in sorted(members):
        group = groups.get(key)
        if hierarchy is not None and group is not None and group.parent:
            _tree_member(hierarchy, group, members[key], frameworks, emit, trees)
            continue
        # kube-scheduler only ever queues pods whose schedulerName matches one of its profiles
        # (frameworkForPodGroup relies on it): foreign pods are Ignored and neither pass the
        # gate's pod count nor take part in the group's validation.
        ours = []
        for pod in members[key]:
            if pod.scheduler_name in frameworks:
                ours.append(pod)
            else:
                emit(ev.PodIgnored(pod))
        if not ours:
            # Only pods of another scheduler, or only pods being deleted: no cycle runs.
            emit(ev.GroupIgnored(key))
            continue
        pods = sorted(ours, key=_pod_order)
        fwk = frameworks[pods[0].scheduler_name]
        known = len(pods) + running_count.get(key, 0) + deleting.get(key, 0)
        gate = fwk.run_pre_enqueue(pods[0], PodGroupGate(group, key[1], known))
        if not gate.is_success():
            emit(ev.PodsWaiting(tuple(pods), group, gate.message))
            continue
        if group is None:
            # Without its PodGroup no group entity can form (GangScheduling, when enabled, has
            # said so in its own words above).
            emit(ev.PodsWaiting(tuple(pods), None, missing_group_message(key[1])))
            continue
        entities.append(
            Entity(queue_key(_group_priority(group, pods), _group_timestamp(group, pods), *key), pods, group)
        )
    if hierarchy is not None:
        entities.extend(_tree_entities(hierarchy, trees, frameworks, emit, queue_key,
                                       running_count, deleting, _pod_order))
    entities.sort(key=lambda e: e.key)
    return entities


# ----- CompositePodGroup trees (gate CompositePodGroup) ---------------------------------------

def snapshot_missing_message(key: tuple[str, str]) -> str:
    """GangScheduling's PreEnqueue when the tree's root cannot be found (kube-scheduler v1.37.0)."""
    return f"failed to build hierarchy snapshot: composite pod group object not found in state for {key[0]}/{key[1]}"


def tree_quorum_message(root: TreeNode) -> str:
    return f'waiting for composite pod group "{root.group.name}" tree to meet quorum'


def _tree_member(hierarchy: Hierarchy, group: PodGroup, pods: list[Pod], frameworks: Mapping[str, Framework],
                 emit: ev.Emit, trees: dict) -> None:
    """A leaf PodGroup with a parent: waits when its tree is invalid or has no root, else its
    pods join the root's entity."""
    ours = []
    for pod in pods:
        if pod.scheduler_name in frameworks:
            ours.append(pod)
        else:
            emit(ev.PodIgnored(pod))
    if not ours:
        emit(ev.GroupIgnored(group.key))
        return
    if group.key in hierarchy.invalid_leaves:
        # The planner's Invalid tree (README deviations): the pods wait, reason and message null.
        emit(ev.PodsWaiting(tuple(ours), group, None))
        return
    missing = hierarchy.missing.get(group.key)
    if missing is not None:
        emit(ev.PodsWaiting(tuple(ours), group, snapshot_missing_message(missing)))
        return
    root = hierarchy.root_of[group.key]
    trees.setdefault(root.key, {})[group.key] = ours


def _tree_ready(root: TreeNode, known: Mapping[tuple[str, str], int]) -> bool:
    """GangScheduling's recursive readiness: a leaf needs AllPodsCount >= minCount (basic: 1),
    a CompositePodGroup ready children >= minGroupCount (basic: 1). Children before parents,
    on a stack (upstream recurses; a tree is as deep as the input makes it)."""
    from podgroup_plan.plugins.gang_scheduling import required_count

    ready: dict[int, bool] = {}
    todo: list[tuple[TreeNode, bool]] = [(root, False)]
    while todo:
        node, children_done = todo.pop()
        if node.is_leaf:
            ready[id(node)] = known.get(node.key, 0) >= required_count(node.group)
        elif children_done:
            count = sum(ready[id(child)] for child in node.children)
            ready[id(node)] = count >= required_count(node.group)
        else:
            todo.append((node, True))
            todo.extend((child, False) for child in node.children)
    return ready[id(root)]


def _tree_entities(hierarchy: Hierarchy, trees: dict, frameworks: Mapping[str, Framework], emit: ev.Emit,
                   queue_key, running_count: Mapping, deleting: Mapping, pod_order) -> list[Entity]:
    out = []
    known = dict(running_count)
    for k, v in deleting.items():
        known[k] = known.get(k, 0) + v
    for leaves in trees.values():
        for k, pods in leaves.items():
            known[k] = known.get(k, 0) + len(pods)
    for root_key in sorted(trees):
        root = hierarchy.roots[root_key]
        leaves = trees[root_key]
        pods = [p for leaf in root.leaves() for p in sorted(leaves.get(leaf.key, ()), key=pod_order)]
        fwk = frameworks[pods[0].scheduler_name]
        if any(p.name == "GangScheduling" for p in fwk.pre_enqueue) and not _tree_ready(root, known):
            message = tree_quorum_message(root)
            for leaf in root.leaves():
                if leaf.key in leaves and isinstance(leaf.group, PodGroup):  # (a leaf's group is one)
                    emit(ev.PodsWaiting(tuple(sorted(leaves[leaf.key], key=pod_order)), leaf.group, message))
            emit(ev.TreeWaiting(root, message))
            continue
        cpg = root.group
        priority = cpg.priority if cpg.priority is not None else pods[0].priority
        stamp = cpg.creation_timestamp or min((p.creation_timestamp for p in pods if p.creation_timestamp), default=None)
        out.append(Entity(queue_key(priority, stamp, *root_key), pods, None, root))
    return out
