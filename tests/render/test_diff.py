"""diff_plans: only what differs, sorted; and its table / markdown renderings."""
import ast
import json
from dataclasses import replace
from pathlib import Path

import sample_plans
import podgroup_plan.diff as diff_module
from podgroup_plan.diff import diff_plans
from podgroup_plan.render.diff_markdown import render_diff_markdown
from podgroup_plan.render.diff_table import headline, render_diff_table
from podgroup_plan.render.json_yaml import render_json
from podgroup_plan.result import PlanResult, PodResult, Preemptor, VictimResult


def plan_b() -> PlanResult:
    """`mixed()` under another configuration: train-b fits in rack-2, batch-x lands,
    train-a moves a pod, and a different running pod is evicted."""
    a = sample_plans.mixed()
    pods = []
    for p in a.pods:
        if p.pod_group == "train-b":
            p = replace(p, status="Scheduled", node="node-c", reason=None, message=None)
        elif p.name == "batch-x":
            p = replace(p, status="Scheduled", node="node-a", reason=None, message=None)
        elif p.name == "train-a-3":
            p = replace(p, node="node-a")
        elif p.name == "low-1":
            continue  # not evicted under B: it keeps running and is not listed
        pods.append(p)
    pods.append(PodResult("default", "low-2", None, "Preempted", node="node-c"))
    pods.sort(key=lambda p: (p.namespace, p.name))
    groups = tuple(
        replace(g, status="Scheduled", placement="rack-2", topology_key="topology.kubernetes.io/rack",
                scheduled_pods=4, pending_pods=0) if g.name == "train-b" else g
        for g in a.pod_groups)
    victims = (VictimResult("default", "low-2", "node-c", None, 0, Preemptor("PodGroup", "ml", "train-b")),)
    summary = replace(a.summary, pods_scheduled=10, pods_unschedulable=0, pod_groups_scheduled=2,
                      pod_groups_unschedulable=0)
    return PlanResult(summary, tuple(pods), groups, (), victims, notes=(), scheduler_names=a.scheduler_names)


def test_same_plan_is_identical():
    doc = diff_plans(sample_plans.mixed(), sample_plans.mixed())
    assert doc["identical"] is True
    assert doc["pods"] == [] and doc["podGroups"] == [] and doc["compositePodGroups"] == []
    assert doc["victims"] == {"onlyA": [], "onlyB": []}
    assert doc["a"]["summary"] == doc["b"]["summary"] == sample_plans.mixed().summary.to_dict()


def test_lists_only_what_differs_sorted():
    doc = diff_plans(sample_plans.mixed(), plan_b())
    assert doc["apiVersion"] == "podgroup-plan/v1" and doc["kind"] == "PlanDiff"
    assert doc["identical"] is False
    assert list(doc) == ["apiVersion", "kind", "identical", "a", "b", "pods", "podGroups",
                         "compositePodGroups", "victims"]
    names = [(p["namespace"], p["name"]) for p in doc["pods"]]
    assert names == sorted(names)
    assert names == [("default", "batch-x"), ("default", "low-1"), ("default", "low-2"),
                     ("ml", "train-a-3"), ("ml", "train-b-0"), ("ml", "train-b-1"),
                     ("ml", "train-b-2"), ("ml", "train-b-3")]
    pods = {p["name"]: p for p in doc["pods"]}
    assert pods["batch-x"]["a"] == {"status": "Unschedulable", "node": None}
    assert pods["batch-x"]["b"] == {"status": "Scheduled", "node": "node-a"}
    assert pods["train-a-3"]["a"] == {"status": "Scheduled", "node": "node-b"}  # moved
    assert pods["train-a-3"]["b"] == {"status": "Scheduled", "node": "node-a"}
    assert pods["low-1"]["b"] == {"status": None, "node": None}  # not listed under B
    assert doc["podGroups"] == [{"namespace": "ml", "name": "train-b",
                                 "a": {"status": "Unschedulable", "placement": None},
                                 "b": {"status": "Scheduled", "placement": "rack-2"}}]
    assert doc["victims"] == {"onlyA": [{"namespace": "default", "name": "low-1"}],
                              "onlyB": [{"namespace": "default", "name": "low-2"}]}
    assert doc["a"]["feasible"] is False and doc["b"]["feasible"] is False  # infer still waits


