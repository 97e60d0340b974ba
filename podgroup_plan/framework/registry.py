"""The in-tree plugin registry: upstream plugin name -> implementation.

Mirrors `pkg/scheduler/framework/plugins/registry.go`. Plugins named in
`NOT_APPLIED` are real upstream plugins whose concern is out of scope for an offline plan
(volumes, DRA, binding); a configuration may name them, the plan runs without them and says so.
"""
from __future__ import annotations

import importlib

from podgroup_plan.framework.interface import Plugin

# name -> "module:Class" under podgroup_plan.plugins, imported on first use.
IMPLEMENTED: dict[str, str] = {
    "PrioritySort": "priority_sort:PrioritySort",
    "SchedulingGates": "scheduling_gates:SchedulingGates",
    "NodeUnschedulable": "node_unschedulable:NodeUnschedulable",
    "NodeName": "node_name:NodeName",
    "TaintToleration": "taint_toleration:TaintToleration",
    "NodeAffinity": "node_affinity:NodeAffinity",
    "NodePorts": "node_ports:NodePorts",
    "NodeResourcesFit": "node_resources_fit:NodeResourcesFit",
    "NodeResourcesBalancedAllocation": "balanced_allocation:NodeResourcesBalancedAllocation",
    "ImageLocality": "image_locality:ImageLocality",
    "PodTopologySpread": "pod_topology_spread:PodTopologySpread",
    "InterPodAffinity": "inter_pod_affinity:InterPodAffinity",
    "GangScheduling": "gang_scheduling:GangScheduling",
    "DefaultPreemption": "default_preemption:DefaultPreemption",
    "TopologyPlacement": "topology_placement:TopologyPlacement",
    "PodGroupPodsCount": "pod_group_pods_count:PodGroupPodsCount",
}

NOT_APPLIED: frozenset[str] = frozenset({
    "VolumeRestrictions",
    "NodeVolumeLimits",
    "EBSLimits",
    "GCEPDLimits",
    "AzureDiskLimits",
    "CinderLimits",
    "VolumeBinding",
    "VolumeZone",
    "DynamicResources",
    "DefaultBinder",
    "NodeDeclaredFeatures",
})

# Plugins whose verdict and raw score for a node depend only on that node's row and the pod, so
# their results can be cached per pod signature and refreshed per changed node
# (framework/node_cache.py). Spreading and inter-pod affinity look across domains: not here.
NODE_LOCAL_PLUGINS: frozenset[str] = frozenset({
    "NodeUnschedulable",
    "NodeName",
    "TaintToleration",
    "NodeAffinity",
    "NodePorts",
    "NodeResourcesFit",
    "NodeResourcesBalancedAllocation",
    "ImageLocality",
})

KNOWN_PLUGINS: frozenset[str] = frozenset(IMPLEMENTED) | NOT_APPLIED

_classes: dict[str, type[Plugin] | None] = {}


def plugin_class(name: str) -> type[Plugin] | None:
    """The class implementing `name`, or None for a known plugin that is not applied (or whose
    module does not exist yet)."""
    if name not in _classes:
        target = IMPLEMENTED.get(name)
        cls = None
        if target is not None:
            module_name, class_name = target.split(":")
            try:
                module = importlib.import_module(f"podgroup_plan.plugins.{module_name}")
            except ModuleNotFoundError as exc:
                if exc.name != f"podgroup_plan.plugins.{module_name}":
                    raise
                module = None
            cls = getattr(module, class_name, None) if module is not None else None
        _classes[name] = cls
    return _classes[name]
