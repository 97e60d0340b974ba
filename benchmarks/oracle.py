"""The planner against kube-scheduler v1.37.2 itself, side by side in one run (issue 11).

    python -m benchmarks.oracle                      # basic-5k-10k: 5,000 nodes x 10,000 pods
    python -m benchmarks.oracle --case basic-1k-10k  # any case of benchmarks.cases

Both read the same generated manifests (`benchmarks.generate`, kubectl-style JSON): the planner
through `load_input` and `plan()`, the oracle (`oracle/`, Go; built once and cached as the
oracle tests build it) in its `scheduler` mode without tie re-evaluation (`--no-ties`): the real
Scheduler, one `ScheduleOne` per entity, the default binder over a fake API server. Both run
with the planner's default feature gates and the default profile.

Figures: the planner's load and plan times; the oracle's scheduling time (its own clock from
the first cycle to the last, bindings included, pod creation and informer start-up excluded)
and its whole wall time; the planner's plan time as a ratio of kube-scheduler's scheduling
time. Both plans are checked: every pod bound, and the same number of pods per node is not
expected (ties are random upstream; upstream also samples nodes, percentageOfNodesToScore 0 =
adaptive, 10% at 5,000 nodes, where the planner scores every node).

Needs Go; prints why and exits 0 without it. Not a test: nothing fails on time.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time

from benchmarks.cases import ALL
from benchmarks.generate import write_case
from benchmarks.run import DEFAULT_DATA_DIR


# The oracle's build and gate helpers live beside its tests.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests", "oracle"))


def _oracle_binary():
    from oracle_build import OracleUnavailable, oracle_binary  # noqa: E402

    try:
        return oracle_binary()
    except OracleUnavailable as exc:
        print(f"oracle not available: {exc}")
        return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--case", default="basic-5k-10k", choices=sorted(ALL))
    ap.add_argument("--data-dir", default=DEFAULT_DATA_DIR)
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table row")
    args = ap.parse_args(argv)

    binary = _oracle_binary()
    if binary is None:
        return 0
    case = ALL[args.case]
    folder = write_case(case, args.data_dir)

    from podgroup_plan.config.configuration import resolve_feature_gates
    from podgroup_plan.loading import load_input
    from podgroup_plan.planner import plan

    gates = resolve_feature_gates(None)
    t0 = time.perf_counter()
    cluster = load_input([folder], feature_gates=gates)
    t1 = time.perf_counter()
    cpu1 = time.process_time()
    result = plan(cluster, feature_gates=gates).to_dict()
    t2 = time.perf_counter()
    plan_cpu_s = time.process_time() - cpu1
    planner_scheduled = result["summary"]["podsScheduled"]
    load_s, plan_s = t1 - t0, t2 - t1

    from oracle_exclusions import oracle_gates  # noqa: E402

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t3 = time.perf_counter()
    done = subprocess.run([str(binary), "scheduler", "--no-ties", "--feature-gates", oracle_gates(gates), folder],
                          capture_output=True, text=True)
    wall_s = time.perf_counter() - t3
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    oracle_cpu_s = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        print(f"oracle failed: {done.stderr.strip()[-2000:]}")
        return 1
    report = json.loads(done.stdout)
    oracle_scheduled = sum(1 for p in report["pods"] if p["node"])
    sched_s = report["schedulingSeconds"]
    ratio = plan_s / sched_s if sched_s else float("nan")
    pending = case.pending_total
    load_avg = os.getloadavg()[0]
    if args.markdown:
        print(f"| {case.name} | {plan_s:.2f} s | {sched_s:.2f} s | {ratio:.3f} | {planner_scheduled}/{pending} | "
              f"{oracle_scheduled}/{pending} | {load_avg:.1f} |")
    else:
        print(f"{case.name}: {case.nodes} nodes, {pending} pending pods")
        print(f"  planner:        load {load_s:.2f} s, plan {plan_s:.2f} s ({pending / plan_s:,.0f} pods/s, "
              f"cpu {plan_cpu_s:.2f} s), {planner_scheduled}/{pending} scheduled")
        print(f"  kube-scheduler: scheduling {sched_s:.2f} s ({pending / sched_s:,.0f} pods/s) in {report['cycles']} cycles, "
              f"{report['rounds']} round(s); whole process wall {wall_s:.2f} s, cpu {oracle_cpu_s:.2f} s "
              f"(all threads, start-up included); {oracle_scheduled}/{pending} bound")
        print(f"  ratio (planner plan time / kube-scheduler scheduling time): {ratio:.3f}; "
              f"cpu ratio (planner plan cpu / kube-scheduler process cpu): {plan_cpu_s / oracle_cpu_s:.3f}")
        print(f"  load average at the end: {load_avg:.1f}")
    return 0 if planner_scheduled == oracle_scheduled == pending else 1


if __name__ == "__main__":
    sys.exit(main())
