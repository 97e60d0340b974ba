"""`plan()`: the passes over the simulated queue (spec/planner.md, "The simulated queue").

Each pass gives every entity still pending one scheduling cycle against the cluster as earlier
cycles of the pass left it: the single-pod algorithm for a lone pod, the PodGroup cycle for a
group. A successful cycle binds; the plan ends after a pass that binds nothing.
"""
from __future__ import annotations

import gc
from typing import Callable, Mapping

from podgroup_plan.controllers import expand as expand_controllers
from podgroup_plan.controllers import without_expansion
from podgroup_plan.framework.config import build_profiles, resolve_feature_gates
from podgroup_plan.framework.defaults import gate_enabled
from podgroup_plan.framework.interface import Handle
from podgroup_plan.framework.runtime import Framework
from podgroup_plan.framework.status import Code
from podgroup_plan.model.objects import ClusterInput, Pod
from podgroup_plan.outcome import Recorder
from podgroup_plan.queue import Entity, build_queue
from podgroup_plan.result import PlanResult
from podgroup_plan.scheduling.pod_group import GroupCycleResult, schedule_pod_group, validate_pod_group
from podgroup_plan.scheduling.schedule_one import schedule_pod
from podgroup_plan.state.cluster import ClusterState

# Plugins whose verdict can change when other pods are *added* to the cluster (pod affinity
# needs its peers, spreading depends on where they land). A failure from any other filter
# (resources, taints, ports, affinity to node labels) cannot be cured by bindings alone, so
# such an entity is not retried until something is evicted (upstream's queueing hints).
_HELPED_BY_BINDINGS = frozenset({"InterPodAffinity", "PodTopologySpread"})

ProgressFn = Callable[[int, int], None]


def plan(
    cluster: ClusterInput,
    scheduler_config: Mapping | None = None,
    feature_gates: Mapping[str, bool] | None = None,
    progress: ProgressFn | None = None,
    config_source: str = "<config>",
    expand: bool = True,
) -> PlanResult:
    """Plan every pending pod of `cluster`. `scheduler_config` (a KubeSchedulerConfiguration as a
    dict) wins over one found among the manifests. With `expand`, Jobs, JobSets, Deployments,
    ReplicaSets and StatefulSets first get the pods their controllers would create
    (podgroup_plan/controllers). Raises InputError for a bad configuration or unknown feature
    gates."""
    gates = resolve_feature_gates(feature_gates)
    cluster = expand_controllers(cluster, gates) if expand else without_expansion(cluster)
    config = scheduler_config
    if config is None and cluster.scheduler_config is not None:
        config, config_source = cluster.scheduler_config, cluster.scheduler_config_source or config_source
    profiles = build_profiles(config, gates, file=config_source)
    handle = Handle(cluster.spread_selectors, cluster.namespaces, gates)
    frameworks = {name: Framework(profile, handle) for name, profile in sorted(profiles.items())}

    live = [p for p in cluster.pods if p.phase not in ("Succeeded", "Failed")]
    running = [p for p in live if p.is_running]
    pending = [p for p in live if not p.is_running]
    state = ClusterState(cluster.nodes, running, {r for p in pending for r in p.requests})
    record = Recorder(cluster, state, gates)

    entities = build_queue(cluster, pending, running, frameworks, gates, record)
    # The passes allocate many small objects and no reference cycles worth collecting, while
    # each full collection walks every loaded object (about 0.5 s with 150,000 pods).
    collecting = gc.isenabled()
    gc.disable()
    try:
        _Passes(state, frameworks, gates, record, running).run(entities, progress)
    finally:
        if collecting:
            gc.enable()
    return record.result(frameworks)


class _Passes:
    """Runs scheduling cycles over the queue until a pass binds nothing."""

    def __init__(self, state: ClusterState, frameworks: Mapping[str, Framework], gates: Mapping[str, bool],
                 record: Recorder, running: list[Pod]):
        self.state = state
        self.frameworks = frameworks
        self.record = record
        self.preemption_policy_gate = gate_enabled(gates, "PodGroupPreemptionPolicy")
        # Members of each group placed so far (running ones, then those this plan binds).
        self.members_placed: dict[tuple[str, str], list[Pod]] = {}
        for pod in running:
            if pod.pod_group:
                self.members_placed.setdefault((pod.namespace, pod.pod_group), []).append(pod)
        # state.version at the last eviction (none yet: preemption is not implemented)
        self.evictions_version = -1

    def run(self, entities: list[Entity], progress: ProgressFn | None) -> None:
        todo = list(entities)
        total, done = len(todo), 0
        while todo:
            changed = False
            still: list[Entity] = []
            for entity in todo:
                if self._worth_retrying(entity):
                    cycle = self._single_pod_cycle if entity.group is None else self._group_cycle
                    changed |= cycle(entity)
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

    def _worth_retrying(self, entity: Entity) -> bool:
        if entity.failed_at_version is None:
            return True
        if entity.failed_at_version == self.state.version:
            return False  # nothing at all changed since it failed
        if self.evictions_version > entity.failed_at_version:
            return True
        return bool(entity.failed_plugins & _HELPED_BY_BINDINGS)

    def _single_pod_cycle(self, entity: Entity) -> bool:
        pod = entity.pods[0]
        result = schedule_pod(self.frameworks[pod.scheduler_name], pod, self.state)
        if result.node is not None:
            self.state.assume(pod, result.node)
            self.record.scheduled(pod, result.node)
            entity.pods = []
            return True
        reason = "SchedulerError" if result.status.code == Code.ERROR else "Unschedulable"
        self.record.unschedulable(pod, reason, result.message)
        self._failed(entity, set(result.diagnosis.unschedulable_plugins) if result.diagnosis else set())
        return False

    def _group_cycle(self, entity: Entity) -> bool:
        group, record = entity.group, self.record
        placed = self.members_placed.setdefault(group.key, [])
        error = validate_pod_group(group, entity.pods, placed, self.frameworks, self.preemption_policy_gate)
        if error is not None:
            for pod in entity.pods:
                record.unschedulable(pod, "SchedulerError", error)
            record.group_cycle(group, "SchedulerError", error)
            self._failed(entity, set())
            return False
        fwk = self.frameworks[entity.pods[0].scheduler_name]
        result: GroupCycleResult = schedule_pod_group(fwk, group, entity.pods, len(placed), self.state)
        if result.status.is_success():
            bound = {p.key for p, _ in result.assignments}
            for pod, node in result.assignments:
                record.scheduled(pod, node)
                placed.append(pod)
            # pods that did not fit go back to the queue with their own FitError
            for pod, pr in result.pod_results:
                if pod.key not in bound:
                    record.unschedulable(pod, "Unschedulable", pr.message if pr else result.status.message)
            record.group_cycle(group, "Scheduled", "")
            entity.pods = [p for p in entity.pods if p.key not in bound]
            if entity.pods:
                self._failed(entity, _plugins_of(result))
            return True
        reason = "SchedulerError" if result.status.code == Code.ERROR else "Unschedulable"
        for pod, pr in result.pod_results:
            record.unschedulable(pod, *result.pod_message(pr))
        record.group_cycle(group, reason, result.status.message)
        self._failed(entity, _plugins_of(result))
        return False

    def _failed(self, entity: Entity, plugins: set[str]) -> None:
        entity.failed_at_version = self.state.version
        entity.failed_plugins = plugins


def _plugins_of(result: GroupCycleResult) -> set[str]:
    plugins: set[str] = set()
    for _, pr in result.pod_results:
        if pr is not None and pr.diagnosis is not None:
            plugins |= pr.diagnosis.unschedulable_plugins
    return plugins
