"""Every table of `simulate`, `diff` and `explain` with the names real clusters have
(tests/render/realistic.py: GKE and EKS node names of 37-40 characters, namespaces of 17-23): no
line wider than COLUMNS at 80, 120 and 200, every node name shown whole (a row too wide wraps into
two lines instead), gangs and pods named by their Job, identical rows folded. Snapshots in
tests/render/snapshots/realistic-*.txt; after a deliberate change to the layout:
    UPDATE_SNAPSHOTS=1 python -m pytest tests/render/test_realistic_tables.py
"""
import json
import os
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import realistic
from podgroup_plan.cli import app

SNAPSHOTS = Path(__file__).parent / "snapshots"
WIDTHS = (80, 120, 200)
NO_PREEMPTION = Path(__file__).parents[1] / "cli" / "diff_cases" / "no-preemption.yaml"
NODES = [n for n, _, _ in realistic.gke_nodes()] + realistic.eks_nodes()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    return realistic.write(tmp_path_factory.mktemp("realistic"))


def run(width: int, *args) -> str:
    result = CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": str(width)})
    assert result.exit_code in (0, 1), result.output
    return result.stdout


def giant_group(cluster) -> str:
    doc = json.loads(run(80, "simulate", cluster, "-o", "json"))
    return next(f"{g['namespace']}/{g['name']}" for g in doc["podGroups"] if "giant" in g["name"])


COMMANDS = {
    "simulate": lambda c: ["simulate", c],
    "simulate-all": lambda c: ["simulate", c, "--pods", "all"],
    "diff": lambda c: ["diff", c, "--config-b", _beside(c, NO_PREEMPTION)],
    "explain-group": lambda c: ["explain", c, "--pod-group", giant_group(c)],
    "explain-pod": lambda c: ["explain", c, "--pod", "research-infrastructure/giant-pretrain-0-zp975"],
    "explain-job": lambda c: ["explain", c, "--job", "research-infrastructure/multi-zone-finetune"],
    "simulate-capacity": lambda c: ["simulate", c, "--capacity"],
    "what-if": lambda c: ["what-if", c, "--each", "cloud.google.com/gce-topology-block"],
    "headroom": lambda c: ["headroom", c, "--workload", realistic.write_workload(c.parent), "--max", "5"],
}


def _beside(cluster, path: Path) -> Path:
    """A copy of `path` beside the cluster, so that the header names it under FOLDER (the
    checkout's own path differs between clones and would end up in the snapshot)."""
    copy = cluster.parent / path.name
    copy.write_bytes(path.read_bytes())
    return copy


