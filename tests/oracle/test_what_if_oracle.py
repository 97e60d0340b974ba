"""Differential test, scheduler mode, for the analyses: a what-if scenario is a plan of the
changed input, and headroom's count is a plan of the input with that many copies added; both
are checked against kube-scheduler v1.37.2's own Scheduler (oracle/scheduler_mode.go).

* what-if: a generated cluster (running pods now and then owned by a controller that is not in
  the input, or members of a running gang), one change (fail, drain or cordon a node or a zone)
  applied by the planner's `apply_changes`; the changed input is written as manifests
  (oracle_what_if.changed_documents), the planner's plan of the changed input must be the plan
  of those manifests, and kube-scheduler must decide every pod as the planner does.
* headroom: a generated cluster and a gang; headroom says k copies fit (at most 3 asked); the
  input with k copies (and one more, when k < 3) is written as manifests: kube-scheduler must
  decide as the planner does, and schedule every pod of the first k copies and not all of the
  next one.

The comparison and its exclusion rules are the scheduler-mode test's (oracle_compare,
oracle_exclusions); node ties are broken by name on both sides.
"""
from __future__ import annotations

import os
import tempfile
import warnings
from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings
from oracle_compare import compare_scheduler
from oracle_driver import run_oracle, write_manifests
from oracle_exclusions import oracle_outcome, placement_tie, scheduler_config, scheduler_gates, shared_bound_host_port
from oracle_what_if import changed_documents, copy_documents, headroom_cases, what_if_cases

from podgroup_plan.analyses.headroom.greedy import Template
from podgroup_plan.analyses.headroom.report import Question, headroom
from podgroup_plan.analyses.headroom.workload import copy_of, latest_timestamp
from podgroup_plan.analyses.what_if.changes import NodeChange, apply_changes
from podgroup_plan.loading import load_input
from podgroup_plan.planner import plan
from podgroup_plan.planner import Planner

EXAMPLES = int(os.environ.get("PODGROUP_PLAN_ORACLE_EXAMPLES", "0"))
SETTINGS = settings(
    max_examples=EXAMPLES or 12,
    derandomize=not EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
MAX_COPIES = 3


def _oracle_agrees(oracle_bin: Path, manifests: Path, planner: dict, config: dict | None,
                   gates: dict[str, bool], documents: list[dict]) -> dict:
    """kube-scheduler's report on `manifests`, after checking that it decided as `planner` did."""
    assume(placement_tie(planner) is None)  # oracle_exclusions rule 10: upstream draws at random
    oracle = run_oracle(oracle_bin, "scheduler", manifests, gates, config, extra=("--tie-break", "name"))
    known: set[str] = set()
    problems = compare_scheduler(oracle, planner, gates, known, documents)
    for text in sorted(known):
        warnings.warn(f"known planner mismatch tolerated (oracle_exclusions.KNOWN_PLANNER_MISMATCHES): {text}")
    if problems:
        for _ in range(2):  # oracle_exclusions rule 12: does kube-scheduler itself answer one way?
            again = run_oracle(oracle_bin, "scheduler", manifests, gates, config, extra=("--tie-break", "name"))
            assume(oracle_outcome(again) == oracle_outcome(oracle))
        raise AssertionError("planner differs from kube-scheduler v1.37.2:\n  " + "\n  ".join(problems[:20]))
    return oracle


def _decisions(result: dict) -> list[tuple]:
    return [(p["namespace"], p["name"], p["status"], p["node"], p.get("message")) for p in result["pods"]]


@SETTINGS
@given(case=what_if_cases())
def test_what_if_scenarios_match_kube_scheduler(oracle_bin, case):
    assume(shared_bound_host_port(case["documents"]) is None)  # oracle_exclusions rule 14
    gates = scheduler_gates()
    config = scheduler_config(case["config"])
    with tempfile.TemporaryDirectory(prefix="oracle-what-if-") as tmp:
        original = write_manifests(Path(tmp) / "before", case["documents"], None)
        applied = apply_changes(load_input([str(original)]), [NodeChange(case["action"], case["target"])])
        what_if = plan(applied.cluster, scheduler_config=config, feature_gates=gates).to_dict()
        documents = changed_documents(case["documents"], applied)
        manifests = write_manifests(Path(tmp) / "after", documents, None)
        written = plan(load_input([str(manifests)], feature_gates=gates), scheduler_config=config, feature_gates=gates).to_dict()
        # the manifests say what the what-if planned: the same decisions, pod by pod
        assert _decisions(written) == _decisions(what_if)
        _oracle_agrees(oracle_bin, manifests, written, config, gates, documents)


@settings(SETTINGS, max_examples=EXAMPLES or 10)
@given(case=headroom_cases())
def test_headroom_copies_match_kube_scheduler(oracle_bin, case):
    assume(shared_bound_host_port(case["documents"]) is None)
    gates = scheduler_gates()
    config = scheduler_config(case["config"])
    with tempfile.TemporaryDirectory(prefix="oracle-headroom-") as tmp:
        cluster_dir = write_manifests(Path(tmp) / "cluster", case["documents"], None)
        template_dir = write_manifests(Path(tmp) / "template", case["template"], None)
        cluster = load_input([str(cluster_dir)])
        work = load_input([str(template_dir)])
        [group] = work.pod_groups
        planner = Planner(cluster, config, gates)
        k = headroom(planner, Question((Template(work, "PodGroup", group.namespace, group.name),),
                                       max_copies=MAX_COPIES))["fits"]
        written = min(k + 1, MAX_COPIES)
        after = latest_timestamp(cluster)
        copies = copy_documents(case["template"], [(copy_of(work, i, after), i) for i in range(1, written + 1)])
        documents = case["documents"] + copies
        manifests = write_manifests(Path(tmp) / "with-copies", documents, None)
        result = plan(load_input([str(manifests)], feature_gates=gates), scheduler_config=config, feature_gates=gates).to_dict()
        oracle = _oracle_agrees(oracle_bin, manifests, result, config, gates, documents)
    node = {(p["namespace"], p["name"]): p["node"] for p in oracle["pods"]}
    for i in range(1, written + 1):
        mine = [node[(group.namespace, f"{p.name}-h{i}")] for p in work.pods]
        fits = all(n is not None for n in mine)
        assert fits is (i <= k), f"copy {i}: kube-scheduler placed {mine}; headroom counted {k}"


def test_generated_scenarios_recreate_pods_of_running_gangs(tmp_path):
    """The what-if generator reaches what the scenarios are about, within the examples the
    oracle test runs (derandomized, so the same ones): a change that takes a member of a
    running gang off its node and recreates it pending in that gang, and one that loses a bare
    pod. No oracle needed."""
    seen = {"rejoins": 0, "loses": 0}

    @SETTINGS
    @given(case=what_if_cases())
    def look(case: dict) -> None:
        folder = write_manifests(Path(tempfile.mkdtemp(dir=tmp_path)), case["documents"], None)
        applied = apply_changes(load_input([str(folder)]), [NodeChange(case["action"], case["target"])])
        seen["rejoins"] += any(d.replacement and d.pod.pod_group for d in applied.displaced)
        seen["loses"] += any(d.fate == "lost" for d in applied.displaced)

    look()
    assert seen["rejoins"] and seen["loses"], seen
