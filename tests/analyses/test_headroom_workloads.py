"""`headroom --workload`: the kinds of workload users write, loaded as the cluster would admit
them, and copied so that copies never collide.

Hand-derived cases on 8-GPU nodes; each asserts the count that follows from the arithmetic in
its docstring.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from podgroup_plan.analyses.headroom.greedy import Template
from podgroup_plan.analyses.headroom.report import Question, headroom
from podgroup_plan.analyses.headroom.workload import check_template
from podgroup_plan.cli import app
from podgroup_plan.loading import load_input
from podgroup_plan.planner import Planner

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios"
T0 = "2026-05-01T10:00:00Z"


def node(name: str, gpus: int = 8, cpu: str = "32", rack: str = "r1") -> str:
    return f"""apiVersion: v1
kind: Node
metadata: {{name: {name}, labels: {{kubernetes.io/hostname: {name}, topology.example.com/rack: {rack}}}}}
status: {{allocatable: {{cpu: "{cpu}", memory: 64Gi, pods: "110", nvidia.com/gpu: "{gpus}"}}}}
"""


def gang_job(name: str, pods: int, gpus: int, extra: str = "") -> str:
    """A batch/v1 Job with spec.scheduling: a gang of `pods` pods of `gpus` GPUs each."""
    return f"""apiVersion: batch/v1
kind: Job
metadata: {{name: {name}, namespace: ml}}
spec:
  completions: {pods}
  parallelism: {pods}
  completionMode: Indexed
  scheduling:
    schedulingPolicy: {{gang: {{}}}}
  template:
    spec:
      restartPolicy: Never{extra}
      containers:
      - name: c
        image: x
        resources: {{requests: {{cpu: "1", nvidia.com/gpu: "{gpus}"}}, limits: {{nvidia.com/gpu: "{gpus}"}}}}
"""


def write(tmp_path: Path, name: str, *docs: str) -> str:
    path = tmp_path / name
    path.write_text("---\n".join(docs))
    return str(path)


def run(*args: str):
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


def test_a_gang_job_is_copied_until_the_gpus_run_out(tmp_path):
    """Three 8-GPU nodes, a Job of two 4-GPU pods: each copy takes 8 GPUs, so three fit
    (the second and third copies are Jobs added beside the first: copies never collide)."""
    cluster = write(tmp_path, "c.yaml", node("n1"), node("n2"), node("n3"))
    job = write(tmp_path, "job.yaml", gang_job("train", 2, 4))
    doc = json.loads(run("headroom", cluster, "--workload", job, "--exact", "-o", "json").stdout)
    assert doc["workloads"] == [{"kind": "Job", "namespace": "ml", "name": "train"}]
    assert doc["fits"] == 3 and doc["exact"]["fits"] == 3 and doc["exact"]["status"] == "OPTIMAL"
    assert [c["name"] for c in doc["copies"]] == ["train-h1", "train-h2", "train-h3"]
    assert "minCount (2) cannot be satisfied" in doc["firstFailure"]["message"]


def test_the_workload_names_the_clusters_priority_class_and_preempts_with_it(tmp_path):
    """One 8-GPU node held by a running bare pod of priority 0; the workload's pod names the
    cluster's PriorityClass `high` (1000) and asks for 8 GPUs. Loaded alone, the class would be
    unknown; with the cluster's classes the copy has priority 1000 and preempts the running
    pod: one copy fits, by preemption. CP-SAT counts the pod of lower priority as free, says so
    and calls its answer an upper bound."""
    high = """apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
"""
    running = f"""apiVersion: v1
kind: Pod
metadata: {{name: squatter, namespace: ml, uid: u1, creationTimestamp: "{T0}"}}
spec:
  nodeName: n1
  containers: [{{name: c, image: x, resources: {{requests: {{nvidia.com/gpu: "8"}}, limits: {{nvidia.com/gpu: "8"}}}}}}]