def _with_placeholder(text: str, cluster) -> str:
    return text.replace(str(cluster.parent), "FOLDER")


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_snapshot_fits_and_keeps_node_names_whole(cluster, command, width):
    text = _with_placeholder(run(width, *COMMANDS[command](cluster)), cluster)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= width, [line for line in lines if len(line) > width]
    # a node name is never elided or broken: every piece of text that starts like one is one whole
    for token in re.findall(r"(?:gke-prod|ip-10-)[^\s,;:()]*", text):
        assert token.rstrip(".") in NODES or token in NODES, token
    path = SNAPSHOTS / f"realistic-{command}-{width}.txt"
    if os.environ.get("UPDATE_SNAPSHOTS"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def test_gangs_and_pods_are_named_by_their_job_and_folded(cluster):
    text = run(200, "simulate", cluster)
    assert re.search(r"^Job research-infrastructure/giant-pretrain +Gang +Unschedulable +0/40$", text, re.M)
    assert re.search(r"^Job research-infrastructure/giant-pretrain \(40 pods\) +its PodGroup +Unschedulable", text, re.M)
    assert re.search(r"^Deployment search-ranking-online/embedding-inference \(54 pods\) +— +Unschedulable", text, re.M)
    # one row per owner, not one per pod; --pods all lists every pod by its own name
    assert "giant-pretrain-17-" not in text.split("Pods that did not schedule")[1].split("Why these")[0]
    every = run(200, "simulate", cluster, "--pods", "all")
    assert len(re.findall(r"^research-infrastructure/giant-pretrain-\d+-\w{5} ", every, re.M)) == 40
    # --pods all lists every pod: the notebooks the plan leaves running too (36 of 48; 12 evicted)
    assert len(re.findall(r"^data-science-notebooks/notebook-servers-\S+ +— +Running +gke-", every, re.M)) == 36
    assert len(re.findall(r"^data-science-notebooks/notebook-servers-\S+ +— +Preempted +gke-", every, re.M)) == 12
    # the generated names stay in the JSON
    doc = json.loads(run(80, "simulate", cluster, "-o", "json"))
    assert any(g["name"].startswith("giant-pretrain-") and "-pgt-" in g["name"] for g in doc["podGroups"])


def test_victims_fold_per_owner_and_name_the_preemptor_by_its_job(cluster):
    text = run(200, "simulate", cluster)
    victims = text.split("Victims (running pods the plan evicts)")[1].split("\n\n")[0]
    rows = victims.splitlines()[3:]
    assert len(rows) == 1 and rows[0].startswith("ReplicaSet data-science-notebooks/notebook-servers-7d9f8c6b5d (12 pods)")
    assert rows[0].rstrip().endswith("Job research-infrastructure/urgent-eval")
    assert "Job research-infrastructure/urgent-eval evicts 12 pods" in text


def test_markdown_folds_identical_rows(cluster):
    text = run(80, "simulate", cluster, "-o", "markdown")
    pods = text.split("### Pods that did not schedule")[1].split("###")[0]
    assert "| `Job research-infrastructure/giant-pretrain (39 pods)` |" in pods
    assert pods.count("minCount (40) cannot be satisfied") == 1
    assert len([line for line in pods.splitlines() if line.startswith("| `")]) == 8


def test_junit_has_one_case_per_owner_of_every_kind(cluster):
    import xml.etree.ElementTree as ET

    root = ET.fromstring(run(80, "simulate", cluster, "-o", "junit", "--fail-on", "unschedulable"))
    cases = sorted(f"{c.get('classname')}/{c.get('name')}" for c in root.iter("testcase"))
    assert cases == ["Deployment.search-ranking-online/embedding-inference",
                     "Job.perf-benchmarking/nccl-allreduce-rack-benchmark",
                     "Job.research-infrastructure/giant-pretrain",
                     "Job.research-infrastructure/multi-zone-finetune",
                     "Job.research-infrastructure/urgent-eval",
                     "ReplicaSet.data-science-notebooks/notebook-servers-7d9f8c6b5d"]
    deployment = next(c for c in root.iter("testcase") if c.get("name") == "embedding-inference")
    text = deployment.find("failure").text
    assert "54 pods (embedding-inference-" in text and text.count("Insufficient cpu") == 1


def test_diff_folds_pods_per_owner_and_names_groups_by_their_job(cluster):
    text = run(200, *COMMANDS["diff"](cluster))
    pods = text.split("Pods that differ (status, node)")[1].split("\n\n")[0].splitlines()[3:]
    assert [re.split(r"  +", row) for row in pods] == [
        ["ReplicaSet data-science-notebooks/notebook-servers-7d9f8c6b5d (12 pods)", "Preempted on 6 nodes",
         "running, not evicted"],
        ["Job research-infrastructure/urgent-eval (6 pods)", "Scheduled on 6 nodes", "Unschedulable"]]
    groups = text.split("PodGroups that differ (status, placement)")[1].split("\n\n")[0]
    assert re.search(r"^Job research-infrastructure/urgent-eval +Scheduled on block-a0 +Unschedulable$", groups, re.M)
    # the JSON document keeps every pod by its own name
    doc = json.loads(run(80, *COMMANDS["diff"](cluster), "-o", "json"))
    assert len(doc["pods"]) == 18


def test_by_owner_wraps_rather_than_cuts_an_owner_at_80_columns(cluster):
    text = run(80, "simulate", cluster)
    owners = text.split("By owner")[1].split("\n\n")[0]
    assert "…" not in owners
    assert "\nReplicaSet data-science-notebooks/notebook-servers-7d9f8c6b5d\n  pods: 0 of 12 pods scheduled" in owners


def test_explain_names_the_owner_beside_the_generated_name(cluster):
    import jsonschema

    schema = json.loads((Path(__file__).parents[2] / "schemas" / "Explanation.json").read_text())
    for args, owner in ((COMMANDS["explain-group"](cluster), "giant-pretrain"),
                        (COMMANDS["explain-pod"](cluster), "giant-pretrain"),
                        (COMMANDS["explain-job"](cluster), "multi-zone-finetune")):
        doc = json.loads(run(80, *args, "-o", "json"))
        jsonschema.validate(doc, schema)
        assert doc["owner"] == {"kind": "Job", "name": owner}
        assert f"\nowner: Job research-infrastructure/{owner}\n" in run(80, *args)
    # a target without an owner has no owner field (a PodGroup written by hand)
    doc = json.loads(run(80, "explain", Path(__file__).parents[1] / "scenarios" / "composite-zone-over-rack" / "manifests",
                         "--pod-group", "training/ps", "-o", "json"))
    jsonschema.validate(doc, schema)
    assert "owner" not in doc


def test_diff_markdown_and_victims_fold_per_owner(cluster):
    text = run(200, *COMMANDS["diff"](cluster))
    victims = text.split("Victims evicted by one plan only")[1].split("\n\n")[0].splitlines()[3:]
    assert victims == ["ReplicaSet data-science-notebooks/notebook-servers-7d9f8c6b5d (12 pods)  A only"]
    md = run(80, *COMMANDS["diff"](cluster), "-o", "markdown")
    assert "| `ReplicaSet data-science-notebooks/notebook-servers-7d9f8c6b5d (12 pods)` | **Preempted** on 6 nodes " \
           "| _running, not evicted_ |" in md
    assert "| `Job research-infrastructure/urgent-eval` | Scheduled on `block-a0` | **Unschedulable** |" in md
    assert md.count("notebook-servers-7d9f8c6b5d (12 pods)") == 2  # pods that differ, victims
