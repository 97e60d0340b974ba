"""RayClusters and RayJobs (`ray.io/v1`) -> model/operators.py objects.

Mirrors ray-project/kuberay (master of 2026-08-19, release v1.7.0), `ray-operator`:

* `controllers/ray/common/pod.go` `DefaultHeadPodTemplate`, `DefaultWorkerPodTemplate`,
  `labelPod`: the pod labels; workers get the `wait-gcs-ready` init container (200m cpu / 256Mi
  requested; ENABLE_INIT_CONTAINER_INJECTION defaults to true); with `enableInTreeAutoscaling`
  the head gets the `autoscaler` sidecar (500m / 512Mi, or `autoscalerOptions.resources`);
* `controllers/ray/utils/util.go` `GetWorkerGroupDesiredReplicas`: replicas clamped to
  [minReplicas, maxReplicas], times `numOfHosts` (at least 1, as `reconcilePods` sets it);
  a suspended group wants none;
* `controllers/ray/utils/validation.go` `ValidateRayClusterSpec`: the rules with their messages;
* `controllers/ray/rayjob_controller.go` `constructRayClusterForRayJob`, `createNewK8sJob`,
  `common/job.go` `GetSubmitterTemplate`, `GetDefaultSubmitterContainer` (500m / 200Mi): the
  RayCluster a RayJob makes, and its submitter Job in K8sJobMode (SidecarMode puts the submitter
  container into the head pod instead; HTTPMode and InteractiveMode create no submitter pod).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Mapping

from podgroup_plan.loading.admission import Admission
from podgroup_plan.loading.decode_controllers import controller_owner, decode_template, gang_request
from podgroup_plan.loading.decode_meta import Report, namespace_of, source_of, timestamp
from podgroup_plan.loading.decode_pods import Memo
from podgroup_plan.loading.decode_priorities import PriorityTable
from podgroup_plan.loading.documents import Document
from podgroup_plan.model.objects import OwnerReference
from podgroup_plan.model.operators import RayCluster, RayJob, RayWorkerGroup

RAY_GANG_LABEL = "ray.io/gang-scheduling-enabled"
MAX_INT32 = 2**31 - 1
WAIT_GCS_READY = {"name": "wait-gcs-ready", "resources": {
    "limits": {"cpu": "200m", "memory": "256Mi"}, "requests": {"cpu": "200m", "memory": "256Mi"}}}
AUTOSCALER = {"name": "autoscaler", "resources": {
    "limits": {"cpu": "500m", "memory": "512Mi"}, "requests": {"cpu": "500m", "memory": "512Mi"}}}
SUBMITTER = {"name": "ray-job-submitter", "resources": {
    "limits": {"cpu": "1", "memory": "1Gi"}, "requests": {"cpu": "500m", "memory": "200Mi"}}}


def _with_containers(template: Mapping, containers=(), init_containers=(), restart: str | None = None) -> dict:
    spec = dict(template["spec"])
    if containers:
        spec["containers"] = list(spec.get("containers") or ()) + list(containers)
    if init_containers:
        spec["initContainers"] = list(spec.get("initContainers") or ()) + list(init_containers)
    if restart:
        spec["restartPolicy"] = restart
    return {**template, "spec": spec}


def _image(template: Mapping) -> str:
    containers = template["spec"].get("containers") or [{}]
    return containers[0].get("image") or ""


def cluster_from_spec(doc: Document, spec: Mapping, path: tuple, namespace: str, name: str,
                      labels: Mapping, priorities: PriorityTable, report: Report, memo: Memo,
                      admission: Admission | None, owner: OwnerReference | None = None,
                      extra_head: tuple = (), head_restart: str | None = None) -> RayCluster:
    """A RayCluster from its spec at `path` (`("spec",)`, or a RayJob's `rayClusterSpec`)."""
    autoscaling = bool(spec.get("enableInTreeAutoscaling"))
    head_spec = spec["headGroupSpec"]
    head_template = head_spec["template"]
    containers = list(extra_head)
    if autoscaling:
        options = spec.get("autoscalerOptions") or {}
        autoscaler = {**AUTOSCALER, "image": _image(head_template)}
        if options.get("resources") is not None:
            autoscaler["resources"] = options["resources"]
        containers.insert(0, autoscaler)
    head = decode_template(doc, _with_containers(head_template, containers, restart=head_restart),
                           namespace, path + ("headGroupSpec", "template"), priorities, report, memo, admission)
    if not head_template["spec"].get("containers"):
        report(path + ("headGroupSpec", "template", "spec", "containers"), "headGroupSpec should have at least one container")
    groups = []
    for i, wg in enumerate(spec.get("workerGroupSpecs") or ()):
        wpath = path + ("workerGroupSpecs", i)
        group_name = wg["groupName"]
        if not _worker_rules(wg, wpath, autoscaling, report):
            continue
        template = _with_containers(wg["template"], init_containers=[{**WAIT_GCS_READY, "image": _image(wg["template"])}])
        num_of_hosts = max(1, wg.get("numOfHosts") or 1)
        groups.append(RayWorkerGroup(
            name=group_name,
            replicas=_desired_replicas(wg),
            num_of_hosts=num_of_hosts,
            template=decode_template(doc, template, namespace, wpath + ("template",),
                                     priorities, report, memo, admission),
            suspend=bool(wg.get("suspend")),
        ))
    return RayCluster(
        namespace=namespace, name=name, uid="", head=head, worker_groups=tuple(groups),
        suspend=bool(spec.get("suspend")), autoscaling=autoscaling, owner=owner,
        ray_gang_label=str(labels.get(RAY_GANG_LABEL, "")).lower() == "true",
        source=source_of(doc),
    )


def _desired_replicas(wg: Mapping) -> int:
    """GetWorkerGroupDesiredReplicas / numOfHosts: the replica groups wanted."""
    if wg.get("suspend"):
        return 0
    lo = wg.get("minReplicas") or 0
    hi = MAX_INT32 if wg.get("maxReplicas") is None else wg["maxReplicas"]
    replicas = wg.get("replicas")
    if replicas is None or replicas < lo:
        return lo
    return min(replicas, hi)


def _worker_rules(wg: Mapping, path: tuple, autoscaling: bool, report: Report) -> bool:
    """ValidateRayClusterSpec's worker group rules; False: the group creates no pods."""
    name = wg["groupName"]
    ok = True
    if not wg["template"]["spec"].get("containers"):
        report(path + ("template", "spec", "containers"), "workerGroupSpec should have at least one container")
        ok = False
    lo, hi = wg.get("minReplicas"), wg.get("maxReplicas")
    if lo is not None and lo < 0:
        report(path + ("minReplicas",), f"worker group {name} has negative minReplicas {lo}")
        ok = False
    if hi is not None and hi < 0:
        report(path + ("maxReplicas",), f"worker group {name} has negative maxReplicas {hi}")
        ok = False
    if ok and lo is not None and hi is not None and lo > hi:
        report(path + ("minReplicas",), f"worker group {name} has minReplicas {lo} greater than maxReplicas {hi}")
        ok = False
    replicas = wg.get("replicas")
    if replicas is not None and replicas < 0:
        report(path + ("replicas",), f"worker group {name} has negative replicas {replicas}")
        ok = False
    if wg.get("suspend") and autoscaling:
        report(path + ("suspend",), f"worker group {name} cannot be suspended with Autoscaler enabled")
    return ok


def decode_ray_cluster(doc: Document, priorities: PriorityTable, report: Report, memo: Memo,
                       admission: Admission | None = None) -> RayCluster:
    obj = doc.obj
    meta = obj["metadata"]
    cluster = cluster_from_spec(doc, obj["spec"], ("spec",), namespace_of(meta), meta["name"],
                                meta.get("labels") or {}, priorities, report, memo, admission,
                                owner=controller_owner(meta))
    return replace(cluster, uid=meta.get("uid") or "", gang=gang_request(meta, report),
                   creation_timestamp=timestamp(meta.get("creationTimestamp"), ("metadata", "creationTimestamp"), report))


def decode_ray_job(doc: Document, priorities: PriorityTable, report: Report, memo: Memo,
                   admission: Admission | None = None) -> RayJob:
    obj = doc.obj
    meta, spec = obj["metadata"], obj["spec"]
    namespace = namespace_of(meta)
    mode = spec.get("submissionMode") or "K8sJobMode"
    if mode not in ("K8sJobMode", "HTTPMode", "InteractiveMode", "SidecarMode"):
        report(("spec", "submissionMode"), f'unsupported value "{mode}"; supported values: '
                                           '"K8sJobMode", "HTTPMode", "InteractiveMode", "SidecarMode"')
    selector = bool(spec.get("clusterSelector"))
    cluster_spec = spec.get("rayClusterSpec")
    if not selector and cluster_spec is None:
        report(("spec", "rayClusterSpec"), "required when clusterSelector is not set")
    owner = OwnerReference("RayJob", meta["name"], True)
    cluster = None
    if cluster_spec is not None and not selector:
        extra: tuple[dict, ...] = ()
        if mode == "SidecarMode":  # constructRayClusterForRayJob: the submitter rides in the head pod
            extra = ({**SUBMITTER, "image": _image(cluster_spec["headGroupSpec"]["template"])},)
        cluster = cluster_from_spec(doc, cluster_spec, ("spec", "rayClusterSpec"), namespace, "",
                                    meta.get("labels") or {}, priorities, report, memo, admission,
                                    owner=owner, extra_head=extra,
                                    head_restart="Never" if mode == "SidecarMode" else None)
    submitter = None
    if mode == "K8sJobMode":
        template = spec.get("submitterPodTemplate")
        path = ("spec", "submitterPodTemplate")
        if template is None:  # GetSubmitterTemplate's default
            image = _image(cluster_spec["headGroupSpec"]["template"]) if cluster_spec else ""
            template = {"spec": {"containers": [{**SUBMITTER, "image": image}], "restartPolicy": "Never"}}
        submitter = decode_template(doc, template, namespace, path, priorities, report, memo, admission)
    status = obj.get("status") or {}
    deployment = status.get("jobDeploymentStatus") or ""
    config = spec.get("submitterConfig") or {}
    return RayJob(
        namespace=namespace,
        name=meta["name"],
        uid=meta.get("uid") or "",
        cluster=cluster,
        submitter=submitter,
        submitter_backoff_limit=2 if config.get("backoffLimit") is None else config["backoffLimit"],
        cluster_name=status.get("rayClusterName") or None,
        uses_existing_cluster=selector,
        submission_mode=mode,
        suspend=bool(spec.get("suspend")),
        finished=deployment in ("Complete", "Failed"),
        gang=gang_request(meta, report),
        creation_timestamp=timestamp(meta.get("creationTimestamp"), ("metadata", "creationTimestamp"), report),
        source=source_of(doc),
    )

