"""`replay --trace alibaba-gpu NODES.csv PODS.csv` on files written here in the openb layout."""
from __future__ import annotations

import json

from typer.testing import CliRunner

from podgroup_plan.cli import app
from podgroup_plan.loading.alibaba_trace import GPU, read_trace

NODES = "sn,cpu_milli,memory_mib,gpu,model\nopenb-node-0000,96000,393216,8,G2\nopenb-node-0001,32000,131072,4,V100M16\n"
HEADER = "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n"


def files(tmp_path, pods: str, nodes: str = NODES):
    n, p = tmp_path / "nodes.csv", tmp_path / "pods.csv"
    n.write_text(nodes)
    p.write_text(HEADER + pods)
    return n, p


def test_rows_become_nodes_and_pods(tmp_path):
    n, p = files(tmp_path, "openb-pod-0001,4000,15258,1,220,nan,BE,Running,100,400,110\n"
                           "openb-pod-0002,16000,32768,2,1000,V100M16|V100M32,LS,Running,50,80,60\n")
    cluster, timing = read_trace(str(n), str(p))
    assert [node.allocatable[GPU] for node in cluster.nodes] == [8, 4]
    share, pair = cluster.pods
    assert share.requests[GPU] == 1  # 220 milli-GPU takes a whole GPU
    assert pair.affinity.node_required.terms[0].match_expressions[0].values == ("V100M16", "V100M32")
    assert timing[("Pod", "default", "openb-pod-0001")].duration == 290  # deletion - scheduled
    assert timing[("Pod", "default", "openb-pod-0001")].arrival == 100


def test_the_trace_replays(tmp_path):
    # two 8-GPU pods on the one 8-GPU node: the second waits for the first
    n, p = files(tmp_path, "a,1000,1024,8,1000,nan,LS,Succeeded,0,100,0\n"
                           "b,1000,1024,8,1000,G2,LS,Succeeded,10,60,10\n")
    result = CliRunner().invoke(app, ["replay", "--trace", "alibaba-gpu", str(n), str(p), "-o", "json"])
    assert result.exit_code == 0, result.output
    w = {x["name"]: x for x in json.loads(result.output)["workloads"]}
    assert (w["b"]["start"], w["b"]["end"], w["b"]["nodes"]) == ("1970-01-01T00:01:40Z", "1970-01-01T00:02:30Z",
                                                                  ["openb-node-0000"])


def test_bad_rows_every_problem_at_once(tmp_path):
    n, p = files(tmp_path, "a,1000,1024,eight,1000,nan,LS,Succeeded,0,100,0\n"
                           "b,1000,1024\n"
                           "c,1000,1024,1,1000,nan,LS,Succeeded,50,10,50\n",
                 nodes="sn,cpu_milli,memory_mib,gpu,model\nx,-1,1,1,G2\n")
    result = CliRunner().invoke(app, ["replay", "--trace", "alibaba-gpu", str(n), str(p)])
    assert result.exit_code == 2
    out = result.output
    assert f"{p}:2: column num_gpu: 'eight' is not a number of 0 or more" in out
    assert f"{p}:3: 3 columns, the header has 11" in out
    assert f"{p}:4: deletion_time 10 is before scheduled_time 50" in out
    assert f"{n}:2: column cpu_milli: '-1' is not a number of 0 or more" in out


def test_trace_wants_two_files(tmp_path):
    n, _ = files(tmp_path, "")
    result = CliRunner().invoke(app, ["replay", "--trace", "alibaba-gpu", str(n)])
    assert result.exit_code == 2 and "NODES.csv PODS.csv" in result.output
