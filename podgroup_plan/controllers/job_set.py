"""A JobSet -> the Jobs it lacks (kubernetes-sigs/jobset, `pkg/controllers/jobset_controller.go`:
`constructJobsFromTemplate`, `constructJob`, `labelAndAnnotateObject`; `pkg/util/placement`:
`GenJobName`). JobSet's 2026 releases create no Workload, PodGroup or CompositePodGroup, and its
Jobs have a controller owner, so the Job controller creates none either (docs/controllers.md).
"""
from __future__ import annotations

import hashlib
from dataclasses import replace

from podgroup_plan.controllers.context import Creation
from podgroup_plan.controllers.names import stand_in_uid
from podgroup_plan.model.controllers import Job, JobSet
from podgroup_plan.model.objects import OwnerReference

PREFIX = "jobset.sigs.k8s.io/"


def jobs_of(js: JobSet, existing: set[tuple[str, str]], ctx: Creation) -> list[Job]:
    """The Jobs `js` would create: `<jobset>-<replicatedJob>-<index>`, except those in the input."""
    uid = js.uid or stand_in_uid("JobSet", js.namespace, js.name)
    owner = OwnerReference("JobSet", js.name, True)
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
            template = replace(rj.job.template, labels={**rj.job.template.labels, **labels})
            out.append(replace(
                rj.job, namespace=js.namespace, name=name, uid="", template=template,
                owner=owner, suspend=js.suspend or rj.job.suspend,
                creation_timestamp=js.creation_timestamp, source=js.source,
            ))
        before += rj.replicas
        in_group_before[rj.group_name] = group_before + rj.replicas
    ctx.notes.add(
        f"JobSet {js.namespace}/{js.name}: JobSet's controller creates no Workload, PodGroup or "
        "CompositePodGroup (its 2026 releases); its Jobs were expanded as plain Jobs")
    if js.in_order_startup:
        ctx.notes.add(f"JobSet {js.namespace}/{js.name}: startupPolicy InOrder creates each "
                      "replicated job after the previous is ready; the plan creates them all at once")
    return out
