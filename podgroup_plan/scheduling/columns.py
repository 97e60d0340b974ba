"""When adding or removing pods can be modelled on the usage columns alone.

Preemption removes every potential victim at once, and Filter adds nominated pods to their
nodes. Both are exact as pod-by-pod changes of the cluster state; both are much cheaper as a
shift of the usage columns (`ClusterState.shift_usage`) when no plugin a pod meets can tell the
difference: the node-local plugins read a node's requested resources and pod count, which the
shift changes, and static node fields; only host ports (NodePorts) and the plugins that look at
pods across a domain (InterPodAffinity, PodTopologySpread) read the pods themselves.
"""
from __future__ import annotations

from typing import Iterable

from podgroup_plan.model.objects import ClusterInput, Pod


def has_pod_terms(pod: Pod) -> bool:
    aff = pod.affinity
    return aff is not None and bool(aff.pod_affinity_required or aff.pod_affinity_preferred
                                    or aff.pod_anti_affinity_required or aff.pod_anti_affinity_preferred)


def cluster_reads_columns_only(cluster: ClusterInput, pods: Iterable[Pod]) -> bool:
    """No pod of the input has pod (anti-)affinity terms (which existing pods impose on others)
    and no spreading selector exists (which system default spreading would apply)."""
    if cluster.spread_selectors:
        return False
    return not any(has_pod_terms(p) for p in pods)


def pod_reads_columns_only(pod: Pod) -> bool:
    """In such a cluster, the pod's own Filter and Score read only usage columns and static node
    fields: it asks for no host port, has no spread constraint and no pod (anti-)affinity."""
    return not (pod.host_ports or pod.topology_spread_constraints or has_pod_terms(pod))
