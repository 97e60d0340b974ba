"""GangScheduling's Permit (v1.37.0) and why a plan never shows its
texts: scheduling/permit.py replays the submit sequence."""
from hypothesis import given, strategies as st

from podgroup_plan.framework.status import Code
from podgroup_plan.model.objects import BASIC, GANG, Pod, PodGroup
from podgroup_plan.plugins.gang_scheduling import WAITING_FOR_GANG, GangScheduling
from podgroup_plan.scheduling.permit import submit_through_permit

GANG_SCHEDULING = GangScheduling()


def group(min_count, policy=GANG):
    return PodGroup(namespace="ns", name="g", api_version="scheduling.k8s.io/v1beta1", policy=policy, min_count=min_count)


def pods(n):
    return [Pod("ns", f"p{i}", pod_group="g") for i in range(n)]


def test_permit_waits_below_min_count_with_upstreams_text():
    status = GANG_SCHEDULING.permit(pods(1)[0], group(3), scheduled=2)
    assert status.code == Code.WAIT and status.message == WAITING_FOR_GANG
    assert WAITING_FOR_GANG == "waiting for minCount pods from a gang to be scheduled"
    assert GANG_SCHEDULING.permit(pods(1)[0], group(3), scheduled=3).is_success()
    assert GANG_SCHEDULING.permit(pods(1)[0], group(3, BASIC), scheduled=1).is_success()
    assert GANG_SCHEDULING.permit(pods(1)[0], None, scheduled=1).is_success()


@given(min_count=st.integers(1, 8), before=st.integers(0, 8), fitted=st.integers(1, 8))
def test_a_group_the_cycle_submits_passes_permit_whole(min_count, before, fitted):
    # The cycle submits only when PlacementFeasible said Success on these counts.
    if before + fitted < min_count:
        return
    statuses = submit_through_permit(GANG_SCHEDULING, group(min_count), before, pods(fitted))
    assert all(s.is_success() for s in statuses)


def test_only_a_member_lost_after_the_cycle_leaves_the_others_waiting():
    # Three fitted for minCount 3, but the second fails Reserve (a concurrent cache change, a
    # Reserve plugin): the others wait for a quorum that never comes and would time out.
    statuses = submit_through_permit(GANG_SCHEDULING, group(3), 0, pods(3), reserved=[True, False, True])
    assert [s.code for s in statuses] == [Code.WAIT, Code.UNSCHEDULABLE, Code.WAIT]
    assert statuses[0].message == WAITING_FOR_GANG


def test_the_default_profile_lists_gang_scheduling_at_permit():
    from podgroup_plan.config.configuration import build_profiles

    profile = build_profiles(None, {})["default-scheduler"]
    assert [r.name for r in profile.enabled("permit")] == ["GangScheduling"]
