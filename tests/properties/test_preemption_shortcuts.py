"""Each preemption shortcut against the slow path it replaces, on generated clusters
(hypothesis): the whole result -- victims, messages, nominations, every pod's status -- must be
byte-identical with the shortcut on and off.

* `screen.ENABLED` (framework/preemption/screen.py): DefaultPreemption's candidate nodes with
  no lower-priority pod, or where even removing all of them leaves too little room, are
  answered over the usage columns instead of by SelectVictimsOnNode;
* `pod_group_preemption.NODE_VERDICTS`: the workload-aware reprieve re-checks only the nodes a
  put-back unit has pods on.

The clusters mix what changes those answers: several priorities (and a preemptor with nothing
below it), running gangs evicted whole (units across nodes), PodDisruptionBudgets, taints that
make nodes UnschedulableAndUnresolvable, a pod-count limit, an extended resource, pods
nominated from a previous run, `preemptionPolicy: Never`, pod anti-affinity and spreading (the
paths that are not column-only), and a small `minCandidateNodesAbsolute` so that the dry run
stops early.
"""
from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings, strategies as st

from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import (
    Affinity,
    Node,
    Pod,
    PodAffinityTerm,
    PodDisruptionBudget,
    PodGroup,
    Taint,
    Toleration,
    TopologySpreadConstraint,
)
from podgroup_plan.model.selectors import LabelSelector
from podgroup_plan.planner import plan
from podgroup_plan.framework.preemption import pod_group_preemption, screen

PRIORITIES = [0, 10, 100, 1000]
GPU = "example.com/gpu"
TS = "2026-01-01T00:00:00Z"


@st.composite
def clusters(draw, gangs: bool = False):
    n_nodes = draw(st.integers(1, 9))
    nodes, free = [], {}
    for i in range(n_nodes):
        cpu = draw(st.sampled_from([2000, 4000, 6000]))
        alloc = {"cpu": cpu, "memory": 16 << 30, "pods": draw(st.sampled_from([3, 110, 110]))}
        if draw(st.booleans()):
            alloc[GPU] = draw(st.integers(1, 2))
        taints = (Taint("dedicated", "x", "NoSchedule"),) if draw(st.integers(0, 5)) == 0 else ()
        name = f"node-{i}"
        nodes.append(Node(name=name, labels={"kubernetes.io/hostname": name, "zone": f"z{i % 2}"},
                          taints=taints, allocatable=alloc))
        free[name] = [cpu, alloc["pods"], alloc.get(GPU, 0)]
    anti = draw(st.booleans())  # some pod in the input has anti-affinity: not column-only
    pods: list[Pod] = []
    groups: list[PodGroup] = []

    def place(cpu, gpu):
        fits = [n for n, f in sorted(free.items()) if f[0] >= cpu and f[1] >= 1 and f[2] >= gpu]
        if not fits:
            return None
        node = draw(st.sampled_from(fits))
        free[node][0] -= cpu
        free[node][1] -= 1
        free[node][2] -= gpu
        return node

    for g in range(draw(st.integers(0, 2))):
        prio, mode = draw(st.sampled_from(PRIORITIES[:3])), draw(st.sampled_from(["single", "all"]))
        members = []
        for j in range(draw(st.integers(1, 3))):
            c = draw(st.sampled_from([500, 1000, 2000]))
            node = place(c, 0)
            if node is not None:
                members.append(_pod(f"run-g{g}-{j}", c, prio, node, group=f"run-g{g}", app=f"g{g}"))
        if members:
            pods += members
            groups.append(_group(f"run-g{g}", prio, len(members), mode))
    for k in range(draw(st.integers(0, 10))):
        c, gpu = draw(st.sampled_from([500, 1000, 2000])), draw(st.sampled_from([0, 0, 1]))
        node = place(c, gpu)
        if node is not None:
            pods.append(_pod(f"run-{k}", c, draw(st.sampled_from(PRIORITIES[:3])), node, gpu=gpu,
                             app=draw(st.sampled_from(["a", "b"]))))
    if gangs:
        for g in range(draw(st.integers(1, 2))):
            prio = draw(st.sampled_from(PRIORITIES[1:]))
            size = draw(st.integers(1, 4))
            groups.append(_group(f"new-g{g}", prio, draw(st.integers(1, size)), "single"))
            pods += [_pod(f"new-g{g}-{j}", draw(st.sampled_from([1000, 2000, 3000])), prio, None, group=f"new-g{g}")
                     for j in range(size)]
    names = [n.name for n in nodes]
    for k in range(draw(st.integers(1, 6))):
        pods.append(_pod(
            f"new-{k}", draw(st.sampled_from([500, 1000, 2000, 3000, 5000])), draw(st.sampled_from(PRIORITIES)),
            None, gpu=draw(st.sampled_from([0, 0, 1, 2])), app=draw(st.sampled_from(["x", "a"])),
            never=draw(st.integers(0, 7)) == 0, tolerate=draw(st.booleans()),
            anti=anti and draw(st.booleans()), spread=draw(st.integers(0, 4)) == 0,
            nominated=draw(st.sampled_from([None] * 4 + names))))
    pdbs = []
    if draw(st.booleans()):
        pdbs.append(PodDisruptionBudget("ns", "pdb-a", LabelSelector((("app", "a"),)),
                                        disruptions_allowed=draw(st.integers(0, 1))))
    cluster = ClusterInput(nodes=tuple(nodes), pods=tuple(sorted(pods, key=lambda p: p.name)),
                           pod_groups=tuple(sorted(groups, key=lambda g: g.name)), pod_disruption_budgets=tuple(pdbs))
    absolute = draw(st.integers(1, 3))
    config = {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
              "profiles": [{"schedulerName": "default-scheduler", "pluginConfig": [
                  {"name": "DefaultPreemption", "args": {"minCandidateNodesPercentage": draw(st.sampled_from([0, 10, 50])),
                                                         "minCandidateNodesAbsolute": absolute}}]}]}
    return cluster, config


