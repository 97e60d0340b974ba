"""The hand-derived timelines of issue 33, replayed: every start, end and attempt below was
worked out by hand from kube-scheduler v1.37.0's queue rules (docs/replay.md)."""
from __future__ import annotations

from scenarios import at, basic, gang, job, node, pod, priority_class, write

from podgroup_plan import load_input
from podgroup_plan.analyses.replay.run import Settings, replay
from podgroup_plan.loading.timing import read_timing


def run(path, settings=Settings(), gates=None):
    return replay(load_input([str(path)]), read_timing([str(path)]), settings, feature_gates=gates)


def by_name(doc):
    return {w["name"]: w for w in doc["workloads"]}


def test_one_node_three_pods_one_priority(tmp_path):
    # A holds the node 0-100; B (8 GPUs) is first in the queue, then C (4 GPUs): B 100-150, C 150-180.
    path = write(tmp_path, node("gpu-1"), pod("a", 8, 0, "100s"), pod("b", 8, 10, "50s"), pod("c", 4, 20, "30s"))
    doc = run(path)
    w = by_name(doc)
    assert (w["a"]["start"], w["a"]["end"]) == (at(0), at(100))
    assert (w["b"]["start"], w["b"]["end"], w["b"]["waitSeconds"]) == (at(100), at(150), 90)
    assert (w["c"]["start"], w["c"]["end"], w["c"]["waitSeconds"]) == (at(150), at(180), 130)
    assert doc["summary"]["makespanSeconds"] == 180
    assert doc["summary"]["waitSeconds"] == {"count": 3, "p50": 90, "p95": 130, "max": 130}
    assert doc["summary"]["gpuSecondsUsed"] == 8 * 100 + 8 * 50 + 4 * 30


def test_higher_priority_preempts_and_waits_for_the_grace_period(tmp_path):
    # C (high) arrives at 20 and preempts A, whose 30 s grace period keeps the GPUs until 50;
    # C runs 50-80, then B (arrived at 10, low) 80-130. A is a bare pod: it does not come back.
    path = write(tmp_path, priority_class("high", 1000), node("gpu-1"), pod("a", 8, 0, "100s", grace=30),
                 pod("b", 8, 10, "50s"), pod("c", 4, 20, "30s", priority="high"))
    doc = run(path, Settings(focus="default/c"))
    w = by_name(doc)
    assert (w["a"]["start"], w["a"]["end"], w["a"]["status"]) == (at(0), at(50), "Preempted")
    assert (w["c"]["start"], w["c"]["end"]) == (at(50), at(80))
    assert (w["b"]["start"], w["b"]["end"]) == (at(80), at(130))
    assert doc["summary"]["makespanSeconds"] == 130
    assert doc["summary"]["preemptions"] == 1
    focus = doc["focus"]
    assert [a["outcome"] for a in focus["attempts"]] == ["Preempting", "Scheduled"]
    assert focus["waitedFor"] == [{"namespace": "default", "name": "a", "node": "gpu-1", "end": at(50),
                                   "endedBy": "preempted"}]


def test_a_gang_waits_for_two_jobs(tmp_path):
    # Two 8-GPU nodes, busy with j1 (until 100) and j2 (until 60); a gang of two 8-GPU pods
    # arrives at 10 and starts only when both are gone, at 100.
    path = write(tmp_path, node("n1"), node("n2"),
                 pod("j1", 8, 0, "100s", node_name="n1", started=0), pod("j2", 8, 0, "60s", node_name="n2", started=0),
                 gang("g", 2, 10), pod("g-0", 8, 10, "20s", group="g"), pod("g-1", 8, 10, "20s", group="g"),
                 )
    doc = run(path, Settings(start=0.0 + 1767225600, focus="default/g"))
    w = by_name(doc)
    assert (w["g"]["start"], w["g"]["end"], w["g"]["waitSeconds"]) == (at(100), at(120), 90)
    assert w["g"]["gang"] is True and w["g"]["nodes"] == ["n1", "n2"]
    waited = [p["name"] for p in doc["focus"]["waitedFor"]]
    assert waited == ["j2", "j1"]
    assert doc["summary"]["makespanSeconds"] == 120


