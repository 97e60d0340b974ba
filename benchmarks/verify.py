"""Checks that a plan of a benchmark case is right, not only fast.

Used by the runner after timing (a fast wrong plan is no result) and by
`tests/test_benchmark_smoke.py`. Works on the `PlanResult` and the `ClusterInput` alone.
"""
from __future__ import annotations

from collections import defaultdict

from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import GANG, PODS
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


def constraint_problems(cluster: ClusterInput, result: PlanResult) -> list[str]:
    """Hard constraints of the placed pending pods, checked on the final placement: untolerated
    NoSchedule/NoExecute taints, nodeSelector and required node affinity, required hostname
    anti-affinity within the pod's namespace, and DoNotSchedule spreading (with every pod
    placed, the counts of the eligible domains differ by at most maxSkew at the end, since
    each placement kept its domain within maxSkew of the minimum)."""
    from podgroup_plan.plugins.helper.taint import tolerations_tolerate

    where = placement(cluster, result)
    nodes = {n.name: n for n in cluster.nodes}
    pods = {p.key: p for p in cluster.pods}
    placed_pending = [(pods[k], nodes[n]) for k, n in sorted(where.items())
                      if pods[k].node_name is None and n in nodes]
    out: list[str] = []
    on_node: dict[str, list] = defaultdict(list)
    for key, node_name in where.items():
        on_node[node_name].append(pods[key])
    for pod, node in placed_pending:
        who = f"{pod.namespace}/{pod.name} on {node.name}"
        for taint in node.taints:
            if taint.effect in ("NoSchedule", "NoExecute") and not tolerations_tolerate(pod.tolerations, taint):
                out.append(f"{who}: untolerated taint {taint.key}")
        if any(node.labels.get(k) != v for k, v in pod.node_selector.items()):
            out.append(f"{who}: nodeSelector not matched")
        aff = pod.affinity
        if aff is not None and aff.node_required is not None and not aff.node_required.matches(node.name, node.labels):
            out.append(f"{who}: required node affinity not matched")
        for term in (aff.pod_anti_affinity_required if aff is not None else ()):
            if term.topology_key != "kubernetes.io/hostname" or term.label_selector is None:
                continue
            others = [o for o in on_node[node.name] if o.key != pod.key and o.namespace == pod.namespace
                      and term.label_selector.matches(o.labels)]
            if others:
                out.append(f"{who}: anti-affinity with {others[0].name}")
    # DoNotSchedule spreading, per (namespace, constraint) over the pods that carry it
    groups: dict[tuple, list] = defaultdict(list)
    for pod, node in placed_pending:
        for c in pod.topology_spread_constraints:
            if c.when_unsatisfiable == "DoNotSchedule" and c.label_selector is not None:
                groups[(pod.namespace, c.topology_key, c.max_skew, c.label_selector,
                        pod.affinity.node_required if pod.affinity else None,
                        tuple(sorted(pod.node_selector.items())))].append(pod)
    for (namespace, key, max_skew, selector, required, node_selector), members in groups.items():
        counts: dict[str, int] = {}
        for node in cluster.nodes:
            if key not in node.labels or any(node.labels.get(k) != v for k, v in node_selector):
                continue
            if required is not None and not required.matches(node.name, node.labels):
                continue
            counts.setdefault(node.labels[key], 0)
        for other_key, node_name in where.items():
            other = pods[other_key]
            node = nodes.get(node_name)
            if (node is not None and other.namespace == namespace and node.labels.get(key) in counts
                    and selector.matches(other.labels)):
                counts[node.labels[key]] += 1
        if counts and max(counts.values()) - min(counts.values()) > max_skew:
            out.append(f"spreading over {key} of {members[0].name}'s pods: counts {sorted(counts.values())}")
    return out
