"""plan() turns the cyclic garbage collector off while it works and leaves it as it found it:
on when it was on, off when it was off, with nothing left frozen, and a caller's own frozen
objects still frozen (plan.py counts what it allocated as old rather than leaving it all to the
first young collection, through gc.freeze and gc.unfreeze)."""
from __future__ import annotations

import gc

from builders import make_node, make_pod
from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.planner import plan


def _cluster() -> ClusterInput:
    return ClusterInput(nodes=(make_node("n1", cpu=4000, memory=8 << 30, pods=110),),
                        pods=(make_pod("p", requests={"cpu": 100}),))


def test_plan_leaves_the_collector_on_and_nothing_frozen():
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0
    result = plan(_cluster())
    assert result.summary.pods_scheduled == 1
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0

    class Cycle:
        pass

    a, b = Cycle(), Cycle()
    a.other, b.other = b, a
    del a, b
    assert gc.collect() >= 2  # still collects cycles


def test_plan_leaves_the_collector_off_when_it_was_off():
    gc.disable()
    try:
        plan(_cluster())
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_plan_keeps_a_callers_frozen_objects_frozen():
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        plan(_cluster())
        assert gc.get_freeze_count() >= frozen
        assert gc.isenabled()
    finally:
        gc.unfreeze()
