"""The default plugin set of kube-scheduler 1.37 and the extension points each plugin implements.

Mirrors `pkg/scheduler/apis/config/v1/default_plugins.go` (getDefaultPlugins + applyFeatureGates)
for the 1.37 development state, and the plugin interfaces that
`pkg/scheduler/framework/runtime/framework.go` (expandMultiPointPlugins) uses to expand
`multiPoint` into the individual extension points. Upstream decides "does plugin X serve point Y"
by Go interface assertions on the plugin instance; plugin classes here may not exist yet, so the
answer is the table `PLUGIN_EXTENSION_POINTS` below.

What was verified against upstream and what was chosen (see also tests/framework/test_config.py):

* The MultiPoint order and weights up to DefaultBinder are upstream's `getDefaultPlugins`
  (default_plugins.go / default_plugins_test.go): TaintToleration 3, NodeAffinity 2,
  NodeResourcesFit 1, PodTopologySpread 2, InterPodAffinity 2, NodeResourcesBalancedAllocation 1,
  ImageLocality 1. The in-tree cloud volume limit plugins (EBSLimits, GCEPDLimits,
  AzureDiskLimits) are no longer in the 1.37 list.
* DynamicResources is inserted right before DefaultPreemption (gate DynamicResourceAllocation,
  GA and locked on since 1.35). Its default weight 2 comes from the package guide
  `pkg/scheduler/apis/config/v1/AGENTS.md`, not from the Go source (not verified).
* NodeDeclaredFeatures is appended (gate GA and locked on in 1.37's versioned feature list).
* GenericWorkload appends GangScheduling; TopologyAwareWorkloadScheduling appends
  TopologyPlacementGenerator (the Go type TopologyPlacement) and PodGroupPodsCount (weight 1) -- per AGENTS.md's description of
  applyFeatureGates; the exact Go lines of the 1.37 default_plugins.go were not available.
* NodeResourcesFit serves placementScore through its multiPoint entry (weight 1, upstream docs:
  "NodeResourcesFit and PodGroupPodsCount are configured with equal weights, both 1").
* DefaultPreemption serves preEnqueue, postFilter and podGroupPostFilter.
* GangScheduling serves preEnqueue, permit and placementFeasible: v1.37.0 still has its Permit
  (v1.37.0's GangScheduling Permit; 1.38-dev removes it), which the plan passes through
  (scheduling/permit.py).

Feature gates whose runtime effect upstream is "the extension point is simply never run" are
modelled by `GATED_EXTENSION_POINTS`: `config/configuration.py` empties those points, so a consumer
can rely on `profile.enabled(point)` alone (our choice; upstream keeps the plugin listed).
"""
from __future__ import annotations

from typing import Mapping

from podgroup_plan.config.feature_gates_v1_37 import V1_37_GATE_SPECS
from podgroup_plan.config.profile import EXTENSION_POINTS, PluginRef

DEFAULT_SCHEDULER_NAME = "default-scheduler"

# Feature gates this tool supports (kube-scheduler names). Defaults live in config/feature_gates.py.
GENERIC_WORKLOAD = "GenericWorkload"
TOPOLOGY_AWARE_WORKLOAD_SCHEDULING = "TopologyAwareWorkloadScheduling"
WORKLOAD_AWARE_PREEMPTION = "WorkloadAwarePreemption"
COMPOSITE_POD_GROUP = "CompositePodGroup"
POD_GROUP_PREEMPTION_POLICY = "PodGroupPreemptionPolicy"
# kube-controller-manager's gate for the Job controller's Workload/PodGroup (KEP-5547): read by
# expansion (podgroup_plan/controllers), not by the scheduler.
WORKLOAD_WITH_JOB = "WorkloadWithJob"

# Gates that only make sense with GenericWorkload (upstream's feature dependency table).
GATE_DEPENDENCIES: Mapping[str, tuple[str, ...]] = {
    GENERIC_WORKLOAD: (),
    TOPOLOGY_AWARE_WORKLOAD_SCHEDULING: (GENERIC_WORKLOAD,),
    WORKLOAD_AWARE_PREEMPTION: (GENERIC_WORKLOAD,),
    COMPOSITE_POD_GROUP: (GENERIC_WORKLOAD,),
    POD_GROUP_PREEMPTION_POLICY: (GENERIC_WORKLOAD,),
    WORKLOAD_WITH_JOB: (GENERIC_WORKLOAD,),
}

_PF = ("preFilter", "filter")
_PF_SCORE = ("preFilter", "filter", "preScore", "score")

