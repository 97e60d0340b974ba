"""The cross-node plugins alone: PodTopologySpread and InterPodAffinity per pod cycle.

    python -m benchmarks.cross_node [--case mixed-5k-10k-20] [--placed 4000] [--pods 2000] [--repeat 5] [--nodes N]

Plans the case's first `--placed` pending pods, builds a cluster state with them bound, then
runs each plugin's PreFilter, Filter, PreScore, Score and NormalizeScore over every node for the
next `--pods` pods, as a pod cycle does (a new pod object per cycle, and a new state version
per pod as after each binding, so no per-version memo serves a second pod). Prints the CPU
microseconds per pod of the fastest of `--repeat` rounds for each plugin: a figure for these
plugins that the rest of the engine, and the other sessions on a shared machine, disturb less
than a whole plan. Nothing here is a test.
"""
from __future__ import annotations

import argparse
import gc
import time
from dataclasses import replace

from benchmarks.cases import ALL
from benchmarks.generate import cluster_input


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.cross_node", description=__doc__.split("\n\n")[0])
    ap.add_argument("--case", default="mixed-5k-10k-20", choices=list(ALL))
    ap.add_argument("--placed", type=int, default=4000)
    ap.add_argument("--pods", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--nodes", type=int, help="nodes (default: the case's)")
    args = ap.parse_args(argv)

    from podgroup_plan.config.args import InterPodAffinityArgs
    from podgroup_plan.framework.interface import CycleState
    from podgroup_plan.planner import plan
    from podgroup_plan.plugins.inter_pod_affinity import InterPodAffinity
    from podgroup_plan.plugins.pod_topology_spread import PodTopologySpread
    from podgroup_plan.state.cluster import ClusterState

    case = replace(ALL[args.case], name=f"{args.case}-cross-node", pending_pods=args.placed + args.pods)
    if args.nodes is not None:
        case = replace(case, nodes=args.nodes)
    cluster = cluster_input(case)
    first = replace(cluster, pods=cluster.pods[: args.placed])
    where = {(p["namespace"], p["name"]): p.get("node") for p in plan(first).to_dict()["pods"]}
    placed = [replace(p, node_name=where[(p.namespace, p.name)]) for p in first.pods
              if where.get((p.namespace, p.name))]
    state = ClusterState(cluster.nodes, placed)
    probes = cluster.pods[args.placed:]
    view = state.all_nodes

    def cycle(plugin) -> None:
        for pod in probes:
            pod = replace(pod)  # a new object per cycle, as in the single-pod flow
            cs = CycleState()
            if not plugin.pre_filter(cs, pod, state, view).status.is_skip():
                plugin.filter(cs, pod, state, view)
            if not plugin.pre_score(cs, pod, state, view).is_skip():
                plugin.normalize(cs, pod, plugin.score(cs, pod, state, view))
            state.version += 1  # as after a binding: per-version memos serve one pod only

    def baseline(_plugin) -> None:  # the loop's own cost (the pod copies), subtracted
        for pod in probes:
            pod = replace(pod)
            CycleState()
            state.version += 1

    assert placed and len(probes) == args.pods, "the first plan placed nothing"
    print(f"{args.case}: {len(placed):,} pods placed on {state.n:,} nodes, {len(probes):,} pods per round")
    best: dict[str, float] = {}
    for label, plugin, run in (("loop", None, baseline), ("PodTopologySpread", PodTopologySpread(), cycle),
                               ("InterPodAffinity", InterPodAffinity(InterPodAffinityArgs()), cycle)):
        times = []
        for _ in range(args.repeat):
            gc.collect()
            t0 = time.process_time()
            run(plugin)
            times.append(time.process_time() - t0)
        best[label] = min(times)
    for label in ("PodTopologySpread", "InterPodAffinity"):
        per_pod = (best[label] - best["loop"]) / len(probes) * 1e6
        print(f"  {label:18s} {per_pod:7.1f} us cpu per pod")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
