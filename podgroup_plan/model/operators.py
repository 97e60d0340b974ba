"""Objects of the operators ML teams submit: PyTorchJob, TFJob, LeaderWorkerSet, RayCluster, RayJob,
CronJob, DaemonSet (a TrainJob is decoded into the JobSet its runtime makes, model/controllers.py).

Decoded once by `podgroup_plan.loading.decode_operators`; expanded into the pods (and the
intermediate objects) each operator's current release creates by `podgroup_plan.controllers`
before the plan (docs/controllers.md). Pod templates are held already decoded as `Pod`s (name
empty), as for the built-in controllers.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from podgroup_plan.model.controllers import GangRequest, Job
from podgroup_plan.model.objects import OwnerReference, Pod, Source

# The planner's own annotations (docs/controllers.md, "Gangs"): not any operator's.
GANG_ANNOTATION = "podgroup-plan.io/gang"
TOPOLOGY_ANNOTATION = "podgroup-plan.io/topology"


NO_GANG = GangRequest()


@dataclass(frozen=True, slots=True)
class ReplicaSpec:
    """One entry of a PyTorchJob's `pytorchReplicaSpecs` or a TFJob's `tfReplicaSpecs` (the type
    camel-cased as the operator's defaulting does: Master, Worker, PS, Chief, Evaluator)."""

    type: str
    replicas: int
    template: Pod


@dataclass(frozen=True, slots=True)
class KubeflowJob:
    """A Kubeflow Training Operator v1 job (`kubeflow.org/v1`): a PyTorchJob or a TFJob, which
    share the replica-spec shape and the controller library that makes their pods."""

    kind: str  # PyTorchJob, TFJob
    namespace: str
    name: str
    uid: str
    replica_specs: tuple[ReplicaSpec, ...] = ()
    min_available: int | None = None  # runPolicy.schedulingPolicy.minAvailable
    suspend: bool = False
    finished: bool = False
    gang: GangRequest = NO_GANG
    creation_timestamp: str | None = None
    source: Source | None = None


@dataclass(frozen=True, slots=True)
class LeaderWorkerSet:
    namespace: str
    name: str
    uid: str
    leader_template: Pod
    worker_template: Pod
    replicas: int = 1
    size: int = 1
    revision_hash: str = ""  # leaderworkerset.sigs.k8s.io/template-revision-hash (ours, stable)
    leader_ready_startup: bool = False  # startupPolicy LeaderReady
    exclusive_topology: str | None = None  # annotation leaderworkerset.sigs.k8s.io/exclusive-topology
    gang: GangRequest = NO_GANG
    creation_timestamp: str | None = None
    source: Source | None = None


@dataclass(frozen=True, slots=True)
class RayWorkerGroup:
    name: str
    replicas: int  # desired replicas, min/max applied (GetWorkerGroupDesiredReplicas / numOfHosts)
    num_of_hosts: int
    template: Pod
    suspend: bool = False


@dataclass(frozen=True, slots=True)
class RayCluster:
    namespace: str
    name: str
    uid: str
    head: Pod
    worker_groups: tuple[RayWorkerGroup, ...] = ()
    suspend: bool = False
    autoscaling: bool = False
    owner: OwnerReference | None = None
    ray_gang_label: bool = False  # ray.io/gang-scheduling-enabled: "true" (KubeRay's own opt-in)
    gang: GangRequest = NO_GANG
    creation_timestamp: str | None = None
    source: Source | None = None


@dataclass(frozen=True, slots=True)
class RayJob:
    namespace: str
    name: str
    uid: str
    cluster: RayCluster | None  # the RayCluster it creates (name filled in by expansion)
    submitter: Pod | None = None  # K8sJobMode's submitter Job template
    submitter_backoff_limit: int = 2
    cluster_name: str | None = None  # status.rayClusterName (an existing cluster keeps its name)
    uses_existing_cluster: bool = False  # clusterSelector: no cluster is created
    submission_mode: str = "K8sJobMode"
    suspend: bool = False
    finished: bool = False
    gang: GangRequest = NO_GANG
    creation_timestamp: str | None = None
    source: Source | None = None


@dataclass(frozen=True, slots=True)
class CronJob:
    namespace: str
    name: str
    uid: str
    job: Job  # the jobTemplate as a Job (name and owner filled in by expansion)
    schedule: str
    time_zone: str | None = None
    suspend: bool = False
    last_schedule_time: str | None = None
    job_labels: Mapping[str, str] = field(default_factory=dict)
    gang: GangRequest = NO_GANG
    creation_timestamp: str | None = None
    source: Source | None = None


@dataclass(frozen=True, slots=True)
class DaemonSet:
    namespace: str
    name: str
    uid: str
    template: Pod  # default daemon tolerations already added (CreatePodTemplate)
    template_hash: str = ""  # controller-revision-hash (ours, stable)
    node_name: str | None = None  # the template's spec.nodeName
    creation_timestamp: str | None = None
    source: Source | None = None