# plugin name -> extension points it implements, in EXTENSION_POINTS order.
PLUGIN_EXTENSION_POINTS: Mapping[str, tuple[str, ...]] = {
    "SchedulingGates": ("preEnqueue",),
    "PrioritySort": ("queueSort",),
    "NodeUnschedulable": ("filter",),
    "NodeName": ("filter",),
    "TaintToleration": ("filter", "preScore", "score"),
    "NodeAffinity": _PF_SCORE,
    "NodePorts": _PF,
    "NodeResourcesFit": _PF_SCORE + ("placementScore",),
    "VolumeRestrictions": _PF,
    "NodeVolumeLimits": _PF,
    "EBSLimits": _PF,
    "GCEPDLimits": _PF,
    "AzureDiskLimits": _PF,
    "CinderLimits": _PF,
    "VolumeBinding": ("preFilter", "filter", "preScore", "score", "reserve", "preBind"),
    "VolumeZone": _PF,
    "PodTopologySpread": _PF_SCORE,
    "InterPodAffinity": _PF_SCORE,
    "DynamicResources": (
        "preEnqueue", "preFilter", "filter", "postFilter", "score", "reserve", "preBind",
    ),
    "DefaultPreemption": ("preEnqueue", "postFilter", "podGroupPostFilter"),
    "NodeResourcesBalancedAllocation": ("preScore", "score"),
    "ImageLocality": ("score",),
    "DefaultBinder": ("bind",),
    "NodeDeclaredFeatures": _PF,
    "GangScheduling": ("preEnqueue", "permit", "placementFeasible"),
    "TopologyPlacementGenerator": ("placementGenerate",),
    "PodGroupPodsCount": ("placementScore",),
}

# Extension points that carry a weight.
WEIGHTED_EXTENSION_POINTS = ("score", "placementScore")

# Extension points that run only when all the listed gates are on.
GATED_EXTENSION_POINTS: Mapping[str, tuple[str, ...]] = {
    "placementGenerate": (GENERIC_WORKLOAD, TOPOLOGY_AWARE_WORKLOAD_SCHEDULING),
    "placementScore": (GENERIC_WORKLOAD, TOPOLOGY_AWARE_WORKLOAD_SCHEDULING),
    "placementFeasible": (GENERIC_WORKLOAD,),
    "podGroupPostFilter": (GENERIC_WORKLOAD, WORKLOAD_AWARE_PREEMPTION),
}

# getDefaultPlugins(): the MultiPoint list before feature gates. weight 0 = not set (nil).
_BASE_MULTIPOINT: tuple[PluginRef, ...] = (
    PluginRef("SchedulingGates"),
    PluginRef("PrioritySort"),
    PluginRef("NodeUnschedulable"),
    PluginRef("NodeName"),
    PluginRef("TaintToleration", 3),
    PluginRef("NodeAffinity", 2),
    PluginRef("NodePorts"),
    PluginRef("NodeResourcesFit", 1),
    PluginRef("VolumeRestrictions"),
    PluginRef("NodeVolumeLimits"),
    PluginRef("VolumeBinding"),
    PluginRef("VolumeZone"),
    PluginRef("PodTopologySpread", 2),
    PluginRef("InterPodAffinity", 2),
    PluginRef("DefaultPreemption"),
    PluginRef("NodeResourcesBalancedAllocation", 1),
    PluginRef("ImageLocality", 1),
    PluginRef("DefaultBinder"),
)


def gate_enabled(gates: Mapping[str, bool], name: str) -> bool:
    """The one way a feature gate is read: on when it and every gate it depends on are on.

    `gates` is the run's resolved `FeatureGates` (config/feature_gates.py: every gate with a
    value, resolved once by the configuration); a plain mapping that lacks `name` (a test's, an
    API caller's) gives the gate v1.37.0's default."""
    value = gates.get(name)
    if value is None:
        value = _UPSTREAM_DEFAULTS.get(name, False)
    if not value:
        return False
    return all(gate_enabled(gates, dep) for dep in GATE_DEPENDENCIES.get(name, ()))


# v1.37.0's default per gate (the generated gate list)
_UPSTREAM_DEFAULTS: Mapping[str, bool] = {name: default for name, _, default, _ in V1_37_GATE_SPECS}


def default_multipoint(gates: Mapping[str, bool]) -> tuple[PluginRef, ...]:
    """The default `multiPoint.enabled` list after applyFeatureGates, in upstream order."""
    plugins = list(_BASE_MULTIPOINT)
    # DynamicResourceAllocation (GA, locked on): DynamicResources goes before DefaultPreemption
    # so an idle claim is deallocated before any pod is evicted.
    at = next(i for i, p in enumerate(plugins) if p.name == "DefaultPreemption")
    plugins.insert(at, PluginRef("DynamicResources", 2))
    # NodeDeclaredFeatures (GA, locked on in 1.37).
    plugins.append(PluginRef("NodeDeclaredFeatures"))
    if gate_enabled(gates, GENERIC_WORKLOAD):
        plugins.append(PluginRef("GangScheduling"))
    if gate_enabled(gates, TOPOLOGY_AWARE_WORKLOAD_SCHEDULING):
        plugins.append(PluginRef("TopologyPlacementGenerator"))
        plugins.append(PluginRef("PodGroupPodsCount", 1))
    return tuple(plugins)


def implements(plugin: str, extension_point: str) -> bool:
    return extension_point in PLUGIN_EXTENSION_POINTS.get(plugin, ())


def extension_point_gated_off(extension_point: str, gates: Mapping[str, bool]) -> bool:
    return not all(gate_enabled(gates, g) for g in GATED_EXTENSION_POINTS.get(extension_point, ()))


def plugin_interface_name(extension_point: str) -> str:
    """Upstream's Go interface name for an extension point, as used in its error messages
    (e.g. "filter" -> "FilterPlugin")."""
    return extension_point[0].upper() + extension_point[1:] + "Plugin"


assert all(ep in EXTENSION_POINTS for eps in PLUGIN_EXTENSION_POINTS.values() for ep in eps)
