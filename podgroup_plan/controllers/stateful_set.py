"""A StatefulSet -> the ordinals it lacks (`pkg/controller/statefulset/stateful_set_utils.go`:
`getPodName` `<set>-<ordinal>`, labels `statefulset.kubernetes.io/pod-name` and
`apps.kubernetes.io/pod-index`; ordinals from `spec.ordinals.start`)."""
from __future__ import annotations

from podgroup_plan.controllers.context import Creation
from podgroup_plan.model.controllers import StatefulSet
from podgroup_plan.model.objects import OwnerReference

POD_NAME_LABEL = "statefulset.kubernetes.io/pod-name"
POD_INDEX_LABEL = "apps.kubernetes.io/pod-index"


def expand_stateful_set(sts: StatefulSet, ctx: Creation) -> None:
    owner = OwnerReference("StatefulSet", sts.name, True)
    have = {p.name for p in ctx.owned_pods(sts.namespace, "StatefulSet", sts.name)}
    created = 0
    for ordinal in range(sts.ordinals_start, sts.ordinals_start + sts.replicas):
        name = f"{sts.name}-{ordinal}"
        if name in have:
            continue
        labels = {**sts.template.labels, POD_NAME_LABEL: name, POD_INDEX_LABEL: str(ordinal)}
        ctx.add_pod(sts.template, sts.namespace, name, labels, owner, sts.template.pod_group,
                    (), sts.creation_timestamp, sts.source)
        created += 1
    if created > 1 and sts.ordered_ready:
        ctx.notes.add(f"StatefulSet {sts.namespace}/{sts.name}: podManagementPolicy OrderedReady "
                      "creates each pod after the previous one is Ready; the plan creates them all at once")
