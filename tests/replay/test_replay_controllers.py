"""Jobs over time: the next pods arrive as earlier ones complete; an evicted Job pod comes back."""
from __future__ import annotations

from scenarios import at, job, node, pod, priority_class, write

from podgroup_plan import load_input
from podgroup_plan.analyses.replay.run import Settings, replay
from podgroup_plan.loading.timing import read_timing


def run(path, settings=Settings()):
    return replay(load_input([str(path)]), read_timing([str(path)]), settings)


def test_a_jobs_next_pods_arrive_as_earlier_ones_complete(tmp_path):
    # completions 3, parallelism 2, 10 s each (the template's annotation), room for all:
    # two pods at 0, the third when the first completes, at 10; the Job ends at 20.
    path = write(tmp_path, node("gpu-1"), job("train", 2, 0, "10s", completions=3, parallelism=2))
    doc = run(path)
    (w,) = doc["workloads"]
    assert (w["kind"], w["name"], w["pods"]) == ("Job", "train", 3)
    assert (w["start"], w["end"], w["status"]) == (at(0), at(20), "Completed")
    assert doc["summary"]["gpuSecondsUsed"] == 3 * 2 * 10


def test_an_evicted_job_pod_comes_back_pending(tmp_path):
    # The Job's pod (8 GPUs, 100 s, grace 30) is preempted at 20 by a high-priority pod; it
    # terminates at 50, the high pod runs 50-80, and the Job's replacement (created at 20) runs
    # 80-180: the Job ends at 180.
    path = write(tmp_path, priority_class("high", 1000), node("gpu-1"),
                 job("train", 8, 0, "100s", grace=30), pod("urgent", 4, 20, "30s", priority="high"))
    doc = run(path)
    w = {x["name"]: x for x in doc["workloads"]}
    assert (w["urgent"]["start"], w["urgent"]["end"]) == (at(50), at(80))
    assert w["train"]["pods"] == 2 and (w["train"]["start"], w["train"]["end"]) == (at(0), at(180))
    assert doc["summary"]["replacementPods"] == 1 and doc["summary"]["preemptions"] == 1
