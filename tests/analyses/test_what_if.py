"""What-if changes and sweeps (podgroup_plan/analyses/what_if), on hand-derived clusters.

Two racks of two 8-GPU nodes (r1-n1, r1-n2 | r2-n1, r2-n2). A running gang `train` (two 8-GPU
pods, minCount 2, owned by a Job that is not in the input) holds rack r1. Failing r1 recreates
its two pods pending under new names, which fit on r2 when r2 is free, and not when a bare pod
holds one r2 node.
"""
from __future__ import annotations

import json

import pytest

from podgroup_plan.analyses.what_if import executors
from podgroup_plan.analyses.what_if.changes import (
    CORDON,
    DRAIN,
    FAIL,
    ChangeError,
    NodeChange,
    apply_changes,
)
from podgroup_plan.analyses.what_if.sweep import PlanEach, Sweep, assemble, each_value, run_scenario, with_base
from podgroup_plan.loading import load_input

RACK = "topology.example.com/rack"
T0 = "2026-05-01T10:00:00Z"


def node(name: str, rack: str, gpus: int = 8) -> str:
    return f"""apiVersion: v1
kind: Node
metadata: {{name: {name}, labels: {{kubernetes.io/hostname: {name}, {RACK}: {rack}}}}}
status: {{allocatable: {{cpu: "32", memory: 256Gi, pods: "110", nvidia.com/gpu: "{gpus}"}}}}
"""


def pod(name: str, *, node_name: str | None = None, gpus: int = 8, group: str | None = None,
        owner: tuple[str, str] | None = None, labels: str = "{}", ns: str = "ml") -> str:
    owner_refs = ""
    if owner:
        owner_refs = (f", ownerReferences: [{{apiVersion: v1, kind: {owner[0]}, name: {owner[1]}, "
                      f"uid: u-{owner[1]}, controller: true}}]")
    spec = []
    if node_name:
        spec.append(f"  nodeName: {node_name}")
    if group:
        spec.append(f"  schedulingGroup: {{podGroupName: {group}}}")
    status = f"status: {{phase: Running, startTime: \"{T0}\"}}" if node_name else "status: {phase: Pending}"
    return f"""apiVersion: v1
kind: Pod
metadata: {{name: {name}, namespace: {ns}, creationTimestamp: "{T0}", labels: {labels}{owner_refs}}}
spec:
{chr(10).join(spec) + chr(10) if spec else ''}  containers:
  - name: c
    image: example.com/c:1
    resources: {{requests: {{cpu: "1", nvidia.com/gpu: "{gpus}"}}, limits: {{nvidia.com/gpu: "{gpus}"}}}}
{status}
"""


GANG = f"""apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {{name: train, namespace: ml, creationTimestamp: "{T0}"}}
spec:
  schedulingPolicy: {{gang: {{minCount: 2}}}}
status:
  conditions:
  - {{type: PodGroupInitiallyScheduled, status: "True", reason: Scheduled, message: "", lastTransitionTime: "{T0}"}}
"""


def cluster(tmp_path, *docs: str):
    base = [node("r1-n1", "r1"), node("r1-n2", "r1"), node("r2-n1", "r2"), node("r2-n2", "r2")]
    path = tmp_path / "in.yaml"
    path.write_text("---\n".join(base + list(docs)))
    return load_input([str(path)])


def running_gang() -> list[str]:
    return [GANG,
            pod("train-a", node_name="r1-n1", group="train", owner=("Job", "train")),
            pod("train-b", node_name="r1-n2", group="train", owner=("Job", "train"))]


def sweep_of(ci, *scenarios):
    return with_base(Sweep(ci, tuple(scenarios)), PlanEach()())


def one(ci, action: str, target: str) -> dict:
    from podgroup_plan.analyses.what_if.sweep import Scenario

    sweep = sweep_of(ci, Scenario(target, (NodeChange(action, target),)))
    return run_scenario(sweep, 0, PlanEach()())


