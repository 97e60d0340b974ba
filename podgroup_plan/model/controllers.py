"""Objects whose controllers create pods: Job, JobSet, Deployment, ReplicaSet, StatefulSet.

Decoded once by `podgroup_plan.loading.decode_controllers`; expanded into pods (and, for Jobs,
a Workload and a PodGroup) by `podgroup_plan.controllers` before the plan (docs/controllers.md).
Each holds its pod template already decoded as a `Pod` (name empty): expansion copies it with
the names, labels and links the controller adds, so every pod of one template shares its
decoded parts (requests, affinity, tolerations).
"""
from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Iterable, Mapping

from podgroup_plan.model.objects import OwnerReference, Pod, Source
from podgroup_plan.model.selectors import LabelSelector


@dataclass(frozen=True, slots=True)
class GangRequest:
    """What an object's `podgroup-plan.io/gang` and `podgroup-plan.io/topology` annotations ask.

    mode: None (no annotation: `--gang` decides), "true" (the object's natural gang shape),
    "single" (one gang for all its pods), "false" (never, even with `--gang`)."""

    mode: str | None = None
    topology_key: str | None = None

    def wanted(self, gang_all: bool) -> str | None:
        """The shape to plan ("true" or "single"), or None for pod by pod."""
        if self.mode == "false":
            return None
        if self.mode in ("true", "single"):
            return self.mode
        return "true" if gang_all else None


@dataclass(frozen=True, slots=True)
class JobScheduling:
    """batch/v1 `JobSpec.scheduling` (1.37, gate WorkloadWithJob)."""

    policy: str  # GANG | BASIC (schedulingPolicy absent: BASIC)
    min_count: int | None = None  # gang.minCount as written; None: the Job's parallelism
    topology_key: str | None = None
    disruption_mode: str = "single"


class IndexIntervals:
    """A Job's `status.completedIndexes` ("1,3-5,7") kept as sorted intervals, never expanded:
    "0-1999999999" is two numbers, not two billion. Answers `in` and `len` like a set of ints,
    and `end_of(i)`: one past the interval holding i (None when i is not in one)."""

    __slots__ = ("_starts", "_ends", "_size")

    def __init__(self, intervals: Iterable[tuple[int, int]] = ()):
        merged: list[list[int]] = []
        for lo, hi in sorted((lo, hi) for lo, hi in intervals if lo <= hi):
            if merged and lo <= merged[-1][1] + 1:
                merged[-1][1] = max(merged[-1][1], hi)
            else:
                merged.append([lo, hi])
        self._starts = [lo for lo, _ in merged]
        self._ends = [hi for _, hi in merged]
        self._size = sum(hi - lo + 1 for lo, hi in merged)

    def end_of(self, index: int) -> int | None:
        at = bisect_right(self._starts, index) - 1
        if at >= 0 and index <= self._ends[at]:
            return self._ends[at] + 1
        return None

    def __contains__(self, index: object) -> bool:
        return isinstance(index, int) and self.end_of(index) is not None

    def __len__(self) -> int:
        return self._size

    def __eq__(self, other: object) -> bool:
        if isinstance(other, IndexIntervals):
            return (self._starts, self._ends) == (other._starts, other._ends)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((tuple(self._starts), tuple(self._ends)))

    def __repr__(self) -> str:
        return f"IndexIntervals({list(zip(self._starts, self._ends))})"


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
    completed_indexes: frozenset[int] | IndexIntervals = frozenset()
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
    paused: bool = False  # spec.paused: a paused Deployment creates no ReplicaSet


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
    owner: OwnerReference | None = None  # a TrainJob's JobSet: the TrainJob
    gang: GangRequest | None = None  # podgroup-plan.io/gang


@dataclass(frozen=True, slots=True)
class Controllers:
    """Every controller object of the input, each list sorted by (namespace, name)."""

    jobs: tuple[Job, ...] = ()
    job_sets: tuple[JobSet, ...] = ()
    deployments: tuple[Deployment, ...] = ()
    replica_sets: tuple[ReplicaSet, ...] = ()
    stateful_sets: tuple[StatefulSet, ...] = ()
    # The operators' objects (model/operators.py); a TrainJob is held as the JobSet it makes.
    train_jobs: tuple[JobSet, ...] = ()
    pytorch_jobs: tuple = ()
    tf_jobs: tuple = ()
    leader_worker_sets: tuple = ()
    ray_clusters: tuple = ()
    ray_jobs: tuple = ()
    cron_jobs: tuple = ()
    daemon_sets: tuple = ()
    # `--gang`: plan every operator object as Workload + PodGroups (docs/controllers.md)
    gang_all: bool = False

    def __bool__(self) -> bool:
        return bool(self.jobs or self.job_sets or self.deployments or self.replica_sets
                    or self.stateful_sets or self.train_jobs or self.pytorch_jobs or self.tf_jobs
                    or self.leader_worker_sets or self.ray_clusters or self.ray_jobs
                    or self.cron_jobs or self.daemon_sets)
