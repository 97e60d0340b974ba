"""`sampledNodes`: with percentageOfNodesToScore the explanation names the feasible nodes that
were scored, the ones upstream's numFeasibleNodesToFind and the rotating start index chose."""
from __future__ import annotations

from podgroup_plan.explain import POD, Target, explain
from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import Node, Pod

CONFIG = {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
          "percentageOfNodesToScore": 50}


def _cluster(n_nodes: int, n_pods: int) -> ClusterInput:
    nodes = tuple(Node(name=f"node-{i:03d}", labels={"kubernetes.io/hostname": f"node-{i:03d}"},
                       allocatable={"cpu": 4000, "memory": 8 << 30, "pods": 110}) for i in range(n_nodes))
    pods = tuple(Pod(namespace="ns", name=f"p{j}", requests={"cpu": 100, "memory": 1 << 20},
                     non_zero_cpu=100, non_zero_memory=1 << 20, priority=0,
                     creation_timestamp=f"2026-01-01T00:00:0{j}Z") for j in range(n_pods))
    return ClusterInput(nodes=nodes, pods=pods)


def test_sampled_nodes_are_named_when_the_percentage_limits_scoring():
    # 120 nodes, 50%: max(120 * 50 / 100, 100) = 100 feasible nodes are enough; the rotating start
    # index begins at 0, so the first pod's cycle scores node-000 .. node-099.
    doc = explain(_cluster(120, 1), Target(POD, "ns", "p0"), scheduler_config=CONFIG)
    assert doc["sampledNodes"] == [f"node-{i:03d}" for i in range(100)]
    assert doc["node"] in doc["sampledNodes"]


def test_the_start_index_moves_on_for_the_next_pod():
    # The first pod's cycle processed 100 nodes, so the second starts at node-100 and wraps.
    doc = explain(_cluster(120, 2), Target(POD, "ns", "p1"), scheduler_config=CONFIG)
    expected = [f"node-{i:03d}" for i in list(range(100, 120)) + list(range(0, 80))]
    assert doc["sampledNodes"] == sorted(expected)


def test_no_sampling_without_the_percentage():
    doc = explain(_cluster(120, 1), Target(POD, "ns", "p0"))
    assert doc["sampledNodes"] is None
    assert doc["feasibleNodes"] == 120
