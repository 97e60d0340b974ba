"""A signature's first pod gets a transient cache entry, kept nowhere, and is scored straight
from the plugins at its feasible nodes; its second pod makes the entry that is kept and fills
its raw scores (framework/node_cache.py, `filter_entry`, `score_directly`); every pod gets the
totals it gets with no cache at all: the same scores, the same host."""
from __future__ import annotations

import numpy as np

from builders import make_node, make_pod, make_state, without_node_cache
from podgroup_plan.config.configuration import build_profiles, resolve_feature_gates
from podgroup_plan.framework.interface import CycleState, Handle
from podgroup_plan.framework.diagnosis import Diagnosis
from podgroup_plan.plugins.registry import IMPLEMENTED
from podgroup_plan.framework.runtime import CACHE_ENTRY_KEY, Framework


def framework() -> Framework:
    gates = resolve_feature_gates(None)
    return Framework(build_profiles(None, gates)["default-scheduler"], Handle(feature_gates=gates), IMPLEMENTED)


def cycle(fwk: Framework, pod, state):
    """PreFilter, Filter and Score over every node: (feasible rows, totals, the cache entry)."""
    cs = CycleState()
    status, _, _ = fwk.run_pre_filter(cs, pod, state, state.all_nodes)
    assert status.is_success()
    passed = fwk.run_filter(cs, pod, state, state.all_nodes, Diagnosis())
    feasible = np.flatnonzero(passed)
    pre, skipped = fwk.run_pre_score(cs, pod, state, feasible)
    assert pre.is_success()
    return feasible, fwk.run_score(cs, pod, state, feasible, skipped), cs.read(CACHE_ENTRY_KEY)


def test_first_pod_transient_second_kept_and_filled_all_as_uncached():
    nodes = [make_node(f"n{i}", cpu=1000 * (1 + i % 4), memory=(4 + i % 3) << 30,
                       taints=[("dedicated", "infra", "NoSchedule")] if i % 5 == 0 else ()) for i in range(12)]
    running = [make_pod(f"r{i}", node_name=f"n{i}", requests={"cpu": 300 * i, "memory": (i % 4) << 29}) for i in range(9)]
    pods = [make_pod(name, requests={"cpu": 250, "memory": 1 << 29}) for name in ("a", "b", "c")]
    cached = framework()
    with without_node_cache():
        uncached = framework()  # built without the cache: every plugin asked directly
    state, plain_state = make_state(nodes, running), make_state(nodes, running)

    for k, pod in enumerate(pods):
        feasible, totals, entry = cycle(cached, pod, state)
        want_feasible, want, _ = cycle(uncached, pod, plain_state)
        assert feasible.tolist() == want_feasible.tolist()
        assert 0 < len(feasible) < state.n
        assert totals.tolist() == want.tolist()
        if k == 0:
            assert entry.transient and not entry.raw and entry.plain_sum is None
            assert len(cached.cache) == 0  # nothing kept but the mark
        else:
            assert not entry.transient and len(cached.cache) == 1
            assert entry.raw and entry.score_version == state.version  # filled, then kept current
        # bind where the plan would, so the next pod's entry has a row to refresh
        host = int(feasible[totals.argmax()])
        state.assume(pod, host)
        plain_state.assume(pod, host)


def test_scores_outside_the_range_still_stop_the_plan():
    """Only the node-local scorers without NormalizeScore are summed unchecked (their scores
    lie in [0, 100] by construction); any other plugin's score is still range-checked."""
    import pytest

    from podgroup_plan.framework.interface import ScorePlugin

    from .fakes import framework as fake_framework, node, pod, state as fake_state

    class TooHigh(ScorePlugin):
        name = "TooHigh"

        def score(self, cs, pod, state, feasible):
            return np.full(len(feasible), 101, dtype=np.int64)

    fwk = fake_framework(scores=(TooHigh,))
    st = fake_state([node("a"), node("b")])
    with pytest.raises(AssertionError, match="TooHigh returned a score outside"):
        cycle(fwk, pod("p"), st)


def test_node_codes_take_the_highest_code_of_a_later_filters_failures():
    """A filter after the cached ones rejecting nodes with overlapping failures: each node's
    code is the highest of its failures, nodes an earlier filter rejected keep their code, and
    the reasons are counted per failure."""
    from podgroup_plan.framework.interface import FilterPlugin, FilterVerdict, NodeFailure
    from podgroup_plan.framework.status import Code

    from .fakes import RejectByLabel, framework as fake_framework, node, pod, state as fake_state

    class Overlapping(FilterPlugin):
        name = "Overlapping"

        def filter(self, cs, pod, state, view):
            first = np.isin(view, [1, 2])
            second = np.isin(view, [2, 3])
            return FilterVerdict(~(first | second), [
                NodeFailure(first, ("first",), Code.UNSCHEDULABLE),
                NodeFailure(second, ("second",), Code.UNSCHEDULABLE_AND_UNRESOLVABLE)])

    fwk = fake_framework(filters=(RejectByLabel, Overlapping), scores=())
    st = fake_state([node("a", bad="true"), node("b"), node("c"), node("d"), node("e")])
    diagnosis = Diagnosis()
    cs = CycleState()
    fwk.run_pre_filter(cs, pod("p"), st, st.all_nodes)
    passed = fwk.run_filter(cs, pod("p"), st, st.all_nodes, diagnosis)
    assert passed.tolist() == [False, False, False, False, True]
    assert diagnosis.node_codes.tolist() == [3, 2, 3, 3, 0]
    assert diagnosis.reasons == {"node(s) had untolerated taint(s)": 1, "first": 2, "second": 2}
