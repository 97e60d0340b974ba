"""The table a new user reads: headline in words, where each group landed, full messages."""
import re

import pytest

import sample_plans
from podgroup_plan.render import common
from podgroup_plan.render.table import MAX_LISTED, render_table
from podgroup_plan.result import PlanResult, PodResult, Summary

ANSI = re.compile(r"\x1b\[[0-9;]*m")
CONDITION_FALSE = "PodGroupInitiallyScheduled=False (Unschedulable): "


def detail(text: str, row_start: str) -> str:
    """The lines indented under the line that starts with `row_start` (a group's landing or
    why it did not), joined back into one line."""
    lines = text.split("\n")
    row = next(i for i, line in enumerate(lines) if line.startswith(row_start))
    parts = []
    for line in lines[row + 1:]:
        if not line.startswith("  ") or line.lstrip().startswith("•"):
            break
        parts.append(line.strip())
    return " ".join(parts)


def test_headline_says_in_words_what_happened():
    text = render_table(sample_plans.mixed())
    assert "Not feasible" in text
    assert "1 of 3 PodGroups scheduled; 1 unschedulable, 1 waiting" in text
    assert "5 of 13 pending pods scheduled; 5 unschedulable, 2 waiting, 1 ignored" in text
    assert "1 running pod preempted (evicted) by the plan" in text
    assert "kube-scheduler v1.37.0" in text and "default-scheduler" in text and "3 nodes" in text


def test_feasible_headline():
    text = render_table(sample_plans.feasible())
    assert "Feasible: every pending pod and PodGroup can be scheduled." in text
    assert "1 of 1 PodGroup scheduled\n" in text


def test_each_group_says_where_it_landed_or_why_not():
    text = render_table(sample_plans.mixed())
    assert "\nml/train-a " in text and \
        "\n  PodGroupInitiallyScheduled=True (Scheduled)\n  rack-1 (topology.kubernetes.io/rack)\n  nodes: node-a ×2, node-b ×2\n" in text
    assert detail(text, "ml/train-b ") == CONDITION_FALSE + sample_plans.GANG_MSG
    assert detail(text, "ml/infer ") == sample_plans.WAIT_MSG
    row = next(line for line in text.split("\n") if line.startswith("ml/train-b"))
    assert row.split() == ["ml/train-b", "Gang", "Unschedulable", "0/4"]


@pytest.mark.parametrize("width", [100, 80, 60])
def test_unschedulable_messages_are_shown_in_full_wrapped(width):
    text = render_table(sample_plans.mixed(), width=width)
    assert all(len(line) <= width for line in text.split("\n"))
    # Pods that share a message are listed once with it (a gang's pods mostly do).
    flat = " ".join(text.split())
    assert "• Unschedulable · 1 pod: default/batch-x " + sample_plans.NODE_MSG + " •" in flat
    assert ("• Unschedulable · 4 pods: ml/train-b-0, ml/train-b-1, ml/train-b-2, ml/train-b-3 "
            + sample_plans.GANG_MSG) in flat
    assert "• Waiting · 2 pods: ml/infer-0, ml/infer-1 " + sample_plans.WAIT_MSG in flat
    assert detail(text, "ml/train-b ") == CONDITION_FALSE + sample_plans.GANG_MSG


def test_long_names_stay_whole_at_80_columns():
    from dataclasses import replace

    base = sample_plans.mixed()
    long_name = "ml-research/vision-pretrain-trainers"
    groups = tuple(replace(g, namespace="ml-research", name="vision-pretrain-trainers")
                   if g.name == "train-b" else g for g in base.pod_groups)
    text = render_table(replace(base, pod_groups=groups), width=80)
    assert any(line.startswith(long_name + " ") for line in text.split("\n"))
    assert detail(text, long_name) == CONDITION_FALSE + sample_plans.GANG_MSG


def test_victims_and_notes_are_listed():
    text = render_table(sample_plans.mixed())
    assert "Victims (running pods the plan evicts)" in text
    row = next(line for line in text.split("\n") if line.startswith("default/low-1") and "PodGroup" in line)
    assert "node-b" in row and "PodGroup ml/train-a" in row
    assert "Notes (what the plan did not apply)" in text
    assert "• Volumes are not modelled: 1 pod's volumes were ignored." in text


def test_composite_groups_have_their_own_table():
    text = render_table(sample_plans.with_composite())
    assert "CompositePodGroups" in text
    assert "1 of 2 CompositePodGroups scheduled; 1 invalid" in text
    assert detail(text, "ml/loop ") == "composite pod group hierarchy has a cycle"
    assert detail(text, "ml/job ") == "z1"


def test_no_colour_unless_asked():
    assert not ANSI.search(render_table(sample_plans.mixed()))
    coloured = render_table(sample_plans.mixed(), color=True)
    assert ANSI.search(coloured)
    assert ANSI.sub("", coloured).count("Unschedulable") >= 2


def test_no_trailing_spaces_in_plain_text():
    text = render_table(sample_plans.mixed())
    assert all(line == line.rstrip() for line in text.split("\n"))


