"""Victim units, their priority and importance order, and PodDisruptionBudgets.

Mirrors `pkg/scheduler/framework/preemption/` of kube-scheduler v1.37.0: the victim units of
`types.go` (getHighestAllAncestor, NewPodVictim, searchCrossNodesVictimPods), and `util.go`
(GetPodPriority, TraverseHierarchyUp, MoreImportantVictim, FilterVictimsWithPDBViolation).

A *victim unit* is what is evicted at once: the whole subtree of the highest ancestor group
whose disruption mode is `all` (every scheduled pod of it, across the cluster), else the pod
alone. Its priority is the priority of the root group of the pod's hierarchy, else the pod's.
Deviation (README, "Deviations from kube-scheduler"): the last tie-break of the importance order is the first pod's
namespace/name instead of its UID, and pods without `status.startTime` count as equally late.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

from podgroup_plan.config.defaults import gate_enabled
from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import DISRUPTION_ALL, CompositePodGroup, Pod, PodDisruptionBudget, PodGroup

POD = "Pod"
POD_GROUP = "PodGroup"
COMPOSITE_POD_GROUP = "CompositePodGroup"
# victimRank: CompositePodGroup > PodGroup > Pod
RANK = {POD: 1, POD_GROUP: 2, COMPOSITE_POD_GROUP: 3}
WORKLOAD_MAX_TREE_DEPTH = 4

UnitId = tuple[str, str, str]  # (kind of the unit's owner, namespace, name)


@dataclass(frozen=True, slots=True)
class UnitInfo:
    """What a pod's eviction takes with it: the unit id, the unit's kind (for the rank) and the
    unit's priority."""

    id: UnitId
    kind: str
    priority: int


@dataclass(slots=True)
class VictimUnit:
    id: UnitId
    kind: str
    priority: int
    pods: list[Pod] = field(default_factory=list)  # placed pods, sorted by (namespace, name)
    nodes: list[int] = field(default_factory=list)  # node row of each pod when the unit was built
    # Set when the reprieve evicts it although evicting it violates a PodDisruptionBudget (it
    # was among FilterVictimsWithPDBViolation's violating victims): the result says so
    violates_pdb: bool = False

    def importance(self) -> tuple:
        """Sort key: the most important unit first (MoreImportantVictim)."""
        starts = [p.start_time for p in self.pods if p.start_time]
        # An unstarted pod's start time is "now": later than any recorded one.
        start = (0, min(starts)) if starts else (1, "")
        return (-self.priority, -RANK[self.kind], -len(self.pods), start, self.pods[0].key)


class Hierarchy:
    """Resolves, once per pod, the unit a running pod belongs to (and so its eviction priority),
    following the PodGroup -> CompositePodGroup chain as far as the feature gates let
    kube-scheduler see it."""

    def __init__(self, cluster: ClusterInput, gates: Mapping[str, bool]):
        self.workload = gate_enabled(gates, "GenericWorkload")
        self.composite = gate_enabled(gates, "CompositePodGroup")
        self.groups: dict[tuple[str, str], PodGroup] = {g.key: g for g in cluster.pod_groups}
        self.composites: dict[tuple[str, str], CompositePodGroup] = {c.key: c for c in cluster.composite_pod_groups}
        self._cache: dict[tuple[str, str], UnitInfo] = {}
        self._members: dict[UnitId, list[Pod]] | None = None
        self._cluster = cluster

    def unit_of(self, pod: Pod) -> UnitInfo:
        info = self._cache.get(pod.key)
        if info is None:
            info = self._cache[pod.key] = self._resolve(pod)
        return info

    def priority_of(self, pod: Pod) -> int:
        return self.unit_of(pod).priority

    def _resolve(self, pod: Pod) -> UnitInfo:
        alone = (POD, pod.namespace, pod.name)
        if not self.workload or pod.pod_group is None:
            return UnitInfo(alone, POD, pod.priority)
        group = self.groups.get((pod.namespace, pod.pod_group))
        if group is None:
            # The pod names a group kube-scheduler cannot find: a unit of its own, ranked as a
            # PodGroup (its schedulingGroup is set), at its own priority.
            return UnitInfo(alone, POD_GROUP, pod.priority)
        highest_all: UnitId | None = None
        last: PodGroup | CompositePodGroup = group
        key: UnitId = (POD_GROUP, pod.namespace, group.name)
        visited: set[UnitId] = set()
        for _ in range(WORKLOAD_MAX_TREE_DEPTH):  # TraverseHierarchyUp
            if key in visited:
                break
            visited.add(key)
            obj = self.groups.get(key[1:]) if key[0] == POD_GROUP else self.composites.get(key[1:])
            if obj is None:
                break
            last = obj
            if obj.disruption_mode == DISRUPTION_ALL:
                highest_all = key
            # Without the CompositePodGroup gate kube-scheduler looks at the PodGroup only.
            if not self.composite or obj.parent is None:
                break
            key = (COMPOSITE_POD_GROUP, pod.namespace, obj.parent)
        priority = last.priority if last.priority is not None else pod.priority
        if highest_all is None:
            return UnitInfo(alone, POD_GROUP, priority)
        return UnitInfo(highest_all, highest_all[0], priority)

    def members(self, unit: UnitId) -> list[Pod]:
        """Every pod of the input (running or pending) whose eviction unit is `unit`; the
        unit's victims are those of them placed at the time."""
        if self._members is None:
            self._members = {}
            for pod in self._cluster.pods:
                if pod.phase in ("Succeeded", "Failed"):
                    continue
                info = self.unit_of(pod)
                if info.id[0] != POD:
                    self._members.setdefault(info.id, []).append(pod)
            for pods in self._members.values():
                pods.sort(key=lambda p: p.key)
        if unit[0] == POD:
            return []
        return self._members.get(unit, [])


