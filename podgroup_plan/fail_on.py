"""The `--fail-on` conditions (contract.md), object by object.

`simulate --fail-on` exits 1 when a condition holds, and `-o junit` fails a test case exactly
for the objects that make a condition hold; both ask this module, so the report and the exit
code never disagree.

* `unschedulable`: a pending pod or group was not placed for lack of a fit (reason
  `Unschedulable` or `SchedulerError`);
* `waiting`: a pod ends `Waiting` (for its group, its quorum or its scheduling gates), or a group
  or composite tree does. An `Invalid` CompositePodGroup is neither condition itself (its pods,
  held `Waiting`, are).
* `preemption`: the plan evicts at least one pod.
* `unplanned`: the input has objects of kinds known to create pods that the planner does not
  expand (loading/unplanned.py: an Argo Workflow, a SparkApplication, ...): their pods are not
  in the plan at all.
"""
from __future__ import annotations

from typing import Iterable

from podgroup_plan.result import (
    PREEMPTED,
    REASON_SCHEDULER_ERROR,
    REASON_UNSCHEDULABLE,
    UNSCHEDULABLE,
    WAITING,
    CompositePodGroupResult,
    PlanResult,
    PodGroupResult,
    PodResult,
)

UNSCHEDULABLE_CONDITION = "unschedulable"
WAITING_CONDITION = "waiting"
PREEMPTION_CONDITION = "preemption"
# pods bound to nodes the input does not hold (PlanResult.missing_node_pods): the snapshot is
# incomplete, so a green plan may be wrong
INCOMPLETE_CONDITION = "incomplete"
UNPLANNED_CONDITION = "unplanned"
CONDITIONS = (UNSCHEDULABLE_CONDITION, WAITING_CONDITION, PREEMPTION_CONDITION, INCOMPLETE_CONDITION,
              UNPLANNED_CONDITION)


def pod_conditions(pod: PodResult) -> list[str]:
    """The conditions this pod makes hold."""
    if pod.status == PREEMPTED:
        return [PREEMPTION_CONDITION]
    if pod.status == UNSCHEDULABLE or pod.reason in (REASON_UNSCHEDULABLE, REASON_SCHEDULER_ERROR):
        return [UNSCHEDULABLE_CONDITION]
    if pod.status == WAITING:
        return [WAITING_CONDITION]
    return []


def group_conditions(group: PodGroupResult | CompositePodGroupResult) -> list[str]:
    """The conditions a PodGroup or CompositePodGroup makes hold (an evicted group: preemption)."""
    if group.status == UNSCHEDULABLE:
        return [UNSCHEDULABLE_CONDITION]
    if group.status == WAITING:
        return [WAITING_CONDITION]
    if group.status == PREEMPTED:
        return [PREEMPTION_CONDITION]
    return []


def evicted(result: PlanResult) -> set[tuple[str, str]]:
    """(namespace, name) of every pod the plan evicts."""
    keys = {(v.namespace, v.name) for v in result.victims}
    return keys | {(p.namespace, p.name) for p in result.pods if p.status == PREEMPTED}


def held(result: PlanResult, wanted: Iterable[str]) -> list[str]:
    """The wanted conditions that hold, each as `CONDITION: what holds`, in CONDITIONS order."""
    wanted = set(wanted)
    groups: list = [*result.pod_groups, *result.composite_pod_groups]
    lines = []
    for condition, verb in ((UNSCHEDULABLE_CONDITION, "not placed"), (WAITING_CONDITION, "waiting")):
        if condition not in wanted:
            continue
        pods = [p for p in result.pods if condition in pod_conditions(p)]
        failing = [g for g in groups if condition in group_conditions(g)]
        if pods or failing:
            owners = by_owner(result, pods, failing)
            lines.append(f"{condition}: {plural(len(pods), 'pod')} and "
                         f"{plural(len(failing), 'group')} {verb}"
                         + (f"; by owner: {', '.join(owners)}" if owners else ""))
    if PREEMPTION_CONDITION in wanted and evicted(result):
        violating = [v for v in result.victims if v.pdbs]
        budgets = sorted({b for v in violating for b in v.pdbs})
        lines.append(f"{PREEMPTION_CONDITION}: the plan evicts {plural(len(evicted(result)), 'pod')}"
                     + (f", {len(violating)} of them violating a PodDisruptionBudget ({', '.join(budgets)})"
                        if violating else ""))
    if INCOMPLETE_CONDITION in wanted and result.missing_node_pods:
        nodes = sorted({n for _, _, n in result.missing_node_pods})
        lines.append(f"{INCOMPLETE_CONDITION}: {plural(len(result.missing_node_pods), 'pod')} bound to "
                     f"{plural(len(nodes), 'node')} not in the input ({', '.join(nodes[:5])}"
                     + (", ..." if len(nodes) > 5 else "") + ")")
    if UNPLANNED_CONDITION in wanted and result.unplanned:
        names = [f"{kind} {ns}/{name}" for kind, ns, name in result.unplanned]
        verb = "creates pods was" if len(names) == 1 else "create pods were"
        lines.append(f"{UNPLANNED_CONDITION}: {plural(len(names), 'object')} that {verb} not planned: "
                     f"{', '.join(names)}")
    return lines


def by_owner(result: PlanResult, pods: list[PodResult], groups: list) -> list[str]:
    """The objects a user wrote (Job, JobSet, Deployment, StatefulSet: the top of each pod's
    chain of controlling owners; a Job for the PodGroup made for it) that `pods` and `groups`
    belong to, each once and sorted: `Job ml/train (2 pods, 1 group)`."""
    tally: dict[str, list[int]] = {}
    for p in pods:
        root = result.root_owner(p.namespace, p.owner)
        if root is not None:
            tally.setdefault(f"{root.kind} {p.namespace}/{root.name}", [0, 0])[0] += 1
    for g in groups:
        root = result.group_owner(g.namespace, g.name) if isinstance(g, PodGroupResult) else None
        if root is not None:
            tally.setdefault(f"{root.kind} {g.namespace}/{root.name}", [0, 0])[1] += 1
    out = []
    for owner in sorted(tally):
        n_pods, n_groups = tally[owner]
        parts = ([plural(n_pods, "pod")] if n_pods else []) + ([plural(n_groups, "group")] if n_groups else [])
        out.append(f"{owner} ({', '.join(parts)})")
    return out


def plural(n: int, word: str) -> str:
    return f"{n} {word if n == 1 else word + 's'}"
