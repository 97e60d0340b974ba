"""DefaultPreemption's PostFilter for a pod without a group: the per-node search.

Mirrors `pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go` (PostFilter,
SelectVictimsOnNode, PodEligibleToPreemptOthers, calculateNumCandidates) and the Evaluator of
`pkg/scheduler/framework/preemption/preemption.go` (Preempt, findCandidates, DryRunPreemption,
SelectCandidate, pickOneNodeForPreemption) at v1.37.0:

1. eligibility: `preemptionPolicy: Never` pods do not preempt;
2. candidate nodes: those Filter rejected as Unschedulable (not UnschedulableAndUnresolvable);
3. on each, in node order, the minimal victims: remove every lower-priority victim unit on the
   node, check the pod fits, then reprieve units most important first (PDB-violating ones
   before the others) while it still fits; stop once enough candidates were found
   (`max(numNodes x minCandidateNodesPercentage / 100, minCandidateNodesAbsolute)`);
4. the node: fewest PDB violations, then lowest highest victim priority, then smallest sum of
   priorities, then fewest victims, then the latest start of the highest-priority victims, then
   the first in order.

Deviation (README): upstream starts the dry run at a random node offset; the plan starts at the
first node in name order, so the same input always gets the same candidates.
"""
from __future__ import annotations

from podgroup_plan.framework.diagnosis import Diagnosis, fit_error_message
from podgroup_plan.framework.preemption import screen
from podgroup_plan.framework.preemption.common import (
    NOT_ELIGIBLE_NEVER,
    PreemptionContext,
    PreemptionOutcome,
    fits_on_node,
    preemption_args,
    remove_units,
    restore_unit,
    with_prefix,
)
from podgroup_plan.framework.preemption.victims import VictimUnit, build_units, split_by_pdb
from podgroup_plan.framework.runtime import Framework
from podgroup_plan.framework.status import Code, Status
from podgroup_plan.model.objects import PREEMPT_NEVER, Pod
from podgroup_plan.state.cluster import ClusterState

PREFIX = "preemption: "
NO_VICTIMS = "No preemption victims found for incoming pod"
NOT_ELIGIBLE_TERMINATING = "not eligible due to a terminating pod on the nominated node."
NOT_HELPFUL = "Preemption is not helpful for scheduling"
_PRIORITY_OFFSET = 2**31  # math.MaxInt32 + 1: keeps every term of the priority sum positive


def post_filter(
    fwk: Framework, ctx: PreemptionContext, pod: Pod, state: ClusterState, diagnosis: Diagnosis
) -> PreemptionOutcome:
    """DefaultPreemption.PostFilter for `pod`, whose Filter over every node gave `diagnosis`."""
    outcome = _preempt(fwk, ctx, pod, state, diagnosis)
    outcome.status = with_prefix(PREFIX, outcome.status)
    return outcome


def _preempt(fwk: Framework, ctx: PreemptionContext, pod: Pod, state: ClusterState,
             diagnosis: Diagnosis) -> PreemptionOutcome:
    if pod.preemption_policy == PREEMPT_NEVER:
        return PreemptionOutcome(Status(Code.UNSCHEDULABLE, (NOT_ELIGIBLE_NEVER,)))
    view = state.all_nodes  # a lone pod is filtered on every node
    codes = diagnosis.node_codes
    if _terminating_victim_on_nominated_node(fwk, ctx, pod, state, codes):
        return PreemptionOutcome(Status(Code.UNSCHEDULABLE, (NOT_ELIGIBLE_TERMINATING,)))
    potential = view[codes == int(Code.UNSCHEDULABLE)] if codes is not None else view[:0]
    num_all = len(view)

    statuses: dict[int, Status] = {}
    candidates: list[tuple[int, list[VictimUnit], int, list[VictimUnit]]] = []
    screened = screen.screen(fwk, ctx, pod, state, potential) if screen.ENABLED and len(potential) else None
    visit = screened.searched if screened is not None else potential
    if len(visit):
        args = preemption_args(fwk)
        wanted = _num_candidates(len(potential), args.min_candidate_nodes_percentage,
                                 args.min_candidate_nodes_absolute)
        allowed = ctx.budgets.allowed_now(ctx.placed(state))
        non_violating = violating = 0
        for node in visit.tolist():  # offset 0: node-name order (deviation, see above)
            victims, num_violations, status, spared = select_victims_on_node(fwk, ctx, pod, state, node, allowed)
            if status.is_success() and not victims:
                status = Status(Code.ERROR, (f'expected at least one victim pod on node "{state.node_names[node]}"',))
            if not status.is_success():
                statuses[node] = status
                continue
            candidates.append((node, victims, num_violations, spared))
            if num_violations:
                violating += 1
            else:
                non_violating += 1
            if non_violating and non_violating + violating >= wanted:
                break
    if not candidates:
        nodes = Diagnosis()
        if screened is not None:
            # Every screened-out node's answer (screen.py): the fixed text, or its Filter reasons
            # with the lower-priority pods gone, from one run or else node by node.
            nodes.add(NO_VICTIMS, int(screened.no_victims.sum()))
            small = screened.nodes[screened.too_small]
            counted = screen.reasons_after_removal(fwk, ctx, pod, state, small)
            if counted is None:
                allowed = ctx.budgets.allowed_now(ctx.placed(state))
                for node in small.tolist():
                    statuses[node] = select_victims_on_node(fwk, ctx, pod, state, node, allowed)[2]
            else:
                for reason, count in counted.reasons.items():
                    nodes.add(reason, count)
        errors = [statuses[n] for n in sorted(statuses) if statuses[n].code == Code.ERROR]
        if errors:
            return PreemptionOutcome(errors[0])
        for status in statuses.values():
            for reason in status.reasons:
                nodes.add(reason, 1)
        nodes.add(NOT_HELPFUL, num_all - len(potential))
        return PreemptionOutcome(Status(Code.UNSCHEDULABLE, (fit_error_message(num_all, nodes),)), clear=True)

    # Non-violating candidates come first, as DryRunPreemption returns them.
    ordered = [c for c in candidates if not c[2]] + [c for c in candidates if c[2]]
    node, victims, num_violations, spared = pick_one_node(ordered)
    n = sum(len(u.pods) for u in victims)
    msg = f"found a potential placement for pod on node {state.node_names[node]}, preempting {n} victims"
    return PreemptionOutcome(Status(Code.SUCCESS, (msg,)), victims=victims, node=node,
                             num_pdb_violations=num_violations, spared_by_pdb=spared)


