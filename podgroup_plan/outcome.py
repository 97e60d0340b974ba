"""Records what the plan decided and turns it into a `PlanResult`: the one writer of the result.

The queue and the passes report what happened as events (events.py) through `Recorder.emit`;
nothing else writes a record. Pod statuses follow the last cycle that touched the pod. A PodGroup's condition follows
upstream's updatePodGroupCondition: a condition already True is never turned back to False.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np

from podgroup_plan import events as ev
from podgroup_plan.capacity import NodeUsage
from podgroup_plan.config.configuration import describe_not_applied
from podgroup_plan.config.defaults import gate_enabled
from podgroup_plan.config.feature_gates import FeatureGates
from podgroup_plan.domains import domains, topology_levels
from podgroup_plan.framework.runtime import Framework
from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.hierarchy import Hierarchy
from podgroup_plan.model.objects import Condition, Pod, PodGroup
from podgroup_plan.observer import PlanObserver
from podgroup_plan.plugins import registry
from podgroup_plan.plugins.gang_scheduling import required_count
from podgroup_plan.queue import snapshot_missing_message
from podgroup_plan.result import (
    IGNORED,
    INVALID,
    PREEMPTED,
    SCHEDULED,
    SUSPENDED,
    UNSCHEDULABLE,
    WAITING,
    CompositePodGroupResult,
    ConditionResult,
    OwnerRef,
    PlacementResult,
    PlanResult,
    PodGroupResult,
    PodResult,
    PreemptionSummary,
    Preemptor,
    Summary,
    VictimResult,
)
from podgroup_plan.state.cluster import ClusterState
from podgroup_plan.state.journal import Journal


class Recorder:
    def __init__(self, cluster: ClusterInput, state: ClusterState, gates: FeatureGates,
                 journal: Journal | None = None, *, hierarchy: Hierarchy | None = None,
                 observer: PlanObserver | None = None):
        # Every record goes through the journal, so that a Planner's tentative scope can take
        # it back (state/journal.py); outside a scope a write is a plain write.
        self.journal = journal if journal is not None else Journal()
        self.cluster = cluster
        self.state = state
        self.gates = gates
        self.pods: dict[tuple[str, str], PodResult] = {}
        # group key -> (reason, message) of its latest cycle; "Scheduled" once any cycle succeeded
        self.group_outcome: dict[tuple[str, str], tuple[str, str]] = {}
        self.group_ever_scheduled: set[tuple[str, str]] = set()
        # every pod the plan bound, in the order it did (queueing hints look at what was added)
        self.bound_in_order: list[Pod] = []
        self.waiting_groups: dict[tuple[str, str], str] = {}
        self.ignored_groups: set[tuple[str, str]] = set()
        self.victims: dict[tuple[str, str], VictimResult] = {}
        self.preemptions: list[PreemptionSummary] = []
        # group key -> the DisruptionTarget message of its latest eviction
        self.evicted_groups: dict[tuple[str, str], str] = {}
        # `explain`'s tracer, told each outcome as it is written (None otherwise)
        self.observer = observer
        # the placement algorithm's last run per group, and the domain of its last success
        self.group_placements: dict[tuple[str, str], Sequence[PlacementResult]] = {}
        self.group_domain: dict[tuple[str, str], str | None] = {}
        # CompositePodGroups (gate CompositePodGroup): the trees (model/hierarchy.py, None with
        # the gate off), each CompositePodGroup's latest outcome, and those whose tree waits.
        self.hierarchy = hierarchy
        self.composite_outcome: dict[tuple[str, str], tuple[str, str | None]] = {}
        self.composite_ever_scheduled: set[tuple[str, str]] = set()
        self.waiting_composites: dict[tuple[str, str], str] = {}
        # the nodes' usage as the plan found it, for the result's capacity section
        # (capacity.py): two small column copies, made before any cycle runs
        self.usage_before = (state.requested.copy(), state.pod_count.copy())

    # ----- what happened -----------------------------------------------------------------

    def emit(self, event: ev.Event) -> None:
        """Record one event of the queue or the passes."""
        _HANDLERS[type(event)](self, event)

    def _ignored(self, pod: Pod) -> None:
        self.journal.setitem(self.pods, pod.key, PodResult(pod.namespace, pod.name, pod.pod_group, IGNORED))

    def _ignored_group(self, key: tuple[str, str]) -> None:
        """Every pending member has a schedulerName no profile serves: no cycle will run."""
        self.journal.add(self.ignored_groups, key)

    def _waiting(self, pods: Sequence[Pod], group: PodGroup | None, message: str | None) -> None:
        for pod in pods:
            self.journal.setitem(self.pods, pod.key, PodResult(
                pod.namespace, pod.name, pod.pod_group, WAITING, reason=None, message=message
            ))
        if group is not None:
            self.journal.setitem(self.waiting_groups, group.key, message)

    def _scheduled(self, pod: Pod, node: int) -> None:
        self.journal.append(self.bound_in_order, pod)
        self.journal.setitem(self.pods, pod.key, PodResult(pod.namespace, pod.name, pod.pod_group, SCHEDULED,
                                                           node=self.state.node_names[node]))
        if self.observer is not None:
            self.observer.outcome(pod, SCHEDULED, self.state.node_names[node], None)

    def _unschedulable(self, pod: Pod, reason: str, message: str, nominated_node: str | None = None) -> None:
        self.journal.setitem(self.pods, pod.key, PodResult(pod.namespace, pod.name, pod.pod_group, UNSCHEDULABLE,
                                                           reason=reason, message=message,
                                                           nominated_node=nominated_node))
        if self.observer is not None:
            self.observer.outcome(pod, UNSCHEDULABLE, None, message)

    def _preempted(self, pod: Pod, node: str, priority: int, preemptor: Preemptor, message: str,
                   pdbs: tuple[str, ...] = ()) -> VictimResult:
        """A placed pod evicted by the plan. `message` is the DisruptionTarget condition's text
        kube-scheduler writes on the victim; `pdbs` the budgets its eviction violates."""
        self.journal.setitem(self.pods, pod.key, PodResult(pod.namespace, pod.name, pod.pod_group, PREEMPTED,
                                                           node=node, reason=None, message=message))
        self.journal.setitem(self.victims, pod.key,
                             VictimResult(pod.namespace, pod.name, node, pod.pod_group, priority, preemptor, pdbs))
        if self.observer is not None:
            self.observer.victim(preemptor.kind, preemptor.namespace, preemptor.name, self.victims[pod.key].to_dict())
        if pod.pod_group:
            self.journal.setitem(self.evicted_groups, (pod.namespace, pod.pod_group), message)
        return self.victims[pod.key]

    def _preemption(self, preemptor: Preemptor, victims: list[VictimResult], spared: list) -> None:
        """One successful preemption, in plan order, for the table."""
        self.journal.append(self.preemptions, PreemptionSummary(preemptor, tuple(victims), tuple(spared)))

    def _placements(self, group, trials, domain: str | None, succeeded: bool = False) -> None:
        """The candidates of a cycle's placement-algorithm run (None: it did not run), and the
        domain a successful cycle placed the group in."""
        if trials is None:
            return
        if not succeeded and (group.key in self.group_ever_scheduled or group.key in self.composite_ever_scheduled):
            # A failed cycle for the leftover pods of a group already scheduled (run at once by
            # kube-scheduler, plan.py `_run_group_cycle`) keeps the account of the cycle that
            # placed it.
            return
        self.journal.setitem(self.group_placements, group.key, trials)
        if domain is not None:
            self.journal.setitem(self.group_domain, group.key, domain)
        if self.observer is not None:
            self.observer.placement_run(group.namespace, group.name,
                                      [p.to_dict() for p in self.group_placements[group.key]])

    def _waiting_composite(self, root, message: str) -> None:
        """Every CompositePodGroup of a tree that did not pass the quorum gate."""
        for node in root.walk():
            if not node.is_leaf:
                self.journal.setitem(self.waiting_composites, node.key, message)

    def _composite_cycle(self, cpg, scheduled: bool, message: str | None, trials, domain: str | None) -> None:
        """A CompositePodGroup's outcome in its root's cycle (the planner's summary: v1.37.0
        writes no CompositePodGroup status) and its candidates' account."""
        if scheduled or cpg.key not in self.composite_ever_scheduled:
            # as for a PodGroup's condition: a later cycle for leftover pods does not undo it
            self.journal.setitem(self.composite_outcome, cpg.key,
                                 ("Scheduled" if scheduled else "Unschedulable", message))
        if scheduled:
            self.journal.add(self.composite_ever_scheduled, cpg.key)
        if trials is not None:
            self._placements(cpg, trials, domain, scheduled)
        if self.observer is not None:
            self.observer.group_cycle(cpg.namespace, cpg.name, "Scheduled" if scheduled else "Unschedulable",
                                    message or "")

    def _group_cycle(self, group: PodGroup, reason: str, message: str) -> None:
        if self.observer is not None:
            self.observer.group_cycle(group.namespace, group.name, reason, message)
        if reason != "Scheduled" and group.key in self.group_ever_scheduled:
            # updatePodGroupCondition (v1.37.0) never turns a True condition back to False: a
            # later cycle of a scheduled group (its leftover pods' retry) leaves it as it is.
            return
        self.journal.setitem(self.group_outcome, group.key, (reason, message))
        if reason == "Scheduled":
            self.journal.add(self.group_ever_scheduled, group.key)

    # ----- the result --------------------------------------------------------------------

    def result(self, frameworks: Mapping[str, Framework]) -> PlanResult:
        owners = {p.key: p for p in self.cluster.pods}
        pods = tuple(_with_owner(self.pods[k], owners.get(k)) for k in sorted(self.pods))
        counts = self._member_counts()
        groups = tuple(self._group_result(g, counts.get(g.key, (0, 0))) for g in self.cluster.pod_groups)
        groups = tuple(sorted(self._with_domains(groups), key=lambda g: (g.namespace, g.name)))
        composites = tuple(self._composite_results(groups))
        summary = Summary(
            nodes=self.state.n,
            pods_scheduled=sum(p.status == SCHEDULED for p in pods),
            pods_unschedulable=sum(p.status == UNSCHEDULABLE for p in pods),
            pods_waiting=sum(p.status == WAITING for p in pods),
            pods_preempted=sum(p.status == PREEMPTED for p in pods),
            pod_groups_scheduled=sum(g.status == SCHEDULED for g in groups),
            pod_groups_unschedulable=sum(g.status == UNSCHEDULABLE for g in groups),
            pod_groups_waiting=sum(g.status == WAITING for g in groups),
        )
        return PlanResult(
            summary=summary,
            pods=pods,
            pod_groups=groups,
            composite_pod_groups=composites,
            victims=tuple(self.victims[k] for k in sorted(self.victims)),
            preemptions=tuple(self.preemptions),
            notes=tuple(self._notes(frameworks, pods, groups)),
            unplanned=tuple(self.cluster.unplanned),
            scheduler_names=tuple(sorted(frameworks)),
            owner_parents=dict(self.cluster.owner_parents),
            feature_gates=self.gates.differing_from_upstream(),
            group_parents={g.key: g.parent for g in self.cluster.pod_groups if g.parent},
            usage=self._usage(),
            missing_node_pods=self._missing_node_pods(),
        )

    def _usage(self) -> NodeUsage:
        """Every node's usage before and after the plan (capacity.py), from the state's columns
        (a resource first seen during the plan had nothing requested before it)."""
        state = self.state
        requested, count = self.usage_before
        if requested.shape[0] < state.requested.shape[0]:
            extra = np.zeros((state.requested.shape[0] - requested.shape[0], state.n), dtype=np.int64)
            requested = np.vstack([requested, extra])
        keys = [g.topology_key for g in self.cluster.pod_groups]
        keys += [c.topology_key for c in self.cluster.composite_pod_groups]
        return NodeUsage.from_state(state.nodes, state.resource_names, state.allocatable, state.allowed_pods,
                                    (requested, count), (state.requested, state.pod_count), keys,
                                    pods_after=state.pods_on_node)

    def _missing_node_pods(self) -> tuple[tuple[str, str, str], ...]:
        """Pods bound to a node the input does not hold: kube-scheduler's cache never sees them
        on a node (NodeInfo exists only for Nodes it was told about), so they take nothing."""
        known = self.state.node_index
        return tuple(sorted((p.namespace, p.name, p.node_name) for p in self.cluster.pods
                            if p.node_name and p.node_name not in known and p.phase not in ("Succeeded", "Failed")))

    def _with_domains(self, groups: Iterable[PodGroupResult]) -> list[PodGroupResult]:
        """Each group with the domains its running pods span at every topology level the nodes
        carry (domains.py), from where its members are after the plan."""
        nodes_of: dict[tuple[str, str], set[int]] = {}
        for pod in self.cluster.pods:
            if pod.pod_group is None or pod.key in self.victims or pod.phase in ("Succeeded", "Failed"):
                continue
            node = self.state.node_of(pod)
            if node is not None:
                nodes_of.setdefault((pod.namespace, pod.pod_group), set()).add(node)
        if not nodes_of:
            return list(groups)
        keys = [g.topology_key for g in self.cluster.pod_groups]
        keys += [c.topology_key for c in self.cluster.composite_pod_groups]
        nodes = self.state.nodes
        levels = topology_levels([n.labels for n in nodes], keys)
        return [replace(g, domains=tuple(domains(levels, (nodes[i].labels for i in sorted(rows)))))
                if (rows := nodes_of.get((g.namespace, g.name))) else g for g in groups]

    def _member_counts(self) -> dict[tuple[str, str], tuple[int, int]]:
        """(placed, pending) member pods per group after the plan, in one pass over the pods."""
        counts: dict[tuple[str, str], list[int]] = {}
        for pod in self.cluster.pods:
            if pod.pod_group is None or pod.phase in ("Succeeded", "Failed"):
                continue
            if pod.key in self.victims:
                continue  # evicted by the plan: Preempted, neither running nor pending work
            c = counts.setdefault((pod.namespace, pod.pod_group), [0, 0])
            c[0 if self.state.node_of(pod) is not None else 1] += 1
        return {k: (v[0], v[1]) for k, v in counts.items()}

    def _group_result(self, group: PodGroup, members: tuple[int, int]) -> PodGroupResult:
        placed, pending = members
        conditions = list(group.conditions)
        ctype = group.condition_type
        existing = next((c for c in conditions if c.type == ctype), None)
        already_true = existing is not None and existing.status == "True"
        outcome = self.group_outcome.get(group.key)
        if outcome is not None and not group.implied:
            reason, message = outcome
            new = Condition(ctype, "True" if reason == "Scheduled" else "False", reason, message)
            if not (already_true and new.status != "True"):
                conditions = [c for c in conditions if c.type != ctype] + [new]
        evicted = self.evicted_groups.get(group.key)
        if evicted is not None:
            conditions = [c for c in conditions if c.type != "DisruptionTarget"] + [
                Condition("DisruptionTarget", "True", "PreemptionByScheduler", evicted)]
        now_true = any(c.type == ctype and c.status == "True" for c in conditions)
        if not gate_enabled(self.gates, "GenericWorkload"):
            status = IGNORED  # the scheduler knows no PodGroups: its pods went on their own
        elif evicted is not None and placed == 0:
            status = PREEMPTED  # every member that ran was evicted by the plan
        elif now_true or group.key in self.group_ever_scheduled:
            status = SCHEDULED
        elif outcome is not None:
            status = UNSCHEDULABLE
        elif group.key in self.ignored_groups:
            status = IGNORED
        elif group.key in self.cluster.suspended_groups and not pending and not placed:
            status = SUSPENDED  # a suspended Job (or one with nothing to run): nothing to schedule
        elif group.key in self.waiting_groups or pending:
            status = WAITING
        elif evicted is not None:
            # Partly preempted and nothing pending: kube-scheduler writes nothing on the group, so
            # it keeps the status it had (running); its evicted pods are Preempted.
            status = SCHEDULED
        else:
            # Never tried and nothing pending: scheduled if its running members meet minCount.
            status = SCHEDULED if placed >= required_count(group) else WAITING
        return PodGroupResult(
            namespace=group.namespace,
            name=group.name,
            policy=group.policy,
            min_count=required_count(group),
            topology_key=group.topology_key,
            placement=self.group_domain.get(group.key),
            scheduled_pods=placed,
            pending_pods=pending,
            status=status,
            conditions=tuple(ConditionResult(c.type, c.status, c.reason, c.message)
                             for c in sorted(conditions, key=lambda c: c.type)),
            placements=self.group_placements.get(group.key),
        )

    def _composite_results(self, groups: tuple[PodGroupResult, ...]):
        by_parent: dict[tuple[str, str], list[str]] = {}
        status_of = {(g.namespace, g.name): g.status for g in groups}
        for g in self.cluster.pod_groups:
            if g.parent:
                by_parent.setdefault((g.namespace, g.parent), []).append(status_of[g.key])
        composite_on = gate_enabled(self.gates, "CompositePodGroup") and gate_enabled(self.gates, "GenericWorkload")
        h = self.hierarchy
        # children CompositePodGroups count by their own status: parents after children
        results: dict[tuple[str, str], CompositePodGroupResult] = {}
        for cpg in sorted(self.cluster.composite_pod_groups, key=lambda c: -(h.nodes[c.key].depth if h else 0)):
            needed = required_count(cpg)
            message: str | None = None
            if not composite_on or h is None:
                status = IGNORED
            elif cpg.key in h.invalid:
                status, message = INVALID, h.invalid[cpg.key]
            elif cpg.key in self.composite_outcome:
                reason, message = self.composite_outcome[cpg.key]
                status = SCHEDULED if cpg.key in self.composite_ever_scheduled else UNSCHEDULABLE
                if status == SCHEDULED:
                    message = None
            elif cpg.key in self.waiting_composites:
                status, message = WAITING, self.waiting_composites[cpg.key]
            elif cpg.key in h.missing:
                status, message = WAITING, snapshot_missing_message(h.missing[cpg.key])
            else:
                # never tried (nothing pending below it): scheduled when enough children are
                children = by_parent.get(cpg.key, []) + [
                    results[n.key].status for n in h.nodes[cpg.key].children if n.key in results]
                status = SCHEDULED if sum(s == SCHEDULED for s in children) >= needed else WAITING
            results[cpg.key] = CompositePodGroupResult(
                namespace=cpg.namespace,
                name=cpg.name,
                parent=cpg.parent,
                policy=cpg.policy,
                min_group_count=needed,
                placement=self.group_domain.get(cpg.key),
                status=status,
                message=message,
                placements=self.group_placements.get(cpg.key),
            )
        for key in sorted(results):
            yield results[key]

    def _notes(self, frameworks, pods, groups) -> list[str]:
        notes: set[str] = set(self.cluster.expansion_notes) | set(self.cluster.admission_notes)
        notes |= set(self.cluster.input_notes)
        missing = self._missing_node_pods()
        if missing:
            by_node: dict[str, list[str]] = {}
            for ns, name, node in missing:
                by_node.setdefault(node, []).append(f"{ns}/{name}")
            shown = "; ".join(f"{node}: {', '.join(pods[:5])}" + (f" and {len(pods) - 5} more" if len(pods) > 5 else "")
                              for node, pods in sorted(by_node.items())[:10])
            more = f"; and {len(by_node) - 10} more nodes" if len(by_node) > 10 else ""
            notes.add(f"{len(missing)} pod(s) bound to {len(by_node)} node(s) not in the input, not planned and "
                      f"their requests not counted (an incomplete snapshot?): {shown}{more}")
        if self.hierarchy is not None:
            for (ns, name), rule in self.hierarchy.broken.items():
                notes.add(f"CompositePodGroup tree {ns}/{name} breaks a KEP-6012 rule, {rule}; "
                          "kube-scheduler v1.37 schedules it all the same, and so does the plan")
        tas = gate_enabled(self.gates, "TopologyAwareWorkloadScheduling")
        for g in self.cluster.pod_groups:
            if g.key not in self.group_outcome:
                continue  # never scheduled by this plan: nothing was planned without the constraint
            if g.topology_key and not tas:
                notes.add(
                    f"PodGroup {g.namespace}/{g.name}: topology constraint {g.topology_key!r} not applied "
                    "(TopologyAwareWorkloadScheduling=false)"
                )
        unmodelled = self.gates.not_modelled()
        if unmodelled:
            shown = ", ".join(f"{k}={'true' if v else 'false'}" for k, v in unmodelled.items())
            notes.add(f"feature gates accepted but not modelled (they change nothing in this plan): {shown}")
        if not gate_enabled(self.gates, "GenericWorkload") and self.cluster.pod_groups:
            notes.add("GenericWorkload=false: PodGroups were not applied; every pod was scheduled on its own")
        if self.cluster.composite_pod_groups and gate_enabled(self.gates, "GenericWorkload") \
                and not gate_enabled(self.gates, "CompositePodGroup"):
            notes.add("CompositePodGroup=false: CompositePodGroup trees were not applied; "
                      "each PodGroup was scheduled on its own")
        if self.cluster.ignored_kinds:
            notes.add(ignored_kinds_note(self.cluster.ignored_kinds))
        for name, fwk in frameworks.items():
            out_of_scope = describe_not_applied(fwk.profile)
            # enabled plugins whose implementation does not exist yet (placement, preemption)
            not_yet = sorted({ref.name for point in fwk.profile.plugins for ref in fwk.profile.enabled(point)
                              if ref.name not in out_of_scope and registry.plugin_class(ref.name) is None})
            if out_of_scope:
                notes.add(f"profile {name}: out of scope, not modelled: {', '.join(out_of_scope)}")
            if not_yet:
                notes.add(f"profile {name}: not implemented yet, not applied: {', '.join(not_yet)}")
        return sorted(notes)


