"""NodeResourcesBalancedAllocation: favour nodes whose resource use becomes more balanced.

Mirrors `pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go` in its 1.36+
form (kubernetes/kubernetes PR #135573, merged Dec 2025, "Update scoring function for balanced
allocation to consider change to the node's balance"):

* PreScore: the pod's actual requests for the configured resources (default cpu, memory);
  all zero (a best-effort pod) returns `Skip` (issue #129138: otherwise such pods pile up on
  one node).
* Score: with `balance(requested, allocatable)` = `int64((1 - std) * MaxNodeScore)`, where the
  fractions `min(requested/allocatable, 1)` are taken over resources with allocatable > 0,
  std = |f1 - f2| / 2 for two fractions, the population standard deviation for more, 0 for
  fewer,

      score = MaxNodeScore/2 + (MaxNodeScore/2 + balance(with pod) - balance(without pod)) / 2

  in int64 arithmetic: 75 when the pod does not change the balance, 50 when it takes a
  perfectly balanced node to perfectly unbalanced, 100 for the reverse.
* Amounts (resource_allocation.go, useRequested=true): actual requests, not the non-zero
  defaults; ephemeral-storage and scalars as in NodeResourcesFit; a scalar resource the pod
  does not request is skipped; so is a resource the node has no allocatable of.
* No NormalizeScore.

Verification note: the newest `balanced_allocation.go` itself was not retrievable from the
stored sources (the stored copies predate the PR). The formula above is confirmed by three
independent restatements of the merged code: the upstream package guide
`pkg/scheduler/framework/plugins/noderesources/AGENTS.md` (§5.5, commit 2d6c8a34), the PR
description (no change 75, balanced->unbalanced 50, unbalanced->balanced 100) and a March 2026
source walkthrough quoting `balancedResourceScorer(requested, allocated, allocatable)` as
`MaxNodeScore/2 + (MaxNodeScore/2+scoreWithPod-scoreWithoutPod)/2`. The two balance scores are
int64 (the expression mixes them with the int64 constant MaxNodeScore), so truncation happens
per balance score before the difference, as here. The float steps (fractions, sums in
resource order, sqrt) follow the pre-PR `balancedResourceScorer`, which the PR reuses.
"""
from __future__ import annotations

import numpy as np

from podgroup_plan.framework.args import NodeResourcesBalancedAllocationArgs
from podgroup_plan.framework.interface import MAX_NODE_SCORE, CycleState, PreScorePlugin, ScorePlugin
from podgroup_plan.framework.status import SUCCESS, Status, skip
from podgroup_plan.model.objects import Pod
from podgroup_plan.plugins.node_resources_fit import go_div, node_score_amounts, pod_score_requests


def balance_score(requested: np.ndarray, allocatable: np.ndarray) -> np.ndarray:
    """The pre-PR balancedResourceScorer over nodes: (resources x nodes) -> int64 per node.

    Floating point follows Go's order of operations: fractions in resource order, the mean from
    their running sum, the sum of squared deviations in resource order, then sqrt."""
    valid = allocatable > 0
    k = requested.shape[0]
    safe = np.where(valid, allocatable, 1).astype(np.float64)
    frac = np.minimum(requested.astype(np.float64) / safe, 1.0)
    frac = np.where(valid, frac, 0.0)
    count = valid.sum(axis=0)

    total = np.zeros(requested.shape[1], dtype=np.float64)
    for i in range(k):
        total = total + frac[i]  # adding the 0.0 of skipped resources changes nothing
    mean = total / np.maximum(count, 1)
    squares = np.zeros_like(total)
    for i in range(k):
        squares = squares + np.where(valid[i], (frac[i] - mean) * (frac[i] - mean), 0.0)
    std_many = np.sqrt(squares / np.maximum(count, 1))

    # Exactly two fractions: |f_first - f_second| / 2, the first and second present ones.
    first = np.zeros_like(total)
    second = np.zeros_like(total)
    seen = np.zeros(requested.shape[1], dtype=np.int64)
    for i in range(k):
        first = np.where(valid[i] & (seen == 0), frac[i], first)
        second = np.where(valid[i] & (seen == 1), frac[i], second)
        seen = seen + valid[i]
    std_two = np.abs((first - second) / 2)

    std = np.where(count == 2, std_two, np.where(count > 2, std_many, 0.0))
    return ((1 - std) * float(MAX_NODE_SCORE)).astype(np.int64)


class NodeResourcesBalancedAllocation(PreScorePlugin, ScorePlugin):
    """Upstream NodeResourcesBalancedAllocation (PreScore, Score)."""

    name = "NodeResourcesBalancedAllocation"

    def __init__(self, args: NodeResourcesBalancedAllocationArgs | None = None, handle=None):
        super().__init__(args if args is not None else NodeResourcesBalancedAllocationArgs(), handle)
        self._resources = tuple(self.args.resources)

    def pre_score(self, cs: CycleState, pod: Pod, state, feasible: np.ndarray) -> Status:
        pod_req = pod_score_requests(pod, self._resources, use_requested=True)
        if not pod_req.any():
            return skip(self.name)
        cs["PreScore" + self.name] = pod_req
        return SUCCESS

    def score(self, cs: CycleState, pod: Pod, state, feasible: np.ndarray) -> np.ndarray:
        pod_req = cs.get("PreScore" + self.name)
        if pod_req is None:
            pod_req = pod_score_requests(pod, self._resources, use_requested=True)
        alloc, used = node_score_amounts(state, feasible, self._resources, pod_req, use_requested=True)
        with_pod = balance_score(used + pod_req[:, None], alloc)
        without_pod = balance_score(used, alloc)
        half = MAX_NODE_SCORE // 2
        return (half + go_div(half + with_pod - without_pod, 2)).astype(np.int64)
