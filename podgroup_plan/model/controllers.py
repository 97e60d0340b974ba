"""Objects whose controllers create pods: Job, JobSet, Deployment, ReplicaSet, StatefulSet.

Decoded once by `podgroup_plan.loading.decode_controllers`; expanded into pods (and, for Jobs,
a Workload and a PodGroup) by `podgroup_plan.controllers` before the plan (docs/controllers.md).
Each holds its pod template already decoded as a `Pod` (name empty): expansion copies it with
the names, labels and links the controller adds, so every pod of one template shares its
decoded parts (requests, affinity, tolerations).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from podgroup_plan.model.objects import OwnerReference, Pod, Source
from podgroup_plan.model.selectors import LabelSelector


@dataclass(frozen=True, slots=True)
class JobScheduling:
    """batch/v1 `JobSpec.scheduling` (1.37, gate WorkloadWithJob)."""

    policy: str  # GANG | BASIC (schedulingPolicy absent: BASIC)
    min_count: int | None = None  # gang.minCount as written; None: the Job's parallelism
    topology_key: str | None = None
    disruption_mode: str = "single"


@dataclass(frozen=True, slots=True)
class Job:
    namespace: str
    name: str
    uid: str  # "" when the manifest has none (expansion derives a stand-in)
    template: Pod
    parallelism: int = 1
    completions: int | None = None
    indexed: bool = False
    suspend: bool = False
    manual_selector: bool = False
    scheduling: JobScheduling | None = None
    owner: OwnerReference | None = None  # the controlling ownerReference (a JobSet, a CronJob)
    delegated_template: str | None = None  # annotation scheduling.k8s.io/group-template-name
    succeeded: int = 0
    failed: int = 0
    completed_indexes: frozenset[int] = frozenset()
    started: bool = False  # status.startTime or a Suspended condition: not a new Job
    finished: bool = False  # a Complete or Failed condition: the controller creates nothing
    creation_timestamp: str | None = None
    source: Source | None = None

    @property
    def key(self) -> tuple[str, str]:
        return (self.namespace, self.name)


@dataclass(frozen=True, slots=True)
class ReplicaSet:
    namespace: str
    name: str
    uid: str
    template: Pod
    replicas: int = 1
    owner: OwnerReference | None = None
    revision: int = 0  # annotation deployment.kubernetes.io/revision
    creation_timestamp: str | None = None
    source: Source | None = None


@dataclass(frozen=True, slots=True)
class Deployment:
    namespace: str
    name: str
    uid: str
    template: Pod
    # the pod template's JSON hash (`pod-template-hash` of the ReplicaSet it makes)
    template_hash: str
    replicas: int = 1
    selector: LabelSelector | None = None
    creation_timestamp: str | None = None
    source: Source | None = None


@dataclass(frozen=True, slots=True)
class StatefulSet:
    namespace: str
    name: str
    uid: str
    template: Pod
    replicas: int = 1
    ordinals_start: int = 0
    ordered_ready: bool = True  # podManagementPolicy OrderedReady (the default)
    creation_timestamp: str | None = None
    source: Source | None = None


@dataclass(frozen=True, slots=True)
class ReplicatedJob:
    name: str
    replicas: int
    group_name: str
    job: Job  # the Job template: namespace set, name and labels filled in by expansion
    job_labels: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class JobSet:
    namespace: str
    name: str
    uid: str
    replicated_jobs: tuple[ReplicatedJob, ...] = ()
    suspend: bool = False
    dns_hostnames: bool = True
    in_order_startup: bool = False
    creation_timestamp: str | None = None
    source: Source | None = None


@dataclass(frozen=True, slots=True)
class Controllers:
    """Every controller object of the input, each list sorted by (namespace, name)."""

    jobs: tuple[Job, ...] = ()
    job_sets: tuple[JobSet, ...] = ()
    deployments: tuple[Deployment, ...] = ()
    replica_sets: tuple[ReplicaSet, ...] = ()
    stateful_sets: tuple[StatefulSet, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.jobs or self.job_sets or self.deployments or self.replica_sets
                    or self.stateful_sets)
