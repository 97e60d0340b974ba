"""RayClusters -> their head and worker pods; RayJobs -> their RayCluster and submitter Job.

Mirrors ray-project/kuberay `ray-operator/controllers/ray` (master of 2026-08-19, v1.7.0):

* `raycluster_controller.go` `reconcilePods`, `buildHeadPod`, `buildWorkerPod`,
  `reconcileMultiHostWorkerGroup`; `utils/util.go` `PodName`, `GenerateRayWorkerReplicaGroupName`:
  one head pod `<cluster>-head-<5 chars>` (generateName; the prefix cut to 50 characters), and
  per worker group `replicas x numOfHosts` pods `<cluster>-<group>-worker-<5 chars>`, the pods
  already in the input counting; none while `spec.suspend` (or the group's) is true;
* `common/pod.go` `labelPod` and the RayMultiHostIndexing gate (Beta, on): labels
  `ray.io/is-ray-node: "yes"`, `ray.io/cluster`, `ray.io/node-type` (head | worker), `ray.io/group`
  (`headgroup` | the group), `ray.io/identifier` (`<cluster>-<type>`), `app.kubernetes.io/name:
  kuberay`, `app.kubernetes.io/created-by: kuberay-operator`; workers also
  `ray.io/worker-group-replica-index`, and with numOfHosts > 1 `ray.io/worker-group-replica-name`
  (`<group>-<5 chars>`) and `ray.io/replica-host-index`;
* `rayjob_controller.go`: the RayCluster `<rayjob>-<5 chars>` (`GenerateRayClusterName`; the
  name in `status.rayClusterName` when the RayJob has one) with the RayJob's labels plus
  `ray.io/originated-from-cr-name`, `ray.io/originated-from-crd: RayJob`,
  `ray.io/job-submission-mode`, controlled by the RayJob; in K8sJobMode the submitter Job
  `<rayjob>` (backoffLimit 2), created once the cluster is ready (the plan creates it at once).

With `--gang`: one Gang PodGroup for the whole cluster, `minCount` = 1 + the desired workers,
named as KubeRay's own KubernetesWAS integration names it (Workload `<cluster>`, template
`cluster`, PodGroup `<cluster>-cluster`; `batchscheduler/kubernetes-was/v1alpha2`).
"""
from __future__ import annotations

from dataclasses import replace

from podgroup_plan.controllers.context import Creation
from podgroup_plan.controllers.gang import Leaf, make_gang, pod_by_pod_note
from podgroup_plan.controllers.names import random_suffix
from podgroup_plan.model.controllers import Job
from podgroup_plan.model.objects import OwnerReference, Pod
from podgroup_plan.model.operators import RayCluster, RayJob

MAX_PREFIX = 50  # utils.PodName: 63 - len("-worker-") - 5
APP_LABELS = {"app.kubernetes.io/name": "kuberay", "app.kubernetes.io/created-by": "kuberay-operator"}
NOT_OVERRIDABLE = ("ray.io/node-type", "ray.io/group", "ray.io/cluster")
CLUSTER_TEMPLATE = "cluster"  # kubernetes-was/v1alpha2 clusterPodGroupTemplateName


def _labels(template: Pod, cluster: str, node_type: str, group: str) -> dict[str, str]:
    """labelPod: the operator's labels; the template's own win except the three it fixes."""
    labels = {"ray.io/is-ray-node": "yes", "ray.io/cluster": cluster, "ray.io/node-type": node_type,
              "ray.io/group": group, "ray.io/identifier": f"{cluster}-{node_type}"[-63:], **APP_LABELS}
    labels.update({k: v for k, v in template.labels.items() if k not in NOT_OVERRIDABLE})
    return labels


def _prefix(text: str, node_type: str) -> str:
    return f"{text[:MAX_PREFIX]}-{node_type}-".lower()


