"""CompositePodGroup trees: shape, child order, and the three Invalid rules (README deviations)."""
from __future__ import annotations

from podgroup_plan.model.hierarchy import build_hierarchy
from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import CompositePodGroup, PodGroup


def cpg(name, parent=None, workload="job", ts=None):
    return CompositePodGroup(namespace="ns", name=name, api_version="scheduling.k8s.io/v1alpha3", policy="Gang",
                             parent=parent, workload_name=workload, creation_timestamp=ts)


def pg(name, parent, workload="job", ts=None):
    return PodGroup(namespace="ns", name=name, api_version="scheduling.k8s.io/v1alpha3", policy="Gang",
                    min_count=1, parent=parent, workload_name=workload, creation_timestamp=ts)


def build_trees(composites, groups):
    return build_hierarchy(ClusterInput(composite_pod_groups=tuple(composites), pod_groups=tuple(groups)))


def roots(h):
    return list(h.roots.values())


def shape(node):
    return (node.group.name, [shape(c) for c in node.children])


def test_two_levels_children_in_creation_order_then_name():
    trees = build_trees([cpg("root")], [pg("w-b", "root", ts="2026-01-01T00:00:02Z"), pg("w-a", "root", ts="2026-01-01T00:00:03Z"),
                                        pg("ps", "root", ts="2026-01-01T00:00:02Z"), pg("late", "root")])
    assert [shape(r) for r in roots(trees)] == [("root", [("ps", []), ("w-b", []), ("w-a", []), ("late", [])])]
    assert trees.invalid == {} and trees.missing == {}
    assert roots(trees)[0].height() == 2


def test_depth_four_is_allowed_five_breaks_the_rule_and_is_scheduled():
    ok = build_trees([cpg("r"), cpg("a", "r"), cpg("b", "a")], [pg("leaf", "b")])
    assert roots(ok)[0].height() == 4 and not ok.invalid and not ok.broken
    deep = build_trees([cpg("r"), cpg("a", "r"), cpg("b", "a"), cpg("c", "b")], [pg("leaf", "c")])
    assert [r.key for r in roots(deep)] == [("ns", "r")] and not deep.invalid and not deep.invalid_leaves
    assert deep.broken == {("ns", "r"): "depth 5 exceeds 4 (WorkloadMaxTreeDepth): ns/r -> ns/a -> ns/b -> ns/c -> ns/leaf"}


def test_objects_of_two_workloads_break_the_rule_and_are_scheduled():
    trees = build_trees([cpg("r"), cpg("a", "r", workload="other")], [pg("leaf", "a")])
    assert trees.broken == {("ns", "r"): "objects of more than one Workload (job: ns/r, ns/leaf; other: ns/a)"}
    assert not trees.invalid and [r.key for r in roots(trees)] == [("ns", "r")]


def test_a_cycle_is_reported_with_its_path_for_every_member_and_what_hangs_below():
    trees = build_trees([cpg("b", "c"), cpg("c", "b"), cpg("below", "b")], [pg("leaf", "below")])
    msg = "invalid CompositePodGroup hierarchy: cycle ns/b -> ns/c -> ns/b"
    assert trees.invalid == {("ns", "b"): msg, ("ns", "c"): msg, ("ns", "below"): msg}
    assert roots(trees) == [] and trees.invalid_leaves == {("ns", "leaf")}


def test_a_composite_hanging_below_a_cycle_names_the_same_cycle():
    # walking up from "a" (the smallest key) meets the cycle b -> c; the path starts at its smallest key
    trees = build_trees([cpg("a", "b"), cpg("b", "c"), cpg("c", "b")], [pg("leaf", "a")])
    msg = "invalid CompositePodGroup hierarchy: cycle ns/b -> ns/c -> ns/b"
    assert trees.invalid == {("ns", "a"): msg, ("ns", "b"): msg, ("ns", "c"): msg}
    assert trees.invalid_leaves == {("ns", "leaf")} and not trees.missing


def test_a_missing_parent_is_not_invalid_its_subtree_waits():
    trees = build_trees([cpg("mid", "gone")], [pg("leaf", "mid"), pg("orphan", "nowhere")])
    assert trees.invalid == {} and roots(trees) == []
    assert trees.missing == {("ns", "mid"): ("ns", "gone"), ("ns", "leaf"): ("ns", "gone"),
                             ("ns", "orphan"): ("ns", "nowhere")}


# ----- Invalid trees in a plan ----------------------------------------------------------------


