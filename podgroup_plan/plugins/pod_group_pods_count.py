"""PodGroupPodsCount: prefer the placement that holds more of the group's pods (PlacementScore).

Mirrors `pkg/scheduler/framework/plugins/podgrouppodscount/podgrouppodscount.go` (v1.37.0):
raw score = the group's scheduled pods (bound or assumed, read after the trials were rolled
back) + the pods the placement's trial proposed; NormalizePlacementScore scales by the largest
raw score, `MinScore + raw * (MaxScore - MinScore) / max` (integer division), and answers an
Error when every raw score is 0.
"""
from __future__ import annotations

import numpy as np

from podgroup_plan.framework.interface import (
    MAX_PLACEMENT_SCORE,
    MIN_PLACEMENT_SCORE,
    Group,
    PlacementScorePlugin,
    PodGroupAssignments,
)
from podgroup_plan.framework.status import Code, Status
from podgroup_plan.state.cluster import ClusterState
from podgroup_plan.state.group_members import scheduled_count

NAME = "PodGroupPodsCount"
NO_PODS_ASSIGNED = "no pods from pod group are assigned to any of the candidate placements"


class PodGroupPodsCount(PlacementScorePlugin):
    name = NAME

    def score_placement(self, group: Group, assignments: PodGroupAssignments, state: ClusterState) -> tuple[int, Status]:
        # With the CompositePodGroup gate upstream sums every leaf under the group
        # (helper.GetPodGroupStates through the snapshot); a leaf PodGroup is its own only leaf.
        leaves = self.handle.composite_leaves.get(group.key) or (group.key,)
        scheduled = sum(scheduled_count(state, key) for key in leaves)
        return scheduled + len(assignments.assignments), Status()

    def normalize_placement_scores(self, group: Group, scores):
        """Lists (the general path) or int64 arrays (kept trials) alike."""
        values = np.asarray(scores, dtype=np.int64)
        top = int(values.max()) if values.size else 0
        if top == 0:
            return scores, Status(Code.ERROR, (NO_PODS_ASSIGNED,), NAME)
        normalised = MIN_PLACEMENT_SCORE + values * (MAX_PLACEMENT_SCORE - MIN_PLACEMENT_SCORE) // top
        return (normalised if isinstance(scores, np.ndarray) else normalised.tolist()), Status()
