"""podgroup-plan: an offline what-if planner for Kubernetes gang (PodGroup) scheduling.

The Python API (docs/api.md):

    from podgroup_plan import load_input, plan, Planner

    cluster = load_input(["fixtures/cluster", "fixtures/workloads"])   # ClusterInput
    result = plan(cluster)                                             # PlanResult
    result.to_dict()                                                   # the `-o json` document

The names below are imported on first use (PEP 562), so `import podgroup_plan` -- which every
CLI run does -- stays as cheap as it was.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.3.0"

# The kube-scheduler whose decisions the planner mirrors (README: it mirrors v1.37.0 exactly).
KUBERNETES_VERSION = "v1.37.0"

# name -> the module that defines it
_EXPORTS = {
    "load_input": "podgroup_plan.loading",
    "load_scheduler_config": "podgroup_plan.loading",
    "plan": "podgroup_plan.planner",
    "Planner": "podgroup_plan.planner",
    "Scope": "podgroup_plan.planner",
    "PlanResult": "podgroup_plan.result",
    "PodResult": "podgroup_plan.result",
    "PodGroupResult": "podgroup_plan.result",
    "CompositePodGroupResult": "podgroup_plan.result",
    "VictimResult": "podgroup_plan.result",
    "ClusterInput": "podgroup_plan.model.cluster_input",
    "Node": "podgroup_plan.model.objects",
    "Pod": "podgroup_plan.model.objects",
    "PodGroup": "podgroup_plan.model.objects",
    "CompositePodGroup": "podgroup_plan.model.objects",
    "Workload": "podgroup_plan.model.objects",
    "InputError": "podgroup_plan.errors",
    "Problem": "podgroup_plan.errors",
}

# Written out (not built from _EXPORTS) so that readers and linters see the public names;
# tests/test_api_doc.py checks that the two agree.
__all__ = [
    "KUBERNETES_VERSION", "__version__",
    "load_input", "load_scheduler_config", "plan", "Planner", "Scope",
    "PlanResult", "PodResult", "PodGroupResult", "CompositePodGroupResult", "VictimResult",
    "ClusterInput", "Node", "Pod", "PodGroup", "CompositePodGroup", "Workload",
    "InputError", "Problem",
]

if TYPE_CHECKING:  # pragma: no cover
    from podgroup_plan.errors import InputError, Problem
    from podgroup_plan.loading import load_input, load_scheduler_config
    from podgroup_plan.model.cluster_input import ClusterInput
    from podgroup_plan.model.objects import CompositePodGroup, Node, Pod, PodGroup, Workload
    from podgroup_plan.planner import Planner, Scope, plan
    from podgroup_plan.result import CompositePodGroupResult, PlanResult, PodGroupResult, PodResult, VictimResult


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'podgroup_plan' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # once imported, an ordinary attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
