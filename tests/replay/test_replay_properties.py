"""Invariants of every replay (Hypothesis): no node is ever over its allocatable, no pod starts
before it arrives, and the GPU-seconds the timeline integrates equal the run times x GPUs of the
pods that ran; the document meets schemas/Replay.json."""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from podgroup_plan.analyses.replay.backoff import Backoff
from podgroup_plan.analyses.replay.engine import Engine
from podgroup_plan.analyses.replay.facts import Facts
from podgroup_plan.analyses.replay.report import build_document
from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import Node, Pod, PriorityClass
from podgroup_plan.model.timing import Timing
from podgroup_plan.planner import Planner

SCHEMA = json.loads((Path(__file__).parents[2] / "schemas" / "Replay.json").read_text())
GPU = "nvidia.com/gpu"

pods_strategy = st.lists(
    st.tuples(st.integers(0, 300), st.sampled_from([1, 2, 4, 8]), st.integers(1, 200), st.sampled_from([0, 0, 100]),
              st.sampled_from([0, 5, 30])),
    min_size=1, max_size=14)


class Checked(Engine):
    """The engine, checking the cluster after every event time."""

    def _round(self) -> None:
        super()._round()
        state = self.state
        assert (state.requested <= state.allocatable).all(), f"over allocatable at {self.now}"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pods_strategy, st.integers(1, 3))
def test_replay_invariants(specs, nodes):
    cluster_nodes = tuple(Node(f"n{i}", allocatable={"cpu": 64000, "memory": 1 << 40, GPU: 8}) for i in range(nodes))
    pods = tuple(Pod("default", f"p{i:02d}", requests={"cpu": 1000, GPU: gpus}, priority=prio)
                 for i, (_, gpus, _, prio, _) in enumerate(specs))
    timing = {("Pod", "default", f"p{i:02d}"): Timing(duration=float(d), arrival=1767225600.0 + a, grace=float(g))
              for i, (a, _, d, _, g) in enumerate(specs)}
    cluster = ClusterInput(nodes=cluster_nodes, pods=pods, priority_classes=(PriorityClass("x", 100),))
    planner = Planner(cluster)
    facts = Facts(planner.cluster, timing, None, 1767225600.0)
    engine = Checked(planner, facts, 1767225600.0, None, Backoff(), True)
    engine.adopt_queue()
    end = engine.run()
    engine.timeline.close(end)
    doc = build_document(engine, end, None)
    jsonschema.validate(doc, SCHEMA)
    ran = 0.0
    for run in engine.runs.values():
        if run.start is not None:
            assert run.start >= run.arrival
            assert run.end is not None  # every pod has a duration: all end
            ran += (run.end - run.start) * run.gpus
    assert abs(engine.timeline.gpu_seconds - ran) < 1e-6
    assert doc["summary"]["gpuSecondsUsed"] == round(ran, 3)


class Unskipping(Engine):
    """The engine running every cycle, even where nothing that could change its answer changed
    or a pod of the same shape just failed on the same cluster state."""

    def __init__(self, *args):
        super().__init__(*args)
        self.share_answers = False


def _replay(engine_class, cluster, timing, start):
    planner = Planner(cluster)
    engine = engine_class(planner, Facts(planner.cluster, timing, None, start), start, None, Backoff(), True)
    engine.adopt_queue()
    end = engine.run()
    engine.settle(end)
    return build_document(engine, end, None)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 200), st.sampled_from([1, 2, 4, 8, 16]), st.integers(1, 150),
                          st.sampled_from(["a", "b", None]), st.sampled_from([0, 0, 50])), min_size=1, max_size=14))
def test_skipping_unchanged_cycles_changes_no_start(specs):
    """A cycle skipped because no node that could host the pod changed since its last failure
    (analyses/replay/hosts.py), or answered from a pod of the same shape on the same state
    (shapes.py), would have given the same answer: running every cycle gives the same starts,
    ends, nodes and attempt counts."""
    start = 1767225600.0
    cluster_nodes = tuple(Node(f"n{i}", labels={"pool": "a" if i % 2 else "b"},
                               allocatable={"cpu": 64000, "memory": 1 << 40, GPU: 8}) for i in range(3))
    pods = tuple(Pod("default", f"p{i:02d}", requests={"cpu": 1000, GPU: gpus}, priority=prio,
                     node_selector={"pool": pool} if pool else {})
                 for i, (_, gpus, _, pool, prio) in enumerate(specs))
    timing = {("Pod", "default", f"p{i:02d}"): Timing(duration=float(d), arrival=start + a)
              for i, (a, _, d, _, _) in enumerate(specs)}
    cluster = ClusterInput(nodes=cluster_nodes, pods=pods)
    fast = _replay(Engine, cluster, timing, start)
    slow = _replay(Unskipping, cluster, timing, start)

    def shape(doc):
        return [(w["name"], w["start"], w["end"], w["nodes"], w["attempts"]) for w in doc["workloads"]]

    assert shape(fast) == shape(slow)
