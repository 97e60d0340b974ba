"""The operators' objects (TrainJob, PyTorchJob, TFJob, LeaderWorkerSet, RayCluster, RayJob, CronJob,
DaemonSet): names, labels, owners and problems, derived from each operator's source
(docs/controllers.md); the scenarios in tests/scenarios plan them."""
import functools
import tempfile
import textwrap
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from podgroup_plan.config.feature_gates import FEATURE_GATES_DEFAULTS
from podgroup_plan.controllers import expand, with_gangs
from podgroup_plan.controllers.cron import CronError, next_time, parse_schedule, zone
from podgroup_plan.errors import InputError
from podgroup_plan.loading import load_input

GATES = dict(FEATURE_GATES_DEFAULTS)
C = "containers: [{name: pytorch, image: pt, resources: {requests: {cpu: '1'}}}]"


def load(tmp_path, text, name="in.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip())
    return load_input([str(path)])


def problems(tmp_path, text) -> list[str]:
    with pytest.raises(InputError) as err:
        load(tmp_path, text)
    return [str(p) for p in err.value.problems]


def by_name(ci):
    return {p.name: p for p in ci.pods}


PYTORCH = f"""
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {{name: pt, namespace: ml}}
spec:
  pytorchReplicaSpecs:
    Master:
      template:
        spec: {{{C}}}
    Worker:
      replicas: 2
      template:
        spec: {{{C}}}
"""


def test_pytorch_job_pods_names_labels_owner_and_init_container(tmp_path):
    pods = by_name(expand(load(tmp_path, PYTORCH), GATES))
    assert sorted(pods) == ["pt-master-0", "pt-worker-0", "pt-worker-1"]
    master, worker = pods["pt-master-0"], pods["pt-worker-1"]
    assert master.labels == {"training.kubeflow.org/operator-name": "pytorchjob-controller",
                             "training.kubeflow.org/job-name": "pt",
                             "training.kubeflow.org/replica-type": "master",
                             "training.kubeflow.org/replica-index": "0",
                             "training.kubeflow.org/job-role": "master"}
    assert worker.labels["training.kubeflow.org/replica-index"] == "1"
    assert "training.kubeflow.org/job-role" not in worker.labels
    assert [(r.kind, r.name, r.controller) for r in worker.owner_references] == [("PyTorchJob", "pt", True)]
    # the init-pytorch container (50m) is below the 1-cpu container: the request stays 1 cpu
    assert worker.requests["cpu"] == master.requests["cpu"] == 1000


def test_pytorch_job_gang_uses_min_available(tmp_path):
    text = PYTORCH.replace("spec:\n  pytorchReplicaSpecs:",
                           "spec:\n  runPolicy: {schedulingPolicy: {minAvailable: 2}}\n  pytorchReplicaSpecs:", 1)
    ci = expand(with_gangs(load(tmp_path, text)), GATES)
    [group] = ci.pod_groups
    assert (group.name, group.policy, group.min_count, group.workload_name) == ("pt-gang", "Gang", 2, "pt")
    assert {p.pod_group for p in ci.pods} == {"pt-gang"}
    assert [w.name for w in ci.workloads] == ["pt"]


def test_gang_annotation_false_wins_over_gang_flag(tmp_path):
    text = PYTORCH.replace("metadata: {name: pt, namespace: ml}",
                           "metadata: {name: pt, namespace: ml, annotations: {podgroup-plan.io/gang: 'false'}}")
    ci = expand(with_gangs(load(tmp_path, text)), GATES)
    assert ci.pod_groups == () and {p.pod_group for p in ci.pods} == {None}


def test_pytorch_job_negative_replicas_is_bad_input_with_its_line(tmp_path):
    [problem] = problems(tmp_path, PYTORCH.replace("replicas: 2", "replicas: -1"))
    assert "/in.yaml:10: PyTorchJob ml/pt: spec.pytorchReplicaSpecs.Worker.replicas: must be at least 1" in problem


def test_pytorch_job_missing_template_is_bad_input_with_its_line(tmp_path):
    text = PYTORCH.replace(f"""    Worker:
      replicas: 2
      template:
        spec: {{{C}}}
""", "    Worker:\n      replicas: 2\n")
    [problem] = problems(tmp_path, text)
    assert "/in.yaml:9: PyTorchJob ml/pt: spec.pytorchReplicaSpecs.Worker.template: required" in problem



TF_C = "containers: [{name: tensorflow, image: tf, resources: {requests: {cpu: '1'}}}]"
TFJOB = f"""
apiVersion: kubeflow.org/v1
kind: TFJob
metadata: {{name: tf, namespace: ml}}
spec:
  tfReplicaSpecs:
    ps:
      template:
        spec: {{{TF_C}}}
    Worker:
      replicas: 2
      template:
        spec: {{{TF_C}}}
"""


def test_tf_job_pods_names_labels_and_worker_0_as_master_without_a_chief(tmp_path):
    """tfjob_controller.go: `<job>-<type lowercased>-<index>`; the `ps` key camel-cased to PS
    (tensorflow_defaults.go); with neither Chief nor Master, Worker 0 has the master role."""
    pods = by_name(expand(load(tmp_path, TFJOB), GATES))
    assert sorted(pods) == ["tf-ps-0", "tf-worker-0", "tf-worker-1"]
    assert pods["tf-worker-0"].labels == {"training.kubeflow.org/operator-name": "tfjob-controller",
                                          "training.kubeflow.org/job-name": "tf",
                                          "training.kubeflow.org/replica-type": "worker",
                                          "training.kubeflow.org/replica-index": "0",
                                          "training.kubeflow.org/job-role": "master"}
    assert pods["tf-ps-0"].labels["training.kubeflow.org/replica-type"] == "ps"
    assert "training.kubeflow.org/job-role" not in pods["tf-ps-0"].labels
    assert "training.kubeflow.org/job-role" not in pods["tf-worker-1"].labels
    assert [(r.kind, r.name, r.controller) for r in pods["tf-ps-0"].owner_references] == [("TFJob", "tf", True)]
    # no init container, unlike a PyTorchJob's workers (init-pytorch's 50m would raise a 10m request)
    small = by_name(expand(load(tmp_path, TFJOB.replace("cpu: '1'", "cpu: 10m"), "small.yaml"), GATES))
    assert small["tf-worker-1"].requests["cpu"] == 10


def test_tf_job_chief_has_the_master_role_and_gang_takes_min_available(tmp_path):
    text = TFJOB.replace("    ps:\n", "    Chief:\n").replace(
        "spec:\n  tfReplicaSpecs:", "spec:\n  runPolicy: {schedulingPolicy: {minAvailable: 2}}\n  tfReplicaSpecs:", 1)
    ci = expand(with_gangs(load(tmp_path, text)), GATES)
    pods = by_name(ci)
    assert sorted(pods) == ["tf-chief-0", "tf-worker-0", "tf-worker-1"]
    assert pods["tf-chief-0"].labels["training.kubeflow.org/job-role"] == "master"
    assert "training.kubeflow.org/job-role" not in pods["tf-worker-0"].labels
    [group] = ci.pod_groups
    assert (group.name, group.policy, group.min_count, group.workload_name) == ("tf-gang", "Gang", 2, "tf")
    assert {p.pod_group for p in ci.pods} == {"tf-gang"}


def test_tf_job_webhook_rules_are_bad_input_with_their_lines(tmp_path):
    text = TFJOB.replace("    ps:\n", "    Chief:\n").replace("    Worker:\n", "    Master:\n").replace(
        "name: tensorflow, image: tf, resources: {requests: {cpu: '1'}}}]}\n    Master",
        "name: tf, image: tf}]}\n    Master")
    found = problems(tmp_path, text)
    assert any("/in.yaml:8: TFJob ml/tf: spec.tfReplicaSpecs.Chief.template.spec.containers: "
               "must have at least one container with name tensorflow" in p for p in found), found
    assert any("/in.yaml:5: TFJob ml/tf: spec.tfReplicaSpecs: must not have more than 1 Chief or Master role" in p
               for p in found), found
    assert len(found) == 2


LWS = f"""
apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: {{name: vllm, namespace: serve}}
spec:
  replicas: 2
  leaderWorkerTemplate:
    size: 3
    workerTemplate:
      metadata: {{labels: {{app: vllm}}}}
      spec: {{{C}}}
"""


def test_leader_worker_set_groups_statefulsets_and_labels(tmp_path):
    ci = expand(load(tmp_path, LWS), GATES)
    pods = by_name(ci)
    assert sorted(pods) == ["vllm-0", "vllm-0-1", "vllm-0-2", "vllm-1", "vllm-1-1", "vllm-1-2"]
    leader, worker = pods["vllm-1"], pods["vllm-1-2"]
    key = "leaderworkerset.sigs.k8s.io/"
    # genGroupUniqueKey: sha1("serve/vllm-1")
    import hashlib
    group_key = hashlib.sha1(b"serve/vllm-1").hexdigest()
    assert {k: leader.labels[k] for k in ("app", key + "name", key + "group-index", key + "worker-index", key + "group-key")} \
        == {"app": "vllm", key + "name": "vllm", key + "group-index": "1", key + "worker-index": "0", key + "group-key": group_key}
    assert (worker.labels[key + "group-key"], worker.labels[key + "worker-index"]) == (group_key, "2")
    assert leader.labels[key + "template-revision-hash"] == worker.labels[key + "template-revision-hash"]
    assert [r.name for r in leader.owner_references] == ["vllm"]  # the leader StatefulSet
    assert [r.name for r in worker.owner_references] == ["vllm-1"]  # its group's worker StatefulSet
    # worker StatefulSet -> leader pod -> leader StatefulSet -> LeaderWorkerSet
    assert ci.owner_parents[("serve", "StatefulSet", "vllm-1")] == ("Pod", "vllm-1")
    assert ci.owner_parents[("serve", "Pod", "vllm-1")] == ("StatefulSet", "vllm")
    assert ci.owner_parents[("serve", "StatefulSet", "vllm")] == ("LeaderWorkerSet", "vllm")


def test_leader_worker_set_gang_is_one_pod_group_per_group_under_a_composite(tmp_path):
    ci = expand(with_gangs(load(tmp_path, LWS)), GATES)
    assert [(g.name, g.min_count, g.parent) for g in ci.pod_groups] == [
        ("vllm-group-0", 3, "vllm"), ("vllm-group-1", 3, "vllm")]
    [root] = ci.composite_pod_groups
    assert (root.name, root.policy) == ("vllm", "Basic")
    assert by_name(ci)["vllm-1-2"].pod_group == "vllm-group-1"


def test_leader_worker_set_size_zero_and_negative_replicas_are_bad_input(tmp_path):
    [problem] = problems(tmp_path, LWS.replace("size: 3", "size: 0"))
    assert "/in.yaml:7: LeaderWorkerSet serve/vllm: spec.leaderWorkerTemplate.size: size must be equal or greater than 1" in problem
    [problem] = problems(tmp_path, LWS.replace("replicas: 2", "replicas: -2"))
    assert "/in.yaml:5: LeaderWorkerSet serve/vllm: spec.replicas:" in problem


RAY = f"""
apiVersion: ray.io/v1
kind: RayCluster
metadata: {{name: rc, namespace: ray}}
spec:
  headGroupSpec:
    template:
      spec: {{{C}}}
  workerGroupSpecs:
  - groupName: gpu
    replicas: 5
    minReplicas: 1
    maxReplicas: 3
    template:
      spec: {{{C}}}
  - groupName: tpu
    replicas: 2
    numOfHosts: 2
    template:
      spec: {{{C}}}
"""


def test_ray_cluster_head_workers_replicas_clamped_and_multi_host_labels(tmp_path):
    pods = list(expand(load(tmp_path, RAY), GATES).pods)
    head = [p for p in pods if p.labels["ray.io/node-type"] == "head"]
    gpu = [p for p in pods if p.labels.get("ray.io/group") == "gpu"]
    tpu = [p for p in pods if p.labels.get("ray.io/group") == "tpu"]
    assert len(head) == 1 and head[0].name.startswith("rc-head-") and len(head[0].name) == len("rc-head-") + 5
    assert head[0].labels["ray.io/group"] == "headgroup" and head[0].labels["ray.io/identifier"] == "rc-head"
    assert len(gpu) == 3  # replicas 5 clamped to maxReplicas 3
    assert all(p.name.startswith("rc-gpu-worker-") for p in gpu)
    assert len(tpu) == 4  # 2 replicas x numOfHosts 2
    replicas = {}
    for p in tpu:
        replicas.setdefault(p.labels["ray.io/worker-group-replica-index"], set()).add(
            (p.labels["ray.io/worker-group-replica-name"], p.labels["ray.io/replica-host-index"]))
    assert sorted(replicas) == ["0", "1"]
    for members in replicas.values():
        assert len({name for name, _ in members}) == 1 and {h for _, h in members} == {"0", "1"}
    # wait-gcs-ready (200m) is below the 1-cpu container
    assert all(p.requests["cpu"] == 1000 for p in gpu)


def test_ray_worker_init_container_raises_a_small_request(tmp_path):
    text = RAY.replace("  - groupName: tpu", "  - groupName: small\n    replicas: 1\n    template:\n"
                                            "      spec: {containers: [{name: w, image: r, resources: {requests: {cpu: 50m}}}]}\n"
                                            "  - groupName: tpu")
    [small] = [p for p in expand(load(tmp_path, text), GATES).pods if p.labels.get("ray.io/group") == "small"]
    assert small.requests["cpu"] == 200


def test_ray_cluster_negative_replicas_is_bad_input_with_its_line(tmp_path):
    [problem] = problems(tmp_path, RAY.replace("replicas: 2", "replicas: -1"))
    assert "/in.yaml:16: RayCluster ray/rc: spec.workerGroupSpecs[1].replicas: worker group tpu has negative replicas -1" in problem


TRAIN = """
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: tj, namespace: ml}
spec:
  runtimeRef: {name: torch}
  trainer: {numNodes: 4, resourcesPerNode: {requests: {cpu: "3"}}}
"""
RUNTIME = """
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata: {name: torch}
spec:
  mlPolicy: {numNodes: 1, torch: {}}
  template:
    metadata: {labels: {team: ml}}
    spec:
      replicatedJobs:
      - name: node
        template:
          metadata: {labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}}
          spec:
            template:
              spec:
                containers: [{name: node, image: pt, resources: {requests: {cpu: "1", memory: 1Gi}}}]
"""


def test_train_job_becomes_its_runtime_job_set(tmp_path):
    ci = expand(load(tmp_path, TRAIN + RUNTIME), GATES)
    pods = sorted(ci.pods, key=lambda p: p.name)
    assert [p.name.rsplit("-", 1)[0] for p in pods] == [f"tj-node-0-{i}" for i in range(4)]
    assert {(p.requests["cpu"], p.requests["memory"]) for p in pods} == {(3000, 2**30)}
    assert all(p.labels["jobset.sigs.k8s.io/jobset-name"] == "tj" for p in pods)
    assert ci.owner_parents[("ml", "Job", "tj-node-0")] == ("JobSet", "tj")
    assert ci.owner_parents[("ml", "JobSet", "tj")] == ("TrainJob", "tj")


def test_train_job_whose_runtime_is_not_in_the_input_is_bad_input(tmp_path):
    [problem] = problems(tmp_path, TRAIN)
    assert problem.endswith('/in.yaml:5: TrainJob ml/tj: spec.runtimeRef.name: ClusterTrainingRuntime "torch" '
                       "specified in TrainJob is not in the input")


def test_train_job_num_nodes_zero_is_accepted_and_makes_no_trainer_pods(tmp_path):
    # Trainer's CRD has numNodes minimum 0: the JobSet's trainer Job then has parallelism 0
    ci = expand(load(tmp_path, TRAIN.replace("numNodes: 4", "numNodes: 0") + RUNTIME), GATES)
    assert ci.pods == ()


def test_train_job_negative_num_nodes_is_bad_input(tmp_path):
    [problem] = problems(tmp_path, TRAIN.replace("numNodes: 4", "numNodes: -1") + RUNTIME)
    assert "/in.yaml:6: TrainJob ml/tj: spec.trainer.numNodes:" in problem


CRON = """
apiVersion: batch/v1
kind: CronJob
metadata: {name: cj, namespace: b, creationTimestamp: "2026-03-01T00:00:00Z"}
spec:
  schedule: "30 */6 * * 1-5"
  jobTemplate:
    spec:
      template:
        spec: {restartPolicy: Never, containers: [{name: c, image: x}]}
"""


def test_cron_job_next_job_after_the_latest_timestamp(tmp_path):
    # 2026-03-01 is a Sunday: next weekday 00:30 is Monday 2026-03-02T00:30Z
    ci = expand(load(tmp_path, CRON), GATES)
    when = datetime(2026, 3, 2, 0, 30, tzinfo=timezone.utc)
    [pod] = ci.pods
    assert pod.name.rsplit("-", 1)[0] == f"cj-{int(when.timestamp()) // 60}"
    assert ci.owner_parents[("b", "Job", f"cj-{int(when.timestamp()) // 60}")] == ("CronJob", "cj")


def test_cron_job_bad_schedule_and_time_zone_are_bad_input(tmp_path):
    """batch validateCronJobSpec's texts (validate_cron.py)."""
    found = problems(tmp_path, CRON.replace('"30 */6 * * 1-5"', '"61 * * * *"\n  timeZone: Mars/Olympus'))
    assert any(p.endswith('/in.yaml:5: CronJob b/cj: spec.schedule: Invalid value: "61 * * * *": '
                          "end of range (61) above maximum (59): 61") for p in found), found
    assert any(p.endswith('/in.yaml:6: CronJob b/cj: spec.timeZone: Invalid value: "Mars/Olympus": '
                          "unknown time zone Mars/Olympus") for p in found), found


@pytest.mark.parametrize("schedule, after, expected", [
    ("*/15 * * * *", "2026-05-01T10:07:30", "2026-05-01T10:15:00"),
    ("0 0 1 1 *", "2026-05-01T10:07:30", "2027-01-01T00:00:00"),
    ("@hourly", "2026-05-01T10:00:00", "2026-05-01T11:00:00"),
    ("0 12 13 * 5", "2026-05-01T13:00:00", "2026-05-08T12:00:00"),  # dom OR dow: Friday the 8th first
    ("0 12 * * fri", "2026-05-01T13:00:00", "2026-05-08T12:00:00"),
    ("0 0 29 2 *", "2026-05-01T00:00:00", "2028-02-29T00:00:00"),
    ("@every 90m", "2026-05-01T10:00:00", "2026-05-01T11:30:00"),
])
def test_cron_next_time(schedule, after, expected):
    start = datetime.fromisoformat(after).replace(tzinfo=timezone.utc)
    got = next_time(parse_schedule(schedule), start, zone(None))
    assert got == datetime.fromisoformat(expected).replace(tzinfo=timezone.utc)


@pytest.mark.parametrize("schedule", ["* * * *", "60 * * * *", "* * 0 * *", "@weekday", "5-1 * * * *", "*/0 * * * *"])
def test_cron_refuses(schedule):
    with pytest.raises(CronError):
        parse_schedule(schedule)


DAEMON = f"""
apiVersion: apps/v1
kind: DaemonSet
metadata: {{name: ds, namespace: sys}}
spec:
  selector: {{matchLabels: {{a: b}}}}
  template:
    metadata: {{labels: {{a: b}}}}
    spec:
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms: [{{matchExpressions: [{{key: pool, operator: In, values: [x, y]}}]}}]
      {C}
"""
NODES = "".join(f"""
---
apiVersion: v1
kind: Node
metadata: {{name: {n}, labels: {{pool: {pool}}}}}
status: {{allocatable: {{cpu: "4", memory: 8Gi, pods: "110"}}}}
""" for n, pool in (("n1", "x"), ("n2", "z"), ("n3", "y")))


def test_daemon_set_pod_per_matching_node_pinned_with_match_fields(tmp_path):
    ci = expand(load(tmp_path, DAEMON + NODES), GATES)
    pinned = {}
    for p in ci.pods:
        [term] = p.affinity.node_required.terms
        [req] = term.match_fields
        assert (req.key, req.operator) == ("metadata.name", "In") and term.match_expressions == ()
        pinned[req.values[0]] = p
    assert sorted(pinned) == ["n1", "n3"]  # n2's pool z is outside the template's affinity
    keys = {(t.key, t.effect) for t in pinned["n1"].tolerations}
    assert {("node.kubernetes.io/not-ready", "NoExecute"), ("node.kubernetes.io/unschedulable", "NoSchedule")} <= keys
    assert "controller-revision-hash" in pinned["n1"].labels


# --- determinism ---------------------------------------------------------------------------

JOBSET = """
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: js, namespace: ml, annotations: {podgroup-plan.io/gang: "%s", podgroup-plan.io/topology: rack}}
spec:
  replicatedJobs:
  - name: driver
    template:
      spec:
        template:
          spec: {restartPolicy: Never, containers: [{name: c, image: x}]}
  - name: workers
    replicas: 2
    template:
      spec:
        parallelism: 3
        completions: 3
        template:
          spec: {restartPolicy: Never, containers: [{name: c, image: x}]}
"""


ALL = [PYTORCH, TFJOB, JOBSET % "true", LWS, RAY, TRAIN + RUNTIME, CRON, DAEMON + NODES, """
apiVersion: ray.io/v1
kind: RayJob
metadata: {name: rj, namespace: ray}
spec:
  rayClusterSpec:
    headGroupSpec:
      template:
        spec: {containers: [{name: h, image: r}]}
"""]


def _fingerprint(ci):
    return ([(p.namespace, p.name, tuple(sorted(p.labels.items())), p.pod_group,
              tuple(p.owner_references), p.affinity) for p in ci.pods],
            [(g.name, g.min_count, g.parent) for g in ci.pod_groups],
            [c.name for c in ci.composite_pod_groups], [w.name for w in ci.workloads],
            sorted(ci.owner_parents.items()), ci.expansion_notes)


DOCS = [textwrap.dedent(d).strip() for text in ALL for d in textwrap.dedent(text).split("\n---\n") if d.strip()]


def _expand_files(files: list[list[str]], gang: bool):
    """The documents written as `files` (each a list of documents) in a fresh folder, loaded and
    expanded."""
    with tempfile.TemporaryDirectory() as tmp:
        for i, docs in enumerate(files):
            (Path(tmp) / f"{i:03d}.yaml").write_text("\n---\n".join(docs) + "\n")
        ci = load_input([tmp])
        return _fingerprint(expand(with_gangs(ci) if gang else ci, GATES))


@functools.lru_cache(maxsize=None)
def _written_order(gang: bool):
    return _expand_files([DOCS], gang)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(order=st.permutations(range(len(DOCS))), cuts=st.lists(st.integers(1, 3), min_size=len(DOCS)),
       gang=st.booleans())
def test_expansion_is_deterministic_and_independent_of_file_order(order, cuts, gang):
    """Every operator object (TFJob and JobSet included), in any order, split over any number of
    files: the same pods, names, labels, owners, groups and notes as one file in the written
    order, with and without --gang."""
    files, at = [], 0
    for size in cuts:
        if at >= len(order):
            break
        files.append([DOCS[i] for i in order[at:at + size]])
        at += size
    if at < len(order):
        files.append([DOCS[i] for i in order[at:]])
    assert _expand_files(files, gang) == _written_order(gang)


def test_expansion_twice_gives_the_same_objects():
    assert _expand_files([DOCS], True) == _expand_files([DOCS], True)


def test_job_set_gang_is_a_pod_group_per_replicated_job_under_a_gang_composite(tmp_path):
    ci = expand(load(tmp_path, JOBSET % "true"), GATES)
    assert [(g.name, g.min_count, g.parent, g.topology_key) for g in ci.pod_groups] == [
        ("js-driver", 1, "js", None), ("js-workers", 6, "js", None)]
    [root] = ci.composite_pod_groups
    assert (root.name, root.policy, root.min_group_count, root.topology_key) == ("js", "Gang", 2, "rack")
    assert sorted({p.pod_group for p in ci.pods}) == ["js-driver", "js-workers"]
    assert sum(p.pod_group == "js-workers" for p in ci.pods) == 6


def test_job_set_single_gang(tmp_path):
    ci = expand(load(tmp_path, JOBSET % "single"), GATES)
    [group] = ci.pod_groups
    assert (group.name, group.min_count, group.parent, group.topology_key) == ("js-gang", 7, None, "rack")
    assert ci.composite_pod_groups == ()


def test_bad_gang_annotation_is_bad_input(tmp_path):
    [problem] = problems(tmp_path, JOBSET % "yes")
    assert 'JobSet ml/js: metadata.annotations[podgroup-plan.io/gang]: unsupported value "yes"' in problem


def test_existing_workload_of_the_same_name_keeps_the_object_pod_by_pod(tmp_path):
    workload = """
---
apiVersion: scheduling.k8s.io/v1alpha3
kind: Workload
metadata: {name: pt, namespace: ml}
spec:
  podGroupTemplates: [{name: w, schedulingPolicy: {basic: {}}}]
"""
    ci = expand(with_gangs(load(tmp_path, PYTORCH + workload)), GATES)
    assert {p.pod_group for p in ci.pods} == {None}
    assert any("not planned as a gang: the input already has pt" in n for n in ci.expansion_notes)


def test_every_controllers_list_has_its_kind_for_the_analyses():
    """headroom and what-if find controller objects through analyses/controller_kinds.py: a kind
    added to Controllers but not there would be invisible to them."""
    from dataclasses import fields

    from podgroup_plan.analyses.controller_kinds import CONTROLLER_KINDS
    from podgroup_plan.model.controllers import Controllers

    lists = {f.name for f in fields(Controllers) if f.name != "gang_all"}
    assert set(CONTROLLER_KINDS) == lists


@pytest.mark.parametrize("text, old, new, where", [
    (PYTORCH, "pytorchReplicaSpecs:", "pytorchReplicaSpec:", 'spec.pytorchReplicaSpec: unknown field "pytorchReplicaSpec"; '
     'did you mean "pytorchReplicaSpecs"?'),
    (TFJOB, "requests: {cpu: '1'}", "request: {cpu: '1'}", 'spec.tfReplicaSpecs.ps.template.spec.containers[0].resources.'
     'request: unknown field "request"; did you mean "requests"?'),
    (LWS, "size: 3", "sizes: 3", 'spec.leaderWorkerTemplate.sizes: unknown field "sizes"; did you mean "size"?'),
])
def test_operator_kinds_refuse_unknown_fields_with_their_line(tmp_path, text, old, new, where):
    """Their Go API types' field names (tools/knownfields/operators.py), pod templates included,
    as kubectl's strict field validation refuses them for a CRD with a structural schema."""
    assert old in text
    found = problems(tmp_path, text.replace(old, new, 1))
    assert any(where in p for p in found), found


def test_daemon_set_is_never_a_gang_even_with_the_gang_flag(tmp_path):
    ci = expand(with_gangs(load(tmp_path, DAEMON + NODES)), GATES)
    assert ci.pod_groups == () and ci.workloads == () and {p.pod_group for p in ci.pods} == {None}
    assert any("never planned as a gang" in n for n in ci.expansion_notes)