def test_by_default_only_pods_that_did_not_schedule_are_listed():
    pods = tuple(PodResult("default", f"p-{i}", None, "Scheduled", node="n1") for i in range(12))
    pods += (PodResult("default", "zz-stuck", None, "Unschedulable", reason="Unschedulable",
                       message="0/1 nodes are available: 1 Insufficient cpu."),)
    result = PlanResult(Summary(nodes=1, pods_scheduled=len(pods) - 1, pods_unschedulable=1), pods)
    text = render_table(result)
    assert "default/zz-stuck" in text and "default/p-0" not in text
    assert "12 of 13 pending pods scheduled; 1 unschedulable" in text
    every = render_table(result, pods="all")
    rows = [line.split()[0] for line in every.split("\n") if line.startswith("default/")]
    # natural order: p-2 before p-10
    assert rows == [f"default/p-{i}" for i in range(12)] + ["default/zz-stuck"]
    assert "gpu" not in every and every.count(" n1") == 12


def test_pods_past_the_listing_limit_are_counted():
    pods = tuple(PodResult("default", f"p-{i}", None, "Waiting", message="waiting")
                 for i in range(MAX_LISTED + 3))
    result = PlanResult(Summary(nodes=1, pods_waiting=len(pods)), pods)
    text = render_table(result)
    assert "3 more rows not listed. -o json lists every pod." in text
    assert "default/p-1002" not in text.split("Why these")[0]


def test_deterministic():
    assert render_table(sample_plans.mixed()) == render_table(sample_plans.mixed())


def test_headline_lines_pluralise():
    assert common.plural(1, "PodGroup") == "1 PodGroup"
    assert common.plural(2, "PodGroup") == "2 PodGroups"
    assert common.headline_lines(sample_plans.only_preemption()) == [
        "1 of 1 pending pod scheduled", "1 running pod preempted (evicted) by the plan"]


def test_preempted_group_says_who_evicted_it_and_from_where():
    text = render_table(sample_plans.preempted_group())
    assert "1 of 2 PodGroups scheduled; 1 preempted" in text
    assert detail(text, "ml/old ") == (
        "PodGroupInitiallyScheduled=True (Scheduled) DisruptionTarget=True (PreemptionByScheduler): "
        "preempted by PodGroup ml/urgent evicted from node-a, node-b")
    row = next(line for line in text.split("\n") if line.startswith("ml/old-0 ") and "PodGroup" in line)
    assert row.split() == ["ml/old-0", "node-a", "old", "10", "PodGroup", "ml/urgent"]
    assert "2 running pods preempted (evicted) by the plan" in text


def test_empty_plan():
    text = render_table(sample_plans.empty())
    assert "no pending pods in the input" in text and "Feasible" in text


def test_header_names_configuration_and_the_gates_that_differ():
    from podgroup_plan.render.table import View, header

    base = sample_plans.mixed()
    # featureGates (contract.md): only the gates that differ from kube-scheduler 1.37's defaults
    with_gates = PlanWithGates(base, {"GenericWorkload": True, "TopologyAwareWorkloadScheduling": False})
    lines = [line.plain for line in header(View(with_gates, 80, configuration="conf/most.yaml",
                                                user_gates=("TopologyAwareWorkloadScheduling",)))]
    text = " ".join(" ".join(lines).split())
    assert "configuration: conf/most.yaml (profile default-scheduler)" in text
    # only what the user set is the user's; the rest are the planner's defaults, worded so
    assert "feature gates you set: TopologyAwareWorkloadScheduling=false" in text
    assert ("planner defaults: gang scheduling on (GenericWorkload; off in a stock v1.37.0); "
            "--feature-gates to match a stock cluster") in text
    assert all(len(line) <= 80 for line in lines)
    defaults = " ".join(line.plain for line in header(View(with_gates, 200)))
    assert "you set" not in defaults and "planner defaults: gang scheduling on (GenericWorkload;" in defaults
    plain = " ".join(line.plain for line in header(View(base, 80)))
    assert "feature gates" not in plain and "configuration: built-in default" in plain


class PlanWithGates:
    """A PlanResult that carries `feature_gates` (the result's featureGates)."""

    def __init__(self, result, gates):
        self._result = result
        self.feature_gates = gates

    def __getattr__(self, name):
        return getattr(self._result, name)


def test_placement_candidates_are_a_line_under_the_group():
    from dataclasses import replace

    from podgroup_plan.result import PlacementResult

    base = sample_plans.mixed()
    trials = (PlacementResult("rack-2", 4, True, False, 3, "minCount (4) cannot be satisfied", None, None, False),
              PlacementResult("rack-1", 4, True, True, 4, None, 187,
                              {"PodGroupPodsCount": 100, "NodeResourcesFit": 87}, True))
    groups = tuple(replace(g, placements=trials) if g.name == "train-a" else g for g in base.pod_groups)
    text = render_table(replace(base, pod_groups=groups), width=80)
    assert detail(text, "ml/train-a ").endswith(
        "placements: rack-1 chosen (score 187: pods 100, fit 87); rack-2: 3 pods placed, infeasible")


def test_a_group_without_candidates_says_which_label_no_node_has():
    # upstream's message is only `no feasible placements found`; the planner's line names the key
    from pathlib import Path

    from podgroup_plan.loading import load_input
    from podgroup_plan.planner import plan
    from podgroup_plan.render.common import placement_summary

    folder = Path(__file__).parent.parent / "scenarios" / "oracle-no-feasible-placements" / "manifests"
    result = plan(load_input([str(folder)]))
    group = next(g for g in result.pod_groups if g.name == "train")
    assert group.conditions[0].message.startswith("no feasible placements found")
    assert placement_summary(group) == 'placements: none (no candidate node has label "rack")'
    assert 'placements: none (no candidate node has label "rack")' in render_table(result, width=200)
