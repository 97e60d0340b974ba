"""The table a new user reads: headline in words, where each group landed, full messages."""
import re

import sample_plans
from podgroup_plan.render import common
from podgroup_plan.render.table import MAX_POD_ROWS, render_table
from podgroup_plan.result import PlanResult, PodResult, Summary

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def column_text(text: str, title: str, header: str, row_start: str) -> str:
    """The wrapped content of column `header` for the row starting with `row_start` in table
    `title`, joined back into one line."""
    lines = text.split("\n")
    start = lines.index(title)
    head = next(i for i in range(start, len(lines)) if header in lines[i])
    col = lines[head].index(header)
    row = next(i for i in range(head, len(lines)) if lines[i].startswith(row_start))
    parts = [lines[row][col:].strip()]
    for line in lines[row + 1:]:
        if not line.strip() or line[:col].strip():  # blank line or the next row begins
            break
        parts.append(line[col:].strip())
    return " ".join(parts)


def test_headline_says_in_words_what_happened():
    text = render_table(sample_plans.mixed())
    assert "Not feasible" in text
    assert "1 of 3 PodGroups scheduled; 1 unschedulable, 1 waiting" in text
    assert "5 of 13 pending pods scheduled; 5 unschedulable, 2 waiting, 1 ignored" in text
    assert "1 running pod preempted (evicted) by the plan" in text
    assert "kube-scheduler 1.37" in text and "default-scheduler" in text and "3 nodes" in text


def test_feasible_headline():
    text = render_table(sample_plans.feasible())
    assert "Feasible: every pending pod and PodGroup can be scheduled." in text
    assert "1 of 1 PodGroup scheduled\n" in text


def test_each_group_says_where_it_landed_or_why_not():
    text = render_table(sample_plans.mixed())
    landed = column_text(text, "PodGroups", "Landed on / why not", "ml/train-a")
    assert landed == "rack-1 (topology.kubernetes.io/rack) nodes: node-a ×2, node-b ×2"
    why = column_text(text, "PodGroups", "Landed on / why not", "ml/train-b")
    assert why == sample_plans.GANG_MSG
    row = next(line for line in text.split("\n") if line.startswith("ml/train-b"))
    assert "Gang ≥4" in row and "Unschedulable" in row and "0/4" in row


def test_unschedulable_messages_are_shown_in_full_wrapped():
    text = render_table(sample_plans.mixed(), width=100)
    assert column_text(text, "Pods", "Message", "default/batch-x") == sample_plans.NODE_MSG
    assert all(len(line) <= 100 for line in text.split("\n"))


def test_messages_stay_whole_when_narrow():
    text = render_table(sample_plans.mixed(), width=80)
    # A word longer than the column is folded; nothing is cut.
    folded = column_text(text, "Pods", "Message", "default/batch-x")
    assert folded.replace(" ", "") == sample_plans.NODE_MSG.replace(" ", "")
    assert all(len(line) <= 80 for line in text.split("\n"))


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
    assert column_text(text, "CompositePodGroups", "Landed on / why not", "ml/loop") == \
        "composite pod group hierarchy has a cycle"


def test_no_colour_unless_asked():
    assert not ANSI.search(render_table(sample_plans.mixed()))
    coloured = render_table(sample_plans.mixed(), color=True)
    assert ANSI.search(coloured)
    assert ANSI.sub("", coloured).count("Unschedulable") >= 2


def test_no_trailing_spaces_in_plain_text():
    text = render_table(sample_plans.mixed())
    assert all(line == line.rstrip() for line in text.split("\n"))


def test_many_pods_list_only_those_that_did_not_schedule():
    pods = tuple(PodResult("default", f"p-{i:04d}", None, "Scheduled", node="n1")
                 for i in range(MAX_POD_ROWS + 5))
    pods += (PodResult("default", "zz-stuck", None, "Unschedulable", reason="Unschedulable",
                       message="0/1 nodes are available: 1 Insufficient cpu."),)
    result = PlanResult(Summary(nodes=1, pods_scheduled=len(pods) - 1, pods_unschedulable=1), pods)
    text = render_table(result)
    assert "default/zz-stuck" in text and "default/p-0000" not in text
    assert f"{MAX_POD_ROWS + 5} scheduled pods not listed" in text
    assert f"{MAX_POD_ROWS + 5} of {MAX_POD_ROWS + 6} pending pods scheduled; 1 unschedulable" in text


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
    assert column_text(text, "PodGroups", "Landed on / why not", "ml/old") == \
        "preempted by PodGroup ml/urgent evicted from node-a, node-b"
    assert column_text(text, "Pods", "Message", "ml/old-0") == "preempted by PodGroup ml/urgent"
    assert "2 running pods preempted (evicted) by the plan" in text


def test_empty_plan():
    text = render_table(sample_plans.empty())
    assert "no pending pods in the input" in text and "Feasible" in text
