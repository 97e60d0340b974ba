"""Replay scenarios for the oracle's `replay` mode (oracle/replay_mode.go): clusters over time,
written as manifests, run through `podgroup-plan replay -o json` and through kube-scheduler
v1.37.2's own queue and cycles on a fake clock, and compared workload by workload (a lone pod; a
PodGroup with its members): when it started, when it ended, on which nodes.

The scenarios stay inside the oracle's replay subset (oracle/README.md: bare pods with the
`podgroup-plan.io/arrival` and `podgroup-plan.io/duration` annotations, running pods with a
`status.startTime`, PodGroups, PriorityClass values written as `spec.priority`) and away from the
shapes where docs/replay.md's "Where the replay simplifies" can make a difference
(`oracle_exclusions.REPLAY_RULES` says which and why): all of a PodGroup's pods arriving
together, no inter-pod affinity, spreading or host ports, no topology constraints, no node
changes, no controllers.
"""
from __future__ import annotations

import calendar
import time
from pathlib import Path
from typing import Any, Mapping

from hypothesis import strategies as st

T0 = calendar.timegm((2026, 1, 1, 0, 0, 0))  # epoch seconds
GPU = "example.com/gpu"
ARRIVAL = "podgroup-plan.io/arrival"
DURATION = "podgroup-plan.io/duration"


