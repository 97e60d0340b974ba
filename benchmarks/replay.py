"""Benchmark: `replay` of a trace of the Alibaba GPU cluster's shape (1,213 nodes, 8,152 pods
arriving over about four months; benchmarks/alibaba_trace.py generates it). Prints wall and
CPU time, the events handled, the cost per event, and the peak memory (ru_maxrss).

    python -m benchmarks.replay [--nodes 1213] [--pods 8152] [--load 1.2]
"""
from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
from pathlib import Path

from benchmarks.alibaba_trace import generate
from podgroup_plan.analyses.replay.run import Settings, replay
from podgroup_plan.loading.alibaba_trace import read_trace


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--nodes", type=int, default=1213)
    parser.add_argument("--pods", type=int, default=8152)
    parser.add_argument("--load", type=float, default=1.2, help="GPU-time asked / offered (>1: queues form)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        nodes_csv, pods_csv = generate(Path(tmp), args.nodes, args.pods, load=args.load)
        wall, cpu = time.perf_counter(), time.process_time()
        cluster, timing = read_trace(str(nodes_csv), str(pods_csv))
        read_wall, read_cpu = time.perf_counter() - wall, time.process_time() - cpu
        wall, cpu = time.perf_counter(), time.process_time()
        doc = replay(cluster, timing, Settings())
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    s = doc["summary"]
    events = s["events"]
    print(f"trace: {args.nodes} nodes, {args.pods} pods, load {args.load}; read in {read_wall:.2f} s wall ({read_cpu:.2f} s CPU)")
    print(f"replay: {wall:.2f} s wall, {cpu:.2f} s CPU; {events} events, {1e3 * cpu / max(events, 1):.3f} ms CPU "
          f"per event; {len(doc['timeline'])} timeline rows")
    print(f"started {s['podsStarted']}/{s['pods']}, wait p50/p95/max {s['waitSeconds']['p50']}/"
          f"{s['waitSeconds']['p95']}/{s['waitSeconds']['max']} s, GPU utilisation {s['gpuUtilisation']}")
    print(f"peak memory (ru_maxrss): {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB; "
          f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
