"""Run benchmark cases, one fresh subprocess per case, and print their figures.

    python -m benchmarks.run --all                 # the issue's cases (targets checked)
    python -m benchmarks.run --scale               # basic-*-10k at 1k, 2k, 5k, 10k nodes
    python -m benchmarks.run --shapes              # mixed-5k-10k with 20, 1,000 and 10,000 pod shapes
    python -m benchmarks.run --users               # issue 24: GPU trace, backlogs, workload-aware preemption
    python -m benchmarks.run --backlog             # plan time vs unschedulable pods (0-200 % of capacity)
    python -m benchmarks.run --case basic-5k-10k [--case ...] [--repeat 3]
    python -m benchmarks.run --list

Per case: load time (read + validate + decode with `podgroup_plan.loading.load_input`, on
`kubectl get -o json`-style `List` files), documents/s and, beside it, the parse-only floor
(`orjson.loads` of the same files; PyYAML's C loader with `--format yaml`); plan time (`podgroup_plan.plan`), pending pods/s,
ms per gang; peak memory (`ru_maxrss` of the case's own process, so load + plan + the
interpreter); and whether the plan is right (every pod placed, no node over allocatable, gangs
all-or-nothing). Inputs are generated once into `--data-dir` and reused.

`--input objects` skips the files and builds the model objects directly (load time is then not
measured); it is also what the runner falls back to while `load_input` does not exist.

Repeats run in fresh processes and the median run (by plan time, else load time) is reported,
with every run's figure beside it: the reference machine is shared, so single runs are noisy.
The load average before and after each run is recorded too.

Benchmarks are not tests: nothing here fails CI on time. Exit status is 0 unless a case
crashed or planned wrongly; `--strict` also makes a missed target exit 1.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict

from benchmarks.cases import ALL, BACKLOG_GROWTH, CASES, EXTRA, SCALE, SHAPES, USERS, Case
from benchmarks.generate import FORMATS, write_case

RESULT_PREFIX = "BENCH-RESULT "
DEFAULT_DATA_DIR = os.environ.get("PODGROUP_PLAN_BENCH_DATA") or os.path.join(
    tempfile.gettempdir(), "podgroup-plan-bench"
)


# ----- the child: one case, measured -----------------------------------------------------------


def _peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB


def _rss_mib() -> float | None:
    """Resident memory now (the peak is `_peak_mib`): what the loaded cluster keeps."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return None


def run_child(case: Case, folder: str | None, input_mode: str) -> dict:
    """Load and plan `case` in this process and return the figures (JSON-able)."""
    out: dict = {"case": case.name, "input": input_mode, "documents": case.documents, "notes": []}
    out["peak_mib_after_import"] = None
    import numpy  # noqa: F401  (imports are not load time)
    from benchmarks import generate, verify

    load_input = None
    if input_mode == "files":
        try:
            from podgroup_plan.loading import load_input  # type: ignore[attr-defined]
        except ImportError as e:
            out["notes"].append(f"load_input unavailable ({e}); model objects built directly")
            input_mode = out["input"] = "objects"
    plan = None
    if case.plan:
        from podgroup_plan.planner import plan
    out["peak_mib_after_import"] = round(_peak_mib(), 1)

    out["loadavg_before"] = os.getloadavg()[0]
    if input_mode == "files":
        t0, c0 = time.perf_counter(), time.process_time()
        cluster = load_input([folder])
        out["load_s"], out["load_cpu_s"] = time.perf_counter() - t0, time.process_time() - c0
    else:
        t0 = time.perf_counter()
        cluster = generate.cluster_input(case)
        out["build_s"] = time.perf_counter() - t0
    out["peak_mib_after_load"] = round(_peak_mib(), 1)
    gc.collect()
    out["rss_mib_after_load"] = _rss_mib()

    if plan is not None:
        t0, c0 = time.perf_counter(), time.process_time()
        result = plan(cluster)
        out["plan_s"], out["plan_cpu_s"] = time.perf_counter() - t0, time.process_time() - c0
        out["loadavg_after"] = os.getloadavg()[0]
        out["peak_mib"] = round(_peak_mib(), 1)
        s = result.summary
        out["summary"] = {"scheduled": s.pods_scheduled, "unschedulable": s.pods_unschedulable,
                          "waiting": s.pods_waiting, "groups_scheduled": s.pod_groups_scheduled}
        out["problems"] = verify.problems(cluster, result, case.expect_all_scheduled)
        if case.pod_shapes:
            out["problems"] += verify.constraint_problems(cluster, result)[:5]
        del result
    else:
        out["peak_mib"] = round(_peak_mib(), 1)
        out["problems"] = []
        counted = len(cluster.nodes) + len(cluster.pods) + len(cluster.pod_groups)
        if counted != case.documents:
            out["problems"].append(f"decoded {counted} objects, expected {case.documents}")

    if input_mode == "files":
        del cluster
        gc.collect()
        out["parse_floor_s"] = _parse_floor(folder)
    return out


