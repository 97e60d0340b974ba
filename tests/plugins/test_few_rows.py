"""The scalar paths for a few rows (plugins/helper/few_rows.py) compute what the array versions
compute, on generated nodes: empty, full, overcommitted, without allocatable, with amounts up to
2**50, several weights; and NodeResourcesFit's Filter and Score and BalancedAllocation's Score
answer the same on a few rows of a generated cluster either way."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from builders import make_node, make_pod, make_state
from podgroup_plan.framework.interface import CycleState
from podgroup_plan.plugins import balanced_allocation, node_resources_fit
from podgroup_plan.plugins.balanced_allocation import NodeResourcesBalancedAllocation
from podgroup_plan.plugins.helper import few_rows
from podgroup_plan.plugins.node_resources_fit import NodeResourcesFit

amount = st.one_of(st.integers(0, 4), st.integers(0, 64_000), st.integers(0, 2**50))


@st.composite
def columns(draw, k: int):
    m = draw(st.integers(0, few_rows.FEW))
    alloc = [np.array(draw(st.lists(amount, min_size=m, max_size=m)), dtype=np.int64) for _ in range(k)]
    used = [np.array(draw(st.lists(amount, min_size=m, max_size=m)), dtype=np.int64) for _ in range(k)]
    return m, alloc, used


def array_path(fn, *args):
    """Run the array version: no row count is few enough."""
    before = few_rows.FEW
    few_rows.FEW = -1
    try:
        return fn(*args)
    finally:
        few_rows.FEW = before


@settings(max_examples=300, deadline=None)
@given(columns(2))
def test_balance_of_two_resources_is_the_array_versions(cols):
    m, alloc, used = cols
    fast = balanced_allocation._balance_two(used, alloc)
    slow = array_path(balanced_allocation._balance_two, used, alloc)
    assert fast.dtype == slow.dtype == np.int64 and len(fast) == m
    assert fast.tolist() == slow.tolist()


@settings(max_examples=300, deadline=None)
@given(columns(3), st.lists(amount, min_size=3, max_size=3), st.lists(st.integers(1, 5), min_size=3, max_size=3),
       st.sets(st.integers(0, 2), max_size=3))
def test_least_allocated_is_the_array_versions(cols, requests, weights, left_out):
    m, alloc, used = cols
    # `amounts` as node_score_amounts gives it: (resource position, allocatable, used), some
    # resources left out (a scalar resource the pod does not request)
    amounts = [(i, alloc[i], used[i]) for i in range(3) if i not in left_out]
    pod_requests = np.array(requests, dtype=np.int64)
    fast = node_resources_fit.least_allocated(amounts, pod_requests, weights, m)
    slow = array_path(node_resources_fit.least_allocated, [(i, a.copy(), u.copy()) for i, a, u in amounts],
                      pod_requests, weights, m)
    assert fast.dtype == slow.dtype == np.int64 and len(fast) == m
    assert fast.tolist() == slow.tolist()


def test_the_usual_values():
    """75 for a pod that keeps the balance, 50 for balanced -> unbalanced; LeastAllocated of an
    empty and of a half-full 4-cpu node."""
    alloc = [np.array([4000, 4000]), np.array([4 << 30, 4 << 30])]
    assert few_rows.balance_two([np.array([2000, 4000]), np.array([2 << 30, 0])], alloc).tolist() == [100, 50]
    amounts = [(0, np.array([4000, 4000]), np.array([0, 2000])), (1, np.array([4 << 30, 4 << 30]), np.array([0, 2 << 30]))]
    assert few_rows.least_allocated(amounts, np.array([0, 0]), [1, 1], 2).tolist() == [100, 50]


@st.composite
def small_clusters(draw):
    """Up to FEW nodes (some without cpu or memory, some full of pods), running pods using
    them, a pending pod, and the rows asked about (ascending, as views are)."""
    n = draw(st.integers(1, few_rows.FEW))
    nodes = [make_node(f"n{i}", cpu=draw(st.sampled_from([0, 1000, 4000, 64000])),
                       memory=draw(st.sampled_from([0, 1 << 30, 32 << 30, 2**50])),
                       pods=draw(st.sampled_from([1, 2, 110]))) for i in range(n)]
    running = [make_pod(f"r{k}", node_name=f"n{draw(st.integers(0, n - 1))}",
                        requests={"cpu": draw(st.integers(0, 8000)), "memory": draw(st.integers(0, 40 << 30))},
                        containers_without_requests=1)
               for k in range(draw(st.integers(0, 6)))]
    pod = make_pod("p", requests={"cpu": draw(st.integers(0, 8000)), "memory": draw(st.integers(0, 40 << 30))},
                   containers_without_requests=1)
    rows = np.array(sorted(draw(st.sets(st.integers(0, n - 1), min_size=1))), dtype=np.intp)
    return make_state(nodes, running), pod, rows


def _both(call):
    fast = call()
    return fast, array_path(call)


@settings(max_examples=200, deadline=None)
@given(small_clusters())
def test_plugins_on_a_few_rows_answer_as_on_arrays(cluster):
    state, pod, rows = cluster
    fit, balance = NodeResourcesFit(), NodeResourcesBalancedAllocation()
    cs = CycleState()
    fit.pre_filter(cs, pod, state, rows)
    fit.pre_score(cs, pod, state, rows)
    balance_skips = balance.pre_score(cs, pod, state, rows).is_skip()

    fast, slow = _both(lambda: fit.filter(cs, pod, state, rows))
    assert fast.passed.tolist() == slow.passed.tolist()
    assert [(f.mask.tolist(), f.reasons, f.code) for f in fast.failures] == \
        [(f.mask.tolist(), f.reasons, f.code) for f in slow.failures]
    fast, slow = _both(lambda: fit.score(cs, pod, state, rows))
    assert fast.tolist() == slow.tolist()
    if not balance_skips:
        # the column of balances without the pod is computed over every node first (as the
        # signature cache's first pass does), then refreshed at `rows` after a change
        balance.score(cs, pod, state, state.all_nodes)
        state.assume(make_pod("q", requests={"cpu": 500, "memory": 1 << 30}), int(rows[0]))
        fast, slow = _both(lambda: balance.score(cs, pod, state, rows))
        assert fast.tolist() == slow.tolist()
