"""The preemption benchmark of issue 13: a cluster full of low-priority work, high-priority gangs
that fit only by evicting some of it.

    python -m benchmarks.preemption [--nodes 5000] [--gangs 500] [--profile]

* 5,000 nodes of 4 cpu / 32Gi, every one full with four 1-cpu priority-0 pods: on even nodes
  single pods (one in 40 labelled for one of 50 PodDisruptionBudgets that allow one disruption
  each), on odd nodes the members of running gangs of 4 (one member per node on four odd nodes
  in a row; every other gang has disruptionMode `all`, so evicting one member evicts all four);
* 500 pending gangs of 4 pods of 2 cpu at priority 1000 (minCount 4): no node has room, so each
  gang runs workload-aware preemption, is nominated, and binds in the next pass.

The cluster is built as model objects (no loading) and the plan is timed as `plan()` runs it,
evictions included. The plan is then checked (`benchmarks.verify`): no node over allocatable,
no gang partly placed, every victim of lower priority than its preemptor, every `all` gang
evicted whole or not at all. Prints one line of figures (or a Markdown row with --markdown).
The target (2 cores): the plan in at most 30 s.
"""
from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import sys
import time

from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import (
    DISRUPTION_ALL,
    DISRUPTION_SINGLE,
    GANG,
    Node,
    Pod,
    PodDisruptionBudget,
    PodGroup,
)
from podgroup_plan.model.selectors import LabelSelector
from podgroup_plan.planner import plan

NS = "default"
API = "scheduling.k8s.io/v1beta1"
TARGET_S = 30.0
Gi = 2**30


def _ts(i: int) -> str:
    return f"2026-01-01T{i // 3600 % 24:02d}:{i // 60 % 60:02d}:{i % 60:02d}Z"


def cluster(nodes: int = 5000, gangs: int = 500, pdbs: int = 50) -> ClusterInput:
    node_objs = tuple(
        Node(name=f"node-{i:05d}", labels={"kubernetes.io/hostname": f"node-{i:05d}"},
             allocatable={"cpu": 4000, "memory": 32 * Gi, "pods": 110})
        for i in range(nodes)
    )
    low = {"cpu": 1000, "memory": 2 * Gi}
    pods: list[Pod] = []
    groups: list[PodGroup] = []
    single = 0
    for i in range(0, nodes, 2):  # even nodes: single pods
        for k in range(4):
            labels = {"app": "batch"}
            if single % 40 == 0:
                labels["protected"] = f"p{single // 40 % pdbs}"
            pods.append(Pod(NS, f"single-{single:06d}", labels=labels, node_name=f"node-{i:05d}",
                            requests=low, non_zero_cpu=1000, non_zero_memory=2 * Gi, phase="Running",
                            start_time=_ts(single % 3600)))
            single += 1
    odd = list(range(1, nodes, 2))
    g = 0
    for start in range(0, len(odd) - 3, 4):  # running gangs: 4 rows of 4 odd nodes each
        for row in range(4):
            name = f"running-{g:05d}"
            groups.append(PodGroup(NS, name, API, GANG, min_count=4,
                                   disruption_mode=DISRUPTION_ALL if g % 2 else DISRUPTION_SINGLE,
                                   creation_timestamp=_ts(0)))
            for m in range(4):
                pods.append(Pod(NS, f"{name}-{m}", labels={"app": "etl"}, node_name=f"node-{odd[start + m]:05d}",
                                requests=low, non_zero_cpu=1000, non_zero_memory=2 * Gi, phase="Running",
                                pod_group=name, start_time=_ts(g % 3600)))
            g += 1
    high = {"cpu": 2000, "memory": 4 * Gi}
    for j in range(gangs):
        name = f"job-{j:05d}"
        groups.append(PodGroup(NS, name, API, GANG, min_count=4, priority=1000,
                               creation_timestamp=_ts(j % 3600)))
        for m in range(4):
            pods.append(Pod(NS, f"{name}-{m}", labels={"app": "train"}, requests=high, non_zero_cpu=2000,
                            non_zero_memory=4 * Gi, priority=1000, pod_group=name,
                            creation_timestamp=_ts(j % 3600)))
    budgets = tuple(
        PodDisruptionBudget(NS, f"pdb-{b:02d}", LabelSelector((("protected", f"p{b}"),)), disruptions_allowed=1)
        for b in range(pdbs)
    )
    return ClusterInput(nodes=node_objs, pods=tuple(sorted(pods, key=lambda p: p.key)),
                        pod_groups=tuple(sorted(groups, key=lambda x: x.key)), pod_disruption_budgets=budgets)


def check(c: ClusterInput, result) -> list[str]:
    """What is wrong with the plan, beyond `benchmarks.verify`'s capacity and gang checks."""
    from benchmarks.verify import problems

    out = problems(c, result, expect_all_scheduled=False)
    priority = {p.name: p.priority for p in c.pods}
    group_priority = {g.name: g.priority for g in c.pod_groups}
    victims = {v.name for v in result.victims}
    for v in result.victims:
        pre = group_priority.get(v.preemptor.name) if v.preemptor.kind == "PodGroup" else priority[v.preemptor.name]
        if not (pre is not None and priority[v.name] < pre):
            out.append(f"victim {v.name} (priority {priority[v.name]}) of {v.preemptor.name} ({pre})")
    for g in c.pod_groups:
        if g.disruption_mode == DISRUPTION_ALL:
            members = {p.name for p in c.pods if p.pod_group == g.name}
            if members & victims and not members <= victims:
                out.append(f"gang {g.name} evicted in part")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--nodes", type=int, default=5000)
    ap.add_argument("--gangs", type=int, default=500)
    ap.add_argument("--profile", action="store_true", help="print the 25 most expensive functions")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args(argv)
    c = cluster(args.nodes, args.gangs)
    gc.collect()
    prof = cProfile.Profile() if args.profile else None
    t0, c0 = time.perf_counter(), time.process_time()
    if prof:
        prof.enable()
    result = plan(c)
    if prof:
        prof.disable()
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    wrong = check(c, result)
    s = result.summary
    gangs_scheduled = sum(1 for g in result.pod_groups if g.name.startswith("job-") and g.status == "Scheduled")
    running = sum(1 for p in c.pods if p.node_name)
    verdict = "met" if wall <= TARGET_S and not wrong else "missed" if not wrong else "WRONG: " + "; ".join(wrong[:3])
    if args.markdown:
        print(f"| preempt-{args.nodes // 1000}k-{args.gangs}x4 | {args.nodes:,} | {running:,} | {args.gangs} | "
              f"{gangs_scheduled} | {s.pods_preempted:,} | {wall:.2f} | {cpu:.2f} | "
              f"{1000 * wall / max(args.gangs, 1):.1f} | plan <= {TARGET_S:g} s | {verdict} |")
    else:
        print(f"preempt {args.nodes} nodes, {running} running, {args.gangs} gangs x 4: plan {wall:.2f} s "
              f"(cpu {cpu:.2f} s), gangs scheduled {gangs_scheduled}, pods evicted {s.pods_preempted}, "
              f"target <= {TARGET_S:g} s: {verdict}")
    if prof:
        pstats.Stats(prof, stream=sys.stdout).sort_stats("cumulative").print_stats(25)
    return 0 if not wrong else 1


if __name__ == "__main__":
    sys.exit(main())