status: {{phase: Running, startTime: "{T0}"}}
"""
    cluster = write(tmp_path, "c.yaml", node("n1"), high, running)
    job = write(tmp_path, "job.yaml", gang_job("urgent", 1, 8, "\n      priorityClassName: high"))
    got = run("headroom", cluster, "--workload", job, "--exact", "-o", "json")
    assert got.exit_code == 0, got.output
    doc = json.loads(got.stdout)
    assert doc["fits"] == 1 and doc["copies"][0]["victims"] == 1
    assert doc["exact"]["fits"] == 1 and doc["exact"]["upperBound"] is True
    assert any(n.startswith("preemption:") for n in doc["exact"]["notModelled"])


def test_the_clusters_limit_range_admits_the_copies(tmp_path):
    """A LimitRange of the cluster gives containers without requests 3 CPUs: on one node of 8
    CPUs two copies of a request-less pod fit (6 CPUs), a third does not."""
    limits = """apiVersion: v1
kind: LimitRange
metadata: {name: defaults, namespace: apps}
spec:
  limits:
  - type: Container
    defaultRequest: {cpu: "3"}
"""
    cluster = write(tmp_path, "c.yaml", node("n1", gpus=0, cpu="8"), limits)
    pod = write(tmp_path, "p.yaml", """apiVersion: v1
kind: Pod
metadata: {name: tool, namespace: apps}
spec: {containers: [{name: c, image: x}]}
""")
    doc = json.loads(run("headroom", cluster, "--workload", pod, "-o", "json").stdout)
    assert doc["fits"] == 2
    assert doc["firstFailure"]["message"].startswith("0/1 nodes are available: 1 Insufficient cpu.")


def test_a_workload_file_that_is_also_an_input_file_keeps_its_own_objects(tmp_path):
    """The usual call passes a folder and one of its files: the file's PriorityClass is not
    read twice (no duplicate), and the copies are of that file's Job."""
    high = """apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
"""
    folder = tmp_path / "in"
    folder.mkdir()
    write(folder, "nodes.yaml", node("n1"), node("n2"))
    job = write(folder, "job.yaml", high, gang_job("train", 1, 8, "\n      priorityClassName: high"))
    got = run("headroom", str(folder), "--workload", job, "-o", "json")
    assert got.exit_code == 0, got.output
    assert json.loads(got.stdout)["fits"] == 1  # the input's own Job takes one node


def test_pods_of_a_podgroup_the_file_lacks_are_one_workload(tmp_path):
    pods = [f"""apiVersion: v1
kind: Pod
metadata: {{name: prep-{i}, namespace: ml}}
spec:
  schedulingGroup: {{podGroupName: prep}}
  containers: [{{name: c, image: x}}]
""" for i in range(2)]
    path = write(tmp_path, "w.yaml", *pods)
    assert check_template(load_input([path]), path) == ("PodGroup", "ml", "prep")


@pytest.mark.parametrize("case, nodes, workload, kind", [
    ("pytorchjob-gang", "nodes.yaml", "pytorchjob.yaml", "PyTorchJob"),
    ("tfjob-gang-in-one-rack", "cluster.yaml", "tfjob.yaml", "TFJob"),
    ("leaderworkerset-gang", "nodes.yaml", "lws.yaml", "LeaderWorkerSet"),
    ("jobset-two-replicated-jobs", "nodes.yaml", "jobset.yaml", "JobSet"),
    ("trainjob-runtime-and-numnodes", "cluster.yaml", "trainjob.yaml", "TrainJob"),
])
def test_every_kind_simulate_expands_is_a_workload_whose_copies_are_planned(case, nodes, workload, kind, tmp_path):
    """The operators' objects and JobSets from the scenario folders, copied onto a cluster of
    that case's nodes repeated 16 times: the copies are that kind, each copy's pods are its own
    (distinct names), and as many copies are planned as fit."""
    folder = SCENARIOS / case / "manifests"
    work_file = str(folder / workload)
    work = load_input([str(folder / nodes), work_file])
    nodes_only = load_input([str(folder / nodes)])
    from dataclasses import replace

    many = tuple(replace(n, name=f"{n.name}-{k}", labels={**n.labels, "kubernetes.io/hostname": f"{n.name}-{k}"})
                 for k in range(16) for n in nodes_only.nodes)
    cluster = replace(work, nodes=tuple(sorted(many, key=lambda n: n.name)),
                      pods=(), pod_groups=(), workloads=(), composite_pod_groups=(), controllers=None)
    template_input = replace(work, nodes=())
    kind_found, ns, name = check_template(template_input, work_file)
    assert kind_found == kind
    tpl = Template(template_input, kind_found, ns, name)
    planner = Planner(cluster)
    doc = headroom(planner, Question((tpl,), max_copies=3))
    assert doc["fits"] >= 1
    names = [p.name for p in planner.cluster.pods]
    assert len(names) == len(set(names))
    for copy in doc["copies"]:
        assert copy["name"].startswith(name + "-h")


