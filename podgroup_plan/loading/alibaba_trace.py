"""`replay --trace alibaba-gpu NODES.csv PODS.csv`: the Alibaba GPU cluster trace as the FGD
paper published it (alibaba/clusterdata, cluster-trace-gpu-v2023, "openb" files), read straight
into the model with each pod's arrival and run time.

NODES.csv: `sn,cpu_milli,memory_mib,gpu,model`. PODS.csv: `name,cpu_milli,memory_mib,num_gpu,
gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time` (times in seconds
from the trace's start; columns are found by their header, so extra ones are ignored).

* A node gets `nvidia.com/gpu: gpu` and the label `nvidia.com/gpu.product: <model>`.
* A pod asks `num_gpu` whole GPUs: a GPU-sharing pod (`gpu_milli` < 1000) takes one whole GPU,
  as the NVIDIA device plugin gives it (no GPU sharing is modelled). `gpu_spec` (`V100M16|V100M32`,
  `nan`: none) becomes required node affinity on the GPU model.
* It arrives at `creation_time` (seconds after 1970-01-01T00:00:00Z, as the trace counts) and
  runs `deletion_time - scheduled_time` seconds (`deletion_time - creation_time` without a
  scheduled time): how long it ran in production, whenever the replay starts it.

Every bad row is reported, with the file and its line, before anything runs.
"""
from __future__ import annotations

import csv
from typing import Iterator

from podgroup_plan.errors import InputError, Problem
from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import Affinity, Node, Pod
from podgroup_plan.model.selectors import NodeSelector, NodeSelectorRequirement, NodeSelectorTerm
from podgroup_plan.model.timing import Timing, TimingKey

GPU = "nvidia.com/gpu"
MODEL_LABEL = "nvidia.com/gpu.product"
NODE_COLUMNS = ("sn", "cpu_milli", "memory_mib", "gpu", "model")
POD_COLUMNS = ("name", "cpu_milli", "memory_mib", "num_gpu", "gpu_milli", "gpu_spec", "creation_time",
               "deletion_time", "scheduled_time")
NAMESPACE = "default"
MIB = 1 << 20


def _rows(path: str, required: tuple[str, ...], problems: list[Problem]) -> Iterator[tuple[int, dict[str, str]]]:
    try:
        handle = open(path, newline="", encoding="utf-8")
    except OSError as err:
        problems.append(Problem(path, f"cannot read: {err.strerror or err}"))
        return
    with handle:
        reader = csv.reader(handle)
        try:
            header = [h.strip() for h in next(reader)]
        except StopIteration:
            problems.append(Problem(path, "empty file; expected a header: " + ",".join(required), line=1))
            return
        except (csv.Error, UnicodeDecodeError) as err:
            problems.append(Problem(path, f"not CSV: {err}", line=1))
            return
        missing = [c for c in required if c not in header]
        if missing:
            problems.append(Problem(path, f"header lacks {', '.join(missing)}; expected " + ",".join(required), line=1))
            return
        try:
            for row in reader:
                if not row or all(not c.strip() for c in row):
                    continue
                line = reader.line_num
                if len(row) < len(header):
                    problems.append(Problem(path, f"{len(row)} columns, the header has {len(header)}", line=line))
                    continue
                yield line, {h: c.strip() for h, c in zip(header, row)}
        except (csv.Error, UnicodeDecodeError) as err:
            problems.append(Problem(path, f"not CSV: {err}", line=reader.line_num))


def _number(row: dict[str, str], column: str, path: str, line: int, problems: list[Problem],
            optional: bool = False) -> float | None:
    text = row.get(column, "")
    if text in ("", "nan") and optional:
        return None
    try:
        value = float(text)
        if value != value or value < 0:
            raise ValueError
        return value
    except ValueError:
        problems.append(Problem(path, f"column {column}: {text!r} is not a number of 0 or more", line=line))
        return None


def read_trace(nodes_csv: str, pods_csv: str) -> tuple[ClusterInput, dict[TimingKey, Timing]]:
    problems: list[Problem] = []
    nodes = []
    seen: set[str] = set()
    for line, row in _rows(nodes_csv, NODE_COLUMNS, problems):
        values = [_number(row, c, nodes_csv, line, problems) for c in ("cpu_milli", "memory_mib", "gpu")]
        name = row["sn"]
        if not name:
            problems.append(Problem(nodes_csv, "column sn: empty node name", line=line))
        elif name in seen:
            problems.append(Problem(nodes_csv, f"node {name} listed twice", line=line))
        seen.add(name)
        if None in values or not name:
            continue
        cpu, memory, gpus = values
        allocatable = {"cpu": int(cpu or 0), "memory": int(memory or 0) * MIB, "pods": 110}
        if gpus:
            allocatable[GPU] = int(gpus)
        model = row["model"]
        labels = {"kubernetes.io/hostname": name}
        if model and model != "nan":
            labels[MODEL_LABEL] = model
        nodes.append(Node(name, labels=labels, allocatable=allocatable))
    pods = []
    timing: dict[TimingKey, Timing] = {}
    names: set[str] = set()
    for line, row in _rows(pods_csv, POD_COLUMNS, problems):
        name = row["name"]
        cpu, memory, gpus = (_number(row, c, pods_csv, line, problems) for c in ("cpu_milli", "memory_mib", "num_gpu"))
        _number(row, "gpu_milli", pods_csv, line, problems, optional=True)
        created = _number(row, "creation_time", pods_csv, line, problems)
        deleted = _number(row, "deletion_time", pods_csv, line, problems)
        scheduled = _number(row, "scheduled_time", pods_csv, line, problems, optional=True)
        if not name:
            problems.append(Problem(pods_csv, "column name: empty pod name", line=line))
        elif name in names:
            problems.append(Problem(pods_csv, f"pod {name} listed twice", line=line))
        names.add(name)
        if None in (cpu, memory, gpus, created, deleted) or not name:
            continue
        began = scheduled if scheduled is not None else created
        assert began is not None and deleted is not None and created is not None
        if deleted < began:
            problems.append(Problem(pods_csv, f"deletion_time {row['deletion_time']} is before "
                                    f"{'scheduled_time' if scheduled is not None else 'creation_time'} {began:g}",
                                    line=line))
            continue
        requests = {"cpu": int(cpu or 0), "memory": int(memory or 0) * MIB}
        if gpus:
            requests[GPU] = int(gpus) if gpus >= 1 else 1  # a share of a GPU takes a whole one
        affinity = None
        spec = row["gpu_spec"]
        if spec and spec != "nan":
            models = tuple(sorted({m for m in spec.split("|") if m}))
            affinity = Affinity(node_required=NodeSelector(terms=(NodeSelectorTerm(
                match_expressions=(NodeSelectorRequirement(MODEL_LABEL, "In", models),)),)))
        pods.append(Pod(NAMESPACE, name, requests=requests, non_zero_cpu=int(cpu or 0) or 100,
                        non_zero_memory=int(memory or 0) * MIB or 200 * MIB, affinity=affinity))
        timing[("Pod", NAMESPACE, name)] = Timing(duration=deleted - began, arrival=created)
    if problems:
        raise InputError(sorted(problems, key=Problem.sort_key))
    return ClusterInput(nodes=tuple(sorted(nodes, key=lambda n: n.name)),
                        pods=tuple(sorted(pods, key=lambda p: (p.namespace, p.name))),
                        namespaces={NAMESPACE: {}}), timing
