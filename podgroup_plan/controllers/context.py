"""What every controller's expansion reads and adds to: the input's pods by owner, names taken,
and the objects created so far. One `Creation` per expansion; nothing in the input is changed.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Mapping

from podgroup_plan.config.defaults import gate_enabled
from podgroup_plan.controllers.names import generate_name
from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import (
    CompositePodGroup,
    OwnerReference,
    Pod,
    PodGroup,
    SpreadSelector,
    Workload,
)

FINISHED = ("Succeeded", "Failed")

# Pod's fields in order, and the positions add_pod sets: building a pod positionally from its
# template's values is about twice as fast as dataclasses.replace, per pod of a big Job.
_POD_FIELDS = tuple(f.name for f in fields(Pod))
(_NAMESPACE, _NAME, _LABELS, _POD_GROUP, _OWNERS, _UID, _CREATED, _SOURCE) = (
    _POD_FIELDS.index(f) for f in ("namespace", "name", "labels", "pod_group", "owner_references",
                                   "uid", "creation_timestamp", "source"))


@dataclass
class Creation:
    cluster: ClusterInput
    gates: Mapping[str, bool]
    pods: list[Pod] = field(default_factory=list)
    pod_groups: list[PodGroup] = field(default_factory=list)
    composite_pod_groups: list[CompositePodGroup] = field(default_factory=list)
    workloads: list[Workload] = field(default_factory=list)
    spread_selectors: list[SpreadSelector] = field(default_factory=list)
    notes: set[str] = field(default_factory=set)
    # PodGroups of Jobs that create no pods (job.py): reported Suspended, not Waiting
    suspended_groups: set[tuple[str, str]] = field(default_factory=set)
    # (namespace, kind, name) -> (kind, name) of its controlling owner
    owner_parents: dict[tuple[str, str, str], tuple[str, str]] = field(default_factory=dict)
    _owned: dict[tuple[str, str, str], list[Pod]] = field(default_factory=dict)
    _names: set[tuple[str, str]] = field(default_factory=set)
    _groups: dict[tuple[str, str], PodGroup] = field(default_factory=dict)
    _workloads: set[tuple[str, str]] = field(default_factory=set)
    _template_values: dict[int, tuple[Pod, list]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for pod in self.cluster.pods:
            self._names.add(pod.key)
            owner = controller_of(pod)
            if owner is not None and pod.phase not in FINISHED:
                self._owned.setdefault((pod.namespace, owner.kind, owner.name), []).append(pod)
        self._groups = {g.key: g for g in self.cluster.pod_groups}
        self._workloads = {(w.namespace, w.name) for w in self.cluster.workloads}

    def gate(self, name: str) -> bool:
        return gate_enabled(self.gates, name)

    # --- what the input has -----------------------------------------------------------------

    def owned_pods(self, namespace: str, kind: str, name: str) -> list[Pod]:
        """Live pods (not Succeeded/Failed) whose controlling owner is `kind` `name`, input and
        created alike, in name order."""
        return sorted(self._owned.get((namespace, kind, name), ()), key=lambda p: p.name)

    def pod_group(self, namespace: str, name: str) -> PodGroup | None:
        return self._groups.get((namespace, name))

    def has_workload(self, namespace: str, name: str) -> bool:
        return (namespace, name) in self._workloads

    # --- what expansion adds ----------------------------------------------------------------

    def free_name(self, namespace: str, prefix: str, seed: str) -> str:
        """`prefix` + five characters (generateName), drawn again while the name is taken."""
        attempt = 0
        while True:
            name = generate_name(prefix, f"{namespace}/{prefix}/{seed}/{attempt}")
            if (namespace, name) not in self._names:
                return name
            attempt += 1

    def add_pod(self, template: Pod, namespace: str, name: str, labels: Mapping[str, str],
                owner: OwnerReference, pod_group: str | None, extra_owners: tuple = (),
                creation_timestamp: str | None = None, source=None) -> Pod:
        cached = self._template_values.get(id(template))
        if cached is None or cached[0] is not template:
            cached = self._template_values[id(template)] = (
                template, [getattr(template, f) for f in _POD_FIELDS])
        values = cached[1].copy()
        values[_NAMESPACE], values[_NAME], values[_LABELS] = namespace, name, dict(labels)
        values[_POD_GROUP], values[_OWNERS] = pod_group, (owner,) + tuple(extra_owners)
        values[_UID], values[_CREATED], values[_SOURCE] = "", creation_timestamp, source
        pod = Pod(*values)
        self.pods.append(pod)
        self._names.add(pod.key)
        self._owned.setdefault((namespace, owner.kind, owner.name), []).append(pod)
        return pod

    def add_pod_group(self, group: PodGroup) -> None:
        self.pod_groups.append(group)
        self._groups[group.key] = group

    def add_composite_pod_group(self, group: CompositePodGroup) -> None:
        self.composite_pod_groups.append(group)

    def has_pod(self, namespace: str, name: str) -> bool:
        return (namespace, name) in self._names

    def add_workload(self, workload: Workload) -> None:
        self.workloads.append(workload)
        self._workloads.add((workload.namespace, workload.name))

    def parent(self, namespace: str, kind: str, name: str, owner: OwnerReference | None) -> None:
        if owner is not None:
            self.owner_parents[(namespace, kind, name)] = (owner.kind, owner.name)


def controller_of(pod: Pod) -> OwnerReference | None:
    return next((r for r in pod.owner_references if r.controller), None)
