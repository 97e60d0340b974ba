"""The resource scorers' float paths and the signature cache's filtering over every node give
what the general paths give.

NodeResourcesFit's LeastAllocated and BalancedAllocation's balance with the pod divide by
allocatable converted to float64 once per state (`float_allocatable`), compared here with the
integer paths they replace; the signature cache filters every node on the state's own columns
when most of them passed the static layer (framework/node_cache.py, `_filter_rows`), compared
with the same rows given as another array (`all_nodes.copy()`: gathered columns). Generated clusters include
overcommitted nodes (non-zero defaults above allocatable), amounts near the float64 limit of
2**53 / 100, nodes without memory, and pods asking for more than any node has.
"""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from builders import make_node, make_pod, make_state
from podgroup_plan.framework.interface import CycleState
from podgroup_plan.framework.node_cache import NodeLocalCache
from podgroup_plan.model.objects import Toleration
from podgroup_plan.plugins import balanced_allocation, node_resources_fit
from podgroup_plan.plugins.balanced_allocation import NodeResourcesBalancedAllocation
from podgroup_plan.plugins.helper import few_rows
from podgroup_plan.plugins.node_resources_fit import _ALLOC_FLOAT_MAX, NodeResourcesFit, float_allocatable
from podgroup_plan.plugins.node_unschedulable import NodeUnschedulable
from podgroup_plan.plugins.taint_toleration import TaintToleration

EDGE = _ALLOC_FLOAT_MAX
# every value qualifies for float_allocatable ...
fine = st.one_of(st.sampled_from([1, 1000, 4000, 64000, 32 << 30, EDGE - 1, EDGE]), st.integers(1, EDGE))
# ... or not all do
any_allocatable = st.one_of(fine, st.sampled_from([EDGE + 1, 2**60]))
request = st.one_of(st.integers(0, 8000), st.integers(0, 40 << 30), st.sampled_from([EDGE, 2**53 + 1, 2**55]))


@st.composite
def clusters(draw):
    """More than `few_rows.FEW` nodes (so the array paths run), running pods on some, a pending
    pod; a node without memory now and then (then the general path must be taken)."""
    n = draw(st.integers(few_rows.FEW + 1, 24))
    allocatable = fine if draw(st.booleans()) else any_allocatable
    no_memory = draw(st.booleans()) and draw(st.booleans())
    nodes = [make_node(f"n{i:02d}", cpu=draw(allocatable), memory=0 if no_memory and i == 0 else draw(allocatable),
                       pods=draw(st.sampled_from([1, 3, 110])),
                       taints=[("dedicated", "infra", "NoSchedule")] if draw(st.integers(0, 3)) == 0 else ())
             for i in range(n)]
    running = [make_pod(f"r{k}", node_name=f"n{draw(st.integers(0, n - 1)):02d}",
                        requests={"cpu": draw(request), "memory": draw(request)},
                        containers_without_requests=draw(st.integers(0, 2)))
               for k in range(draw(st.integers(0, 3 * n)))]
    pod = make_pod("p", requests={"cpu": draw(request), "memory": draw(request)},
                   containers_without_requests=draw(st.integers(0, 1)),
                   tolerations=[Toleration("dedicated", "Equal", "infra", "NoSchedule")] if draw(st.booleans()) else ())
    return make_state(nodes, running), pod


def integer_paths(call):
    """`call()` with the float paths turned off (as when an allocatable row does not qualify)."""
    saved = node_resources_fit.float_allocatable, balanced_allocation.float_allocatable
    node_resources_fit.float_allocatable = balanced_allocation.float_allocatable = lambda state, row: None
    try:
        return call()
    finally:
        node_resources_fit.float_allocatable, balanced_allocation.float_allocatable = saved


@settings(max_examples=300, deadline=None)
@given(clusters(), st.data())
def test_float_scores_are_the_integer_paths(cluster, data):
    """Over every node (`state.all_nodes`, the state's own columns) and over some rows (a
    scored pod's feasible nodes: gathered columns)."""
    state, pod = cluster
    some = np.array(sorted(data.draw(st.sets(st.integers(0, state.n - 1), min_size=few_rows.FEW + 1))), dtype=np.intp)
    fit, balance = NodeResourcesFit(), NodeResourcesBalancedAllocation()
    cs = CycleState()
    fit.pre_score(cs, pod, state, state.all_nodes)
    balanced = not balance.pre_score(cs, pod, state, state.all_nodes).is_skip()
    for rows in (state.all_nodes, some):
        got = fit.score(cs, pod, state, rows)
        want = integer_paths(lambda: fit.score(cs, pod, state, rows))
        assert got.dtype == want.dtype == np.int64
        assert got.tolist() == want.tolist()
        if balanced:
            got = balance.score(cs, pod, state, rows)
            want = integer_paths(lambda: balance.score(cs, pod, state, rows))
            assert got.tolist() == want.tolist()


def test_float_allocatable_only_where_every_node_qualifies():
    state = make_state([make_node("a", cpu=1000, memory=EDGE), make_node("b", cpu=2000, memory=EDGE + 1),
                        make_node("c", cpu=3000, memory=0)])
    assert float_allocatable(state, state.resource_index["cpu"]).tolist() == [1000.0, 2000.0, 3000.0]
    assert float_allocatable(state, state.resource_index["memory"]) is None  # one above, one zero
    fine = make_state([make_node("a", cpu=1, memory=EDGE)])
    assert float_allocatable(fine, fine.resource_index["memory"]).tolist() == [float(EDGE)]


@settings(max_examples=200, deadline=None)
@given(clusters())
def test_cached_filters_over_every_node_are_the_general_path(cluster):
    """`_filter_rows` over every node (the dynamic filters then read the state's own columns
    when most nodes pass the static layer) and over a copy of the same rows (gathered columns)
    give the same verdict and failure ids."""
    state, pod = cluster
    fit = NodeResourcesFit()
    cache = NodeLocalCache([NodeUnschedulable(), TaintToleration(), fit], [])
    cs = CycleState()
    fit.pre_filter(cs, pod, state, state.all_nodes)
    static = ((), None, pod.tolerations, None)
    passed, fail_id = cache._filter_rows(cs, pod, state, state.all_nodes, frozenset(), static)
    passed2, fail_id2 = cache._filter_rows(cs, pod, state, state.all_nodes.copy(), frozenset(), static)
    assert passed.tolist() == passed2.tolist()
    assert fail_id.tolist() == fail_id2.tolist()
    assert ((fail_id >= 0) == ~passed).all()
