"""The PodGroup cycle's shortcuts change no decision (hypothesis).

A committing cycle keeps the assumes its algorithm left (the default algorithm, or the placement
algorithm's only candidate) instead of rolling them back and assuming the proposal again
(`scheduling/cycle.py`, KEEP_ASSUMED). Generated gangs (several sizes and minCounts, with and
without a topology constraint, some unable to fit, running members, lower-priority running pods
to preempt, nominated nodes, Service spreading) are planned both ways, with the placement
algorithm on and off: the results must be the same document, byte for byte.
"""
from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings, strategies as st

from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import Node, Pod, PodGroup, SpreadSelector
from podgroup_plan.model.selectors import LabelSelector
from podgroup_plan.planner import plan
from podgroup_plan.scheduling import cycle

RACK = "topology.kubernetes.io/rack"


@st.composite
def gang_clusters(draw):
    nodes = []
    for r in range(draw(st.integers(1, 3))):
        for i in range(draw(st.integers(1, 3))):
            labels = {"kubernetes.io/hostname": f"n{r}-{i}", RACK: f"rack-{r}"}
            nodes.append(Node(name=f"n{r}-{i}", labels=labels,
                              allocatable={"cpu": draw(st.sampled_from([1000, 2000, 4000])),
                                           "memory": 8 << 30, "pods": draw(st.sampled_from([3, 110]))}))
    names = [n.name for n in nodes]
    pods, groups = [], []
    for k in range(draw(st.integers(0, 4))):  # running pods outside any group, some preemptible
        pods.append(_pod(f"run-{k}", draw(st.sampled_from([250, 500, 1000])), draw(st.sampled_from([0, 10])),
                         node=draw(st.sampled_from(names)), app=draw(st.sampled_from(["a", "b"]))))
    for g in range(draw(st.integers(1, 6))):
        size = draw(st.integers(1, 4))
        prio = draw(st.sampled_from([0, 0, 100]))
        groups.append(PodGroup(namespace="ns", name=f"g{g}", api_version="scheduling.k8s.io/v1beta1",
                               policy=draw(st.sampled_from(["Gang", "Gang", "Basic"])),
                               min_count=draw(st.integers(1, size)),
                               topology_key=draw(st.sampled_from([None, None, RACK])),
                               priority=prio, creation_timestamp=f"2026-01-01T00:00:{g:02d}Z"))
        cpu = draw(st.sampled_from([250, 500, 1000, 1500, None]))  # None: each member its own
        for j in range(size):
            running = draw(st.integers(0, 6)) == 0
            nominated = draw(st.sampled_from(names)) if not running and draw(st.integers(0, 8)) == 0 else None
            pods.append(_pod(f"g{g}-{j}", cpu if cpu is not None else draw(st.sampled_from([250, 500, 1000, 1500])),
                             prio, group=f"g{g}", node=draw(st.sampled_from(names)) if running else None,
                             nominated=nominated, app=draw(st.sampled_from(["a", "c"]))))
    for k in range(draw(st.integers(0, 3))):  # pending pods on their own, between the gangs
        pods.append(_pod(f"single-{k}", draw(st.sampled_from([250, 1000])), draw(st.sampled_from([0, 100])),
                         app=draw(st.sampled_from(["a", "c"]))))
    # a Service selecting app=a: system default spreading applies to the pods it selects
    services = (SpreadSelector("Service", "ns", "svc-a", LabelSelector((("app", "a"),))),) if draw(st.booleans()) else ()
    return ClusterInput(nodes=tuple(nodes), pods=tuple(pods), pod_groups=tuple(groups), spread_selectors=services)


def _pod(name, cpu, priority, group=None, node=None, nominated=None, app="x"):
    return Pod(namespace="ns", name=name, labels={"app": app}, pod_group=group, node_name=node,
               requests={"cpu": cpu, "memory": 1 << 30}, non_zero_cpu=cpu, non_zero_memory=1 << 30,
               priority=priority, phase="Running" if node else "Pending", nominated_node_name=nominated,
               start_time="2026-01-01T00:00:00Z" if node else None, creation_timestamp="2026-01-01T00:00:00Z")


SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _both_ways(cluster, gates=None) -> tuple[str, str]:
    before = cycle.KEEP_ASSUMED
    try:
        cycle.KEEP_ASSUMED = True
        kept = json.dumps(plan(cluster, feature_gates=gates).to_dict(), sort_keys=False)
        cycle.KEEP_ASSUMED = False
        again = json.dumps(plan(cluster, feature_gates=gates).to_dict(), sort_keys=False)
    finally:
        cycle.KEEP_ASSUMED = before
    return kept, again


@SETTINGS
@given(gang_clusters())
def test_keeping_the_cycles_assumes_changes_no_decision(cluster):
    kept, again = _both_ways(cluster)
    assert kept == again


@SETTINGS
@given(gang_clusters())
def test_keeping_the_default_algorithms_assumes_changes_no_decision(cluster):
    kept, again = _both_ways(cluster, {"TopologyAwareWorkloadScheduling": False})
    assert kept == again


def test_a_kept_cycle_leaves_the_state_as_the_long_way_does():
    """The state after a committing cycle: the same pods on the same nodes, whichever way."""
    from podgroup_plan.config.configuration import resolve_configuration
    from podgroup_plan.framework.interface import Handle
    from podgroup_plan.framework.runtime import Framework
    from podgroup_plan.plugins.registry import IMPLEMENTED
    from podgroup_plan.state.cluster import ClusterState

    nodes = [Node(name=f"n{i}", labels={"kubernetes.io/hostname": f"n{i}"},
                  allocatable={"cpu": 2000, "memory": 8 << 30, "pods": 110}) for i in range(4)]
    group = PodGroup(namespace="ns", name="g", api_version="scheduling.k8s.io/v1beta1", policy="Gang", min_count=3)
    members = [_pod(f"g-{j}", 1000, 0, group="g") for j in range(3)]
    placed = {}
    for keep in (True, False):
        config = resolve_configuration(None, None, None, None, "<config>")
        fwk = Framework(config.profiles["default-scheduler"], Handle((), {}, config.gates), IMPLEMENTED)
        state = ClusterState(nodes, (), {"cpu", "memory"})
        result = cycle.run_root_algorithm(fwk, group, members, state, commit=keep)
        assert result.status.is_success() and result.assumed == keep
        if not keep:
            assert all(state.node_of(p) is None for p in members)  # proposed, nothing committed
            for pod, node in result.assignments:
                state.assume(pod, node)
        placed[keep] = ({p.name: state.node_of(p) for p in members}, state.requested.tolist(),
                        state.pod_count.tolist(), state._log, state._open_checkpoints)
    assert placed[True] == placed[False]
    assert placed[True][3] == [] and placed[True][4] == 0  # nothing left open in the undo log
