"""Which pods and group cycles a Tracer records: a pod; a PodGroup's members; every PodGroup
below a CompositePodGroup (its whole tree), never a neighbour's."""
from __future__ import annotations

import pytest

from podgroup_plan.explain import COMPOSITE_POD_GROUP, POD, POD_GROUP, Target
from podgroup_plan.explain.trace import Tracer
from podgroup_plan.model.objects import Pod

# root <- zone-a <- (rack-0, rack-1); other (a separate tree); lone (no parent)
PARENTS = {
    ("ns", "rack-0"): ("ns", "zone-a"), ("ns", "rack-1"): ("ns", "zone-a"),
    ("ns", "zone-a"): ("ns", "root"), ("ns", "root"): None,
    ("ns", "other"): ("ns", "other-root"), ("ns", "other-root"): None, ("ns", "lone"): None,
    # a cycle in bad input must not hang the tracer
    ("ns", "loop-a"): ("ns", "loop-b"), ("ns", "loop-b"): ("ns", "loop-a"),
}


def _pod(name: str, group: str | None) -> Pod:
    return Pod(namespace="ns", name=name, pod_group=group)


@pytest.mark.parametrize("target, pod, wanted", [
    (Target(POD, "ns", "p"), _pod("p", "rack-0"), True),
    (Target(POD, "ns", "p"), _pod("q", "rack-0"), False),
    (Target(POD_GROUP, "ns", "rack-0"), _pod("p", "rack-0"), True),
    (Target(POD_GROUP, "ns", "rack-0"), _pod("p", "rack-1"), False),
    (Target(POD_GROUP, "ns", "rack-0"), _pod("p", None), False),
    (Target(COMPOSITE_POD_GROUP, "ns", "root"), _pod("p", "rack-1"), True),
    (Target(COMPOSITE_POD_GROUP, "ns", "zone-a"), _pod("p", "rack-0"), True),
    (Target(COMPOSITE_POD_GROUP, "ns", "root"), _pod("p", "other"), False),
    (Target(COMPOSITE_POD_GROUP, "ns", "root"), _pod("p", "lone"), False),
    (Target(COMPOSITE_POD_GROUP, "ns", "root"), _pod("p", "loop-a"), False),
], ids=["pod", "other-pod", "member", "neighbour-group", "lone-pod", "leaf-under-root",
        "leaf-under-middle", "other-tree", "no-parent", "parent-cycle"])
def test_which_pods_are_recorded(target, pod, wanted):
    assert Tracer(target, PARENTS).wants(pod) is wanted


def test_group_cycles_of_the_tree_are_recorded():
    tracer = Tracer(Target(COMPOSITE_POD_GROUP, "ns", "root"), PARENTS)
    assert tracer.wants_group("ns", "rack-0") and tracer.wants_group("ns", "root")
    assert not tracer.wants_group("ns", "other")
    assert not Tracer(Target(POD, "ns", "p"), PARENTS).wants_group("ns", "rack-0")
