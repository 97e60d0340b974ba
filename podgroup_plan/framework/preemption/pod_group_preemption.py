"""Workload-aware preemption: the PodGroupPostFilter of DefaultPreemption.

Mirrors `pkg/scheduler/framework/preemption/podgrouppreemption.go` (PodGroupEvaluator.Preempt,
selectVictimsOnDomain, preemptorEligibleToPreemptOthers) and DefaultPreemption.PodGroupPostFilter
of kube-scheduler v1.37.0. The domain is the whole cluster:

1. a preemptor whose policy is `Never` is not eligible;
2. the potential victims are the victim units of strictly lower priority than the preemptor's;
3. all of them are removed and the whole root algorithm runs again (`rerun`, the seam through
   which the group cycle -- placement and hierarchy included -- is called); if it still fails,
   its status is the answer;
4. the units are ordered most important first and split by PodDisruptionBudgets, and each is
   reprieved (put back whole) when every placed preemptor pod still passes Filter on its
   proposed node, in scheduling order; the rest are the victims;
5. every placed preemptor pod is nominated to its proposed node.

Speed: step 3 and 4 touch every lower-priority pod of the cluster. When no plugin can see a pod
on another node or anything of a pod but the usage columns (no pod (anti-)affinity in the input,
no host port and no spread constraint, own or default, for the preemptor), removing the
victims is a vectorised shift of those columns by the per-priority sums of `usage.py`, and a
unit with no pod on a node the re-run used cannot change any Filter verdict of step 4, so it is
reprieved without a check. Otherwise every pod is removed and every unit checked one by one.
Both ways give the same victims.
"""
from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from podgroup_plan.framework.columns import filter_is_node_local, has_required_anti_affinity
from podgroup_plan.framework.interface import CycleState
from podgroup_plan.framework.preemption.common import (
    NOT_ELIGIBLE_NEVER,
    PreemptionContext,
    PreemptionOutcome,
    column_only,
    fits_on_node,
    remove_units,
    restore_unit,
    with_prefix,
)
from podgroup_plan.framework.preemption.usage import priority_usage
from podgroup_plan.framework.preemption.victims import VictimUnit, build_units, split_by_pdb
from podgroup_plan.framework.runtime import SKIP_FILTER_KEY, Framework
from podgroup_plan.framework.status import Code, Status
from podgroup_plan.model.objects import PREEMPT_LOWER_PRIORITY, PREEMPT_NEVER, Pod, PodGroup
from podgroup_plan.state.cluster import ClusterState

PREFIX = "pod group preemption: "
NO_VICTIMS = "No preemption victims found for incoming preemptor"
ONGOING = "ongoing preemption on nominated nodes"

# Off: the reprieve checks every preemptor pod after each unit (`_node_verdicts`; the
# equivalence tests compare both ways).
NODE_VERDICTS = True

# The seam to the group cycle: runs the whole root algorithm on the cluster as it is, rolls its
# own assumes back, and returns its root status and the placed pods with their nodes in
# scheduling order.
Rerun = Callable[[], tuple[Status, list[tuple[Pod, int]]]]


def preemption_policy(group: PodGroup, pods: Sequence[Pod], policy_gate: bool) -> str:
    """resolvePreemptionPolicy."""
    if policy_gate:
        return group.preemption_policy or PREEMPT_LOWER_PRIORITY
    return PREEMPT_NEVER if any(p.preemption_policy == PREEMPT_NEVER for p in pods) else PREEMPT_LOWER_PRIORITY


def pod_group_post_filter(
    fwk: Framework, ctx: PreemptionContext, group: PodGroup, pods: Sequence[Pod], state: ClusterState,
    rerun: Rerun, policy_gate: bool = True,
) -> PreemptionOutcome:
    outcome = _preempt(fwk, ctx, group, pods, state, rerun, policy_gate)
    outcome.status = with_prefix(PREFIX, outcome.status)
    return outcome