def _terminating_victim_on_nominated_node(fwk: Framework, ctx: PreemptionContext, pod: Pod,
                                          state: ClusterState, codes) -> bool:
    """PodEligibleToPreemptOthers: a pod nominated to a node (unless Filter found that node
    UnschedulableAndUnresolvable) where a lower-priority pod is terminating because of
    preemption waits for it instead of preempting again."""
    nominator = fwk.nominator
    node = nominator.node_of(pod) if nominator is not None else None
    if node is None:
        return False
    if codes is not None and int(codes[node]) == int(Code.UNSCHEDULABLE_AND_UNRESOLVABLE):
        return False
    return any(p.terminating_by_preemption and ctx.hierarchy.priority_of(p) < pod.priority
               for p in state.pods_on_node[node].values())


def _num_candidates(num_nodes: int, percentage: int, absolute: int) -> int:
    """calculateNumCandidates."""
    n = num_nodes * percentage // 100
    return min(max(n, absolute), num_nodes)


def select_victims_on_node(
    fwk: Framework, ctx: PreemptionContext, pod: Pod, state: ClusterState, node: int, allowed: list[int],
) -> tuple[list[VictimUnit], int, Status, list[VictimUnit]]:
    """SelectVictimsOnNode: the fewest, least important victim units that let `pod` fit on
    `node`, the number of PDB-violating victim pods, the node's status, and the PDB-violating
    units that were spared (for the table). The cluster is left as it was."""
    on_node = state.pods_on_node[node]
    units = build_units((on_node[k] for k in sorted(on_node)), ctx.hierarchy, state.node_of)
    potential = [u for u in units if u.priority < pod.priority]
    if not potential:
        return [], 0, Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, (NO_VICTIMS,)), []
    with state.tentative():
        remove_units(state, potential)
        fits, _, status = fits_on_node(fwk, pod, state, node)
        if not fits:
            return [], 0, status, []
        potential.sort(key=VictimUnit.importance)
        violating, fine = split_by_pdb(potential, ctx.budgets, allowed)
        victims: list[VictimUnit] = []
        num_violations = 0

        def reprieve(unit: VictimUnit) -> bool:
            restore_unit(state, unit)
            if fits_on_node(fwk, pod, state, node)[0]:
                return True
            remove_units(state, [unit])
            victims.append(unit)
            return False

        spared: list[VictimUnit] = []
        for unit, count in violating:
            if reprieve(unit):
                spared.append(unit)
            else:
                num_violations += count
                unit.violates_pdb = True
        for unit in fine:
            reprieve(unit)
        if violating and fine:
            victims.sort(key=VictimUnit.importance)
    return victims, num_violations, Status(), spared


def pick_one_node(candidates: list[tuple]) -> tuple:
    """pickOneNodeForPreemption over (node, victim units, PDB violations, ...) candidates: each
    criterion keeps the candidates that score best on it."""
    def highest_priority(c):
        return c[1][0].priority

    def sum_priorities(c):
        return sum((u.priority + _PRIORITY_OFFSET) * len(u.pods) for u in c[1])

    def count(c):
        return sum(len(u.pods) for u in c[1])

    def earliest_start_of_highest(c):
        # GetEarliestPodStartTime over the highest-priority victims; the node where that start
        # is the latest wins. A pod without status.startTime counts as started "now".
        top = c[1][0].priority
        starts = [p.start_time for u in c[1] if u.priority == top for p in u.pods if p.start_time]
        return (0, min(starts)) if starts else (1, "")

    remaining = candidates
    for key, best in ((lambda c: c[2], min), (highest_priority, min), (sum_priorities, min), (count, min),
                      (earliest_start_of_highest, max)):
        target = best(key(c) for c in remaining)
        remaining = [c for c in remaining if key(c) == target]
        if len(remaining) == 1:
            break
    return remaining[0]