def _parse_floor(folder: str) -> float:
    """Seconds to read and parse every file of the case, with the cyclic GC off (as a loader
    may run): `orjson.loads` for JSON, PyYAML's C loader (`CSafeLoader`) for YAML. What no
    loader built on those parsers can beat."""
    import orjson
    import yaml

    total = 0.0
    enabled = gc.isenabled()
    gc.disable()
    try:
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            if name.endswith(".json"):
                t0 = time.perf_counter()
                with open(path, "rb") as fh:
                    value = orjson.loads(fh.read())
                total += time.perf_counter() - t0
                del value
            elif name.endswith(".yaml"):
                t0 = time.perf_counter()
                with open(path, "rb") as fh:
                    value = list(yaml.load_all(fh.read(), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)))
                total += time.perf_counter() - t0
                del value
    finally:
        if enabled:
            gc.enable()
    return total


# ----- the parent: cases in subprocesses, figures in a table -----------------------------------


def machine() -> dict:
    info = {"python": platform.python_version(), "cores": os.cpu_count(), "platform": platform.platform()}
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    info["cpu"] = line.split(":", 1)[1].strip()
                    break
        with open("/proc/meminfo") as fh:
            info["memory_gib"] = round(int(fh.readline().split()[1]) / 2**20, 1)
    except OSError:
        pass
    for mod in ("numpy", "orjson", "yaml"):
        try:
            info[mod] = __import__(mod).__version__
        except Exception:  # pragma: no cover
            pass
    info["OPENBLAS_CORETYPE"] = os.environ.get("OPENBLAS_CORETYPE") or "(not set)"
    try:
        info["commit"] = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True,
            cwd=os.path.dirname(os.path.abspath(__file__)),
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        pass
    # A run from an exported snapshot (`git archive HEAD | tar -x -C DIR`, so that work in
    # progress in the checkout does not change what is measured) names its commit this way.
    if os.environ.get("PODGROUP_PLAN_BENCH_COMMIT"):
        info["commit"] = os.environ["PODGROUP_PLAN_BENCH_COMMIT"]
    return info


