"""The result's `capacity` section (podgroup_plan/capacity.py): free GPUs and N-GPU slots per zone
and rack, before and after the plan, checked against a count made from the pods themselves."""
from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from podgroup_plan.capacity import SLOT_SIZES, topology_keys
from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import PodGroup
from podgroup_plan.planner import plan
from tests.builders import make_node, make_pod

GPU = "nvidia.com/gpu"
ZONE = "topology.kubernetes.io/zone"
RACK = "example.com/rack"


def _node(i: int, gpus: int, zone: str | None, rack: str | None):
    labels = {k: v for k, v in ((ZONE, zone), (RACK, rack)) if v}
    alloc = {GPU: gpus} if gpus else {}
    return make_node(f"n{i}", cpu="64", memory="256Gi", pods=110, allocatable=alloc, labels=labels)


def _expected(nodes, pods_by_node, zone_of, rack_of):
    """{(zone, rack) or zone or None: (free, histogram, slots)} counted node by node."""
    out: dict = {}
    for node in nodes:
        alloc = node.allocatable.get(GPU, 0)
        if not alloc:
            continue
        used = sum(p.requests.get(GPU, 0) for p in pods_by_node.get(node.name, []))
        free = max(alloc - used, 0)
        for key in (None, ("zone", zone_of(node)), ("rack", zone_of(node), rack_of(node))):
            free_total, hist = out.setdefault(key, [0, Counter()])
            out[key][0] = free_total + free
            hist[free] += 1
    return out


def _check(section: dict, expected: dict, when: str):
    def figures(domain):
        f = domain[when]
        return f["free"], {h["free"]: h["nodes"] for h in f["histogram"]}, \
            [(s["size"], s["count"]) for s in f["slots"]]

    def want(key):
        if key not in expected:
            return 0, {}, [(s, 0) for s in SLOT_SIZES]
        free, hist = expected[key]
        return free, dict(hist), [(s, sum(k // s * n for k, n in hist.items())) for s in SLOT_SIZES]

    assert figures(section["cluster"]) == want(None)
    for z in section["zones"]:
        assert figures(z) == want(("zone", z["name"])), z["name"]
    for r in section["racks"]:
        assert figures(r) == want(("rack", r["zone"], r["name"])), (r["zone"], r["name"])


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_capacity_equals_a_count_over_the_pods(data):
    n = data.draw(st.integers(1, 8), label="nodes")
    nodes = []
    for i in range(n):
        nodes.append(_node(i, data.draw(st.sampled_from([0, 1, 4, 8])),
                           data.draw(st.sampled_from(["z1", "z2", None])),
                           data.draw(st.sampled_from(["r1", "r2", None]))))
    running, pending = [], []
    for j in range(data.draw(st.integers(0, 6), label="running")):
        node = data.draw(st.sampled_from(nodes))
        running.append(make_pod(f"run-{j}", requests={GPU: data.draw(st.integers(0, 3)), "cpu": "1"},
                                node_name=node.name, priority=data.draw(st.sampled_from([0, 100]))))
    for j in range(data.draw(st.integers(0, 6), label="pending")):
        pending.append(make_pod(f"new-{j}", requests={GPU: data.draw(st.integers(1, 8)), "cpu": "1"},
                                priority=data.draw(st.sampled_from([0, 1000]))))
    group = PodGroup(namespace="default", name="g", api_version="scheduling.k8s.io/v1beta1", policy="Basic",
                     topology_key=RACK)
    result = plan(ClusterInput(nodes=tuple(nodes), pods=tuple(running + pending), pod_groups=(group,)))
    section = result.to_dict()["capacity"]
    assert section["resource"] == (GPU if any(nd.allocatable.get(GPU) for nd in nodes) else None)
    assert section["zoneKey"] == (ZONE if any(ZONE in nd.labels for nd in nodes) else None)

    zone_of = (lambda nd: nd.labels.get(section["zoneKey"])) if section["zoneKey"] else (lambda nd: None)
    rack_of = (lambda nd: nd.labels.get(section["rackKey"])) if section["rackKey"] else (lambda nd: None)
    before: dict = {}
    for p in running:
        before.setdefault(p.node_name, []).append(p)
    _check(section, _expected(nodes, before, zone_of, rack_of), "before")

    placed = {(p.namespace, p.name): p.node for p in result.pods if p.status == "Scheduled"}
    evicted = {(v.namespace, v.name) for v in result.victims}
    after: dict = {}
    for p in running + pending:
        node = placed.get(p.key) if p.node_name is None else (None if p.key in evicted else p.node_name)
        if node:
            after.setdefault(node, []).append(p)
    _check(section, _expected(nodes, after, zone_of, rack_of), "after")
    # every node in exactly one zone, and (with a rack key) in exactly one rack
    assert sum(z["nodes"] for z in section["zones"]) == n
    if section["rackKey"]:
        assert sum(r["nodes"] for r in section["racks"]) == n
    else:
        assert section["racks"] == []


def test_zone_and_rack_keys_come_from_the_labels_the_input_uses():
    labels = [{ZONE: "a", RACK: "r1", "block": "b1"}, {ZONE: "a", RACK: "r2", "block": "b1"}]
    assert topology_keys(labels, [RACK, "block", None]) == (ZONE, RACK)  # finest key is the rack
    assert topology_keys(labels, []) == (ZONE, None)
    no_zone = [{RACK: "r1", "block": "b1"}, {RACK: "r2", "block": "b1"}]
    assert topology_keys(no_zone, [RACK, "block"]) == ("block", RACK)  # coarsest stands in for zones
    assert topology_keys(no_zone, ["missing"]) == (None, None)


def test_fragmentation_of_the_demo_after_the_plan(tmp_path):
    from podgroup_plan.loading import load_input

    result = plan(load_input(["fixtures/cluster", "fixtures/workloads"]))
    cap = result.to_dict()["capacity"]
    assert (cap["zoneKey"], cap["rackKey"]) == (ZONE, "topology.example.com/rack")
    assert [r["name"] for r in cap["racks"]][:2] == ["z1-r1", "z1-r2"]
    assert cap["cluster"]["gpuNodes"] == 64 and cap["cluster"]["allocatable"] == 512
    # eight free GPUs give an 8-GPU slot; a node with 7 free gives none
    for domain in [cap["cluster"], *cap["zones"], *cap["racks"]]:
        for when in ("before", "after"):
            hist = {h["free"]: h["nodes"] for h in domain[when]["histogram"]}
            assert dict((s["size"], s["count"]) for s in domain[when]["slots"]) == \
                {s: sum(k // s * n for k, n in hist.items()) for s in SLOT_SIZES}
            assert domain[when]["free"] == sum(k * n for k, n in hist.items())
