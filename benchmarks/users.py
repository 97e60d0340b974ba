"""Inputs shaped like users' clusters (issue 24): GPU traces, backlogs, workload-aware preemption.

A `Case` whose `generator` names one of the functions below gets its documents from here
instead of the scheduler_perf templates of `benchmarks.generate` (same files, same runner,
same `cluster_input`). Every generator is deterministic (no random numbers: patterns of the
index) and writes the fields the planner reads, as the API server returns them.

* `gpu-trace`: a cluster shaped like Alibaba's public GPU trace (`openb`, the one the FGD
  paper schedules: 1,213 nodes, 8,152 pending pods, 7 GPU models). Nodes of 1, 2, 4 or 8
  GPUs (`nvidia.com/gpu`) of one of 7 models (label `nvidia.com/gpu.product`), with cpu and
  memory in proportion; pending pods CPU-only, fractional-GPU (asked for as one whole GPU, as
  the default device plugin exposes them), 1-GPU and multi-GPU (2, 4 or 8) in the proportions
  13 / 38 / 48 / 1 %, a quarter of the GPU pods pinned to a model by `nodeSelector`. More GPUs
  are asked for than the cluster has, all at one priority, so about one pod in seven stays
  pending and runs DefaultPreemption's PostFilter with nothing it may evict.
* `backlog`: pods of one priority in four shapes (500m to 2 cpu) on nodes sized so that the
  pods ask for `backlog_ratio` times what the cluster holds (by cpu). `backlog_ratio` 1.0
  makes everything fit; 1.1, 1.5, 3.0 leave 10 %, 50 %, 200 % of capacity unschedulable.
  With `backlog_ratio` 0, every pod is the case's own shape (`pod_cpu_m`, `pod_memory`: the
  100m pods of the 200-node case) on nodes of the case's `node_cpu_m` / `node_memory`.
* `wap`: workload-aware preemption: `nodes` nodes each running one low-priority pod (3 of
  4 cpu), and one high-priority gang of `gang_size` pods of 2 cpu (minCount = size) that fits
  only by evicting one pod per node it uses.
"""
from __future__ import annotations

from typing import Iterator

from benchmarks.cases import Case, Gi, Mi

GPU = "nvidia.com/gpu"
GPU_PRODUCT_LABEL = "nvidia.com/gpu.product"
# (model, share of the nodes in 1/100): 7 models, as in the trace
GPU_MODELS = (("Tesla-V100-SXM2-16GB", 22), ("Tesla-V100-SXM2-32GB", 18), ("Tesla-T4", 16),
              ("Tesla-P100-PCIE-16GB", 12), ("A10", 14), ("Tesla-A100-SXM4-80GB", 10), ("H800", 8))
# GPUs per node, in a 20-node pattern: 10 x 8, 3 x 4, 4 x 2, 3 x 1 (5.15 GPUs a node)
GPU_COUNT_PATTERN = (8, 2, 8, 1, 4, 8, 2, 8, 8, 1, 4, 2, 8, 8, 1, 4, 8, 2, 8, 8)
# pod kinds in a 100-pod pattern: 13 CPU-only, 38 fractional, 48 one GPU, 1 multi-GPU
CPU_ONLY, FRACTIONAL, ONE_GPU, MULTI_GPU = "cpu", "frac", "one", "multi"


def _pod_kind(j: int) -> str:
    r = (j * 37) % 100  # 37 is prime to 100: every residue once per 100 pods, interleaved
    if r < 13:
        return CPU_ONLY
    if r < 51:
        return FRACTIONAL
    if r < 99:
        return ONE_GPU
    return MULTI_GPU


def gpu_model(i: int) -> str:
    r = (i * 41) % 100
    for model, share in GPU_MODELS:
        if r < share:
            return model
        r -= share
    return GPU_MODELS[-1][0]


def gpus_of_node(i: int) -> int:
    return GPU_COUNT_PATTERN[i % len(GPU_COUNT_PATTERN)]


# ----- documents --------------------------------------------------------------------------


def _node(name: str, labels: dict, allocatable: dict) -> dict:
    resources = {k: str(v) for k, v in allocatable.items()}
    return {"apiVersion": "v1", "kind": "Node",
            "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name, **labels}},
            "spec": {}, "status": {"capacity": dict(resources), "allocatable": resources}}


def _pod(name: str, created: int, requests: dict, priority: int = 0, node: str | None = None,
         group: str | None = None, labels: dict | None = None, node_selector: dict | None = None) -> dict:
    from benchmarks.generate import NAMESPACE, PAUSE_IMAGE, timestamp

    # an extended resource (nvidia.com/gpu) needs a limit equal to its request, as the API
    # server requires (validateResourceRequirements: not overcommitable)
    extended = {k: v for k, v in requests.items() if "/" in k and "kubernetes.io/" not in k}
    resources: dict = {"requests": requests, **({"limits": extended} if extended else {})}
    spec: dict = {"containers": [{"name": "main", "image": PAUSE_IMAGE, "resources": resources}]}
    if priority:
        spec["priority"] = priority
    if node is not None:
        spec["nodeName"] = node
    if group is not None:
        spec["schedulingGroup"] = {"podGroupName": group}
    if node_selector:
        spec["nodeSelector"] = node_selector
    meta: dict = {"name": name, "namespace": NAMESPACE, "creationTimestamp": timestamp(created)}
    if labels:
        meta["labels"] = labels
    status: dict = {"phase": "Pending" if node is None else "Running"}
    if node is not None:
        status["startTime"] = timestamp(created)
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec, "status": status}