def _preempt(fwk: Framework, ctx: PreemptionContext, group: PodGroup, pods: Sequence[Pod],
             state: ClusterState, rerun: Rerun, policy_gate: bool) -> PreemptionOutcome:
    if preemption_policy(group, pods, policy_gate) == PREEMPT_NEVER:
        return PreemptionOutcome(Status(Code.UNSCHEDULABLE, (NOT_ELIGIBLE_NEVER,)))
    priority = group.priority if group.priority is not None else (pods[0].priority if pods else 0)
    ongoing = _ongoing_preemption(fwk, ctx, pods, priority, state)
    if ongoing is not None:
        return ongoing
    if all(column_only(ctx, p, fwk) for p in pods):
        return _on_columns(fwk, ctx, priority, state, rerun)
    return _pod_by_pod(fwk, ctx, priority, state, rerun, pods)


def _ongoing_preemption(fwk: Framework, ctx: PreemptionContext, pods: Sequence[Pod], priority: int,
                        state: ClusterState) -> PreemptionOutcome | None:
    """A preemption already in flight: a member is nominated to a node where a lower-priority
    pod is terminating because of preemption. v1.37.0 (PR #140641) answers Success and keeps
    the current nominations; the group waits for the victims to go."""
    nominator = fwk.nominator
    if nominator is None:
        return None
    nominated = [(p, n) for p in pods if (n := nominator.node_of(p)) is not None]
    for node in sorted({n for _, n in nominated}):
        if any(p.terminating_by_preemption and ctx.hierarchy.priority_of(p) < priority
               for p in state.pods_on_node[node].values()):
            return PreemptionOutcome(Status(Code.SUCCESS, (ONGOING,)), nominations=nominated)
    return None


def _success(victims: list[VictimUnit], assignments: list[tuple[Pod, int]], violations: int,
             spared: list[VictimUnit], log: list | None = None) -> PreemptionOutcome:
    victims.sort(key=VictimUnit.importance)
    n = sum(len(u.pods) for u in victims)
    status = Status(Code.SUCCESS, (f"found a placement for podgroup, preempting {n} victims",))
    return PreemptionOutcome(status, victims=victims, nominations=list(assignments),
                             num_pdb_violations=violations, spared_by_pdb=spared, considered=log)


def _log_for(fwk: Framework) -> list | None:
    """A list to record the reprieve's verdicts in when `explain` is tracing, else None."""
    return [] if fwk.observer is not None else None


# The reprieve's verdicts as `explain` words them.
REPRIEVED = "reprieved: the preemptor still fits with it in place"
EVICTED = "victim: the preemptor does not fit with it in place"
UNTOUCHED = "reprieved: on no node the preemptor's placement uses"


def _no_victims() -> PreemptionOutcome:
    return PreemptionOutcome(Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, (NO_VICTIMS,)))


def rerun_skips(fwk: Framework, state: ClusterState, assignments: Sequence[tuple[Pod, int]]) -> dict:
    """Pod key -> the plugins whose PreFilter answered Skip in the re-run (every potential victim
    out, the earlier preemptor pods assumed). selectVictimsOnDomain checks a reprieve with the
    re-run's cycle states, so a plugin skipped there stays skipped however many victims come
    back: InterPodAffinity skips when no placed pod has a required anti-affinity term against
    the pod (and the pod has no terms), so a victim whose anti-affinity repels the preemptor is
    then reprieved (v1.37.0: zero victims, the pod only nominated). The other plugins' Skips
    depend on the pod alone."""
    out: dict = {}
    with state.tentative():
        for pod, node in assignments:
            cs = CycleState()
            fwk.run_pre_filter(cs, pod, state, np.array([node], dtype=np.intp))
            out[pod.key] = cs.read(SKIP_FILTER_KEY) or frozenset()
            state.assume(pod, node)
    return out


def _preemptor_fits(fwk: Framework, state: ClusterState, assignments: Sequence[tuple[Pod, int]],
                    prefiltered: dict | None = None, skips: dict | None = None) -> bool:
    """Every placed preemptor pod passes Filter (with nominated pods) on its proposed node, each
    with the earlier ones assumed, as the re-run placed them."""
    with state.tentative():
        for pod, node in assignments:
            if not fits_on_node(fwk, pod, state, node, prefiltered,
                                skips.get(pod.key, frozenset()) if skips else frozenset())[0]:
                return False
            state.assume(pod, node)
    return True


