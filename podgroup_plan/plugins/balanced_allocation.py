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

from typing import Hashable, Sequence

import numpy as np

from podgroup_plan.config.args import NodeResourcesBalancedAllocationArgs
from podgroup_plan.framework.interface import MAX_NODE_SCORE, CycleState, PreScorePlugin, ScorePlugin, StateKey
from podgroup_plan.framework.status import SUCCESS, Status, skip
from podgroup_plan.model.objects import Pod
from podgroup_plan.plugins.helper import few_rows
from podgroup_plan.plugins.node_resources_fit import (
    float_allocatable,
    node_score_amounts,
    pod_score_requests,
    with_allocatable,
)
from podgroup_plan.state.derived import HashedTuple


def balance_score(requested: Sequence[np.ndarray], allocatable: Sequence[np.ndarray]) -> np.ndarray:
    """The pre-PR balancedResourceScorer over nodes: one requested and one allocatable array
    per resource -> int64 per node.

    Floating point follows Go's order of operations: fractions in resource order (capped at 1,
    only where allocatable > 0), the mean from their running sum, the sum of squared deviations
    in resource order, then sqrt; exactly two fractions use |f1 - f2| / 2."""
    m = len(requested[0]) if len(requested) else 0
    if len(requested) == 2:
        return _balance_two(requested, allocatable)
    valids = [a > 0 for a in allocatable]
    fracs = []
    for req, alloc, valid in zip(requested, allocatable, valids):
        f = np.zeros(m, dtype=np.float64)
        np.divide(req, alloc, out=f, where=valid)
        np.minimum(f, 1.0, out=f)
        fracs.append(f)
    count = np.zeros(m, dtype=np.int64)
    for valid in valids:
        count += valid
    std = np.zeros(m, dtype=np.float64)
    if len(fracs) > 2:
        total = np.zeros(m, dtype=np.float64)
        for f in fracs:
            total += f  # adding the 0.0 of a skipped resource changes nothing
        mean = total / np.maximum(count, 1)
        squares = np.zeros(m, dtype=np.float64)
        for f, valid in zip(fracs, valids):
            d = f - mean
            squares += np.where(valid, d * d, 0.0)
        many = np.sqrt(squares / np.maximum(count, 1))
        # Exactly two present fractions among more configured resources: the first two.
        first = np.zeros(m, dtype=np.float64)
        second = np.zeros(m, dtype=np.float64)
        seen = np.zeros(m, dtype=np.int64)
        for f, valid in zip(fracs, valids):
            first = np.where(valid & (seen == 0), f, first)
            second = np.where(valid & (seen == 1), f, second)
            seen += valid
        two = np.abs((first - second) / 2)
        std = np.where(count == 2, two, np.where(count > 2, many, 0.0))
    return ((1 - std) * float(MAX_NODE_SCORE)).astype(np.int64)


def _balance_two(requested: Sequence[np.ndarray], allocatable: Sequence[np.ndarray], positive: bool = False) -> np.ndarray:
    """balance_score for the usual two resources: std = |f1 - f2| / 2 where both have
    allocatable, else 0 (one fraction or none). `positive`: the caller knows every allocatable
    is > 0 (then they may be float64 arrays: numpy divides int64 by int64 in float64 anyway)."""
    if len(requested[0]) <= few_rows.FEW:  # the rows one binding changed: plain Python
        return few_rows.balance_two(requested, allocatable)
    a0, a1 = allocatable
    if not positive and (a0.min(initial=1) <= 0 or a1.min(initial=1) <= 0):
        with np.errstate(divide="ignore", invalid="ignore"):
            f0 = requested[0].astype(np.float64) / a0
            f1 = requested[1].astype(np.float64) / a1
            np.minimum(f0, 1.0, out=f0)
            np.minimum(f1, 1.0, out=f1)
            std = np.abs((f0 - f1) / 2)
        std[(a0 <= 0) | (a1 <= 0)] = 0.0
        return ((1 - std) * float(MAX_NODE_SCORE)).astype(np.int64)
    # Every node has both: the same float operations, in place. (x * 0.5 is x / 2 exactly;
    # the absolute value commutes with halving.)
    f0 = np.true_divide(requested[0], a0)
    f1 = np.true_divide(requested[1], a1)
    np.minimum(f0, 1.0, out=f0)
    np.minimum(f1, 1.0, out=f1)
    f0 -= f1
    np.abs(f0, out=f0)
    f0 *= 0.5
    np.subtract(1.0, f0, out=f0)
    f0 *= float(MAX_NODE_SCORE)
    return f0.astype(np.int64)


