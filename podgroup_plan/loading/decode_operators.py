"""LeaderWorkerSets, CronJobs, DaemonSets -> model/operators.py objects (the Training Operator's
PyTorchJobs and TFJobs: decode_kubeflow.py; RayClusters and RayJobs: decode_ray.py; TrainJobs:
decode_trainer.py).

Mirrors each operator's defaulting and the validation its webhook or the apiserver applies:

* LeaderWorkerSet: kubernetes-sigs/lws v0.10 `pkg/webhooks/leaderworkerset_webhook.go`
  (replicas 1, size 1, startupPolicy LeaderCreated; replicas in [0, 1000000], size >= 1);
* CronJob: `pkg/apis/batch/v1/defaults.go` (its schedule and time zone are validated by
  validate_cron.py, as `pkg/apis/batch/validation` does);
* DaemonSet: `pkg/controller/daemon/util/daemonset_util.go` (`CreatePodTemplate`: the default
  daemon tolerations are added to the template).

The planner's own gang annotations (`podgroup-plan.io/gang`, `podgroup-plan.io/topology`) are
read here for every operator kind (docs/controllers.md, "Gangs").
"""
from __future__ import annotations

from typing import Mapping

from podgroup_plan.loading.admission import Admission
from podgroup_plan.loading.decode_controllers import decode_template, gang_request, job_from_spec, template_hash
from podgroup_plan.loading.decode_meta import Report, namespace_of, source_of, timestamp
from podgroup_plan.loading.decode_pods import Memo
from podgroup_plan.loading.decode_priorities import PriorityTable
from podgroup_plan.loading.documents import Document
from podgroup_plan.model.operators import (
    CronJob,
    DaemonSet,
    LeaderWorkerSet,
)

LWS_MAX_REPLICAS = 1_000_000  # leaderworkerset_webhook.go
EXCLUSIVE_TOPOLOGY = "leaderworkerset.sigs.k8s.io/exclusive-topology"
# AddOrUpdateDaemonPodTolerations (daemonset_util.go), in its order; the last only with hostNetwork.
DAEMON_TOLERATIONS = (
    ("node.kubernetes.io/not-ready", "NoExecute"),
    ("node.kubernetes.io/unreachable", "NoExecute"),
    ("node.kubernetes.io/disk-pressure", "NoSchedule"),
    ("node.kubernetes.io/memory-pressure", "NoSchedule"),
    ("node.kubernetes.io/pid-pressure", "NoSchedule"),
    ("node.kubernetes.io/unschedulable", "NoSchedule"),
)
NETWORK_UNAVAILABLE = ("node.kubernetes.io/network-unavailable", "NoSchedule")


def decode_leader_worker_set(doc: Document, priorities: PriorityTable, report: Report, memo: Memo,
                             admission: Admission | None = None) -> LeaderWorkerSet:
    obj = doc.obj
    meta, spec = obj["metadata"], obj["spec"]
    namespace = namespace_of(meta)
    lwt = spec["leaderWorkerTemplate"]
    path = ("spec", "leaderWorkerTemplate")
    worker = decode_template(doc, lwt["workerTemplate"], namespace, path + ("workerTemplate",),
                             priorities, report, memo, admission)
    leader = worker
    if lwt.get("leaderTemplate") is not None:
        leader = decode_template(doc, lwt["leaderTemplate"], namespace, path + ("leaderTemplate",),
                                 priorities, report, memo, admission)
    replicas = 1 if spec.get("replicas") is None else spec["replicas"]
    size = 1 if lwt.get("size") is None else lwt["size"]
    if size < 1:
        report(path + ("size",), "size must be equal or greater than 1")
    elif replicas * size > 2**31 - 1:
        report(("spec", "replicas"), f"the product of replicas and worker replicas must not exceed {2**31 - 1}")
    annotations = meta.get("annotations") or {}
    return LeaderWorkerSet(
        namespace=namespace,
        name=meta["name"],
        uid=meta.get("uid") or "",
        leader_template=leader,
        worker_template=worker,
        replicas=replicas,
        size=max(size, 1),
        revision_hash=template_hash(lwt),
        leader_ready_startup=spec.get("startupPolicy") == "LeaderReady",
        exclusive_topology=annotations.get(EXCLUSIVE_TOPOLOGY) or None,
        gang=gang_request(meta, report),
        creation_timestamp=timestamp(meta.get("creationTimestamp"), ("metadata", "creationTimestamp"), report),
        source=source_of(doc),
    )


