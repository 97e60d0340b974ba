"""The operators' objects in expansion order, and how many pods each asks for.

`operator_jobs` runs first (CronJobs and RayJobs make Jobs, which the Job controller then
expands with every other Job); `expand_operators` runs after the Jobs: RayClusters (those of the
input and those RayJobs make), PyTorchJobs and TFJobs, LeaderWorkerSets, DaemonSets. Each kind's module
says what its operator creates, with sources (docs/controllers.md).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from podgroup_plan.controllers.context import Creation
from podgroup_plan.controllers.cron_job import next_job, reference_time
from podgroup_plan.controllers.daemon_set import expand_daemon_set
from podgroup_plan.controllers.gang import SINGLE, Leaf, make_gang, pod_by_pod_note
from podgroup_plan.controllers.kubeflow_job import expand_kubeflow_job
from podgroup_plan.controllers.leader_worker_set import expand_leader_worker_set
from podgroup_plan.controllers.ray import expand_ray_cluster, ray_job_children
from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.controllers import Controllers, Job


def operator_jobs(found: Controllers, cluster: ClusterInput, ctx: Creation,
                  job_keys: set[tuple[str, str]]) -> tuple[list[Job], list]:
    """(the Jobs CronJobs and RayJobs create, the RayClusters RayJobs create)."""
    jobs: list[Job] = []
    if found.cron_jobs:
        now = reference_time(_times(cluster))
        for cj in found.cron_jobs:
            job = next_job(cj, ctx, now, job_keys)
            if job is not None:
                jobs.append(_cron_gang(cj, job, ctx, found.gang_all))
    clusters = []
    known = {(rc.namespace, rc.name) for rc in found.ray_clusters}
    for rj in found.ray_jobs:
        rc, submitter = ray_job_children(rj, ctx, known)
        if rc is not None:
            clusters.append(rc)
        if submitter is not None and submitter.key not in job_keys:
            jobs.append(submitter)
    return jobs, clusters


def expand_operators(found: Controllers, cluster: ClusterInput, ctx: Creation, ray_clusters: list) -> None:
    gang_all = found.gang_all
    for rc in sorted([*found.ray_clusters, *ray_clusters], key=lambda r: (r.namespace, r.name)):
        expand_ray_cluster(rc, ctx, gang_all)
    for job in sorted([*found.pytorch_jobs, *found.tf_jobs], key=lambda j: (j.namespace, j.name, j.kind)):
        expand_kubeflow_job(job, ctx, gang_all)
    for lws in found.leader_worker_sets:
        expand_leader_worker_set(lws, ctx, gang_all)
    for ds in found.daemon_sets:
        expand_daemon_set(ds, cluster.nodes, ctx)
        if gang_all:
            ctx.notes.add(f"DaemonSet {ds.namespace}/{ds.name}: never planned as a gang (each "
                          "of its pods is pinned to its own node)")


def _cron_gang(cj, job: Job, ctx: Creation, gang_all: bool) -> Job:
    """With `--gang`, the CronJob's Job as one Gang PodGroup (minCount: its parallelism); the
    1.37 Job controller makes none for a Job that has a controller owner."""
    shape = cj.gang.wanted(gang_all)
    size = job.parallelism if job.completions is None else min(job.parallelism, job.completions)
    if job.template.pod_group is not None or size <= 0:
        return job
    if shape is None:
        if size > 1:  # a one-pod Job is the same either way
            ctx.notes.add(pod_by_pod_note("CronJob", cj.namespace, cj.name))
        return job
    leaf = Leaf(SINGLE, f"{job.name}-{SINGLE}", size, cj.gang.topology_key)
    if not make_gang(ctx, "CronJob", cj.namespace, job.name, [leaf], None, job.creation_timestamp, cj.source):
        return job
    ctx.parent(cj.namespace, "PodGroup", leaf.name, job.owner)
    return replace(job, template=replace(job.template, pod_group=leaf.name))


def _times(cluster: ClusterInput):
    """Every timestamp of the input (canonical UTC text): what "now" is for a CronJob."""
    for pod in cluster.pods:
        yield pod.creation_timestamp
        yield pod.start_time
    groups: tuple[Any, ...] = (*cluster.pod_groups, *cluster.composite_pod_groups)
    for group in groups:
        yield group.creation_timestamp
    found = cluster.controllers
    if found is None:
        return
    for kind in ("jobs", "job_sets", "deployments", "replica_sets", "stateful_sets", "train_jobs",
                 "pytorch_jobs", "tf_jobs", "leader_worker_sets", "ray_clusters", "ray_jobs", "cron_jobs",
                 "daemon_sets"):
        objects: tuple[Any, ...] = getattr(found, kind)
        for obj in objects:
            yield obj.creation_timestamp
    for cj in found.cron_jobs:
        yield cj.last_schedule_time


def pods_asked(kind: str, obj) -> tuple[tuple, int]:
    """(the field that asks, how many pods) for the expansion limit (loading/validate.py)."""
    if kind in ("PyTorchJob", "TFJob"):
        field = "pytorchReplicaSpecs" if kind == "PyTorchJob" else "tfReplicaSpecs"
        return ("spec", field), sum(max(r.replicas, 0) for r in obj.replica_specs)
    if kind == "LeaderWorkerSet":
        return ("spec", "replicas"), max(obj.replicas, 0) * max(obj.size, 1)
    if kind == "RayCluster":
        return ("spec", "workerGroupSpecs"), _ray_pods(obj)
    if kind == "RayJob":
        return ("spec", "rayClusterSpec"), (_ray_pods(obj.cluster) if obj.cluster else 0) + (obj.submitter is not None)
    if kind == "CronJob":
        job = obj.job
        per = job.parallelism if job.completions is None else min(job.parallelism, job.completions)
        return ("spec", "jobTemplate", "spec", "parallelism"), max(per, 0)
    return ("spec",), 0


def _ray_pods(rc) -> int:
    return 1 + sum(max(g.replicas, 0) * g.num_of_hosts for g in rc.worker_groups)