def test_flush_is_visible_in_a_pods_attempts(tmp_path):
    # A pod no node's labels match waits in the unschedulable pool: no pod's end can help
    # (NodeAffinity has no hint for it), so only the flush moves it: after more than 5 minutes
    # since its last attempt, on the 30-second ticks: 0, 330, 660, 990.
    path = write(tmp_path, node("n1"), pod("lost", 1, 0, "10s", selector="{zone: mars}"),
                 pod("busy", 8, 0, "100s"))
    doc = run(path, Settings(until_after=1000.0, focus="default/lost"))
    times = [a["time"] for a in doc["focus"]["attempts"]]
    assert times == [at(0), at(330), at(660), at(990)]
    assert [a["trigger"] for a in doc["focus"]["attempts"]][1:] == ["flush (5 minutes in the unschedulable pool)"] * 3
    assert doc["summary"]["neverStarted"][0]["name"] == "lost"
    assert "didn't match Pod's node affinity/selector" in doc["summary"]["neverStarted"][0]["message"]


def test_backoff_is_visible_in_a_gangs_attempts(tmp_path):
    # With SchedulerPopFromBackoffQ off a rejected gang waits out its backoff: 1 s, then 2 s
    # (each expiry moved on the next whole-second tick): attempts at 0, 2, 5; the node frees at 5.
    path = write(tmp_path, node("n1"), pod("a", 8, 0, "5s", node_name="n1", started=0),
                 gang("g", 2, 0), pod("g-0", 4, 0, "10s", group="g"), pod("g-1", 4, 0, "10s", group="g"))
    doc = run(path, Settings(focus="default/g"), gates={"SchedulerPopFromBackoffQ": False})
    attempts = doc["focus"]["attempts"]
    assert [a["time"] for a in attempts] == [at(0), at(2), at(5)]
    assert [a["outcome"] for a in attempts] == ["Unschedulable", "Unschedulable", "Scheduled"]


def test_a_gang_in_backoff_starts_after_the_last_end_with_pop_from_backoff_off(tmp_path):
    # With SchedulerPopFromBackoffQ off, a rejected gang retries only when its backoff expires:
    # at 10, 12, 15, 20, 29 (1, 2, 4, 8 s), then every 10*sqrt(2) s: 44, 59, 74, 89, 104. The
    # node frees at 100, the last pod's end: the gang starts at its next retry, 104, although no
    # pod arrives or ends after 100 (the replay used to stop there and leave it pending).
    # kube-scheduler v1.37.2 on the oracle's fake clock agrees (tests/oracle/test_replay_oracle.py).
    path = write(tmp_path, node("n1"), pod("busy", 8, 0, "100s", node_name="n1", started=0),
                 gang("g", 2, 10), pod("g-0", 4, 10, "20s", group="g"), pod("g-1", 4, 10, "20s", group="g"))
    doc = run(path, Settings(focus="default/g"), gates={"SchedulerPopFromBackoffQ": False})
    assert (by_name(doc)["g"]["start"], by_name(doc)["g"]["end"]) == (at(104), at(124))
    times = [a["time"] for a in doc["focus"]["attempts"]]
    assert times == [at(s) for s in (10, 12, 15, 20, 29, 44, 59, 74, 89, 104)]


def test_two_rejected_gangs_do_not_wake_each_other(tmp_path):
    # Two gangs of two 8-GPU pods wait for n1 (busy until 100). Each rejected attempt assumes its
    # pods tentatively and rolls them back; an idle scheduler's retry (SchedulerPopFromBackoffQ)
    # must wait for a pod to bind or go, not for that rollback, or the two gangs retry each
    # other for ever at one instant (the replay used to hang here).
    path = write(tmp_path, node("n1"), node("n2"), pod("busy", 8, 0, "100s", node_name="n1", started=0),
                 gang("g1", 2, 10), pod("g1-0", 8, 10, "20s", group="g1"), pod("g1-1", 8, 10, "20s", group="g1"),
                 gang("g2", 2, 12), pod("g2-0", 8, 12, "20s", group="g2"), pod("g2-1", 8, 12, "20s", group="g2"))
    w = by_name(run(path))
    assert (w["g1"]["start"], w["g1"]["nodes"]) == (at(100), ["n1", "n2"])
    assert (w["g2"]["start"], w["g2"]["end"]) == (at(120), at(140))


