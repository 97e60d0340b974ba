"""The pod templates of the operators' kinds, checked as the API server checks the objects their
controllers create from them.

An operator's controller copies each pod template it holds into the pods (or the Jobs, or the
StatefulSets) it creates, and kube-apiserver validates those as any other: `pkg/apis/core/
validation` ValidatePodSpec for a pod, `pkg/apis/batch/validation` ValidateJobSpec for a Job.
A pod template the API server would refuse is bad input here as it is for a Deployment, reported
at the template's own path in the operator's object (validate_pods.py's rules, with their
texts). Only the templates that become pods are checked, as the decoders read them:

* JobSet (jobset.x-k8s.io): each `spec.replicatedJobs[i].template` is a Job's;
* TrainingRuntime / ClusterTrainingRuntime (trainer.kubeflow.org): `spec.template.spec` is a
  JobSet's spec, whose Jobs' pod templates are checked (not their gang minCount: the TrainJob
  sets the trainer's parallelism, decode_trainer.py);
* LeaderWorkerSet: the worker template and the leader template (the StatefulSets' pods);
* RayCluster: the head group's and every worker group's template; RayJob: those of its
  `rayClusterSpec` unless it runs on an existing cluster (`clusterSelector`), and its
  `submitterPodTemplate` in K8sJobMode (decode_ray.py);
* PyTorchJob / TFJob (kubeflow.org): each replica type's template.
"""
from __future__ import annotations

from typing import Any, Iterator

from podgroup_plan.loading.documents import Document, Issue
from podgroup_plan.loading.validate_pods import Path, job_spec_issues, pod_spec_issues

OPERATOR_KINDS = frozenset({"JobSet", "TrainingRuntime", "ClusterTrainingRuntime", "LeaderWorkerSet",
                            "RayCluster", "RayJob", "PyTorchJob", "TFJob"})


def _template(doc: Document, at: Path, template: Any) -> list[Issue]:
    """One pod template (`at`: its path): its spec's rules."""
    if isinstance(template, dict) and isinstance(template.get("spec"), dict):
        return pod_spec_issues(doc, at + ("spec",), template["spec"])
    return []


def _job_set_spec(doc: Document, at: Path, spec: Any, gang: bool = True) -> Iterator[Issue]:
    """A JobSet's spec (`at`: its path): each replicated Job as the API server takes a Job."""
    if not isinstance(spec, dict):
        return
    for i, rj in enumerate(spec.get("replicatedJobs") or ()):
        template = rj.get("template") if isinstance(rj, dict) else None
        if isinstance(template, dict) and isinstance(template.get("spec"), dict):
            yield from job_spec_issues(doc, at + ("replicatedJobs", i, "template", "spec"), template["spec"], gang=gang)


def _ray_cluster_spec(doc: Document, at: Path, spec: Any) -> Iterator[Issue]:
    if not isinstance(spec, dict):
        return
    head = spec.get("headGroupSpec")
    if isinstance(head, dict):
        yield from _template(doc, at + ("headGroupSpec", "template"), head.get("template"))
    for i, group in enumerate(spec.get("workerGroupSpecs") or ()):
        if isinstance(group, dict):
            yield from _template(doc, at + ("workerGroupSpecs", i, "template"), group.get("template"))


def operator_issues(doc: Document) -> list[Issue]:
    """The rules of validate_pods.py for every pod template of one operator object."""
    kind, spec = doc.kind, doc.obj.get("spec")
    if not isinstance(spec, dict):
        return []
    issues: list[Issue] = []
    if kind == "JobSet":
        issues += _job_set_spec(doc, ("spec",), spec)
    elif kind in ("TrainingRuntime", "ClusterTrainingRuntime"):
        template = spec.get("template")
        if isinstance(template, dict):
            issues += _job_set_spec(doc, ("spec", "template", "spec"), template.get("spec"), gang=False)
    elif kind == "LeaderWorkerSet":
        lwt = spec.get("leaderWorkerTemplate")
        if isinstance(lwt, dict):
            for field in ("leaderTemplate", "workerTemplate"):
                issues += _template(doc, ("spec", "leaderWorkerTemplate", field), lwt.get(field))
    elif kind == "RayCluster":
        issues += _ray_cluster_spec(doc, ("spec",), spec)
    elif kind == "RayJob":
        if not spec.get("clusterSelector"):
            issues += _ray_cluster_spec(doc, ("spec", "rayClusterSpec"), spec.get("rayClusterSpec"))
        if (spec.get("submissionMode") or "K8sJobMode") == "K8sJobMode":
            issues += _template(doc, ("spec", "submitterPodTemplate"), spec.get("submitterPodTemplate"))
    elif kind in ("PyTorchJob", "TFJob"):
        field = "pytorchReplicaSpecs" if kind == "PyTorchJob" else "tfReplicaSpecs"
        replicas = spec.get(field)
        for rtype, rspec in (replicas.items() if isinstance(replicas, dict) else ()):
            if isinstance(rspec, dict):
                issues += _template(doc, ("spec", field, rtype, "template"), rspec.get("template"))
    return issues
