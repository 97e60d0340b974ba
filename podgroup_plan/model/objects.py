"""The planner's internal model: one shape whatever the API version the input used.

Every object is a frozen dataclass built once by `podgroup_plan.loading.decode`. The core never
sees YAML, JSON or API versions except where behaviour depends on them (`api_version` on groups
picks the condition type). Mappings held in fields are plain dicts that nobody mutates.

Resource amounts are integers in kube-scheduler's units: `cpu` in millicores, every other
resource (memory, ephemeral-storage, pods, extended resources) in whole units (bytes, counts),
rounded up as `Quantity.Value()` does.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from podgroup_plan.model.selectors import LabelSelector, NodeSelector, NodeSelectorTerm

Resources = Mapping[str, int]

CPU = "cpu"
MEMORY = "memory"
EPHEMERAL_STORAGE = "ephemeral-storage"
PODS = "pods"

DEFAULT_SCHEDULER_NAME = "default-scheduler"
PREEMPT_LOWER_PRIORITY = "PreemptLowerPriority"
PREEMPT_NEVER = "Never"


@dataclass(frozen=True, slots=True)
class Source:
    """Where an object came from, for error messages."""

    file: str
    document: int  # 1-based
    line: int | None = None


@dataclass(frozen=True, slots=True)
class Taint:
    key: str
    value: str
    effect: str  # NoSchedule | PreferNoSchedule | NoExecute


@dataclass(frozen=True, slots=True)
class Toleration:
    key: str = ""  # empty with operator Exists tolerates everything
    operator: str = "Equal"  # Equal | Exists
    value: str = ""
    effect: str = ""  # empty matches every effect


@dataclass(frozen=True, slots=True)
class HostPort:
    """A container port that asks for a host port (hostPort > 0)."""

    port: int
    protocol: str = "TCP"
    host_ip: str = "0.0.0.0"


@dataclass(frozen=True, slots=True)
class PodAffinityTerm:
    label_selector: LabelSelector | None
    topology_key: str
    namespaces: tuple[str, ...] = ()
    namespace_selector: LabelSelector | None = None
    match_label_keys: tuple[str, ...] = ()
    mismatch_label_keys: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class WeightedPodAffinityTerm:
    weight: int
    term: PodAffinityTerm


@dataclass(frozen=True, slots=True)
class PreferredSchedulingTerm:
    weight: int
    preference: NodeSelectorTerm


@dataclass(frozen=True, slots=True)
class Affinity:
    node_required: NodeSelector | None = None
    node_preferred: tuple[PreferredSchedulingTerm, ...] = ()
    pod_affinity_required: tuple[PodAffinityTerm, ...] = ()
    pod_affinity_preferred: tuple[WeightedPodAffinityTerm, ...] = ()
    pod_anti_affinity_required: tuple[PodAffinityTerm, ...] = ()
    pod_anti_affinity_preferred: tuple[WeightedPodAffinityTerm, ...] = ()


@dataclass(frozen=True, slots=True)
class TopologySpreadConstraint:
    max_skew: int
    topology_key: str
    when_unsatisfiable: str  # DoNotSchedule | ScheduleAnyway
    label_selector: LabelSelector | None = None
    min_domains: int | None = None
    node_affinity_policy: str = "Honor"  # Honor | Ignore
    node_taints_policy: str = "Ignore"  # Honor | Ignore
    match_label_keys: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class OwnerReference:
    kind: str
    name: str
    controller: bool = False


@dataclass(frozen=True, slots=True)
class Condition:
    type: str
    status: str  # "True" | "False" | "Unknown"
    reason: str = ""
    message: str = ""


@dataclass(frozen=True, slots=True)
class Pod:
    namespace: str
    name: str
    labels: Mapping[str, str] = field(default_factory=dict)
    node_name: str | None = None  # set: running (bound) pod; None: pending
    scheduler_name: str = DEFAULT_SCHEDULER_NAME
    priority: int = 0  # resolved from spec.priority / PriorityClass / globalDefault
    preemption_policy: str = PREEMPT_LOWER_PRIORITY
    # Effective request: max(sum of containers (+ restartable init/sidecars), largest init) +
    # overhead, per resource. Only resources with a non-zero amount are present.
    requests: Resources = field(default_factory=dict)
    # cpu/memory as NodeResourcesFit scores them: a container without a request counts as
    # 100m cpu / 200Mi memory (kube-scheduler's non-zero defaults).
    non_zero_cpu: int = 0
    non_zero_memory: int = 0
    host_ports: tuple[HostPort, ...] = ()
    node_selector: Mapping[str, str] = field(default_factory=dict)
    affinity: Affinity | None = None
    tolerations: tuple[Toleration, ...] = ()
    topology_spread_constraints: tuple[TopologySpreadConstraint, ...] = ()
    images: tuple[str, ...] = ()  # container images, normalised as ImageLocality expects
    # The PodGroup this pod belongs to, by name in the pod's namespace. For v1alpha1 input the
    # implied group's name `WORKLOAD/PODGROUP[/REPLICAKEY]`.
    pod_group: str | None = None
    creation_timestamp: str | None = None  # RFC 3339, compared as text after normalising to UTC
    start_time: str | None = None
    phase: str = "Pending"
    nominated_node_name: str | None = None
    # metadata.deletionTimestamp: the pod is being deleted. kube-scheduler never schedules such a
    # pod (skipPodSchedule); a bound one still holds its node until it is gone.
    deletion_timestamp: str | None = None
    scheduling_gates: tuple[str, ...] = ()  # spec.schedulingGates names, in order
    owner_references: tuple[OwnerReference, ...] = ()
    uid: str = ""
    source: Source | None = None
    # status.conditions: the first DisruptionTarget condition is True with reason
    # PreemptionByScheduler (the scheduler evicted it; with deletion_timestamp set, it is
    # terminating because of preemption).
    preempted_by_scheduler: bool = False

    @property
    def key(self) -> tuple[str, str]:
        return (self.namespace, self.name)

    @property
    def terminating_by_preemption(self) -> bool:
        """upstream PodTerminatingByPreemption."""
        return self.deletion_timestamp is not None and self.preempted_by_scheduler

    @property
    def is_running(self) -> bool:
        return self.node_name is not None


@dataclass(frozen=True, slots=True)
class ImageState:
    names: tuple[str, ...]
    size_bytes: int


@dataclass(frozen=True, slots=True)
class Node:
    name: str
    labels: Mapping[str, str] = field(default_factory=dict)
    taints: tuple[Taint, ...] = ()
    unschedulable: bool = False
    # status.allocatable, else status.capacity; `pods` defaults to 110.
    allocatable: Resources = field(default_factory=dict)
    images: tuple[ImageState, ...] = ()
    source: Source | None = None


@dataclass(frozen=True, slots=True)
class PriorityClass:
    name: str
    value: int
    global_default: bool = False
    preemption_policy: str = PREEMPT_LOWER_PRIORITY
    source: Source | None = None


@dataclass(frozen=True, slots=True)
class PodDisruptionBudget:
    namespace: str
    name: str
    selector: LabelSelector | None
    min_available: int | str | None = None  # int or "N%"
    max_unavailable: int | str | None = None
    disruptions_allowed: int | None = None  # status.disruptionsAllowed when the input has it
    disrupted_pods: tuple[str, ...] = ()  # status.disruptedPods names
    source: Source | None = None


@dataclass(frozen=True, slots=True)
class SpreadSelector:
    """A Service, ReplicaSet, StatefulSet or ReplicationController: read only for its selector,
    which kube-scheduler's default (system) topology spreading uses."""

    kind: str
    namespace: str
    name: str
    selector: LabelSelector  # Services and RCs (map selectors) are converted to matchLabels


