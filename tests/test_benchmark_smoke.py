"""Smoke-sized runs of the benchmark generator and planner: they check results, never time.

The benchmarks themselves (`python -m benchmarks.run`) are not tests; these make sure that what
they measure is a right plan of the input they claim to generate.
"""
from __future__ import annotations

import orjson
import pytest

from benchmarks import generate, verify
from benchmarks.cases import Case, tiny, tiny_mixed
from podgroup_plan.planner import plan
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


# ----- issue 16: heterogeneous clusters, YAML loading, the demo's start-up --------------------


def test_mixed_case_has_the_shapes_it_claims():
    from benchmarks import mixed

    case = tiny_mixed()
    cluster = generate.cluster_input(case)
    pending = [p for p in cluster.pods if p.node_name is None]
    assert len(pending) == case.pending_pods
    assert len({(p.requests["cpu"], p.requests["memory"]) for p in pending}) == case.pod_shapes
    assert sum(1 for n in cluster.nodes if n.taints) == sum(1 for i in range(case.nodes) if mixed.tainted(i))
    assert {n.labels[mixed.INSTANCE_TYPE_LABEL] for n in cluster.nodes} == {t[0] for t in mixed.INSTANCE_TYPES}
    aff = [p.affinity for p in pending if p.affinity is not None]
    assert any(a.node_required for a in aff) and any(a.node_preferred for a in aff)
    assert any(a.pod_anti_affinity_required for a in aff) and any(a.pod_affinity_preferred for a in aff)
    assert any(c.when_unsatisfiable == "DoNotSchedule" for p in pending for c in p.topology_spread_constraints)
    assert any(p.node_selector for p in pending)
    unique = generate.cluster_input(tiny_mixed(pod_shapes=300))
    assert len({(p.requests["cpu"], p.requests["memory"]) for p in unique.pods}) == 300


def test_mixed_case_plans_every_pod_within_its_constraints():
    case = tiny_mixed()
    cluster = generate.cluster_input(case)
    result = plan(cluster)
    assert verify.problems(cluster, result) == []
    assert verify.constraint_problems(cluster, result) == []
    assert result.summary.pods_scheduled == case.pending_pods


def test_constraint_check_catches_a_broken_placement():
    """The checker is not blind: a pod moved onto a node it may not use is reported."""
    import dataclasses

    from benchmarks import mixed

    case = tiny_mixed()
    cluster = generate.cluster_input(case)
    result = plan(cluster)
    pods = {p.key: p for p in cluster.pods}
    tainted = next(n.name for i, n in enumerate(cluster.nodes) if mixed.tainted(i))
    victim = next(r for r in result.pods if not pods[(r.namespace, r.name)].tolerations)
    moved = [dataclasses.replace(r, node=tainted) if r is victim else r for r in result.pods]
    broken = dataclasses.replace(result, pods=moved)
    assert any("untolerated taint" in p for p in verify.constraint_problems(cluster, broken))


@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_mixed_files_plan_like_the_objects(tmp_path, fmt):
    load_input = _load_input()
    case = tiny_mixed(pod_shapes=300)
    cluster = load_input([generate.write_case(case, str(tmp_path), fmt, "kubectl")])
    result = plan(cluster)
    assert verify.problems(cluster, result) == []
    assert _decisions(result) == _decisions(plan(generate.cluster_input(case)))


def test_runner_measures_a_yaml_case_and_the_cli(tmp_path):
    """One smoke-sized run of each new kind of case through the runner's own code paths."""
    from benchmarks import run
    from benchmarks.cases import ALL

    yaml_case = dataclasses_replace(ALL["load-yaml-20k"], name="tiny-yaml", nodes=5, running_pods=40)
    folder = generate.write_case(yaml_case, str(tmp_path), yaml_case.format)
    out = run.run_child(yaml_case, folder, "files")
    assert out["problems"] == [] and out["load_s"] > 0 and out["parse_floor_s"] > 0
    assert run.figures(yaml_case, out)["floor_ratio"] > 0
    # an installed copy built here (tmp_path), or a note when pip cannot build one (offline)
    cli = run.run_cli_case(ALL["demo-startup"], timeout=120, data_dir=str(tmp_path))
    assert cli["problems"] == [] and cli["output_lines"] > 10
    assert cli.get("installed_pyc", 0) > 50 or any("no installed copy" in n for n in cli["notes"])
    if cli.get("installed_pyc"):  # the wheel's build hook compiled the schema checks into it
        assert list(tmp_path.glob("installed-*/lib/python*/site-packages/podgroup_plan/loading/"
                                  "__pycache__/_schema_checks.*.pyc"))
    assert cli["process_cpu_s"] > 0 and cli["source_process_cpu_s"] > 0 and cli["peak_mib"] > 10
    assert any("judged on" in line or "checkout" in line for line in run.cli_notes(cli))