def _reprieve_all(
    units: list[VictimUnit], ctx: PreemptionContext, allowed: list[int],
    put_back: Callable[[VictimUnit], None], take_out: Callable[[VictimUnit], None],
    fits: Callable[[VictimUnit], bool], needs_check: Callable[[VictimUnit], bool], log: list | None = None,
) -> tuple[list[VictimUnit], int, list[VictimUnit]]:
    """Order the units, split them by PDB and reprieve greedily. Returns (victims, PDB-violating
    victim pods, units a PDB protected that were spared)."""
    units.sort(key=VictimUnit.importance)
    violating, fine = split_by_pdb(units, ctx.budgets, allowed)
    victims: list[VictimUnit] = []
    violations = 0
    spared: list[VictimUnit] = []

    def reprieve(unit: VictimUnit, count: int = 0) -> bool:
        verdict = _reprieve_one(unit)
        if log is not None:
            log.append((unit, verdict, count, ctx.budgets.names_covering(unit.pods)))
        return verdict != EVICTED

    def _reprieve_one(unit: VictimUnit) -> str:
        if not needs_check(unit):
            return UNTOUCHED
        put_back(unit)
        if fits(unit):
            return REPRIEVED
        take_out(unit)
        victims.append(unit)
        return EVICTED

    for unit, count in violating:
        if reprieve(unit, count):
            # A unit on no node the preemptor uses was never at risk: not "spared by a PDB".
            if needs_check(unit):
                spared.append(unit)
        else:
            violations += count
            unit.violates_pdb = True
    for unit in fine:
        reprieve(unit)
    return victims, violations, spared


def _pod_by_pod(fwk: Framework, ctx: PreemptionContext, priority: int, state: ClusterState,
                rerun: Rerun, pods: Sequence[Pod] = ()) -> PreemptionOutcome:
    placed = [pod for pod, _ in state.placed_pods()]
    potential = [u for u in build_units(placed, ctx.hierarchy, state.node_of) if u.priority < priority]
    if not potential:
        return _no_victims()
    # the budgets as they stand, before the potential victims leave the cluster
    allowed = ctx.budgets.allowed_now(ctx.placed(state))
    with state.tentative():
        remove_units(state, potential)
        status, assignments = rerun()
        if not status.is_success():
            return PreemptionOutcome(status)
        skips = rerun_skips(fwk, state, assignments)
        victims, violations, spared = _reprieve_all(
            potential, ctx, allowed,
            put_back=lambda u: restore_unit(state, u),
            take_out=lambda u: remove_units(state, [u]),
            fits=lambda _unit: _preemptor_fits(fwk, state, assignments, skips=skips),
            needs_check=_needs_check(fwk, pods, assignments), log=(log := _log_for(fwk)),
        )
    return _success(victims, assignments, violations, spared, log)


def _needs_check(fwk: Framework, pods: Sequence[Pod], assignments: Sequence[tuple[Pod, int]]):
    """Which units the reprieve must check. When every preemptor pod's Filter verdict on a node
    depends only on that node's pods (framework/columns.py), a unit with no pod on a node the
    re-run used and no required anti-affinity of its own cannot change a verdict: it is put
    back unchecked (its pods stay removed until the trial is rolled back, which changes
    nothing the checks see). Otherwise every unit is checked."""
    args = fwk.profile.plugin_args.get("PodTopologySpread")
    defaults = getattr(args, "default_constraints", ()) if args is not None else ()
    hard_defaults = any(c.when_unsatisfiable == "DoNotSchedule" for c in defaults)
    if not all(filter_is_node_local(p, hard_defaults) for p in pods):
        return lambda unit: True
    used = {node for _, node in assignments}
    return lambda unit: bool(used.intersection(unit.nodes)) or any(has_required_anti_affinity(p) for p in unit.pods)