def test_a_preemptor_takes_room_freed_before_its_victims_are_gone(tmp_path):
    # n1 (8 GPUs) runs low (4 GPUs, priority 0, 30 s grace) and short (4 GPUs, high, ends at 25).
    # p (4 GPUs, mid) arrives at 10 and preempts low, which terminates until 40; short ends at 25
    # and p starts there, in short's room, as kube-scheduler does (a preemptor waits in the
    # unschedulable pool, and short's deletion moves it). The replay used to hold a preemptor
    # until its last victim was gone (40).
    path = write(tmp_path, priority_class("high", 1000), priority_class("mid", 100), node("n1"),
                 pod("low", 4, 0, grace=30), pod("short", 4, 0, "25s", priority="high"),
                 pod("p", 4, 10, "60s", priority="mid"))
    doc = run(path, Settings(focus="default/p"))
    w = by_name(doc)
    assert (w["low"]["end"], w["low"]["status"]) == (at(40), "Preempted")
    assert (w["p"]["start"], w["p"]["nodes"]) == (at(25), ["n1"])
    assert [a["outcome"] for a in doc["focus"]["attempts"]] == ["Preempting", "Scheduled"]


def test_entities_failing_at_one_instant_keep_the_order_they_failed_in(tmp_path):
    # zed (arrived 10) and amy (arrived 20) wait for n1; x's end at 50 retries both, zed first,
    # and both fail again: their queue timestamps are both 50. kube-scheduler's are not equal --
    # each cycle takes time -- and follow the order they failed in, so at 100, when a ends, zed
    # goes first (the replay used to break the tie by name: amy first).
    path = write(tmp_path, node("n1"), pod("a", 7, 0, "100s", node_name="n1", started=0),
                 pod("x", 1, 0, "50s", node_name="n1", started=0),
                 pod("zed", 8, 10, "30s"), pod("amy", 8, 20, "30s"))
    w = by_name(run(path))
    assert (w["zed"]["start"], w["amy"]["start"]) == (at(100), at(130))


def test_preemption_evicts_the_pod_that_started_last(tmp_path):
    # b-early started at 0, a-late at 10 (equal priority): high preempts a-late, the one started
    # last (MoreImportantPod: status.startTime, which the kubelet records). The replay used to
    # leave pods it started without a start time, and the tie went by name.
    path = write(tmp_path, priority_class("high", 1000), node("n1"),
                 pod("b-early", 4, 0, "300s", grace=0), pod("a-late", 4, 10, "300s", grace=0),
                 pod("high", 4, 20, "60s", priority="high"))
    w = by_name(run(path))
    assert (w["a-late"]["status"], w["a-late"]["end"]) == ("Preempted", at(20))
    assert (w["b-early"]["status"], w["high"]["start"]) == ("Completed", at(20))


def test_a_basic_groups_backoff_counts_the_pods_still_queued(tmp_path):
    # A basic group of two places one pod at 10; the other waits for busy (until 60). With
    # SchedulerPopFromBackoffQ off it retries on its backoff ticks: 12, 15, 20, 29, then every
    # 10 s -- the maximum times the square root of the pods still queued (one), not of the
    # group's size -- 40, 51, 62. The replay used to wait 10*sqrt(2) s (44, 59, 74).
    path = write(tmp_path, node("n1"), pod("busy", 4, 0, "60s", node_name="n1", started=0),
                 basic("g", 10), pod("g-0", 4, 10, "100s", group="g"), pod("g-1", 4, 10, "100s", group="g"))
    doc = run(path, Settings(focus="default/g"), gates={"SchedulerPopFromBackoffQ": False})
    times = [a["time"] for a in doc["focus"]["attempts"]]
    assert times == [at(t) for t in (10, 12, 15, 20, 29, 40, 51, 62)]


