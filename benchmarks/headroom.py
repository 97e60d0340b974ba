"""`headroom` at scale: 100 copies of an 8-pod gang (one GPU each, a rack constraint) on 5,000
8-GPU nodes in 500 racks, and `--exact` on 500 nodes with 50 copies: of that gang on empty
nodes (the optimum is --max), and of a rack-constrained gang of two 6-GPU and two 2-GPU pods
on nodes whose GPUs running pods hold in part (the optimum is below --max: CP-SAT must prove
it).

    python -m benchmarks.headroom [--nodes 5000] [--copies 100] [--exact-nodes 500] [--exact-copies 50]

prints wall and CPU seconds for the greedy count (one Planner, copies tried and kept or taken
back through its tentative scope) and for CP-SAT.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import Node, Pod, PodGroup

RACK = "topology.example.com/rack"
ZONE = "topology.kubernetes.io/zone"
GPU = "nvidia.com/gpu"


def cluster(nodes: int) -> ClusterInput:
    out = []
    for i in range(nodes):
        name = f"gpu-{i:05d}"
        out.append(Node(name=name, labels={"kubernetes.io/hostname": name, RACK: f"r{i // 10:03d}",
                                           ZONE: f"z{i * 10 // nodes}"},
                        allocatable={"cpu": 96000, "memory": 1024 * 2**30, "pods": 110, GPU: 8}))
    return ClusterInput(nodes=tuple(out), namespaces={"ml": {}})


def fragmented(nodes: int) -> ClusterInput:
    """`cluster(nodes)` with a running pod on most nodes holding 2-8 of its 8 GPUs (a pattern
    that repeats every 7 nodes), so that what is left is scattered: the case where the greedy
    order and the optimum can differ and CP-SAT must prove its bound, not meet --max."""
    base = cluster(nodes)
    pods = []
    for i, n in enumerate(base.nodes):
        used = (i * 3) % 7 + 2 if i % 20 else 0
        if used:
            pods.append(Pod(namespace="ml", name=f"busy-{i:05d}", node_name=n.name, phase="Running",
                            requests={"cpu": 1000, GPU: used}, non_zero_cpu=1000, non_zero_memory=200 * 2**20,
                            creation_timestamp="2026-05-01T09:00:00Z", start_time="2026-05-01T09:00:00Z"))
    return ClusterInput(nodes=base.nodes, pods=tuple(pods), namespaces={"ml": {}})


def mixed_gang() -> ClusterInput:
    """Two pods of 6 GPUs and two of 2, in one rack."""
    group = PodGroup(namespace="ml", name="pair", api_version="scheduling.k8s.io/v1beta1", policy="Gang",
                     min_count=4, topology_key=RACK, creation_timestamp="2026-05-01T10:00:00Z")
    members = tuple(Pod(namespace="ml", name=f"pair-{i}", pod_group="pair", requests={"cpu": 2000, GPU: g},
                        non_zero_cpu=2000, non_zero_memory=200 * 2**20, creation_timestamp="2026-05-01T10:00:00Z")
                    for i, g in enumerate((6, 6, 2, 2)))
    return ClusterInput(pods=members, pod_groups=(group,))


def gang(pods: int = 8, gpus: int = 1) -> ClusterInput:
    group = PodGroup(namespace="ml", name="train", api_version="scheduling.k8s.io/v1beta1", policy="Gang",
                     min_count=pods, topology_key=RACK, creation_timestamp="2026-05-01T10:00:00Z")
    members = tuple(Pod(namespace="ml", name=f"train-{i}", pod_group="train", requests={"cpu": 4000, GPU: gpus},
                        non_zero_cpu=4000, non_zero_memory=200 * 2**20, creation_timestamp="2026-05-01T10:00:00Z")
                    for i in range(pods))
    return ClusterInput(pods=members, pod_groups=(group,))


def main(argv: list[str] | None = None) -> int:
    from podgroup_plan.analyses.headroom.greedy import Template
    from podgroup_plan.analyses.headroom.report import Question, headroom
    from podgroup_plan.planner import Planner

    ap = argparse.ArgumentParser(prog="python -m benchmarks.headroom")
    ap.add_argument("--nodes", type=int, default=5000)
    ap.add_argument("--copies", type=int, default=100)
    ap.add_argument("--exact-nodes", type=int, default=500)
    ap.add_argument("--exact-copies", type=int, default=50)
    args = ap.parse_args(argv)
    tpl = Template(gang(), "PodGroup", "ml", "train")
    pair = Template(mixed_gang(), "PodGroup", "ml", "pair")
    for label, nodes, copies, exact in (("greedy", args.nodes, args.copies, False),
                                        ("exact", args.exact_nodes, args.exact_copies, True),
                                        ("exact, fragmented", args.exact_nodes, args.exact_copies, True)):
        ci = fragmented(nodes) if "fragmented" in label else cluster(nodes)
        tpl = pair if "fragmented" in label else tpl
        w0, c0 = time.perf_counter(), time.process_time()
        doc = headroom(Planner(ci), Question((tpl,), max_copies=copies), exact=exact)
        w1, c1 = time.perf_counter(), time.process_time()
        extra = ""
        if exact:
            e = doc["exact"]
            extra = (f"; CP-SAT {e['status']} {e['fits']} copies (bound {e['bestBound']}) in "
                     f"{e['wallSeconds']:.2f} s wall, {e['leftOnTheTable']} left on the table by the greedy order")
        print(f"{label}: {nodes} nodes, {doc['fits']} of {copies} copies fit: {w1 - w0:.2f} s wall, "
              f"{c1 - c0:.2f} s cpu (load {os.getloadavg()[0]:.1f}){extra}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
