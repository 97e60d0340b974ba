"""The nodes that could ever host a pod in a replay, whatever else runs: its node selector and
required node affinity match, its tolerations cover the NoSchedule/NoExecute taints, and each
resource it asks is within the node's allocatable. Nodes never change during a replay, so a
pod's verdict on any other node is fixed; only pods on these nodes can change its answer.

A superset on purpose (a taint tolerated by either comparison rule counts as tolerated, a
cordoned node still counts): the replay uses it only to skip a cycle that must give the same
answer as the pod's last one, and to stop waking a pod no node can ever host. A pod whose
answer depends on other nodes' pods (inter-pod affinity, topology spread) gets None: any change
may matter.
"""
from __future__ import annotations

import numpy as np

from podgroup_plan.model.objects import Pod
from podgroup_plan.plugins.helper.taint import tolerations_tolerate
from podgroup_plan.state.cluster import ClusterState

HARD_EFFECTS = ("NoSchedule", "NoExecute")


def _static(pod: Pod, state: ClusterState) -> np.ndarray:
    affinity = pod.affinity
    required = affinity.node_required if affinity is not None else None
    mask = np.ones(state.n, dtype=bool)
    for i, node in enumerate(state.nodes):
        if any(node.labels.get(k) != v for k, v in pod.node_selector.items()):
            mask[i] = False
        elif required is not None and not required.matches(node.name, node.labels):
            mask[i] = False
        elif any(t.effect in HARD_EFFECTS and not (tolerations_tolerate(pod.tolerations, t)
                                                 or tolerations_tolerate(pod.tolerations, t, True))
                 for t in node.taints):
            mask[i] = False
    return mask


def hosts(pod: Pod, state: ClusterState, memo: dict) -> np.ndarray | None:
    """Bool per node row, or None when other nodes' pods may decide (see the module)."""
    affinity = pod.affinity
    if pod.topology_spread_constraints or (affinity is not None and (
            affinity.pod_affinity_required or affinity.pod_anti_affinity_required)):
        return None
    key = (tuple(sorted(pod.node_selector.items())), affinity.node_required if affinity else None,
           pod.tolerations, tuple(sorted(pod.requests.items())))
    found = memo.get(key)
    if found is None:
        mask = _static(pod, state)
        for resource, amount in pod.requests.items():
            if resource == "pods" or amount <= 0:
                continue
            row = state.resource_index.get(resource)
            if row is None:
                mask[:] = False
            else:
                mask &= state.allocatable[row] >= amount
        found = memo[key] = mask
    return found
