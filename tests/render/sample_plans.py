"""Hand-built PlanResults for renderer and CLI tests (no engine needed).

`mixed()` is the one a new user would see on a busy day: one gang placed in a rack, one gang that
does not fit, one waiting for pods, single pods scheduled / unschedulable / ignored, and a running
pod evicted by the placed gang.
"""
from __future__ import annotations

from podgroup_plan.result import (
    ConditionResult,
    CompositePodGroupResult,
    PlanResult,
    PodGroupResult,
    PodResult,
    Preemptor,
    Summary,
    VictimResult,
)

NODE_MSG = ("0/3 nodes are available: 1 node(s) had untolerated taint(s) "
            "{node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. preemption: 0/3 nodes "
            "are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims "
            "found for incoming pod.")
GANG_MSG = ("0/2 placements are available, first placement status: pod group is unschedulable, "
            "minCount (4) cannot be satisfied: 0 scheduled, 4 remaining")
WAIT_MSG = "waiting for minCount (3) pods of the pod group, 2 known"


def _cond(status: str, reason: str, message: str) -> ConditionResult:
    return ConditionResult("PodGroupInitiallyScheduled", status, reason, message)


def mixed() -> PlanResult:
    pods = (
        PodResult("default", "batch-x", None, "Unschedulable", reason="Unschedulable", message=NODE_MSG),
        PodResult("default", "low-1", None, "Preempted", node="node-b"),
        PodResult("default", "other-sched", None, "Ignored"),
        PodResult("default", "web-1", None, "Scheduled", node="node-c"),
        PodResult("ml", "infer-0", "infer", "Waiting", message=WAIT_MSG),
        PodResult("ml", "infer-1", "infer", "Waiting", message=WAIT_MSG),
        PodResult("ml", "train-a-0", "train-a", "Scheduled", node="node-a"),
        PodResult("ml", "train-a-1", "train-a", "Scheduled", node="node-a"),
        PodResult("ml", "train-a-2", "train-a", "Scheduled", node="node-b", nominated_node="node-b"),
        PodResult("ml", "train-a-3", "train-a", "Scheduled", node="node-b"),
    ) + tuple(
        PodResult("ml", f"train-b-{i}", "train-b", "Unschedulable", reason="Unschedulable",
                  message=GANG_MSG) for i in range(4)
    )
    groups = (
        PodGroupResult("ml", "infer", "Gang", 3, None, None, 0, 2, "Waiting"),
        PodGroupResult("ml", "train-a", "Gang", 4, "topology.kubernetes.io/rack", "rack-1", 4, 0,
                       "Scheduled", (_cond("True", "Scheduled", ""),)),
        PodGroupResult("ml", "train-b", "Gang", 4, None, None, 0, 4, "Unschedulable",
                       (_cond("False", "Unschedulable", GANG_MSG),)),
    )
    victims = (
        VictimResult("default", "low-1", "node-b", None, 0, Preemptor("PodGroup", "ml", "train-a")),
    )
    summary = Summary(nodes=3, pods_scheduled=5, pods_unschedulable=5, pods_waiting=2,
                      pods_preempted=1, pod_groups_scheduled=1, pod_groups_unschedulable=1,
                      pod_groups_waiting=1)
    return PlanResult(summary, pods, groups, (), victims,
                      notes=("Volumes are not modelled: 1 pod's volumes were ignored.",),
                      scheduler_names=("default-scheduler",))


def feasible() -> PlanResult:
    pods = (
        PodResult("default", "solo", None, "Scheduled", node="node-a"),
        PodResult("ml", "g-0", "g", "Scheduled", node="node-a"),
        PodResult("ml", "g-1", "g", "Scheduled", node="node-b"),
    )
    groups = (PodGroupResult("ml", "g", "Gang", 2, "zone", "z1", 2, 0, "Scheduled",
                             (_cond("True", "Scheduled", ""),)),)
    summary = Summary(nodes=2, pods_scheduled=3, pod_groups_scheduled=1)
    return PlanResult(summary, pods, groups, scheduler_names=("default-scheduler",))


def with_composite() -> PlanResult:
    base = feasible()
    composites = (
        CompositePodGroupResult("ml", "job", None, "Gang", 2, "z1", "Scheduled"),
        CompositePodGroupResult("ml", "loop", "job", "Basic", 1, None, "Invalid",
                                "composite pod group hierarchy has a cycle"),
    )
    return PlanResult(base.summary, base.pods, base.pod_groups, composites,
                      scheduler_names=base.scheduler_names)


def only_waiting() -> PlanResult:
    pods = (PodResult("default", "w-0", "missing", "Waiting", message="pod group default/missing not found"),)
    return PlanResult(Summary(nodes=1, pods_waiting=1), pods)


def only_preemption() -> PlanResult:
    """Feasible, but evicts a running pod."""
    pods = (PodResult("default", "hi", None, "Scheduled", node="n1", nominated_node="n1"),
            PodResult("default", "lo", None, "Preempted", node="n1"))
    victims = (VictimResult("default", "lo", "n1", None, 0, Preemptor("Pod", "default", "hi")),)
    return PlanResult(Summary(nodes=1, pods_scheduled=1, pods_preempted=1), pods, victims=victims)


def preempted_group() -> PlanResult:
    """A running gang evicted whole by a higher-priority gang."""
    evict = "preempted by PodGroup ml/urgent"
    pods = (PodResult("ml", "old-0", "old", "Preempted", node="node-a"),
            PodResult("ml", "old-1", "old", "Preempted", node="node-b"),
            PodResult("ml", "urgent-0", "urgent", "Scheduled", node="node-a"),
            PodResult("ml", "urgent-1", "urgent", "Scheduled", node="node-b"))
    groups = (
        PodGroupResult("ml", "old", "Gang", 2, None, None, 0, 2, "Preempted",
                       (_cond("True", "Scheduled", ""),
                        ConditionResult("DisruptionTarget", "True", "PreemptionByScheduler", evict))),
        PodGroupResult("ml", "urgent", "Gang", 2, None, None, 2, 0, "Scheduled",
                       (_cond("True", "Scheduled", ""),)),
    )
    victims = tuple(VictimResult("ml", f"old-{i}", n, "old", 10, Preemptor("PodGroup", "ml", "urgent"))
                    for i, n in enumerate(("node-a", "node-b")))
    return PlanResult(Summary(nodes=2, pods_scheduled=2, pods_preempted=2, pod_groups_scheduled=1),
                      pods, groups, (), victims)


def empty() -> PlanResult:
    return PlanResult(Summary(nodes=3))
