"""What controllers create, before the plan: Jobs, JobSets, Deployments, ReplicaSets and
StatefulSets expanded into the pods (and Workloads and PodGroups) they would make.

    expand(cluster, gates)        the ClusterInput with what expansion adds (see expand.py)
    without_expansion(cluster)    `--no-expand`: the ClusterInput with a note, nothing added

docs/controllers.md says what each 1.37 controller does, with sources.
"""
from podgroup_plan.controllers.expand import expand, without_expansion

__all__ = ["expand", "without_expansion"]
