"""`Planner`: the same plan as `plan()`, scopes that leave no trace, submit, derive."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from podgroup_plan.loading import load_input
from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import Pod
from podgroup_plan.planner import plan
from podgroup_plan.planner import Planner

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios"
CASES = sorted(p.name for p in SCENARIOS.iterdir() if (p / "manifests").is_dir())
DEMO = [str(ROOT / "fixtures" / "cluster"), str(ROOT / "fixtures" / "workloads")]


def _controls(case: str) -> dict:
    expected = yaml.safe_load((SCENARIOS / case / "expected.yaml").read_text(encoding="utf-8")) or {}
    return {"feature_gates": expected.get("featureGates"), "expand": expected.get("expand", True)}


def _json(result) -> str:
    return json.dumps(result.to_dict(), indent=1)


def fingerprint(planner: Planner) -> tuple:
    """Everything a later step can read: the result, the cluster state, the nominations, the
    queue with its failure marks, the counters the retry decisions read."""
    state, passes = planner.state, planner.passes
    return (
        _json(planner.result()),
        sorted(state.pod_node.items()),
        state.requested.tobytes(), state.non_zero_requested.tobytes(), state.pod_count.tobytes(),
        sorted((k, n) for k, (_, n) in passes.nominator._node_of.items()),
        [(e.key, [p.key for p in e.pods], e.failed_at_version, e.failed_at_commit, e.failed_at_bound,
          sorted(e.failed_plugins)) for e in planner.pending],
        passes.commits, passes.evictions_version, passes.clock(), planner.settled,
        [f.next_start_node_index for f in planner.frameworks.values()],
        len(planner.cluster.pods), planner.trees is None or sorted(planner.trees.nodes),
    )


@pytest.mark.parametrize("case", CASES)
def test_planner_plans_what_plan_plans(case):
    controls = _controls(case)
    cluster = load_input([str(SCENARIOS / case / "manifests")], feature_gates=controls["feature_gates"])
    assert _json(Planner(cluster, **controls).plan()) == _json(plan(cluster, **controls))


def test_planner_plans_the_demo_as_plan_does():
    cluster = load_input(DEMO)
    planner = Planner(cluster)
    assert _json(planner.plan()) == _json(plan(cluster))
    assert planner.settled and planner.plan() is not None  # settled: nothing runs again
    assert _json(planner.plan()) == _json(plan(cluster))


def _extra_pods(cluster: ClusterInput, n: int, cpu: int) -> list[Pod]:
    return [Pod(namespace="extra", name=f"extra-{i}", requests={"cpu": cpu}, non_zero_cpu=cpu,
                non_zero_memory=200 << 20, creation_timestamp="2030-01-01T00:00:00Z") for i in range(n)]


@pytest.mark.parametrize("case", ["preemption-gang-evicts-single-pods", "composite-two-level-fits",
                                  "nominated-node-from-input", "job-gang-fits"])
def test_a_scope_taken_back_leaves_result_and_state_as_they_were(case):
    cluster = load_input([str(SCENARIOS / case / "manifests")], feature_gates=_controls(case)["feature_gates"])
    planner = Planner(cluster, **_controls(case))
    planner.plan()
    before = fingerprint(planner)
    with planner.tentative():
        added = planner.submit(pods=_extra_pods(cluster, 6, 1000))
        result = planner.run()
        assert {p.name for p in result.pods} >= {p.name for p in added}
        assert fingerprint(planner) != before
    assert fingerprint(planner) == before


def test_a_scope_taken_back_on_an_exception_too():
    cluster = load_input(DEMO)
    planner = Planner(cluster)
    planner.plan()
    before = fingerprint(planner)
    with pytest.raises(RuntimeError):
        with planner.tentative():
            planner.submit(pods=_extra_pods(cluster, 3, 500))
            planner.run()
            raise RuntimeError("analysis failed")
    assert fingerprint(planner) == before


def test_the_demo_with_extra_pods_in_a_scope_and_then_for_real():
    cluster = load_input(DEMO)
    extra = _extra_pods(cluster, 5, 2000)
    planner = Planner(cluster)
    planner.plan()
    with planner.tentative():
        planner.submit(pods=extra)
        tried = _json(planner.run())
    planner.submit(pods=extra)
    fresh = Planner(cluster)
    fresh.plan()
    fresh.submit(pods=extra)
    assert _json(planner.run()) == _json(fresh.run()) == tried


def test_nested_scopes():
    cluster = load_input([str(SCENARIOS / "preemption-gang-evicts-single-pods" / "manifests")])
    planner = Planner(cluster)
    planner.plan()
    start = fingerprint(planner)
    first, second = _extra_pods(cluster, 4, 500)[:2], _extra_pods(cluster, 4, 500)[2:]
    with planner.tentative() as outer:
        planner.submit(pods=first)
        planner.run()
        after_first = fingerprint(planner)
        with planner.tentative():  # taken back: back to after_first
            planner.submit(pods=second)
            planner.run()
        assert fingerprint(planner) == after_first
        with planner.tentative() as inner:  # kept into the outer scope
            planner.submit(pods=second)
            planner.run()
            inner.commit()
        after_both = fingerprint(planner)
        assert after_both != after_first
        outer.commit()
    assert fingerprint(planner) == after_both
    with planner.tentative():
        with planner.tentative() as inner:
            planner.submit(pods=_extra_pods(cluster, 6, 500)[4:])
            planner.run()
            inner.commit()
    assert fingerprint(planner) == after_both
    assert fingerprint(planner) != start


def test_submit_a_job_expands_it_as_the_input_would():
    folder = SCENARIOS / "job-gang-fits" / "manifests"
    whole = load_input([str(folder)])
    job_files = [str(p) for p in sorted(folder.iterdir()) if "kind: Job" in p.read_text(encoding="utf-8")]
    rest = [str(p) for p in sorted(folder.iterdir()) if str(p) not in job_files]
    assert job_files and rest
    planner = Planner(load_input(rest))
    planner.plan()
    # load_input wants a node or a pod: read the Job beside the nodes, submit its controllers
    added = planner.submit(ClusterInput(controllers=load_input(job_files + rest).controllers))
    assert added and all(p.owner_references for p in added)
    assert _json(planner.run()) == _json(plan(whole))


def test_submit_a_job_to_an_input_that_has_controllers_too():
    """The fragment's controllers join the input's, kind by kind (`--gang` from either side);
    the run's bool `gang_all` is no list of objects to merge (it raised TypeError)."""
    whole = load_input([str(SCENARIOS / "job-gang-fits" / "manifests")])
    (job,) = whole.controllers.jobs
    other = replace(job, name=job.name + "-again", uid="")
    planner = Planner(whole)
    planner.plan()
    added = planner.submit(ClusterInput(controllers=replace(whole.controllers, jobs=(other,))))
    assert added and all(p.name.startswith(other.name + "-") for p in added)
    both = replace(whole, controllers=replace(whole.controllers, jobs=(job, other)))
    assert _json(planner.run()) == _json(plan(both))


