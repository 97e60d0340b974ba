"""A PyTorchJob -> its pods (Kubeflow Training Operator v1, kubeflow/trainer v1.9.4).

Mirrors `pkg/controller.v1/common/pod.go` (`ReconcilePods`, `createNewPod`): for each replica
type, pods `<job>-<type lowercased>-<index>` for index 0 … replicas-1 (`GenGeneralName`), except
those already in the input; labels `training.kubeflow.org/operator-name: pytorchjob-controller`,
`training.kubeflow.org/job-name`, `training.kubeflow.org/replica-type` (lowercased),
`training.kubeflow.org/replica-index`, and `training.kubeflow.org/job-role: master` on the
Master (`job_controller.go` `GenLabels`, `pytorchjob_controller.go` `IsMasterRole`); a controller
ownerReference to the PyTorchJob. No pods while `runPolicy.suspend` is true. With
`--gang`, one Gang PodGroup with `minCount` = `runPolicy.schedulingPolicy.minAvailable`, else
every replica (`job.go` `ReconcileJobs`: `minMember := totalReplicas`, overridden by minAvailable).
"""
from __future__ import annotations

from podgroup_plan.controllers.context import Creation
from podgroup_plan.controllers.gang import SINGLE, Leaf, make_gang, pod_by_pod_note
from podgroup_plan.model.objects import OwnerReference
from podgroup_plan.model.operators import PyTorchJob

PREFIX = "training.kubeflow.org/"
CONTROLLER_NAME = "pytorchjob-controller"


def expand_pytorch_job(job: PyTorchJob, ctx: Creation, gang_all: bool) -> None:
    if job.finished:
        return
    if job.suspend:
        ctx.notes.add(f"PyTorchJob {job.namespace}/{job.name} is suspended: its controller creates no pods")
        return
    group = None
    shape = job.gang.wanted(gang_all)
    total = sum(max(r.replicas, 0) for r in job.replica_specs)
    if shape is not None and total:
        min_count = job.min_available if job.min_available is not None else total
        leaf = Leaf(SINGLE, f"{job.name}-{SINGLE}", min(min_count, total), job.gang.topology_key)
        if make_gang(ctx, "PyTorchJob", job.namespace, job.name, [leaf], None,
                     job.creation_timestamp, job.source):
            group = leaf.name
    elif total:
        ctx.notes.add(pod_by_pod_note("PyTorchJob", job.namespace, job.name))
    owner = OwnerReference("PyTorchJob", job.name, True)
    extra = (OwnerReference("PodGroup", group, False),) if group else ()
    for spec in job.replica_specs:
        rtype = spec.type.lower()
        for index in range(spec.replicas):
            name = f"{job.name}-{rtype}-{index}".replace("/", "-")
            if ctx.has_pod(job.namespace, name):
                continue
            labels = {**spec.template.labels, PREFIX + "operator-name": CONTROLLER_NAME,
                      PREFIX + "job-name": job.name, PREFIX + "replica-type": rtype,
                      PREFIX + "replica-index": str(index)}
            if spec.type == "Master":
                labels[PREFIX + "job-role"] = "master"
            ctx.add_pod(spec.template, job.namespace, name, labels, owner,
                        group or spec.template.pod_group, extra, job.creation_timestamp, job.source)
