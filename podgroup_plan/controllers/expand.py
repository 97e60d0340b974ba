"""`expand()`: the input plus what its controllers would create, before the plan.

Order follows ownership: JobSets (and TrainJobs, as the JobSet they make), CronJobs and RayJobs
make Jobs, Deployments make (or scale) ReplicaSets; then every Job and ReplicaSet makes the pods
it lacks; StatefulSets make theirs; then the operators' objects (controllers/operators.py). Objects are visited
in (namespace, name) order and names are drawn deterministically, so the result does not depend
on how the input was split into files.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Mapping

from podgroup_plan.controllers.context import Creation
from podgroup_plan.controllers.job import expand_job
from podgroup_plan.controllers.job_set import jobs_of
from podgroup_plan.controllers.limits import over_limit, pods_asked
from podgroup_plan.controllers.operators import expand_operators, operator_jobs
from podgroup_plan.controllers.replica_set import expand_replica_set, replica_set_of
from podgroup_plan.controllers.stateful_set import expand_stateful_set
from podgroup_plan.errors import InputError, Problem
from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.controllers import Controllers


def expand(cluster: ClusterInput, gates: Mapping[str, bool]) -> ClusterInput:
    """`cluster` with the pods, PodGroups, Workloads and ReplicaSet selectors its Jobs, JobSets,
    Deployments, ReplicaSets and StatefulSets would create; notes in `expansion_notes`."""
    found = cluster.controllers
    if found is None or not found:
        return cluster
    check_limit(found)
    ctx = Creation(cluster, gates)

    job_keys = {j.key for j in found.jobs}
    jobs = list(found.jobs)
    for js in (*found.job_sets, *found.train_jobs):
        jobs += jobs_of(js, job_keys, ctx, found.gang_all)
    made, ray_clusters = operator_jobs(found, cluster, ctx, job_keys | {j.key for j in jobs})
    jobs += made

    deployments = {(d.namespace, d.name) for d in found.deployments}
    by_deployment: dict[tuple[str, str], list] = {}
    replica_sets = []
    for rs in found.replica_sets:
        if rs.owner is not None and rs.owner.kind == "Deployment" and (rs.namespace, rs.owner.name) in deployments:
            by_deployment.setdefault((rs.namespace, rs.owner.name), []).append(rs)
        else:
            replica_sets.append(rs)
    for d in found.deployments:
        owned = by_deployment.get((d.namespace, d.name), [])
        if d.paused and not owned:
            # A paused Deployment is only synced (deployment_controller.go: `if d.Spec.Paused
            # { return dc.sync(...) }`), which looks its ReplicaSets up without creating one
            # (getAllReplicaSetsAndSyncRevision(..., createIfNotExisted=false)): nothing to scale.
            ctx.notes.add(f"Deployment {d.namespace}/{d.name} is paused: it creates no ReplicaSet and no pods")
            continue
        replica_sets.append(replica_set_of(d, owned, ctx))

    for job in sorted(jobs, key=lambda j: j.key):
        ctx.parent(job.namespace, "Job", job.name, job.owner)
        expand_job(job, ctx)
    for rs in sorted(replica_sets, key=lambda r: (r.namespace, r.name)):
        expand_replica_set(rs, ctx)
    for sts in found.stateful_sets:
        expand_stateful_set(sts, ctx)
    expand_operators(found, cluster, ctx, ray_clusters)

    def by_key(items):
        return tuple(sorted(items, key=lambda o: (o.namespace, o.name)))

    return replace(
        cluster,
        pods=by_key(cluster.pods + tuple(ctx.pods)),
        pod_groups=by_key(cluster.pod_groups + tuple(ctx.pod_groups)),
        composite_pod_groups=by_key(cluster.composite_pod_groups + tuple(ctx.composite_pod_groups)),
        workloads=by_key(cluster.workloads + tuple(ctx.workloads)),
        spread_selectors=tuple(sorted(cluster.spread_selectors + tuple(ctx.spread_selectors),
                                      key=lambda s: (s.namespace, s.name, s.kind))),
        owner_parents={**cluster.owner_parents, **ctx.owner_parents},
        expansion_notes=tuple(sorted(set(cluster.expansion_notes) | ctx.notes)),
        suspended_groups=frozenset(cluster.suspended_groups | ctx.suspended_groups),
    )


def check_limit(found: Controllers) -> None:
    """Refuse, before anything is built, controllers asking for more pods than the planner
    creates (controllers/limits.py). Loading reports this with each object's line first; this
    is for a ClusterInput built without loading (the API)."""
    asked = [(pods_asked(kind, obj)[1], (kind, obj))
             for kind, objects in (("Job", found.jobs), ("JobSet", found.job_sets),
                                   ("Deployment", found.deployments),
                                   ("ReplicaSet", found.replica_sets),
                                   ("StatefulSet", found.stateful_sets))
             for obj in objects]
    problems = [Problem("<input>", message, kind=kind, namespace=obj.namespace, name=obj.name,
                        path=".".join(pods_asked(kind, obj)[0]))
                for (kind, obj), _, message in over_limit(asked)]
    if problems:
        raise InputError(problems)


def without_expansion(cluster: ClusterInput) -> ClusterInput:
    """`--no-expand`: nothing is created (the controllers are dropped, so a later `expand` adds
    nothing); a note names what was not expanded."""
    found = cluster.controllers
    if found is None or not found:
        return cluster
    counts = [(len(found.jobs), "Job"), (len(found.job_sets), "JobSet"),
              (len(found.deployments), "Deployment"), (len(found.replica_sets), "ReplicaSet"),
              (len(found.stateful_sets), "StatefulSet"), (len(found.train_jobs), "TrainJob"),
              (len(found.pytorch_jobs), "PyTorchJob"), (len(found.tf_jobs), "TFJob"),
              (len(found.leader_worker_sets), "LeaderWorkerSet"),
              (len(found.ray_clusters), "RayCluster"), (len(found.ray_jobs), "RayJob"),
              (len(found.cron_jobs), "CronJob"), (len(found.daemon_sets), "DaemonSet")]
    kinds = ", ".join(f"{kind} ({n})" for n, kind in counts if n)
    note = f"expansion off (--no-expand): {kinds} not expanded into the pods their controllers would create"
    return replace(cluster, controllers=None,
                   expansion_notes=tuple(sorted(set(cluster.expansion_notes) | {note})))


def with_gangs(cluster: ClusterInput) -> ClusterInput:
    """`--gang`: every PyTorchJob, TFJob, TrainJob, JobSet, LeaderWorkerSet, RayCluster, RayJob and
    CronJob is planned as Workload + PodGroups (controllers/gang.py), unless its annotation
    `podgroup-plan.io/gang: "false"` says otherwise."""
    found = cluster.controllers
    if found is None or found.gang_all:
        return cluster
    return replace(cluster, controllers=replace(found, gang_all=True))
