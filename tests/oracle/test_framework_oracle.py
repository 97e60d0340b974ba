"""Differential test, framework mode: the planner's per-pod engine against kube-scheduler
v1.37.2's own framework (oracle/framework_mode.go) on generated clusters, compared exactly
(oracle_compare.py), with the exclusions of oracle_exclusions.py.

A fixed, small number of examples runs in CI (derandomized, so a CI run is reproducible);
`PODGROUP_PLAN_ORACLE_EXAMPLES=N` runs N random ones instead, for a longer hunt. A mismatch is
shrunk by hypothesis and written as a scenario folder (oracle_driver.py) named in the failure.

No PodDisruptionBudgets are generated here: framework mode runs no PostFilter, and in v1.37 only
preemption (and extenders) read budgets; no PreFilter, Filter, PreScore or Score plugin does.
The scheduler-mode tests (test_scheduler_oracle.py, preemption on) carry them.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis.control import current_build_context
from oracle_compare import compare_framework
from oracle_driver import run_oracle, write_framework_mismatch, write_manifests
from oracle_exclusions import upstream_default_gates
from oracle_generate import framework_cases
from planner_probe import framework_report

from podgroup_plan.config.configuration import resolve_feature_gates

EXAMPLES = int(os.environ.get("PODGROUP_PLAN_ORACLE_EXAMPLES", "0"))
SETTINGS = settings(
    max_examples=EXAMPLES or 40,
    derandomize=not EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
PLANNER_DEFAULT_GATES = resolve_feature_gates(None)


def _check(oracle_bin: Path, case: dict, gates: dict[str, bool]) -> None:
    with tempfile.TemporaryDirectory(prefix="oracle-case-") as tmp:
        manifests = write_manifests(Path(tmp), case["documents"], None)
        oracle = run_oracle(oracle_bin, "framework", manifests, gates, case["config"])
        planner = framework_report([str(manifests)], gates, case["config"])
    problems = compare_framework(oracle, planner)
    if problems:
        where = ""
        if current_build_context().is_final:
            folder = write_framework_mismatch(case["documents"], case["config"], gates, oracle, problems,
                                              PLANNER_DEFAULT_GATES)
            where = f"\nscenario folder: {folder}"
        raise AssertionError("planner differs from kube-scheduler v1.37.2 (framework mode):\n  "
                    + "\n  ".join(problems[:20]) + where)


@SETTINGS
@given(case=framework_cases())
def test_framework_mode_matches_kube_scheduler(oracle_bin, case):
    """Planner gate defaults (GenericWorkload and the group gates on)."""
    _check(oracle_bin, case, dict(PLANNER_DEFAULT_GATES))


@settings(SETTINGS, max_examples=EXAMPLES or 15)
@given(case=framework_cases())
def test_framework_mode_matches_with_upstream_gate_defaults(oracle_bin, case):
    """kube-scheduler v1.37's own defaults: every group gate off (different default plugins)."""
    _check(oracle_bin, case, upstream_default_gates())


def test_oracle_reports_every_node(oracle_bin, tmp_path):
    """The oracle itself: a fixed cluster whose answer is known (a sanity check that the
    comparison above compares something)."""
    docs = [
        {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "a", "labels": {"kubernetes.io/hostname": "a"}},
         "status": {"allocatable": {"cpu": "1", "memory": "1Gi", "pods": "10"}}},
        {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "b", "labels": {"kubernetes.io/hostname": "b"}},
         "spec": {"taints": [{"key": "k", "value": "v", "effect": "NoSchedule"}]},
         "status": {"allocatable": {"cpu": "4", "memory": "1Gi", "pods": "10"}}},
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "default"},
         "spec": {"containers": [{"name": "c", "image": "x", "resources": {"requests": {"cpu": "2"}}}]}},
    ]
    manifests = write_manifests(tmp_path, docs, None)
    report = run_oracle(oracle_bin, "framework", manifests, dict(PLANNER_DEFAULT_GATES), None)
    (pod,) = report["pods"]
    # 2 cpu asked of a node whose whole allocatable is 1: no eviction could help, so 1.37 says
    # UnschedulableAndUnresolvable (not plain Unschedulable).
    assert pod["filter"]["a"] == {"code": "UnschedulableAndUnresolvable", "plugin": "NodeResourcesFit",
                                  "reasons": ["Insufficient cpu"]}
    assert pod["filter"]["b"]["plugin"] == "TaintToleration"
    assert pod["schedule"]["fitError"] == ("0/2 nodes are available: 1 Insufficient cpu, "
                                           "1 node(s) had untolerated taint(s).")
    planner = framework_report([str(manifests)], dict(PLANNER_DEFAULT_GATES))
    assert compare_framework(report, planner) == []