def dataclasses_replace(obj, **kw):
    import dataclasses

    return dataclasses.replace(obj, **kw)


def test_cross_node_runner_prints_a_figure_per_plugin(capsys):
    """`benchmarks.cross_node` at a tiny size: it places pods, runs both plugins and prints
    one line each (the figures themselves are not checked: no clock in tests)."""
    from benchmarks import cross_node

    assert cross_node.main(["--nodes", "40", "--placed", "60", "--pods", "20", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert "60 pods placed on 40 nodes" in out
    assert "PodTopologySpread" in out and "InterPodAffinity" in out


# ----- issue 24: users' inputs (benchmarks/users.py), at a tiny size -----------------------------

def _tiny_user_case(name: str) -> Case:
    from dataclasses import replace

    from benchmarks.cases import ALL

    case = ALL[name]
    if case.generator == "wap":
        return replace(case, nodes=20, running_pods=20, gang_size=16)
    if case.generator == "gpu-trace":
        return replace(case, nodes=40, pending_pods=300)
    return replace(case, nodes=10, pending_pods=case.pending_pods * 10 // case.nodes)  # same pods per node


def _user_case_names() -> list[str]:
    from benchmarks.cases import BACKLOG_GROWTH, USERS

    return [*USERS, *BACKLOG_GROWTH]


@pytest.mark.parametrize("name", _user_case_names())
def test_users_case_plans_rightly_at_a_tiny_size(name):
    case = _tiny_user_case(name)
    cluster = generate.cluster_input(case)
    assert len(cluster.nodes) == case.nodes
    assert len(cluster.pods) == case.running_pods + case.pending_total
    result = plan(cluster)
    assert verify.problems(cluster, result, case.expect_all_scheduled) == []
    s = result.summary
    if case.generator == "wap":
        # the gang fits only by evicting one low-priority pod per node it uses
        assert s.pods_scheduled == case.gang_size
        assert s.pods_preempted == case.gang_size
        assert {v.preemptor.name for v in result.victims} == {"train"}
    elif case.backlog_ratio > 1 or case.generator == "gpu-trace" or case.backlog_ratio == 0:
        assert s.pods_unschedulable > 0  # more demand than capacity
        assert s.pods_preempted == 0  # one priority: nothing may be evicted
        assert s.pods_scheduled + s.pods_unschedulable == case.pending_total


def test_gpu_trace_has_the_trace_proportions():
    from benchmarks import users

    case = _tiny_user_case("gpu-trace-1213-8152")
    cluster = generate.cluster_input(case)
    kinds = [users._pod_kind(j) for j in range(100)]
    assert [kinds.count(k) for k in (users.CPU_ONLY, users.FRACTIONAL, users.ONE_GPU, users.MULTI_GPU)] == [13, 38, 48, 1]
    assert {users.gpus_of_node(i) for i in range(20)} == {1, 2, 4, 8}
    assert len({users.gpu_model(i) for i in range(100)}) == 7
    gpus_asked = sum(p.requests.get(users.GPU, 0) for p in cluster.pods)
    gpus_held = sum(n.allocatable.get(users.GPU, 0) for n in cluster.nodes)
    assert gpus_asked > gpus_held


def test_users_case_files_plan_like_the_objects(tmp_path):
    load_input = _load_input()
    case = _tiny_user_case("gpu-trace-1213-8152")
    cluster = load_input([generate.write_case(case, str(tmp_path), "json")])
    assert _decisions(plan(cluster)) == _decisions(plan(generate.cluster_input(case)))
