"""A PyTorchJob or TFJob -> its pods (Kubeflow Training Operator v1, kubeflow/trainer v1.9.4).

Both are reconciled by the same library, `pkg/controller.v1/common/pod.go` (`ReconcilePods`,
`createNewPod`): for each replica type, pods `<job>-<type lowercased>-<index>` for index 0 …
replicas-1 (`GenGeneralName`), except those already in the input; labels
`training.kubeflow.org/operator-name` (`pytorchjob-controller`, `tfjob-controller`),
`training.kubeflow.org/job-name`, `training.kubeflow.org/replica-type` (lowercased),
`training.kubeflow.org/replica-index` (`job_controller.go` `GenLabels`), and
`training.kubeflow.org/job-role: master` on the pod the kind's `IsMasterRole` names: a
PyTorchJob's Master (`pytorchjob_controller.go`); a TFJob's Chief or Master, or its Worker 0 when
it has neither (`tfjob_controller.go`); a controller ownerReference to the job. No pods while
`runPolicy.suspend` is true, none once the job has finished. With `--gang`, one Gang PodGroup
with `minCount` = `runPolicy.schedulingPolicy.minAvailable`, else every replica (`job.go`
`ReconcileJobs`: `minMember := totalReplicas`, overridden by minAvailable).
"""
from __future__ import annotations

from podgroup_plan.controllers.context import Creation
from podgroup_plan.controllers.gang import SINGLE, Leaf, make_gang, pod_by_pod_note
from podgroup_plan.model.objects import OwnerReference
from podgroup_plan.model.operators import KubeflowJob

PREFIX = "training.kubeflow.org/"
CONTROLLER_NAMES = {"PyTorchJob": "pytorchjob-controller", "TFJob": "tfjob-controller"}


def _is_master_role(job: KubeflowJob, rtype: str, index: int) -> bool:
    if job.kind == "TFJob":
        if any(s.type in ("Chief", "Master") for s in job.replica_specs):
            return rtype in ("Chief", "Master")
        return rtype == "Worker" and index == 0
    return rtype == "Master"


def expand_kubeflow_job(job: KubeflowJob, ctx: Creation, gang_all: bool) -> None:
    kind, ns = job.kind, job.namespace
    if job.finished:
        return
    if job.suspend:
        ctx.notes.add(f"{kind} {ns}/{job.name} is suspended: its controller creates no pods")
        return
    group = None
    shape = job.gang.wanted(gang_all)
    total = sum(max(r.replicas, 0) for r in job.replica_specs)
    if shape is not None and total:
        min_count = job.min_available if job.min_available is not None else total
        leaf = Leaf(SINGLE, f"{job.name}-{SINGLE}", min(min_count, total), job.gang.topology_key)
        if make_gang(ctx, kind, ns, job.name, [leaf], None, job.creation_timestamp, job.source):
            group = leaf.name
    elif total:
        ctx.notes.add(pod_by_pod_note(kind, ns, job.name))
    owner = OwnerReference(kind, job.name, True)
    extra = (OwnerReference("PodGroup", group, False),) if group else ()
    for spec in job.replica_specs:
        rtype = spec.type.lower()
        for index in range(spec.replicas):
            name = f"{job.name}-{rtype}-{index}".replace("/", "-")
            if ctx.has_pod(ns, name):
                continue
            labels = {**spec.template.labels, PREFIX + "operator-name": CONTROLLER_NAMES[kind],
                      PREFIX + "job-name": job.name, PREFIX + "replica-type": rtype,
                      PREFIX + "replica-index": str(index)}
            if _is_master_role(job, spec.type, index):
                labels[PREFIX + "job-role"] = "master"
            ctx.add_pod(spec.template, ns, name, labels, owner,
                        group or spec.template.pod_group, extra, job.creation_timestamp, job.source)