def _process(argv: list[str], cwd: str, timeout: float) -> dict:
    """Run `argv` to its end: wall time, CPU time (user + system) and peak memory of that one
    process (`os.wait4`: the CLI ends with `os._exit`, so it cannot report them itself, and
    RUSAGE_CHILDREN's peak would be the largest child the runner ever had), exit status and
    output."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=err, cwd=cwd)
        killer = threading.Timer(timeout, proc.kill)
        killer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            killer.cancel()
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace")
    return {"wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime,
            "peak_mib": round(usage.ru_maxrss / 1024, 1), "returncode": proc.returncode,
            "timed_out": wall >= timeout, "stdout": stdout, "stderr": stderr}


def run_cli_case(case: Case, timeout: float, data_dir: str = DEFAULT_DATA_DIR) -> dict:
    """A whole `podgroup-plan simulate` process, timed from outside, twice: as a user runs it
    (the `podgroup-plan` script of an installed copy, with the bytecode pip compiled:
    `benchmarks/installed.py`), which is what the target is judged on, and from this checkout
    (`python -m podgroup_plan`, as the interpreter's environment has it: with
    PYTHONDONTWRITEBYTECODE=1 every project module is compiled from source on every run)."""
    from benchmarks.installed import bytecode_files, installed_script

    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    args = ["simulate", *case.cli_paths]
    out: dict = {"case": case.name, "input": "files", "loadavg_before": os.getloadavg()[0],
                 "problems": [], "notes": []}
    runs = {}
    try:
        script = installed_script(data_dir, repo)
    except (RuntimeError, OSError) as err:
        out["notes"].append(f"no installed copy ({err}): process s is the run from the checkout")
    else:
        runs["installed"] = _process([script, *args], repo, timeout)
        out["installed_pyc"] = bytecode_files(script)
    runs["source"] = _process([sys.executable, "-m", "podgroup_plan", *args], repo, timeout)
    out["loadavg_after"] = os.getloadavg()[0]
    for label, run in runs.items():
        if run["timed_out"]:
            return {"case": case.name, "error": f"{label}: timeout after {timeout:g} s"}
        if run["returncode"] not in (0, 1):
            out["problems"].append(f"{label}: exit {run['returncode']}: {run['stderr'][-300:]}")
    if len(runs) == 2 and runs["installed"]["stdout"] != runs["source"]["stdout"]:
        out["problems"].append("the installed copy and the checkout wrote different plans")
    judged = runs.get("installed", runs["source"])
    out["process_s"], out["process_cpu_s"] = judged["wall_s"], judged["cpu_s"]
    out["peak_mib"] = judged["peak_mib"]
    out["output_lines"] = len(judged["stdout"].splitlines())
    out["source_process_s"], out["source_process_cpu_s"] = runs["source"]["wall_s"], runs["source"]["cpu_s"]
    out["source_bytecode"] = "not written (PYTHONDONTWRITEBYTECODE)" \
        if os.environ.get("PYTHONDONTWRITEBYTECODE") else "cached after the first run"
    return out


def cli_notes(r: dict) -> list[str]:
    """Both figures of a CLI case, and which one the target is judged on."""
    if "process_s" not in r or "source_process_s" not in r:
        return []
    lines = []
    if "installed_pyc" in r:
        lines.append(f"installed copy (pip, {r['installed_pyc']} .pyc): {r['process_s']:.3f} s wall, "
                     f"{r['process_cpu_s']:.3f} s cpu; the target is judged on this one")
    lines.append(f"from the checkout (bytecode {r['source_bytecode']}): {r['source_process_s']:.3f} s "
                 f"wall, {r['source_process_cpu_s']:.3f} s cpu")
    if r["process_s"] > 1.2 * r["process_cpu_s"]:
        lines.append(f"machine busy (load average {r.get('loadavg_before', 0):.1f}): cpu time is the "
                     "better estimate")
    return lines


def run_case(case: Case, data_dir: str, input_mode: str, timeout: float, fmt: str | None = None) -> dict:
    if case.cli_paths:
        return run_cli_case(case, timeout, data_dir)
    fmt = fmt or case.format
    folder = None
    if input_mode == "files":
        folder = write_case(case, data_dir, fmt)
    cmd = [sys.executable, "-m", "benchmarks.run", "--child", case.name, "--input", input_mode]
    if folder:
        cmd += ["--folder", folder]
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=repo)
    except subprocess.TimeoutExpired:
        return {"case": case.name, "error": f"timeout after {timeout:g} s"}
    for line in proc.stdout.splitlines():
        if line.startswith(RESULT_PREFIX):
            out = json.loads(line[len(RESULT_PREFIX):])
            if folder:
                out["input_mib"] = round(sum(
                    os.path.getsize(os.path.join(folder, f)) for f in os.listdir(folder)) / 2**20, 1)
            return out
    tail = (proc.stderr.strip().splitlines() or ["(no output)"])[-1]
    return {"case": case.name, "error": f"exit {proc.returncode}: {tail}", "stderr": proc.stderr[-4000:]}


def best_of(runs: list[dict]) -> dict:
    """The median run of the repeats (by plan time, else load or process time; the lower of the
    two middle runs for an even count); peak memory is the largest seen."""
    ok = [r for r in runs if "error" not in r]
    if not ok:
        return runs[-1]
    key = next(k for k in ("plan_s", "load_s", "process_s", "build_s") if k in ok[0])
    ordered = sorted(ok, key=lambda r: r.get(key, 0))
    best = dict(ordered[(len(ordered) - 1) // 2])
    best["peak_mib"] = max(r["peak_mib"] for r in ok)
    best["repeats"] = len(ok)
    if len(ok) > 1:
        best[f"{key}_all"] = [round(r[key], 3) for r in ok]
    return best


def figures(case: Case, r: dict) -> dict:
    """Derived figures and the verdict against the case's target."""
    f: dict = {}
    if "error" in r:
        return {"verdict": "ERROR"}
    if "load_s" in r:
        f["docs_per_s"] = case.documents / r["load_s"]
    if "parse_floor_s" in r:
        f["floor_docs_per_s"] = case.documents / r["parse_floor_s"]
    if "plan_s" in r:
        f["pods_per_s"] = case.pending_total / r["plan_s"]
        if case.gangs:
            f["ms_per_group"] = 1000 * r["plan_s"] / case.gangs
    t = case.target
    missed = []
    if t.plan_s is not None and r.get("plan_s", float("inf")) > t.plan_s:
        missed.append("plan time")
    if t.ms_per_group is not None and f.get("ms_per_group", float("inf")) > t.ms_per_group:
        missed.append("ms/gang")
    if t.peak_mib is not None and (r.get("peak_mib", float("inf")) >= t.peak_mib or r.get("input") != "files"):
        missed.append("peak memory" + (" (not measured with files)" if r.get("input") != "files" else ""))
    if t.docs_per_s is not None and f.get("docs_per_s", 0) < t.docs_per_s:
        missed.append("docs/s" + (" (no loader)" if "load_s" not in r else ""))
    if "load_s" in r and "parse_floor_s" in r:
        f["floor_ratio"] = r["load_s"] / r["parse_floor_s"]
    if t.floor_ratio is not None and f.get("floor_ratio", float("inf")) > t.floor_ratio:
        missed.append("load vs floor")
    if t.process_s is not None and r.get("process_s", float("inf")) > t.process_s:
        missed.append("process time")
    if r.get("problems"):
        f["verdict"] = "WRONG PLAN"
    elif t == type(t)():
        f["verdict"] = "measured"
    else:
        f["verdict"] = "met" if not missed else "missed: " + ", ".join(missed)
    return f


