"""The discrete-event loop: arrivals, ends and the queue's timers on a simulated clock, and
between them the scheduling cycles of one `Planner` (docs/replay.md).

Every event time is handled in one step: pods that end free their resources (a pod's end is an
AssignedPod/Delete event: it moves what waits in the unschedulable pool and whose rejecting
plugins care), arrivals enter the active queue, timers move entities out of backoff or flush
the pool; then the active queue is drained as kube-scheduler pops it (PrioritySort: priority,
then the queue timestamp), and with SchedulerPopFromBackoffQ the backoff queue after it.
Cycles take no simulated time.
"""
from __future__ import annotations

import heapq
import math
from dataclasses import replace
from typing import Callable

import numpy as np

from podgroup_plan import events as ev
from podgroup_plan.analyses.replay.backoff import FLUSH_PERIOD, MAX_IN_UNSCHEDULABLE, Backoff, flush_times, next_flush
from podgroup_plan.analyses.replay.facts import Facts
from podgroup_plan.analyses.replay.hosts import hosts
from podgroup_plan.analyses.replay.shapes import Shapes
from podgroup_plan.analyses.replay.timeline import Timeline
from podgroup_plan.analyses.replay.units import (
    ACTIVE,
    BACKOFF,
    DONE,
    MAX_ATTEMPTS_KEPT,
    UNSCHEDULABLE,
    Attempt,
    PodRun,
    Unit,
    unit_of,
)
from podgroup_plan.model.objects import Pod
from podgroup_plan.model.timing import format_time
from podgroup_plan.planner import Planner
from podgroup_plan.queue import Entity

END, ARRIVAL, BACKOFF_DONE, FLUSH = 0, 1, 2, 3
WAITING = "waiting"  # known, not arrived yet
FLUSH_TRIGGER = "flush (5 minutes in the unschedulable pool)"
FLUSH_EVERY = MAX_IN_UNSCHEDULABLE + FLUSH_PERIOD  # an entity left in the pool: a flush each 330 s
CHANGED_ROWS_LIMIT = 4096  # more changes since a failure than this: judged by node versions alone
GPU = "nvidia.com/gpu"
# The plugins that register an AssignedPod/Delete event in v1.37.0 (EventsToRegister) with a
# hint that can answer Queue. A pod that none of its rejecting plugins is among waits for the
# flush. (Their hints look closer -- NodePorts at the ports, InterPodAffinity at the labels --
# the replay takes any deletion as worth a retry: a retry that fails again changes no start.)
DELETE_HINTS = frozenset({"NodeResourcesFit", "NodePorts", "InterPodAffinity", "PodTopologySpread",
                          "VolumeRestrictions", "NodeVolumeLimits"})
PodKey = tuple[str, str]