def expand_ray_cluster(rc: RayCluster, ctx: Creation, gang_all: bool) -> None:
    ns = rc.namespace
    ctx.parent(ns, "RayCluster", rc.name, rc.owner)
    if rc.suspend:
        ctx.notes.add(f"RayCluster {ns}/{rc.name} is suspended: KubeRay creates no pods")
        return
    existing = ctx.owned_pods(ns, "RayCluster", rc.name)
    group = _gang(rc, ctx, gang_all)
    owner = OwnerReference("RayCluster", rc.name, True)
    extra = (OwnerReference("PodGroup", group, False),) if group else ()

    def create(template: Pod, prefix: str, seed: str, labels: dict) -> None:
        ctx.add_pod(template, ns, ctx.free_name(ns, prefix, seed), labels, owner,
                    group or template.pod_group, extra, rc.creation_timestamp, rc.source)

    if not any(p.labels.get("ray.io/node-type") == "head" for p in existing):
        create(rc.head, _prefix(rc.name, "head"), "head", _labels(rc.head, rc.name, "head", "headgroup"))
    for wg in rc.worker_groups:
        have = [p for p in existing if p.labels.get("ray.io/node-type") == "worker"
                and p.labels.get("ray.io/group") == wg.name]
        labels = _labels(wg.template, rc.name, "worker", wg.name)
        prefix = _prefix(f"{rc.name}-{wg.name}", "worker")
        if wg.num_of_hosts == 1:
            for n in range(max(0, wg.replicas - len(have))):
                create(wg.template, prefix, str(n), {**labels, "ray.io/worker-group-replica-index": "0"})
            continue
        # multi-host: whole replica groups, at the lowest free replica indexes
        used = {p.labels.get("ray.io/worker-group-replica-index") for p in have}
        index = 0
        for _ in range(max(0, wg.replicas - len(used))):
            while str(index) in used:
                index += 1
            used.add(str(index))
            replica = f"{wg.name}-{random_suffix(f'{ns}/{rc.name}/{wg.name}/{index}')}"
            for host in range(wg.num_of_hosts):
                create(wg.template, prefix, f"{index}/{host}", {
                    **labels, "ray.io/worker-group-replica-index": str(index),
                    "ray.io/worker-group-replica-name": replica, "ray.io/replica-host-index": str(host)})
    if rc.autoscaling:
        ctx.notes.add(f"RayCluster {ns}/{rc.name}: in-tree autoscaling on: the plan creates the "
                      "desired replicas the spec says now; the autoscaler may change them")


def _gang(rc: RayCluster, ctx: Creation, gang_all: bool) -> str | None:
    kind, ns, name = "RayCluster", rc.namespace, rc.name
    if rc.ray_gang_label:
        ctx.notes.add(f"RayCluster {ns}/{name}: label ray.io/gang-scheduling-enabled is KubeRay's "
                      "opt-in to its KubernetesWAS integration (master, not in v1.7.0), which "
                      "speaks scheduling.k8s.io/v1alpha2, removed in 1.37")
    if rc.gang.wanted(gang_all) is None:
        ctx.notes.add(pod_by_pod_note(kind, ns, name))
        return None
    total = 1 + sum(max(g.replicas, 0) * g.num_of_hosts for g in rc.worker_groups)
    leaf = Leaf(CLUSTER_TEMPLATE, f"{name}-{CLUSTER_TEMPLATE}", total, rc.gang.topology_key)
    if make_gang(ctx, kind, ns, name, [leaf], None, rc.creation_timestamp, rc.source):
        return leaf.name
    return None


def ray_job_children(job: RayJob, ctx: Creation, known_clusters: set[tuple[str, str]]
                     ) -> tuple[RayCluster | None, Job | None]:
    """The RayCluster (unless it is in the input) and the submitter Job a RayJob creates."""
    ns = job.namespace
    if job.finished:
        return None, None
    if job.suspend:
        ctx.notes.add(f"RayJob {ns}/{job.name} is suspended: KubeRay creates no RayCluster for it")
        return None, None
    if job.uses_existing_cluster:
        ctx.notes.add(f"RayJob {ns}/{job.name} uses an existing RayCluster (clusterSelector): "
                      "no cluster is created")
    cluster = None
    if job.cluster is not None:
        name = job.cluster_name or f"{job.name}-{random_suffix(f'{ns}/RayJob/{job.name}')}"
        ctx.parent(ns, "RayCluster", name, OwnerReference("RayJob", job.name, True))
        if (ns, name) not in known_clusters:
            cluster = replace(job.cluster, name=name, namespace=ns, gang=job.gang,
                              creation_timestamp=job.creation_timestamp, source=job.source)
    submitter = None
    if job.submitter is not None:
        ctx.parent(ns, "Job", job.name, OwnerReference("RayJob", job.name, True))
        labels = {"ray.io/originated-from-cr-name": job.name, "ray.io/originated-from-crd": "RayJob",
                  "app.kubernetes.io/created-by": "kuberay-operator"}
        template = replace(job.submitter, labels={**job.submitter.labels, **labels})
        submitter = Job(namespace=ns, name=job.name, uid="", template=template, parallelism=1,
                        owner=OwnerReference("RayJob", job.name, True),
                        creation_timestamp=job.creation_timestamp, source=job.source)
        ctx.notes.add(f"RayJob {ns}/{job.name}: KubeRay creates the submitter Job once the "
                      "RayCluster is ready; the plan creates it at once")
    return cluster, submitter