def _fmt(v, spec: str) -> str:
    return "-" if v is None else format(v, spec)


HEADER = ("case", "nodes", "pending", "unsched", "running", "gangs", "load s", "docs/s", "floor docs/s", "load/floor",
          "plan s", "plan cpu s", "pods/s", "ms/gang", "process s", "peak MiB", "load avg", "target", "verdict")


def row(case: Case, r: dict, f: dict) -> tuple[str, ...]:
    return (
        case.name, f"{case.nodes:,}", f"{case.pending_total:,}",
        _fmt((r.get("summary") or {}).get("unschedulable"), ","), f"{case.running_pods:,}",
        f"{case.gangs:,}" if case.gangs else "-",
        _fmt(r.get("load_s"), ".2f"), _fmt(f.get("docs_per_s"), ",.0f"), _fmt(f.get("floor_docs_per_s"), ",.0f"),
        _fmt(f.get("floor_ratio"), ".2f"),
        _fmt(r.get("plan_s"), ".2f"), _fmt(r.get("plan_cpu_s"), ".2f"), _fmt(f.get("pods_per_s"), ",.0f"), _fmt(f.get("ms_per_group"), ".3f"),
        _fmt(r.get("process_s"), ".2f"),
        _fmt(r.get("peak_mib"), ",.0f"), _fmt(r.get("loadavg_before"), ".1f"), case.target.describe(), f["verdict"],
    )


