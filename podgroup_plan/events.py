"""What the queue and the passes report: small typed events, one per decision.

The queue (queue.py: PreEnqueue gates, profiles), the passes (passes.py) and the tree cycle
(scheduling/tree_cycle.py) say what happened through `emit(event)`; the recorder (outcome.py) is
the one that turns the events into a `PlanResult`, and tells the plan's observer (explain's
tracer, podgroup_plan/observer.py) what it wrote. Nobody else writes a result.

Pod and node identities are the model's objects and the state's node rows or names, as the
emitter has them; no event carries a result object.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Sequence

from podgroup_plan.model.objects import CompositePodGroup, Pod, PodGroup

if TYPE_CHECKING:  # pragma: no cover
    from podgroup_plan.model.hierarchy import TreeNode
    from podgroup_plan.result import PlacementResult, Preemptor

GroupKey = tuple[str, str]


@dataclass(frozen=True, slots=True)
class PodIgnored:
    """No profile serves the pod's schedulerName, or the pod is being deleted: never tried."""

    pod: Pod


@dataclass(frozen=True, slots=True)
class GroupIgnored:
    """Every pending member of the group is another scheduler's, or being deleted."""

    key: GroupKey


@dataclass(frozen=True, slots=True)
class PodsWaiting:
    """A PreEnqueue gate holds the pods back (schedulingGates, a missing PodGroup, a gang with
    fewer pods than minCount, an invalid tree). `group` waits with them when given."""

    pods: Sequence[Pod]
    group: PodGroup | None
    message: str | None


@dataclass(frozen=True, slots=True)
class TreeWaiting:
    """A CompositePodGroup tree that did not pass the quorum gate: every CompositePodGroup in it."""

    root: "TreeNode"
    message: str


@dataclass(frozen=True, slots=True)
class PodBound:
    """A cycle placed the pod on node row `node` (committed, not a trial)."""

    pod: Pod
    node: int


@dataclass(frozen=True, slots=True)
class PodFailed:
    """A cycle left the pod pending: `reason` Unschedulable or SchedulerError, kube-scheduler's
    message, and the node it stays nominated to (by name) if any."""

    pod: Pod
    reason: str
    message: str
    nominated_node: str | None = None


@dataclass(frozen=True, slots=True)
class PodEvicted:
    """Preemption deleted a placed pod. `message` is the DisruptionTarget condition's text."""

    pod: Pod
    node: str
    priority: int
    preemptor: "Preemptor"
    message: str
    # the PodDisruptionBudgets (namespace/name) this eviction violates, if any
    pdbs: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Preempted:
    """One successful preemption, after its `PodEvicted` events: the victims in eviction order
    and the pods a PodDisruptionBudget spared, (namespace, name, node, PDB names)."""

    preemptor: "Preemptor"
    victims: Sequence[Pod]
    spared: Sequence[tuple[str, str, str, tuple[str, ...]]]


@dataclass(frozen=True, slots=True)
class PlacementsTried:
    """The placement algorithm's candidates in one cycle of a group or CompositePodGroup, and
    the domain the group landed in when the cycle succeeded."""

    group: PodGroup | CompositePodGroup
    trials: Sequence["PlacementResult"]
    domain: str | None
    succeeded: bool


@dataclass(frozen=True, slots=True)
class GroupCycleEnded:
    """A PodGroup's cycle ended: `reason` Scheduled, Unschedulable or SchedulerError."""

    group: PodGroup
    reason: str
    message: str


@dataclass(frozen=True, slots=True)
class CompositeCycleEnded:
    """A CompositePodGroup's outcome in its root's cycle, with its placement candidates (None
    when its placement algorithm did not run)."""

    group: CompositePodGroup
    scheduled: bool
    message: str | None
    trials: Sequence["PlacementResult"] | None
    domain: str | None


Event = (PodIgnored | GroupIgnored | PodsWaiting | TreeWaiting | PodBound | PodFailed | PodEvicted | Preempted
         | PlacementsTried | GroupCycleEnded | CompositeCycleEnded)
Emit = Callable[[Event], None]
