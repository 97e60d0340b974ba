"""Scenario folders whose expected texts were taken from kube-scheduler itself, run through the
oracle again (scheduler mode, node ties and placements ordered by name): the planner must give
the same result, every message to the character, with no tolerated mismatch. So a later change
on either side (the planner's texts, the oracle's build) shows up here, not only in the
hand-copied expected.yaml.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from oracle_compare import compare_scheduler
from oracle_driver import run_oracle
from oracle_exclusions import scheduler_gates

from podgroup_plan.loading import load_input
from podgroup_plan.planner import plan

SCENARIOS = Path(__file__).parent.parent / "scenarios"

# Each folder's input carries its own KubeSchedulerConfiguration where it needs one (both sides
# read it from the manifests) and sets no featureGates (both sides get the planner's defaults).
CHECKED = (
    "oracle-first-placement-status",  # `first placement status` for a standalone PodGroup
    "oracle-no-feasible-placements",  # the runner's `no feasible placements found`
    "composite-no-feasible-placements",  # the same at a CompositePodGroup, shared by its children
    "preemption-plugin-disabled-empty-text",  # no PodGroupPostFilter plugin: trailing `, `
    "nominated-pods-no-placement-fast-path",  # nominations do not choose the candidate
    # the API server's matchLabelKeys / mismatchLabelKeys merge (oracle/input.go, admit)
    "oracle-affinity-match-label-keys",
    "oracle-affinity-match-label-keys-first-pod",
    "oracle-anti-affinity-mismatch-label-keys",
    "oracle-spread-match-label-keys",  # merged by the API server and again by kube-scheduler
    "oracle-failed-group-pod-keeps-nomination",  # a pod failing on its own keeps its nomination
    "oracle-tree-preemption-zero-victims",  # InterPodAffinity skipped in the re-run stays skipped
)


@pytest.mark.parametrize("case", CHECKED)
def test_scenario_matches_kube_scheduler(oracle_bin, case):
    manifests = SCENARIOS / case / "manifests"
    gates = scheduler_gates()
    oracle = run_oracle(oracle_bin, "scheduler", manifests, gates, None, extra=("--tie-break", "name"))
    planner = plan(load_input([str(manifests)], feature_gates=gates), feature_gates=gates).to_dict()
    known: set[str] = set()
    problems = compare_scheduler(oracle, planner, gates, known)
    assert not known, f"tolerated mismatches used: {sorted(known)}"
    assert not problems, "\n".join(problems)
    # every pending pod of the input was compared (none missing on either side)
    assert {(p["namespace"], p["name"]) for p in oracle["pods"]} <= {(p["namespace"], p["name"]) for p in planner["pods"]}