def markdown_table(rows: list[tuple[str, ...]]) -> str:
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "|".join("---" for _ in HEADER) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def text_table(rows: list[tuple[str, ...]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(HEADER)]
    fmt = "  ".join(f"{{:<{w}}}" if i == 0 else f"{{:>{w}}}" for i, w in enumerate(widths[:-2]))
    fmt += "  {}  {}"
    return "\n".join(fmt.format(*r) for r in [HEADER, *rows])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.run", description=__doc__.split("\n\n")[0])
    ap.add_argument("--case", action="append", default=[], metavar="NAME", help="a case by name (repeatable)")
    ap.add_argument("--all", action="store_true", help="the issue's cases: " + ", ".join(CASES))
    ap.add_argument("--scale", action="store_true", help="plan-time growth: " + ", ".join(SCALE))
    ap.add_argument("--shapes", action="store_true", help="growth with pod shapes: " + ", ".join(SHAPES))
    ap.add_argument("--users", action="store_true", help="issue 24, users' inputs: " + ", ".join(USERS))
    ap.add_argument("--backlog", action="store_true",
                    help="plan time vs unschedulable pods at 1,000 nodes: " + ", ".join(BACKLOG_GROWTH))
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    ap.add_argument("--input", choices=("files", "objects"), default="files")
    ap.add_argument("--format", choices=FORMATS, default=None,
                    help="input files: kubectl-style JSON Lists (the default unless a case names "
                         "another), the same on one line, or YAML")
    ap.add_argument("--repeat", type=int, default=1, help="runs per case (fresh process each); best plan time kept")
    ap.add_argument("--timeout", type=float, default=1800, help="seconds per run")
    ap.add_argument("--data-dir", default=DEFAULT_DATA_DIR, help="where generated inputs are kept (default %(default)s)")
    ap.add_argument("--json", metavar="FILE", help="also write every figure as JSON")
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    ap.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    ap.add_argument("--child", metavar="NAME", help=argparse.SUPPRESS)
    ap.add_argument("--folder", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    if args.child:
        out = run_child(ALL[args.child], args.folder, args.input)
        print(RESULT_PREFIX + json.dumps(out), flush=True)
        return 0
    if args.list:
        for group, cases in (("issue (--all)", CASES), ("scale (--scale)", SCALE), ("shapes (--shapes)", SHAPES),
                             ("users (--users)", USERS), ("backlog growth (--backlog)", BACKLOG_GROWTH),
                             ("extra", EXTRA)):
            print(f"{group}:")
            for c in cases.values():
                print(f"  {c.name:<18} {c.family:<24} {c.nodes:>6,} nodes {c.pending_total:>7,} pending "
                      f"{c.running_pods:>7,} running  target: {c.target.describe()}" + (f"  ({c.note})" if c.note else ""))
        return 0

    names = list(args.case)
    if args.all:
        names += list(CASES)
    if args.scale:
        names += list(SCALE)
    if args.shapes:
        names += list(SHAPES)
    if args.users:
        names += list(USERS)
    if args.backlog:
        names += list(BACKLOG_GROWTH)
    names = list(dict.fromkeys(names))
    if not names:
        ap.error("give --case NAME, --all, --scale, --shapes, --users or --backlog (see --list)")
    unknown = [n for n in names if n not in ALL]
    if unknown:
        ap.error(f"unknown case(s) {', '.join(unknown)}; see --list")

    info = machine()
    print("machine: " + ", ".join(f"{k}={v}" for k, v in info.items()), flush=True)
    results, rows, failed, missed = [], [], False, False
    for name in names:
        case = ALL[name]
        runs = [run_case(case, args.data_dir, args.input, args.timeout, args.format) for _ in range(max(1, args.repeat))]
        r = best_of(runs)
        f = figures(case, r)
        results.append({"case": asdict(case), "result": r, "figures": f})
        rows.append(row(case, r, f))
        print(text_table([rows[-1]]).splitlines()[-1], flush=True)
        if r.get("plan_s") and r.get("plan_cpu_s") and r["plan_s"] > 1.2 * r["plan_cpu_s"]:
            r.setdefault("notes", []).append(
                f"machine busy (load average {r.get('loadavg_before', 0):.1f} -> {r.get('loadavg_after', 0):.1f}): "
                f"plan wall {r['plan_s']:.2f} s vs cpu {r['plan_cpu_s']:.2f} s; cpu time is the better estimate")
        for note in r.get("notes", []) + cli_notes(r):
            print(f"    note: {note}")
        for p in r.get("problems", []):
            print(f"    WRONG: {p}")
        if "error" in r:
            print(f"    ERROR: {r['error']}")
        failed |= "error" in r or bool(r.get("problems"))
        missed |= f["verdict"].startswith("missed")
    print()
    print(markdown_table(rows) if args.markdown else text_table(rows))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"machine": info, "results": results}, fh, indent=2)
    return 1 if failed or (args.strict and missed) else 0


if __name__ == "__main__":
    sys.exit(main())
