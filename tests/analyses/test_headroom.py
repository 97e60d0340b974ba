"""`headroom` (podgroup_plan/analyses/headroom) on hand-derived clusters.

Four 8-GPU nodes. A copy is a gang of two pods, 2 and 6 GPUs. Four copies fit (each node takes
one of each), but the scheduler, spreading by LeastAllocated, places the 2-GPU pod of copy 1 on
n1 and its 6-GPU pod on the emptiest node n2, copy 2 likewise on n3 and n4; copy 3's 2-GPU pod
goes to n1 (least allocated of those with room), its 6-GPU pod to n3 (6 free); copy 4's 2-GPU
pod finds n1 again and its 6-GPU pod no node with 6 free: greedy 3, exact 4.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from podgroup_plan.analyses.headroom.greedy import Template
from podgroup_plan.analyses.headroom.report import Question, headroom
from podgroup_plan.analyses.headroom.workload import check_template, copy_of, latest_timestamp
from podgroup_plan.cli import app
from podgroup_plan.loading import load_input
from podgroup_plan.planner import plan
from podgroup_plan.planner import Planner

ROOT = Path(__file__).resolve().parents[2]
ZONE = "topology.kubernetes.io/zone"
T0 = "2026-05-01T10:00:00Z"


def nodes(count: int, gpus: int = 8, zone: str = "z1", prefix: str = "n") -> list[str]:
    return [f"""apiVersion: v1
kind: Node
metadata: {{name: {prefix}{i}, labels: {{kubernetes.io/hostname: {prefix}{i}, {ZONE}: {zone}}}}}
status: {{allocatable: {{cpu: "32", memory: 64Gi, pods: "110", nvidia.com/gpu: "{gpus}"}}}}
""" for i in range(1, count + 1)]


def gang(name: str, gpus: list[int]) -> str:
    docs = [f"""apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {{name: {name}, namespace: ml, creationTimestamp: "{T0}"}}
spec:
  schedulingPolicy: {{gang: {{minCount: {len(gpus)}}}}}
"""]
    for i, g in enumerate(gpus):
        docs.append(f"""apiVersion: v1
kind: Pod
metadata: {{name: {name}-{chr(97 + i)}, namespace: ml, creationTimestamp: "{T0}"}}
spec:
  schedulingGroup: {{podGroupName: {name}}}
  containers:
  - name: c
    image: x
    resources: {{requests: {{cpu: "1", nvidia.com/gpu: "{g}"}}, limits: {{nvidia.com/gpu: "{g}"}}}}
""")
    return "---\n".join(docs)


def write(tmp_path: Path, name: str, docs: list[str]) -> str:
    path = tmp_path / name
    path.write_text("---\n".join(docs))
    return str(path)


def template(path: str) -> Template:
    work = load_input([path])
    return Template(work, *check_template(work, path))


def test_greedy_leaves_a_copy_on_the_table_and_exact_finds_it(tmp_path):
    cluster = load_input([write(tmp_path, "c.yaml", nodes(4))])
    pair = template(write(tmp_path, "w.yaml", [gang("pair", [2, 6])]))
    doc = headroom(Planner(cluster), Question((pair,), max_copies=10), exact=True)
    assert doc["fits"] == 3
    assert [c["nodes"] for c in doc["copies"]] == [["n1", "n2"], ["n3", "n4"], ["n1", "n3"]]
    assert doc["exact"]["fits"] == 4 and doc["exact"]["status"] == "OPTIMAL"
    assert doc["exact"]["upperBound"] is False and doc["exact"]["leftOnTheTable"] == 1
    # the next copy's failure is kube-scheduler's text
    assert doc["firstFailure"]["name"] == "pair-h4"
    assert "minCount (2) cannot be satisfied: 1 scheduled, 0 remaining" in doc["firstFailure"]["message"]


def test_greedy_equals_the_optimum_when_pods_fill_nodes(tmp_path):
    cluster = load_input([write(tmp_path, "c.yaml", nodes(4))])
    whole = template(write(tmp_path, "w.yaml", [gang("whole", [8, 8])]))
    doc = headroom(Planner(cluster), Question((whole,), max_copies=10), exact=True)
    assert doc["fits"] == doc["exact"]["fits"] == 2 and doc["exact"]["leftOnTheTable"] == 0


def test_the_exact_packing_is_one_the_planners_own_filters_accept(tmp_path):
    """Pin every pod of CP-SAT's packing to its node (a nodeSelector on the hostname) and plan:
    every copy must be scheduled where the packing put it."""
    cluster_file = write(tmp_path, "c.yaml", nodes(4))
    pair = template(write(tmp_path, "w.yaml", [gang("pair", [2, 6])]))
    doc = headroom(Planner(load_input([cluster_file])), Question((pair,), max_copies=10), exact=True)
    packing = doc["exact"]["packing"]
    assert len(packing) == 4
    docs = []
    for copy in packing:
        # a copy's 2- and 6-GPU pods on one node each: the packing names one node per copy here
        [node] = copy["nodes"]
        text = gang(f"pin{copy['copy']}", [2, 6]).replace(
            "  schedulingGroup:", f"  nodeSelector: {{kubernetes.io/hostname: {node}}}\n  schedulingGroup:")
        docs.append(text)
    pinned = write(tmp_path, "pinned.yaml", docs)
    result = plan(load_input([cluster_file, pinned]))
    assert {p.status for p in result.pods} == {"Scheduled"}


def test_copies_get_new_names_and_times_after_the_input(tmp_path):
    cluster = load_input([write(tmp_path, "c.yaml", nodes(1))])
    pair = template(write(tmp_path, "w.yaml", [gang("pair", [2, 6])]))
    after = latest_timestamp(cluster)
    c2 = copy_of(pair.work, 2, "2026-05-01T10:00:00Z")
    assert {p.name for p in c2.pods} == {"pair-a-h2", "pair-b-h2"}
    assert {p.pod_group for p in c2.pods} == {"pair-h2"} and c2.pod_groups[0].name == "pair-h2"
    assert {p.creation_timestamp for p in c2.pods} == {"2026-05-01T10:00:02Z"}
    assert after == "1970-01-01T00:00:00Z"  # the input has no timestamp at all


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(count=st.integers(1, 4), gpus=st.lists(st.sampled_from([1, 2, 4, 8]), min_size=1, max_size=3),
       running=st.integers(0, 3))
def test_greedy_count_equals_simulate_with_that_many_copies(tmp_path_factory, count, gpus, running):
    """headroom says k: the input with k copies added is planned with every copy scheduled, and
    with k + 1 the last one is not."""
    tmp = tmp_path_factory.mktemp("h")
    busy = [f"""apiVersion: v1