def _pod(name, cpu, priority, node, group=None, app="x", gpu=0, never=False, tolerate=False,
         anti=False, spread=False, nominated=None):
    requests = {"cpu": cpu, "memory": 1 << 30}
    if gpu:
        requests[GPU] = gpu
    affinity = None
    if anti:
        affinity = Affinity(pod_anti_affinity_required=(
            PodAffinityTerm(LabelSelector((("app", app),)), "kubernetes.io/hostname"),))
    return Pod(namespace="ns", name=name, labels={"app": app}, pod_group=group, node_name=node,
               requests=requests, non_zero_cpu=cpu, non_zero_memory=1 << 30, priority=priority,
               preemption_policy="Never" if never else "PreemptLowerPriority",
               tolerations=(Toleration("dedicated", "Exists"),) if tolerate else (),
               affinity=affinity,
               topology_spread_constraints=(TopologySpreadConstraint(
                   1, "zone", "DoNotSchedule", LabelSelector((("app", app),))),) if spread else (),
               phase="Running" if node else "Pending", start_time=TS if node else None,
               nominated_node_name=None if node else nominated, creation_timestamp=TS)


def _group(name, priority, min_count, mode):
    return PodGroup(namespace="ns", name=name, api_version="scheduling.k8s.io/v1beta1", policy="Gang",
                    min_count=min_count, priority=priority, disruption_mode=mode, creation_timestamp=TS)


SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _both_ways(flag_owner, flag: str, cluster, config) -> tuple[str, str]:
    before = getattr(flag_owner, flag)
    try:
        setattr(flag_owner, flag, True)
        fast = json.dumps(plan(cluster, config).to_dict())
        setattr(flag_owner, flag, False)
        slow = json.dumps(plan(cluster, config).to_dict())
    finally:
        setattr(flag_owner, flag, before)
    return fast, slow


@SETTINGS
@given(clusters())
def test_screened_dry_run_changes_nothing(case):
    fast, slow = _both_ways(screen, "ENABLED", *case)
    assert fast == slow


@SETTINGS
@given(clusters(gangs=True))
def test_node_verdicts_change_nothing(case):
    fast, slow = _both_ways(pod_group_preemption, "NODE_VERDICTS", *case)
    assert fast == slow


def test_the_generated_clusters_reach_the_shortcuts():
    """The strategy is not vacuous: plans of a fixed sample preempt, and fail with the texts the
    screen writes (no victims, too small), so the comparisons above compare those paths."""
    from hypothesis import find

    def preempts(case):
        return bool(plan(*case).to_dict()["victims"])

    def says(text):
        return lambda case: any(text in (p.get("message") or "") for p in plan(*case).to_dict()["pods"])

    find(clusters(), preempts, settings=settings(max_examples=300, deadline=None, database=None))
    find(clusters(), says("No preemption victims found for incoming pod"),
         settings=settings(max_examples=300, deadline=None, database=None))
    find(clusters(), lambda c: says("Insufficient cpu")(c) and says("preemption: 0/")(c),
         settings=settings(max_examples=300, deadline=None, database=None))
    find(clusters(gangs=True), preempts, settings=settings(max_examples=300, deadline=None, database=None))
