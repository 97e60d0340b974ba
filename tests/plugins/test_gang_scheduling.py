"""GangScheduling's PlacementFeasible: its texts for every count, and the statuses it keeps per
(minCount, scheduled, remaining) are the ones a fresh plugin makes."""
from __future__ import annotations

import itertools

from podgroup_plan.framework.interface import PlacementProgress
from podgroup_plan.framework.status import Code, Status
from podgroup_plan.model.objects import PodGroup
from podgroup_plan.plugins.gang_scheduling import GangScheduling


def _group(min_count: int, policy: str = "Gang") -> PodGroup:
    return PodGroup(namespace="ns", name="g", api_version="scheduling.k8s.io/v1beta1", policy=policy, min_count=min_count)


def test_placement_feasible_texts():
    plugin = GangScheduling()
    assert plugin.placement_feasible(_group(3), PlacementProgress(remaining=1, scheduled=1)) == Status(
        Code.UNSCHEDULABLE, ("minCount (3) cannot be satisfied: 1 scheduled, 1 remaining",), "GangScheduling")
    assert plugin.placement_feasible(_group(3), PlacementProgress(remaining=2, scheduled=1)) == Status(
        Code.WAIT, ("minCount (3) is not yet satisfied: 1 scheduled, 2 remaining",), "GangScheduling")
    assert plugin.placement_feasible(_group(3), PlacementProgress(remaining=0, scheduled=3)).is_success()
    assert plugin.placement_feasible(_group(3, "Basic"), PlacementProgress(remaining=0, scheduled=1)).is_success()


def test_kept_statuses_are_what_a_fresh_plugin_answers():
    asked = GangScheduling()
    cases = list(itertools.product(range(0, 5), range(0, 5), range(0, 5), ("Gang", "Basic")))
    for _ in range(2):  # the second round reads what the first one kept
        for m, s, r, policy in cases:
            group, progress = _group(max(m, 1), policy), PlacementProgress(remaining=r, scheduled=s)
            assert asked.placement_feasible(group, progress) == GangScheduling().placement_feasible(group, progress)
