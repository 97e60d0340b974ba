"""`plan()`: the simulated scheduling queue and its passes (spec/planner.md, "The simulated queue").

Queue entities are single pending pods and PodGroups with pending pods, in PrioritySort order.
Gates (upstream PreEnqueue) come first: a pod whose PodGroup is missing, or a gang with fewer
known pods than minCount, waits and is never tried. Then passes: each gives every entity still
pending one scheduling cycle against the cluster as earlier cycles left it; the plan ends after
a pass that binds nothing.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping

from podgroup_plan.framework.config import FEATURE_GATES_DEFAULTS, build_profiles
from podgroup_plan.framework.defaults import gate_enabled
from podgroup_plan.framework.interface import Handle
from podgroup_plan.framework.runtime import Framework
from podgroup_plan.framework.status import Code, Status
from podgroup_plan.model.objects import ClusterInput, Pod, PodGroup
from podgroup_plan.plugins.gang_scheduling import missing_group_message
from podgroup_plan.plugins.priority_sort import queue_key
from podgroup_plan.result import PlanResult
from podgroup_plan.scheduling.pod_group import GroupCycleResult, schedule_pod_group, validate_pod_group
from podgroup_plan.scheduling.schedule_one import schedule_pod
from podgroup_plan.state.cluster import ClusterState
from podgroup_plan import outcome

# Plugins whose verdict can change when other pods are *added* to the cluster (pod affinity
# needs its peers, spreading depends on where they land). A failure from any other filter
# (resources, taints, ports, affinity to node labels) cannot be cured by bindings alone, so
# such an entity is not retried until something is evicted (upstream's queueing hints).
_HELPED_BY_BINDINGS = frozenset({"InterPodAffinity", "PodTopologySpread"})

ProgressFn = Callable[[int, int], None]


@dataclass(slots=True)
class Entity:
    """One queue entry: a single pod (group is None) or a PodGroup with its pending pods."""

    key: tuple
    pods: list[Pod]
    group: PodGroup | None = None
    failed_at_version: int | None = None
    failed_plugins: set[str] = field(default_factory=set)

    @property
    def name(self) -> tuple[str, str]:
        return self.group.key if self.group is not None else self.pods[0].key


def plan(
    cluster: ClusterInput,
    scheduler_config: Mapping | None = None,
    feature_gates: Mapping[str, bool] | None = None,
    progress: ProgressFn | None = None,
    config_source: str = "<config>",
) -> PlanResult:
    """Plan every pending pod of `cluster`. `scheduler_config` (a KubeSchedulerConfiguration as a
    dict) wins over one found among the manifests. Raises InputError for a bad configuration."""
    gates = {**FEATURE_GATES_DEFAULTS, **(feature_gates or {})}
    config = scheduler_config if scheduler_config is not None else cluster.scheduler_config
    profiles = build_profiles(config, gates, file=config_source)
    handle = Handle(cluster.spread_selectors, cluster.namespaces, gates)
    frameworks = {name: Framework(profile, handle) for name, profile in sorted(profiles.items())}

    live = [p for p in cluster.pods if p.phase not in ("Succeeded", "Failed")]
    running = [p for p in live if p.is_running]
    pending = [p for p in live if not p.is_running]
    resources = {r for p in pending for r in p.requests}
    state = ClusterState(cluster.nodes, running, resources)
    record = outcome.Recorder(cluster, state, gates)

    entities = _build_queue(cluster, pending, running, frameworks, gates, record)
    _run_passes(entities, state, frameworks, cluster, running, gates, record, progress)
    return record.result(frameworks)


def _pre_enqueue_gates(fwk: Framework | None, pod: Pod) -> Status | None:
    """The first rejecting per-pod PreEnqueue status (SchedulingGates), if the profile enables it."""
    if fwk is None or "SchedulingGates" not in fwk.enabled_names("preEnqueue"):
        return None
    status = fwk.plugin("SchedulingGates").pre_enqueue(pod)
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


def _pod_order(pod: Pod) -> tuple:
    return queue_key(pod.priority, pod.creation_timestamp, pod.namespace, pod.name)


def _build_queue(cluster, pending, running, frameworks, gates, record) -> list[Entity]:
    # With GenericWorkload off kube-scheduler knows no PodGroups: every pod goes on its own.
    workload_aware = gate_enabled(gates, "GenericWorkload")
    groups = {g.key: g for g in cluster.pod_groups}
    members: dict[tuple[str, str], list[Pod]] = {}
    running_count: dict[tuple[str, str], int] = {}
    for pod in running:
        if pod.pod_group:
            key = (pod.namespace, pod.pod_group)
            running_count[key] = running_count.get(key, 0) + 1
    entities: list[Entity] = []
    for pod in pending:
        fwk = frameworks.get(pod.scheduler_name)
        gate = _pre_enqueue_gates(fwk, pod)
        if gate is not None:
            # The pod never enters the queue. Inside a group it is not counted toward minCount
            # either (see README, "Deviations").
            record.waiting([pod], None, gate.message)
            continue
        if pod.pod_group is None or not workload_aware:
            if pod.scheduler_name not in frameworks:
                record.ignored(pod)
                continue
            entities.append(Entity(_pod_order(pod), [pod]))
        else:
            members.setdefault((pod.namespace, pod.pod_group), []).append(pod)

    for key in sorted(members):
        group = groups.get(key)
        # kube-scheduler only ever queues pods whose schedulerName matches one of its profiles
        # (frameworkForPodGroup relies on it): foreign pods are Ignored and neither pass the
        # gate's pod count nor take part in the group's validation.
        ours = []
        for pod in members[key]:
            if pod.scheduler_name in frameworks:
                ours.append(pod)
            else:
                record.ignored(pod)
        if not ours:
            record.ignored_group(key)
            continue
        pods = sorted(ours, key=_pod_order)
        if group is None:
            # Without its PodGroup no group entity can form; upstream's GangScheduling gate says so.
            record.waiting(pods, None, missing_group_message(key[1]))
            continue
        fwk = frameworks[pods[0].scheduler_name]
        if "GangScheduling" in fwk.enabled_names("preEnqueue"):
            gate = fwk.plugin("GangScheduling").pre_enqueue(group, key[1], len(pods) + running_count.get(key, 0))
            if not gate.is_success():
                record.waiting(pods, group, gate.message)
                continue
        entities.append(
            Entity(queue_key(_group_priority(group, pods), _group_timestamp(group, pods), *key), pods, group)
        )
    entities.sort(key=lambda e: e.key)
    return entities


def _run_passes(entities, state, frameworks, cluster, running, gates, record, progress) -> None:
    members_placed: dict[tuple[str, str], list[Pod]] = {}
    for pod in running:
        if pod.pod_group:
            members_placed.setdefault((pod.namespace, pod.pod_group), []).append(pod)
    todo = list(entities)
    total = len(todo)
    done = 0
    evictions_version = -1  # state.version at the last eviction (none yet: preemption comes later)
    while todo:
        changed = False
        still: list[Entity] = []
        for entity in todo:
            if not _worth_retrying(entity, state, evictions_version):
                still.append(entity)
                continue
            if entity.group is None:
                bound = _single_pod_cycle(entity, state, frameworks, record)
            else:
                bound = _group_cycle(entity, state, frameworks, members_placed, gates, record)
            if bound:
                changed = True
            if entity.pods:
                still.append(entity)
            else:
                done += 1
                if progress:
                    progress(done, total)
        todo = still
        if not changed:
            break
    if progress:
        progress(total, total)


def _worth_retrying(entity: Entity, state: ClusterState, evictions_version: int) -> bool:
    if entity.failed_at_version is None:
        return True
    if entity.failed_at_version == state.version:
        return False  # nothing at all changed since it failed
    if evictions_version > entity.failed_at_version:
        return True
    return bool(entity.failed_plugins & _HELPED_BY_BINDINGS)


def _single_pod_cycle(entity: Entity, state, frameworks, record) -> bool:
    pod = entity.pods[0]
    fwk = frameworks[pod.scheduler_name]
    result = schedule_pod(fwk, pod, state)
    if result.node is not None:
        state.assume(pod, result.node)
        record.scheduled(pod, result.node)
        entity.pods = []
        return True
    reason = "SchedulerError" if result.status.code == Code.ERROR else "Unschedulable"
    record.unschedulable(pod, reason, result.message)
    entity.failed_at_version = state.version
    entity.failed_plugins = set(result.diagnosis.unschedulable_plugins) if result.diagnosis else set()
    return False


def _group_cycle(entity: Entity, state, frameworks, members_placed, gates, record) -> bool:
    group = entity.group
    placed = members_placed.setdefault(group.key, [])
    error = validate_pod_group(group, entity.pods, placed, frameworks, gate_enabled(gates, "PodGroupPreemptionPolicy"))
    if error is not None:
        for pod in entity.pods:
            if pod.scheduler_name not in frameworks:
                record.ignored(pod)
            else:
                record.unschedulable(pod, "SchedulerError", error)
        record.group_cycle(group, "SchedulerError", error)
        entity.failed_at_version = state.version
        return False
    fwk = frameworks[entity.pods[0].scheduler_name]
    result: GroupCycleResult = schedule_pod_group(fwk, group, entity.pods, len(placed), state)
    if result.status.is_success():
        bound = {p.key for p, _ in result.assignments}
        for pod, node in result.assignments:
            record.scheduled(pod, node)
            placed.append(pod)
        for pod, pr in result.pod_results:
            if pod.key not in bound:
                record.unschedulable(pod, "Unschedulable", pr.message if pr else result.status.message)
        record.group_cycle(group, "Scheduled", "")
        entity.pods = [p for p in entity.pods if p.key not in bound]
        if entity.pods:
            entity.failed_at_version = state.version
            entity.failed_plugins = _plugins_of(result)
        return True
    reason = "SchedulerError" if result.status.code == Code.ERROR else "Unschedulable"
    for pod, pr in result.pod_results:
        record.unschedulable(pod, *result.pod_message(pr))
    record.group_cycle(group, reason, result.status.message)
    entity.failed_at_version = state.version
    entity.failed_plugins = _plugins_of(result)
    return False


def _plugins_of(result: GroupCycleResult) -> set[str]:
    plugins: set[str] = set()
    for _, pr in result.pod_results:
        if pr is not None and pr.diagnosis is not None:
            plugins |= pr.diagnosis.unschedulable_plugins
    return plugins
