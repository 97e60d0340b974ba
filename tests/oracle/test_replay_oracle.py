"""Differential test, replay: `podgroup-plan replay` against kube-scheduler v1.37.2's own queue and
cycles on a fake clock (oracle/replay_mode.go). Each workload's start, end, nodes and status must
agree (oracle_replay.compare_replay); node ties are broken by name on both sides (oracle
`--tie-break name`, oracle_exclusions rule 1). First a handful of hand-written timelines, then
generated ones (oracle_replay.replay_cases), kept away from the shapes docs/replay.md says the
replay simplifies (oracle_exclusions.REPLAY_RULES).
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings
from oracle_driver import run_oracle, write_manifests
from oracle_exclusions import scheduler_config, scheduler_gates
from oracle_replay import (at, compare_replay, node, oracle_workloads, planner_replay, pod, pod_group, replay_cases,
                           replay_outcome, without_preemption)

EXAMPLES = int(os.environ.get("PODGROUP_PLAN_ORACLE_EXAMPLES", "0"))
SETTINGS = settings(
    max_examples=EXAMPLES or 30,
    derandomize=not EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)


def _run(oracle_bin: Path, documents: list[dict], config: dict | None,
         gates: dict[str, bool]) -> tuple[dict, dict, list[str], bool]:
    """Both sides on one scenario: (planner document, oracle report, differences, whether
    kube-scheduler's own answer changed between runs)."""
    all_gates = dict(scheduler_gates(), **gates)
    config = scheduler_config(config)  # DynamicResources off on both sides (oracle_exclusions rule 2)
    with tempfile.TemporaryDirectory(prefix="oracle-replay-") as tmp:
        manifests = write_manifests(Path(tmp), documents, config)
        planner = planner_replay(manifests, gates)
        oracle = run_oracle(oracle_bin, "replay", manifests, all_gates, config, extra=("--tie-break", "name"))
        assert oracle["unsettled"] == 0, "the oracle's informers did not catch up (its run is not to be trusted)"
        problems = compare_replay(planner, oracle)
        if problems:
            # oracle_exclusions rule 12: kube-scheduler's own random draws (preemption candidates
            # that tie on every criterion) -- is its answer the same every time?
            for _ in range(2):
                again = run_oracle(oracle_bin, "replay", manifests, all_gates, config, extra=("--tie-break", "name"))
                if replay_outcome(again) != replay_outcome(oracle):
                    return planner, oracle, problems, True
    return planner, oracle, problems, False


def _starts(oracle: dict) -> dict[str, str | None]:
    return {k[2]: v["start"] for k, v in oracle_workloads(oracle).items()}


def _check(oracle_bin, documents, config=None, gates=None) -> dict:
    planner, oracle, problems, random = _run(oracle_bin, documents, config, gates or {})
    assert not random, "kube-scheduler's own answer changed from one run to the next"
    assert not problems, "replay differs from kube-scheduler v1.37.2:\n  " + "\n  ".join(problems)
    return oracle


# ----- hand-written timelines: every one must agree ----------------------------------------------

def test_a_queue_on_one_node(oracle_bin):
    # a holds the node 0-100; b (all of it) is first in the queue: 100-150; c after it: 150-180.
    docs = [node("n1"), pod("a", "4", arrival=0, duration=100), pod("b", "4", arrival=10, duration=50),
            pod("c", "2", arrival=20, duration=30)]
    assert _starts(_check(oracle_bin, docs)) == {"a": at(0), "b": at(100), "c": at(150)}


def test_priority_orders_the_queue_without_preemption(oracle_bin):
    # low arrives first, high later; both wait for the busy node; high goes first at 100.
    docs = [node("n1"), pod("busy", "4", node_name="n1", duration=100),
            pod("low", "4", arrival=10, duration=50), pod("high", "4", arrival=20, duration=50, priority=1000)]
    starts = _starts(_check(oracle_bin, docs, config=without_preemption()))
    assert (starts["high"], starts["low"]) == (at(100), at(150))


def test_preemption_waits_for_the_grace_period(oracle_bin):
    # high arrives at 20 and preempts low (running since 0, 30 s grace): it starts at 50.
    docs = [node("n1"), pod("low", "4", node_name="n1", duration=300, grace=30),
            pod("high", "2", arrival=20, duration=60, priority=1000, grace=30)]
    oracle = _check(oracle_bin, docs)
    work = oracle_workloads(oracle)
    assert work[("Pod", "default", "high")]["start"] == at(50)
    assert work[("Pod", "default", "low")]["status"] == "Preempted"


def test_a_preemptor_takes_room_freed_before_its_victims_are_gone(oracle_bin):
    # p preempts low (terminating until 40) but short ends at 25 and p starts in its room then
    # (the planner used to hold a preemptor until its last victim was gone).
    docs = [node("n1"), pod("low", "2", node_name="n1", grace=30), pod("short", "2", node_name="n1", duration=25, priority=1000),
            pod("p", "2", arrival=10, duration=60, priority=100, grace=30)]
    work = oracle_workloads(_check(oracle_bin, docs))
    assert (work[("Pod", "default", "p")]["start"], work[("Pod", "default", "low")]["end"]) == (at(25), at(40))


def test_two_gangs_wait_for_a_busy_node(oracle_bin):
    # the planner used to hang here (two rejected gangs retrying each other at one instant)
    docs = [node("n1", gpus=2), node("n2", gpus=2), pod("busy", "1", gpus=2, node_name="n1", duration=100),
            pod_group("g1", 2), pod("g1-0", "1", gpus=2, arrival=10, duration=20, group="g1"),
            pod("g1-1", "1", gpus=2, arrival=10, duration=20, group="g1"),
            pod_group("g2", 2), pod("g2-0", "1", gpus=2, arrival=12, duration=20, group="g2"),
            pod("g2-1", "1", gpus=2, arrival=12, duration=20, group="g2")]
    starts = _starts(_check(oracle_bin, docs))
    assert (starts["g1"], starts["g2"]) == (at(100), at(120))


def test_a_gang_in_backoff_starts_on_its_backoff_tick(oracle_bin):
    # SchedulerPopFromBackoffQ off: the gang retries at 10, 12, 15, 20, 29, 44, ..., 89, 104; the
    # node frees at 100 and the gang starts at 104 (the planner used to leave it pending).
    docs = [node("n1"), pod("busy", "4", node_name="n1", duration=100),
            pod_group("g", 2), pod("g-0", "2", arrival=10, duration=20, group="g"),
            pod("g-1", "2", arrival=10, duration=20, group="g")]
    assert _starts(_check(oracle_bin, docs, gates={"SchedulerPopFromBackoffQ": False}))["g"] == at(104)


def test_entities_failing_at_one_instant_keep_the_order_they_failed_in(oracle_bin):
    # zed and amy both fail again at 50 (x's end): zed first, so zed goes first at 100
    docs = [node("n1", "8"), pod("a", "7", node_name="n1", duration=100), pod("x", "1", node_name="n1", duration=50),
            pod("zed", "8", arrival=10, duration=30), pod("amy", "8", arrival=20, duration=30)]
    starts = _starts(_check(oracle_bin, docs))
    assert (starts["zed"], starts["amy"]) == (at(100), at(130))


def test_preemption_evicts_the_pod_that_started_last(oracle_bin):
    docs = [node("n1", "8"), pod("b-early", "4", arrival=0, duration=300, grace=0),
            pod("a-late", "4", arrival=10, duration=300, grace=0), pod("high", "4", arrival=20, duration=60, priority=1000)]
    work = oracle_workloads(_check(oracle_bin, docs))
    assert work[("Pod", "default", "a-late")]["status"] == "Preempted"
    assert work[("Pod", "default", "high")]["start"] == at(20)


def test_a_basic_groups_backoff_counts_the_pods_still_queued(oracle_bin):
    # the group's second pod retries every 10 s once its backoff is at the maximum (one pod
    # queued), and starts on the tick after busy's end: 62
    docs = [node("n1", "8"), pod("busy", "4", node_name="n1", duration=60), pod_group("g", None),
            pod("g-0", "4", arrival=10, duration=100, group="g"), pod("g-1", "4", arrival=10, duration=100, group="g")]
    oracle = _check(oracle_bin, docs, gates={"SchedulerPopFromBackoffQ": False})
    assert sorted(p["start"] for p in oracle["pods"] if p["podGroup"]) == [at(10), at(62)]


def test_a_gangs_nominated_members_do_not_hold_room_against_each_other(oracle_bin):
    # the gang preempts both low pods; low1 is gone at 30, where one member starts
    docs = [node("n1", "8"), pod("low1", "4", node_name="n1", duration=100, grace=10),
            pod("low2", "4", node_name="n1", duration=100, grace=20), pod_group("g", 1, priority=1000),
            *[pod(f"g-{j}", "4", arrival=20, duration=30, group="g", priority=1000) for j in range(2)]]
    oracle = _check(oracle_bin, docs)
    assert sorted(p["start"] for p in oracle["pods"] if p["podGroup"]) == [at(30), at(40)]


def test_a_preemptor_whose_nomination_is_taken_preempts_elsewhere(oracle_bin):
    # mid preempts l2 on n2, high takes its nomination there, mid then preempts l1 on n1
    docs = [node("n1", "8"), node("n2", "8", gpus=2), pod("l1", "8", node_name="n1", started=0, grace=30),
            pod("l2", "2", gpus=2, node_name="n2", started=5, grace=30), pod("mid", "7", arrival=10, duration=60, priority=100),
            pod("high", "2", gpus=2, arrival=20, duration=60, priority=1000)]
    work = oracle_workloads(_check(oracle_bin, docs))
    assert (work[("Pod", "default", "high")]["start"], work[("Pod", "default", "mid")]["start"]) == (at(40), at(70))
    assert work[("Pod", "default", "mid")]["nodes"] == ["n1"]


def test_a_basic_group_and_lone_pods_share_two_nodes(oracle_bin):
    docs = [node("n1", "2"), node("n2", "2", labels={"disk": "ssd"}),
            pod("r", "2", node_name="n1", duration=60, started=-30),
            pod_group("web", None, priority=100), *[pod(f"web-{j}", "1", arrival=0, duration=90, group="web", priority=100)
                                                   for j in range(3)],
            pod("ssd", "1", arrival=5, duration=40, selector={"disk": "ssd"}),
            pod("nowhere", "1", arrival=5, duration=40, selector={"disk": "nvme"})]
    oracle = _check(oracle_bin, docs)
    assert oracle_workloads(oracle)[("Pod", "default", "nowhere")]["start"] is None


# ----- generated -----------------------------------------------------------------------------------

@SETTINGS
@given(case=replay_cases())
def test_generated_replays_match_kube_scheduler(oracle_bin, case):
    planner, oracle, problems, random = _run(oracle_bin, case["documents"], case["config"], case["gates"])
    assume(not random)  # oracle_exclusions rule 12
    if problems:
        import yaml
        folder = Path(tempfile.mkdtemp(prefix="oracle-replay-mismatch-"))
        write_manifests(folder, case["documents"], scheduler_config(case["config"]))
        (folder / "gates.yaml").write_text(yaml.safe_dump(case["gates"]))
        raise AssertionError("replay differs from kube-scheduler v1.37.2:\n  " + "\n  ".join(problems)
                             + f"\nscenario: {folder}")


def test_generated_replays_stay_inside_the_rules_and_make_work_wait():
    """The generator writes none of what oracle_exclusions.REPLAY_RULES leaves out, and its
    cases are not trivially green: within 40 of them (the planner alone), work waits for room,
    gangs wait, pods are preempted and some never start."""
    from hypothesis import find
    from hypothesis.errors import NoSuchExample

    from oracle_exclusions import REPLAY_RULES

    assert set(REPLAY_RULES) == {"controllers", "group arrivals", "hints", "placement ties", "node changes", "attempts"}
    seen: dict[str, int] = {"waited": 0, "gang waited": 0, "preempted": 0, "never started": 0}

    def check(case: dict) -> bool:
        docs = case["documents"]
        arrivals: dict[tuple[str, str], set[str]] = {}
        for d in docs:
            spec = d.get("spec", {})
            assert not d["metadata"].get("ownerReferences"), "controllers"
            assert "affinity" not in spec and "topologySpreadConstraints" not in spec, "hints"
            assert all("ports" not in c for c in spec.get("containers", [])), "hints"
            assert "schedulingConstraints" not in spec, "placement ties"
            if d["kind"] == "Pod" and spec.get("schedulingGroup"):
                group = (d["metadata"]["namespace"], spec["schedulingGroup"]["podGroupName"])
                arrivals.setdefault(group, set()).add(d["metadata"]["annotations"]["podgroup-plan.io/arrival"])
        assert all(len(times) == 1 for times in arrivals.values()), "group arrivals"
        with tempfile.TemporaryDirectory(prefix="replay-rules-") as tmp:
            doc = planner_replay(write_manifests(Path(tmp), docs, scheduler_config(case["config"])), case["gates"])
        for w in doc["workloads"]:
            seen["waited"] += w["start"] is not None and w["start"] > w["arrival"]
            seen["gang waited"] += w["gang"] and w["start"] is not None and w["start"] > w["arrival"]
            seen["preempted"] += w["status"] == "Preempted"
            seen["never started"] += w["start"] is None
        return False

    try:
        find(replay_cases(), check, settings=settings(max_examples=40, derandomize=True, database=None, deadline=None,
                                                      suppress_health_check=list(HealthCheck)))
    except NoSuchExample:
        pass
    assert all(seen.values()), seen
