"""Kinds known to create pods that the planner does not expand.

Their pods never reach the plan, so a "Feasible" verdict says nothing about them: the result
names each such object (`unplanned`, the summary line) and `--fail-on unplanned` fails on them.
The list is of (API group, kind); a kind of another group with the same name is not matched.
Kinds the planner expands (Job, JobSet, Deployment, ReplicaSet, StatefulSet, DaemonSet,
CronJob, TrainJob, PyTorchJob, TFJob, LeaderWorkerSet, RayCluster, RayJob) are not here; a
ReplicationController with a pod template is (it is read for its selector only).
"""
from __future__ import annotations

POD_CREATING_KINDS = frozenset({
    ("argoproj.io", "Workflow"), ("argoproj.io", "CronWorkflow"), ("argoproj.io", "WorkflowTemplate"),
    ("argoproj.io", "Rollout"),
    ("sparkoperator.k8s.io", "SparkApplication"), ("sparkoperator.k8s.io", "ScheduledSparkApplication"),
    ("kubeflow.org", "MPIJob"), ("kubeflow.org", "XGBoostJob"),
    ("kubeflow.org", "PaddleJob"), ("kubeflow.org", "JAXJob"), ("kubeflow.org", "MXJob"),
    ("kubeflow.org", "Notebook"),
    ("trainer.kubeflow.org", "OptimizationJob"),
    ("ray.io", "RayService"), ("ray.io", "RayCronJob"),
    ("batch.volcano.sh", "Job"), ("flow.volcano.sh", "JobFlow"),
    ("serving.kserve.io", "InferenceService"), ("serving.kserve.io", "LLMInferenceService"),
    ("serving.knative.dev", "Service"), ("serving.knative.dev", "Revision"),
    ("apps.kruise.io", "CloneSet"), ("apps.kruise.io", "StatefulSet"), ("apps.kruise.io", "DaemonSet"),
    ("apps.kruise.io", "BroadcastJob"), ("apps.kruise.io", "AdvancedCronJob"),
    ("disaggregatedset.x-k8s.io", "DisaggregatedSet"),
    ("workload.codeflare.dev", "AppWrapper"),
    ("flink.apache.org", "FlinkDeployment"), ("flink.apache.org", "FlinkSessionJob"),
    ("tekton.dev", "PipelineRun"), ("tekton.dev", "TaskRun"),
})


def creates_pods(group: str, kind: str) -> bool:
    return (group, kind) in POD_CREATING_KINDS
