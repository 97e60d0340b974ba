"""`ClusterInput`: everything the input says, decoded and validated (the loader's product, the
planner's input).

Apart from model/objects.py because it holds the controllers (model/controllers.py), whose
templates are `Pod`s: objects.py <- controllers.py <- cluster_input.py, no cycle.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Mapping

from podgroup_plan.model.objects import (
    CompositePodGroup,
    Node,
    Pod,
    PodDisruptionBudget,
    PodGroup,
    PriorityClass,
    SpreadSelector,
    Workload,
)

if TYPE_CHECKING:
    # Not a cycle (controllers.py does not import this module): model/controllers.py loads only
    # when the input has controllers, which is start-up time of every other run
    # (tests/cli/test_cli_startup_imports.py).
    from podgroup_plan.model.controllers import Controllers


@dataclass(frozen=True, slots=True)
class ClusterInput:
    """Everything the input says, decoded and validated. Lists are sorted by (namespace, name)."""

    nodes: tuple[Node, ...] = ()
    pods: tuple[Pod, ...] = ()
    priority_classes: tuple[PriorityClass, ...] = ()
    pod_disruption_budgets: tuple[PodDisruptionBudget, ...] = ()
    workloads: tuple[Workload, ...] = ()
    pod_groups: tuple[PodGroup, ...] = ()
    composite_pod_groups: tuple[CompositePodGroup, ...] = ()
    spread_selectors: tuple[SpreadSelector, ...] = ()
    namespaces: Mapping[str, Mapping[str, str]] = field(default_factory=dict)  # name -> labels
    # How many Namespace objects the input held (`namespaces` also has those only implied by
    # the objects living in them); `validate` counts them.
    namespace_objects: int = 0
    # The KubeSchedulerConfiguration document found among the manifests, as a plain dict
    # (already schema-checked); `--scheduler-config` wins over it.
    scheduler_config: Mapping | None = None
    scheduler_config_source: str | None = None  # the file it came from, for error messages
    # Kinds read but not planned, e.g. {"ConfigMap": 1, "Ingress": 3}.
    ignored_kinds: Mapping[str, int] = field(default_factory=dict)
    # Objects of kinds known to create pods that the planner does not expand (an Argo Workflow,
    # a SparkApplication): (kind, namespace, name), sorted. Named in the result (`unplanned`).
    unplanned: tuple[tuple[str, str, str], ...] = ()
    # Jobs, JobSets, Deployments, ReplicaSets and StatefulSets (model/controllers.py), which
    # `podgroup_plan.controllers.expand` turns into the pods they lack before the plan.
    controllers: Controllers | None = None
    # (namespace, kind, name) -> (kind, name) of its controlling owner, for the controller
    # objects read or created by expansion: a JobSet's Jobs, a Deployment's ReplicaSets.
    owner_parents: Mapping[tuple[str, str, str], tuple[str, str]] = field(default_factory=dict)
    # What expansion did not model, for the result's notes.
    expansion_notes: tuple[str, ...] = ()
    # What admission (loading/admission.py) did not apply, for the result's notes.
    admission_notes: tuple[str, ...] = ()
    # Pods read in a finished phase ({"Succeeded": 3, "Failed": 1}): not planned (kube-scheduler's
    # informer drops them), counted by `validate`.
    finished_pods: Mapping[str, int] = field(default_factory=dict)
    # PodGroups made for Jobs that create no pods (suspended, or nothing to run): `Suspended`.
    suspended_groups: frozenset[tuple[str, str]] = frozenset()
    # What loading let pass with a warning (unknown fields under --validate=warn), for the notes.
    input_notes: tuple[str, ...] = ()