kind: Pod
metadata: {{name: busy-{i}, namespace: ml}}
spec:
  nodeName: n{i + 1}
  containers: [{{name: c, image: x, resources: {{requests: {{nvidia.com/gpu: "4"}}, limits: {{nvidia.com/gpu: "4"}}}}}}]
status: {{phase: Running}}
""" for i in range(min(running, count))]
    cluster_file = write(tmp, "c.yaml", nodes(count) + busy)
    work_file = write(tmp, "w.yaml", [gang("job", gpus)])
    cluster = load_input([cluster_file])
    tpl = template(work_file)
    k = headroom(Planner(cluster), Question((tpl,), max_copies=12))["fits"]
    after = latest_timestamp(cluster)

    def copies(n: int) -> list:
        out = []
        for i in range(1, n + 1):
            c = copy_of(tpl.work, i, after)
            out += list(c.pods)
            out += list(c.pod_groups)
        return out

    from dataclasses import replace

    for n, all_fit in ((k, True), (k + 1, False)):
        if n > 12:
            continue
        extra = copies(n)
        pods = tuple(sorted(cluster.pods + tuple(o for o in extra if hasattr(o, "requests")), key=lambda p: p.key))
        groups = tuple(sorted(cluster.pod_groups + tuple(o for o in extra if not hasattr(o, "requests")),
                              key=lambda g: g.key))
        result = plan(replace(cluster, pods=pods, pod_groups=groups))
        mine = [p for p in result.pods if p.name.startswith("job-")]
        assert len(mine) == n * len(gpus)
        assert all(p.status == "Scheduled" for p in mine) is all_fit


def run(*args: str):
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


def test_cli_json_meets_the_schema_and_add_node_target_grows_the_cluster(tmp_path):
    import jsonschema

    cluster = write(tmp_path, "c.yaml", nodes(4))
    work = write(tmp_path, "w.yaml", [gang("pair", [2, 6])])
    shape = write(tmp_path, "shape.yaml", nodes(1, zone="z2", prefix="new"))
    got = run("headroom", cluster, "--workload", work, "--add-node", shape, "--target", "6", "-o", "json")
    assert got.exit_code == 0, got.output
    doc = json.loads(got.stdout)
    schema = json.loads((ROOT / "schemas" / "Headroom.json").read_text())
    assert not list(jsonschema.Draft202012Validator(schema).iter_errors(doc))
    assert doc["fits"] >= 6 and doc["grow"]["nodes"] >= 2
    assert doc["grow"]["before"] == 3  # the greedy count on the four nodes (module docstring)
    assert doc["grow"]["added"] == [f"new1-{i}" for i in range(1, doc["grow"]["nodes"] + 1)]
    # one node fewer would not do: planned again with grow.nodes - 1 extra nodes
    fewer = write(tmp_path, "fewer.yaml", nodes(doc["grow"]["nodes"] - 1, zone="z2", prefix="new"))
    again = json.loads(run("headroom", cluster, fewer, "--workload", work, "--max", "6", "-o", "json").stdout)
    assert again["fits"] < 6


def test_cli_bad_workload_files_and_usage(tmp_path):
    cluster = write(tmp_path, "c.yaml", nodes(2))
    two = write(tmp_path, "two.yaml", [gang("a", [1]), gang("b", [1])])
    got = run("headroom", cluster, "--workload", two)
    assert got.exit_code == 2 and "a --workload file holds one workload; this is another" in got.output
    assert f"{two}:" in got.output  # file:line
    empty = write(tmp_path, "nodes.yaml", nodes(1))
    assert run("headroom", cluster, "--workload", empty).exit_code == 2
    assert run("headroom", cluster, "--workload", two, "--target", "3").exit_code == 2
    table = run("headroom", cluster, "--workload", write(tmp_path, "w.yaml", [gang("w", [8])]))
    assert table.exit_code == 0 and table.stdout.startswith("2 more copies of PodGroup ml/w fit.")


@pytest.mark.parametrize("fmt", ["table", "markdown"])
def test_cli_renders_the_exact_answer(tmp_path, fmt):
    cluster = write(tmp_path, "c.yaml", nodes(4))
    work = write(tmp_path, "w.yaml", [gang("pair", [2, 6])])
    got = run("headroom", cluster, "--workload", work, "--exact", "-o", fmt)
    assert got.exit_code == 0, got.output
    assert "The scheduler's order leaves 1 copy on the table." in got.stdout
