"""Deployments -> their ReplicaSet, ReplicaSets -> the pods they lack.

Mirrors `pkg/controller/deployment/sync.go` (`getNewReplicaSet`: the new ReplicaSet
`<deployment>-<pod-template-hash>`, the hash added to its selector, template labels and pods;
scaled to the Deployment's replicas) and `pkg/controller/replicaset/replica_set.go`
(`manageReplicas`: `replicas` minus the live pods it controls, named `<replicaset>-<5 chars>`).
The hash and the five characters are made deterministic (docs/controllers.md).
"""
from __future__ import annotations

from dataclasses import replace

from podgroup_plan.controllers.context import Creation
from podgroup_plan.model.controllers import Deployment, ReplicaSet
from podgroup_plan.model.objects import OwnerReference, SpreadSelector
from podgroup_plan.model.selectors import LabelSelector

POD_TEMPLATE_HASH = "pod-template-hash"


def replica_set_of(deploy: Deployment, owned: list[ReplicaSet], ctx: Creation) -> ReplicaSet:
    """The Deployment's current ReplicaSet scaled to its replicas: the newest one it owns in the
    input (highest revision), else the one it creates."""
    owner = OwnerReference("Deployment", deploy.name, True)
    if owned:
        current = max(owned, key=lambda rs: (rs.revision, rs.name))
        return replace(current, replicas=deploy.replicas)
    name = f"{deploy.name}-{deploy.template_hash}"
    template = replace(deploy.template, labels={**deploy.template.labels, POD_TEMPLATE_HASH: deploy.template_hash})
    base = deploy.selector or LabelSelector()
    selector = LabelSelector(tuple(sorted({**dict(base.match_labels), POD_TEMPLATE_HASH: deploy.template_hash}.items())),
                             base.match_expressions)
    # kube-scheduler's default spreading sees the ReplicaSet the controller creates
    ctx.spread_selectors.append(SpreadSelector("ReplicaSet", deploy.namespace, name, selector))
    return ReplicaSet(namespace=deploy.namespace, name=name, uid="", template=template,
                      replicas=deploy.replicas, owner=owner, revision=1,
                      creation_timestamp=deploy.creation_timestamp, source=deploy.source)


def expand_replica_set(rs: ReplicaSet, ctx: Creation) -> None:
    ctx.parent(rs.namespace, "ReplicaSet", rs.name, rs.owner)
    lacking = rs.replicas - len(ctx.owned_pods(rs.namespace, "ReplicaSet", rs.name))
    owner = OwnerReference("ReplicaSet", rs.name, True)
    for n in range(max(0, lacking)):
        name = ctx.free_name(rs.namespace, f"{rs.name}-", str(n))
        ctx.add_pod(rs.template, rs.namespace, name, rs.template.labels, owner,
                    rs.template.pod_group, (), rs.creation_timestamp, rs.source)
