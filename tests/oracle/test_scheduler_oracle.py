"""Differential test, scheduler mode: whole plans against kube-scheduler v1.37.2's own Scheduler
(oracle/scheduler_mode.go) on generated clusters with lone pods and PodGroups, and on
CompositePodGroup trees (oracle_generate.tree_cases). The oracle breaks node ties by name (the
planner's README deviation), so decisions compare exactly (oracle_compare.compare_scheduler):
every pod, every PodGroup condition, every CompositePodGroup (none has a condition upstream;
the planner's status must agree with the leaves below it), the victims; with the exclusions of
oracle_exclusions.py. Preemption is on (DefaultPreemption, WorkloadAwarePreemption), and the
cases carry PodDisruptionBudgets over the running pods, which only preemption reads.
"""
from __future__ import annotations

import os
import warnings
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings
from hypothesis.control import current_build_context
from oracle_compare import compare_scheduler
from oracle_driver import run_oracle, write_manifests, write_scheduler_mismatch
from oracle_exclusions import (oracle_outcome, placement_tie, scheduler_config, scheduler_gates,
                               shared_bound_host_port)
from oracle_generate import scheduler_cases, tree_cases

from podgroup_plan.loading import load_input
from podgroup_plan.planner import plan

EXAMPLES = int(os.environ.get("PODGROUP_PLAN_ORACLE_EXAMPLES", "0"))
SETTINGS = settings(
    max_examples=EXAMPLES or 25,
    derandomize=not EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)


def _check(oracle_bin: Path, case: dict, gates: dict[str, bool]) -> None:
    assume(shared_bound_host_port(case["documents"]) is None)  # oracle_exclusions rule 14
    case = dict(case, config=scheduler_config(case["config"]))
    with tempfile.TemporaryDirectory(prefix="oracle-case-") as tmp:
        _compare(oracle_bin, case, gates, write_manifests(Path(tmp), case["documents"], None))


def _compare(oracle_bin: Path, case: dict, gates: dict[str, bool], manifests: Path) -> None:
    planner = plan(load_input([str(manifests)], feature_gates=gates), scheduler_config=case["config"], feature_gates=gates).to_dict()
    assume(placement_tie(planner) is None)  # oracle_exclusions rule 10: upstream draws at random
    oracle = run_oracle(oracle_bin, "scheduler", manifests, gates, case["config"], extra=("--tie-break", "name"))
    known: set[str] = set()
    problems = compare_scheduler(oracle, planner, gates, known, case["documents"])
    for text in sorted(known):
        warnings.warn(f"known planner mismatch tolerated (oracle_exclusions.KNOWN_PLANNER_MISMATCHES): {text}")
    if problems:
        for _ in range(2):  # oracle_exclusions rule 12: does kube-scheduler itself answer one way?
            again = run_oracle(oracle_bin, "scheduler", manifests, gates, case["config"], extra=("--tie-break", "name"))
            assume(oracle_outcome(again) == oracle_outcome(oracle))
        where = ""
        if current_build_context().is_final:
            folder = write_scheduler_mismatch(case["documents"], case["config"], gates, oracle, problems)
            where = f"\nscenario folder: {folder}"
        raise AssertionError("planner differs from kube-scheduler v1.37.2 (scheduler mode):\n  "
                             + "\n  ".join(problems[:20]) + where)


@SETTINGS
@given(case=scheduler_cases())
def test_scheduler_mode_matches_kube_scheduler(oracle_bin, case):
    _check(oracle_bin, case, scheduler_gates())


@settings(SETTINGS, max_examples=EXAMPLES or 20)
@given(case=tree_cases())
def test_composite_trees_match_kube_scheduler(oracle_bin, case):
    """CompositePodGroup trees of depth 2-3 with the planner's default gates (CompositePodGroup
    on, as v1.37.2 runs it when told so)."""
    gates = scheduler_gates()
    assert gates["CompositePodGroup"]
    _check(oracle_bin, case, gates)


def test_generated_budgets_meet_running_pods():
    """The scheduler-mode generators write PodDisruptionBudgets that preemption can meet: a
    budget selecting a running pod (a potential victim) in its own namespace turns up within 200
    examples of each (in a hunt of 200 scheduler cases, half had one, and 6 of the 8 cases that
    preempted evicted a pod under a budget). Framework mode needs none (its docstring says why)."""
    from hypothesis import find
    from hypothesis.errors import NoSuchExample

    def covered(case: dict) -> bool:
        running = [(d["metadata"]["namespace"], d["metadata"]["labels"]["app"]) for d in case["documents"]
                   if d["kind"] == "Pod" and d["spec"].get("nodeName")]
        return any((d["metadata"]["namespace"], d["spec"]["selector"]["matchLabels"]["app"]) in running
                   for d in case["documents"] if d["kind"] == "PodDisruptionBudget")

    for strategy in (scheduler_cases(), tree_cases()):
        try:
            find(strategy, covered, settings=settings(max_examples=200, derandomize=True, database=None,
                                                      suppress_health_check=list(HealthCheck)))
        except NoSuchExample:  # pragma: no cover - the assertion below explains
            raise AssertionError(f"{strategy!r}: no generated case has a budget over a running pod")


def test_shared_bound_host_port_rule():
    """oracle_exclusions rule 14 sees two bound pods of one node on one host port, and only
    them: another node, another protocol or two different host IPs do not conflict."""
    from oracle_exclusions import shared_bound_host_port

    def pod(name, node, port, ip=None, proto=None):
        p = {"hostPort": port, "containerPort": 80}
        if ip:
            p["hostIP"] = ip
        if proto:
            p["protocol"] = proto
        return {"kind": "Pod", "metadata": {"name": name},
                "spec": {"nodeName": node, "containers": [{"name": "c", "ports": [p]}]}}

    assert shared_bound_host_port([pod("a", "n0", 8080), pod("b", "n0", 8080, ip="10.0.0.1")]) \
        == "a and b hold TCP/8080 on n0"
    assert shared_bound_host_port([pod("a", "n0", 8080), pod("b", "n1", 8080)]) is None
    assert shared_bound_host_port([pod("a", "n0", 8080), pod("b", "n0", 8080, proto="UDP")]) is None
    assert shared_bound_host_port([pod("a", "n0", 8080, ip="10.0.0.1"), pod("b", "n0", 8080, ip="10.0.0.2")]) is None
    pending = pod("b", "n0", 8080)
    del pending["spec"]["nodeName"]
    assert shared_bound_host_port([pod("a", "n0", 8080), pending]) is None
