"""The signature cache's per-entry tallies always agree with its failure ids.

A cache entry keeps, beside each node's failure id, each node's status code and the number of
nodes per failure id, corrected row by row as bindings change rows (framework/node_cache.py);
run_filter builds a pod's diagnosis over every node from them. Here every entry the cache hands
out during generated heterogeneous plans (many shapes, taints, affinity, spreading, tiny byte
budgets so entries are rebuilt too) is checked against a recount from its failure ids.
"""
from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, example, given, settings, strategies as st

from benchmarks.cases import tiny_mixed
from benchmarks.generate import cluster_input
from podgroup_plan.framework import node_cache
from podgroup_plan.planner import plan


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nodes=st.integers(8, 40), pods=st.integers(10, 90), shapes=st.sampled_from([1, 3, 5, 12, 90]),
       budget=st.sampled_from([0, 20_000, None]))
@example(nodes=20, pods=80, shapes=5, budget=None)  # entries refreshed row by row, rows that fail
def test_codes_and_counts_match_the_failure_ids(nodes, pods, shapes, budget):
    cluster = cluster_input(tiny_mixed(nodes=nodes, pending_pods=pods, pod_shapes=min(shapes, pods),
                                       nodes_per_zone=max(2, nodes // 3), nodes_per_rack=4))
    checked = []
    real = node_cache.NodeLocalCache.filter_entry

    def checking(self, signature, cs, pod, state, skipped):
        e = real(self, signature, cs, pod, state, skipped)
        table = self.shifted_codes()
        assert np.array_equal(e.codes, table[e.fail_id + 1])
        recount = np.bincount(e.fail_id + 1, minlength=len(self.failures) + 1)[1:]
        tallies = self.counts(e)
        assert {fid: n for fid, n in tallies.items() if n} == {
            int(fid): int(recount[fid]) for fid in np.flatnonzero(recount)}
        checked.append(len(e.fail_id))
        return e

    saved_budget = node_cache.MAX_BYTES
    if budget is not None:
        node_cache.MAX_BYTES = budget
    node_cache.NodeLocalCache.filter_entry = checking
    try:
        plan(cluster)
    finally:
        node_cache.NodeLocalCache.filter_entry = real
        node_cache.MAX_BYTES = saved_budget
    assert checked


# no deadline: the first np.unique imports numpy.ma, which on a busy machine took 254 ms
@settings(deadline=None)
@given(st.lists(st.integers(-(2**62), 2**62) | st.integers(0, 7), max_size=60))
def test_distinct_is_np_unique(values):
    """`node_cache._distinct` stands in for a plain `np.unique` (which imports numpy.ma on first
    use): the same values, order and dtype."""
    array = np.array(values, dtype=np.int64)
    got, expected = node_cache._distinct(array), np.unique(array)
    assert got.dtype == expected.dtype and got.tolist() == expected.tolist()
