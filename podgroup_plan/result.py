"""The plan's result as plain data, shaped like the JSON contract (docs/contract.md).

`PlanResult.to_dict()` is the `simulate -o json` document; renderers take that dict (or these
objects) and never recompute decisions. Everything is sorted here so output is byte-identical
whatever the input order.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, Sequence

if TYPE_CHECKING:  # pragma: no cover
    from podgroup_plan.capacity import Capacity, NodeUsage

API_VERSION = "podgroup-plan/v1"

# pods[].status
SCHEDULED = "Scheduled"
UNSCHEDULABLE = "Unschedulable"
WAITING = "Waiting"
PREEMPTED = "Preempted"
IGNORED = "Ignored"
# A PodGroup of a suspended Job, or of a Job with nothing to run: its controller creates no pods,
# so kube-scheduler has nothing of it to schedule (the planner's word; v1.37.0 writes nothing).
SUSPENDED = "Suspended"
INVALID = "Invalid"

# reasons
REASON_UNSCHEDULABLE = "Unschedulable"
REASON_SCHEDULER_ERROR = "SchedulerError"


@dataclass(frozen=True, slots=True)
class ConditionResult:
    type: str
    status: str  # "True" | "False"
    reason: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "status": self.status, "reason": self.reason, "message": self.message}


@dataclass(frozen=True, slots=True)
class OwnerRef:
    """`{kind, name}` of an object's controlling ownerReference (same namespace)."""

    kind: str
    name: str

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name}


@dataclass(frozen=True, slots=True)
class PodResult:
    namespace: str
    name: str
    pod_group: str | None
    status: str
    node: str | None = None
    reason: str | None = None
    message: str | None = None
    nominated_node: str | None = None
    # its controlling ownerReference, in the input or made by expansion (null: a bare pod)
    owner: OwnerRef | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "namespace": self.namespace,
            "name": self.name,
            "podGroup": self.pod_group,
            "status": self.status,
            "node": self.node,
            "reason": self.reason,
            "message": self.message,
            "nominatedNode": self.nominated_node,
            "owner": self.owner.to_dict() if self.owner else None,
        }


@dataclass(frozen=True, slots=True)
class PlacementResult:
    """One candidate of a group's last placement-algorithm run (the planner's own account of
    what upstream's `0/N placements are available` text leaves out)."""

    name: str | None
    nodes: int
    evaluated: bool
    feasible: bool | None
    scheduled_pods: int | None
    message: str | None
    score: int | None
    scores: Mapping[str, int] | None  # plugin -> normalised, unweighted score, in profile order
    chosen: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "nodes": self.nodes,
            "evaluated": self.evaluated,
            "feasible": self.feasible,
            "scheduledPods": self.scheduled_pods,
            "message": self.message,
            "score": self.score,
            "scores": None if self.scores is None else dict(self.scores),
            "chosen": self.chosen,
        }


class PlacementResults(Sequence[PlacementResult]):
    """The candidates of one placement-algorithm run, kept by column (a run may have hundreds of
    candidates, and thousands of groups run): a `PlacementResult` is made when an entry is
    read. Behaves as a read-only sequence; equal to any sequence with the same entries."""

    __slots__ = ("names", "nodes", "evaluated", "feasible", "scheduled", "messages", "totals", "scores", "chosen")

    def __init__(self, names: Sequence[str | None], nodes: Sequence[int], evaluated: Sequence[bool],
                 feasible: Sequence[bool | None], scheduled: Sequence[int | None], messages: Sequence[str | None],
                 totals: Sequence[int | None], scores: Mapping[str, Sequence[int | None]], chosen: int | None):
        self.names = names
        self.nodes = nodes
        self.evaluated = evaluated
        self.feasible = feasible
        self.scheduled = scheduled
        self.messages = messages
        self.totals = totals
        self.scores = scores  # plugin -> per-candidate score (None where not scored)
        self.chosen = chosen  # position of the winner, if any

    def __len__(self) -> int:
        return len(self.names)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        total = self.totals[i]
        feasible = self.feasible[i]
        scheduled = self.scheduled[i]
        return PlacementResult(
            name=self.names[i],
            nodes=int(self.nodes[i]),
            evaluated=bool(self.evaluated[i]),
            feasible=None if feasible is None else bool(feasible),
            scheduled_pods=None if scheduled is None else int(scheduled),
            message=self.messages[i],
            score=None if total is None else int(total),
            scores=None if total is None else {n: int(v[i]) for n, v in self.scores.items()},
            chosen=i == self.chosen,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other))

    def __repr__(self) -> str:
        return f"PlacementResults({list(self)!r})"