def test_failed_rack_gang_is_recreated_and_fits_on_the_other_rack(tmp_path):
    row = one(cluster(tmp_path, *running_gang()), FAIL, f"{RACK}=r1")
    assert row["error"] is None
    assert row["failed"] == ["r1-n1", "r1-n2"] and row["pods"] == 2 and row["gpus"] == 16
    assert row["summary"]["nodes"] == 2  # the failed nodes are gone
    [job] = row["workloads"]
    assert (job["kind"], job["name"], job["fate"]) == ("Job", "train", "rescheduled")
    assert job["nodes"] == ["r2-n1", "r2-n2"]
    assert job["belowMinCount"] is True  # no running member is left: 0 < minCount 2


def test_recreated_gang_that_does_not_fit_is_unschedulable_with_the_groups_message(tmp_path):
    ci = cluster(tmp_path, *running_gang(), pod("squatter", node_name="r2-n1"))
    row = one(ci, FAIL, f"{RACK}=r1")
    [job] = [w for w in row["workloads"] if w["name"] == "train"]
    assert job["fate"] == "unschedulable" and job["unschedulablePods"] == 2
    # kube-scheduler's own text, from the PodGroup's condition
    assert job["message"].startswith("pod group is unschedulable")
    assert "minCount (2) cannot be satisfied: 1 scheduled, 0 remaining" in job["message"]


def test_recreated_pods_get_new_names_but_a_statefulset_pod_keeps_its_own(tmp_path):
    ci = cluster(tmp_path, *running_gang(), pod("db-0", node_name="r1-n1", gpus=0, owner=("StatefulSet", "db")))
    applied = apply_changes(ci, [NodeChange(FAIL, "r1-n1")])
    names = {d.pod.name: d.replacement for d in applied.displaced}
    assert names["db-0"] == "db-0"
    assert names["train-a"].startswith("train-") and names["train-a"] != "train-a"
    assert len(names["train-a"]) == len("train-") + 5
    new = {p.name: p for p in applied.cluster.pods}
    assert new["db-0"].node_name is None and new["db-0"].phase == "Pending"
    assert new[names["train-a"]].pod_group == "train"  # it joins the running gang
    assert "train-a" not in new and "train-b" in new  # r1-n2 was not failed


def test_a_bare_pod_on_a_failed_node_is_lost(tmp_path):
    row = one(cluster(tmp_path, pod("notebook", node_name="r2-n2", gpus=1)), FAIL, "r2-n2")
    assert row["lostPods"] == ["ml/notebook"]
    [w] = row["workloads"]
    assert (w["kind"], w["name"], w["fate"], w["lostPods"]) == ("Pod", "notebook", "lost", 1)


def test_drain_keeps_the_node_cordon_moves_nothing_fail_removes_it(tmp_path):
    ci = cluster(tmp_path, *running_gang())
    drained = one(ci, DRAIN, f"{RACK}=r1")
    cordoned = one(ci, CORDON, f"{RACK}=r1")
    failed = one(ci, FAIL, f"{RACK}=r1")
    assert drained["summary"]["nodes"] == 4 and failed["summary"]["nodes"] == 2
    assert drained["pods"] == 2 and cordoned["pods"] == 0 and cordoned["workloads"] == []
    assert [w["fate"] for w in drained["workloads"]] == ["rescheduled"]
    assert drained["workloads"][0]["nodes"] == ["r2-n1", "r2-n2"]  # not back on the cordoned nodes


def test_cordon_sends_pending_work_elsewhere(tmp_path):
    ci = cluster(tmp_path, pod("wait-0", gpus=8))
    applied = apply_changes(ci, [NodeChange(CORDON, f"{RACK}=r1")])
    assert all(n.unschedulable for n in applied.cluster.nodes if n.name.startswith("r1"))
    from podgroup_plan.planner import plan

    result = plan(applied.cluster)
    [p] = result.pods
    assert p.node.startswith("r2-")


