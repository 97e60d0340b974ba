"""`explain` is a recording of the plan, not a second one (hypothesis, on generated clusters):

* the plan with a tracer attached is the plan without one, byte for byte;
* for every pending pod, the explanation's node is the plan's node, and when scores were
  recorded, the chosen node has the highest total (ties: the name that sorts first);
* the filters' first-rejection counts add up to the nodes that did not pass.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings

from podgroup_plan.explain import POD, Target, explain
from podgroup_plan.explain.trace import Tracer
from podgroup_plan.plan import plan

sys.path.insert(0, str(Path(__file__).parents[1] / "properties"))
from test_plan_invariants import clusters  # noqa: E402  (the shared cluster generator)

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(clusters())
def test_tracing_changes_nothing(cluster):
    plain = plan(cluster).to_dict()
    for pod in cluster.pods:
        if pod.node_name is None:
            traced = plan(cluster, tracer=Tracer(Target(POD, pod.namespace, pod.name))).to_dict()
            assert json.dumps(traced) == json.dumps(plain)


@SETTINGS
@given(clusters())
def test_explained_node_is_the_planned_node(cluster):
    result = {(p["namespace"], p["name"]): p for p in plan(cluster).to_dict()["pods"]}
    for pod in cluster.pods:
        if pod.node_name is not None:
            continue
        doc = explain(cluster, Target(POD, pod.namespace, pod.name), top=10)
        planned = result[pod.key]
        assert doc["node"] == planned["node"]
        assert doc["status"] == planned["status"]
        decisive = [c for c in doc["cycles"] if c["decisive"]]
        if planned["status"] == "Scheduled" and doc["cycles"]:
            assert decisive and decisive[0]["node"] == planned["node"]
        if doc["scores"]:
            best = min(doc["scores"], key=lambda s: (-s["total"], s["node"]))
            chosen = [s for s in doc["scores"] if s["chosen"]]
            assert chosen and chosen[0]["node"] == best["node"] == decisive[0]["node"]
        if doc["filters"]:
            rejected = sum(f["rejected"] for f in doc["filters"])
            assert rejected + doc["feasibleNodes"] == doc["nodesConsidered"]