@dataclass(frozen=True, slots=True)
class PodGroupResult:
    namespace: str
    name: str
    policy: str
    min_count: int
    topology_key: str | None
    placement: str | None
    scheduled_pods: int
    pending_pods: int
    status: str
    conditions: tuple[ConditionResult, ...] = ()
    # None: the placement algorithm did not run for the group; () : it ran, no candidate.
    placements: Sequence[PlacementResult] | None = None
    # (label key, values) per topology level the nodes carry, coarse to fine: where the group's
    # running pods are after the plan (domains.py); () when none runs
    domains: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "namespace": self.namespace,
            "name": self.name,
            "policy": self.policy,
            "minCount": self.min_count,
            "topologyKey": self.topology_key,
            "placement": self.placement,
            "scheduledPods": self.scheduled_pods,
            "pendingPods": self.pending_pods,
            "status": self.status,
            "conditions": [c.to_dict() for c in self.conditions],
            "placements": None if self.placements is None else [p.to_dict() for p in self.placements],
            "domains": [{"key": key, "values": list(values)} for key, values in self.domains],
        }


@dataclass(frozen=True, slots=True)
class CompositePodGroupResult:
    namespace: str
    name: str
    parent: str | None
    policy: str
    min_group_count: int
    placement: str | None
    status: str
    message: str | None = None
    # None: the placement algorithm did not run for it; () : it ran, no candidate.
    placements: Sequence[PlacementResult] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "namespace": self.namespace,
            "name": self.name,
            "parent": self.parent,
            "policy": self.policy,
            "minGroupCount": self.min_group_count,
            "placement": self.placement,
            "status": self.status,
            "message": self.message,
            "placements": None if self.placements is None else [p.to_dict() for p in self.placements],
        }


@dataclass(frozen=True, slots=True)
class Preemptor:
    kind: str  # Pod | PodGroup | CompositePodGroup
    namespace: str
    name: str

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "namespace": self.namespace, "name": self.name}


@dataclass(frozen=True, slots=True)
class VictimResult:
    namespace: str
    name: str
    node: str
    pod_group: str | None
    priority: int
    preemptor: Preemptor
    # The PodDisruptionBudgets (namespace/name) the eviction violates: DefaultPreemption evicts
    # a PDB-violating victim only when no candidate without one fits (docs/preemption.md)
    pdbs: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "namespace": self.namespace,
            "name": self.name,
            "node": self.node,
            "podGroup": self.pod_group,
            "priority": self.priority,
            "preemptor": self.preemptor.to_dict(),
        }
        if self.pdbs:  # present only when true, so that every other result keeps its bytes
            out["violatesPDB"] = True
            out["pdbs"] = list(self.pdbs)
        return out


@dataclass(frozen=True, slots=True)
class PreemptionSummary:
    """One successful preemption, for the table (the planner's own account; the JSON document
    carries the same victims in `victims[]`): who preempted, whom it evicted, and the running
    pods a PodDisruptionBudget spared (a PDB-violating unit that was reprieved)."""

    preemptor: Preemptor
    victims: tuple[VictimResult, ...]
    # (namespace, name, node, PDB names) of each spared pod
    spared: tuple[tuple[str, str, str, tuple[str, ...]], ...] = ()


@dataclass(frozen=True, slots=True)
class Summary:
    nodes: int = 0
    pods_scheduled: int = 0
    pods_unschedulable: int = 0
    pods_waiting: int = 0
    pods_preempted: int = 0
    pod_groups_scheduled: int = 0
    pod_groups_unschedulable: int = 0
    pod_groups_waiting: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "nodes": self.nodes,
            "podsScheduled": self.pods_scheduled,
            "podsUnschedulable": self.pods_unschedulable,
            "podsWaiting": self.pods_waiting,
            "podsPreempted": self.pods_preempted,
            "podGroupsScheduled": self.pod_groups_scheduled,
            "podGroupsUnschedulable": self.pod_groups_unschedulable,
            "podGroupsWaiting": self.pod_groups_waiting,
        }


