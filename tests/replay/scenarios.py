"""Small replay inputs written as manifests (the hand-derived timelines of issue 33)."""
from __future__ import annotations

from pathlib import Path

T0 = "2026-01-01T00:00:00Z"


def at(seconds: int) -> str:
    return f"2026-01-01T00:{seconds // 60:02d}:{seconds % 60:02d}Z"


def node(name: str, gpus: int = 8, labels: str = "{}") -> str:
    return f"""apiVersion: v1
kind: Node
metadata: {{name: {name}, labels: {labels}}}
status:
  allocatable: {{cpu: "64", memory: 512Gi, pods: "110", nvidia.com/gpu: "{gpus}"}}
"""


def pod(name: str, gpus: int, arrival: int | None = None, duration: str | None = None, *, priority: str | None = None,
        grace: int | None = None, node_name: str | None = None, started: int | None = None, group: str | None = None,
        selector: str | None = None, cpu: str = "1") -> str:
    annotations = {}
    if duration is not None:
        annotations["podgroup-plan.io/duration"] = duration
    meta = f"  name: {name}\n"
    if arrival is not None:
        meta += f"  creationTimestamp: \"{at(arrival)}\"\n"
    if annotations:
        meta += "  annotations: {" + ", ".join(f"{k}: \"{v}\"" for k, v in annotations.items()) + "}\n"
    spec = ""
    if priority:
        spec += f"  priorityClassName: {priority}\n"
    if grace is not None:
        spec += f"  terminationGracePeriodSeconds: {grace}\n"
    if node_name:
        spec += f"  nodeName: {node_name}\n"
    if group:
        spec += f"  schedulingGroup: {{podGroupName: {group}}}\n"
    if selector:
        spec += f"  nodeSelector: {selector}\n"
    status = ""
    if started is not None:
        status = f"status: {{phase: Running, startTime: \"{at(started)}\"}}\n"
    return f"""apiVersion: v1
kind: Pod
metadata:
{meta}spec:
{spec}  containers:
  - name: c
    image: x
    resources:
      requests: {{cpu: "{cpu}", nvidia.com/gpu: "{gpus}"}}
      limits: {{nvidia.com/gpu: "{gpus}"}}
{status}"""


def priority_class(name: str, value: int) -> str:
    return f"""apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {{name: {name}}}
value: {value}
"""


def gang(name: str, min_count: int, arrival: int) -> str:
    return f"""apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata:
  name: {name}
  creationTimestamp: "{at(arrival)}"
spec:
  schedulingPolicy:
    gang: {{minCount: {min_count}}}
"""


def basic(name: str, arrival: int) -> str:
    return f"""apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata:
  name: {name}
  creationTimestamp: "{at(arrival)}"
spec:
  schedulingPolicy:
    basic: {{}}
"""


def write(tmp_path: Path, *docs: str, name: str = "input.yaml") -> Path:
    path = tmp_path / name
    path.write_text("---\n".join(docs))
    return path


def job(name: str, gpus: int, arrival: int, duration: str, *, completions: int = 1, parallelism: int = 1,
        priority: str | None = None, grace: int | None = None) -> str:
    spec = ""
    if priority:
        spec += f"      priorityClassName: {priority}\n"
    if grace is not None:
        spec += f"      terminationGracePeriodSeconds: {grace}\n"
    return f"""apiVersion: batch/v1
kind: Job
metadata:
  name: {name}
  creationTimestamp: "{at(arrival)}"
spec:
  completions: {completions}
  parallelism: {parallelism}
  template:
    metadata:
      annotations: {{podgroup-plan.io/duration: "{duration}"}}
    spec:
{spec}      restartPolicy: Never
      containers:
      - name: c
        image: x
        resources:
          requests: {{cpu: "1", nvidia.com/gpu: "{gpus}"}}
          limits: {{nvidia.com/gpu: "{gpus}"}}
"""
