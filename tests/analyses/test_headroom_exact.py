"""`headroom --exact` (CP-SAT) against the planner's own filters.

When CP-SAT says its answer is exact (no filter left unmodelled), every copy of its packing is
placeable: pinning each pod to the node the packing names (a nodeSelector on the hostname) and
planning the input with those copies schedules every one of them. And no order can beat an
optimum: the greedy count never exceeds it. A filter the model cannot express is named and
makes the answer an upper bound.
"""
from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from podgroup_plan.analyses.headroom.greedy import Template
from podgroup_plan.analyses.headroom.report import Question, headroom
from podgroup_plan.analyses.headroom.workload import check_template
from podgroup_plan.loading import load_input
from podgroup_plan.planner import plan
from podgroup_plan.planner import Planner

RACK = "topology.example.com/rack"
T0 = "2026-05-01T10:00:00Z"


def node(i: int, gpus: int, rack: str) -> str:
    return f"""apiVersion: v1
kind: Node
metadata: {{name: n{i}, labels: {{kubernetes.io/hostname: n{i}, {RACK}: {rack}}}}}
status: {{allocatable: {{cpu: "16", memory: 64Gi, pods: "110", nvidia.com/gpu: "{gpus}"}}}}
"""


def busy(i: int, gpus: int) -> str:
    return f"""apiVersion: v1
kind: Pod
metadata: {{name: busy-{i}, namespace: ml, uid: u{i}, creationTimestamp: "{T0}"}}
spec:
  nodeName: n{i}
  containers: [{{name: c, image: x, resources: {{requests: {{nvidia.com/gpu: "{gpus}"}}, limits: {{nvidia.com/gpu: "{gpus}"}}}}}}]
status: {{phase: Running, startTime: "{T0}"}}
"""


def gang(name: str, gpus: list[int], rack: bool, spread: bool, pins: list[str] | None = None,
         extra: str = "") -> list[str]:
    """A gang of pods with these GPU counts; `rack`: all in one rack; `spread`: one pod of the
    kind per node (required anti-affinity on the hostname); `pins`: each pod's node."""
    constraint = f"\n  schedulingConstraints: {{topology: [{{key: {RACK}}}]}}" if rack else ""
    docs = [f"""apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {{name: {name}, namespace: ml, creationTimestamp: "{T0}"}}
spec:
  schedulingPolicy: {{gang: {{minCount: {len(gpus)}}}}}{constraint}
"""]
    for j, g in enumerate(gpus):
        lines = [f"  schedulingGroup: {{podGroupName: {name}}}"]
        if pins:
            lines.append(f"  nodeSelector: {{kubernetes.io/hostname: {pins[j]}}}")
        if spread:
            lines.append("  affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
                         "[{labelSelector: {matchLabels: {app: spread}}, topologyKey: kubernetes.io/hostname}]}}")
        labels = "{app: spread}" if spread else "{}"
        docs.append(f"""apiVersion: v1
kind: Pod
metadata: {{name: {name}-{j}, namespace: ml, labels: {labels}, creationTimestamp: "{T0}"}}
spec:
{chr(10).join(lines)}{extra}
  containers:
  - name: c
    image: x
    resources: {{requests: {{cpu: "1", nvidia.com/gpu: "{g}"}}, limits: {{nvidia.com/gpu: "{g}"}}}}
""")
    return docs


def write(folder: Path, name: str, docs: list[str]) -> str:
    path = folder / name
    path.write_text("---\n".join(docs))
    return str(path)


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(node_gpus=st.lists(st.sampled_from([2, 4, 8]), min_size=2, max_size=6),
       racks=st.lists(st.sampled_from(["r1", "r2"]), min_size=6, max_size=6),
       used=st.lists(st.sampled_from([0, 0, 1, 2]), min_size=6, max_size=6),
       pods=st.lists(st.sampled_from([1, 2, 4, 6]), min_size=1, max_size=3),
       rack=st.booleans(), spread=st.booleans())
def test_an_exact_packing_is_one_the_planner_schedules(tmp_path_factory, node_gpus, racks, used, pods, rack, spread):
    tmp = tmp_path_factory.mktemp("exact")
    cluster_docs = [node(i, g, racks[i]) for i, g in enumerate(node_gpus)]
    cluster_docs += [busy(i, min(used[i], g)) for i, g in enumerate(node_gpus) if used[i]]
    cluster_file = write(tmp, "c.yaml", cluster_docs)
    work_file = write(tmp, "w.yaml", gang("job", pods, rack, spread))
    work = load_input([work_file])
    tpl = Template(work, *check_template(work, work_file))
    doc = headroom(Planner(load_input([cluster_file])), Question((tpl,), max_copies=6), exact=True, time_limit=10)
    exact = doc["exact"]
    assert exact["status"] == "OPTIMAL" and exact["upperBound"] is False, exact
    assert doc["fits"] <= exact["fits"]  # no order beats an optimum
    assert len(exact["packing"]) == exact["fits"]
    if not exact["fits"]:
        return
    # each copy of the packing pinned where it says, pod by pod (a shape is a GPU count here)
    by_gpus: dict[int, list[int]] = {}
    for j, g in enumerate(pods):
        by_gpus.setdefault(g, []).append(j)
    pinned = []
    for copy in exact["packing"]:
        nodes: list[str] = [""] * len(pods)
        free = {g: list(js) for g, js in by_gpus.items()}
        for pod in copy["pods"]:
            g = exact["shapes"][pod["shape"]]["requests"]["nvidia.com/gpu"]
            nodes[free[g].pop()] = pod["node"]
        pinned += gang(f"pin{copy['copy']}", pods, rack, spread, pins=nodes)
    result = plan(load_input([cluster_file, write(tmp, "pinned.yaml", pinned)]))
    assert {(p.name, p.status) for p in result.pods} == {(p.name, "Scheduled") for p in result.pods}


def test_a_filter_the_model_cannot_express_makes_an_upper_bound(tmp_path):
    """Required pod affinity is not modelled: CP-SAT's answer is then an upper bound, said so."""
    cluster = write(tmp_path, "c.yaml", [node(i, 8, "r1") for i in range(2)])
    affinity = ("\n  affinity: {podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
                "[{labelSelector: {matchLabels: {app: db}}, topologyKey: kubernetes.io/hostname}]}}")
    work_file = write(tmp_path, "w.yaml", gang("job", [4], False, False, extra=affinity))
    work = load_input([work_file])
    doc = headroom(Planner(load_input([cluster])), Question((Template(work, *check_template(work, work_file)),),
                                                            max_copies=5), exact=True)
    assert doc["exact"]["upperBound"] is True
    assert doc["exact"]["notModelled"] == ["required pod affinity"]
    assert doc["fits"] == 0 and doc["exact"]["fits"] == 4  # no pod labelled app=db runs: none fits