def _on_columns(fwk: Framework, ctx: PreemptionContext, priority: int, state: ClusterState,
                rerun: Rerun) -> PreemptionOutcome:
    usage = priority_usage(state, ctx.hierarchy.priority_of)
    requested, non_zero, count, n_pods = usage.below(priority)
    if not n_pods:
        return _no_victims()
    rows = np.flatnonzero(count)
    with state.tentative():
        state.shift_usage(rows, -requested[:, rows], -non_zero[:, rows], -count[rows])
        status, assignments = rerun()
        if not status.is_success():
            return PreemptionOutcome(status)
        used = sorted({node for _, node in assignments})
        # Units that matter: those with a pod on a node the re-run used (only they can change a
        # verdict), and those a PDB covers (they consume budgets in importance order).
        lower = [p for node in used for p in state.pods_on_node[node].values()
                 if ctx.hierarchy.priority_of(p) < priority]
        lower += [p for p in ctx.budgets.covered_pods()
                  if state.node_of(p) is not None and ctx.hierarchy.priority_of(p) < priority]
        units = build_units(lower, ctx.hierarchy, state.node_of)
        used_set = set(used)
        prefiltered: dict = {}
        touching = {u.id for u in units if used_set.intersection(u.nodes)}
        victims, violations, spared = _reprieve_all(
            units, ctx, ctx.budgets.allowed_now(ctx.placed(state)),
            put_back=lambda u: _shift_unit(state, u, +1),
            take_out=lambda u: _shift_unit(state, u, -1),
            # PreFilter reads no pod here (column-only pods): one run per preemptor pod
            fits=_node_verdicts(fwk, state, assignments, prefiltered),
            needs_check=lambda u: u.id in touching, log=(log := _log_for(fwk)),
        )
    return _success(victims, assignments, violations, spared, log)


def _node_verdicts(fwk: Framework, state: ClusterState, assignments: Sequence[tuple[Pod, int]],
                   prefiltered: dict) -> Callable[[VictimUnit], bool]:
    """`_preemptor_fits` after a unit was put back, kept node by node (column-only preemptors).

    Each preemptor pod's Filter verdict on its node reads only that node: its usage columns,
    the earlier preemptor pods assumed there and the nominated pods that count there. So the
    whole group fits exactly when every used node fits its own preemptor pods in scheduling
    order, and putting a unit back can change only the nodes it has pods on: those are checked
    again, the others keep their verdict. A reprieve costs the unit's nodes, not the whole
    group (upstream re-runs every preemptor pod's Filter per unit: quadratic in the gang).
    One exception, checked the whole way: a preemptor pod nominated to a node other than its
    own, which counts as a nominated pod there only until the sequence assumes it."""
    nominator = fwk.nominator
    if not NODE_VERDICTS or (nominator and any(nominator.node_of(p) not in (None, n) for p, n in assignments)):
        return lambda _unit: _preemptor_fits(fwk, state, assignments, prefiltered)
    by_node: dict[int, list[Pod]] = {}
    for pod, node in assignments:
        by_node.setdefault(node, []).append(pod)
    unknown = set(by_node)  # nodes whose verdict in the committed state is not known yet
    failing: set[int] = set()  # nodes known to fail in the committed state

    def node_fits(node: int) -> bool:
        with state.tentative():
            for pod in by_node[node]:
                if not fits_on_node(fwk, pod, state, node, prefiltered)[0]:
                    return False
                state.assume(pod, node)
        return True

    def fits(unit: VictimUnit) -> bool:
        changed = {n for n in unit.nodes if n in by_node}
        for node in sorted(unknown - changed):  # untouched by the unit: the committed state
            unknown.discard(node)
            if not node_fits(node):
                failing.add(node)
        if failing - changed:
            return False
        if all(node_fits(n) for n in sorted(changed)):
            unknown.difference_update(changed)
            failing.difference_update(changed)
            return True
        return False  # the caller takes the unit out again: its nodes are as they were

    return fits


def _shift_unit(state: ClusterState, unit: VictimUnit, sign: int) -> None:
    """Put a virtually removed unit back on the columns (+1) or take it off again (-1)."""
    per_node: dict[int, list] = {}
    for pod, node in zip(unit.pods, unit.nodes):
        vec = state.request_vector(pod)
        acc = per_node.get(node)
        if acc is None:
            per_node[node] = [vec.copy(), pod.non_zero_cpu, pod.non_zero_memory, 1]
        else:
            acc[0][: len(vec)] += vec
            acc[1] += pod.non_zero_cpu
            acc[2] += pod.non_zero_memory
            acc[3] += 1
    rows = np.array(sorted(per_node), dtype=np.intp)
    n_res = len(state.resource_names)
    requested = np.zeros((n_res, len(rows)), dtype=np.int64)
    non_zero = np.zeros((2, len(rows)), dtype=np.int64)
    count = np.zeros(len(rows), dtype=np.int64)
    for i, node in enumerate(rows.tolist()):
        vec, cpu, mem, k = per_node[node]
        requested[: len(vec), i] = vec
        non_zero[:, i] = (cpu, mem)
        count[i] = k
    state.shift_usage(rows, sign * requested, sign * non_zero, sign * count)
