"""Generate trace files in the Alibaba GPU trace's openb format (alibaba/clusterdata,
cluster-trace-gpu-v2023), of the published cluster's shape: 1,213 GPU nodes and 8,152 pods
arriving over about four months. Deterministic (a seeded generator); no trace data is copied,
only the column layout and a plausible mix of shapes.

    python -m benchmarks.alibaba_trace OUT_DIR [--nodes 1213] [--pods 8152] [--load 0.1]
"""
from __future__ import annotations

import argparse
import random
from pathlib import Path

# (cpu_milli, memory_mib, gpus, model, weight)
NODE_SHAPES = [(96000, 393216, 8, "G2", 50), (104000, 524288, 2, "T4", 20), (16000, 122880, 2, "P100", 10),
               (128000, 786432, 8, "G3", 8), (32000, 131072, 4, "V100M16", 6), (96000, 786432, 8, "V100M32", 6)]
MONTHS = 4 * 30 * 24 * 3600


def generate(out: Path, nodes: int = 1213, pods: int = 8152, seed: int = 33, load: float = 0.1) -> tuple[Path, Path]:
    """`load`: the GPU-time the pods ask over the GPU-time the cluster offers in the four months
    (above 1, queues must form)."""
    rng = random.Random(seed)
    out.mkdir(parents=True, exist_ok=True)
    nodes_csv, pods_csv = out / "nodes.csv", out / "pods.csv"
    weights = [s[4] for s in NODE_SHAPES]
    total_gpus = 0
    with nodes_csv.open("w") as f:
        f.write("sn,cpu_milli,memory_mib,gpu,model\n")
        for i in range(nodes):
            cpu, mem, gpu, model, _ = rng.choices(NODE_SHAPES, weights)[0]
            total_gpus += gpu
            f.write(f"openb-node-{i:04d},{cpu},{mem},{gpu},{model}\n")
    mean_gpus = sum(g * w for g, w in zip([0, 1, 1, 2, 4, 8], [15, 45, 15, 10, 8, 7])) / 100
    mean_run = load * total_gpus * MONTHS / (pods * mean_gpus)
    with pods_csv.open("w") as f:
        f.write("name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,"
                "scheduled_time\n")
        for i in range(pods):
            created = rng.randrange(MONTHS)
            gpus = rng.choices([0, 1, 1, 2, 4, 8], [15, 45, 15, 10, 8, 7])[0]
            milli = rng.choice([250, 500, 1000]) if gpus == 1 else (1000 if gpus else 0)
            spec = rng.choice(["nan"] * 5 + ["V100M16|V100M32", "G2", "T4"]) if gpus else "nan"
            cpu = rng.choice([2000, 4000, 8000, 16000, 32000])
            mem = rng.choice([8192, 16384, 32768, 65536])
            run = int(rng.expovariate(1 / mean_run)) + 60
            f.write(f"openb-pod-{i:04d},{cpu},{mem},{gpus},{milli},{spec},LS,Succeeded,{created},{created + run},"
                    f"{created}\n")
    return nodes_csv, pods_csv


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("out", type=Path)
    parser.add_argument("--nodes", type=int, default=1213)
    parser.add_argument("--pods", type=int, default=8152)
    parser.add_argument("--load", type=float, default=0.1)
    args = parser.parse_args()
    print(*generate(args.out, args.nodes, args.pods, load=args.load))
