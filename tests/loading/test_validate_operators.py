"""Operators' pod templates get the API server's pod-spec rules (validate_operators.py): the pods
their controllers create are validated as pods, so a bad node-selector key, scheduling gate,
toleration or resource name in a LeaderWorkerSet, RayCluster, RayJob, PyTorchJob, TFJob, JobSet
or training runtime is bad input, reported at the template's path."""
from __future__ import annotations

import copy

import pytest
import yaml

NODE = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n0"},
        "status": {"allocatable": {"cpu": "8", "memory": "16Gi", "pods": "110"}}}


def _template(name: str = "main", restart: str | None = None) -> dict:
    spec: dict = {"containers": [{"name": name, "image": "x", "resources": {"requests": {"cpu": "100m"}}}]}
    if restart:
        spec["restartPolicy"] = restart
    return {"spec": spec}


def _job_set_spec() -> dict:
    return {"replicatedJobs": [{"name": "w", "template": {"spec": {"template": _template(restart="Never")}}}]}


def _ray_cluster_spec() -> dict:
    return {"headGroupSpec": {"template": _template("head")},
            "workerGroupSpecs": [{"groupName": "gpu", "replicas": 1, "template": _template("worker")}]}


# kind -> (object, the path of one pod template's spec in it)
OBJECTS = {
    "LeaderWorkerSet (worker)": (
        {"apiVersion": "leaderworkerset.x-k8s.io/v1", "kind": "LeaderWorkerSet",
         "metadata": {"name": "lws", "namespace": "a"},
         "spec": {"leaderWorkerTemplate": {"size": 2, "workerTemplate": _template()}}},
        ("spec", "leaderWorkerTemplate", "workerTemplate", "spec")),
    "LeaderWorkerSet (leader)": (
        {"apiVersion": "leaderworkerset.x-k8s.io/v1", "kind": "LeaderWorkerSet",
         "metadata": {"name": "lws", "namespace": "a"},
         "spec": {"leaderWorkerTemplate": {"size": 2, "leaderTemplate": _template(), "workerTemplate": _template()}}},
        ("spec", "leaderWorkerTemplate", "leaderTemplate", "spec")),
    "RayCluster (head)": (
        {"apiVersion": "ray.io/v1", "kind": "RayCluster", "metadata": {"name": "rc", "namespace": "a"},
         "spec": _ray_cluster_spec()},
        ("spec", "headGroupSpec", "template", "spec")),
    "RayCluster (worker)": (
        {"apiVersion": "ray.io/v1", "kind": "RayCluster", "metadata": {"name": "rc", "namespace": "a"},
         "spec": _ray_cluster_spec()},
        ("spec", "workerGroupSpecs", 0, "template", "spec")),
    "RayJob (cluster)": (
        {"apiVersion": "ray.io/v1", "kind": "RayJob", "metadata": {"name": "rj", "namespace": "a"},
         "spec": {"entrypoint": "python x.py", "rayClusterSpec": _ray_cluster_spec()}},
        ("spec", "rayClusterSpec", "workerGroupSpecs", 0, "template", "spec")),
    "RayJob (submitter)": (
        {"apiVersion": "ray.io/v1", "kind": "RayJob", "metadata": {"name": "rj", "namespace": "a"},
         "spec": {"entrypoint": "python x.py", "rayClusterSpec": _ray_cluster_spec(),
                  "submitterPodTemplate": _template("submit", restart="Never")}},
        ("spec", "submitterPodTemplate", "spec")),
    "PyTorchJob": (
        {"apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob", "metadata": {"name": "pt", "namespace": "a"},
         "spec": {"pytorchReplicaSpecs": {"Master": {"replicas": 1, "template": _template("pytorch")},
                                          "Worker": {"replicas": 2, "template": _template("pytorch")}}}},
        ("spec", "pytorchReplicaSpecs", "Worker", "template", "spec")),
    "TFJob": (
        {"apiVersion": "kubeflow.org/v1", "kind": "TFJob", "metadata": {"name": "tf", "namespace": "a"},
         "spec": {"tfReplicaSpecs": {"Worker": {"replicas": 2, "template": _template("tensorflow")}}}},
        ("spec", "tfReplicaSpecs", "Worker", "template", "spec")),
    "JobSet": (
        {"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet", "metadata": {"name": "js", "namespace": "a"},
         "spec": _job_set_spec()},
        ("spec", "replicatedJobs", 0, "template", "spec", "template", "spec")),
    "TrainingRuntime": (
        {"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "TrainingRuntime",
         "metadata": {"name": "rt", "namespace": "a"}, "spec": {"template": {"spec": _job_set_spec()}}},
        ("spec", "template", "spec", "replicatedJobs", 0, "template", "spec", "template", "spec")),
    "ClusterTrainingRuntime": (
        {"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "ClusterTrainingRuntime",
         "metadata": {"name": "rt"}, "spec": {"template": {"spec": _job_set_spec()}}},
        ("spec", "template", "spec", "replicatedJobs", 0, "template", "spec", "template", "spec")),
}

