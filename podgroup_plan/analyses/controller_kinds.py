"""The controller objects of an input by the kind users write, for the analyses that copy a
workload (`headroom`) or ask who recreates a displaced pod (`what-if`)."""
from __future__ import annotations

from typing import Any

from podgroup_plan.model.controllers import Controllers

# Controllers' list (model/controllers.py) -> the kind users write. A TrainJob is held as the
# JobSet it makes (owned by the TrainJob, of the same name).
CONTROLLER_KINDS = {
    "jobs": "Job", "job_sets": "JobSet", "deployments": "Deployment", "replica_sets": "ReplicaSet",
    "stateful_sets": "StatefulSet", "train_jobs": "TrainJob", "pytorch_jobs": "PyTorchJob", "tf_jobs": "TFJob",
    "leader_worker_sets": "LeaderWorkerSet", "ray_clusters": "RayCluster", "ray_jobs": "RayJob",
    "cron_jobs": "CronJob", "daemon_sets": "DaemonSet",
}


def controller_objects(found: Controllers | None) -> list[tuple[str, Any]]:
    """(kind, object) of every controller object, whatever its kind."""
    if not found:
        return []
    return [(kind, o) for attr, kind in CONTROLLER_KINDS.items() for o in getattr(found, attr)]
