"""The hierarchical-scheduling benchmark of issue 12: CompositePodGroup trees, zone over rack.

    python -m benchmarks.hierarchy [--zones 50] [--racks 10] [--nodes-per-rack 10] [--trees 200] [--profile]

* 5,000 nodes of 4 cpu / 32Gi in 50 zones of 10 racks (10 nodes a rack), labelled
  `topology.kubernetes.io/zone` and `topology.kubernetes.io/rack`;
* 200 trees: a root CompositePodGroup (gang, minGroupCount 4, zone-constrained) over 4 leaf
  PodGroups (gang, minCount 4, rack-constrained) of 4 pods of 1 cpu each (3,200 pods).

Every candidate at every level is evaluated (v1.37.0 has no percentageOfPlacementsToScore): each
root tries every zone, and inside each zone every leaf tries every rack. The cluster is built as
model objects (no loading) and `plan()` is timed. The plan is then checked: every pod
scheduled, each tree inside one zone, each leaf inside one rack, no node over its cpu. Prints one
line of figures (a Markdown row with --markdown). The target (2 cores): the plan in at most 20 s.
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time

from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import GANG, CompositePodGroup, Node, Pod, PodGroup
from podgroup_plan.planner import plan

NS = "default"
API = "scheduling.k8s.io/v1alpha3"
ZONE, RACK = "topology.kubernetes.io/zone", "topology.kubernetes.io/rack"
TARGET_S = 20.0
Gi = 2**30


def _ts(i: int) -> str:
    return f"2026-01-01T{i // 3600 % 24:02d}:{i // 60 % 60:02d}:{i % 60:02d}Z"


def cluster(zones: int = 50, racks: int = 10, per_rack: int = 10, trees: int = 200,
            leaves: int = 4, pods_per_leaf: int = 4) -> ClusterInput:
    nodes = []
    for z in range(zones):
        for r in range(racks):
            for n in range(per_rack):
                name = f"node-{z:02d}-{r:02d}-{n:02d}"
                nodes.append(Node(name=name, labels={"kubernetes.io/hostname": name, ZONE: f"zone-{z:02d}",
                                                     RACK: f"zone-{z:02d}-rack-{r:02d}"},
                                  allocatable={"cpu": 4000, "memory": 32 * Gi, "pods": 110}))
    composites, groups, pods = [], [], []
    stamp = 0
    for t in range(trees):
        root = f"job-{t:03d}"
        composites.append(CompositePodGroup(NS, root, API, GANG, min_group_count=leaves, topology_key=ZONE,
                                            workload_name=root, creation_timestamp=_ts(stamp)))
        stamp += 1
        for leaf in range(leaves):
            name = f"{root}-role-{leaf}"
            groups.append(PodGroup(NS, name, API, GANG, min_count=pods_per_leaf, topology_key=RACK,
                                   workload_name=root, parent=root, creation_timestamp=_ts(stamp)))
            stamp += 1
            for p in range(pods_per_leaf):
                pods.append(Pod(namespace=NS, name=f"{name}-{p}", pod_group=name,
                                requests={"cpu": 1000, "memory": 2 * Gi}, non_zero_cpu=1000, non_zero_memory=2 * Gi,
                                creation_timestamp=_ts(stamp)))
    return ClusterInput(nodes=tuple(nodes), pods=tuple(pods), pod_groups=tuple(groups),
                        composite_pod_groups=tuple(composites))


def verify(c: ClusterInput, result) -> list[str]:
    problems = []
    node_labels = {n.name: n.labels for n in c.nodes}
    used: dict[str, int] = {}
    zone_of: dict[str, set] = {}
    rack_of: dict[str, set] = {}
    parent = {g.name: g.parent for g in c.pod_groups}
    for p in result.pods:
        if p.status != "Scheduled":
            problems.append(f"{p.name} {p.status}")
            continue
        used[p.node] = used.get(p.node, 0) + 1000
        zone_of.setdefault(parent[p.pod_group], set()).add(node_labels[p.node][ZONE])
        rack_of.setdefault(p.pod_group, set()).add(node_labels[p.node][RACK])
    problems += [f"{n} over cpu" for n, u in used.items() if u > 4000]
    problems += [f"tree {t} spans zones {sorted(z)}" for t, z in zone_of.items() if len(z) > 1]
    problems += [f"leaf {g} spans racks {sorted(r)}" for g, r in rack_of.items() if len(r) > 1]
    problems += [f"tree {c.name} {c.status}" for c in result.composite_pod_groups if c.status != "Scheduled"]
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--zones", type=int, default=50)
    ap.add_argument("--racks", type=int, default=10)
    ap.add_argument("--nodes-per-rack", type=int, default=10)
    ap.add_argument("--trees", type=int, default=200)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args(argv)
    c = cluster(args.zones, args.racks, args.nodes_per_rack, args.trees)
    profiler = cProfile.Profile() if args.profile else None
    wall, cpu = time.perf_counter(), time.process_time()
    if profiler:
        profiler.enable()
    result = plan(c)
    if profiler:
        profiler.disable()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    problems = verify(c, result)
    verdict = "met" if wall <= TARGET_S and not problems else "missed"
    if args.markdown:
        print(f"| hierarchy-{len(c.nodes)}-{args.trees} | {len(c.nodes):,} | {args.zones}x{args.racks} | {args.trees} "
              f"| {len(c.pods):,} | {wall:.2f} | {cpu:.2f} | plan <= {TARGET_S:.0f} s | {verdict} |")
    else:
        print(f"nodes={len(c.nodes)} zones={args.zones} racks/zone={args.racks} trees={args.trees} pods={len(c.pods)} "
              f"plan_s={wall:.2f} plan_cpu_s={cpu:.2f} target<= {TARGET_S:.0f}s verdict={verdict}")
    for p in problems[:10]:
        print("  problem:", p)
    if profiler:
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("cumulative").print_stats(30)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