def test_headroom_takes_the_what_if_changes(tmp_path):
    """The three-node case above: with n1 failed two copies fit, with n1 cordoned two as well,
    and with a fourth node added four; the notes say what changed."""
    cluster = write(tmp_path, "c.yaml", node("n1"), node("n2"), node("n3"))
    job = write(tmp_path, "job.yaml", gang_job("train", 2, 4))
    extra = write(tmp_path, "n4.yaml", node("n4"))

    def fits(*change: str) -> tuple[int, list[str]]:
        got = run("headroom", cluster, "--workload", job, *change, "-o", "json")
        assert got.exit_code == 0, got.output
        doc = json.loads(got.stdout)
        return doc["fits"], doc.get("notes", [])

    assert fits()[0] == 3
    failed, notes = fits("--fail", "n1")
    assert failed == 2 and notes == ["what-if: 1 node(s) failed (n1)"]
    assert fits("--cordon", "n1")[0] == 2
    assert fits("--add-node", extra)[0] == 4
    got = run("headroom", cluster, "--workload", job, "--target", "5")
    assert got.exit_code == 2 and "--target goes with --add-node FILE" in got.output


def test_several_workloads_are_added_in_turn_and_by_counts_per_label(tmp_path):
    """Two 8-GPU nodes in two zones; workloads A (one 8-GPU pod) and B (one 4-GPU pod) added in
    turn: A's first copy takes a node, B's the other's half, A's second finds no 8 free GPUs:
    two copies fit, the third (A again) is the first that does not. Per zone: one copy each."""
    z1 = node("n1").replace("topology.example.com/rack: r1", "topology.example.com/rack: r1, "
                                                             "topology.kubernetes.io/zone: z1")
    z2 = node("n2").replace("topology.example.com/rack: r1", "topology.example.com/rack: r1, "
                                                             "topology.kubernetes.io/zone: z2")
    cluster = write(tmp_path, "c.yaml", z1, z2)
    a = write(tmp_path, "a.yaml", gang_job("a", 1, 8))
    b = write(tmp_path, "b.yaml", gang_job("b", 1, 4))
    got = run("headroom", cluster, "--workload", a, "--workload", b, "--by", "topology.kubernetes.io/zone",
              "-o", "json")
    doc = json.loads(got.stdout)
    assert [(c["name"], c["workload"]) for c in doc["copies"]] == [("a-h1", "a"), ("b-h2", "b")]
    assert doc["fits"] == 2 and doc["firstFailure"]["name"] == "a-h3"
    assert doc["by"] == "topology.kubernetes.io/zone"
    zones = doc["byDomain"]["topology.kubernetes.io/zone"]
    assert {z: (v["copies"], v["free"]["nvidia.com/gpu"]) for z, v in zones.items()} in (
        {"z1": (1, 0), "z2": (1, 4)}, {"z1": (1, 4), "z2": (1, 0)})
    assert run("headroom", cluster, "--workload", a, "--workload", b, "--exact").exit_code == 2


def test_a_node_shape_that_cannot_host_the_copies_is_said_so(tmp_path):
    """Nodes without GPUs never make a GPU job fit: the search stops where more nodes cannot
    help (a node per missing pod) and says no number of them does."""
    cluster = write(tmp_path, "c.yaml", node("n1"))
    job = write(tmp_path, "job.yaml", gang_job("train", 2, 4))
    cpu_only = write(tmp_path, "cpu.yaml", node("cpu", gpus=0))
    got = run("headroom", cluster, "--workload", job, "--add-node", cpu_only, "--target", "3", "-o", "json")
    doc = json.loads(got.stdout)
    assert doc["grow"]["nodes"] is None and doc["grow"]["before"] == 1 and doc["grow"]["added"] == []
    table = run("headroom", cluster, "--workload", job, "--add-node", cpu_only, "--target", "3")
    assert "No number of cpu nodes makes 3 copies fit." in table.stdout
