"""The resource scorers in plain Python for a handful of nodes.

After the first pod of a signature, the node signature cache (framework/node_cache.py) refreshes
only the rows a binding changed: usually one node. numpy's fixed cost per call (about a
microsecond, a few dozen calls per scorer) then outweighs the arithmetic many times over, so
NodeResourcesFit's LeastAllocated and BalancedAllocation's two-resource balance take these
scalar versions for at most `FEW` rows. They compute exactly what the array versions compute:
the same integer divisions (non-negative operands, so floor and Go's truncation agree), float64
fractions from the same float64 operands in the same order, the same truncation to int64
(`tests/plugins/test_few_rows.py` checks both on generated inputs).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from podgroup_plan.framework.interface import MAX_NODE_SCORE

# At most this many rows take the scalar path.
FEW = 8


def balance_two(requested: Sequence[np.ndarray], allocatable: Sequence[np.ndarray]) -> np.ndarray:
    """balance_score for two resources: int64((1 - |f1 - f2| / 2) * 100) with f = min(req / alloc,
    1) in float64, and a standard deviation of 0 where either allocatable is not positive."""
    return np.array(balances(requested[0].tolist(), requested[1].tolist(),
                              allocatable[0].tolist(), allocatable[1].tolist()), dtype=np.int64)


def balances(req0: list[int], req1: list[int], alloc0: list[int], alloc1: list[int]) -> list[int]:
    out = []
    for r0, r1, a0, a1 in zip(req0, req1, alloc0, alloc1):
        if a0 <= 0 or a1 <= 0:
            std = 0.0
        else:
            # float(x) / float(y), as numpy divides: both operands become float64 first
            # (Python's int / int would round the exact quotient once instead).
            f0 = min(float(r0) / float(a0), 1.0)
            f1 = min(float(r1) / float(a1), 1.0)
            std = abs((f0 - f1) / 2)
        out.append(int((1 - std) * float(MAX_NODE_SCORE)))  # int() truncates, as astype(int64)
    return out


def balanced_allocation_two(amounts, pod_requests: np.ndarray, without_pod: np.ndarray, feasible: np.ndarray) -> np.ndarray:
    """BalancedAllocation's score over two resources for a few nodes: 50 + (50 + balance with
    the pod - balance without it) / 2, with the balances without the pod read from the
    plugin's per-node column."""
    (i0, alloc0, used0), (i1, alloc1, used1) = amounts
    r0, r1 = int(pod_requests[i0]), int(pod_requests[i1])
    with_pod = balances([u + r0 for u in used0.tolist()], [u + r1 for u in used1.tolist()],
                         alloc0.tolist(), alloc1.tolist())
    half = MAX_NODE_SCORE // 2
    return np.array([(w + half - without_pod[node]) // 2 + half
                     for w, node in zip(with_pod, feasible.tolist())], dtype=np.int64)


def least_allocated(amounts, pod_requests: np.ndarray, weights: list[int], m: int) -> np.ndarray:
    """leastResourceScorer per node: Σ w·((alloc - used - req)⁺·100 / alloc) / Σ w over the
    resources the node has allocatable of; 0 when it has none."""
    reqs = pod_requests.tolist()
    columns = [(weights[i], reqs[i], alloc.tolist(), used.tolist()) for i, alloc, used in amounts]
    out = []
    for j in range(m):
        total = wsum = 0
        for w, req, alloc, used in columns:
            a = alloc[j]
            if a <= 0:
                continue
            free = a - used[j] - req
            total += (free * MAX_NODE_SCORE // a if free > 0 else 0) * w
            wsum += w
        out.append(total // wsum if wsum else 0)
    return np.array(out, dtype=np.int64)


def all_fit(state, view: np.ndarray, rows: list[int], amounts: list[int]) -> bool:
    """NodeResourcesFit's Filter for a few nodes, only as far as "every node of `view` fits":
    room for one more pod, and each requested amount within allocatable minus requested.
    False sends the caller to the array version, which words the failures."""
    count, allowed = state.pod_count, state.allowed_pods
    allocatable, requested = state.allocatable, state.requested
    for node in view.tolist():
        if count[node] >= allowed[node]:
            return False
        for row, amount in zip(rows, amounts):
            if amount > allocatable[row, node] - requested[row, node]:
                return False
    return True
