"""What controllers create, before the plan: Jobs, JobSets, Deployments, ReplicaSets and
StatefulSets expanded into the pods (and Workloads and PodGroups) they would make.

    expand(cluster, gates)        the ClusterInput with what expansion adds (see expand.py)
    without_expansion(cluster)    `--no-expand`: the ClusterInput with a note, nothing added
    with_gangs(cluster)           `--gang`: every operator object planned as a gang

docs/controllers.md says what each 1.37 controller does, with sources.
"""
from podgroup_plan.controllers.expand import expand, with_gangs, without_expansion

__all__ = ["expand", "with_gangs", "without_expansion"]
