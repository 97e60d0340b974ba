"""Pods being deleted (metadata.deletionTimestamp) in the plan: never scheduled, counted by the
gang gate, not by the cycle. Upstream: v1.37.0 `schedule_one_podgroup.go` skipPodGroupPodSchedule
(drops them before the algorithm) and the scheduler cache's pod group state (allPods keeps every
known pod)."""
from podgroup_plan.loading import load_input
from podgroup_plan.planner import plan

NODE = """apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
"""
GROUP = """---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: g, namespace: ns}
spec: {schedulingPolicy: {gang: {minCount: 2}}}
"""


def pod(name, deleting=False, group=True):
    meta = f"{{name: {name}, namespace: ns" + (', deletionTimestamp: "2026-05-01T11:00:00Z"' if deleting else "") + "}"
    link = "  schedulingGroup: {podGroupName: g}\n" if group else ""
    return (f"---\napiVersion: v1\nkind: Pod\nmetadata: {meta}\nspec:\n{link}"
            "  containers: [{name: c, image: i, resources: {requests: {cpu: '1'}}}]\n")


def run(tmp_path, text, **gates):
    f = tmp_path / "in.yaml"
    f.write_text(text)
    return plan(load_input([str(f)]), feature_gates=gates or None).to_dict()


def test_a_group_whose_pending_pods_are_all_being_deleted_runs_no_cycle(tmp_path):
    doc = run(tmp_path, NODE + GROUP + pod("a", True) + pod("b", True))
    assert {p["name"]: p["status"] for p in doc["pods"]} == {"a": "Ignored", "b": "Ignored"}
    group = doc["podGroups"][0]
    assert group["status"] == "Ignored" and group["conditions"] == []


def test_the_gate_counts_a_deleting_member_the_cycle_does_not(tmp_path):
    # 2 known pods pass the gang gate (minCount 2); the cycle has 1 remaining: out of reach.
    doc = run(tmp_path, NODE + GROUP + pod("a") + pod("b", True),
              WorkloadAwarePreemption=False, TopologyAwareWorkloadScheduling=False)
    pods = {p["name"]: p for p in doc["pods"]}
    assert pods["a"]["status"] == "Unschedulable"
    assert pods["a"]["message"] == "pod group is unschedulable, minCount (2) cannot be satisfied: 0 scheduled, 1 remaining"
    assert pods["b"]["status"] == "Ignored"


def test_without_generic_workload_a_deleting_pod_is_still_ignored(tmp_path):
    doc = run(tmp_path, NODE + GROUP + pod("a") + pod("b", True), GenericWorkload=False)
    pods = {p["name"]: p for p in doc["pods"]}
    assert pods["a"]["status"] == "Scheduled" and pods["b"]["status"] == "Ignored"
