"""Recording the cycles of one target while the plan runs (`podgroup-plan explain`).

The plan is run once, exactly as `simulate` runs it, with a `Tracer` as its observer
(podgroup_plan/observer.py): the planner hands it to every framework, to the passes and to the
recorder, and only notifies it; the tracer keeps its own account of where the cycles run (which
pass, which group cycle, which placement trial, whether a preemption re-run). Each time the
single-pod algorithm (`scheduling/schedule_one.py`) finishes a cycle for a pod the tracer is
interested in, the tracer asks the same plugin instances, on the same
cluster state (nothing has been assumed yet), what each of them says about every node of the
cycle's view and how each scored the feasible nodes. That costs one extra filter pass per
plugin and one score pass per plugin for the target's own cycles only; every other pod's cycle
pays one attribute check. The tracer never writes to the cluster state except inside a
`tentative()` that it rolls back (to count nominated pods the way the cycle counted them), and it
never advances the rotating start index, so the plan with a tracer is the plan without one (a
property test checks it).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from podgroup_plan.config.defaults import gate_enabled
from podgroup_plan.framework.interface import CycleState, PreFilterPlugin
from podgroup_plan.framework.status import Code
from podgroup_plan.model.objects import Pod
from podgroup_plan.plugins.taint_toleration import COMPARISON_OPERATORS_GATE
from podgroup_plan.state.cluster import ClusterState, PodKey

if TYPE_CHECKING:  # pragma: no cover
    from podgroup_plan.framework.nominator import Relevant
    from podgroup_plan.framework.runtime import Framework
    from podgroup_plan.scheduling.schedule_one import PodScheduleResult


@dataclass(slots=True)
class PluginVerdicts:
    """One Filter plugin's answer for every node of a cycle's view, asked on its own."""

    plugin: str
    passed: np.ndarray  # bool per node of the view
    reasons: list[tuple[str, ...]]  # per node of the view: its reasons ('' tuple when passed)
    codes: np.ndarray  # int8 per node of the view: 0 passed, else the status code
    skipped: bool = False  # PreFilter returned Skip: upstream does not run its Filter


@dataclass(slots=True)
class PluginScores:
    plugin: str
    weight: int
    raw: np.ndarray  # int64 per feasible node
    normalized: np.ndarray  # int64 per feasible node
    skipped: bool = False  # PreScore returned Skip: not part of the total


@dataclass(slots=True)
class PodCycle:
    """Everything one cycle of the target pod saw and decided."""

    index: int  # 1-based count of this pod's cycles
    seq: int  # 1-based count of every recorded cycle (the order cycles ran in)
    pass_number: int  # the plan's pass (1-based)
    scope: str  # "pod" (alone), or the group cycle it ran inside ("PodGroup ns/name")
    placement: str | None  # the candidate placement under trial, when a placement algorithm ran
    rerun: bool  # workload-aware preemption's re-run with the victims removed (not kept)
    view: np.ndarray  # node rows the cycle considered
    node: int | None  # the node the cycle chose
    status_code: int
    message: str
    pre_filter: list[tuple[str, int, str]] = field(default_factory=list)  # (plugin, code, message)
    pre_filter_rejected: bool = False
    narrowed_out: np.ndarray | None = None  # bool per view node: removed by PreFilter's node set
    narrowing: tuple[str, ...] = ()
    filters: list[PluginVerdicts] = field(default_factory=list)
    feasible: np.ndarray | None = None  # node rows scored (after percentageOfNodesToScore)
    sampled: bool = False  # percentageOfNodesToScore limited the feasible nodes
    scores: list[PluginScores] = field(default_factory=list)
    nominated_counted: tuple[int, ...] = ()  # nodes where nominated pods were counted
    free: dict[str, np.ndarray] = field(default_factory=dict)  # resource -> free per view node
    allocatable: dict[str, np.ndarray] = field(default_factory=dict)
    requests: dict[str, int] = field(default_factory=dict)
    pods_free: np.ndarray | None = None  # pod slots left per view node
    # Whether TaintToleration matched Gt/Lt tolerations in this cycle (its feature gate, read
    # from the same handle the plugin reads), so hints judge taints exactly as the plugin did.
    comparison_operators: bool = False

    def totals(self) -> np.ndarray:
        total = np.zeros(0 if self.feasible is None else len(self.feasible), dtype=np.int64)
        for s in self.scores:
            if not s.skipped:
                total = total + s.normalized * s.weight
        return total


class Tracer:
    """Records the cycles of one target's pods: a pod, the pods of a PodGroup, or the pods of
    every PodGroup below a CompositePodGroup (`parents` maps a group key to its parent's).
    A `PlanObserver`: hand it to `plan(observer=...)`."""

    def __init__(self, target, parents: dict[PodKey, PodKey | None] | None = None):
        self.target = target
        self.parents = parents or {}
        self._below: frozenset[PodKey] | None = None  # see _below_target
        self.cycles: dict[PodKey, list[PodCycle]] = {}
        self.pods: dict[PodKey, Pod] = {}
        self.state: ClusterState | None = None
        self.pass_number = 0
        # Where the pod cycles run now, from the notifications: the group cycle ("pod" outside
        # one), the candidate placement on trial, a workload-aware preemption re-run.
        self._scope = "pod"
        self._placement: str | None = None
        self._rerun = False
        # Group-level records (filled by the group cycle and preemption hooks).
        self.group_cycles: list[dict] = []
        self.placements: dict[PodKey, list[dict] | None] = {}
        self.victims: list[dict] = []
        self.preemptions: list[dict] = []
        self._outcomes: list[dict] = []
        self._seq = 0

    def wants(self, pod: Pod) -> bool:
        kind, key = self.target.kind, self.target.key
        if kind == "Pod":
            return pod.key == key
        if pod.pod_group is None:
            return False
        group = (pod.namespace, pod.pod_group)
        if kind == "PodGroup":
            return group == key
        return group in self._below_target()

    def wants_group(self, namespace: str, name: str) -> bool:
        """A group cycle of the target (or, for a composite target, of its tree)."""
        key = (namespace, name)
        if self.target.kind == "Pod":
            return False
        return key == self.target.key or key in self._below_target()

    def _below_target(self) -> frozenset[PodKey]:
        """Every group below the target, at any depth (trees have no depth limit): found once,
        by a walk down from the target over a stack, each group visited once (a cycle in bad
        input ends the walk)."""
        below = self._below
        if below is None:
            children: dict[PodKey, list[PodKey]] = {}
            for child, parent in self.parents.items():
                if parent is not None:
                    children.setdefault(parent, []).append(child)
            seen: set[PodKey] = set()
            todo = list(children.get(self.target.key, ()))
            while todo:
                key = todo.pop()
                if key in seen or key == self.target.key:
                    continue
                seen.add(key)
                todo.extend(children.get(key, ()))
            below = self._below = frozenset(seen)
        return below

    def wants_member(self, namespace: str, pod_group: str | None) -> bool:
        """A pod of the target group (or of a group in the target's tree)."""
        return pod_group is not None and self.wants_group(namespace, pod_group)

    # ----- notifications from the passes and the cycles -----------------------------------

    def pass_started(self) -> None:
        self.pass_number += 1

    def group_cycle_started(self, scope: str) -> None:
        self._scope = scope

    def group_cycle_finished(self) -> None:
        self._scope = "pod"

    def trial_started(self, placement: str | None) -> None:
        self._placement = placement

    def trial_ended(self) -> None:
        self._placement = None

    def rerun_started(self) -> None:
        self._rerun = True

    def rerun_finished(self) -> None:
        self._rerun = False

    # ----- hooks from the plan's Recorder (outcome.py) ------------------------------------

    def outcome(self, pod: Pod, status: str, node: str | None, message: str | None) -> None:
        """A pod's outcome as the Recorder wrote it; gathered into the next group cycle."""
        if self.target.kind != "Pod" and self.wants(pod):
            self._outcomes.append({"pod": f"{pod.namespace}/{pod.name}", "node": node,
                                   "status": status, "message": message})

    def group_cycle(self, namespace: str, name: str, reason: str, message: str) -> None:
        if not self.wants_group(namespace, name):
            self._outcomes = []
            return
        placements = self.placements.pop((namespace, name), None)
        kept = _kept_placement(placements)
        self.group_cycles.append({
            "cycle": len(self.group_cycles) + 1,
            "pass": self.pass_number,
            "podGroup": f"{namespace}/{name}",
            "status": reason,
            "message": message or None,
            "placements": placements,
            "pods": sorted((self._with_trial(o, kept) for o in self._outcomes), key=lambda o: o["pod"]),
        })
        self._outcomes = []

    def _with_trial(self, outcome: dict, placement: str | None) -> dict:
        """Add the node the pod fitted on in this pass's cycle (before the group's verdict), or
        null when it did not fit or was never evaluated. With placements, the trial of the
        placement whose results the group kept (`placement`)."""
        namespace, name = outcome["pod"].split("/", 1)
        fitted = None
        for cycle in reversed(self.cycles.get((namespace, name), [])):
            if cycle.pass_number != self.pass_number:
                break
            if not cycle.rerun and (placement is None or cycle.placement == placement):
                fitted = cycle.node
                break
        outcome["fittedNode"] = None if fitted is None or self.state is None else self.state.node_names[fitted]
        return outcome

    def placement_run(self, namespace: str, name: str, placements: list[dict] | None) -> None:
        """The candidate placements of a group's latest placement-algorithm run (contract's
        `placements` entries), kept for the cycle that is being recorded."""
        if self.wants_group(namespace, name):
            self.placements[(namespace, name)] = placements

    def preemption(self, namespace: str, name: str, outcome) -> None:
        """Workload-aware preemption's decision for a group cycle of the target."""
        if not self.wants_group(namespace, name):
            return
        units = []
        for unit, verdict, violating, pdbs in outcome.considered or ():
            pods = [f"{p.namespace}/{p.name}" for p in unit.pods]
            units.append({"unit": pods[0] if len(pods) == 1 else f"{unit.kind} {unit.id}",
                          "kind": unit.kind, "priority": unit.priority, "pods": pods,
                          "verdict": verdict, "pdbs": pdbs, "pdbViolatingPods": violating})
        self.preemptions.append({
            "cycle": len(self.group_cycles) + 1, "pass": self.pass_number,
            "status": outcome.status.code.upstream_name, "message": outcome.status.message or None,
            "units": units,
            "pdbs": sorted({name for u in units for name in u["pdbs"]}),
            "victims": sorted(f"{p.namespace}/{p.name}" for u in outcome.victims for p in u.pods),
        })

    def victim(self, preemptor_kind: str, namespace: str, name: str, victim: dict) -> None:
        if (preemptor_kind, namespace, name) == (self.target.kind, *self.target.key) or (
                preemptor_kind != "Pod" and self.wants_group(namespace, name)):
            self.victims.append(victim)

    # ----- the single-pod hook ------------------------------------------------------------

    def pod_cycle(self, fwk: "Framework", pod: Pod, state: ClusterState, view: np.ndarray,
                  result: "PodScheduleResult") -> None:
        self.state = state
        self.pods[pod.key] = pod
        cycles = self.cycles.setdefault(pod.key, [])
        cycle = PodCycle(
            index=len(cycles) + 1, seq=self._seq + 1, pass_number=self.pass_number, scope=self._scope,
            placement=self._placement, rerun=self._rerun, view=np.array(view, copy=True), node=result.node,
            status_code=int(result.status.code), message=result.status.message,
            feasible=None if result.feasible is None else np.array(result.feasible, copy=True),
            sampled=result.sampled,
            comparison_operators=gate_enabled(fwk.handle.feature_gates, COMPARISON_OPERATORS_GATE),
        )
        cycles.append(cycle)
        self._seq += 1
        if len(view) == 0:
            return
        self._resources(cycle, pod, state, view)
        cs = CycleState()
        skipped: set[str] = set()
        allowed = None
        for pre in fwk.pre_filter:
            got = pre.pre_filter(cs, pod, state, view)
            st = got.status
            if st.is_skip():
                skipped.add(pre.name)
                continue
            cycle.pre_filter.append((pre.name, int(st.code), st.message))
            if not st.is_success():
                cycle.pre_filter_rejected = True
                return
            if got.node_names is not None:
                cycle.narrowing += (pre.name,)
                allowed = got.node_names if allowed is None else allowed & got.node_names
        if allowed is not None:
            names = state.node_names
            cycle.narrowed_out = np.array([names[r] not in allowed for r in view.tolist()], dtype=bool)
        nominated = self._nominated(fwk, pod, state, view)
        cycle.nominated_counted = tuple(sorted(nominated))
        for plugin in fwk.filter:
            cycle.filters.append(self._verdicts(plugin, cs, pod, state, view, plugin.name in skipped, nominated))
        if cycle.feasible is not None and len(cycle.feasible) > 1:
            self._scores(cycle, fwk, cs, pod, state, cycle.feasible)

    # ----- helpers ------------------------------------------------------------------------

    @staticmethod
    def _resources(cycle: PodCycle, pod: Pod, state: ClusterState, view: np.ndarray) -> None:
        for name, amount in sorted(pod.requests.items()):
            row = state.resource_index.get(name)
            if row is None or name == "pods":
                continue
            alloc = state.allocatable[row].take(view)
            cycle.allocatable[name] = alloc
            cycle.free[name] = alloc - state.requested[row].take(view)
            cycle.requests[name] = amount
        cycle.pods_free = state.allowed_pods.take(view) - state.pod_count.take(view)

    @staticmethod
    def _nominated(fwk: "Framework", pod: Pod, state: ClusterState,
                   view: np.ndarray) -> "Relevant | dict[int, list[Pod]]":
        """The nominated pods that count on each node (read as a mapping node -> pods)."""
        nominator = fwk.nominator
        return nominator.relevant(pod, state, view) if nominator else {}

    @staticmethod
    def _verdicts(plugin, cs: CycleState, pod: Pod, state: ClusterState, view: np.ndarray,
                  skipped: bool, nominated: "Relevant | dict[int, list[Pod]]") -> PluginVerdicts:
        n = len(view)
        if skipped:
            return PluginVerdicts(plugin.name, np.ones(n, dtype=bool), [()] * n, np.zeros(n, dtype=np.int8), True)
        verdict = plugin.filter(cs, pod, state, view)
        passed = np.array(verdict.passed, dtype=bool, copy=True)
        reasons: list[tuple[str, ...]] = [()] * n
        codes = np.zeros(n, dtype=np.int8)
        for failure in verdict.failures:
            for i in np.flatnonzero(failure.mask & ~passed).tolist():
                reasons[i] = reasons[i] + failure.reasons
                codes[i] = max(int(codes[i]), int(failure.code))
        if nominated:
            # The nodes holding nominated pods of equal or higher priority are judged with those
            # pods added, as the cycle judged them (its first pass; framework/nominator.py).
            pos = np.searchsorted(view, np.fromiter(nominated, dtype=np.intp, count=len(nominated)))
            with state.tentative():
                for node, pods in nominated.items():
                    for other in pods:
                        state.assume(other, node)
                sub = view[pos]
                cs2 = CycleState()
                if isinstance(plugin, PreFilterPlugin):
                    plugin.pre_filter(cs2, pod, state, sub)
                again = plugin.filter(cs2, pod, state, sub)
                for j, i in enumerate(pos.tolist()):
                    if not again.passed[j]:
                        passed[i] = False
                        rs: tuple[str, ...] = ()
                        code = int(Code.UNSCHEDULABLE)
                        for failure in again.failures:
                            if failure.mask[j]:
                                rs += failure.reasons
                                code = max(code, int(failure.code))
                        reasons[i] = rs
                        codes[i] = code
        return PluginVerdicts(plugin.name, passed, reasons, codes)

    @staticmethod
    def _scores(cycle: PodCycle, fwk: "Framework", cs: CycleState, pod: Pod, state: ClusterState,
                feasible: np.ndarray) -> None:
        skipped: set[str] = set()
        for pre in fwk.pre_score:
            if pre.pre_score(cs, pod, state, feasible).is_skip():
                skipped.add(pre.name)
        for plugin, weight in fwk.score:
            if plugin.name in skipped:
                zeros = np.zeros(len(feasible), dtype=np.int64)
                cycle.scores.append(PluginScores(plugin.name, weight, zeros, zeros, True))
                continue
            raw = np.asarray(plugin.score(cs, pod, state, feasible), dtype=np.int64)
            normalized = np.asarray(plugin.normalize(cs, pod, raw.copy()), dtype=np.int64)
            cycle.scores.append(PluginScores(plugin.name, weight, raw, normalized))


def _kept_placement(placements: list[dict] | None) -> str | None:
    """The candidate whose per-pod results a group cycle keeps (upstream §3.3): the chosen one,
    else the reported one (the nominated candidate if evaluated, else the first evaluated; the
    list is in evaluation order, nominated first)."""
    if not placements:
        return None
    for p in placements:
        if p.get("chosen"):
            return p.get("name")
    for p in placements:
        if p.get("evaluated"):
            return p.get("name")
    return None
