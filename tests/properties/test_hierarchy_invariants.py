"""Invariants of CompositePodGroup trees, over generated trees and clusters (hypothesis).

* no pod of a tree is bound unless its root succeeded (binding is atomic at the root): a tree
  with a pod Scheduled by the plan has its root `Scheduled`, and a root that is not Scheduled
  has no pod of its tree placed;
* below a successful root, a leaf binds only when its own gang holds (minCount) and every
  CompositePodGroup on its way up succeeded;
* no node ends over its allocatable;
* the result does not depend on the order of the input.
"""
from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings, strategies as st

from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import CompositePodGroup, Node, Pod, PodGroup
from podgroup_plan.planner import plan

V = "scheduling.k8s.io/v1alpha3"
SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
NO_PREEMPTION = {"WorkloadAwarePreemption": False}


@st.composite
def trees(draw):
    nodes = []
    for i in range(draw(st.integers(1, 6))):
        zone, rack = f"z{i % 2}", f"r{i % 3}"
        nodes.append(Node(name=f"node-{i}",
                          labels={"kubernetes.io/hostname": f"node-{i}", "zone": zone, "rack": f"{zone}-{rack}"},
                          allocatable={"cpu": draw(st.sampled_from([1000, 2000, 4000])), "memory": 8 << 30, "pods": 110}))
    composites, groups, pods = [], [], []
    stamp = iter(range(100))

    def composite(name, parent, depth):
        n_children = draw(st.integers(1, 3))
        gang = draw(st.booleans())
        composites.append(CompositePodGroup(
            "ns", name, V, "Gang" if gang else "Basic", min_group_count=draw(st.integers(1, n_children)) if gang else 1,
            topology_key=draw(st.sampled_from([None, "zone"])) if depth == 1 else None,
            workload_name="w", parent=parent, creation_timestamp=f"2026-01-01T00:00:{next(stamp):02d}Z"))
        for c in range(n_children):
            child = f"{name}-{c}"
            if depth < 2 and draw(st.integers(0, 3)) == 0:
                composite(child, name, depth + 1)
            else:
                leaf(child, name)

    def leaf(name, parent):
        size = draw(st.integers(1, 3))
        gang = draw(st.booleans())
        groups.append(PodGroup("ns", name, V, "Gang" if gang else "Basic",
                               min_count=draw(st.integers(1, size)) if gang else 1,
                               topology_key=draw(st.sampled_from([None, "rack"])), workload_name="w",
                               parent=parent, creation_timestamp=f"2026-01-01T00:00:{next(stamp):02d}Z"))
        for j in range(size):
            cpu = draw(st.sampled_from([500, 1000, 1500]))
            pods.append(Pod(namespace="ns", name=f"{name}-p{j}", pod_group=name, requests={"cpu": cpu, "memory": 1 << 30},
                            non_zero_cpu=cpu, non_zero_memory=1 << 30, priority=0))

    for t in range(draw(st.integers(1, 3))):
        composite(f"t{t}", None, 1)
    return ClusterInput(nodes=tuple(nodes), pods=tuple(pods), pod_groups=tuple(groups),
                        composite_pod_groups=tuple(composites))


def _root_of(cluster: ClusterInput) -> dict[str, str]:
    parent = {g.name: g.parent for g in (*cluster.pod_groups, *cluster.composite_pod_groups)}
    out = {}
    for g in cluster.pod_groups:
        key = g.name
        while parent.get(key):
            key = parent[key]
        out[g.name] = key
    return out


@SETTINGS
@given(trees())
def test_no_pod_bound_unless_its_root_succeeded(cluster):
    result = plan(cluster, feature_gates=NO_PREEMPTION).to_dict()
    root_of = _root_of(cluster)
    composite_status = {c["name"]: c["status"] for c in result["compositePodGroups"]}
    group = {g.name: g for g in cluster.pod_groups}
    composite = {c.name: c for c in cluster.composite_pod_groups}
    scheduled = [p for p in result["pods"] if p["status"] == "Scheduled"]
    for pod in scheduled:
        assert composite_status[root_of[pod["podGroup"]]] == "Scheduled", pod
        # every CompositePodGroup on the way up succeeded
        key = group[pod["podGroup"]].parent
        while key:
            assert composite_status[key] == "Scheduled", (pod, key)
            key = composite[key].parent
    for leaf in cluster.pod_groups:
        placed = [p for p in scheduled if p["podGroup"] == leaf.name]
        if placed:
            need = leaf.min_count if leaf.policy == "Gang" else 1
            assert len(placed) >= need
    for root, status in composite_status.items():
        if status != "Scheduled" and composite[root].parent is None:
            assert not [p for p in scheduled if root_of[p["podGroup"]] == root]


@SETTINGS
@given(trees())
def test_no_node_over_allocatable(cluster):
    result = plan(cluster, feature_gates=NO_PREEMPTION).to_dict()
    used: dict[str, int] = {}
    cpu = {p.name: p.requests["cpu"] for p in cluster.pods}
    for p in result["pods"]:
        if p["status"] == "Scheduled":
            used[p["node"]] = used.get(p["node"], 0) + cpu[p["name"]]
    for node in cluster.nodes:
        assert used.get(node.name, 0) <= node.allocatable["cpu"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trees(), st.integers(0, 10_000))
def test_result_does_not_depend_on_input_order(cluster, seed):
    rng = random.Random(seed)
    shuffled = ClusterInput(
        nodes=tuple(rng.sample(cluster.nodes, len(cluster.nodes))),
        pods=tuple(rng.sample(cluster.pods, len(cluster.pods))),
        pod_groups=tuple(rng.sample(cluster.pod_groups, len(cluster.pod_groups))),
        composite_pod_groups=tuple(rng.sample(cluster.composite_pod_groups, len(cluster.composite_pod_groups))),
    )
    assert plan(shuffled).to_dict() == plan(cluster).to_dict()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trees())
def test_leaf_memo_changes_nothing(cluster):
    """The leaf placement memo (scheduling/hierarchy.py LeafMemo) is a speed-up only: the plan
    without it is the same, with and without preemption."""
    from podgroup_plan.scheduling import hierarchy

    for gates in (NO_PREEMPTION, {}):
        with_memo = plan(cluster, feature_gates=gates).to_dict()
        saved = hierarchy.LeafMemo.key
        hierarchy.LeafMemo.key = lambda self, *a: None
        try:
            without = plan(cluster, feature_gates=gates).to_dict()
        finally:
            hierarchy.LeafMemo.key = saved
        assert with_memo == without