def _zone_rack(case: Case, i: int) -> dict:
    return {"topology.kubernetes.io/zone": f"zone-{i // case.nodes_per_zone}",
            "topology.kubernetes.io/rack": f"rack-{i // case.nodes_per_rack}"}


def gpu_trace(case: Case) -> dict[str, Iterator[dict]]:
    def nodes():
        for i in range(case.nodes):
            gpus = gpus_of_node(i)
            labels = {**_zone_rack(case, i), GPU_PRODUCT_LABEL: gpu_model(i)}
            yield _node(f"gpu-node-{i:05d}", labels,
                        {"cpu": 8 + 12 * gpus, "memory": f"{64 + 96 * gpus}Gi", "pods": 110, GPU: gpus})

    def pods():
        for j in range(case.pending_pods):
            kind = _pod_kind(j)
            selector = None
            if kind == CPU_ONLY:
                requests = {"cpu": f"{1 + j % 8}", "memory": f"{2 + 2 * (j % 8)}Gi"}
            elif kind == FRACTIONAL:
                requests = {"cpu": f"{2 + j % 3}", "memory": f"{8 + 4 * (j % 3)}Gi", GPU: "1"}
            elif kind == ONE_GPU:
                requests = {"cpu": f"{4 + j % 5}", "memory": f"{16 + 8 * (j % 5)}Gi", GPU: "1"}
            else:
                gpus = (2, 4, 8)[j % 3]
                requests = {"cpu": f"{6 * gpus}", "memory": f"{40 * gpus}Gi", GPU: str(gpus)}
            if kind != CPU_ONLY and j % 4 == 1:
                selector = {GPU_PRODUCT_LABEL: gpu_model(j // 4)}
            yield _pod(f"job-{j:06d}", j, requests, labels={"app": f"job-{j % 200}", "kind": kind},
                       node_selector=selector)

    return {"nodes": nodes(), "pods-pending": pods()}


# Four pod shapes for a backlog: (cpu millicores, memory)
BACKLOG_SHAPES = ((500, 1 * Gi), (1000, 2 * Gi), (1500, 3 * Gi), (1000, 4 * Gi))


def backlog_node_cpu_m(case: Case) -> int:
    """Node cpu such that the pods ask for `backlog_ratio` times the cluster's cpu (rounded to
    whole 250m), or the case's `node_cpu_m` for single-shape backlogs."""
    if case.backlog_ratio == 0:
        return case.node_cpu_m
    asked = sum(BACKLOG_SHAPES[j % len(BACKLOG_SHAPES)][0] for j in range(case.pending_pods))
    per_node = asked / case.backlog_ratio / case.nodes
    return max(250, int(round(per_node / 250)) * 250)


def backlog(case: Case) -> dict[str, Iterator[dict]]:
    single = case.backlog_ratio == 0
    node_cpu = backlog_node_cpu_m(case)
    node_memory = case.node_memory if single else 4 * node_cpu * Mi * 1024 // 1000

    def nodes():
        for i in range(case.nodes):
            yield _node(f"node-{i:05d}", _zone_rack(case, i),
                        {"cpu": f"{node_cpu}m", "memory": str(node_memory), "pods": case.node_pods})

    def pods():
        for j in range(case.pending_pods):
            if single:
                cpu, memory = case.pod_cpu_m, case.pod_memory
            else:
                cpu, memory = BACKLOG_SHAPES[j % len(BACKLOG_SHAPES)]
            yield _pod(f"pod-{j:06d}", j, {"cpu": f"{cpu}m", "memory": str(memory)},
                       priority=case.pending_priority, labels={"app": f"app-{j % 50}"})

    return {"nodes": nodes(), "pods-pending": pods()}


def wap(case: Case) -> dict[str, Iterator[dict]]:
    from benchmarks.generate import NAMESPACE, PODGROUP_API_VERSION, timestamp

    def nodes():
        for i in range(case.nodes):
            yield _node(f"node-{i:05d}", _zone_rack(case, i), {"cpu": 4, "memory": "32Gi", "pods": 110})

    def running():
        for i in range(case.nodes):
            yield _pod(f"low-{i:05d}", i, {"cpu": "3", "memory": "4Gi"}, priority=case.running_priority,
                       node=f"node-{i:05d}", labels={"app": "batch"})

    def pending():
        for k in range(case.gang_size):
            yield _pod(f"train-{k:05d}", case.nodes, {"cpu": "2", "memory": "4Gi"},
                       priority=case.gang_priority, group="train", labels={"app": "train"})

    def groups():
        yield {"apiVersion": PODGROUP_API_VERSION, "kind": "PodGroup",
               "metadata": {"name": "train", "namespace": NAMESPACE, "creationTimestamp": timestamp(case.nodes)},
               "spec": {"schedulingPolicy": {"gang": {"minCount": case.gang_size}},
                        "priority": case.gang_priority}}

    return {"nodes": nodes(), "pods-running": running(), "pods-pending": pending(), "podgroups": groups()}


GENERATORS = {"gpu-trace": gpu_trace, "backlog": backlog, "wap": wap}


def documents(case: Case) -> dict[str, Iterator[dict]]:
    return GENERATORS[case.generator](case)
