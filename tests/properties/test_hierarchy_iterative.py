"""The iterative tree algorithm equals the recursive one it replaced (issue 25: no recursion on
input-controlled depth), over generated trees of every depth up to 7 (deeper than KEP-6012's 4,
which the plan schedules all the same): the whole plan, every pod's status, message, node and
nomination, every group's and CompositePodGroup's result and trials, and the notes, with and
without workload-aware preemption. The recursive version is kept only in the tests
(tests/scheduling/recursive_tree_reference.py, the planner's code before the change)."""
from __future__ import annotations

from contextlib import contextmanager

from hypothesis import HealthCheck, given, settings, strategies as st

from podgroup_plan import planner, queue
from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import CompositePodGroup, Node, Pod, PodGroup
from podgroup_plan.planner import plan
from podgroup_plan.scheduling import hierarchy, tree_cycle
from tests.scheduling import recursive_tree_reference as recursive

V = "scheduling.k8s.io/v1alpha3"


@st.composite
def deep_trees(draw):
    nodes = []
    for i in range(draw(st.integers(1, 6))):
        zone, rack = f"z{i % 2}", f"r{i % 3}"
        nodes.append(Node(name=f"node-{i}",
                          labels={"kubernetes.io/hostname": f"node-{i}", "zone": zone, "rack": f"{zone}-{rack}"},
                          allocatable={"cpu": draw(st.sampled_from([1000, 2000, 4000])), "memory": 8 << 30,
                                       "pods": 110}))
    composites, groups, pods = [], [], []
    stamp = iter(range(1000))
    max_depth = draw(st.integers(1, 7))

    def composite(name, parent, depth):
        n_children = draw(st.integers(1, 3))
        gang = draw(st.booleans())
        composites.append(CompositePodGroup(
            "ns", name, V, "Gang" if gang else "Basic",
            min_group_count=draw(st.integers(1, n_children)) if gang else 1,
            topology_key=draw(st.sampled_from([None, None, "zone", "rack"])),
            workload_name="w", parent=parent, priority=draw(st.sampled_from([None, 10])),
            creation_timestamp=f"2026-01-01T00:{next(stamp) // 60:02d}:{next(stamp) % 60:02d}Z"))
        for c in range(n_children):
            child = f"{name}-{c}"
            if depth < max_depth and draw(st.integers(0, 2)) > 0:
                composite(child, name, depth + 1)
            else:
                leaf(child, name)

    def leaf(name, parent):
        size = draw(st.integers(0, 3))
        gang = draw(st.booleans())
        groups.append(PodGroup("ns", name, V, "Gang" if gang else "Basic",
                               min_count=draw(st.integers(1, max(size, 1))) if gang else 1,
                               topology_key=draw(st.sampled_from([None, "rack"])), workload_name="w",
                               parent=parent, creation_timestamp=draw(st.sampled_from([None, "2026-01-01T00:00:00Z"]))))
        for j in range(size):
            cpu = draw(st.sampled_from([500, 1000, 1500, 3000]))
            pods.append(Pod(namespace="ns", name=f"{name}-p{j}", pod_group=name,
                            requests={"cpu": cpu, "memory": 1 << 30},
                            non_zero_cpu=cpu, non_zero_memory=1 << 30, priority=draw(st.sampled_from([0, 5]))))

    for t in range(draw(st.integers(1, 2))):
        composite(f"t{t}", None, 1)
    # a few running pods to preempt
    for k in range(draw(st.integers(0, 3))):
        pods.append(Pod(namespace="ns", name=f"run-{k}", node_name=nodes[k % len(nodes)].name, phase="Running",
                        requests={"cpu": 1000, "memory": 1 << 30}, non_zero_cpu=1000, non_zero_memory=1 << 30,
                        priority=0))
    return ClusterInput(nodes=tuple(nodes), pods=tuple(pods), pod_groups=tuple(groups),
                        composite_pod_groups=tuple(composites))


@contextmanager
def _recursive():
    """The planner with the recursive functions put back where the iterative ones are used."""
    saved = [(hierarchy, "schedule_node", recursive.schedule_node), (hierarchy, "complete", recursive.complete),
             (hierarchy, "all_results", recursive.all_results), (tree_cycle, "all_results", recursive.all_results),
             (queue, "_tree_ready", recursive._tree_ready), (planner, "_leaves", recursive._leaves)]
    originals = [(module, name, getattr(module, name)) for module, name, _ in saved]
    for module, name, value in saved:
        setattr(module, name, value)
    try:
        yield
    finally:
        for module, name, value in originals:
            setattr(module, name, value)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(deep_trees(), st.sampled_from([{"WorkloadAwarePreemption": False}, {}]))
def test_iterative_tree_algorithm_equals_the_recursive_one(cluster, gates):
    iterative = plan(cluster, feature_gates=gates).to_dict()
    with _recursive():
        reference = plan(cluster, feature_gates=gates).to_dict()
    assert iterative == reference
    assert iterative["compositePodGroups"]  # the trees were planned (none is Invalid: no cycle)
    assert all(c["status"] != "Invalid" for c in iterative["compositePodGroups"])


def test_the_reference_is_really_recursive_and_the_planner_is_not():
    """The comparison means something only if the two differ in kind: the reference recurses
    (it fails past Python's recursion limit), the planner plans that chain."""
    import sys

    n = sys.getrecursionlimit()
    composites = [CompositePodGroup("ns", "c0", V, "Basic", workload_name="w")] + [
        CompositePodGroup("ns", f"c{i}", V, "Basic", workload_name="w", parent=f"c{i - 1}") for i in range(1, n)]
    cluster = ClusterInput(
        nodes=(Node(name="n", labels={"kubernetes.io/hostname": "n"},
                    allocatable={"cpu": 1000, "memory": 1 << 30, "pods": 10}),),
        pods=(Pod(namespace="ns", name="p", pod_group="leaf", requests={"cpu": 100}, non_zero_cpu=100,
                  non_zero_memory=0, priority=0),),
        pod_groups=(PodGroup("ns", "leaf", V, "Basic", workload_name="w", parent=f"c{n - 1}"),),
        composite_pod_groups=tuple(composites))
    result = plan(cluster).to_dict()
    assert [p["status"] for p in result["pods"]] == ["Scheduled"]
    assert {c["status"] for c in result["compositePodGroups"]} == {"Scheduled"}
    assert any(f"depth {n + 1} exceeds 4 (WorkloadMaxTreeDepth)" in note for note in result["notes"])
    with _recursive():
        try:
            plan(cluster)
        except RecursionError:
            return
    raise AssertionError("the recursive reference planned a chain past the recursion limit")
