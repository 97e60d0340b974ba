"""A cluster with the names real clusters have, for the table tests: GKE node names
(`gke-prod-a3-mega-pool-1-08c9c093-2dad`, 37 characters) in two zones and four GCE topology
blocks, EKS node names (`ip-10-0-12-34.us-west-2.compute.internal`, 40), namespaces of 17 to 23
characters, Jobs whose PodGroups get the Job controller's generated names, a 40-pod gang that does
not fit, a gang that evicts a ReplicaSet's running notebooks, and a 60-replica Deployment of which
54 pods do not fit. `write(folder)` puts it in one YAML file; the names are fixed (hashes of fixed
strings), so the snapshots made from it are stable."""
from __future__ import annotations

import hashlib
from pathlib import Path

import yaml

NAMESPACE = "research-infrastructure"
ZONES = ("us-central1-a", "us-central1-b")


def _hex(text: str, n: int = 8) -> str:
    return hashlib.sha1(text.encode()).hexdigest()[:n]


def _node(name: str, labels: dict, gpus: int = 8, cpu: str = "200", taints=None) -> dict:
    alloc = {"cpu": cpu, "memory": "1800Gi", "pods": "110"}
    if gpus:
        alloc["nvidia.com/gpu"] = str(gpus)
    node = {"apiVersion": "v1", "kind": "Node",
            "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name, **labels}}}
    if taints:
        node["spec"] = {"taints": taints}
    node["status"] = {"allocatable": alloc, "capacity": alloc}
    return node


def gke_nodes() -> list[tuple[str, str, str]]:
    """(name, zone, block) of the 24 GPU nodes."""
    out = []
    for z, zone in enumerate(ZONES):
        for b in range(2):
            for i in range(6):
                name = f"gke-prod-a3-mega-pool-{z + 1}-{_hex(zone + str(b))}-{_hex(str(i) + zone + str(b), 4)}"
                out.append((name, zone, f"block-{zone[-1]}{b}"))
    return out


def eks_nodes() -> list[str]:
    return [f"ip-10-0-{12 + i}-{34 + i * 7}.us-west-2.compute.internal" for i in range(4)]


def _job(name: str, namespace: str, n: int, gpus: int, topology: str | None = None,
         priority_class: str | None = None) -> dict:
    resources = {"requests": {"cpu": "8", "nvidia.com/gpu": str(gpus)}, "limits": {"nvidia.com/gpu": str(gpus)}}
    template: dict = {"spec": {"restartPolicy": "Never",
                               "containers": [{"name": "trainer", "image": "trainer:1", "resources": resources}]}}
    if priority_class:
        template["spec"]["priorityClassName"] = priority_class
    scheduling: dict = {"schedulingPolicy": {"gang": {}}}
    if topology:
        scheduling["schedulingConstraints"] = {"topology": [{"key": topology}]}
    uid = f"0000{_hex(name, 4)}-0000-4000-8000-{_hex(name + 'x', 12)}"
    return {"apiVersion": "batch/v1", "kind": "Job",
            "metadata": {"name": name, "namespace": namespace, "uid": uid,
                         "creationTimestamp": "2026-06-01T08:00:00Z"},
            "spec": {"parallelism": n, "completions": n, "completionMode": "Indexed",
                     "scheduling": scheduling, "template": template}}


def documents() -> list[dict]:
    docs = [_node(name, {"topology.kubernetes.io/region": "us-central1", "topology.kubernetes.io/zone": zone,
                         "cloud.google.com/gce-topology-block": block})
            for name, zone, block in gke_nodes()]
    docs += [_node(name, {"topology.kubernetes.io/zone": "us-west-2a", "eks.amazonaws.com/nodegroup": "cpu-pool"},
                   gpus=0, cpu="16",
                   taints=[{"key": "node.kubernetes.io/unreachable", "effect": "NoSchedule"}] if i == 0 else None)
             for i, name in enumerate(eks_nodes())]
    docs.append({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
                 "metadata": {"name": "research-urgent"}, "value": 100000})
    docs.append(_job("giant-pretrain", NAMESPACE, 40, 8))
    docs.append(_job("nccl-allreduce-rack-benchmark", "perf-benchmarking", 6, 8,
                     topology="cloud.google.com/gce-topology-block"))
    docs.append(_job("multi-zone-finetune", NAMESPACE, 14, 8))
    docs.append(_job("urgent-eval", NAMESPACE, 6, 8, topology="cloud.google.com/gce-topology-block",
                     priority_class="research-urgent"))
    rs = "notebook-servers-7d9f8c6b5d"
    for name, _, _ in gke_nodes():
        for j in range(2):
            docs.append({
                "apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": f"{rs}-{_hex(name + str(j), 5)}", "namespace": "data-science-notebooks",
                             "labels": {"app": "notebook"},
                             "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": rs,
                                                  "uid": "rs-uid", "controller": True}]},
                "spec": {"nodeName": name, "containers": [{"name": "nb", "image": "jupyter:1", "resources": {
                    "requests": {"cpu": "2", "nvidia.com/gpu": "4"}, "limits": {"nvidia.com/gpu": "4"}}}]},
                "status": {"phase": "Running", "startTime": "2026-06-01T07:00:00Z"}})
    docs.append({"apiVersion": "apps/v1", "kind": "Deployment",
                 "metadata": {"name": "embedding-inference", "namespace": "search-ranking-online"},
                 "spec": {"replicas": 60, "selector": {"matchLabels": {"app": "embed"}},
                          "template": {"metadata": {"labels": {"app": "embed"}},
                                       "spec": {"nodeSelector": {"eks.amazonaws.com/nodegroup": "cpu-pool"},
                                                "containers": [{"name": "srv", "image": "embed:3",
                                                                "resources": {"requests": {"cpu": "6"}}}]}}}})
    return docs


def write(folder: Path) -> Path:
    path = folder / "cluster.yaml"
    path.write_text(yaml.safe_dump_all(documents(), sort_keys=False), encoding="utf-8")
    return path


def write_workload(folder: Path) -> Path:
    """A two-pod gang of 4 GPUs each, for `headroom --workload`."""
    job = _job("eight-gpu-probe", NAMESPACE, 2, 4)
    path = folder / "workload.yaml"
    path.write_text(yaml.safe_dump(job, sort_keys=False), encoding="utf-8")
    return path