def decode_cron_job(doc: Document, priorities: PriorityTable, report: Report, memo: Memo,
                    admission: Admission | None = None) -> CronJob:
    obj = doc.obj
    meta, spec = obj["metadata"], obj["spec"]
    namespace = namespace_of(meta)
    template = spec["jobTemplate"]
    job_meta = template.get("metadata") or {}
    job = job_from_spec(doc, job_meta, template["spec"], {}, ("spec", "jobTemplate", "spec"),
                        priorities, report, memo, namespace, "", admission)
    # (the schedule and the time zone are the API server's rules: validate_cron.py)
    time_zone = spec.get("timeZone")
    status = obj.get("status") or {}
    return CronJob(
        namespace=namespace,
        name=meta["name"],
        uid=meta.get("uid") or "",
        job=job,
        schedule=spec.get("schedule") or "",
        time_zone=time_zone,
        suspend=bool(spec.get("suspend")),
        last_schedule_time=timestamp(status.get("lastScheduleTime"), ("status", "lastScheduleTime"), report),
        job_labels=job_meta.get("labels") or {},
        gang=gang_request(meta, report),
        creation_timestamp=timestamp(meta.get("creationTimestamp"), ("metadata", "creationTimestamp"), report),
        source=source_of(doc),
    )


def daemon_template(template: Mapping) -> dict:
    """The template with the tolerations every daemon pod gets (AddOrUpdateDaemonPodTolerations:
    Exists tolerations, added unless the template already tolerates that key and effect)."""
    spec = dict(template["spec"])
    tolerations = list(spec.get("tolerations") or ())
    wanted = DAEMON_TOLERATIONS + ((NETWORK_UNAVAILABLE,) if spec.get("hostNetwork") else ())
    for key, effect in wanted:
        # helper.AddOrUpdateTolerationInPodSpec: an equal toleration (same key, operator,
        # value, effect) is kept, any other is added
        new = {"key": key, "operator": "Exists", "effect": effect}
        if not any((t.get("key"), t.get("operator") or "Equal", t.get("value") or "", t.get("effect") or "")
                   == (key, "Exists", "", effect) for t in tolerations):
            tolerations.append(new)
    spec["tolerations"] = tolerations
    return {**template, "spec": spec}


def decode_daemon_set(doc: Document, priorities: PriorityTable, report: Report, memo: Memo,
                      admission: Admission | None = None) -> DaemonSet:
    obj = doc.obj
    meta, spec = obj["metadata"], obj["spec"]
    namespace = namespace_of(meta)
    template = daemon_template(spec["template"])
    node_name = template["spec"].pop("nodeName", None)  # the controller pins each pod itself
    return DaemonSet(
        namespace=namespace,
        name=meta["name"],
        uid=meta.get("uid") or "",
        template=decode_template(doc, template, namespace, ("spec", "template"),
                                 priorities, report, memo, admission),
        template_hash=template_hash(spec["template"]),
        node_name=node_name or None,
        creation_timestamp=timestamp(meta.get("creationTimestamp"), ("metadata", "creationTimestamp"), report),
        source=source_of(doc),
    )


def operator_decoders(kept: Mapping[str, list[Document]], reporter) -> dict:
    """Each operator kind's decoder, for `decode.Decoder.finish`; a TrainJob's needs the input's
    runtimes (`reporter(doc)`: a Report for a runtime's own document)."""
    from podgroup_plan.loading.decode_kubeflow import decode_pytorch_job, decode_tf_job
    from podgroup_plan.loading.decode_ray import decode_ray_cluster, decode_ray_job
    from podgroup_plan.loading.decode_trainer import Runtimes, train_job_decoder

    runtimes = Runtimes(kept.get("TrainingRuntime", []), kept.get("ClusterTrainingRuntime", []), reporter)
    return {"TrainJob": train_job_decoder(runtimes), "PyTorchJob": decode_pytorch_job,
            "TFJob": decode_tf_job,
            "LeaderWorkerSet": decode_leader_worker_set, "RayCluster": decode_ray_cluster,
            "RayJob": decode_ray_job, "CronJob": decode_cron_job, "DaemonSet": decode_daemon_set}
