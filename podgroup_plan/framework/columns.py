"""When adding or removing pods can be modelled on the usage columns alone.

Preemption removes every potential victim at once, and Filter adds nominated pods to their
nodes. Both are exact as pod-by-pod changes of the cluster state; both are much cheaper as a
shift of the usage columns (`ClusterState.shift_usage`) when no plugin a pod meets can tell the
difference: the node-local plugins read a node's requested resources and pod count, which the
shift changes, and static node fields; only host ports (NodePorts) and the plugins that look at
pods across a domain (InterPodAffinity, PodTopologySpread) read the pods themselves (and
PodTopologySpread only for a pod it gives a constraint).
"""
from __future__ import annotations

from typing import Iterable

from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import Pod


def has_pod_terms(pod: Pod) -> bool:
    aff = pod.affinity
    return aff is not None and bool(aff.pod_affinity_required or aff.pod_affinity_preferred
                                    or aff.pod_anti_affinity_required or aff.pod_anti_affinity_preferred)


def cluster_reads_columns_only(cluster: ClusterInput, pods: Iterable[Pod]) -> bool:
    """No pod of the input has pod (anti-)affinity terms, which existing pods impose on others
    (Filter) and weigh in others' scores."""
    return not any(has_pod_terms(p) for p in pods)


def pod_reads_columns_only(pod: Pod, fwk=None) -> bool:
    """In such a cluster, the pod's own Filter and Score read only usage columns and static node
    fields: it asks for no host port, has no pod (anti-)affinity, and PodTopologySpread gives
    it no constraint (neither its own nor the profile's defaults with the selector of the
    Services and controllers that select it). `fwk` is the pod's framework (None: assume the
    defaults may apply only when the pod has constraints of its own)."""
    if pod.host_ports or pod.topology_spread_constraints or has_pod_terms(pod):
        return False
    if fwk is None:
        return True
    cache = fwk.reads_columns_only
    got = cache.get(pod.key)
    if got is None:
        spread = fwk.plugin("PodTopologySpread") if _uses(fwk, "PodTopologySpread") else None
        got = spread is None or not (spread.constraints(pod, "DoNotSchedule") or spread.constraints(pod, "ScheduleAnyway"))
        cache[pod.key] = got
    return got


def _uses(fwk, name: str) -> bool:
    return any(p.name == name for p in fwk.filter) or any(p.name == name for p, _ in fwk.score)


def filter_is_node_local(pod: Pod, hard_default_spread: bool) -> bool:
    """Whether the pod's Filter verdict on a node can depend only on that node's pods: no
    required pod (anti-)affinity of its own and no hard (DoNotSchedule) spread constraint,
    explicit or from the profile's defaults (`hard_default_spread`). Other pods' required
    anti-affinity is checked on them (`has_required_anti_affinity`)."""
    aff = pod.affinity
    if aff is not None and (aff.pod_affinity_required or aff.pod_anti_affinity_required):
        return False
    if pod.topology_spread_constraints:
        return all(c.when_unsatisfiable != "DoNotSchedule" for c in pod.topology_spread_constraints)
    return not hard_default_spread


def has_required_anti_affinity(pod: Pod) -> bool:
    return pod.affinity is not None and bool(pod.affinity.pod_anti_affinity_required)