class Engine:
    def __init__(self, planner: Planner, facts: Facts, start: float, until: float | None, backoff: Backoff,
                 pop_from_backoff: bool):
        self.planner = planner
        self.state = planner.state
        self.passes = planner.passes
        self.facts = facts
        self.start = start
        self.until = until
        self.backoff = backoff
        self.pop_from_backoff = pop_from_backoff
        self.now = start
        self.heap: list[tuple] = []
        self.seq = 0
        self.runs: dict[PodKey, PodRun] = {}
        self.units: dict[tuple[str, str, str], Unit] = {}
        self.unit_of_pod: dict[PodKey, Unit] = {}
        self.active: list[tuple] = []
        self.backoff_units: dict[tuple[str, str, str], Unit] = {}
        self.pool: dict[tuple[str, str, str], Unit] = {}  # the unschedulable pool, in arrival order
        self.deleted_now: list[Pod] = []
        self.bound_now: list[Pod] = []
        self.preemptions = 0
        self.replacements = 0
        self.job_pods: dict[PodKey, int] = {}  # Job -> pods created so far (for completions)
        self.timeline = Timeline(planner.state, GPU)
        self.captured: list = []
        self.events_handled = 0
        self.hosts_memo: dict = {}
        self.flush_events: dict[tuple[str, str, str], int] = {}  # unit -> generation of its real flush
        self.shapes = Shapes(planner, self.hosts_memo)
        # Off only to check that the shortcuts (`_unchanged`, `shapes`) change no answer.
        self.share_answers = True
        self.preemptors: dict[PodKey, list[Unit]] = {}  # victim -> the units waiting for it
        self.real_events = 0  # ends and arrivals still to come
        # Bindings and pods gone so far: what an idle scheduler's retry of a rejected entity can
        # have another answer after (`_pop`). Not the state's version: a rejected group's
        # attempt assumes its pods tentatively and rolls them back, which moves the version too,
        # and two rejected groups would then wake each other for ever.
        self.committed = 0
        # Failed attempts so far. Cycles take no time here, so entities failing at one instant
        # share their queue timestamp; upstream's timestamps follow the order of the attempts
        # (each cycle takes some time), which is what orders them when they compete later.
        self.failures = 0
        original: Callable = self.passes.emit

        def emit(event: object) -> None:
            self.captured.append(event)
            original(event)

        self.passes.emit = emit

    # ----- set-up ------------------------------------------------------------------------------

    def push(self, time: float, kind: int, payload: object) -> None:
        self.seq += 1
        if kind in (END, ARRIVAL):
            self.real_events += 1
        heapq.heappush(self.heap, (time, kind, self.seq, payload))

    def add_running(self, pod: Pod, started: float) -> None:
        run = self._run_of(pod, started)
        run.start, run.node, run.running_at_start = started, pod.node_name, True
        if run.duration is not None:
            self.push(max(self.start, started + run.duration), END, pod.key)

    def _run_of(self, pod: Pod, arrival: float) -> PodRun:
        run = PodRun(pod, self.facts.workload(pod), arrival, self.facts.duration(pod), self.facts.grace(pod),
                     pod.requests.get(GPU, 0), pod.requests.get("cpu", 0))
        self.runs[pod.key] = run
        return run

    def hold(self, pod: Pod, message: str) -> None:
        """A pending pod the queue never takes: it is listed, waiting, with `message`."""
        run = self._run_of(pod, self.facts.arrival(pod))
        run.held = message

    def adopt_queue(self, trigger_time: float | None = None) -> None:
        """Take the Planner's queue as units of our own (the Planner's passes never run here)."""
        entities: list[Entity] = self.passes.queue
        self.passes.queue = []
        for entity in entities:
            # The Planner takes a pod that ended (it left the cluster state) for a pending one
            # when it queues the pod's group afresh: it has run, it is not queued again.
            entity.pods = [p for p in entity.pods if p.key not in self.runs or self.runs[p.key].start is None]
            if not entity.pods:
                continue
            arrivals = []
            for pod in entity.pods:
                run = self.runs.get(pod.key) or self._run_of(pod, self.facts.arrival(pod))
                if trigger_time is not None and pod.key not in self.unit_of_pod:
                    run.arrival = trigger_time  # created now by its controller
                arrivals.append(run.arrival)
            unit = unit_of(entity, max(arrivals))
            old = self.units.get(unit.key)
            if old is not None:  # a group queued afresh with new pods: its counts go on
                unit.unschedulable_count, unit.error_count = old.unschedulable_count, old.error_count
                unit.attempts, unit.attempt_count, unit.message = old.attempts, old.attempt_count, old.message
                if old.where not in (DONE, WAITING):
                    self.timeline.pending(-len(old.entity.pods), -1 if old.kind != "Pod" else 0)
                self._leave(old)
                old.where = DONE
            self.units[unit.key] = unit
            for pod in entity.pods:
                self.unit_of_pod[pod.key] = unit
            unit.where = WAITING
            self.push(max(unit.arrival, self.now), ARRIVAL, unit)

    # ----- the loop ----------------------------------------------------------------------------

    def run(self) -> float:
        """Replay until no event is left (or `until`); returns the clock's last time."""
        while self.heap:
            if self._stale(*self.heap[0][1:4:2]):
                heapq.heappop(self.heap)
                continue
            if self.real_events == 0 and self.until is None and not self._timers_can_answer():
                break  # only the queue's timers are left: no cycle can have another answer
            t = self.heap[0][0]
            if self.until is not None and t > self.until:
                self.now = self.until
                break
            self.now = t
            while self.heap and self.heap[0][0] == t:
                _, kind, _, payload = heapq.heappop(self.heap)
                if kind in (END, ARRIVAL):
                    self.real_events -= 1
                elif self._stale(kind, payload):
                    continue
                self.events_handled += 1
                self._handle(kind, payload)
            self._deletions_seen()
            self._round()
            self.timeline.snapshot(t)
        else:
            if self.until is not None:
                self.now = max(self.now, self.until)
        return self.now

    def _timers_can_answer(self) -> bool:
        """A queue timer is pending for an entity that saw a binding or a pod go since its last
        failure: its retry (a backoff expiry with SchedulerPopFromBackoffQ off, a flush after a
        lower-priority binding) can have another answer, so the replay goes on to it."""
        return any(kind in (BACKOFF_DONE, FLUSH) and not self._stale(kind, payload)
                   and payload[0].committed_at_failure != self.committed
                   for _, kind, _, payload in self.heap)

    def _stale(self, kind: int, payload) -> bool:
        """A queue timer whose entity moved since it was set."""
        if kind in (END, ARRIVAL):
            return False
        unit, generation = payload
        return unit.generation != generation

    def _handle(self, kind: int, payload) -> None:
        if kind == END:
            self._pod_ends(payload)
        elif kind == ARRIVAL:
            unit = payload
            if unit.where == WAITING:
                self.timeline.pending(len(unit.entity.pods), 1 if unit.kind != "Pod" else 0)
                self._to_active(unit, "arrival")
        else:
            unit, generation = payload
            if unit.generation != generation:
                return  # moved meanwhile
            if kind == BACKOFF_DONE and unit.where == BACKOFF:
                self._to_active(unit, unit.trigger)
            elif kind == FLUSH and unit.where == UNSCHEDULABLE:
                self._requeue(unit, FLUSH_TRIGGER)

    def _pod_ends(self, key: PodKey) -> None:
        run = self.runs[key]
        if run.end is not None:
            return
        run.end = self.now
        if run.ended_by is None:
            run.ended_by = "completed"
        if self.state.node_of(run.pod) is not None:
            self.state.forget(run.pod)
            self.committed += 1
        self.deleted_now.append(run.pod)
        if run.ended_by == "completed":
            self._job_next(run.pod)
        for unit in self.preemptors.pop(key, ()):
            unit.waiting_for_victims.discard(key)
            if unit.where == UNSCHEDULABLE and not unit.waiting_for_victims:
                self._requeue(unit, f"its victims are gone ({key[0]}/{key[1]} last)")

    def _deletions_seen(self) -> None:
        """The AssignedPod/Delete events of this instant, seen by the queue at once: every pod
        in the pool that a rejecting plugin's hint would requeue moves."""
        if not self.deleted_now:
            return
        first = self.deleted_now[0]
        trigger = f"{first.namespace}/{first.name} ended"
        if len(self.deleted_now) > 1:
            trigger += f" (and {len(self.deleted_now) - 1} more)"
        self.deleted_now = []
        for unit in list(self.pool.values()):
            if not unit.failed_plugins or unit.failed_plugins & DELETE_HINTS:
                self._requeue(unit, trigger)

    def _bindings_seen(self, bound: list[tuple[Pod, str]]) -> None:
        """AssignedPod/Add events: a pod in the pool moves when a rejecting plugin's hint says
        the new pods may cure its rejection (the plugins' `requeue_after_bindings`, as the plan's
        passes use it: inter-pod affinity, topology spread, a gang's missing members). A pod of
        higher priority that could host on a node where a lower-priority pod just bound could
        preempt it at its next flush: that flush runs as a real event."""
        if not self.pool:
            return
        pods = [pod for pod, _ in bound]
        trigger = f"{pods[0].namespace}/{pods[0].name} bound" + (f" (and {len(pods) - 1} more)" if len(pods) > 1 else "")
        for unit in list(self.pool.values()):
            pod = unit.entity.pods[0]
            fwk = self.planner.frameworks.get(pod.scheduler_name)
            if fwk is None:
                continue
            if any((plugin := fwk.plugin(name)) is not None and plugin.requeue_after_bindings(pod, lambda: pods)
                   for name in sorted(unit.failed_plugins)):
                self._requeue(unit, trigger)
            elif (pod.preemption_policy != "Never" and self.flush_events.get(unit.key) != unit.generation
                  and any(other.priority < unit.priority and (
                      unit.hosts is None or unit.hosts[self.state.node_index[node]]) for other, node in bound)):
                self.flush_events[unit.key] = unit.generation
                due = next_flush(unit.queued_at, self.start)
                if due <= self.now:  # those up to now are counted; the next one runs
                    due += (int((self.now - due) // FLUSH_EVERY) + 1) * FLUSH_EVERY
                self.push(due, FLUSH, (unit, unit.generation))

    # ----- queue moves -------------------------------------------------------------------------

    def _leave(self, unit: Unit) -> None:
        unit.generation += 1
        self.pool.pop(unit.key, None)
        self.backoff_units.pop(unit.key, None)

    def _to_active(self, unit: Unit, trigger: str) -> None:
        self._leave(unit)
        unit.where = ACTIVE
        unit.trigger = trigger
        heapq.heappush(self.active, (-unit.priority, unit.queued_at, unit.failure, unit.key, unit.generation, unit))

    def _requeue(self, unit: Unit, trigger: str) -> None:
        """requeueEntityWithQueueingStrategy: to the backoff queue while backing off, else active."""
        self._catch_up(unit, self.now)
        if self.backoff.backing_off(unit, self.now):
            self._leave(unit)
            unit.where = BACKOFF
            unit.trigger = trigger
            self.backoff_units[unit.key] = unit
            # flushBackoffQCompleted runs on whole-second ticks and moves what is no longer
            # backing off: the first tick after the expiry's window
            expiry = self.backoff.expiry(unit) or self.now
            self.push(max(self.now, math.floor(expiry) + 1.0), BACKOFF_DONE, (unit, unit.generation))
        else:
            self._to_active(unit, trigger)

    def _pop(self) -> Unit | None:
        while self.active:
            *_, generation, unit = heapq.heappop(self.active)
            if unit.where == ACTIVE and unit.generation == generation:
                return unit
        if not self.pop_from_backoff or not self.backoff_units:
            return None
        # SchedulerPopFromBackoffQ: an idle scheduler pops the backoff queue (expiry order, then
        # priority). Cycles take no time here, so an entity whose cluster did not change since
        # it failed would be popped again and again with the same answer: it waits for a change.
        ready = [u for u in self.backoff_units.values() if u.committed_at_failure != self.committed]
        if not ready:
            return None
        unit = min(ready, key=lambda u: (self.backoff.expiry(u) or 0.0, -u.priority, u.queued_at, u.failure, u.key))
        self._leave(unit)
        return unit

    # ----- scheduling --------------------------------------------------------------------------

    def _round(self) -> None:
        while True:
            unit = self._pop()
            if unit is None:
                return
            self._attempt(unit)

    def _attempt(self, unit: Unit) -> None:
        now, trigger = self.now, unit.trigger
        if unit.attempt_count and self.share_answers and not unit.preempted and self._unchanged(unit):
            # Nothing changed since its last failure on any node that could host it: the same
            # cycle, the same answer (and the same message).
            unit.log(Attempt(now, trigger, "Unschedulable", unit.message))
            self._failed(unit, error=False)
            return
        shape = self.shapes.key(unit) if self.share_answers else None
        known = self.shapes.answer(shape, self.state.version) if shape is not None else None
        if known is not None:
            # A pod of the same shape failed on this very cluster state: the same answer.
            unit.message, plugins = known
            unit.log(Attempt(now, trigger, "Unschedulable", unit.message))
            unit.failed_plugins = set(plugins)
            self._failed(unit, error=False)
            return
        self.captured.clear()
        self.passes.attempt(unit.entity)
        bound, victims, error, preemptor, failed_seen = [], [], False, False, False
        for event in self.captured:
            if isinstance(event, ev.PodBound):
                bound.append((event.pod, self.state.node_names[event.node]))
            elif isinstance(event, ev.PodFailed):
                if not failed_seen:
                    unit.message, failed_seen = event.message, True
                error = error or event.reason == "SchedulerError"
            elif isinstance(event, ev.PodEvicted):
                victims.append(event)
        for pod, node in bound:
            self._started(pod, node)
        if bound:
            self._bindings_seen(bound)
            if unit.kind != "Pod":
                # AddAttemptedPodGroupIfNeeded: a group cycle that placed pods succeeded; its
                # counts start again, and the pods left are retried at once (failing there, they
                # count one failure)
                unit.unschedulable_count = unit.error_count = 0
        for event in victims:
            preemptor = True
            unit.preempted = True
            self._evicted(unit, event)
        if not unit.entity.pods:
            unit.log(Attempt(now, trigger, "Scheduled", ""))
            self._leave(unit)
            unit.where = DONE
            self.timeline.pending(0, -1 if unit.kind != "Pod" else 0)
            return
        outcome = "Preempting" if preemptor else ("SchedulerError" if error else "Unschedulable")
        unit.log(Attempt(now, trigger, outcome, unit.message))
        unit.failed_plugins = set(unit.entity.failed_plugins)
        if shape is not None and outcome == "Unschedulable" and not bound:
            self.shapes.remember(shape, self.state.version, (unit.message, frozenset(unit.failed_plugins)))
        self._failed(unit, error, preempting=preemptor)

    def _unchanged(self, unit: Unit) -> bool:
        """Its last answer stands: no node that could host its pods changed since its last
        failure, or (a lone pod) none of those that changed could take it now, even with every
        pod of lower priority on it gone (what its preemption would look at)."""
        state = self.state
        if unit.version_at_failure == state.version:
            return True
        if unit.hosts is None:
            return False
        rows = state.changed_rows(unit.version_at_failure, CHANGED_ROWS_LIMIT)
        if rows is None:
            return int(state.node_version[unit.hosts].max()) <= unit.version_at_failure if unit.hosts.any() else True
        rows = rows[unit.hosts[rows]]
        if rows.size == 0:
            return True
        if unit.kind != "Pod" or len(unit.entity.pods) != 1:
            return False
        pod = unit.entity.pods[0]
        return not any(self._could_take(pod, int(row)) for row in rows)

    def _could_take(self, pod: Pod, row: int) -> bool:
        """The node's resources could hold the pod once its pods of lower priority are gone."""
        state = self.state
        wanted = state.request_vector(pod)
        free = state.allocatable[: len(wanted), row] - state.requested[: len(wanted), row]
        if pod.preemption_policy != "Never":
            for other in state.pods_on_node[row].values():
                if other.priority < pod.priority:
                    free = free + state.request_vector(other)[: len(wanted)]
        return bool((free >= wanted).all())

    def _hosts_of(self, unit: Unit) -> np.ndarray | None:
        union = np.zeros(self.state.n, dtype=bool)
        for pod in unit.entity.pods:
            mask = hosts(pod, self.state, self.hosts_memo)
            if mask is None:
                return None
            union |= mask
        return union

    def _failed(self, unit: Unit, error: bool, preempting: bool = False) -> None:
        if error:
            unit.error_count += 1
        else:
            unit.unschedulable_count += 1
            unit.error_count = 0
        unit.queued_at = self.now
        self.failures += 1
        unit.failure = self.failures
        unit.version_at_failure = self.state.version
        unit.committed_at_failure = self.committed
        self._leave(unit)
        if unit.hosts is None and unit.attempt_count == 1:
            unit.hosts = self._hosts_of(unit)
        # A preemptor waits where any rejected entity waits (upstream: the pool for a pod, the
        # backoff queue for a group), so that another pod's end can start it before its victims
        # are gone; meanwhile its terminating victims keep it from preempting again
        # (PodEligibleToPreemptOthers; `_evicted`).
        if unit.kind == "Pod" and unit.hosts is not None and not unit.hosts.any():
            # No node can ever host it: no event can move it; its flushes are counted at the end.
            unit.where, unit.hopeless = UNSCHEDULABLE, True
        elif unit.kind != "Pod" and preempting and self.pop_from_backoff:
            # AddAttemptedPodGroupIfNeeded puts a rejected group in the backoff queue, and with
            # SchedulerPopFromBackoffQ that runs PreEnqueue first: DefaultPreemption's holds a
            # group whose preemption is still deleting its victims (IsPodGroupRunningPreemption),
            # which parks it, gated, in the pool until a pod's deletion (its gating event)
            unit.where = UNSCHEDULABLE
            self.pool[unit.key] = unit
        elif unit.kind != "Pod":
            # AddAttemptedPodGroupIfNeeded: a rejected group goes to the backoff queue (no pool)
            self._requeue(unit, "backoff")
        else:
            # In the pool its flushes are counted when it leaves (`_catch_up`), not run as events.
            unit.where = UNSCHEDULABLE
            self.pool[unit.key] = unit

    def _started(self, pod: Pod, node: str) -> None:
        run = self.runs[pod.key]
        run.start, run.node = self.now, node
        row = self.state.node_of(pod)
        if row is not None:
            # The kubelet records when it started (status.startTime, phase Running): preemption
            # orders equal-priority victims by it (MoreImportantPod), the one started last goes.
            placed = self.state.pods_on_node[row][pod.key]
            self.state.forget(placed)
            self.state.assume(replace(placed, start_time=format_time(self.now), phase="Running"), row)
        self.committed += 1
        self.timeline.pending(-1, 0)
        if run.duration is not None:
            self.push(self.now + run.duration, END, pod.key)

    def _evicted(self, preemptor: Unit, event: ev.PodEvicted) -> None:
        """A victim keeps its resources for its grace period, then ends; its controller (if it
        has one) creates a replacement at once, which arrives pending."""
        pod = event.pod
        run = self.runs[pod.key]
        self.preemptions += 1
        if self.state.node_of(pod) is None:
            # terminating, as the API server marks it (deletionTimestamp) and preemption's
            # DisruptionTarget condition says why: what PodEligibleToPreemptOthers looks for
            terminating = replace(pod, deletion_timestamp=format_time(self.now), preempted_by_scheduler=True)
            self.state.assume(terminating, self.state.node_index[event.node])
        preemptor.waiting_for_victims.add(pod.key)
        self.preemptors.setdefault(pod.key, []).append(preemptor)
        if run.ended_by is None:
            run.ended_by = "preempted"
            self.push(self.now + run.grace, END, pod.key)
            if self.facts.owners(pod):
                self._recreate(pod)

    def _catch_up(self, unit: Unit, until: float, inclusive: bool = False) -> None:
        """The flushes of the pool until `until`, counted when the unit leaves the pool (or at
        the end) rather than run one by one: each is a retry whose answer cannot differ from the
        last one -- every event that could change it (a pod's deletion on a node that could host
        it, a binding its hints care about) moves the unit itself, and those where a new
        lower-priority pod could be preempted are run as real events (`_bindings_seen`)."""
        if unit.where != UNSCHEDULABLE:
            return
        room = max(0, MAX_ATTEMPTS_KEPT - len(unit.attempts))
        times, count = flush_times(unit.queued_at, self.start, until, inclusive, max(room, 1))
        if not count:
            return
        for t in times[:room]:
            unit.log(Attempt(t, FLUSH_TRIGGER, "Unschedulable", unit.message))
        unit.attempt_count += count - len(times[:room])
        unit.unschedulable_count += count
        # the last flush's retry is the unit's last attempt (its queue timestamp)
        unit.queued_at = unit.flushed_at = times[0] + (count - 1) * FLUSH_EVERY

    def settle(self, end: float) -> None:
        """At the end: the flushes of every unit still in the pool, up to the end included."""
        for unit in self.units.values():
            self._catch_up(unit, end, inclusive=True)

    # ----- controllers ---------------------------------------------------------------------------

    def _recreate(self, pod: Pod) -> None:
        self.replacements += 1
        fresh = replace(pod, name=f"{pod.name}-r{self.replacements}", node_name=None, phase="Pending",
                        start_time=None, uid="", nominated_node_name=None, preempted_by_scheduler=False)
        self._submit(fresh)

    def _job_next(self, pod: Pod) -> None:
        """The Job controller's next pod when a pod completes and completions remain."""
        owners = self.facts.owners(pod)
        if not owners or owners[0][0] != "Job" or self.planner.cluster.controllers is None:
            return
        job = next((j for j in self.planner.cluster.controllers.jobs
                    if j.namespace == pod.namespace and j.name == owners[0][1]), None)
        if job is None or job.completions is None:
            return
        key = (job.namespace, job.name)
        if key not in self.job_pods:
            self.job_pods[key] = job.succeeded + sum(
                1 for k, r in self.runs.items() if k[0] == job.namespace and self.facts.owners(r.pod)[:1] == [("Job", job.name)])
        if self.job_pods[key] >= job.completions:
            return
        self.job_pods[key] += 1
        fresh = replace(pod, name=f"{job.name}-next-{self.job_pods[key]}", node_name=None, phase="Pending",
                        start_time=None, uid="", nominated_node_name=None, preempted_by_scheduler=False)
        self._submit(fresh)

    def _submit(self, pod: Pod) -> None:
        self.planner.submit(pods=[pod])
        self.adopt_queue(trigger_time=self.now)
