"""The replay's queue entries and what it keeps about each pod that ran.

A `Unit` wraps one of the Planner's queue entities (a lone pod, a PodGroup with its pending pods,
a CompositePodGroup tree) with what kube-scheduler's queue keeps beside it (upstream's
QueuedPodInfo / QueuedPodGroupInfo): the timestamp that orders it, its unschedulable and error
counts (the backoff reads them), and where it waits. The replay adds what a user asks about:
its attempts, the message while it waited.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from podgroup_plan.model.objects import Pod
from podgroup_plan.queue import Entity

ACTIVE, BACKOFF, UNSCHEDULABLE, DONE = "active", "backoff", "unschedulable", "done"
MAX_ATTEMPTS_KEPT = 20  # the first ones are kept; the count goes on (memory stays bounded)


@dataclass(slots=True)
class Attempt:
    time: float
    trigger: str  # what put the unit in the active queue: arrival, a pod's end, backoff, flush
    outcome: str  # Scheduled, Unschedulable, SchedulerError, Preempting
    message: str


@dataclass(slots=True)
class Unit:
    entity: Entity
    kind: str  # "Pod", "PodGroup", "CompositePodGroup"
    namespace: str
    name: str
    priority: int
    arrival: float
    queued_at: float  # upstream's Timestamp: arrival, then the last failed attempt
    where: str = ACTIVE
    unschedulable_count: int = 0
    error_count: int = 0
    flushed_at: float | None = None
    # orders equal `queued_at`s as upstream's timestamps would be: 0 for an arrival (created
    # before the instant's cycles run; arrivals of one instant by key), then the engine's count
    # of failed attempts at the last one (a counted flush keeps it: flushed together, entities are
    # retried in their earlier order)
    failure: int = 0
    version_at_failure: int = -1  # the cluster state's version after its last failure
    committed_at_failure: int = -1  # the engine's count of bindings and pods gone, then
    failed_plugins: set[str] = field(default_factory=set)
    message: str = ""
    attempts: list[Attempt] = field(default_factory=list)
    attempt_count: int = 0
    waiting_for_victims: set[tuple[str, str]] = field(default_factory=set)  # preempted, not gone yet
    # the nodes that could ever host its pods (analyses/replay/hosts.py); None: any node may
    # matter; unset until its first failure
    hosts: np.ndarray | None = None
    hopeless: bool = False  # no node can ever host one of its pods: it waits for nothing
    # it preempted once: its answers depend on its nomination, which another preemptor can take
    # without changing any node, so its retries are always run (`Engine._unchanged` is not asked)
    preempted: bool = False
    trigger: str = "arrival"  # what last moved it toward the active queue
    generation: int = 0  # bumped on every move: stale timer events are skipped

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.kind, self.namespace, self.name)

    def log(self, attempt: Attempt) -> None:
        self.attempt_count += 1
        if len(self.attempts) < MAX_ATTEMPTS_KEPT:
            self.attempts.append(attempt)


@dataclass(slots=True)
class PodRun:
    """One pod's life in the replay."""

    pod: Pod
    workload: tuple[str, str, str]  # (kind, namespace, name) of its workload
    arrival: float
    duration: float | None  # None: runs forever
    grace: float
    gpus: int
    cpu_milli: int
    start: float | None = None
    end: float | None = None
    node: str | None = None
    ended_by: str | None = None  # "completed" or "preempted"
    running_at_start: bool = False
    held: str | None = None  # never queued: why (a scheduling gate, a gang short of members)


def unit_of(entity: Entity, arrival: float) -> Unit:
    if entity.tree is not None:
        kind, namespace, name = "CompositePodGroup", entity.tree.group.namespace, entity.tree.group.name
    elif entity.group is not None:
        kind, namespace, name = "PodGroup", entity.group.namespace, entity.group.name
    else:
        pod = entity.pods[0]
        kind, namespace, name = "Pod", pod.namespace, pod.name
    priority = max(p.priority for p in entity.pods)
    return Unit(entity, kind, namespace, name, priority, arrival, arrival)
