"""`ScorePlugin.uniform_score`: a plugin that knows, after PreScore, that every node gets the
same normalised score lets the runtime add it to every total without scoring (TaintToleration
when no node has a PreferNoSchedule taint the pod leaves untolerated). The totals must be
those of Score and NormalizeScore node by node."""
from __future__ import annotations

import random

import numpy as np
import pytest

from builders import make_node, make_pod, make_state
from podgroup_plan.config.configuration import build_profiles, resolve_feature_gates
from podgroup_plan.framework.interface import CycleState, Handle, ScorePlugin
from podgroup_plan.framework.diagnosis import Diagnosis
from podgroup_plan.plugins.registry import IMPLEMENTED
from podgroup_plan.framework.runtime import Framework
from podgroup_plan.model.objects import Toleration
from podgroup_plan.plugins.taint_toleration import TaintToleration


def framework() -> Framework:
    gates = resolve_feature_gates(None)
    return Framework(build_profiles(None, gates)["default-scheduler"], Handle(feature_gates=gates), IMPLEMENTED)


def totals(fwk: Framework, pod, state) -> tuple[list[int], list[int]]:
    cs = CycleState()
    status, _, _ = fwk.run_pre_filter(cs, pod, state, state.all_nodes)
    assert status.is_success()
    feasible = np.flatnonzero(fwk.run_filter(cs, pod, state, state.all_nodes, Diagnosis()))
    if len(feasible) == 0:
        return [], []
    pre, skipped = fwk.run_pre_score(cs, pod, state, feasible)
    assert pre.is_success()
    return feasible.tolist(), fwk.run_score(cs, pod, state, feasible, skipped).tolist()


@pytest.mark.parametrize("seed", range(30))
def test_totals_equal_scoring_every_node(seed, monkeypatch):
    rng = random.Random(seed)
    effects = ["NoSchedule", "PreferNoSchedule"] if rng.random() < 0.5 else ["NoSchedule"]
    nodes = [make_node(f"n{i}", cpu=1000 * rng.randint(1, 4), memory=rng.randint(2, 8) << 30,
                       taints=[(f"k{rng.randrange(2)}", "v", rng.choice(effects))] if rng.random() < 0.5 else ())
             for i in range(rng.randint(2, 10))]
    running = [make_pod(f"r{i}", node_name=rng.choice(nodes).name, requests={"cpu": 100 * rng.randint(0, 5)})
               for i in range(rng.randint(0, 6))]
    pods = [make_pod(f"p{j}", requests={"cpu": 100 * rng.randint(1, 5)},
                     tolerations=tuple(Toleration(f"k{rng.randrange(2)}", "Exists", "", rng.choice(["", "NoSchedule", "PreferNoSchedule"]))
                                       for _ in range(rng.randint(0, 2))))
            for j in range(4)]
    state = make_state(nodes, running)
    got = [totals(framework(), pod, state) for pod in pods]
    monkeypatch.setattr(TaintToleration, "uniform_score", ScorePlugin.uniform_score)
    want = [totals(framework(), pod, state) for pod in pods]
    assert got == want


def test_a_uniform_score_out_of_range_is_refused_like_any_score(monkeypatch):
    state = make_state([make_node("a"), make_node("b")])
    monkeypatch.setattr(TaintToleration, "uniform_score", lambda self, cs, pod, state: 101)
    with pytest.raises(AssertionError, match="plugin TaintToleration returned a score outside"):
        totals(framework(), make_pod("p"), state)
