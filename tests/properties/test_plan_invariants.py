"""Invariants every plan keeps, over generated clusters (hypothesis).

* no node ends over its allocatable (recounted here from the result, not from the engine);
* a gang is all-or-nothing: either at least minCount members run after the plan, or none of
  its pending pods was placed;
* the result does not depend on the order of the input;
* the per-signature cache of node-local plugins changes nothing.
"""
from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings, strategies as st

from builders import without_node_cache
from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import Node, Pod, PodGroup, Taint, Toleration
from podgroup_plan.planner import plan

GPU_TAINT = Taint("nvidia.com/gpu", "present", "NoSchedule")


@st.composite
def clusters(draw):
    n_nodes = draw(st.integers(1, 6))
    nodes = []
    for i in range(n_nodes):
        nodes.append(Node(
            name=f"node-{i}",
            labels={"kubernetes.io/hostname": f"node-{i}", "zone": draw(st.sampled_from(["a", "b"]))},
            taints=(GPU_TAINT,) if draw(st.booleans()) else (),
            allocatable={"cpu": draw(st.sampled_from([1000, 2000, 4000])), "memory": 8 << 30,
                         "pods": draw(st.sampled_from([2, 110]))},
        ))
    pods, groups = [], []
    n_groups = draw(st.integers(0, 3))
    for g in range(n_groups):
        size = draw(st.integers(1, 4))
        groups.append(PodGroup(namespace="ns", name=f"g{g}", api_version="scheduling.k8s.io/v1beta1",
                               policy=draw(st.sampled_from(["Gang", "Basic"])), min_count=draw(st.integers(1, size)),
                               creation_timestamp=f"2026-01-01T00:00:0{g}Z"))
        for j in range(size):
            pods.append(_pod(draw, f"g{g}-{j}", group=f"g{g}"))
    for k in range(draw(st.integers(0, 5))):
        running = draw(st.booleans())
        pods.append(_pod(draw, f"single-{k}", node_name=draw(st.sampled_from([n.name for n in nodes])) if running else None))
    return ClusterInput(nodes=tuple(nodes), pods=tuple(pods), pod_groups=tuple(groups))


def _pod(draw, name, group=None, node_name=None):
    cpu = draw(st.sampled_from([100, 500, 1000, 1500]))
    tolerate = draw(st.booleans())
    return Pod(namespace="ns", name=name, pod_group=group, node_name=node_name, requests={"cpu": cpu, "memory": 1 << 30},
               non_zero_cpu=cpu, non_zero_memory=1 << 30, priority=0,
               tolerations=(Toleration("nvidia.com/gpu", "Exists", "", "NoSchedule"),) if tolerate else (),
               node_selector={"zone": "a"} if draw(st.integers(0, 4)) == 0 else {})


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(clusters())
def test_no_node_over_allocatable(cluster):
    result = plan(cluster).to_dict()
    node_of = {p["name"]: p["node"] for p in result["pods"] if p["status"] == "Scheduled"}
    used: dict[str, list[int]] = {}
    for pod in cluster.pods:
        node = pod.node_name or node_of.get(pod.name)
        if node:
            u = used.setdefault(node, [0, 0])
            u[0] += pod.requests["cpu"]
            u[1] += 1
    for node in cluster.nodes:
        cpu, count = used.get(node.name, [0, 0])
        assert cpu <= node.allocatable["cpu"] or _was_over_already(cluster, node)
        assert count <= node.allocatable["pods"] or _was_over_already(cluster, node)


def _was_over_already(cluster, node):
    # running pods in the input may already overcommit a node; the plan adds nothing there then
    running = [p for p in cluster.pods if p.node_name == node.name]
    return sum(p.requests["cpu"] for p in running) > node.allocatable["cpu"] or len(running) > node.allocatable["pods"]