def test_drain_respects_a_budget_and_says_which_eviction_it_refused(tmp_path):
    pdb = """apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: keep-one, namespace: ml}
spec: {minAvailable: 1, selector: {matchLabels: {app: web}}}
"""
    ci = cluster(tmp_path, pdb,
                 pod("web-a", node_name="r1-n1", gpus=0, labels="{app: web}", owner=("ReplicaSet", "web")),
                 pod("web-b", node_name="r1-n2", gpus=0, labels="{app: web}", owner=("ReplicaSet", "web")))
    row = one(ci, DRAIN, f"{RACK}=r1")
    # two healthy, minAvailable 1: one disruption allowed; web-a goes first (name order)
    assert row["pods"] == 1
    assert [(r["name"], r["budgets"]) for r in row["refusedEvictions"]] == [("web-b", ["ml/keep-one"])]
    assert row["refusedEvictions"][0]["message"] == "Cannot evict pod as it would violate the pod's disruption budget."


def test_a_daemonset_pod_stays_on_a_drained_node_and_goes_with_a_failed_one(tmp_path):
    ci = cluster(tmp_path, pod("agent-x", node_name="r1-n1", gpus=0, owner=("DaemonSet", "agent")))
    drained = apply_changes(ci, [NodeChange(DRAIN, "r1-n1")])
    failed = apply_changes(ci, [NodeChange(FAIL, "r1-n1")])
    assert [p.name for p in drained.kept] == ["agent-x"] and drained.displaced == ()
    assert failed.displaced == () and all(p.name != "agent-x" for p in failed.cluster.pods)


def test_a_target_that_names_nothing_is_that_scenarios_error_and_the_sweep_goes_on(tmp_path):
    from podgroup_plan.analyses.what_if.sweep import Scenario

    ci = cluster(tmp_path, *running_gang())
    sweep = sweep_of(ci, Scenario("nope", (NodeChange(FAIL, "no-such-node"),)),
                     Scenario("r2", (NodeChange(FAIL, f"{RACK}=r2"),)))
    rows = executors.run(sweep, PlanEach())
    assert rows[0]["error"] == "no node named 'no-such-node' in the input"
    assert rows[1]["error"] is None and rows[1]["failed"] == ["r2-n1", "r2-n2"]
    with pytest.raises(ChangeError):
        apply_changes(ci, [NodeChange(FAIL, f"{RACK}=r9")])


def test_each_value_orders_naturally_and_ranks_by_damage(tmp_path):
    ci = cluster(tmp_path, *running_gang(), pod("squatter", node_name="r2-n1"))
    scenarios = each_value(ci, RACK, FAIL)
    assert [s.name for s in scenarios] == [f"{RACK}=r1", f"{RACK}=r2"]
    sweep = with_base(Sweep(ci, tuple(scenarios)), PlanEach()())
    doc = assemble(sweep, executors.run(sweep, PlanEach()))
    # r1 takes the gang down (it cannot fit beside the squatter); r2 loses one bare pod
    assert [r["name"] for r in doc["ranking"]] == [f"{RACK}=r1", f"{RACK}=r2"]
    assert doc["ranking"][0]["workloadsDown"] == 1


@pytest.mark.parametrize("executor", ["processes", "ray"])
def test_every_executor_gives_the_same_bytes(tmp_path, executor, monkeypatch, request):
    if executor == "ray":
        pytest.importorskip("ray", reason="ray is not installed (python3 -m pip install '.[ray]' in the podgroup-plan checkout)")
        import shutil
        import tempfile

        # Ray's socket paths must stay under 108 bytes: a short folder of the test's own
        short = tempfile.mkdtemp(prefix="ray", dir="/tmp")
        request.addfinalizer(lambda: shutil.rmtree(short, ignore_errors=True))
        monkeypatch.setenv("RAY_TMPDIR", short)
        monkeypatch.setenv("HOME", str(tmp_path))
    ci = cluster(tmp_path, *running_gang(), pod("squatter", node_name="r2-n1"), pod("wait-0", gpus=4))
    sweep = with_base(Sweep(ci, tuple(each_value(ci, "node", DRAIN))), PlanEach()())
    serial = json.dumps(assemble(sweep, executors.run(sweep, PlanEach())), sort_keys=True)
    other = json.dumps(assemble(sweep, executors.run(sweep, PlanEach(), executor, workers=2)), sort_keys=True)
    assert other == serial
    if executor == "ray":
        # the local Ray it started is shut down: none of its processes (their command lines name
        # its session folder, under RAY_TMPDIR) is left once they had time to exit
        assert _processes_naming(short) == [], "Ray left processes behind"


