"""`plan()`: plan every pending pod of an input (README, "Deviations from kube-scheduler").

A thin wrapper over `Planner` (podgroup_plan/planner.py), which resolves the configuration,
builds the frameworks and the cluster state, and runs the passes over the simulated queue
(podgroup_plan/passes.py).
"""
from __future__ import annotations

from typing import Mapping

from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.observer import PlanObserver
from podgroup_plan.passes import ProgressFn
from podgroup_plan.planner import Planner
from podgroup_plan.result import PlanResult

__all__ = ["ProgressFn", "plan"]


def plan(
    cluster: ClusterInput,
    scheduler_config: Mapping | None = None,
    feature_gates: Mapping[str, bool] | None = None,
    progress: ProgressFn | None = None,
    config_source: str = "<config>",
    expand: bool = True,
    observer: PlanObserver | None = None,
) -> PlanResult:
    """Plan every pending pod of `cluster`. `scheduler_config` (a KubeSchedulerConfiguration as a
    dict, read from `config_source`) wins over one found among the manifests. `feature_gates`
    holds the gates set (`--feature-gates`); the others take the planner's defaults. With
    `expand`, Jobs, JobSets, Deployments, ReplicaSets and StatefulSets first get the pods their
    controllers would create (podgroup_plan/controllers). Raises InputError for a bad
    configuration or bad feature gates. `observer` (`explain`'s tracer) is notified as the plan
    runs (podgroup_plan/observer.py)."""
    planner = Planner(cluster, scheduler_config, feature_gates, config_source=config_source,
                      expand=expand, observer=observer)
    return planner.plan(progress)
