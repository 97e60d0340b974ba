"""plan()'s progress callback counts scheduling cycles, not only bindings (issue 24): a backlog
of pods that do not fit, or that preempt, moves it as much as pods that bind."""
from __future__ import annotations

from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import Node, Pod
from podgroup_plan.planner import plan


def _pod(name: str, cpu: int, priority: int = 0, node: str | None = None) -> Pod:
    return Pod(namespace="ns", name=name, node_name=node, priority=priority,
               requests={"cpu": cpu, "memory": 1 << 30}, non_zero_cpu=cpu, non_zero_memory=1 << 30,
               phase="Running" if node else "Pending", creation_timestamp="2026-01-01T00:00:00Z")


def _calls(cluster: ClusterInput) -> list[tuple[int, int]]:
    seen: list[tuple[int, int]] = []
    plan(cluster, progress=lambda done, total: seen.append((done, total)))
    return seen


def test_every_cycle_moves_the_bar_also_when_nothing_binds():
    # one node of 2 cpu: two pods bind, eight do not fit and nothing may be evicted
    cluster = ClusterInput(nodes=(Node("n1", allocatable={"cpu": 2000, "memory": 8 << 30, "pods": 110}),),
                           pods=tuple(_pod(f"p{i}", 1000) for i in range(10)))
    seen = _calls(cluster)
    dones = [d for d, _ in seen]
    assert dones[:10] == list(range(1, 11))  # one report per cycle, the failed ones included
    assert dones == sorted(dones)
    assert all(d <= t for d, t in seen)
    assert seen[-1][0] == seen[-1][1] == 10
    assert seen[0] == (1, 10)  # the first pass announces every entity


def test_a_preempting_cycle_is_reported_and_the_retry_pass_extends_the_total():
    # a high-priority pod evicts the running low one, is nominated, and binds in the next pass
    cluster = ClusterInput(
        nodes=(Node("n1", allocatable={"cpu": 2000, "memory": 8 << 30, "pods": 110}),),
        pods=(_pod("low", 2000, 0, "n1"), _pod("high", 2000, 100)))
    seen = _calls(cluster)
    assert seen[0] == (1, 1)  # the failing, preempting cycle
    assert seen[1] == (2, 2)  # the next pass binds it
    assert seen[-1] == (2, 2)
