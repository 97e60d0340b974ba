"""Invariants of preemption over generated clusters (hypothesis).

* every victim has a priority strictly below its preemptor's;
* a victim unit is evicted whole: a running gang with disruptionMode `all` loses all of its
  running pods or none;
* the plan terminates (within a generous alarm) and leaves no node over its allocatable,
  counted from the result: input-running pods not evicted plus pods the plan schedules.
"""
from __future__ import annotations

import signal

from hypothesis import HealthCheck, given, settings, strategies as st

from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import Node, Pod, PodDisruptionBudget, PodGroup, SpreadSelector
from podgroup_plan.model.selectors import LabelSelector
from podgroup_plan.planner import plan

PRIORITIES = [0, 10, 100, 1000]


@st.composite
def clusters(draw):
    nodes = [Node(name=f"node-{i}", allocatable={"cpu": 4000, "memory": 16 << 30, "pods": 110})
             for i in range(draw(st.integers(1, 4)))]
    pods: list[Pod] = []
    groups: list[PodGroup] = []
    free = {n.name: 4000 for n in nodes}

    def cpu():
        return draw(st.sampled_from([500, 1000, 2000]))

    def place(c):
        fits = [n for n, f in sorted(free.items()) if f >= c]
        if not fits:
            return None
        node = draw(st.sampled_from(fits))
        free[node] -= c
        return node

    # running gangs (disruption single or all) and running single pods
    for g in range(draw(st.integers(0, 2))):
        prio = draw(st.sampled_from(PRIORITIES[:3]))
        mode = draw(st.sampled_from(["single", "all"]))
        members = []
        for j in range(draw(st.integers(1, 3))):
            c = cpu()
            node = place(c)
            if node is not None:
                members.append(_pod(f"run-g{g}-{j}", c, prio, node, group=f"run-g{g}", app=f"g{g}"))
        if members:
            pods += members
            groups.append(_group(f"run-g{g}", prio, len(members), mode))
    for k in range(draw(st.integers(0, 6))):
        c = cpu()
        node = place(c)
        if node is not None:
            pods.append(_pod(f"run-{k}", c, draw(st.sampled_from(PRIORITIES[:3])), node, app=draw(st.sampled_from(["a", "b"]))))
    # pending gangs and single pods
    for g in range(draw(st.integers(0, 2))):
        prio = draw(st.sampled_from(PRIORITIES))
        size = draw(st.integers(1, 3))
        groups.append(_group(f"new-g{g}", prio, draw(st.integers(1, size)), "single"))
        pods += [_pod(f"new-g{g}-{j}", cpu(), prio, None, group=f"new-g{g}") for j in range(size)]
    for k in range(draw(st.integers(0, 3))):
        pods.append(_pod(f"new-{k}", cpu(), draw(st.sampled_from(PRIORITIES)), None,
                         app=draw(st.sampled_from(["x", "a"]))))
    pdbs = []
    if draw(st.booleans()):
        pdbs.append(PodDisruptionBudget("ns", "pdb-a", LabelSelector((("app", "a"),)),
                                        disruptions_allowed=draw(st.integers(0, 1))))
    # a Service selecting app=a: system default spreading applies to the pods it selects
    services = (SpreadSelector("Service", "ns", "svc-a", LabelSelector((("app", "a"),))),) if draw(st.booleans()) else ()
    return ClusterInput(nodes=tuple(nodes), pods=tuple(sorted(pods, key=lambda p: p.name)),
                        pod_groups=tuple(sorted(groups, key=lambda g: g.name)),
                        pod_disruption_budgets=tuple(pdbs), spread_selectors=services)


def _pod(name, cpu, priority, node, group=None, app="x"):
    return Pod(namespace="ns", name=name, labels={"app": app}, pod_group=group, node_name=node,
               requests={"cpu": cpu, "memory": 1 << 30}, non_zero_cpu=cpu, non_zero_memory=1 << 30,
               priority=priority, phase="Running" if node else "Pending",
               start_time="2026-01-01T00:00:00Z" if node else None,
               creation_timestamp="2026-01-01T00:00:00Z")


def _group(name, priority, min_count, mode):
    return PodGroup(namespace="ns", name=name, api_version="scheduling.k8s.io/v1beta1", policy="Gang",
                    min_count=min_count, priority=priority, disruption_mode=mode,
                    creation_timestamp="2026-01-01T00:00:00Z")


SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _alarm(signum, frame):  # pragma: no cover - only when the plan does not terminate
    raise TimeoutError("the plan did not reach its fixed point")


def _plan(cluster):
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(30)
    try:
        return plan(cluster).to_dict()
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@SETTINGS
@given(clusters())
def test_victims_have_lower_priority_and_units_go_whole(cluster):
    result = _plan(cluster)
    pods = {p.name: p for p in cluster.pods}
    groups = {g.name: g for g in cluster.pod_groups}
    victims = {v["name"] for v in result["victims"]}
    for v in result["victims"]:
        pre = v["preemptor"]
        preemptor_priority = groups[pre["name"]].priority if pre["kind"] == "PodGroup" else pods[pre["name"]].priority
        assert v["priority"] < preemptor_priority
        assert pods[v["name"]].priority < preemptor_priority
    for g in cluster.pod_groups:
        if g.disruption_mode != "all":
            continue
        running = {p.name for p in cluster.pods if p.pod_group == g.name and p.node_name}
        assert not (running & victims) or running <= victims


@SETTINGS
@given(clusters())
def test_plan_terminates_within_capacity(cluster):
    result = _plan(cluster)
    status = {p["name"]: p for p in result["pods"]}
    used: dict[str, int] = {}
    for pod in cluster.pods:
        entry = status.get(pod.name)
        if pod.node_name and (entry is None or entry["status"] != "Preempted"):
            used[pod.node_name] = used.get(pod.node_name, 0) + pod.requests["cpu"]
        elif entry is not None and entry["status"] == "Scheduled":
            used[entry["node"]] = used.get(entry["node"], 0) + pod.requests["cpu"]
    for node in cluster.nodes:
        assert used.get(node.name, 0) <= node.allocatable["cpu"]
    # every evicted pod is reported once, as Preempted, on the node it ran on
    for v in result["victims"]:
        assert status[v["name"]]["status"] == "Preempted"


@SETTINGS
@given(clusters())
def test_column_shortcuts_change_nothing(cluster):
    """Victim removal and nominated pods modelled on the usage columns, and the reprieve that
    leaves unchecked the units on no node the preemptor uses, give the very plan the pod-by-pod
    way checking every unit gives (framework/columns.py)."""
    import podgroup_plan.planner as plan_module
    import podgroup_plan.framework.preemption.pod_group_preemption as wap

    fast = _plan(cluster)
    original, original_check = plan_module.cluster_reads_columns_only, wap._needs_check
    plan_module.cluster_reads_columns_only = lambda *_: False
    try:
        pod_by_pod = _plan(cluster)
        # and checking every unit, skipping none
        wap._needs_check = lambda *_: (lambda unit: True)
        every_unit = _plan(cluster)
    finally:
        plan_module.cluster_reads_columns_only = original
        wap._needs_check = original_check
    assert fast == pod_by_pod == every_unit
