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

import jsonschema

from podgroup_plan.explain import POD, POD_GROUP, Target, explain
from podgroup_plan.explain.trace import Tracer
from podgroup_plan.planner import plan

sys.path.insert(0, str(Path(__file__).parents[1] / "properties"))
from test_plan_invariants import clusters  # noqa: E402  (the shared cluster generator)

SCHEMA = json.loads((Path(__file__).parents[2] / "schemas" / "Explanation.json").read_text())
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(clusters())
def test_tracing_changes_nothing(cluster):
    plain = plan(cluster).to_dict()
    for pod in cluster.pods:
        if pod.node_name is None:
            traced = plan(cluster, observer=Tracer(Target(POD, pod.namespace, pod.name))).to_dict()
            assert json.dumps(traced) == json.dumps(plain)


@SETTINGS
@given(clusters())
def test_explained_node_is_the_planned_node(cluster):
    result = {(p["namespace"], p["name"]): p for p in plan(cluster).to_dict()["pods"]}
    for pod in cluster.pods:
        if pod.node_name is not None:
            continue
        doc = explain(cluster, Target(POD, pod.namespace, pod.name), top=10)
        jsonschema.validate(doc, SCHEMA)
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


@SETTINGS
@given(clusters())
def test_group_explanations_follow_the_plan(cluster):
    planned = {(g["namespace"], g["name"]): g for g in plan(cluster).to_dict()["podGroups"]}
    for group in cluster.pod_groups:
        doc = explain(cluster, Target(POD_GROUP, group.namespace, group.name))
        jsonschema.validate(doc, SCHEMA)
        assert doc["status"] == planned[group.key]["status"]
        if doc["cycles"]:
            last = doc["cycles"][-1]
            # the last cycle's bound pods are where the plan put them
            assert all(p["node"] is not None for p in last["pods"] if p["status"] == "Scheduled")
        if planned[group.key]["status"] == "Scheduled":
            assert any(c["status"] == "Scheduled" for c in doc["cycles"]) or not doc["cycles"]