def _plan_with(composites, groups, gates=None):
    from podgroup_plan.model.cluster_input import ClusterInput
    from podgroup_plan.model.objects import Node, Pod
    from podgroup_plan.planner import plan

    node = Node(name="n1", labels={}, allocatable={"cpu": 8000, "memory": 1 << 34, "pods": 110})
    pods = [Pod(namespace="ns", name=f"{g.name}-0", pod_group=g.name, requests={"cpu": 100}, non_zero_cpu=100,
                non_zero_memory=200 << 20, priority=0) for g in groups]
    return plan(ClusterInput(nodes=(node,), pods=tuple(pods), pod_groups=tuple(groups),
                             composite_pod_groups=tuple(composites)), feature_gates=gates)


def test_an_invalid_tree_is_reported_and_nothing_in_it_is_scheduled():
    composites = [cpg("b", "c"), cpg("c", "b"), cpg("ok")]
    groups = [pg("leaf", "b"), pg("fine", "ok")]
    result = _plan_with(composites, groups)
    cpgs = {c.name: c for c in result.composite_pod_groups}
    msg = "invalid CompositePodGroup hierarchy: cycle ns/b -> ns/c -> ns/b"
    assert (cpgs["b"].status, cpgs["b"].message) == ("Invalid", msg)
    assert (cpgs["c"].status, cpgs["c"].message) == ("Invalid", msg)
    assert cpgs["ok"].status != "Invalid"
    pods = {p.name: p for p in result.pods}
    assert (pods["leaf-0"].status, pods["leaf-0"].reason, pods["leaf-0"].message) == ("Waiting", None, None)
    leaf = next(g for g in result.pod_groups if g.name == "leaf")
    assert leaf.status == "Waiting" and leaf.conditions == ()
    assert pods["fine-0"].status == "Scheduled"  # a valid tree's leaf is still planned (on its own, for now)


def test_with_the_composite_gate_off_nothing_is_invalid():
    result = _plan_with([cpg("b", "c"), cpg("c", "b")], [pg("leaf", "b")], gates={"CompositePodGroup": False})
    assert all(c.status != "Invalid" for c in result.composite_pod_groups)
    assert next(p for p in result.pods if p.name == "leaf-0").status == "Scheduled"


def test_a_100000_level_chain_is_judged_without_recursion():
    """No recursion on the input's depth (issue 25): 400 levels once ended in RecursionError.
    A chain past WorkloadMaxTreeDepth is scheduled as kube-scheduler v1.37 schedules it (issue
    26), its broken rule named by the path's ends (the note must stay short)."""
    n = 100_000
    composites = [cpg("c0")] + [cpg(f"c{i}", f"c{i - 1}") for i in range(1, n)]
    trees = build_trees(composites, [pg("leaf", f"c{n - 1}")])
    assert [r.key for r in roots(trees)] == [("ns", "c0")] and trees.invalid == {} and trees.invalid_leaves == set()
    assert trees.root_of[("ns", "leaf")].key == ("ns", "c0")
    assert trees.broken[("ns", "c0")] == (
        f"depth {n + 1} exceeds 4 (WorkloadMaxTreeDepth): "
        f"ns/c0 -> ns/c1 -> ns/c2 -> ns/c3 -> ({n + 1 - 8} more) -> ns/c{n - 3} -> ns/c{n - 2} -> "
        f"ns/c{n - 1} -> ns/leaf")
    assert trees.nodes[("ns", "leaf")].depth == n + 1


def test_a_long_cycle_and_a_chain_below_a_missing_parent():
    n = 50_000
    cycle = [cpg(f"k{i}", f"k{(i + 1) % n}") for i in range(n)]
    trees = build_trees(cycle, [])
    assert len(trees.invalid) == n
    assert trees.invalid[("ns", "k7")].startswith("invalid CompositePodGroup hierarchy: cycle ns/k0 -> ns/k1")
    assert f"({n + 1 - 8} more)" in trees.invalid[("ns", "k7")]
    hanging = [cpg("m0", "nowhere")] + [cpg(f"m{i}", f"m{i - 1}") for i in range(1, n)]
    trees = build_trees(hanging, [pg("leaf", f"m{n - 1}")])
    assert trees.missing[("ns", "leaf")] == ("ns", "nowhere")
    assert trees.missing[("ns", f"m{n - 1}")] == ("ns", "nowhere") and len(trees.missing) == n + 1
