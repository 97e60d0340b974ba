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
CONDITIONS = (UNSCHEDULABLE_CONDITION, WAITING_CONDITION, PREEMPTION_CONDITION)


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
            lines.append(f"{condition}: {plural(len(pods), 'pod')} and "
                         f"{plural(len(failing), 'group')} {verb}")
    if PREEMPTION_CONDITION in wanted and evicted(result):
        lines.append(f"{PREEMPTION_CONDITION}: the plan evicts {plural(len(evicted(result)), 'pod')}")
    return lines


def plural(n: int, word: str) -> str:
    return f"{n} {word if n == 1 else word + 's'}"
