"""Small fake plugins and builders for engine tests (upstream tests use fake plugins the same way)."""
from __future__ import annotations

import numpy as np

from podgroup_plan.framework.interface import FilterPlugin, FilterVerdict, Handle, NodeFailure, ScorePlugin
from podgroup_plan.config.profile import PluginRef, Profile
from podgroup_plan.plugins.registry import IMPLEMENTED
from podgroup_plan.framework.runtime import Framework
from podgroup_plan.framework.status import Code
from podgroup_plan.model.objects import Node, Pod, PodGroup
from podgroup_plan.plugins.gang_scheduling import GangScheduling
from podgroup_plan.state.cluster import ClusterState


class FitsCpu(FilterPlugin):
    """Rejects nodes without room for the pod's cpu, like NodeResourcesFit's cpu check."""

    name = "FitsCpu"

    def filter(self, cs, pod, state, view):
        row = state.resource_row("cpu")
        free = state.allocatable[row, view] - state.requested[row, view]
        lacking = state.request_vector(pod)[row] > free
        return FilterVerdict.reject_where(lacking, "Insufficient cpu")


class RejectByLabel(FilterPlugin):
    """Rejects nodes labelled bad=true as unresolvable (like a taint)."""

    name = "RejectByLabel"

    def filter(self, cs, pod, state, view):
        codes, values = state.label_column("bad")
        bad = codes[view] >= 0
        return FilterVerdict(~bad, [NodeFailure(bad, ("node(s) had untolerated taint(s)",), Code.UNSCHEDULABLE_AND_UNRESOLVABLE)] if bad.any() else [])


class PreferLabel(ScorePlugin):
    """Scores 100 on nodes labelled prefer=true, else 0."""

    name = "PreferLabel"

    def score(self, cs, pod, state, feasible):
        codes, _ = state.label_column("prefer")
        return np.where(codes[feasible] >= 0, 100, 0).astype(np.int64)


def framework(filters=(FitsCpu, RejectByLabel), scores=(PreferLabel,), gang=True, name="default-scheduler"):
    plugins = {"placementFeasible": (PluginRef("GangScheduling"),) if gang else ()}
    fwk = Framework(Profile(name, plugins), Handle(), IMPLEMENTED)
    fwk.use_plugins(filter=[cls() for cls in filters], score=[(cls(), 1) for cls in scores])
    return fwk


def node(name, cpu=4000, **labels):
    return Node(name=name, labels=labels, allocatable={"cpu": cpu, "memory": 1 << 34, "pods": 110})


def pod(name, cpu=1000, group=None, node_name=None, ns="ns", priority=0, scheduler="default-scheduler", policy="PreemptLowerPriority"):
    return Pod(namespace=ns, name=name, node_name=node_name, pod_group=group, requests={"cpu": cpu},
               non_zero_cpu=cpu, non_zero_memory=200 << 20, priority=priority, scheduler_name=scheduler,
               preemption_policy=policy)


def gang(name, min_count, ns="ns", policy="Gang", priority=None):
    return PodGroup(namespace=ns, name=name, api_version="scheduling.k8s.io/v1beta1", policy=policy,
                    min_count=min_count, priority=priority)


def state(nodes, running=()):
    return ClusterState(nodes, running)