def test_placement_change_alone_is_a_difference():
    a = sample_plans.feasible()
    b = replace(a, pod_groups=(replace(a.pod_groups[0], placement="z2"),))
    doc = diff_plans(a, b)
    assert not doc["identical"]
    assert doc["podGroups"][0]["a"]["placement"] == "z1" and doc["podGroups"][0]["b"]["placement"] == "z2"


def test_json_is_stable():
    assert render_json(diff_plans(sample_plans.mixed(), plan_b())) == \
        render_json(diff_plans(sample_plans.mixed(), plan_b()))
    json.loads(render_json(diff_plans(sample_plans.mixed(), plan_b())))


def test_headline_counts_what_differs():
    assert headline(diff_plans(sample_plans.mixed(), sample_plans.mixed())) == \
        "A and B give the same plan."
    assert headline(diff_plans(sample_plans.mixed(), plan_b())) == \
        "A and B differ: 1 PodGroup, 8 pods, 2 victims."


def test_diff_table_content():
    text = render_diff_table(diff_plans(sample_plans.mixed(), plan_b()),
                             label_a="built-in default profile", label_b="b.yaml")
    assert text.startswith("A and B differ: 1 PodGroup, 8 pods, 2 victims.")
    assert "\n  A: built-in default profile\n  B: b.yaml\n" in text
    row = next(l for l in text.split("\n") if l.startswith("PodGroups unschedulable"))
    assert row.split() == ["PodGroups", "unschedulable", "1", "0", "-1"]
    row = next(l for l in text.split("\n") if l.startswith("ml/train-b "))
    assert "Unschedulable" in row and "Scheduled on rack-2" in row
    row = next(l for l in text.split("\n") if l.startswith("default/low-1 "))
    assert "Preempted on node-b" in row and "running, not evicted" in row
    assert "Victims evicted by one plan only" in text
    assert "Notes, A only (what the plan did not apply)" in text
    assert "Notes, A and B" not in text and "Notes, B only" not in text
    assert all(len(l) <= 100 for l in text.split("\n"))


def test_diff_markdown_content():
    text = render_diff_markdown(diff_plans(sample_plans.mixed(), plan_b()), label_a="default",
                                label_b="b.yaml")
    assert text.startswith("## ⚠️ podgroup-plan diff: A and B differ: 1 PodGroup, 8 pods, 2 victims.\n")
    assert "| `ml/train-b` | **Unschedulable** | Scheduled on `rack-2` |" in text
    assert "| `default/low-1` | **Preempted** on `node-b` | _running, not evicted_ |" in text
    assert "| `default/low-1` | A only |" in text and "| `default/low-2` | B only |" in text
    assert "| PodGroups unschedulable | 1 | 0 | -1 |" in text
    same = render_diff_markdown(diff_plans(sample_plans.mixed(), sample_plans.mixed()))
    assert same.startswith("## ✅ podgroup-plan diff: A and B give the same plan.")


def test_diff_module_is_core():
    """diff.py is core (design.md): no CLI, terminal or YAML library."""
    tree = ast.parse(Path(diff_module.__file__).read_text())
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert not imported & {"typer", "click", "rich", "yaml", "orjson"}


def test_diff_tables_list_names_in_natural_order():
    from podgroup_plan.render.diff_markdown import render_diff_markdown

    summary = sample_plans.mixed().summary.to_dict()
    side = {"summary": summary, "feasible": True, "notes": []}
    pods = [{"namespace": "ml", "name": f"job-{i}", "a": {"status": "Scheduled", "node": "n1"},
             "b": {"status": "Scheduled", "node": "n2"}} for i in (1, 10, 2)]
    doc = {"apiVersion": "podgroup-plan/v1", "kind": "PlanDiff", "identical": False, "a": side,
           "b": side, "pods": pods, "podGroups": [], "compositePodGroups": [],
           "victims": {"onlyA": [], "onlyB": []}}
    for text in (render_diff_table(doc), render_diff_markdown(doc)):
        order = [text.index(f"ml/job-{i}") for i in (1, 2, 10)]
        assert order == sorted(order)