_HANDLERS: dict[type, Callable[[Recorder, Any], object]] = {
    ev.PodIgnored: lambda r, e: r._ignored(e.pod),
    ev.GroupIgnored: lambda r, e: r._ignored_group(e.key),
    ev.PodsWaiting: lambda r, e: r._waiting(e.pods, e.group, e.message),
    ev.TreeWaiting: lambda r, e: r._waiting_composite(e.root, e.message),
    ev.PodBound: lambda r, e: r._scheduled(e.pod, e.node),
    ev.PodFailed: lambda r, e: r._unschedulable(e.pod, e.reason, e.message, e.nominated_node),
    ev.PodEvicted: lambda r, e: r._preempted(e.pod, e.node, e.priority, e.preemptor, e.message, e.pdbs),
    ev.Preempted: lambda r, e: r._preemption(e.preemptor, [r.victims[p.key] for p in e.victims], e.spared),
    ev.PlacementsTried: lambda r, e: r._placements(e.group, e.trials, e.domain, e.succeeded),
    ev.GroupCycleEnded: lambda r, e: r._group_cycle(e.group, e.reason, e.message),
    ev.CompositeCycleEnded: lambda r, e: r._composite_cycle(e.group, e.scheduled, e.message, e.trials, e.domain),
}


def ignored_kinds_note(kinds: Mapping[str, int]) -> str:
    """`input kinds not planned (ignored): ConfigMap (2), DaemonSet (1)`: what the input held
    that the planner does not read, by kind (the notes name kinds, never files)."""
    listed = ", ".join(f"{kind} ({n})" for kind, n in sorted(kinds.items()))
    return f"input kinds not planned (ignored): {listed}"


def _with_owner(result: PodResult, pod: Pod | None) -> PodResult:
    """`owner`: the pod's controlling ownerReference (contract.md, pods[].owner)."""
    ref = next((r for r in pod.owner_references if r.controller), None) if pod else None
    return replace(result, owner=OwnerRef(ref.kind, ref.name)) if ref else result