def _processes_naming(text: str, patience: float = 30.0) -> list[str]:
    """Command lines of live processes that contain `text`, waiting up to `patience` seconds
    for them to go (a process exits a moment after it is told to)."""
    import os
    import time

    give_up = time.monotonic() + patience
    while True:
        found = []
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as fh:
                    line = fh.read().replace(b"\0", b" ").decode("utf-8", "replace")
            except OSError:
                continue
            if text in line:
                found.append(f"{pid}: {line[:120]}")
        if not found or time.monotonic() > give_up:
            return found
        time.sleep(0.5)


def test_the_sweep_document_meets_its_schema(tmp_path):
    from pathlib import Path

    import jsonschema

    schema = json.loads((Path(__file__).resolve().parents[2] / "schemas" / "WhatIf.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    pdb = """apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: keep, namespace: ml}
spec: {maxUnavailable: 0, selector: {matchLabels: {app: web}}}
"""
    ci = cluster(tmp_path, *running_gang(), pdb, pod("web-a", node_name="r2-n1", gpus=0, labels="{app: web}",
                                                    owner=("ReplicaSet", "web")), pod("nb", node_name="r2-n2", gpus=1))
    from podgroup_plan.analyses.what_if.sweep import Scenario

    scenarios = each_value(ci, RACK, DRAIN) + each_value(ci, RACK, FAIL) + [
        Scenario("bad", (NodeChange(FAIL, "nowhere"),))]
    sweep = with_base(Sweep(ci, tuple(scenarios)), PlanEach()())
    doc = json.loads(json.dumps(assemble(sweep, executors.run(sweep, PlanEach()))))
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(doc))
    assert not errors, [e.message for e in errors]
    fates = {w["fate"] for r in doc["scenarios"] for w in r.get("workloads", ())}
    assert {"rescheduled", "lost"} <= fates


def test_a_running_gang_that_loses_one_pod_keeps_the_other_and_its_new_pod_joins_it(tmp_path):
    ci = cluster(tmp_path, *running_gang())
    row = one(ci, FAIL, "r1-n1")
    [job] = row["workloads"]
    assert (job["name"], job["fate"], job["displacedPods"]) == ("train", "rescheduled", 1)
    assert job["belowMinCount"] is True  # one of two left running
    assert len(job["nodes"]) == 1 and job["nodes"][0] != "r1-n1"
    # the PodGroup is still the running one: no new condition written on it
    from podgroup_plan.planner import plan

    applied = apply_changes(ci, [NodeChange(FAIL, "r1-n1")])
    result = plan(applied.cluster)
    [group] = [g for g in result.pod_groups if g.name == "train"]
    assert group.scheduled_pods == 2


def test_bare_pods_of_a_workloads_podgroup_count_under_the_workload(tmp_path):
    """Pods with no controller, of a PodGroup made from a Workload's template: the workload a
    user wrote is the Workload (its pods are lost: nothing recreates a bare pod)."""
    workload = """apiVersion: scheduling.k8s.io/v1beta1
kind: Workload
metadata: {name: big, namespace: ml}
spec:
  podGroupTemplates:
  - name: workers
    schedulingPolicy: {gang: {minCount: 2}}
"""
    group = f"""apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {{name: big-workers, namespace: ml, creationTimestamp: "{T0}"}}
spec:
  workloadRef: {{workloadName: big, templateName: workers}}
  schedulingPolicy: {{gang: {{minCount: 2}}}}
"""
    ci = cluster(tmp_path, workload, group, pod("big-0", node_name="r1-n1", group="big-workers"),
                 pod("big-1", node_name="r1-n2", group="big-workers"))
    row = one(ci, FAIL, f"{RACK}=r1")
    assert [(w["kind"], w["name"], w["fate"], w["lostPods"]) for w in row["workloads"]] == [("Workload", "big", "lost", 2)]