# CycleState: PreScore's per-resource requests, for Score.
PRE_SCORE_KEY: StateKey[np.ndarray] = StateKey("PreScoreNodeResourcesBalancedAllocation")


class NodeResourcesBalancedAllocation(PreScorePlugin, ScorePlugin):
    """Upstream NodeResourcesBalancedAllocation (PreScore, Score)."""

    name = "NodeResourcesBalancedAllocation"
    node_local = True

    def sign(self, pod: Pod) -> Hashable:
        return (tuple(sorted(pod.requests.items())), pod.non_zero_cpu, pod.non_zero_memory)

    def __init__(self, args: NodeResourcesBalancedAllocationArgs | None = None, handle=None):
        super().__init__(args if args is not None else NodeResourcesBalancedAllocationArgs(), handle)
        self._resources = tuple(self.args.resources)
        # column key per set of scored resource positions, built once: hashing the resource
        # specs (frozen dataclasses) anew for every pod cost more than the lookup itself
        self._column_keys: dict[tuple[int, ...], tuple] = {}

    def pre_score(self, cs: CycleState, pod: Pod, state, feasible: np.ndarray) -> Status:
        pod_req = pod_score_requests(pod, self._resources, use_requested=True)
        if not pod_req.any():
            return skip(self.name)
        cs.write(PRE_SCORE_KEY, pod_req)
        return SUCCESS

    def score(self, cs: CycleState, pod: Pod, state, feasible: np.ndarray) -> np.ndarray:
        pod_req = cs.read(PRE_SCORE_KEY)
        if pod_req is None:
            pod_req = pod_score_requests(pod, self._resources, use_requested=True)
        m = len(feasible)
        lean = m > few_rows.FEW  # the float path first: allocatable as float64 (`float_allocatable`)
        amounts = node_score_amounts(state, feasible, self._resources, pod_req, use_requested=True, allocatable=not lean)
        if not amounts:
            return np.full(m, MAX_NODE_SCORE // 2 + MAX_NODE_SCORE // 4, dtype=np.int64)  # 100 vs 100
        # The balance without the pod depends on the nodes alone: one column per set of scored
        # resources, kept current row by row as pods land (not recomputed for every pod).
        positions = tuple(i for i, _, _ in amounts)
        key = self._column_keys.get(positions)
        if key is None:
            key = self._column_keys[positions] = HashedTuple((self.name, self._resources, positions))

        def without(rows: np.ndarray) -> np.ndarray:
            if len(rows) <= few_rows.FEW and len(positions) == 2:
                # the row or two the last bindings changed: read them straight from the state's
                # rows (the same resources as `amounts`, whose rows they are)
                r0, r1 = (state.resource_index[self._resources[i].name] for i in positions)
                at = rows.tolist()
                requested, allocatable = state.requested, state.allocatable
                return np.array(few_rows.balances([int(requested[r0, j]) for j in at], [int(requested[r1, j]) for j in at],
                                                  [int(allocatable[r0, j]) for j in at], [int(allocatable[r1, j]) for j in at]),
                                dtype=np.int64)
            at = node_score_amounts(state, rows, self._resources, pod_req, use_requested=True)
            return balance_score([used for _, _, used in at], [alloc for _, alloc, _ in at])

        if m <= few_rows.FEW and len(amounts) == 2:  # the rows one binding changed: plain Python
            return few_rows.balanced_allocation_two(amounts, pod_req, state.column(key, without), feasible)
        requested = [used + int(pod_req[i]) for i, _, used in amounts]
        with_pod = None
        if len(amounts) == 2:
            # allocatable converted to float64 once per state, not per pod (the same float64
            # values the division would convert them to)
            f0, f1 = (float_allocatable(state, state.resource_index[self._resources[i].name]) for i, _, _ in amounts)
            if f0 is not None and f1 is not None:
                if feasible is not state.all_nodes:
                    f0, f1 = f0.take(feasible), f1.take(feasible)
                with_pod = _balance_two(requested, (f0, f1), positive=True)
        if with_pod is None:
            full = with_allocatable(state, feasible, self._resources, amounts)
            with_pod = balance_score(requested, [alloc for _, alloc, _ in full])
        without_pod = state.rows_of(state.column(key, without), feasible)
        # Both balances lie in [50, 100] (a standard deviation of fractions in [0, 1] is at
        # most 0.5), so the numerator is never negative and floor division is Go's division.
        half = MAX_NODE_SCORE // 2
        with_pod += half
        with_pod -= without_pod
        with_pod >>= 1  # floor division by 2, for any sign
        with_pod += half
        return with_pod
