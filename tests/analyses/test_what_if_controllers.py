"""What-if changes on running workloads whose controllers are in the input: every kind
`simulate` expands recreates the pods a failed node took, once (never a second copy made by the
change itself), and the operators that name pods by index give them their old names back.

Each case is a scenario folder's input made to run: expanded, planned, and every pod bound
where the plan put it (a cluster as `kubectl get` would show it an hour later). Then the node
of its first pod fails.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from podgroup_plan.analyses.what_if.changes import FAIL, NodeChange, apply_changes
from podgroup_plan.config.feature_gates import resolve_feature_gates
from podgroup_plan.controllers.expand import expand
from podgroup_plan.loading import load_input
from podgroup_plan.planner import plan

SCENARIOS = Path(__file__).resolve().parents[2] / "tests" / "scenarios"
T0 = "2026-05-01T10:00:00Z"


def running(case: str):
    """The case's input with every pod its controllers make bound where the plan puts them, on
    twice its nodes (so that displaced pods have somewhere to go)."""
    cluster = load_input([str(SCENARIOS / case / "manifests")])
    extra = tuple(replace(n, name=n.name + "-b", labels={**n.labels, "kubernetes.io/hostname": n.name + "-b"})
                  for n in cluster.nodes)
    cluster = replace(cluster, nodes=tuple(sorted(cluster.nodes + extra, key=lambda n: n.name)))
    expanded = expand(cluster, resolve_feature_gates(None))
    placed = {(p.namespace, p.name): p.node for p in plan(cluster).pods if p.status == "Scheduled"}
    pods = tuple(replace(p, node_name=placed[p.key], phase="Running", start_time=T0) if p.key in placed else p
                 for p in expanded.pods)
    assert any(p.node_name for p in pods), "the case must run somewhere"
    # the expanded objects (pods, PodGroups) are now the input's own; the controllers stay
    return replace(cluster, pods=pods, pod_groups=expanded.pod_groups, workloads=expanded.workloads,
                   composite_pod_groups=expanded.composite_pod_groups)


@pytest.mark.parametrize("case, same_names", [
    ("pytorchjob-gang", True),  # <job>-<type>-<index>: the operator makes the same name again
    ("tfjob-gang-in-one-rack", True),  # the same library as the PyTorchJob's
    ("leaderworkerset-gang", True),  # StatefulSet pods: <sts>-<ordinal>
    ("jobset-two-replicated-jobs", False),  # Job pods: a new random suffix
    ("trainjob-runtime-and-numnodes", False),
    ("deployment-scaled-up", False),
])
def test_a_failed_node_s_pods_come_back_once_by_their_controller(case, same_names):
    cluster = running(case)
    before = Counter((p.namespace, p.owner_references[0].kind if p.owner_references else None) for p in cluster.pods)
    victim = next(p for p in sorted(cluster.pods, key=lambda p: p.key) if p.node_name)
    applied = apply_changes(cluster, [NodeChange(FAIL, victim.node_name)])
    gone = [d for d in applied.displaced if d.pod.node_name == victim.node_name]
    assert gone and all(d.fate == "recreated" and d.replacement is None for d in gone), \
        "the controller in the input recreates them, not the change"
    result = plan(applied.cluster)  # its pods are the pending ones it planned
    still = [p for p in applied.cluster.pods if p.node_name]
    after = Counter([(p.namespace, p.owner_references[0].kind if p.owner_references else None) for p in still]
                    + [(p.namespace, p.owner.kind if p.owner else None) for p in result.pods])
    assert after == before  # as many pods per owner kind as ran before: none lost, none doubled
    names = {p.name for p in result.pods}
    if same_names:
        assert {d.pod.name for d in gone} <= names
    assert not any(p.node == victim.node_name for p in result.pods)
