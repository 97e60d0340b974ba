"""The preemption scenarios (tests/scenarios/preemption-*) against kube-scheduler v1.37.2's own
Scheduler (oracle scheduler mode, node ties by name): the same pods evicted, the same nodes
bound or nominated, and for pods left pending the same message.

Asynchronous preemption is switched off on the oracle's side (`SchedulerAsyncPreemption=false`,
a gate the plan ignores): with it on, the oracle's rounds can look at the cluster before the
preemption goroutine deleted its last victim, and the preemptor preempts a second time; the
planner models preemption as done when decided. Excluded: preemption-topology-domain, where the
two racks tie on placement score and upstream picks one at random (the planner takes the name
that sorts first, a README deviation).
"""
from __future__ import annotations

from pathlib import Path

import pytest
from oracle_driver import run_oracle
from oracle_exclusions import scheduler_gates

from podgroup_plan.loading import load_input
from podgroup_plan.planner import plan

SCENARIOS = Path(__file__).parent.parent / "scenarios"
CASES = sorted(p.name for p in SCENARIOS.iterdir()
               if p.name.startswith("preemption-") and p.name != "preemption-topology-domain")


@pytest.mark.parametrize("case", CASES)
def test_preemption_scenario_matches_kube_scheduler(oracle_bin, case):
    manifests = SCENARIOS / case / "manifests"
    gates = {**scheduler_gates(), "SchedulerAsyncPreemption": False}
    oracle = run_oracle(oracle_bin, "scheduler", manifests, gates, None, extra=("--tie-break", "name"))
    planner = plan(load_input([str(manifests)], feature_gates=gates), feature_gates=gates).to_dict()

    assert sorted(v["name"] for v in oracle["victims"]) == sorted(v["name"] for v in planner["victims"])
    mine = {p["name"]: p for p in planner["pods"]}
    for pod in oracle["pods"]:
        p = mine[pod["name"]]
        if pod["node"] is not None:
            assert (p["status"], p["node"]) == ("Scheduled", pod["node"]), pod["name"]
            continue
        assert p["status"] == "Unschedulable", pod["name"]
        assert p["nominatedNode"] == pod["nominatedNode"], pod["name"]
        assert p["message"] == pod["condition"]["message"], pod["name"]
