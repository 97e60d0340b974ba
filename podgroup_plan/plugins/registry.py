"""The in-tree plugin registry: upstream plugin name -> implementation.

Mirrors `pkg/scheduler/framework/plugins/registry.go`. The names themselves (and those of the
upstream plugins that are out of scope) live in `plugins/names.py`, which the configuration uses.
"""
from __future__ import annotations

from podgroup_plan.framework.interface import Plugin
from podgroup_plan.plugins import names
from podgroup_plan.plugins.balanced_allocation import NodeResourcesBalancedAllocation
from podgroup_plan.plugins.default_preemption import DefaultPreemption
from podgroup_plan.plugins.gang_scheduling import GangScheduling
from podgroup_plan.plugins.image_locality import ImageLocality
from podgroup_plan.plugins.inter_pod_affinity import InterPodAffinity
from podgroup_plan.plugins.node_affinity import NodeAffinity
from podgroup_plan.plugins.node_name import NodeName
from podgroup_plan.plugins.node_ports import NodePorts
from podgroup_plan.plugins.node_resources_fit import NodeResourcesFit
from podgroup_plan.plugins.node_unschedulable import NodeUnschedulable
from podgroup_plan.plugins.pod_group_pods_count import PodGroupPodsCount
from podgroup_plan.plugins.pod_topology_spread import PodTopologySpread
from podgroup_plan.plugins.priority_sort import PrioritySort
from podgroup_plan.plugins.scheduling_gates import SchedulingGates
from podgroup_plan.plugins.taint_toleration import TaintToleration
from podgroup_plan.plugins.topology_placement import TopologyPlacement

# upstream plugin name (as a configuration names it) -> the class implementing it. The keys are
# upstream's `names.*` constants, which are not always the Go type's name
# (TopologyPlacementGenerator is the type TopologyPlacement).
IMPLEMENTED: dict[str, type[Plugin]] = {
    "PrioritySort": PrioritySort,
    "SchedulingGates": SchedulingGates,
    "NodeUnschedulable": NodeUnschedulable,
    "NodeName": NodeName,
    "TaintToleration": TaintToleration,
    "NodeAffinity": NodeAffinity,
    "NodePorts": NodePorts,
    "NodeResourcesFit": NodeResourcesFit,
    "NodeResourcesBalancedAllocation": NodeResourcesBalancedAllocation,
    "ImageLocality": ImageLocality,
    "PodTopologySpread": PodTopologySpread,
    "InterPodAffinity": InterPodAffinity,
    "GangScheduling": GangScheduling,
    "DefaultPreemption": DefaultPreemption,
    "TopologyPlacementGenerator": TopologyPlacement,
    "PodGroupPodsCount": PodGroupPodsCount,
}
assert all(cls.name == name for name, cls in IMPLEMENTED.items())
assert frozenset(IMPLEMENTED) == names.IN_TREE


def plugin_class(name: str) -> type[Plugin] | None:
    """The class implementing `name`, or None for a known plugin that is not applied (out of
    scope) or not implemented yet."""
    return IMPLEMENTED.get(name)