GANG = "Gang"
BASIC = "Basic"
DISRUPTION_SINGLE = "single"  # v1alpha2 "Pod"
DISRUPTION_ALL = "all"  # v1alpha2 "PodGroup"


@dataclass(frozen=True, slots=True)
class PodGroupTemplate:
    """A Workload's podGroupTemplates[] entry (v1alpha1: podGroups[])."""

    name: str
    policy: str  # GANG | BASIC
    min_count: int = 1
    topology_key: str | None = None
    disruption_mode: str = DISRUPTION_SINGLE
    priority_class_name: str | None = None
    priority: int | None = None
    preemption_policy: str | None = None


@dataclass(frozen=True, slots=True)
class CompositePodGroupTemplate:
    name: str
    policy: str
    min_group_count: int = 1
    topology_key: str | None = None
    disruption_mode: str = DISRUPTION_SINGLE
    priority_class_name: str | None = None
    priority: int | None = None
    preemption_policy: str | None = None
    pod_group_templates: tuple[PodGroupTemplate, ...] = ()
    composite_pod_group_templates: tuple["CompositePodGroupTemplate", ...] = ()


@dataclass(frozen=True, slots=True)
class Workload:
    namespace: str
    name: str
    api_version: str
    pod_group_templates: tuple[PodGroupTemplate, ...] = ()
    composite_pod_group_templates: tuple[CompositePodGroupTemplate, ...] = ()
    source: Source | None = None


@dataclass(frozen=True, slots=True)
class PodGroup:
    namespace: str
    name: str
    api_version: str  # decides the condition type: v1alpha2 -> PodGroupScheduled
    policy: str  # GANG | BASIC
    min_count: int = 1  # 1 for Basic
    topology_key: str | None = None
    disruption_mode: str = DISRUPTION_SINGLE
    priority_class_name: str | None = None
    # Resolved group priority: spec.priority, else its PriorityClass value; None when the group
    # sets neither (its pods must then agree with each other).
    priority: int | None = None
    preemption_policy: str = PREEMPT_LOWER_PRIORITY
    workload_name: str | None = None
    template_name: str | None = None
    parent: str | None = None  # parentCompositePodGroupName
    creation_timestamp: str | None = None
    conditions: tuple[Condition, ...] = ()
    implied: bool = False  # True for groups implied by v1alpha1 pod workloadRefs
    source: Source | None = None

    @property
    def key(self) -> tuple[str, str]:
        return (self.namespace, self.name)

    @property
    def condition_type(self) -> str:
        if self.api_version.endswith("/v1alpha2"):
            return "PodGroupScheduled"
        return "PodGroupInitiallyScheduled"


@dataclass(frozen=True, slots=True)
class CompositePodGroup:
    namespace: str
    name: str
    api_version: str
    policy: str
    min_group_count: int = 1
    topology_key: str | None = None
    disruption_mode: str = DISRUPTION_SINGLE
    priority_class_name: str | None = None
    priority: int | None = None
    preemption_policy: str = PREEMPT_LOWER_PRIORITY
    workload_name: str | None = None
    template_name: str | None = None
    parent: str | None = None
    creation_timestamp: str | None = None
    conditions: tuple[Condition, ...] = ()
    source: Source | None = None

    @property
    def key(self) -> tuple[str, str]:
        return (self.namespace, self.name)