def test_a_gangs_nominated_members_do_not_hold_room_against_each_other(tmp_path):
    # A gang (minCount 1) of two 4-GPU pods preempts low1 (10 s grace) and low2 (20 s) at 20;
    # both members are nominated to n1. At 30 low1 is gone and one member fits: while their
    # group's cycle runs the other member is in flight, and NominatedPodsForNode knows it by
    # reference only (an empty pod of priority 0, below the member's), so kube-scheduler does not
    # count it; one member starts at 30, the other at 40. The replay used to count the other
    # member's 4 GPUs and start neither before 40.
    high_gang = gang("g", 1, 20).replace("spec:\n", "spec:\n  priorityClassName: high\n", 1)
    path = write(tmp_path, priority_class("high", 1000), node("n1"),
                 pod("low1", 4, 0, "100s", grace=10), pod("low2", 4, 0, "100s", grace=20), high_gang,
                 pod("g-0", 4, 20, "30s", group="g", priority="high"),
                 pod("g-1", 4, 20, "30s", group="g", priority="high"))
    doc = run(path, Settings(focus="default/g"))
    w = by_name(doc)
    assert (w["g"]["start"], w["g"]["end"]) == (at(30), at(70))


def test_a_preemptor_whose_nomination_is_taken_preempts_elsewhere(tmp_path):
    # l1 fills n1's CPUs (started 0), l2 (started 5) holds n2's GPUs and 2 CPUs. mid (63 CPUs)
    # arrives at 10 and preempts l2, the victim that started last; high (8 GPUs) arrives at 20
    # and preempts on n2 too, taking mid's nomination. At 40 l2 is gone: high starts on n2, and
    # mid, retried, preempts l1 on n1 -- n1 did not change, but mid's answer did (its nomination
    # is gone) -- and starts at 70. The replay used to answer mid's retry from its last one.
    path = write(tmp_path, priority_class("mid", 100), priority_class("high", 1000), node("n1", gpus=0), node("n2"),
                 pod("l1", 0, node_name="n1", started=0, grace=30, cpu="64"),
                 pod("l2", 8, node_name="n2", started=5, grace=30, cpu="2"),
                 pod("mid", 0, 10, "60s", priority="mid", cpu="63"), pod("high", 8, 20, "60s", priority="high", cpu="2"))
    w = by_name(run(path, Settings(start=float(1767225600 + 5))))
    assert (w["l2"]["end"], w["high"]["start"], w["high"]["nodes"]) == (at(40), at(40), ["n2"])
    assert (w["l1"]["end"], w["mid"]["start"], w["mid"]["nodes"]) == (at(70), at(70), ["n1"])


def test_same_input_same_bytes_whatever_the_file_order(tmp_path):
    import json

    docs = [node("gpu-1"), pod("a", 8, 0, "100s"), pod("b", 8, 10, "50s"), pod("c", 4, 20, "30s")]
    one = write(tmp_path, *docs, name="one.yaml")
    two = write(tmp_path, *reversed(docs), name="two.yaml")
    a = json.dumps(run(one, Settings(focus="default/c")), sort_keys=True)
    b = json.dumps(run(two, Settings(focus="default/c")), sort_keys=True)
    assert a == b


def test_running_pods_run_out_their_remaining_time(tmp_path):
    # r1 started at 0 and r2 at 30, 100 s each; the clock starts by default at the latest
    # start (30); r1 ends at 100, r2 at 130; p (8 GPUs) waits for both, from 30 to 130.
    path = write(tmp_path, node("n1", gpus=8), pod("r1", 4, 0, "100s", node_name="n1", started=0),
                 pod("r2", 4, 0, "100s", node_name="n1", started=30), pod("p", 8, 0, "10s"))
    doc = run(path)
    w = by_name(doc)
    assert doc["start"] == at(30)
    assert (w["r1"]["end"], w["r2"]["end"]) == (at(100), at(130))
    assert (w["p"]["start"], w["p"]["waitSeconds"]) == (at(130), 130)  # it arrived at 0


def test_a_gang_that_never_starts_says_why(tmp_path):
    # three 8-GPU pods of one gang on two 8-GPU nodes: never, with kube-scheduler's message
    path = write(tmp_path, node("n1"), node("n2"), gang("big", 3, 0),
                 *(pod(f"big-{i}", 8, 0, "10s", group="big") for i in range(3)))
    doc = run(path)
    (never,) = doc["summary"]["neverStarted"]
    assert (never["kind"], never["name"], never["gang"]) == ("PodGroup", "big", True)
    assert never["message"].startswith("pod group is unschedulable")
    assert doc["workloads"][0]["status"] == "Pending" and doc["workloads"][0]["end"] is None