@dataclass(frozen=True)
class PlanResult:
    summary: Summary
    pods: tuple[PodResult, ...] = ()
    pod_groups: tuple[PodGroupResult, ...] = ()
    composite_pod_groups: tuple[CompositePodGroupResult, ...] = ()
    victims: tuple[VictimResult, ...] = ()
    # What the plan did not apply, in words a user understands (a topology constraint that was
    # not honoured, a plugin that is not modelled, ...). Sorted, de-duplicated.
    notes: tuple[str, ...] = ()
    # Objects that create pods but were not expanded (kind, namespace, name): see ClusterInput.
    unplanned: tuple[tuple[str, str, str], ...] = ()
    # Every successful preemption in plan order, for the table (not part of the JSON document).
    preemptions: tuple[PreemptionSummary, ...] = ()
    # The profile's scheduler names, for the table header.
    scheduler_names: tuple[str, ...] = field(default=())
    # (namespace, kind, name) -> (kind, name) of its controlling owner, for controller objects
    # (a JobSet's Jobs, a Deployment's ReplicaSets, a Job's PodGroup): how tables, --fail-on and
    # JUnit group pods and groups by the object a user wrote. Not part of the JSON document.
    owner_parents: Mapping[tuple[str, str, str], tuple[str, str]] = field(default_factory=dict)
    # Gates whose value in this plan differs from kube-scheduler v1.37.0's default (contract.md),
    # sorted by name.
    feature_gates: Mapping[str, bool] = field(default_factory=dict)
    # (namespace, name, node) of the pods bound to a node the input does not hold (an incomplete
    # snapshot): not planned, their requests counted nowhere; named in `notes`, and what
    # `--fail-on incomplete` fails on. Not a key of the JSON document (the note is).
    missing_node_pods: tuple[tuple[str, str, str], ...] = ()
    # (namespace, name) of a PodGroup with a parent -> its parentCompositePodGroupName, so the
    # table can draw CompositePodGroup trees down to the leaves. Not part of the JSON document.
    group_parents: Mapping[tuple[str, str], str] = field(default_factory=dict)
    # Every node's usage before and after the plan (capacity.py), for the `capacity` section and
    # the HTML map; None for a result not made by a plan.
    usage: "NodeUsage | None" = field(default=None, compare=False, repr=False)

    @property
    def capacity(self) -> "Capacity | None":
        """Free GPUs and N-GPU slots per zone and rack, before and after (capacity.py)."""
        if self.usage is None:
            return None
        from podgroup_plan.capacity import capacity

        return capacity(self.usage)

    def root_owner(self, namespace: str, owner: OwnerRef | None) -> OwnerRef | None:
        """The top of `owner`'s chain of controlling owners (a JobSet for a pod of one of its
        Jobs, a Deployment for a pod of its ReplicaSet); `owner` itself when it has none."""
        if owner is None:
            return None
        kind, name = owner.kind, owner.name
        for _ in range(8):  # chains are short; a cycle in bad input must not loop forever
            parent = self.owner_parents.get((namespace, kind, name))
            if parent is None:
                break
            kind, name = parent
        return OwnerRef(kind, name)

    def group_owner(self, namespace: str, name: str) -> OwnerRef | None:
        """The object a PodGroup was made for (a Job, or the JobSet above it), if any."""
        parent = self.owner_parents.get((namespace, "PodGroup", name))
        return self.root_owner(namespace, OwnerRef(*parent)) if parent else None

    def composite_owner(self, namespace: str, name: str) -> OwnerRef | None:
        """The object a CompositePodGroup was made for (a LeaderWorkerSet, a JobSet), if any."""
        parent = self.owner_parents.get((namespace, "CompositePodGroup", name))
        return self.root_owner(namespace, OwnerRef(*parent)) if parent else None

    @property
    def feasible(self) -> bool:
        return self.summary.pods_unschedulable == 0 and self.summary.pods_waiting == 0 and \
            self.summary.pod_groups_unschedulable == 0 and self.summary.pod_groups_waiting == 0

    def to_dict(self) -> dict[str, Any]:
        capacity = self.capacity  # None when the plan kept no usage
        doc = {
            "apiVersion": API_VERSION,
            "kind": "PlanResult",
            "feasible": self.feasible,
            "featureGates": dict(self.feature_gates),
            "summary": self.summary.to_dict(),
            "pods": [p.to_dict() for p in self.pods],
            "podGroups": [g.to_dict() for g in self.pod_groups],
            "compositePodGroups": [c.to_dict() for c in self.composite_pod_groups],
            "victims": [v.to_dict() for v in self.victims],
            "notes": list(self.notes),
            **({} if capacity is None else {"capacity": capacity.to_dict()}),
        }
        if self.unplanned:  # only then: every other result keeps its bytes
            doc["unplanned"] = [{"kind": k, "namespace": ns, "name": n} for k, ns, n in self.unplanned]
        return doc