def test_derive_reuses_the_configuration():
    cluster = load_input(DEMO)
    config = yaml.safe_load((ROOT / "fixtures" / "scheduler-config" / "most-allocated.yaml").read_text())
    planner = Planner(cluster, scheduler_config=config, feature_gates={"WorkloadAwarePreemption": False})
    planner.plan()
    smaller = replace(cluster, nodes=cluster.nodes[: len(cluster.nodes) // 2])
    derived = planner.derive(smaller)
    assert derived.configuration is planner.configuration
    expected = plan(smaller, scheduler_config=config, feature_gates={"WorkloadAwarePreemption": False})
    assert _json(derived.plan()) == _json(expected)
    assert _json(planner.result()) == _json(plan(cluster, scheduler_config=config,
                                                  feature_gates={"WorkloadAwarePreemption": False}))


def test_submit_refuses_what_is_not_pending_work():
    cluster = load_input(DEMO)
    planner = Planner(cluster)
    planner.plan()
    with pytest.raises(ValueError, match="not nodes"):
        planner.submit(ClusterInput(nodes=cluster.nodes[:1]))
    with pytest.raises(ValueError, match="bound to a node"):
        planner.submit(pods=[replace(_extra_pods(cluster, 1, 100)[0], node_name=cluster.nodes[0].name)])
    known = cluster.pods[0]
    with pytest.raises(ValueError, match="already in the input"):
        planner.submit(pods=[replace(known, node_name=None, phase="Pending")])
