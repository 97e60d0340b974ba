"""NodeResourcesFit's per-pod shortcuts (issue 24) against the slow paths they replace.

* `_group_failures` finds the failure patterns with `np.packbits` and `np.bincount` when there
  are few reasons; `_group_failures_sorted` (np.unique, the general path, still taken for many
  reasons) must give the same list: same order, masks, reasons and codes;
* `fit_request` is kept on the state by the pod's requests: for any sequence of pods it must
  return what computing it afresh returns, also after a pod asked for a resource no node
  offers (a new resource row);
* `ClusterState.changed_rows` keeps its last answer: it must stay the rows changed since the
  version asked for, however assumes, forgets and rollbacks interleave with the questions.
"""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from podgroup_plan.config.args import NodeResourcesFitArgs
from podgroup_plan.model.objects import Node, Pod
from podgroup_plan.plugins.node_resources_fit import NodeResourcesFit, _group_failures, _group_failures_sorted
from podgroup_plan.state.cluster import ClusterState


def _failures(found) -> list:
    return [(f.mask.tolist(), f.reasons, int(f.code)) for f in found]


@st.composite
def fit_masks(draw):
    """Masks as NodeResourcesFit builds them (too many pods, then one per resource; a row is
    rejected when any is set; unresolvable only where a resource mask is set) or, with
    `loose`, any masks at all (rejected rows without a reason, reasons on rows not rejected)."""
    m = draw(st.integers(0, 40))
    k = draw(st.integers(1, 9))  # 7 and more take the general path in _group_failures
    bits = st.lists(st.booleans(), min_size=m, max_size=m)
    masks = [np.array(draw(bits), dtype=bool) for _ in range(k)]
    if draw(st.booleans()):  # loose
        rejected = np.array(draw(bits), dtype=bool)
        unresolvable = np.array(draw(bits), dtype=bool)
    else:
        rejected = np.logical_or.reduce(masks) if m else np.zeros(0, dtype=bool)
        shorts = np.logical_or.reduce(masks[1:]) if k > 1 and m else np.zeros(m, dtype=bool)
        unresolvable = np.array(draw(bits), dtype=bool) & shorts
    return masks, unresolvable, rejected


@settings(max_examples=400, deadline=None)
@given(fit_masks())
def test_failure_grouping_is_the_sorted_grouping(case):
    masks, unresolvable, rejected = case
    reasons = ["Too many pods"] + [f"Insufficient r{i}" for i in range(len(masks) - 1)]
    assert _failures(_group_failures(masks, unresolvable, rejected, reasons)) == \
        _failures(_group_failures_sorted(masks, unresolvable, rejected, reasons))


def test_failure_grouping_orders_patterns_ascending():
    too_many = np.array([False, True, False, False])
    cpu = np.array([True, False, True, False])
    gpu = np.array([False, False, True, True])
    unresolvable = np.array([False, False, False, True])
    rejected = too_many | cpu | gpu
    got = _failures(_group_failures([too_many, cpu, gpu], unresolvable, rejected,
                                    ["Too many pods", "Insufficient cpu", "Insufficient gpu"]))
    assert got == [
        ([False, True, False, False], ("Too many pods",), 2),
        ([True, False, False, False], ("Insufficient cpu",), 2),
        ([False, False, True, False], ("Insufficient cpu", "Insufficient gpu"), 2),
        ([False, False, False, True], ("Insufficient gpu",), 3),
    ]


RESOURCES = ["cpu", "memory", "example.com/gpu", "example.com/fpga", "ignored.io/thing", "hugepages-2Mi"]


def _pod(i: int, requests: dict) -> Pod:
    return Pod(namespace="ns", name=f"p{i}", requests=requests, non_zero_cpu=requests.get("cpu", 100),
               non_zero_memory=requests.get("memory", 200 << 20), creation_timestamp="2026-01-01T00:00:00Z")


@settings(max_examples=150, deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from(RESOURCES), st.integers(0, 4), max_size=4), min_size=1, max_size=12),
       st.booleans())
def test_fit_request_kept_by_requests_is_the_fresh_one(requests_list, ignore):
    args = NodeResourcesFitArgs(ignored_resource_groups=("ignored.io",)) if ignore else NodeResourcesFitArgs()
    plugin = NodeResourcesFit(args)
    state = ClusterState([Node("n1", allocatable={"cpu": 4000, "memory": 8 << 30, "example.com/gpu": 2, "pods": 10})])
    for i, requests in enumerate(requests_list):
        pod = _pod(i, requests)
        kept = plugin.fit_request(pod, state)
        fresh = plugin._fit_request(pod, state)
        assert (kept.rows, kept.names, kept.amounts) == (fresh.rows, fresh.names, fresh.amounts)
        assert [state.resource_names[r] for r in kept.rows] == list(kept.names)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["assume", "forget", "mark", "rollback", "ask"]), st.integers(0, 5),
                          st.integers(0, 12)), max_size=40))
def test_changed_rows_kept_answer_is_the_changes_since(steps):
    nodes = [Node(f"n{i}", allocatable={"cpu": 4000, "memory": 8 << 30, "pods": 110}) for i in range(6)]
    state = ClusterState(nodes)
    placed: list[Pod] = []
    marks: list[int] = []
    for n, (op, node, back) in enumerate(steps):
        if op == "assume":
            pod = _pod(n, {"cpu": 10})
            state.assume(pod, node)
            placed.append(pod)
        elif op == "forget" and placed:
            state.forget(placed.pop())
        elif op == "mark":
            marks.append(state.checkpoint())
        elif op == "rollback" and marks:
            state.rollback(marks.pop())
            placed = [p for p in placed if state.node_of(p) is not None]
        since = max(0, state.version - back)
        # a row changed after `since` exactly when its last change is later (node_version)
        expected = np.flatnonzero(state.node_version > since).tolist()
        for _ in range(2):  # the second answer is the kept one
            got = state.changed_rows(since, limit=8)
            if state.version - since > 8:
                assert got is None
            else:
                assert got is not None and got.tolist() == expected
                assert not got.flags.writeable  # shared between askers: nobody may write it
