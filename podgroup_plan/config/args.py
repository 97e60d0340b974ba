"""Decoded pluginConfig args, with upstream's defaults (`pkg/scheduler/apis/config/v1/defaults.go`).

Parsing from a KubeSchedulerConfiguration lives in config/plugin_args.py; plugins receive these.
"""
from __future__ import annotations

from dataclasses import dataclass

from podgroup_plan.model.objects import TopologySpreadConstraint
from podgroup_plan.model.selectors import NodeSelector

LEAST_ALLOCATED = "LeastAllocated"
MOST_ALLOCATED = "MostAllocated"
REQUESTED_TO_CAPACITY_RATIO = "RequestedToCapacityRatio"


@dataclass(frozen=True, slots=True)
class ResourceSpec:
    name: str
    weight: int = 1


@dataclass(frozen=True, slots=True)
class UtilizationShapePoint:
    utilization: int  # 0..100
    score: int  # 0..10 (MaxCustomPriorityScore)


DEFAULT_RESOURCES = (ResourceSpec("cpu", 1), ResourceSpec("memory", 1))


@dataclass(frozen=True, slots=True)
class ScoringStrategy:
    type: str = LEAST_ALLOCATED
    resources: tuple[ResourceSpec, ...] = DEFAULT_RESOURCES
    shape: tuple[UtilizationShapePoint, ...] = ()  # RequestedToCapacityRatio only


@dataclass(frozen=True, slots=True)
class NodeResourcesFitArgs:
    ignored_resources: tuple[str, ...] = ()
    ignored_resource_groups: tuple[str, ...] = ()
    scoring_strategy: ScoringStrategy = ScoringStrategy()


@dataclass(frozen=True, slots=True)
class NodeResourcesBalancedAllocationArgs:
    resources: tuple[ResourceSpec, ...] = DEFAULT_RESOURCES


@dataclass(frozen=True, slots=True)
class InterPodAffinityArgs:
    hard_pod_affinity_weight: int = 1
    ignore_preferred_terms_of_existing_pods: bool = False


SYSTEM_DEFAULTING = "System"
LIST_DEFAULTING = "List"


@dataclass(frozen=True, slots=True)
class PodTopologySpreadArgs:
    # With defaulting_type System, default_constraints is empty and the system defaults apply:
    # zone maxSkew 5 and hostname maxSkew 3, both ScheduleAnyway.
    default_constraints: tuple[TopologySpreadConstraint, ...] = ()
    defaulting_type: str = SYSTEM_DEFAULTING


SYSTEM_DEFAULT_SPREAD_CONSTRAINTS = (
    TopologySpreadConstraint(max_skew=3, topology_key="kubernetes.io/hostname", when_unsatisfiable="ScheduleAnyway"),
    TopologySpreadConstraint(max_skew=5, topology_key="topology.kubernetes.io/zone", when_unsatisfiable="ScheduleAnyway"),
)


@dataclass(frozen=True, slots=True)
class NodeAffinityArgs:
    added_affinity_required: NodeSelector | None = None
    added_affinity_preferred: tuple = ()  # PreferredSchedulingTerm


@dataclass(frozen=True, slots=True)
class DefaultPreemptionArgs:
    min_candidate_nodes_percentage: int = 10
    min_candidate_nodes_absolute: int = 100
