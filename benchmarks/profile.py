"""Profile one case's plan() (or load) with cProfile, and pyinstrument when it is installed.

    python -m benchmarks.profile basic-5k-10k [--pods 2000] [--what plan|load] [--top 30] [--out FILE.prof]

`--pods N` (or `--gangs N`, `--running N`) shrinks the pending work while keeping the node count, so a profile
of a slow engine finishes quickly and still shows the per-pod costs at full cluster size.
cProfile slows Python-heavy code more than numpy-heavy code: read its tottime column for where
Python time goes, and compare the wall time printed first (unprofiled) with the profiled one.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
import time
from dataclasses import replace

from benchmarks.cases import ALL
from benchmarks.generate import cluster_input, write_case
from benchmarks.run import DEFAULT_DATA_DIR


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.profile", description=__doc__.split("\n\n")[0])
    ap.add_argument("case", choices=list(ALL))
    ap.add_argument("--what", choices=("plan", "load"), default="plan")
    ap.add_argument("--pods", type=int, help="pending plain pods (default: the case's)")
    ap.add_argument("--gangs", type=int, help="gangs (default: the case's)")
    ap.add_argument("--running", type=int, help="running pods (default: the case's)")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--sort", default="tottime", choices=("tottime", "cumulative"))
    ap.add_argument("--out", help="save the cProfile stats here (open with snakeviz / pstats)")
    ap.add_argument("--data-dir", default=DEFAULT_DATA_DIR)
    args = ap.parse_args(argv)

    case = ALL[args.case]
    if args.pods is not None or args.gangs is not None or args.running is not None:
        case = replace(case, name=f"{case.name}-p{args.pods}-g{args.gangs}-r{args.running}",
                       pending_pods=case.pending_pods if args.pods is None else args.pods,
                       gangs=case.gangs if args.gangs is None else args.gangs,
                       running_pods=case.running_pods if args.running is None else args.running)

    if args.what == "load":
        from podgroup_plan.loading import load_input

        folder = write_case(case, args.data_dir)
        work = lambda: load_input([folder])  # noqa: E731
        label = f"load_input({case.documents:,} documents)"
    else:
        from podgroup_plan.planner import plan

        cluster = cluster_input(case)
        work = lambda: plan(cluster)  # noqa: E731
        label = f"plan({case.nodes:,} nodes, {case.pending_total:,} pending pods, {case.gangs:,} gangs)"

    t0 = time.perf_counter()
    work()
    wall = time.perf_counter() - t0
    print(f"{label}: {wall:.3f} s unprofiled")

    prof = cProfile.Profile()
    t0 = time.perf_counter()
    prof.runcall(work)
    print(f"{label}: {time.perf_counter() - t0:.3f} s under cProfile\n")
    if args.out:
        prof.dump_stats(args.out)
    for sort in dict.fromkeys((args.sort, "cumulative")):
        buf = io.StringIO()
        pstats.Stats(prof, stream=buf).strip_dirs().sort_stats(sort).print_stats(args.top)
        print(f"--- top {args.top} by {sort} ---")
        print("\n".join(line for line in buf.getvalue().splitlines() if line.strip())[0:])
        print()

    try:
        from pyinstrument import Profiler
    except ImportError:
        return 0
    p = Profiler(interval=0.001)
    p.start()
    work()
    p.stop()
    print(p.output_text(unicode=False, color=False, show_all=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
