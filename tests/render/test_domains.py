"""`podGroups[].domains`: every scheduled group's domains at every topology level the nodes carry
(podgroup_plan/domains.py), in JSON and under the group in the table and Markdown."""
import json

import pytest
from typer.testing import CliRunner

import realistic
from podgroup_plan.cli import app
from podgroup_plan.domains import domains, topology_levels

ZONE, REGION, RACK = "topology.kubernetes.io/zone", "topology.kubernetes.io/region", "topology.example.com/rack"


def test_levels_are_detected_from_the_nodes_coarse_to_fine():
    nodes = [{REGION: "r", ZONE: f"z{i % 2}", RACK: f"rack-{i}", "kubernetes.io/hostname": f"n{i}",
              "cloud.google.com/gce-topology-block": f"b{i % 3}", "node.kubernetes.io/instance-type": "a3"}
             for i in range(6)]
    assert topology_levels(nodes, []) == [REGION, ZONE, "cloud.google.com/gce-topology-block", RACK]
    # a key a group constrains to is a level even without "topology" in it
    with_pool = [dict(n, pool=f"p{i % 2}") for i, n in enumerate(nodes)]
    assert "pool" in topology_levels(with_pool, ["pool"]) and "pool" not in topology_levels(with_pool, [])
    assert domains([REGION, ZONE, RACK], [nodes[0], nodes[2], nodes[4]]) == [
        (REGION, ("r",)), (ZONE, ("z0",)), (RACK, ("rack-0", "rack-2", "rack-4"))]
    assert domains([ZONE, "pool"], [nodes[1]]) == [(ZONE, ("z1",))]  # a level the nodes lack is left out


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    return str(realistic.write(tmp_path_factory.mktemp("realistic")))


def test_a_scheduled_gang_names_its_domains_in_json_and_the_table(cluster):
    runner = CliRunner()
    doc = json.loads(runner.invoke(app, ["simulate", cluster, "-o", "json"]).stdout)
    placed = {g["name"].split("-")[0]: g for g in doc["podGroups"]}
    assert placed["urgent"]["status"] == "Scheduled"
    assert placed["urgent"]["domains"] == [
        {"key": REGION, "values": ["us-central1"]}, {"key": ZONE, "values": ["us-central1-a"]},
        {"key": "cloud.google.com/gce-topology-block", "values": ["block-a0"]}]
    assert placed["giant"]["domains"] == []  # nothing of it runs
    table = runner.invoke(app, ["simulate", cluster], env={"COLUMNS": "200"}).stdout
    assert "  domains: region us-central1 · zone us-central1-a · gce-topology-block block-a0\n" in table
    markdown = runner.invoke(app, ["simulate", cluster, "-o", "markdown"]).stdout
    assert "domains: region us-central1 · zone us-central1-a · gce-topology-block block-a0" in markdown


def test_an_unconstrained_gang_that_spans_zones_says_so(tmp_path):
    nodes = "".join(f"""---
apiVersion: v1
kind: Node
metadata: {{name: n{i}, labels: {{{ZONE}: z{i % 2}, {RACK}: r{i}}}}}
status: {{allocatable: {{cpu: "4", memory: 8Gi, pods: "10"}}}}
""" for i in range(4))
    job = """---
apiVersion: batch/v1
kind: Job
metadata: {name: wide, namespace: ml, uid: 11111111-2222-3333-4444-555555555555}
spec:
  parallelism: 4
  completions: 4
  completionMode: Indexed
  scheduling: {schedulingPolicy: {gang: {}}}
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: c, resources: {requests: {cpu: "3"}}}]
"""
    (tmp_path / "in.yaml").write_text(nodes + job)
    doc = json.loads(CliRunner().invoke(app, ["simulate", str(tmp_path / "in.yaml"), "-o", "json"]).stdout)
    (group,) = doc["podGroups"]
    assert group["status"] == "Scheduled" and group["topologyKey"] is None and group["placement"] is None
    assert group["domains"] == [{"key": ZONE, "values": ["z0", "z1"]}, {"key": RACK, "values": ["r0", "r1", "r2", "r3"]}]
