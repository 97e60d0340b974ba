"""A LeaderWorkerSet -> its leader StatefulSet, one worker StatefulSet per group, their pods.

Mirrors kubernetes-sigs/lws v0.10 (main of 2026-08-21):

* `pkg/controllers/leaderworkerset_controller.go` `constructLeaderStatefulSetApplyConfiguration`:
  the leader StatefulSet `<lws>` (replicas = `spec.replicas`, podManagementPolicy Parallel), pod
  template labels `leaderworkerset.sigs.k8s.io/name`, `worker-index: "0"`,
  `template-revision-hash`, annotation `size`; its pods `<lws>-<group>`;
* `pkg/controllers/pod_controller.go` `constructWorkerStatefulSetApplyConfiguration`: for each
  leader pod a worker StatefulSet named as the leader pod, controlled by it, replicas `size - 1`,
  ordinals from 1, labels `group-index`, `name`, `group-key`, `template-revision-hash`; its pods
  `<lws>-<group>-<worker>`;
* `pkg/webhooks/pod_webhook.go` `Default`: the leader's `group-index` (its ordinal) and
  `group-key` (SHA-1 of `<namespace>/<leader pod>`), a worker's `worker-index` (its ordinal);
* the StatefulSet controller's `statefulset.kubernetes.io/pod-name` and
  `apps.kubernetes.io/pod-index` labels (stateful_set.py).

The revision hash is ours (fnv32a of the template's JSON, as for Deployments); upstream hashes
the ControllerRevision. With `--gang`: one Gang PodGroup per group (`minCount` = `size`) under a
Basic CompositePodGroup `<lws>`, what lws#982's phase 1 plans with flat PodGroups.
"""
from __future__ import annotations

import hashlib

from podgroup_plan.controllers.context import Creation
from podgroup_plan.controllers.gang import SINGLE, Leaf, make_gang, pod_by_pod_note
from podgroup_plan.controllers.stateful_set import POD_INDEX_LABEL, POD_NAME_LABEL
from podgroup_plan.model.objects import BASIC, OwnerReference
from podgroup_plan.model.operators import LeaderWorkerSet

PREFIX = "leaderworkerset.sigs.k8s.io/"


def expand_leader_worker_set(lws: LeaderWorkerSet, ctx: Creation, gang_all: bool) -> None:
    ns = lws.namespace
    groups = _gang(lws, ctx, gang_all)
    sts_owner = OwnerReference("StatefulSet", lws.name, True)
    ctx.parent(ns, "StatefulSet", lws.name, OwnerReference("LeaderWorkerSet", lws.name, True))
    base = {PREFIX + "name": lws.name, PREFIX + "template-revision-hash": lws.revision_hash}
    for group in range(lws.replicas):
        leader = f"{lws.name}-{group}"
        key = hashlib.sha1(f"{ns}/{leader}".encode()).hexdigest()  # genGroupUniqueKey
        pod_group = groups.get(group)
        extra = (OwnerReference("PodGroup", pod_group, False),) if pod_group else ()
        # the worker StatefulSet is controlled by the leader pod, which the leader StatefulSet controls
        ctx.parent(ns, "Pod", leader, sts_owner)
        ctx.parent(ns, "StatefulSet", leader, OwnerReference("Pod", leader, True))
        if not ctx.has_pod(ns, leader):
            labels = {**lws.leader_template.labels, **base, PREFIX + "worker-index": "0",
                      PREFIX + "group-index": str(group), PREFIX + "group-key": key,
                      POD_NAME_LABEL: leader, POD_INDEX_LABEL: str(group)}
            ctx.add_pod(lws.leader_template, ns, leader, labels, sts_owner,
                        pod_group or lws.leader_template.pod_group, extra, lws.creation_timestamp, lws.source)
        worker_owner = OwnerReference("StatefulSet", leader, True)
        for worker in range(1, lws.size):
            name = f"{leader}-{worker}"
            if ctx.has_pod(ns, name):
                continue
            labels = {**lws.worker_template.labels, **base, PREFIX + "group-index": str(group),
                      PREFIX + "group-key": key, PREFIX + "worker-index": str(worker),
                      POD_NAME_LABEL: name, POD_INDEX_LABEL: str(worker)}
            ctx.add_pod(lws.worker_template, ns, name, labels, worker_owner,
                        pod_group or lws.worker_template.pod_group, extra, lws.creation_timestamp, lws.source)
    if lws.leader_ready_startup and lws.size > 1 and lws.replicas:
        ctx.notes.add(f"LeaderWorkerSet {ns}/{lws.name}: startupPolicy LeaderReady creates a group's "
                      "workers after its leader is Ready; the plan creates them all at once")
    if lws.exclusive_topology:
        ctx.notes.add(f"LeaderWorkerSet {ns}/{lws.name}: the exclusive-topology affinity its pod "
                      f"webhook adds ({lws.exclusive_topology}) is not modelled")


def _gang(lws: LeaderWorkerSet, ctx: Creation, gang_all: bool) -> dict[int, str]:
    """group index -> the PodGroup its pods name (empty: pod by pod)."""
    shape = lws.gang.wanted(gang_all)
    if not lws.replicas:
        return {}
    if shape is None:
        ctx.notes.add(pod_by_pod_note("LeaderWorkerSet", lws.namespace, lws.name))
        return {}
    topology = lws.gang.topology_key
    if shape == "single":
        leaf = Leaf(SINGLE, f"{lws.name}-{SINGLE}", lws.replicas * lws.size, topology)
        ok = make_gang(ctx, "LeaderWorkerSet", lws.namespace, lws.name, [leaf], None,
                       lws.creation_timestamp, lws.source)
        return {g: leaf.name for g in range(lws.replicas)} if ok else {}
    leaves = [Leaf("group", f"{lws.name}-group-{g}", lws.size, topology) for g in range(lws.replicas)]
    ok = make_gang(ctx, "LeaderWorkerSet", lws.namespace, lws.name, leaves, ("groups", 1, None),
                   lws.creation_timestamp, lws.source, root_policy=BASIC)
    return {g: leaf.name for g, leaf in enumerate(leaves)} if ok else {}
