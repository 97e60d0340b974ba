"""A JobSet -> the Jobs it lacks (kubernetes-sigs/jobset, `pkg/controllers/jobset_controller.go`:
`constructJobsFromTemplate`, `constructJob`, `labelAndAnnotateObject`; `pkg/util/placement`:
`GenJobName`). JobSet's 2026 releases create no Workload, PodGroup or CompositePodGroup, and its
Jobs have a controller owner, so the Job controller creates none either (docs/controllers.md).
"""
from __future__ import annotations

import hashlib
from dataclasses import replace

from podgroup_plan.controllers.context import Creation
from podgroup_plan.controllers.gang import SINGLE, Leaf, make_gang, pod_by_pod_note
from podgroup_plan.controllers.names import stand_in_uid
from podgroup_plan.model.controllers import Job, JobSet
from podgroup_plan.model.objects import OwnerReference

PREFIX = "jobset.sigs.k8s.io/"


def jobs_of(js: JobSet, existing: set[tuple[str, str]], ctx: Creation, gang_all: bool = False) -> list[Job]:
    """The Jobs `js` would create: `<jobset>-<replicatedJob>-<index>`, except those in the input."""
    uid = js.uid or stand_in_uid("JobSet", js.namespace, js.name)
    owner = OwnerReference("JobSet", js.name, True)
    ctx.parent(js.namespace, "JobSet", js.name, js.owner)
    groups = _gang(js, ctx, gang_all)
    global_replicas = sum(rj.replicas for rj in js.replicated_jobs)
    out: list[Job] = []
    before = 0  # jobs of the replicated jobs listed earlier (job-global-index)
    in_group_before: dict[str, int] = {}
    group_replicas: dict[str, int] = {}
    for rj in js.replicated_jobs:
        group_replicas[rj.group_name] = group_replicas.get(rj.group_name, 0) + rj.replicas
    for rj in js.replicated_jobs:
        group_before = in_group_before.get(rj.group_name, 0)
        for index in range(rj.replicas):
            name = f"{js.name}-{rj.name}-{index}"
            ctx.owner_parents[(js.namespace, "Job", name)] = ("JobSet", js.name)
            if (js.namespace, name) in existing:
                continue
            labels = {
                PREFIX + "jobset-name": js.name,
                PREFIX + "jobset-uid": uid,
                PREFIX + "replicatedjob-name": rj.name,
                PREFIX + "restart-attempt": "0",
                PREFIX + "replicatedjob-replicas": str(rj.replicas),
                PREFIX + "global-replicas": str(global_replicas),
                PREFIX + "job-index": str(index),
                PREFIX + "job-key": hashlib.sha1(f"{js.namespace}/{name}".encode()).hexdigest(),
                PREFIX + "job-global-index": str(before + index),
                PREFIX + "group-name": rj.group_name,
                PREFIX + "group-replicas": str(group_replicas[rj.group_name]),
                PREFIX + "job-group-index": str(group_before + index),
            }
            template = replace(rj.job.template, labels={**rj.job.template.labels, **labels},
                               pod_group=groups.get(rj.name, rj.job.template.pod_group))
            out.append(replace(
                rj.job, namespace=js.namespace, name=name, uid="", template=template,
                owner=owner, suspend=js.suspend or rj.job.suspend,
                creation_timestamp=js.creation_timestamp, source=js.source,
            ))
        before += rj.replicas
        in_group_before[rj.group_name] = group_before + rj.replicas
    if not groups and js.owner is None:
        ctx.notes.add(
            f"JobSet {js.namespace}/{js.name}: JobSet's controller creates no Workload, PodGroup or "
            "CompositePodGroup (its 2026 releases); its Jobs were expanded as plain Jobs")
    if js.in_order_startup:
        ctx.notes.add(f"JobSet {js.namespace}/{js.name}: startupPolicy InOrder creates each "
                      "replicated job after the previous is ready; the plan creates them all at once")
    return out


def _per_job(job: Job) -> int:
    return max(0, job.parallelism if job.completions is None else min(job.parallelism, job.completions))


def _gang(js: JobSet, ctx: Creation, gang_all: bool) -> dict[str, str]:
    """replicated job -> the PodGroup its pods name (empty: pod by pod). `true`: one Gang
    PodGroup per replicated job (every pod of its Jobs) under a Gang CompositePodGroup needing
    them all; `single`: one Gang PodGroup for every pod of the JobSet."""
    kind = js.owner.kind if js.owner is not None else "JobSet"
    shape = js.gang.wanted(gang_all) if js.gang is not None else None
    sizes = {rj.name: max(rj.replicas, 0) * _per_job(rj.job) for rj in js.replicated_jobs}
    own = any(rj.job.template.pod_group is not None for rj in js.replicated_jobs)
    if shape is None or own or not sum(sizes.values()):
        if kind != "JobSet" or (shape is None and not own):
            ctx.notes.add(pod_by_pod_note(kind, js.namespace, js.name))
        return {}
    topology = js.gang.topology_key if js.gang is not None else None
    if shape == "single":
        leaf = Leaf(SINGLE, f"{js.name}-{SINGLE}", sum(sizes.values()), topology)
        ok = make_gang(ctx, kind, js.namespace, js.name, [leaf], None, js.creation_timestamp, js.source)
        return {name: leaf.name for name in sizes} if ok else {}
    leaves = [Leaf(name, f"{js.name}-{name}", n, None) for name, n in sizes.items() if n]
    ok = make_gang(ctx, kind, js.namespace, js.name, leaves, ("jobset", len(leaves), topology),
                   js.creation_timestamp, js.source)
    return {leaf.template: leaf.name for leaf in leaves} if ok else {}
