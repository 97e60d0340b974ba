"""Which workload a pod belongs to, when it arrives, how long it runs and how long it takes to
stop: the pod's own facts first, then its pod template's, then its owners' (nearest first),
then the replay's defaults (model/timing.py)."""
from __future__ import annotations

from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import Pod
from podgroup_plan.model.timing import DEFAULT_GRACE_SECONDS, Timing, TimingKey, parse_time

WorkloadKey = tuple[str, str, str]
SERVICE_KINDS = frozenset({"DaemonSet", "ReplicaSet", "Deployment", "StatefulSet", "ReplicationController"})


class Facts:
    def __init__(self, cluster: ClusterInput, timing: dict[TimingKey, Timing], default_duration: float | None,
                 default_arrival: float):
        self.cluster = cluster
        self.timing = timing
        self.default_duration = default_duration
        self.default_arrival = default_arrival
        self._workload_of_group = {g.key: g.workload_name for g in cluster.pod_groups if g.workload_name}

    def owners(self, pod: Pod) -> list[tuple[str, str]]:
        """The pod's controlling owners, nearest first: (kind, name)."""
        ref = next((r for r in pod.owner_references if r.controller), None)
        if ref is None:
            return []
        chain = [(ref.kind, ref.name)]
        seen = {chain[0]}
        while True:
            parent = self.cluster.owner_parents.get((pod.namespace, chain[-1][0], chain[-1][1]))
            if parent is None or parent in seen:
                return chain
            seen.add(parent)
            chain.append(parent)

    def workload(self, pod: Pod) -> WorkloadKey:
        """The topmost owner, else the Workload of the pod's PodGroup, else its PodGroup, else
        the pod itself."""
        chain = self.owners(pod)
        if chain:
            return (chain[-1][0], pod.namespace, chain[-1][1])
        if pod.pod_group:
            workload = self._workload_of_group.get((pod.namespace, pod.pod_group))
            if workload:
                return ("Workload", pod.namespace, workload)
            return ("PodGroup", pod.namespace, pod.pod_group)
        return ("Pod", pod.namespace, pod.name)

    def serves(self, pod: Pod) -> bool:
        """A pod of a DaemonSet, ReplicaSet, Deployment or StatefulSet: a service, which runs
        until something says otherwise (`--default-duration` is for batch work)."""
        return any(kind in SERVICE_KINDS for kind, _ in self.owners(pod))

    def _layers(self, pod: Pod) -> list[Timing]:
        own = self.timing.get(("Pod", pod.namespace, pod.name))
        layers = [own] if own is not None else []
        for kind, name in self.owners(pod):
            found = self.timing.get((kind, pod.namespace, name))
            if found is not None:
                layers.append(Timing(duration=found.template_duration, grace=found.template_grace))
                layers.append(found)
        return layers

    def duration(self, pod: Pod) -> float | None:
        for layer in self._layers(pod):
            if layer.duration is not None:
                return layer.duration
        return None if self.serves(pod) else self.default_duration

    def grace(self, pod: Pod) -> float:
        for layer in self._layers(pod):
            if layer.grace is not None:
                return layer.grace
        return DEFAULT_GRACE_SECONDS

    def arrival(self, pod: Pod) -> float:
        for layer in self._layers(pod):
            if layer.arrival is not None:
                return layer.arrival
        if pod.creation_timestamp:
            return parse_time(pod.creation_timestamp)
        return self.default_arrival
