"""Kept placement trials, refreshed like the node signature cache (framework/node_cache.py).

The kept trials themselves (`PlacementCache`, one per framework) are
`framework/placement_cache.py`'s; this module says when they apply and what keys them.

A rack-constrained gang in a 500-rack cluster has 500 candidate placements, and each trial runs
every pod of the gang through Filter and Score. Between two consecutive gangs of the same shape
almost every candidate is unchanged: a trial's outcome depends on the queued pods (their
scheduling signatures, in order), the group's scheduled count and minCount, and the rows of the
candidate's own nodes, *provided* nothing outside the candidate takes part. So, per (framework,
pod signatures, scheduled count, minCount, candidate list), this module keeps for every candidate
the version of the cluster state its trial saw, and the trial's verdict: feasible or not, how
many pods it placed, its own status text, and the raw PlacementScore
of each plugin. A candidate whose nodes changed since (`node_version` past the kept version) is
evaluated again; the others are read from the arrays.

When a kept verdict is exact (`applies`):
* every Filter and Score plugin of the profile is node-local (`Plugin.node_local`), or
  answers Skip at PreFilter and PreScore for each queued pod: PodTopologySpread without
  constraints, InterPodAffinity with no term of the pod nor of any placed pod that could apply;
  these are asked again at every cycle, because placed pods elsewhere change their answer;
* no pod of the group carries a nominated node, and the framework holds no nominations (a
  nomination changes Filter on its node without changing the node's row), and no `explain`
  tracer is attached (it records every trial's pod cycles);
* every candidate is small enough that percentageOfNodesToScore filters all its nodes (so no
  rotating start index takes part).
Anything else runs every trial, as `schedule_placements` always can. `ENABLED = False` turns the
cache off; a property test plans with and without it and compares the results byte for byte.
"""
from __future__ import annotations

from typing import Sequence

from podgroup_plan.framework.interface import CycleState, Placement, PreFilterPlugin, PreScorePlugin
from podgroup_plan.framework.runtime import Framework
from podgroup_plan.model.objects import Pod
from podgroup_plan.scheduling.schedule_one import num_feasible_nodes_to_find
from podgroup_plan.state.cluster import ClusterState

ENABLED = True


def key_for(fwk: Framework, queued: Sequence[Pod], scheduled: int, min_count: int,
            placements: list[Placement]) -> tuple:
    """What keys a kept trial; only asked when `applies` (so every queued pod is signed)."""
    return (tuple(fwk.pod_signature(p) for p in queued), scheduled, min_count, id(placements))


def applies(fwk: Framework, queued, state: ClusterState, placements: list[Placement]) -> bool:
    """Whether a kept trial is exactly what running it again would give (module docstring)."""
    if not ENABLED or not placements:
        return False
    if fwk.nominator or fwk.observer is not None:
        return False  # nominations change Filter without changing rows; `explain` traces every trial
    if any(p.nominated_node_name for p in queued):
        return False
    if any(fwk.pod_signature(p) is None for p in queued):
        return False  # a plugin cannot sign the pod: nothing is kept for it
    pct = fwk.profile.percentage_of_nodes_to_score
    if pct is not None and any(num_feasible_nodes_to_find(pct, len(p.nodes)) < len(p.nodes) for p in placements):
        return False
    return _node_local(fwk, queued, state)


def _node_local(fwk: Framework, queued, state: ClusterState) -> bool:
    filters = [p for p in fwk.filter if not p.node_local]
    scorers = [p for p, _ in fwk.score if not p.node_local]
    if not filters and not scorers:
        return True
    # every pod is asked: spreading and affinity read fields the signature leaves out (labels,
    # constraints), and the answers are cheap when they are Skip
    for pod in queued:
        for plugin in filters:
            if not isinstance(plugin, PreFilterPlugin):
                return False
            if not plugin.pre_filter(CycleState(), pod, state, state.all_nodes).status.is_skip():
                return False
        for scorer in scorers:
            if not isinstance(scorer, PreScorePlugin):
                return False
            if not scorer.pre_score(CycleState(), pod, state, state.all_nodes).is_skip():
                return False
    return True