def test_work_arriving_after_until_is_left_out_and_held_pods_are_listed(tmp_path):
    # "late" arrives after --until 60s: not in the result. "gated" has a scheduling gate: the
    # queue never takes it; it is listed, waiting, with the plan's message.
    gated = pod("gated", 1, 0, "10s").replace("spec:\n", "spec:\n  schedulingGates: [{name: example.com/hold}]\n", 1)
    path = write(tmp_path, node("n1"), pod("a", 1, 0, "10s"), pod("late", 1, 100, "10s"), gated)
    doc = run(path, Settings(until_after=60.0))
    w = by_name(doc)
    assert "late" not in w and doc["summary"]["pods"] == 2
    assert w["gated"]["status"] == "Pending" and w["gated"]["start"] is None
    assert w["gated"]["message"] == "waiting for scheduling gates: [example.com/hold]"


def test_default_duration_is_for_batch_work_not_services(tmp_path):
    # a ReplicaSet's pod runs on (a service); a bare pod takes --default-duration
    rs = """apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: web, creationTimestamp: "2026-01-01T00:00:00Z"}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]
"""
    path = write(tmp_path, node("n1"), rs, pod("batch", 1, 0))
    doc = run(path, Settings(default_duration=60.0))
    w = by_name(doc)
    assert w["batch"]["end"] == at(60)
    assert w["web"]["kind"] == "ReplicaSet" and w["web"]["status"] == "Running" and w["web"]["end"] is None
    assert doc["summary"]["podsRunForever"] == 1


def test_a_gang_waits_for_two_jobs_submitted_before_it(tmp_path):
    # The two Jobs (8 GPUs each: 100 s and 60 s) take both nodes at 0; the gang of two 8-GPU
    # pods arrives at 10 and starts at 100, when the longer Job completes.
    path = write(tmp_path, node("n1"), node("n2"), job("j1", 8, 0, "100s"), job("j2", 8, 0, "60s"),
                 gang("g", 2, 10), pod("g-0", 8, 10, "20s", group="g"), pod("g-1", 8, 10, "20s", group="g"))
    doc = run(path, Settings(focus="default/g"))
    w = by_name(doc)
    assert (w["j1"]["kind"], w["j1"]["end"], w["j2"]["end"]) == ("Job", at(100), at(60))
    assert (w["g"]["start"], w["g"]["end"], w["g"]["waitSeconds"]) == (at(100), at(120), 90)
    assert [a["outcome"] for a in doc["focus"]["attempts"]][-1] == "Scheduled"
    assert doc["focus"]["attempts"][-1]["time"] == at(100)


def test_a_gang_preempts_and_starts_when_its_last_victim_is_gone(tmp_path):
    # A high-priority gang of two 8-GPU pods arrives at 20 on two nodes held by low-priority
    # pods with grace periods 10 s and 20 s: it starts at 40, when the second has terminated.
    # Meanwhile the gang waits: first gated in the pool while its preemption deletes the victims
    # (DefaultPreemption's PreEnqueue, run as it enters the backoff queue), until low1 is gone
    # (30); then, failing again (low2 still terminating keeps it from preempting again), in the
    # backoff queue, retried on its ticks (33, 38) and when low2 is gone (40). kube-scheduler
    # v1.37.2 on the oracle's fake clock pops it at the same five times.
    high_gang = gang("g", 2, 20).replace("spec:\n", "spec:\n  priorityClassName: high\n", 1)
    path = write(tmp_path, priority_class("high", 1000), node("n1"), node("n2"),
                 pod("low1", 8, 0, "100s", grace=10), pod("low2", 8, 0, "100s", grace=20), high_gang,
                 pod("g-0", 8, 20, "30s", group="g", priority="high"),
                 pod("g-1", 8, 20, "30s", group="g", priority="high"))
    doc = run(path, Settings(focus="default/g"))
    w = by_name(doc)
    assert (w["low1"]["end"], w["low2"]["end"]) == (at(30), at(40))
    assert (w["g"]["start"], w["g"]["end"]) == (at(40), at(70))
    attempts = doc["focus"]["attempts"]
    assert [a["time"] for a in attempts] == [at(t) for t in (20, 30, 33, 38, 40)]
    assert [a["outcome"] for a in attempts] == ["Preempting"] + ["Unschedulable"] * 3 + ["Scheduled"]
    assert doc["summary"]["preemptions"] == 2
