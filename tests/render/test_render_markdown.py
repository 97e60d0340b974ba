"""Markdown for a CI job summary or a PR comment: verdict first, valid GFM tables, full messages."""
import re

import sample_plans
from podgroup_plan.render.markdown import MAX_ROWS, cell, render_markdown
from podgroup_plan.result import PlanResult, PodResult, Summary


def tables(text: str) -> list[list[str]]:
    """Every GFM table in text, as its lines."""
    out, current = [], []
    for line in text.split("\n"):
        if line.startswith("|"):
            current.append(line)
        elif current:
            out.append(current)
            current = []
    return out + ([current] if current else [])


def cells(line: str) -> list[str]:
    return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]


def section(text: str, title: str) -> str:
    start = text.index(f"### {title}")
    end = text.find("\n### ", start + 1)
    return text[start:] if end < 0 else text[start:end]


def test_verdict_first():
    assert render_markdown(sample_plans.mixed()).startswith("## ❌ podgroup-plan: not feasible\n")
    assert render_markdown(sample_plans.feasible()).startswith("## ✅ podgroup-plan: feasible\n")


def test_headline_and_summary_table():
    text = render_markdown(sample_plans.mixed())
    assert "- 1 of 3 PodGroups scheduled; 1 unschedulable, 1 waiting" in text
    summary = tables(section(text, "Summary"))[0]
    assert cells(summary[0]) == ["", "Scheduled", "Unschedulable", "Waiting", "Preempted"]
    assert cells(summary[2]) == ["Pods", "5", "5", "2", "1"]
    assert cells(summary[3]) == ["PodGroups", "1", "1", "1", "0"]


def test_every_table_is_well_formed():
    for make in (sample_plans.mixed, sample_plans.with_composite, sample_plans.only_preemption):
        for tbl in tables(render_markdown(make())):
            width = len(cells(tbl[0]))
            assert re.fullmatch(r"\|( ---:? \|)+", tbl[1])
            assert all(len(cells(row)) == width for row in tbl), tbl


def test_groups_say_where_they_landed():
    rows = tables(section(render_markdown(sample_plans.mixed()), "PodGroups"))[0]
    by_name = {cells(r)[0]: cells(r) for r in rows[2:]}
    assert by_name["`ml/train-a`"] == ["`ml/train-a`", "Gang", "Scheduled", "4/4",
                                       "PodGroupInitiallyScheduled=True (Scheduled)",
                                       "rack-1 (topology.kubernetes.io/rack)<br>nodes: node-a ×2, node-b ×2"]
    assert by_name["`ml/train-b`"][2] == "**Unschedulable**"
    assert by_name["`ml/train-b`"][4] == "PodGroupInitiallyScheduled=False (Unschedulable)"
    assert by_name["`ml/train-b`"][5] == sample_plans.GANG_MSG


def test_pods_that_did_not_schedule_with_full_messages():
    part = section(render_markdown(sample_plans.mixed()), "Pods that did not schedule")
    rows = {cells(r)[0]: cells(r) for r in tables(part)[0][2:]}
    assert set(rows) == {"`default/batch-x`", "`default/low-1`", "`default/other-sched`", "`ml/infer-0`",
                         "`ml/infer-1`", "`ml/train-b-0`", "`ml/train-b-1`", "`ml/train-b-2`",
                         "`ml/train-b-3`"}
    assert rows["`default/batch-x`"][-1] == sample_plans.NODE_MSG
    ok = section(render_markdown(sample_plans.feasible()), "Pods that did not schedule")
    assert "Every pending pod was scheduled." in ok


def test_victims_and_notes():
    text = render_markdown(sample_plans.mixed())
    victims = tables(section(text, "Victims"))[0]
    assert cells(victims[2]) == ["`default/low-1`", "node-b", "—", "0", "PodGroup ml/train-a"]
    assert "- Volumes are not modelled: 1 pod's volumes were ignored." in section(text, "Notes")
    assert "### Victims" not in render_markdown(sample_plans.feasible())


def test_cells_escape_pipes_newlines_and_html():
    assert cell("a|b\nc <d>") == "a\\|b<br>c &lt;d&gt;"
    assert cell(None) == "—"


def test_long_lists_are_cut_with_a_pointer_to_json():
    pods = tuple(PodResult("default", f"p-{i:04d}", None, "Unschedulable", reason="Unschedulable",
                           message="0/1 nodes are available: 1 Insufficient cpu.")
                 for i in range(MAX_ROWS + 3))
    text = render_markdown(PlanResult(Summary(nodes=1, pods_unschedulable=len(pods)), pods))
    # bare pods with the same message do not fold (no owner to name them by)
    assert "_3 more rows not listed; `-o json` lists every pod._" in text
    assert "`default/p-0099`" in text and "`default/p-0100`" not in text


def test_deterministic():
    assert render_markdown(sample_plans.mixed()) == render_markdown(sample_plans.mixed())


def test_feasible_with_evictions_says_so():
    text = render_markdown(sample_plans.preempted_group())
    assert "Feasible: every pending pod and PodGroup can be scheduled, by evicting 2 running pods." in text
    assert ("| `ml/old` | Gang | **Preempted** | 0/2 | PodGroupInitiallyScheduled=True (Scheduled)<br>"
            "DisruptionTarget=True (PreemptionByScheduler) | preempted by PodGroup ml/urgent<br>"
            "evicted from node-a, node-b |") in text
    assert "No pending pods." in render_markdown(sample_plans.empty())


def test_many_groups_list_only_those_that_did_not_schedule():
    from podgroup_plan.result import PodGroupResult

    groups = tuple(PodGroupResult("ml", f"g-{i:03d}", "Gang", 2, None, None, 2, 0, "Scheduled")
                   for i in range(MAX_ROWS + 2))
    groups += (PodGroupResult("ml", "zz", "Gang", 2, None, None, 0, 2, "Unschedulable"),)
    text = render_markdown(PlanResult(Summary(nodes=1), (), groups))
    part = section(text, "PodGroups")
    assert "`ml/zz`" in part and "`ml/g-000`" not in part
    assert f"_{MAX_ROWS + 2} scheduled PodGroups not listed. -o json lists every PodGroup._" in part