@SETTINGS
@given(clusters())
def test_gangs_are_all_or_nothing(cluster):
    result = plan(cluster).to_dict()
    status = {p["name"]: p["status"] for p in result["pods"]}
    for group in cluster.pod_groups:
        members = [p for p in cluster.pods if p.pod_group == group.name]
        placed_now = [p for p in members if status.get(p.name) == "Scheduled"]
        running = [p for p in members if p.node_name]
        if placed_now:
            need = group.min_count if group.policy == "Gang" else 1
            assert len(placed_now) + len(running) >= need


@SETTINGS
@given(clusters(), st.integers(0, 10_000))
def test_result_does_not_depend_on_input_order(cluster, seed):
    rng = random.Random(seed)
    shuffled = ClusterInput(
        nodes=tuple(rng.sample(cluster.nodes, len(cluster.nodes))),
        pods=tuple(rng.sample(cluster.pods, len(cluster.pods))),
        pod_groups=tuple(rng.sample(cluster.pod_groups, len(cluster.pod_groups))),
    )
    assert plan(shuffled).to_dict() == plan(cluster).to_dict()


@SETTINGS
@given(clusters())
def test_signature_cache_changes_nothing(cluster):
    cached = plan(cluster).to_dict()
    with without_node_cache():
        uncached = plan(cluster).to_dict()
    assert cached == uncached


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    nodes=st.integers(8, 40),
    pods=st.integers(10, 120),
    shapes=st.integers(1, 120),
    budget=st.sampled_from([0, 20_000, None]),
)
def test_signature_cache_changes_nothing_on_heterogeneous_clusters(nodes, pods, shapes, budget):
    """Many pod shapes (requests, node affinity, anti-affinity, spreading, tolerations) on
    tainted nodes of several instance types, with the cache's byte budget at nothing (every
    entry evicted as soon as another comes), a few entries, or the default: the same plan as
    with no cache at all."""
    from benchmarks.cases import tiny_mixed
    from benchmarks.generate import cluster_input
    from podgroup_plan.framework import node_cache

    cluster = cluster_input(tiny_mixed(nodes=nodes, pending_pods=pods, pod_shapes=min(shapes, pods),
                                       nodes_per_zone=max(2, nodes // 3), nodes_per_rack=4))
    saved_budget = node_cache.MAX_BYTES
    if budget is not None:
        node_cache.MAX_BYTES = budget
    try:
        cached = plan(cluster).to_dict()
    finally:
        node_cache.MAX_BYTES = saved_budget
    with without_node_cache():
        uncached = plan(cluster).to_dict()
    assert cached == uncached


def test_signature_cache_stays_within_its_byte_budget():
    from benchmarks.cases import tiny_mixed
    from benchmarks.generate import cluster_input
    from podgroup_plan.framework.node_cache import NodeLocalCache

    budgets = []
    real_init = NodeLocalCache.__init__

    def small(self, filters, scorers, max_bytes=None):
        real_init(self, filters, scorers, max_bytes=30_000)
        budgets.append(self)

    def plan_with_small_budgets(pod_shapes):
        budgets.clear()
        cluster = cluster_input(tiny_mixed(nodes=200, pending_pods=150, pod_shapes=pod_shapes))
        try:
            NodeLocalCache.__init__ = small
            plan(cluster)
        finally:
            NodeLocalCache.__init__ = real_init

    # 50 shapes, each pod's shape seen three times (pods take shapes in turn): an entry is
    # kept from a signature's second pod on (a first pod's entry is transient)
    plan_with_small_budgets(50)
    caches = [c for c in budgets if len(c)]
    assert caches
    for cache in caches:
        # an entry at 200 nodes is several KiB: the budget holds a few, not 50
        assert cache.nbytes <= 30_000 or len(cache) == 1
        assert 1 <= len(cache) < 20

    # every pod its own shape: no entry is kept at all, only small marks
    plan_with_small_budgets(150)
    assert budgets and all(len(c) == 0 for c in budgets)