# One bad field of a pod spec, and what the API server says about it (relative to the spec)
BAD = {
    "nodeSelector key": ({"nodeSelector": {"disk type": "ssd"}},
                         ['nodeSelector: Invalid value: "disk type": name part must consist of '
                          "alphanumeric characters"]),
    "empty scheduling gate": ({"schedulingGates": [{"name": ""}]},
                              ['schedulingGates[0]: Invalid value: "": name part must be non-empty',
                               'schedulingGates[0]: Invalid value: "": name part must consist of']),
    # not the schema's any more (a missing key is Go's ""): the pod-spec check must see it
    "missing topologyKey": ({"affinity": {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                                {"labelSelector": {"matchLabels": {"app": "x"}}}]}}},
                            ["affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: "
                             "Required value: can not be empty",
                             "affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: "
                             'Invalid value: "": name part must be non-empty',
                             "affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: "
                             'Invalid value: "": name part must consist of']),
    "toleration": ({"tolerations": [{"key": "gpu", "operator": "Exists", "value": "x"}]},
                   ["tolerations[0].operator: Invalid value: \"x\": value must be empty when `operator` is 'Exists'"]),
}


def _at(obj: dict, path: tuple) -> dict:
    for part in path:
        obj = obj[part]
    return obj


def _dotted(path: tuple) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else (f".{p}" if i else p) for i, p in enumerate(path))


@pytest.mark.parametrize("kind", OBJECTS)
def test_valid_operator_templates_load(manifests, kind):
    obj, _ = OBJECTS[kind]
    manifests.write("m.yaml", yaml.safe_dump_all([NODE, obj], sort_keys=False))
    manifests.load("m.yaml")


@pytest.mark.parametrize("bad", BAD)
@pytest.mark.parametrize("kind", OBJECTS)
def test_a_bad_pod_spec_field_in_an_operator_template_is_reported_at_its_path(manifests, kind, bad):
    obj, spec_at = OBJECTS[kind]
    obj = copy.deepcopy(obj)
    change, expected = BAD[bad]
    _at(obj, spec_at).update(copy.deepcopy(change))
    manifests.write("m.yaml", yaml.safe_dump_all([NODE, obj], sort_keys=False))
    got = [p.split(": ", 2)[2] for p in manifests.problems("m.yaml")]
    assert len(got) == len(expected), got
    for line, want in zip(got, expected):
        assert line.startswith(f"{_dotted(spec_at)}.{want}"), (line, want)


def test_a_bad_resource_name_in_a_ray_worker_template(manifests):
    obj = copy.deepcopy(OBJECTS["RayCluster (worker)"][0])
    obj["spec"]["workerGroupSpecs"][0]["template"]["spec"]["containers"][0]["resources"] = {
        "requests": {"gpus": "1"}, "limits": {"gpus": "1"}}
    manifests.write("m.yaml", yaml.safe_dump_all([NODE, obj], sort_keys=False))
    at = "spec.workerGroupSpecs[0].template.spec.containers[0].resources"
    assert [p.split(": ", 2)[2] for p in manifests.problems("m.yaml")] == [
        f'{at}.requests[gpus]: Invalid value: "gpus": must be a standard resource type or fully qualified',
        f'{at}.requests[gpus]: Invalid value: "gpus": must be a standard resource for containers',
        f'{at}.limits[gpus]: Invalid value: "gpus": must be a standard resource type or fully qualified',
        f'{at}.limits[gpus]: Invalid value: "gpus": must be a standard resource for containers',
    ]


def test_templates_that_make_no_pods_are_not_checked(manifests):
    """A RayJob on an existing cluster (clusterSelector) creates no cluster from rayClusterSpec;
    one in HTTPMode creates no submitter pod: their templates reach no API server as pods."""
    bad = {"nodeSelector": {"disk type": "ssd"}}
    on_cluster = copy.deepcopy(OBJECTS["RayJob (cluster)"][0])
    on_cluster["spec"]["clusterSelector"] = {"ray.io/cluster": "shared"}
    on_cluster["spec"]["rayClusterSpec"]["headGroupSpec"]["template"]["spec"].update(bad)
    http = copy.deepcopy(OBJECTS["RayJob (submitter)"][0])
    http["metadata"]["name"] = "rj2"
    http["spec"]["submissionMode"] = "HTTPMode"
    http["spec"]["submitterPodTemplate"]["spec"].update(bad)
    manifests.write("m.yaml", yaml.safe_dump_all([NODE, on_cluster, http], sort_keys=False))
    manifests.load("m.yaml")


def test_a_runtime_jobs_gang_is_left_to_the_train_job(manifests):
    """A training runtime's Job gets its parallelism from the TrainJob (numNodes): a gang minCount
    above the template's own parallelism is not judged on the runtime; a JobSet's Job's is."""
    runtime = copy.deepcopy(OBJECTS["TrainingRuntime"][0])
    job_set = copy.deepcopy(OBJECTS["JobSet"][0])
    for spec in (runtime["spec"]["template"]["spec"], job_set["spec"]):
        spec["replicatedJobs"][0]["template"]["spec"]["scheduling"] = {"schedulingPolicy": {"gang": {"minCount": 4}}}
    manifests.write("m.yaml", yaml.safe_dump_all([NODE, runtime, job_set], sort_keys=False))
    assert [p.split(": ", 1)[1] for p in manifests.problems("m.yaml")] == [
        "JobSet a/js: spec.replicatedJobs[0].template.spec.scheduling.schedulingPolicy.gang.minCount: "
        "Invalid value: 4: must not be greater than parallelism (1)"]
