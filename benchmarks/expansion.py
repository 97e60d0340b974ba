"""Expansion (docs/controllers.md): how fast Jobs become the pods and PodGroups their 1.37
controller would create, and what it adds to a plan.

    python -m benchmarks.expansion [--nodes 1000] [--jobs 500] [--pods-per-job 20]

Builds, as model objects (no loading), `--nodes` nodes of 16 cpu and `--jobs` Indexed gang Jobs
(spec.scheduling gang, parallelism = completions = `--pods-per-job`, 1-cpu pods), then times
`controllers.expand` alone (pods/s) and `plan()` with expansion (which includes it). Prints one
line of figures. Not a test: nothing here fails on time.
"""
from __future__ import annotations

import argparse
import gc
import time

from podgroup_plan.controllers import expand
from podgroup_plan.config.feature_gates import resolve_feature_gates
from podgroup_plan.model.controllers import Controllers, Job, JobScheduling
from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import CPU, GANG, MEMORY, PODS, Node, Pod
from podgroup_plan.planner import plan


def build(nodes: int, jobs: int, pods_per_job: int) -> ClusterInput:
    node_list = tuple(Node(f"node-{i:05d}", {"kubernetes.io/hostname": f"node-{i:05d}"},
                           allocatable={CPU: 16000, MEMORY: 64 << 30, PODS: 110})
                      for i in range(nodes))
    template = Pod("ml", "", requests={CPU: 1000}, non_zero_cpu=1000, non_zero_memory=200 << 20)
    job_list = tuple(Job("ml", f"train-{j:04d}", f"uid-{j:04d}", template, parallelism=pods_per_job,
                         completions=pods_per_job, indexed=True, scheduling=JobScheduling(GANG))
                     for j in range(jobs))
    return ClusterInput(nodes=node_list, controllers=Controllers(jobs=job_list))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=500)
    parser.add_argument("--pods-per-job", type=int, default=20)
    args = parser.parse_args()
    cluster = build(args.nodes, args.jobs, args.pods_per_job)
    gates = resolve_feature_gates(None)
    gc.disable()
    start = time.perf_counter()
    expanded = expand(cluster, gates)
    expand_s = time.perf_counter() - start
    start = time.perf_counter()
    result = plan(cluster, feature_gates=gates)
    plan_s = time.perf_counter() - start
    pods, groups = len(expanded.pods), len(expanded.pod_groups)
    placed = sum(p.status == "Scheduled" for p in result.pods)
    print(f"expansion: {args.jobs} Jobs -> {pods} pods, {groups} PodGroups in {expand_s:.2f} s "
          f"({pods / expand_s:,.0f} pods/s); plan with expansion on {args.nodes} nodes: "
          f"{plan_s:.2f} s, {placed}/{pods} pods scheduled")


if __name__ == "__main__":
    main()
