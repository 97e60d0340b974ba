"""`what-if --each rack` at scale: 5,000 nodes in 500 racks of 10 (8 GPUs each, 50 zones),
2,000 running gangs of two 8-GPU pods (a gang holds two nodes of one rack; 4,000 of the 5,000
nodes are busy), each gang a Job that is not in the input (a `kubectl get pods` dump), so a
failed rack's pods are recreated pending and must find two free nodes elsewhere.

    python -m benchmarks.what_if [--nodes 5000] [--executor serial|processes|ray] [--workers 2] [--limit N]

prints the sweep's wall and CPU seconds (this process and its children), scenarios per second,
and the pickled size of the shared input (what the process pool and Ray's object store carry).
"""
from __future__ import annotations

import argparse
import os
import pickle
import resource
import sys
import time

from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import Condition, Node, OwnerReference, Pod, PodGroup

RACK = "topology.example.com/rack"
ZONE = "topology.kubernetes.io/zone"
GPU = "nvidia.com/gpu"
T0 = "2026-05-01T10:00:00Z"


def cluster(nodes: int = 5000, rack_size: int = 10, gangs: int | None = None) -> ClusterInput:
    racks = nodes // rack_size
    gangs = (nodes * 2 // 5) if gangs is None else gangs  # 2,000 at 5,000 nodes
    node_objs = []
    for i in range(nodes):
        rack = i // rack_size
        name = f"gpu-{i:05d}"
        node_objs.append(Node(
            name=name,
            labels={"kubernetes.io/hostname": name, RACK: f"r{rack:03d}", ZONE: f"z{rack * 50 // racks:02d}"},
            allocatable={"cpu": 96000, "memory": 1024 * 2**30, "pods": 110, GPU: 8}))
    pods, groups = [], []
    # gangs fill racks from the first: gang g on nodes 2g, 2g+1 (every rack holds five gangs)
    for g in range(gangs):
        job = f"train-{g:04d}"
        groups.append(PodGroup(
            namespace="ml", name=job, api_version="scheduling.k8s.io/v1beta1", policy="Gang", min_count=2,
            creation_timestamp=T0,
            conditions=(Condition("PodGroupInitiallyScheduled", "True", "Scheduled", ""),)))
        for k in range(2):
            pods.append(Pod(
                namespace="ml", name=f"{job}-{k}-abcde", labels={"job-name": job},
                node_name=f"gpu-{2 * g + k:05d}", requests={"cpu": 8000, "memory": 64 * 2**30, GPU: 8},
                non_zero_cpu=8000, non_zero_memory=64 * 2**30, pod_group=job, creation_timestamp=T0,
                start_time=T0, phase="Running", owner_references=(OwnerReference("Job", job, True),)))
    return ClusterInput(nodes=tuple(node_objs), pods=tuple(sorted(pods, key=lambda p: p.name)),
                        pod_groups=tuple(groups), namespaces={"ml": {}})


def main(argv: list[str] | None = None) -> int:
    from podgroup_plan.analyses.what_if import executors
    from podgroup_plan.analyses.what_if.changes import FAIL
    from podgroup_plan.analyses.what_if.sweep import PlanEach, Sweep, assemble, each_value, with_base

    ap = argparse.ArgumentParser(prog="python -m benchmarks.what_if")
    ap.add_argument("--nodes", type=int, default=5000)
    ap.add_argument("--executor", default="processes", choices=executors.EXECUTORS)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--limit", type=int, default=None, help="only the first N racks")
    args = ap.parse_args(argv)

    t0, c0 = time.perf_counter(), time.process_time()
    ci = cluster(args.nodes)
    scenarios = tuple(each_value(ci, RACK, FAIL))[: args.limit]
    sweep = with_base(Sweep(ci, scenarios), PlanEach()())
    t1, c1 = time.perf_counter(), time.process_time()
    setup = (t1 - t0, c1 - c0)
    size = len(pickle.dumps((sweep, PlanEach()), protocol=pickle.HIGHEST_PROTOCOL))
    started = None
    if args.executor == executors.RAY:  # Ray's start-up measured apart from the sweep
        import ray

        r0 = time.perf_counter()
        ray.init(num_cpus=args.workers, include_dashboard=False, log_to_driver=False)
        started = time.perf_counter() - r0
        t1, c1 = time.perf_counter(), time.process_time()
    rows = executors.run(sweep, PlanEach(), args.executor, args.workers)
    doc = assemble(sweep, rows)
    t2, c2 = time.perf_counter(), time.process_time()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    errors = [r for r in rows if r["error"]]
    print(f"nodes={args.nodes} scenarios={len(rows)} executor={args.executor} workers={args.workers} "
          f"load={os.getloadavg()[0]:.1f}")
    print(f"set-up (input + base plan): {setup[0]:.2f} s wall, {setup[1]:.2f} s cpu")
    print(f"sweep: {t2 - t1:.2f} s wall, {c2 - c1:.2f} s cpu here + "
          f"{children.ru_utime + children.ru_stime:.2f} s cpu in workers; "
          f"{len(rows) / max(t2 - t1, 1e-9):.1f} scenarios/s")
    if started is not None:
        import ray

        s0 = time.perf_counter()
        ray.shutdown()
        print(f"Ray: local start-up {started:.2f} s wall (ray.init, {args.workers} CPUs), shut-down "
              f"{time.perf_counter() - s0:.2f} s wall; the sweep's figures above exclude both")
    print(f"shared input pickled: {size / 2**20:.1f} MiB; errors: {len(errors)}; "
          f"worst: {doc['ranking'][0] if doc['ranking'] else None}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
