"""The behaviour digest: one sha256 per input of what the CLI writes for it, and a total.

    python -m benchmarks.digest            # print every input's digest and the total
    python -m benchmarks.digest --check    # also compare the total with EXPECTED (exit 1 if not)
    python -m benchmarks.digest --only demo/   # inputs whose name starts so (no --check total)
    python -m benchmarks.digest --dump DIR     # also write each input's output to DIR, to diff

A refactoring that must not change behaviour (issue 23) proves it with this: the total before
and after is the same. Each input is run as a user runs it, through the CLI's own command
(`podgroup-plan simulate ... -o json`, typer's CliRunner, in this process: a subprocess per
input would cost about 2 s each on a loaded machine), and its exit code, standard output and
standard error are hashed. The inputs:

* the bundled demo (`fixtures/cluster fixtures/workloads`), also with
  `--scheduler-config fixtures/scheduler-config/most-allocated.yaml`, with `--no-expand`, as
  YAML (`-o yaml`), and with `--feature-gates` turning workload-aware preemption and
  topology-aware placement off; `diff` against the most-allocated configuration; `explain` of
  some of its PodGroups and pods (the tracer's output is behaviour too);
* every folder under `tests/` holding a `manifests/` folder (the scenario cases, the explain
  cases, the CLI's manifests), with the `featureGates`, `expand` and `gang` of its `expected.yaml`
  (`explain` cases also run their `explain:` target);
* small generated benchmark inputs written as `kubectl get -o json` Lists
  (benchmarks/generate.py: plain pods, gangs, rack-constrained gangs, preemption, mixed shapes);
* the hierarchy and preemption benchmarks' clusters (built as objects, no files), planned with
  `plan()` and rendered as `simulate -o json` renders (`render_json(result.to_dict())`).

About a minute on the 2-core reference machine (most of it the generated cases).

EXPECTED (below) is the total recorded with its comment; change it only in a commit that means to
change behaviour, and say so there. Output can differ between machines (package versions), so
a refactoring is best proven by `--dump` before and after, compared file by file.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Iterator

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
DEMO = [str(FIXTURES / "cluster"), str(FIXTURES / "workloads")]
MOST_ALLOCATED = str(FIXTURES / "scheduler-config" / "most-allocated.yaml")

# The total of every input below at f86951e (2026-12-06), recorded anew: the value recorded at
# e08784a (f4ca8c7c...) did not reproduce on this machine at that same commit (8430528b...;
# recorded elsewhere, with other package versions), and since then the inputs and the behaviour
# changed on purpose: issue 26's API-server texts and rules, issue 27's owner names, folding and
# `podGroups[].domains`, issue 25's deep trees scheduled, new scenario folders (operators,
# PDB violations, deep trees). Each refactoring of the session was checked instead by comparing
# `--dump` folders before and after, file by file (no difference). The total is the same from
# any checkout folder.
EXPECTED = "adfee369c3f3353440db3c14c80ca12165c5cd2661ab36dc8e17326f1815111e"


@dataclass(frozen=True)
class Input:
    name: str
    run: Callable[[], bytes]  # what is hashed: exit code, stdout, stderr


def _cli(args: list[str]) -> Callable[[], bytes]:
    def run() -> bytes:
        from typer.testing import CliRunner

        from podgroup_plan.cli import app

        # COLUMNS fixed: the table (not hashed here) and any width-dependent text stay put.
        result = CliRunner().invoke(app, args, env={"COLUMNS": "120"})
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise RuntimeError(f"{' '.join(args)}: {result.exception!r}") from result.exception
        return (f"exit {result.exit_code}\n".encode() + b"--- stdout\n" + result.stdout_bytes
                + b"--- stderr\n" + (result.stderr_bytes or b""))
    return run


def _relative(path: Path) -> str:
    # Paths as the CLI is given them, relative to the repository, so that the hash does not
    # depend on where the checkout is (messages name files).
    return os.path.relpath(path, ROOT)


def _explain_args(target: dict) -> list[str]:
    args: list[str] = []
    for key in ("pod", "pod-group", "composite-pod-group", "node", "top"):
        if key in target:
            args += [f"--{key}", str(target[key])]
    return args


def _gate_args(gates: dict | None) -> list[str]:
    if not gates:
        return []
    return ["--feature-gates", ",".join(f"{k}={str(v).lower()}" for k, v in sorted(gates.items()))]


def demo_inputs() -> Iterator[Input]:
    demo = [_relative(Path(p)) for p in DEMO]
    config = _relative(Path(MOST_ALLOCATED))
    yield Input("demo/simulate", _cli(["simulate", *demo, "-o", "json"]))
    yield Input("demo/simulate-yaml", _cli(["simulate", *demo, "-o", "yaml"]))
    yield Input("demo/most-allocated", _cli(["simulate", *demo, "-o", "json", "--scheduler-config", config]))
    yield Input("demo/no-expand", _cli(["simulate", *demo, "-o", "json", "--no-expand"]))
    yield Input("demo/gates-off", _cli(["simulate", *demo, "-o", "json", "--feature-gates",
                                        "WorkloadAwarePreemption=false,TopologyAwareWorkloadScheduling=false"]))
    yield Input("demo/diff", _cli(["diff", *demo, "--config-b", config, "-o", "json"]))
    for kind, name in DEMO_EXPLAIN:
        yield Input(f"demo/explain-{name}", _cli(["explain", *demo, f"--{kind}", name, "-o", "json", "--top", "3"]))


# Targets across the demo's outcomes (a scheduled gang, an unschedulable one, one waiting, a
# CompositePodGroup tree, a pod of each kind); read off the demo's plan at 719055e.
DEMO_EXPLAIN = (
    ("pod-group", "ml-research/llm-finetune-trainers"),
    ("pod-group", "ml-research/vision-pretrain-trainers"),
    ("pod-group", "ml-research/llm-distill-students"),
    ("composite-pod-group", "ml-research/mm-pretrain"),
    ("pod", "ml-research/data-prep-0"),
    ("pod", "ml-research/llm-finetune-0"),
    ("pod", "ml-research/vision-pretrain-3"),
)


def folder_inputs() -> Iterator[Input]:
    import yaml

    for manifests in sorted((ROOT / "tests").rglob("manifests")):
        if not manifests.is_dir():
            continue
        case = manifests.parent
        expected: dict = {}
        if (case / "expected.yaml").is_file():
            expected = yaml.safe_load((case / "expected.yaml").read_text(encoding="utf-8")) or {}
        name = _relative(case)
        args = ["simulate", _relative(manifests), "-o", "json", *_gate_args(expected.get("featureGates"))]
        if expected.get("expand") is False:
            args.append("--no-expand")
        if expected.get("gang"):
            args.append("--gang")
        yield Input(f"{name}/simulate", _cli(args))
        target = expected.get("explain")
        if isinstance(target, dict):
            target = dict(target)
            gates = target.pop("featureGates", None)
            yield Input(f"{name}/explain", _cli(["explain", _relative(manifests), "-o", "json",
                                                 *_explain_args(target), *_gate_args(gates)]))


def generated_inputs(root: str) -> Iterator[Input]:
    from benchmarks.cases import EXTRA, tiny, tiny_mixed
    from benchmarks.generate import write_case

    cases = [
        tiny(),
        tiny(name="tiny-basic", nodes=200, pending_pods=600, running_pods=400, gangs=0),
        tiny(name="tiny-gang", nodes=100, pending_pods=0, running_pods=0, gangs=60, gang_size=4, min_count=3),
        tiny(name="tiny-tas", nodes=120, pending_pods=0, running_pods=0, gangs=40, gang_size=4,
             gang_topology_key="topology.kubernetes.io/rack", nodes_per_rack=10, nodes_per_zone=40),
        replace(EXTRA["preempt-100-10x10"], name="tiny-preempt", nodes=40, running_pods=400, gangs=6),
        tiny_mixed(),
        tiny_mixed(name="tiny-mixed-unique", nodes=80, pending_pods=250, pod_shapes=250),
        # a few larger ones: the caches and the queue at more than a handful of nodes
        tiny(name="basic-1k-3k", nodes=1000, pending_pods=3000, running_pods=2000, gangs=0),
        tiny(name="gang-500-200x5", nodes=500, pending_pods=500, running_pods=0, gangs=200, gang_size=5),
        tiny(name="tas-400-120x4", nodes=400, pending_pods=0, running_pods=0, gangs=120, gang_size=4,
             gang_topology_key="topology.kubernetes.io/rack", nodes_per_rack=10, nodes_per_zone=100),
        tiny_mixed(name="mixed-500-2k-100", nodes=500, pending_pods=2000, pod_shapes=100, nodes_per_zone=100),
    ]
    for case in cases:
        def run(case=case) -> bytes:
            folder = write_case(case, root)
            return _cli(["simulate", folder, "-o", "json"])()
        yield Input(f"generated/{case.name}", run)


def object_inputs() -> Iterator[Input]:
    def hierarchy() -> bytes:
        from benchmarks import hierarchy

        return _planned(hierarchy.cluster(zones=3, racks=4, per_rack=4, trees=12))

    def preemption() -> bytes:
        from benchmarks import preemption

        return _planned(preemption.cluster(nodes=120, gangs=20, pdbs=5))

    yield Input("objects/hierarchy", hierarchy)
    yield Input("objects/preemption", preemption)


def _planned(cluster) -> bytes:
    from podgroup_plan.planner import plan
    from podgroup_plan.render.json_yaml import render_json

    return render_json(plan(cluster).to_dict()).encode("utf-8")


def inputs(root: str) -> list[Input]:
    return [*demo_inputs(), *folder_inputs(), *generated_inputs(root), *object_inputs()]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.digest", description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="compare the total with the recorded one")
    ap.add_argument("--only", metavar="PREFIX", help="only inputs whose name starts with PREFIX")
    ap.add_argument("--quiet", action="store_true", help="print only the total")
    ap.add_argument("--dump", metavar="DIR", help="also write what each input hashed to DIR (to diff two runs)")
    args = ap.parse_args(argv)
    os.chdir(ROOT)  # the CLI is given paths relative to the repository
    start, cpu = time.perf_counter(), time.process_time()
    total = hashlib.sha256()
    with tempfile.TemporaryDirectory(prefix="podgroup-plan-digest-") as root:
        for item in inputs(root):
            if args.only and not item.name.startswith(args.only):
                continue
            output = item.run()
            digest = hashlib.sha256(output).hexdigest()
            if args.dump:
                target = Path(args.dump) / (item.name.replace("/", "__") + ".out")
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(output)
            total.update(f"{item.name} {digest}\n".encode())
            if not args.quiet:
                print(f"{digest}  {item.name}", flush=True)
    print(f"{total.hexdigest()}  TOTAL ({time.perf_counter() - start:.1f} s wall, "
          f"{time.process_time() - cpu:.1f} s cpu)")
    if args.check and not args.only:
        if total.hexdigest() != EXPECTED:
            print(f"digest differs from the recorded {EXPECTED}: behaviour changed", file=sys.stderr)
            return 1
        print("same as recorded: behaviour unchanged")
    return 0


if __name__ == "__main__":
    sys.exit(main())
