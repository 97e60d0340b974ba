"""Scheduled members of each PodGroup, derived from the cluster state.

Upstream keeps a PodGroupState per group in the scheduler's cache (`ScheduledPods()`,
`ScheduledPodsCount()`: assumed and bound pods). Here it is a `PodIndex` on `ClusterState`, so it
follows every assume, forget, eviction and rollback by construction: no second ledger kept by
hand can go stale after a rolled-back trial.
"""
from __future__ import annotations

from podgroup_plan.model.objects import Pod
from podgroup_plan.state.cluster import ClusterState, PodKey
from podgroup_plan.state.derived import DerivedKey

GroupKey = tuple[str, str]


class GroupMembers:
    """group key -> {pod key: (pod, node row)} for every placed pod that names a PodGroup."""

    def __init__(self, state: ClusterState):
        self.members: dict[GroupKey, dict[PodKey, tuple[Pod, int]]] = {}

    def add(self, pod: Pod, node: int) -> None:
        if pod.pod_group:
            self.members.setdefault((pod.namespace, pod.pod_group), {})[pod.key] = (pod, node)

    def remove(self, pod: Pod, node: int) -> None:
        if pod.pod_group:
            group = self.members.get((pod.namespace, pod.pod_group))
            if group is not None:
                group.pop(pod.key, None)


GROUP_MEMBERS: DerivedKey[GroupMembers] = DerivedKey("state/groupMembers")


def _index(state: ClusterState) -> GroupMembers:
    return state.index(GROUP_MEMBERS, GroupMembers)


def scheduled_count(state: ClusterState, group: GroupKey) -> int:
    """PodGroupState.ScheduledPodsCount: the group's placed pods (bound or assumed)."""
    return len(_index(state).members.get(group, ()))


def scheduled_members(state: ClusterState, group: GroupKey) -> list[tuple[Pod, int]]:
    """PodGroupState.ScheduledPods with their node rows, in namespace/name order (upstream's
    order is a map's; README deviations fixes this one)."""
    found = _index(state).members.get(group, {})
    return [found[k] for k in sorted(found)]
