"""The plan-wide inputs of preemption, handed to `Framework(..., preemption=...)`.

Upstream's DefaultPreemption reads PodDisruptionBudgets and the workload objects through its
framework handle's listers; here the plan builds them once (victim units' hierarchy, budgets).
"""
from __future__ import annotations

from dataclasses import dataclass

from podgroup_plan.framework.preemption.victims import Budgets, Hierarchy
from podgroup_plan.state.cluster import ClusterState


@dataclass
class PreemptionContext:
    """Plan-wide inputs of preemption."""

    hierarchy: Hierarchy
    budgets: Budgets
    # True when no plugin a preemptor uses can be affected by a pod on another node, nor by a
    # pod's own fields beyond the usage columns (no pod (anti-)affinity anywhere in the input);
    # the pod-level checks are done by `common.column_only(ctx, pod, fwk)`.
    columns_only_cluster: bool = False
    # Feature gate PodGroupPreemptionPolicy (the group's own preemptionPolicy counts).
    policy_gate: bool = True

    def placed(self, state: ClusterState):
        return lambda pod: state.node_of(pod) is not None
