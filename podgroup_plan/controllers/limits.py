"""How many pods the controllers of one input may ask the planner to create.

Upstream's `replicas` and `parallelism` are int32 (2,147,483,647), but every pod the planner
creates is built, admitted, queued and planned: at 1,000,000 a Deployment took minutes and a
JobSet ran out of memory (issue 25). The limit is one the planner answers within its speed
goals (README "Speed": 50,000 pending pods in about 11 s on 5,000 nodes), so a typo such as
`replicas: 2000000000` gets a clear answer at once, checked on the decoded objects before
anything is built (`loading/validate.py` reports it with the object's line; `expand()` checks
again for callers of the API). A planner decision, named in the README's "Input limits".
"""
from __future__ import annotations

from typing import Iterable, Iterator, TypeVar

T = TypeVar("T")  # what over_limit is handed back with its count

# Pods in all for the controllers of one input, and so for any one of them.
MAX_CONTROLLER_PODS = 200_000


def pods_asked(kind: str, obj: object, nodes: int = 0) -> tuple[tuple[str, ...], int]:
    """(the field that asks, how many pods) for one controller object: what its controller
    would keep running at once (a Job's parallelism, capped by its completions; a JobSet's or
    TrainJob's replicas times each replicated Job's; a DaemonSet's one per node, of `nodes`;
    the operators' own counts; the replicas of the others)."""
    if kind == "Job":
        return ("spec", "parallelism"), _job_pods(obj)
    if kind in ("JobSet", "TrainJob"):
        total = sum(max(rj.replicas, 0) * _job_pods(rj.job) for rj in obj.replicated_jobs)  # type: ignore[attr-defined]
        return (("spec", "replicatedJobs") if kind == "JobSet" else ("spec", "trainer", "numNodes")), total
    if kind == "DaemonSet":
        return ("spec", "template"), nodes  # at most one pod per node
    if kind in ("PyTorchJob", "TFJob", "LeaderWorkerSet", "RayCluster", "RayJob", "CronJob"):
        from podgroup_plan.controllers.operators import pods_asked as operator_pods

        return operator_pods(kind, obj)
    return ("spec", "replicas"), max(getattr(obj, "replicas", 0) or 0, 0)


def _job_pods(job: object) -> int:
    parallelism, completions = job.parallelism, job.completions  # type: ignore[attr-defined]
    wanted = parallelism if completions is None else min(parallelism, completions)
    return max(wanted, 0)


def over_limit(asked: Iterable[tuple[int, T]]) -> Iterator[tuple[T, int, str]]:
    """For (pods asked, object) of every controller of an input: nothing when they fit the
    limit together, else (object, pods, message) for the biggest and for every other that
    asks for more than a tenth of the limit, biggest first."""
    asked = sorted(asked, key=lambda a: -a[0])
    total = sum(n for n, _ in asked)
    if total <= MAX_CONTROLLER_PODS:
        return
    for i, (n, obj) in enumerate(asked):
        if i and n * 10 < MAX_CONTROLLER_PODS:
            break
        yield obj, n, (f"asks for {n:,} pods; podgroup-plan creates at most "
                       f"{MAX_CONTROLLER_PODS:,} pods for the controllers of one input "
                       f"({total:,} asked in all)")