def build_units(pods: Iterable[Pod], hierarchy: Hierarchy, node_of) -> list[VictimUnit]:
    """The units of the placed `pods` (each unit once), with every placed pod of each unit
    across the cluster. `node_of(pod)` is the pod's node row now, or None. Sorted by unit id."""
    units: dict[UnitId, VictimUnit] = {}
    for pod in pods:
        info = hierarchy.unit_of(pod)
        if info.id in units:
            continue
        members = [pod] if info.id[0] == POD else hierarchy.members(info.id)
        placed = [(p, node_of(p)) for p in members]
        placed = [(p, n) for p, n in placed if n is not None]
        units[info.id] = VictimUnit(info.id, info.kind, info.priority, [p for p, _ in placed], [n for _, n in placed])
    return [units[k] for k in sorted(units)]


# ----- PodDisruptionBudgets ---------------------------------------------------------------


class Budgets:
    """PodDisruptionBudgets as preemption reads them: `status.disruptionsAllowed` (computed from
    minAvailable / maxUnavailable over the running pods the selector matches when the input has
    no status), minus the matching pods the plan has evicted since (what the disruption
    controller would report after those evictions)."""

    def __init__(self, pdbs: Sequence[PodDisruptionBudget], running: Sequence[Pod], pods: Sequence[Pod] = ()):
        self.pdbs = tuple(sorted(pdbs, key=lambda b: (b.namespace, b.name)))
        self._by_namespace: dict[str, list[int]] = {}
        for i, pdb in enumerate(self.pdbs):
            self._by_namespace.setdefault(pdb.namespace, []).append(i)
        self._matching: dict[tuple[str, str], tuple[int, ...]] = {}
        self.running = list(running)
        self._pods = list(pods)  # every live pod of the input, running or pending
        self._covered: list[Pod] | None = None
        self._covered_running: list[Pod] | None = None
        self.base = [self._initial(i) for i in range(len(self.pdbs))]

    def covered_pods(self) -> list[Pod]:
        """The pods of the input some PDB's selector matches."""
        if self._covered is None:
            self._covered = [p for p in self._pods if self.matching(p)] if self.pdbs else []
        return self._covered

    def names_covering(self, pods: Sequence[Pod]) -> list[str]:
        """`namespace/name` of every PDB that selects one of `pods` (for `explain`)."""
        found = {i for pod in pods for i in self.matching(pod)}
        return [f"{self.pdbs[i].namespace}/{self.pdbs[i].name}" for i in sorted(found)]

    def matching(self, pod: Pod) -> tuple[int, ...]:
        """Indexes of the PDBs whose selector matches the pod: an empty selector `{}` matches
        every pod of the namespace, a missing selector none."""
        got = self._matching.get(pod.key)
        if got is None:
            got = tuple(
                i for i in self._by_namespace.get(pod.namespace, ())
                if (selector := self.pdbs[i].selector) is not None and selector.matches(pod.labels)
            )
            self._matching[pod.key] = got
        return got

    def _initial(self, i: int) -> int:
        pdb = self.pdbs[i]
        if pdb.disruptions_allowed is not None:
            return pdb.disruptions_allowed
        healthy = sum(1 for p in self.running if i in self.matching(p))
        expected = healthy
        if pdb.max_unavailable is not None:
            desired = expected - _scaled(pdb.max_unavailable, expected)
        elif pdb.min_available is not None:
            desired = _scaled(pdb.min_available, expected)
        else:
            desired = 0
        return max(0, healthy - desired)

    def allowed_now(self, placed) -> list[int]:
        """Budgets now: the base minus the matching input-running pods no longer placed."""
        allowed = list(self.base)
        if not self.pdbs:
            return allowed
        if self._covered_running is None:
            self._covered_running = [p for p in self.running if self.matching(p)]
        for pod in self._covered_running:
            if not placed(pod):
                for i in self.matching(pod):
                    allowed[i] -= 1
        return allowed

    @property
    def empty(self) -> bool:
        return not self.pdbs


def _scaled(value: int | str, total: int) -> int:
    """intstr.GetScaledValueFromIntOrPercent with rounding up, as the disruption controller uses."""
    if isinstance(value, int):
        return value
    pct = int(value[:-1])
    return -(-pct * total // 100)


def split_by_pdb(
    units: Sequence[VictimUnit], budgets: Budgets, allowed: list[int]
) -> tuple[list[tuple[VictimUnit, int]], list[VictimUnit]]:
    """FilterVictimsWithPDBViolation over `units` (most important first): each pod decrements
    every matching budget whose `status.disruptedPods` does not already list it, and violates
    when one goes below zero. A unit violates when any of its pods does. Returns
    ([(unit, violating pods)], [non-violating units]), both in the given order."""
    allowed = list(allowed)
    violating: list[tuple[VictimUnit, int]] = []
    fine: list[VictimUnit] = []
    for unit in units:
        count = 0
        for pod in unit.pods:
            for i in budgets.matching(pod):
                if pod.name in budgets.pdbs[i].disrupted_pods:
                    continue
                allowed[i] -= 1
                if allowed[i] < 0:
                    count += 1
                    break
        if count:
            violating.append((unit, count))
        else:
            fine.append(unit)
    return violating, fine