def at(seconds: float) -> str:
    """T0 plus `seconds`, as both sides write times (whole seconds: no fraction)."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(T0 + seconds))


def node(name: str, cpu: str = "4", gpus: int = 0, labels: Mapping[str, str] | None = None, pods: int = 110) -> dict:
    allocatable = {"cpu": cpu, "memory": "16Gi", "pods": str(pods)}
    if gpus:
        allocatable[GPU] = str(gpus)
    return {"apiVersion": "v1", "kind": "Node",
            "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name, **(labels or {})}},
            "status": {"allocatable": allocatable, "capacity": dict(allocatable)}}


def pod(name: str, cpu: str = "1", *, gpus: int = 0, arrival: float | None = None, duration: float | None = None,
        priority: int = 0, group: str | None = None, namespace: str = "default", selector: Mapping | None = None,
        node_name: str | None = None, started: float | None = None, grace: int | None = None) -> dict:
    """A bare pod: pending (arriving at T0 + `arrival`) or, with `node_name`, running since
    T0 + `started`; `duration` seconds of run time (None: for ever)."""
    annotations = {}
    if arrival is not None:
        annotations[ARRIVAL] = at(arrival)
    if duration is not None:
        annotations[DURATION] = f"{int(duration)}s"
    requests: dict[str, str] = {"cpu": cpu, "memory": "1Gi"}
    resources: dict[str, Any] = {"requests": requests}
    if gpus:
        requests[GPU] = str(gpus)
        resources["limits"] = {GPU: str(gpus)}
    spec: dict[str, Any] = {"priority": priority, "containers": [{"name": "c", "image": "busybox", "resources": resources}]}
    if grace is not None:
        spec["terminationGracePeriodSeconds"] = grace
    if group is not None:
        spec["schedulingGroup"] = {"podGroupName": group}
    if selector:
        spec["nodeSelector"] = dict(selector)
    doc: dict[str, Any] = {"apiVersion": "v1", "kind": "Pod",
                           "metadata": {"name": name, "namespace": namespace, **({"annotations": annotations} if annotations else {})},
                           "spec": spec}
    if node_name is not None:
        spec["nodeName"] = node_name
        doc["status"] = {"phase": "Running", "startTime": at(started or 0)}
    return doc


def pod_group(name: str, min_count: int | None, priority: int = 0, namespace: str = "default") -> dict:
    """A PodGroup: a gang of `min_count`, or a basic group (None)."""
    policy = {"gang": {"minCount": min_count}} if min_count is not None else {"basic": {}}
    return {"apiVersion": "scheduling.k8s.io/v1beta1", "kind": "PodGroup",
            "metadata": {"name": name, "namespace": namespace},
            "spec": {"schedulingPolicy": policy, "priority": priority}}


def without_preemption() -> dict:
    return {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
            "profiles": [{"schedulerName": "default-scheduler",
                          "plugins": {"multiPoint": {"disabled": [{"name": "DefaultPreemption"}]}}}]}


@st.composite
def replay_cases(draw) -> dict:
    """A few nodes (now and then one that holds 3 pods), pods running at the start (with their
    remaining time), lone pods and PodGroups (gang or basic) arriving over five minutes with run
    times of seconds to minutes, priorities, grace periods of 0, 5 or 30 s and, now and then, a
    node selector no node or only some nodes meet; resources scarce enough that work waits.
    Preemption on (2 cases in 3) or off; SchedulerPopFromBackoffQ on (3 in 4) or off. Arrivals
    and durations are multiples of 5 s, so that events coincide."""
    docs: list[dict] = []
    free: dict[str, list[float]] = {}  # node -> [cpu, gpus] left by the running pods
    for i in range(draw(st.integers(1, 4))):
        labels = {"disk": draw(st.sampled_from(["ssd", "hdd"]))} if draw(st.booleans()) else {}
        cpu, gpus = draw(st.sampled_from([2, 4, 4])), draw(st.sampled_from([0, 0, 2, 4]))
        slots = draw(st.sampled_from([110, 110, 110, 3]))  # now and then a node full by its pod count
        docs.append(node(f"node-{i}", cpu=str(cpu), gpus=gpus, labels=labels, pods=slots))
        free[f"node-{i}"] = [cpu, gpus, slots]
    any_gpu = any(g for _, g, _ in free.values())
    graces = st.sampled_from([0, 5, 30])  # terminationGracePeriodSeconds: how long a victim holds its node
    priorities = st.sampled_from([0, 0, 100, 1000])
    cpus = st.sampled_from([0.5, 1, 2, 3])
    seconds = st.integers(0, 60).map(lambda n: 5 * n)  # arrivals 0..300 s
    durations = st.integers(2, 80).map(lambda n: 5 * n)  # 10..400 s

    def millicores(cpu: float) -> str:
        return f"{int(cpu * 1000)}m"

    def gpus() -> int:
        return draw(st.sampled_from([0, 0, 1, 2])) if any_gpu else 0

    # running pods fit where they run (the input is a cluster a kubelet would accept)
    for i in range(draw(st.integers(0, 4))):
        where = draw(st.sampled_from(sorted(free)))
        cpu, gpu = draw(cpus), gpus()
        if cpu > free[where][0] or gpu > free[where][1] or free[where][2] < 1:
            continue
        free[where][0] -= cpu
        free[where][1] -= gpu
        free[where][2] -= 1
        docs.append(pod(f"run-{i}", millicores(cpu), gpus=gpu, duration=draw(st.one_of(st.none(), durations)),
                        priority=draw(priorities), node_name=where, started=-draw(st.integers(0, 24)) * 5, grace=draw(graces)))
    for i in range(draw(st.integers(1, 7))):
        selector = None
        if draw(st.integers(0, 5)) == 0:
            selector = {"disk": draw(st.sampled_from(["ssd", "hdd", "nvme"]))}
        docs.append(pod(f"single-{i}", millicores(draw(cpus)), gpus=gpus(), arrival=draw(seconds), duration=draw(durations),
                        priority=draw(priorities), namespace=draw(st.sampled_from(["default", "default", "team-a"])),
                        selector=selector, grace=draw(graces)))
    for g in range(draw(st.integers(0, 2))):
        size = draw(st.integers(1, 3))
        min_count = draw(st.one_of(st.none(), st.integers(1, size)))
        priority = draw(priorities)
        ns = draw(st.sampled_from(["default", "team-a"]))
        docs.append(pod_group(f"group-{g}", min_count, priority, ns))
        cpu, gpu, arrival, duration, grace = millicores(draw(cpus)), gpus(), draw(seconds), draw(durations), draw(graces)
        for j in range(size):
            docs.append(pod(f"group-{g}-{j}", cpu, gpus=gpu, arrival=arrival, duration=duration, priority=priority,
                            group=f"group-{g}", namespace=ns, grace=grace))
    config = without_preemption() if draw(st.integers(0, 2)) == 0 else None
    gates = {"SchedulerPopFromBackoffQ": draw(st.sampled_from([True, True, True, False]))}
    return {"documents": docs, "config": config, "gates": gates}


# ----- running both sides ------------------------------------------------------------------------

def planner_replay(manifests: Path, gates: Mapping[str, bool]) -> dict:
    """`podgroup-plan replay MANIFESTS -o json` (in-process, as tests/replay/test_cli_replay.py
    runs it); the configuration, if any, is among the manifests."""
    import json

    from typer.testing import CliRunner

    from podgroup_plan.cli import app

    args = ["replay", str(manifests), "-o", "json"]
    if gates:
        args += ["--feature-gates", ",".join(f"{k}={'true' if v else 'false'}" for k, v in sorted(gates.items()))]
    result = CliRunner().invoke(app, args)
    if result.exit_code != 0:
        raise AssertionError(f"podgroup-plan replay failed ({result.exit_code}): {result.output}")
    return json.loads(result.output)


def oracle_workloads(report: Mapping) -> dict[tuple[str, str, str], dict]:
    """The oracle's pods as the planner's workloads: a lone pod, or a PodGroup's members (the
    first start, the last end once all ended, the nodes, the status)."""
    by: dict[tuple[str, str, str], list[Mapping]] = {}
    for p in report["pods"]:
        k = ("PodGroup", p["namespace"], p["podGroup"]) if p["podGroup"] else ("Pod", p["namespace"], p["name"])
        by.setdefault(k, []).append(p)
    out = {}
    for k, pods in by.items():
        starts = [p["start"] for p in pods if p["start"] is not None]
        ended = all(p["end"] is not None for p in pods)
        start = min(starts) if starts else None
        end = max(p["end"] for p in pods) if ended else None
        status = "Pending" if start is None else ("Running" if end is None else (
            "Preempted" if any(p["endedBy"] == "preempted" for p in pods) else "Completed"))
        out[k] = {"start": start, "end": end, "nodes": sorted({p["node"] for p in pods if p["node"]}), "status": status,
                  "attempts": max(p["attempts"] for p in pods)}
    return out


def planner_workloads(doc: Mapping) -> dict[tuple[str, str, str], dict]:
    return {(w["kind"], w["namespace"], w["name"]): {"start": w["start"], "end": w["end"], "nodes": w["nodes"],
                                                     "status": w["status"], "attempts": w["attempts"]}
            for w in doc["workloads"]}


COMPARED = ("start", "end", "nodes", "status")


def compare_replay(planner: Mapping, oracle: Mapping) -> list[str]:
    """Every workload's start, end, nodes and status must agree; attempts are counted
    differently (docs/replay.md: shortcut retries and counted flushes are attempts; the oracle
    counts the cycles a pod was in) and are not compared."""
    problems = []
    mine, theirs = planner_workloads(planner), oracle_workloads(oracle)
    for k in sorted(set(mine) | set(theirs)):
        a, b = mine.get(k), theirs.get(k)
        if a is None or b is None:
            problems.append(f"{k[0]} {k[1]}/{k[2]}: only in {'the oracle' if a is None else 'the planner'}")
            continue
        for field in COMPARED:
            if a[field] != b[field]:
                problems.append(f"{k[0]} {k[1]}/{k[2]}: {field} planner {a[field]!r}, kube-scheduler {b[field]!r}")
    return problems


def replay_outcome(report: Mapping) -> tuple:
    """What one oracle run decided (oracle_exclusions rule 12: is it the same every run?)."""
    return tuple(sorted((k, tuple(v[f] if f != "nodes" else tuple(v[f]) for f in COMPARED))
                        for k, v in oracle_workloads(report).items()))
