"""Smoke-sized runs of the benchmark generator and planner: they check results, never time.

The benchmarks themselves (`python -m benchmarks.run`) are not tests; these make sure that what
they measure is a right plan of the input they claim to generate.
"""
from __future__ import annotations

import orjson
import pytest

from benchmarks import generate, verify
from benchmarks.cases import Case, tiny
from podgroup_plan.plan import plan
from podgroup_plan.result import SCHEDULED, UNSCHEDULABLE


def _load_input():
    try:
        from podgroup_plan.loading import load_input
    except ImportError:
        pytest.skip("podgroup_plan.loading.load_input is not there yet")
    return load_input


def _decisions(result) -> dict:
    return {(p.namespace, p.name): (p.status, p.node) for p in result.pods}


def test_generated_files_hold_every_document(tmp_path):
    case = tiny()
    folder = generate.write_case(case, str(tmp_path), "json")
    count = 0
    for stem in generate.FILES:
        path = tmp_path / folder / f"{stem}.json"
        if path.exists():
            doc = orjson.loads(path.read_bytes())
            assert doc["kind"] == "List"
            count += len(doc["items"])
    assert count == case.documents


def test_tiny_case_plans_every_pod_within_allocatable():
    case = tiny()
    cluster = generate.cluster_input(case)
    result = plan(cluster)
    assert verify.problems(cluster, result) == []
    assert result.summary.pods_scheduled == case.pending_total
    assert result.summary.pod_groups_scheduled == case.gangs


def test_gang_is_all_or_nothing():
    # 4 nodes x 2 slots of 1500m: the first gang of 5 fits, the next two find 3 slots and must
    # place none of their pods.
    case = Case("gangs-overfull", "Smoke", nodes=4, gangs=3, gang_size=5, gang_cpu_m=1500)
    cluster = generate.cluster_input(case)
    result = plan(cluster)
    assert verify.problems(cluster, result, expect_all_scheduled=False) == []
    by_group: dict[str, list[str]] = {}
    for p in result.pods:
        by_group.setdefault(p.pod_group, []).append(p.status)
    assert by_group[generate.gang_name(0)] == [SCHEDULED] * 5
    assert by_group[generate.gang_name(1)] == [UNSCHEDULABLE] * 5
    assert by_group[generate.gang_name(2)] == [UNSCHEDULABLE] * 5


@pytest.mark.parametrize("fmt", generate.FORMATS)
@pytest.mark.parametrize("style", generate.STYLES)
def test_files_plan_like_the_objects_the_generator_builds(tmp_path, fmt, style):
    """The loader's view of the generated manifests is the cluster `cluster_input` builds, so
    plan-time figures measured on objects hold for files too."""
    load_input = _load_input()
    case = tiny()
    cluster = load_input([generate.write_case(case, str(tmp_path), fmt, style)])
    assert len(cluster.nodes) == case.nodes
    assert len(cluster.pods) == case.running_pods + case.pending_total
    assert len(cluster.pod_groups) == case.gangs
    result = plan(cluster)
    assert verify.problems(cluster, result) == []
    assert _decisions(result) == _decisions(plan(generate.cluster_input(case)))
