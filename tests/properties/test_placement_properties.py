"""Topology-aware placement over generated clusters (hypothesis).

* with a topology constraint, every scheduled member of a group (running ones included) shares
  one value of the key's node label;
* the kept placement trials (scheduling/placement_cache.py) change no decision: the plan with
  them and without them is the same document, byte for byte.
"""
from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings, strategies as st

from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import Node, Pod, PodGroup
from podgroup_plan.planner import plan
from podgroup_plan.scheduling import placement_cache

RACK = "topology.kubernetes.io/rack"
ZONE = "topology.kubernetes.io/zone"


@st.composite
def clusters(draw):
    n_racks = draw(st.integers(1, 5))
    nodes = []
    for r in range(n_racks):
        for i in range(draw(st.integers(1, 3))):
            labels = {"kubernetes.io/hostname": f"n{r}-{i}", ZONE: f"z{r // 2}"}
            if draw(st.integers(0, 6)):  # now and then a node without the rack label
                labels[RACK] = f"rack-{r}"
            nodes.append(Node(name=f"n{r}-{i}", labels=labels,
                              allocatable={"cpu": draw(st.sampled_from([1000, 2000, 4000])), "memory": 8 << 30, "pods": 110}))
    pods, groups = [], []
    for k in range(draw(st.integers(0, 3))):  # running pods outside any group
        pods.append(_pod(draw, f"web-{k}", node_name=draw(st.sampled_from([n.name for n in nodes]))))
    for g in range(draw(st.integers(1, 6))):
        size = draw(st.integers(1, 4))
        key = draw(st.sampled_from([RACK, RACK, ZONE, None]))
        groups.append(PodGroup(namespace="ns", name=f"g{g}", api_version="scheduling.k8s.io/v1beta1",
                               policy="Gang", min_count=draw(st.integers(1, size)), topology_key=key,
                               creation_timestamp=f"2026-01-01T00:00:{g:02d}Z"))
        same_shape = draw(st.booleans())  # gangs of one shape are what the kept trials serve
        cpu = 500 if same_shape else None
        for j in range(size):
            running = draw(st.integers(0, 5)) == 0
            pods.append(_pod(draw, f"g{g}-{j}", group=f"g{g}", cpu=cpu,
                             node_name=draw(st.sampled_from([n.name for n in nodes])) if running else None))
    return ClusterInput(nodes=tuple(nodes), pods=tuple(pods), pod_groups=tuple(groups))


def _pod(draw, name, group=None, node_name=None, cpu=None):
    if cpu is None:
        cpu = draw(st.sampled_from([250, 500, 1000, 1500]))
    return Pod(namespace="ns", name=name, pod_group=group, node_name=node_name, requests={"cpu": cpu, "memory": 1 << 30},
               non_zero_cpu=cpu, non_zero_memory=1 << 30, priority=0, phase="Running" if node_name else "Pending")


SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(clusters())
def test_scheduled_members_of_a_constrained_group_share_one_domain(cluster):
    result = plan(cluster)
    labels = {n.name: n.labels for n in cluster.nodes}
    node_of = {(p.namespace, p.name): p.node for p in result.pods if p.status == "Scheduled"}
    for p in cluster.pods:
        if p.node_name:
            node_of.setdefault((p.namespace, p.name), p.node_name)
    for g in cluster.pod_groups:
        if not g.topology_key:
            continue
        placed_by_plan = [p for p in result.pods if p.pod_group == g.name and p.status == "Scheduled"]
        if not placed_by_plan:
            continue  # the plan placed nothing: running members are the input's business
        members = [node_of[(p.namespace, p.name)] for p in cluster.pods
                   if p.pod_group == g.name and (p.namespace, p.name) in node_of]
        domains = {labels[n].get(g.topology_key) for n in members}
        assert len(domains) == 1 and None not in domains, (g.name, members, domains)


@SETTINGS
@given(clusters())
def test_kept_trials_change_no_decision(cluster):
    before = placement_cache.ENABLED
    try:
        placement_cache.ENABLED = True
        kept = json.dumps(plan(cluster).to_dict(), sort_keys=False)
        placement_cache.ENABLED = False
        every = json.dumps(plan(cluster).to_dict(), sort_keys=False)
    finally:
        placement_cache.ENABLED = before
    assert kept == every
