"""The passes over the simulated queue (README, "Deviations from kube-scheduler").

Each pass gives every entity still pending one scheduling cycle against the cluster as earlier
cycles of the pass left it: the single-pod algorithm for a lone pod, the PodGroup cycle for a
group. A successful cycle binds. A failed one runs its PostFilter (DefaultPreemption for a lone
pod, workload-aware preemption for a group): victims are evicted from the cluster at once, the
preemptor is nominated and retried in the next pass. The passes end after a pass that binds and
evicts nothing; they terminate because every eviction serves a strictly higher priority and an
evicted pod never comes back.

Which entities a pass retries follows v1.37.0's queue (backend/queue/scheduling_queue.go): a
group whose cycle succeeded with pods left over runs again at once for them (requeued straight
to the active queue); a rejected group is retried after any bind or eviction (it waits in the
backoff queue, not for a queueing hint); a lone pod only when an eviction happened or a
queueing hint of a plugin that rejected it would requeue it (`_worth_retrying`).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, Mapping

from podgroup_plan import events as ev
from podgroup_plan.config.defaults import gate_enabled
from podgroup_plan.framework.interface import CycleState
from podgroup_plan.framework.nominator import Nominator
from podgroup_plan.framework.preemption.common import PreemptionOutcome
from podgroup_plan.framework.preemption.context import PreemptionContext
from podgroup_plan.framework.runtime import Framework
from podgroup_plan.framework.status import Code, Status
from podgroup_plan.model.hierarchy import TreeNode
from podgroup_plan.model.objects import CompositePodGroup, Pod, PodGroup
from podgroup_plan.observer import PlanObserver
from podgroup_plan.outcome import Recorder
from podgroup_plan.queue import Entity
from podgroup_plan.result import Preemptor
from podgroup_plan.scheduling.cycle import run_root_algorithm, schedule_pod_group
from podgroup_plan.scheduling.hierarchy import LeafMemo
from podgroup_plan.scheduling.pod_group import POD_GROUP_IS_UNSCHEDULABLE, GroupCycleResult, validate_pod_group
from podgroup_plan.scheduling.schedule_one import schedule_pod
from podgroup_plan.scheduling.tree_cycle import TreeCycle
from podgroup_plan.state.cluster import ClusterState
from podgroup_plan.state.journal import Journal

ProgressFn = Callable[[int, int], None]


class Passes:
    """Runs scheduling cycles over the queue until a pass binds nothing.

    Every ledger it keeps beside the cluster state (the queue, the entities' failure marks, its
    counters, the nominations, the recorder's records) is written through `journal`, so that a
    Planner's tentative scope takes all of it back (state/journal.py)."""

    def __init__(self, state: ClusterState, frameworks: Mapping[str, Framework], gates: Mapping[str, bool],
                 record: Recorder, live: list[Pod], nominator: Nominator, preemption: PreemptionContext,
                 observer: PlanObserver | None = None, journal: Journal | None = None):
        self.journal = journal if journal is not None else Journal()
        # What the passes decide goes to the recorder as events (events.py), the one writer
        # of the result; the passes read back only what they bound (queueing hints) and evicted.
        self.emit: ev.Emit = record.emit
        self.state = state
        self.observer = observer
        self.frameworks = frameworks
        self.record = record
        self.preemption_policy_gate = preemption.policy_gate
        self.placement_algorithm = gate_enabled(gates, "TopologyAwareWorkloadScheduling")
        # Every live member of each group; which of them are placed is read from the cluster
        # state, so a binding, an eviction or a rolled-back trial can never leave it stale.
        self.members: dict[tuple[str, str], list[Pod]] = {}
        for pod in live:
            if pod.pod_group:
                self.members.setdefault((pod.namespace, pod.pod_group), []).append(pod)
        # shared with the frameworks, which were handed them (planner.py)
        self.nominator = nominator
        self.preemption = preemption
        # leaf placement runs of CompositePodGroup trees, shared by every tree cycle
        self.leaf_memo = LeafMemo()
        # the clock (below) at the last eviction
        self.evictions_version = -1
        # cycles so far that bound or evicted something (committed changes, not trials)
        self.commits = 0
        # state versions used inside tentative scopes that were taken back (planner.py): the
        # clock leaves them out, so that a scope taken back leaves no trace in retry decisions
        self.hidden = 0
        # the entities still to schedule (the queue), in queue order
        self.queue: list[Entity] = []
        # how many passes of the last run() bound or evicted something (not a ledger)
        self.productive_passes = 0

    def clock(self) -> int:
        """The state's version as the retry decisions read it: `state.version`, less what
        scopes taken back used (the state's version only ever grows: its caches key on it)."""
        return self.state.version - self.hidden

    def run(self, progress: ProgressFn | None = None) -> None:
        """Passes over the queue until one binds and evicts nothing; `queue` keeps what is left.

        `progress(done, total)` counts scheduling cycles and is called after every one, whether
        it bound, failed or preempted (so a backlog of unschedulable pods moves it too): `done`
        cycles so far, `total` those plus the entities left in this pass (a later pass that
        retries some moves the end out again)."""
        todo = self.queue
        cycles = 0
        self.productive_passes = 0
        while todo:
            if self.observer is not None:
                self.observer.pass_started()
            changed = False
            still: list[Entity] = []
            for position, entity in enumerate(todo, 1):
                tried = self._worth_retrying(entity)
                if tried:
                    cycles += 1
                    if self.attempt(entity):
                        changed = True
                        self.journal.setattr(self, "commits", self.commits + 1)
                if entity.pods:
                    still.append(entity)
                if progress and tried:
                    progress(cycles, cycles + len(todo) - position)
            todo = still
            if not changed:
                break
            self.productive_passes += 1
        self.journal.setattr(self, "queue", todo)
        if progress:
            progress(cycles, cycles)

    def attempt(self, entity: Entity) -> bool:
        """One scheduling attempt of `entity` now, whatever the retry decisions would say (for an
        analysis that keeps its own queue, such as `replay`): its cycle, as `run` gives it. True
        when it bound or evicted something."""
        if entity.tree is not None:
            return self._tree_cycle(entity, entity.tree)
        if entity.group is not None:
            return self._group_cycle(entity, entity.group)
        return self._single_pod_cycle(entity)

    def _worth_retrying(self, entity: Entity) -> bool:
        if entity.failed_at_version is None:
            return True
        if entity.failed_at_version == self.clock():
            return False  # nothing at all changed since it failed
        if entity.group is not None or entity.tree is not None:
            # A rejected PodGroup goes back to the backoff queue, never to the unschedulable
            # pool, and no queueing hint decides when it comes out (v1.37.0
            # AddAttemptedPodGroupIfNeeded): it is tried again whenever its backoff expires,
            # here in the next pass after any committed change -- whatever caused its failure.
            return self.commits > entity.failed_at_commit
        if self.evictions_version > entity.failed_at_version:
            return True
        # The rejecting plugins' queueing hints for the pods bound since (upstream's
        # EventsToRegister / QueueingHintFn, on their classes): a failure none of them expects
        # bindings to cure waits for an eviction.
        pod = entity.pods[0]
        fwk = self.frameworks[pod.scheduler_name]
        bound_since = entity.failed_at_bound

        def added() -> list[Pod]:
            return self.record.bound_in_order[bound_since:]

        for name in sorted(entity.failed_plugins):
            plugin = fwk.plugin(name)
            if plugin is not None and plugin.requeue_after_bindings(pod, added):
                return True
        return False

    def _placed_members(self, group: PodGroup) -> list[Pod]:
        return [p for p in self.members.get(group.key, ()) if self.state.node_of(p) is not None]

    def _single_pod_cycle(self, entity: Entity) -> bool:
        pod = entity.pods[0]
        fwk = self.frameworks[pod.scheduler_name]
        result = schedule_pod(fwk, pod, self.state)
        if result.node is not None:
            self.state.assume(pod, result.node)
            self.nominator.clear(pod)
            self.emit(ev.PodBound(pod, result.node))
            self.journal.setattr(entity, "pods", [])
            return True
        reason = "SchedulerError" if result.status.code == Code.ERROR else "Unschedulable"
        self._failed(entity, set(result.diagnosis.unschedulable_plugins) if result.diagnosis else set())
        message = result.message
        # PostFilter runs for a FitError only (not for an error, nor for "no nodes available").
        outcome = None
        if result.status.code != Code.ERROR and result.diagnosis is not None:
            outcome, _ = fwk.run_post_filter(CycleState(), pod, self.state, result.diagnosis)
        if outcome is not None:
            if outcome.status.message:
                message = f"{message} {outcome.status.message}"
            if outcome.status.is_success():
                self.emit(ev.PodFailed(pod, reason, message, self.state.node_names[outcome.node]))
                # Lower-priority pods nominated to that node lose their nomination.
                for other in self.nominator.lower_priority_on(outcome.node, pod.priority):
                    self.nominator.clear(other)
                self.nominator.nominate(pod, outcome.node)
                self._evict(outcome, Preemptor("Pod", pod.namespace, pod.name), pod.scheduler_name, "pod")
                return True
            if outcome.clear:
                self.nominator.clear(pod)
        nominated = self.nominator.node_of(pod)
        self.emit(ev.PodFailed(pod, reason, message,
                               None if nominated is None else self.state.node_names[nominated]))
        return False

    def _evict(self, outcome: PreemptionOutcome, preemptor: Preemptor, scheduler_name: str, kind: str) -> None:
        """Delete the victims from the cluster (committed: no trial is open)."""
        evicted = []
        for unit in outcome.victims:
            for pod in unit.pods:
                node = self.state.node_of(pod)
                if node is None:
                    continue
                self.state.forget(pod)
                self.nominator.clear(pod)
                pdbs = tuple(self.preemption.budgets.names_covering([pod])) if unit.violates_pdb else ()
                self.emit(ev.PodEvicted(pod, self.state.node_names[node], unit.priority, preemptor,
                                        f"{scheduler_name}: preempting to accommodate a higher priority {kind}",
                                        pdbs))
                evicted.append(pod)
        spared = [(p.namespace, p.name, self.state.node_names[n], tuple(self.preemption.budgets.names_covering([p])))
                  for unit in outcome.spared_by_pdb for p, n in zip(unit.pods, unit.nodes)]
        self.emit(ev.Preempted(preemptor, tuple(evicted), tuple(spared)))
        self.journal.setattr(self, "evictions_version", self.clock())

    def _group_cycle(self, entity: Entity, group: PodGroup) -> bool:
        observer = self.observer
        # its pods are in flight: their nominations count as empty pods (framework/nominator.py)
        with self.nominator.cycle(entity.pods):
            if observer is None:
                return self._run_group_cycle(entity, group)
            observer.group_cycle_started(f"PodGroup {group.namespace}/{group.name}")
            try:
                return self._run_group_cycle(entity, group)
            finally:
                observer.group_cycle_finished()

    def _run_group_cycle(self, entity: Entity, group: PodGroup) -> bool:
        """The group's cycles, as many as kube-scheduler runs back to back. After a successful
        cycle that left pods unscheduled, AddAttemptedPodGroupIfNeeded (v1.37.0,
        backend/queue/scheduling_queue.go) puts the group -- with just those pods, gathered from
        pendingPodGroupPods -- straight back into the active queue, without backoff and with its
        queue timestamp kept, so it is popped again before anything queued behind it. That next
        cycle is an ordinary group cycle of an already scheduled group: PlacementFeasible counts
        the bound members, a cycle that places nothing is Unschedulable
        (runRootSchedulingAlgorithm), and then PodGroupPostFilter runs, so a leftover pod can
        preempt. Each successful cycle binds at least one pod, so the loop ends."""
        changed = False
        while True:
            succeeded, moved = self._group_cycle_once(entity, group)
            changed |= moved
            if not (succeeded and entity.pods):
                return changed

    def _group_cycle_once(self, entity: Entity, group: PodGroup) -> tuple[bool, bool]:
        """One group cycle: (did it succeed, did it bind or evict anything)."""
        emit = self.emit
        placed = self._placed_members(group)
        error = validate_pod_group(group, entity.pods, placed, self.frameworks, self.preemption_policy_gate)
        if error is not None:
            for pod in entity.pods:
                emit(ev.PodFailed(pod, "SchedulerError", error))
            emit(ev.GroupCycleEnded(group, "SchedulerError", error))
            self._failed(entity, set())
            return False, False
        fwk = self.frameworks[entity.pods[0].scheduler_name]
        result: GroupCycleResult = schedule_pod_group(fwk, group, entity.pods, self.state, self.placement_algorithm)
        if result.placements is not None:
            emit(ev.PlacementsTried(group, result.placements,
                                    result.placement if result.status.is_success() else None,
                                    result.status.is_success()))
        if result.status.is_success():
            bound = {p.key for p, _ in result.assignments}
            for pod, node in result.assignments:
                emit(ev.PodBound(pod, node))
                self.nominator.clear(pod)
            # pods that did not fit go back to the queue with their own FitError
            for pod, pr in result.pod_results:
                if pod.key not in bound:
                    # its own failure carries no nominating info: a nomination it had stays
                    emit(ev.PodFailed(pod, "Unschedulable", pr.message if pr else result.status.message,
                                      self.nominated_name(pod)))
            emit(ev.GroupCycleEnded(group, "Scheduled", ""))
            self.journal.setattr(entity, "pods", [p for p in entity.pods if p.key not in bound])
            if entity.pods:
                self._failed(entity, _plugins_of(result))
            return True, True
        self._failed(entity, _plugins_of(result))
        outcome = self.post_filter(fwk, group, entity.pods, result.status,
                                   lambda: self._rerun(fwk, group, entity.pods))
        self._group_failed(group, result, outcome)
        evicted = self.act_on_preemption(outcome, Preemptor("PodGroup", group.namespace, group.name),
                                         entity.pods[0].scheduler_name)
        return False, evicted

    def post_filter(self, fwk: Framework, group: PodGroup | CompositePodGroup, pods: list[Pod],
                    status: Status, rerun) -> PreemptionOutcome | None:
        """PodGroupPostFilter for a root (a PodGroup, or a tree's root CompositePodGroup) whose
        cycle failed: it runs once, and only when the status is exactly Unschedulable. `rerun`
        is the root algorithm workload-aware preemption re-runs. None when nothing ran."""
        outcome = post_status = None
        if status.code == Code.UNSCHEDULABLE:
            outcome, post_status = fwk.run_pod_group_post_filter(group, pods, self.state, scheduling_func=rerun)
        if outcome is not None and self.observer is not None:
            self.observer.preemption(group.namespace, group.name, outcome)
        if outcome is None and post_status is not None:
            outcome = PreemptionOutcome(post_status)  # the runner's own answer (no plugin, an error)
        return outcome

    def act_on_preemption(self, outcome: PreemptionOutcome | None, preemptor: Preemptor,
                          scheduler_name: str) -> bool:
        """Nominate and evict what a successful PodGroupPostFilter chose. True when pods were
        evicted (the cluster changed)."""
        if outcome is None or not outcome.status.is_success():
            return False
        for pod, node in outcome.nominations:
            self.nominator.nominate(pod, node)
        if not outcome.victims:
            return False
        self._evict(outcome, preemptor, scheduler_name, "podgroup")
        return True

    def _tree_cycle(self, entity: Entity, tree: TreeNode) -> bool:
        """A root CompositePodGroup's cycle (scheduling/tree_cycle.py)."""
        observer = self.observer
        if observer is not None:
            observer.group_cycle_started(f"CompositePodGroup {tree.group.namespace}/{tree.group.name}")
        try:
            # Like a PodGroup's (`_run_group_cycle`): a root that succeeded with pods left over
            # is requeued at once and runs again for them (AddAttemptedPodGroupIfNeeded). Its
            # pods are in flight meanwhile (framework/nominator.py).
            changed = False
            with self.nominator.cycle(entity.pods):
                while True:
                    cycle = TreeCycle(self, entity, tree)
                    changed |= cycle.run()
                    if not (cycle.succeeded and entity.pods):
                        return changed
        finally:
            if observer is not None:
                observer.group_cycle_finished()

    def _rerun(self, fwk: Framework, group: PodGroup, pods: list[Pod]) -> tuple[list, Status]:
        """Workload-aware preemption's re-run of the whole root algorithm (placement included)
        on the cluster as the preemption left it; it proposes, nothing it places stays."""
        observer = self.observer
        if observer is not None:
            observer.rerun_started()
        try:
            result = run_root_algorithm(fwk, group, pods, self.state, self.placement_algorithm)
            return (result.assignments if result.status.is_success() else []), result.status
        finally:
            if observer is not None:
                observer.rerun_finished()

    def _group_failed(self, group: PodGroup, result: GroupCycleResult, outcome: PreemptionOutcome | None) -> None:
        """Record a failed group cycle the way submitPodGroupAlgorithmResult reports it, with the
        post filter's outcome folded in (applyPodGroupPostFilterResult)."""
        emit = self.emit
        if outcome is not None and outcome.status.code == Code.ERROR:
            result.status = outcome.status  # an error replaces the group result
            outcome = None
        if result.status.code == Code.ERROR:
            for pod, pr in result.pod_results:
                emit(ev.PodFailed(pod, *result.pod_message(pr)))
                self.nominator.clear(pod)
            emit(ev.GroupCycleEnded(group, "SchedulerError", result.status.message))
            return
        # The post filter's text is one more reason of the group status, even when empty.
        status = result.status
        if outcome is not None:
            status = replace(status, reasons=status.reasons + (outcome.status.message,))
        waiting = outcome is not None and outcome.status.is_success()
        nominated = {p.key: n for p, n in outcome.nominations} if outcome is not None and waiting else {}
        for pod, pr in result.pod_results:
            if pr is None or pr.node is None:
                # never evaluated (the copy taken before the append) or its own FitError
                reason, message = result.pod_message(pr)
            elif waiting:
                message = status.message  # the group status as it is, nominated node kept
            else:
                message = Status(Code.UNSCHEDULABLE, (status.message,), err=POD_GROUP_IS_UNSCHEDULABLE).message
            emit(ev.PodFailed(pod, "Unschedulable", message, self.failed_pod_nomination(
                pod, fitted=pr is not None and pr.node is not None, error=False, node=nominated.get(pod.key))))
        emit(ev.GroupCycleEnded(group, "Unschedulable", status.message))

    def nominated_name(self, pod: Pod) -> str | None:
        """The node `pod` is nominated to now, by name (None when it has no nomination)."""
        node = self.nominator.node_of(pod)
        return None if node is None else self.state.node_names[node]

    def failed_pod_nomination(self, pod: Pod, fitted: bool, error: bool, node: int | None) -> str | None:
        """The nominated node (by name) a pod of a failed group shows, as submitPodGroupAlgorithmResult
        hands the FailureHandler its nominating info: `node` when the post filter nominated one;
        clearNominatedNode for an error or a pod that fitted in the rejected group; otherwise
        the pod result's nil info, which keeps a nomination the pod had."""
        if node is not None:
            return self.state.node_names[node]
        if error or fitted:
            self.nominator.clear(pod)
        return self.nominated_name(pod)

    def placed_members(self, group: PodGroup) -> list[Pod]:
        """The group's live members placed in the cluster now."""
        return self._placed_members(group)

    def failed(self, entity: Entity, plugins: set[str]) -> None:
        """Mark a failed cycle of `entity`: what the retry decisions compare with later."""
        journal = self.journal
        journal.setattr(entity, "failed_at_version", self.clock())
        journal.setattr(entity, "failed_at_commit", self.commits)
        journal.setattr(entity, "failed_at_bound", len(self.record.bound_in_order))
        journal.setattr(entity, "failed_plugins", plugins)

    _failed = failed


def _plugins_of(result: GroupCycleResult) -> set[str]:
    plugins: set[str] = set()
    for _, pr in result.pod_results:
        if pr is not None and pr.diagnosis is not None:
            plugins |= pr.diagnosis.unschedulable_plugins
    return plugins


class JournaledNominator(Nominator):
    """The nominator whose nominations a tentative scope takes back: each change logs its
    inverse in the journal while a scope is open (framework/nominator.py keeps no log)."""

    def __init__(self, columns_only: bool, journal: Journal):
        super().__init__(columns_only)
        self._journal = journal
        self._replaying = False

    def nominate(self, pod: Pod, node: int) -> None:
        if self._journal.active and not self._replaying:
            self._journal.on_undo(self._restore, pod, self.node_of(pod))
        super().nominate(pod, node)

    def clear(self, pod: Pod) -> None:
        if self._journal.active and not self._replaying:
            old = self.node_of(pod)
            if old is not None:
                self._journal.on_undo(self._restore, pod, old)
        super().clear(pod)

    def _restore(self, pod: Pod, node: int | None) -> None:
        self._replaying = True
        try:
            if node is None:
                super().clear(pod)
            else:
                super().nominate(pod, node)
        finally:
            self._replaying = False
