"""Checks that a plan of a benchmark case is right, not only fast.

Used by the runner after timing (a fast wrong plan is no result) and by
`tests/test_benchmark_smoke.py`. Works on the `PlanResult` and the `ClusterInput` alone.
"""
from __future__ import annotations

from collections import defaultdict

from podgroup_plan.model.objects import GANG, PODS, ClusterInput
from podgroup_plan.result import SCHEDULED, PlanResult


def placement(cluster: ClusterInput, result: PlanResult) -> dict[tuple[str, str], str]:
    """(namespace, name) -> node after the plan, for every pod that runs: the running pods of the
    input (none is evicted in these cases unless the result says so) and the scheduled ones."""
    evicted = {(p.namespace, p.name) for p in result.pods if p.status == "Preempted"}
    where = {p.key: p.node_name for p in cluster.pods if p.node_name and p.key not in evicted
             and p.phase not in ("Succeeded", "Failed")}
    for p in result.pods:
        if p.status == SCHEDULED:
            where[(p.namespace, p.name)] = p.node
    return where


def problems(cluster: ClusterInput, result: PlanResult, expect_all_scheduled: bool = True) -> list[str]:
    """What is wrong with the plan: pods left out (when all should fit), nodes over allocatable,
    gangs partly placed. Empty when the plan is right."""
    out: list[str] = []
    pending = [p for p in cluster.pods if p.node_name is None and p.phase not in ("Succeeded", "Failed")]
    status = {(p.namespace, p.name): p.status for p in result.pods}
    if expect_all_scheduled:
        missing = [p for p in pending if status.get(p.key) != SCHEDULED]
        if missing:
            first = missing[0]
            out.append(f"{len(missing)} of {len(pending)} pending pods not scheduled "
                       f"(first: {first.namespace}/{first.name}: {status.get(first.key)})")

    where = placement(cluster, result)
    pods_by_key = {p.key: p for p in cluster.pods}
    used: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for key, node in where.items():
        u = used[node]
        u[PODS] += 1
        for r, amount in pods_by_key[key].requests.items():
            if r != PODS:
                u[r] += amount
    nodes = {n.name: n for n in cluster.nodes}
    over = []
    for node_name, u in sorted(used.items()):
        node = nodes.get(node_name)
        if node is None:
            over.append(f"{node_name}: not a node of the input")
            continue
        for r, amount in u.items():
            cap = node.allocatable.get(r, 110 if r == PODS else 0)
            if amount > cap:
                over.append(f"{node_name}: {r} {amount} > allocatable {cap}")
    if over:
        out.append(f"{len(over)} node(s) over allocatable (first: {over[0]})")

    members: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])  # placed, total
    for p in cluster.pods:
        if p.pod_group and p.phase not in ("Succeeded", "Failed"):
            m = members[(p.namespace, p.pod_group)]
            m[1] += 1
            m[0] += p.key in where
    partial = []
    for g in cluster.pod_groups:
        placed, _total = members.get(g.key, (0, 0))
        if g.policy == GANG and 0 < placed < g.min_count:
            partial.append(f"{g.namespace}/{g.name}: {placed} placed < minCount {g.min_count}")
    if partial:
        out.append(f"{len(partial)} gang(s) partly placed (first: {partial[0]})")
    return out
