"""The upstream plugin names a configuration may use, without the plugins themselves.

Mirrors `pkg/scheduler/framework/plugins/names/names.go`. The configuration package
(`podgroup_plan/config/`) depends on these names only; `plugins/registry.py` maps the names in
`IN_TREE` to their classes (and checks that it maps exactly those). Plugins named in
`NOT_APPLIED` are real upstream plugins whose concern is out of scope for an offline plan
(volumes, DRA, binding): a configuration may name them, the plan runs without them and says so.
"""
from __future__ import annotations

# upstream's `names.*` constants, which are not always the Go type's name
# (TopologyPlacementGenerator is the type TopologyPlacement).
IN_TREE: frozenset[str] = frozenset({
    "PrioritySort",
    "SchedulingGates",
    "NodeUnschedulable",
    "NodeName",
    "TaintToleration",
    "NodeAffinity",
    "NodePorts",
    "NodeResourcesFit",
    "NodeResourcesBalancedAllocation",
    "ImageLocality",
    "PodTopologySpread",
    "InterPodAffinity",
    "GangScheduling",
    "DefaultPreemption",
    "TopologyPlacementGenerator",
    "PodGroupPodsCount",
})

# Upstream plugins that serve the plan but are not implemented yet (the result's notes say so).
NOT_IMPLEMENTED: frozenset[str] = frozenset()

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

KNOWN_PLUGINS: frozenset[str] = IN_TREE | NOT_IMPLEMENTED | NOT_APPLIED
