"""When adding or removing pods can be modelled on the usage columns alone.

Preemption removes every potential victim at once, and Filter adds nominated pods to their
nodes. Both are exact as pod-by-pod changes of the cluster state; both are much cheaper as a
shift of the usage columns (`ClusterState.shift_usage`) when no plugin a pod meets can tell the
difference: the node-local plugins read a node's requested resources and pod count, which the
shift changes, and static node fields. The plugins that read the pods themselves say so on their
class (`Plugin.reads_pods`, and per pod `reads_pods_of`: host ports, pod affinity, spreading);
the framework lists its instances of them (`Framework.pod_readers`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import Pod

if TYPE_CHECKING:
    from podgroup_plan.framework.runtime import Framework


def has_pod_terms(pod: Pod) -> bool:
    aff = pod.affinity
    return aff is not None and bool(aff.pod_affinity_required or aff.pod_affinity_preferred
                                    or aff.pod_anti_affinity_required or aff.pod_anti_affinity_preferred)


def cluster_reads_columns_only(cluster: ClusterInput, pods: Iterable[Pod]) -> bool:
    """No pod of the input has pod (anti-)affinity terms, which existing pods impose on others
    (Filter) and weigh in others' scores."""
    return not any(has_pod_terms(p) for p in pods)


def pod_reads_columns_only(pod: Pod, fwk: Framework) -> bool:
    """In such a cluster, the pod's own Filter and Score read only usage columns and static node
    fields: no plugin of its framework (`fwk`) that reads pods (`Plugin.reads_pods`: host
    ports, pod affinity, spreading) does so for this pod (`Plugin.reads_pods_of`). Kept per pod
    in the framework."""
    cache = fwk.reads_columns_only
    got = cache.get(pod.key)
    if got is None:
        got = not any(plugin.reads_pods_of(pod) for plugin in fwk.pod_readers)
        cache[pod.key] = got
    return got


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
