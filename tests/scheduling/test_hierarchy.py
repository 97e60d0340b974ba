"""The CompositePodGroup tree as the plan uses it (model/hierarchy.py, with its Invalid verdicts)
and the leaf memo of the hierarchical algorithm (scheduling/hierarchy.py)."""
from __future__ import annotations

import pytest

from benchmarks.hierarchy import cluster as benchmark_cluster, verify
from podgroup_plan.model.hierarchy import build_hierarchy
from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import CompositePodGroup, PodGroup
from podgroup_plan.planner import plan
from podgroup_plan.scheduling import hierarchy

V = "scheduling.k8s.io/v1alpha3"


def cpg(name, parent=None, stamp=None, workload="w"):
    return CompositePodGroup("ns", name, V, "Gang", 1, workload_name=workload, parent=parent, creation_timestamp=stamp)


def pg(name, parent, stamp=None, workload="w"):
    return PodGroup("ns", name, V, "Gang", 1, workload_name=workload, parent=parent, creation_timestamp=stamp)


def test_children_in_creation_order_then_name_and_depths():
    h = build_hierarchy(ClusterInput(
        composite_pod_groups=(cpg("root"), cpg("mid", "root", "2026-01-01T00:00:02Z")),
        pod_groups=(pg("b", "root", "2026-01-01T00:00:01Z"), pg("a", "root"), pg("c", "mid"),
                    pg("alone", None))))
    root = h.roots[("ns", "root")]
    assert [c.key[1] for c in root.children] == ["b", "mid", "a"]  # no timestamp sorts last
    assert [n.depth for n in root.walk()] == [1, 2, 2, 3, 2]
    assert root.leaf_keys == (("ns", "b"), ("ns", "c"), ("ns", "a"))
    assert h.root_of[("ns", "c")] is root and ("ns", "alone") not in h.root_of
    assert not h.invalid


def test_a_cycle_is_invalid():
    h = build_hierarchy(ClusterInput(composite_pod_groups=(cpg("a", "b"), cpg("b", "a"), cpg("under", "a")),
                                     pod_groups=(pg("leaf", "under"),)))
    assert {k[1] for k in h.invalid} == {"a", "b", "under"}
    assert all("cycle ns/a -> ns/b -> ns/a" in m for m in h.invalid.values())
    assert {k[1] for k in h.invalid_leaves} == {"leaf"} and not h.root_of and not h.broken


@pytest.mark.parametrize("composites, groups, rule", [
    ((cpg("r"), cpg("l2", "r"), cpg("l3", "l2"), cpg("l4", "l3")), (pg("leaf", "l4"),),
     "depth 5 exceeds 4 (WorkloadMaxTreeDepth): ns/r -> ns/l2 -> ns/l3 -> ns/l4 -> ns/leaf"),
    ((cpg("r"),), (pg("x", "r", workload="w2"), pg("y", "r")),
     "objects of more than one Workload (w: ns/r, ns/y; w2: ns/x)"),
], ids=["too-deep", "two-workloads"])
def test_a_tree_breaking_depth_or_one_workload_is_scheduled_with_its_rule_named(composites, groups, rule):
    # kube-scheduler v1.37 schedules such trees (the oracle did): not Invalid, the rule kept for notes
    h = build_hierarchy(ClusterInput(composite_pod_groups=composites, pod_groups=groups))
    assert not h.invalid and not h.invalid_leaves
    assert h.broken == {("ns", "r"): rule}
    assert {k[1] for k in h.root_of} == {g.name for g in groups}


def test_four_levels_are_allowed():
    h = build_hierarchy(ClusterInput(composite_pod_groups=(cpg("r"), cpg("l2", "r"), cpg("l3", "l2")),
                                     pod_groups=(pg("leaf", "l3"),)))
    assert not h.invalid and ("ns", "leaf") in h.root_of


def test_missing_parent_names_the_first_missing_object():
    h = build_hierarchy(ClusterInput(composite_pod_groups=(cpg("mid", "gone"),),
                                     pod_groups=(pg("a", "mid"), pg("b", "nowhere"))))
    assert h.missing[("ns", "a")] == ("ns", "gone")
    assert h.missing[("ns", "b")] == ("ns", "nowhere")
    assert h.missing[("ns", "mid")] == ("ns", "gone")


def test_leaf_memo_hits_for_trees_of_one_shape_and_changes_nothing():
    c = benchmark_cluster(zones=3, racks=2, per_rack=2, trees=3)
    hits = []
    real_init = hierarchy.LeafMemo.__init__

    def spy(self):
        real_init(self)
        hits.append(self)

    hierarchy.LeafMemo.__init__ = spy
    try:
        with_memo = plan(c)
    finally:
        hierarchy.LeafMemo.__init__ = real_init
    assert hits and hits[0].hits > 0
    assert verify(c, with_memo) == []
    saved = hierarchy.LeafMemo.key
    hierarchy.LeafMemo.key = lambda self, *a: None
    try:
        without = plan(c)
    finally:
        hierarchy.LeafMemo.key = saved
    assert with_memo.to_dict() == without.to_dict()
