"""The resource scorers' fast paths give exactly what the plain formulas give.

NodeResourcesFit divides through float64 when that is exact (`floor_div`), shifts for a
power-of-two weight sum, and BalancedAllocation computes its balance in place (or, for a
handful of rows, in Python floats: plugins/helper/few_rows.py). Each is checked here against a plain reference written straight
from the formula (Python integers; the float steps in Go's order), on random values including
the edges: zero and huge allocatable, numerators around 2**53, quotients just below an integer.
"""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from podgroup_plan.plugins.balanced_allocation import balance_score
from podgroup_plan.plugins.node_resources_fit import floor_div, least_allocated, most_allocated

EXACT = 1 << 53
INT64_MAX = (1 << 63) - 1

amounts = st.one_of(
    st.integers(0, 10_000),
    st.integers(0, 1 << 40),
    st.integers(EXACT - 1000, EXACT + 1000),
    st.integers(0, 1 << 60),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.one_of(amounts, st.integers(-(1 << 60), -1)), st.integers(1, 1 << 62)),
                min_size=1, max_size=40))
def test_floor_div_is_integer_floor_division(pairs):
    num = np.array([n for n, _ in pairs], dtype=np.int64)
    den = np.array([d for _, d in pairs], dtype=np.int64)
    assert floor_div(num, den).tolist() == [n // d for n, d in pairs]
    if (num >= 0).all():
        assert floor_div(num, den, nonneg=True).tolist() == [n // d for n, d in pairs]


def test_floor_div_just_below_an_integer():
    # quotients a hair under an integer, where a float quotient that rounded up would be wrong
    dens = [3, 7, 1 << 26, (1 << 40) + 1, (1 << 52) - 1, (1 << 52) + 3, 1 << 53, (1 << 62) + 7]
    pairs = []
    for d in dens:
        for k in (1, 2, 99, 100, 1 << 20, 1 << 40):
            n = k * d - 1
            if 0 <= n <= INT64_MAX:  # also above 2**53, where the float path must not be taken
                pairs.append((n, d))
        pairs.append((EXACT - 1, d))
    pairs *= 2  # long enough for the float path
    num = np.array([n for n, _ in pairs], dtype=np.int64)
    den = np.array([d for _, d in pairs], dtype=np.int64)
    assert floor_div(num, den).tolist() == [n // d for n, d in pairs]
    assert floor_div(num, 7).tolist() == [n // 7 for n, _ in pairs]


def _ref_least(amounts, pod, weights):
    """leastResourceScorer in Python integers."""
    n = len(amounts[0][1])
    out = []
    for j in range(n):
        total = wsum = 0
        for i, alloc, used in amounts:
            a, u = int(alloc[j]), int(used[j])
            if a <= 0:
                continue
            total += max(a - u - int(pod[i]), 0) * 100 // a * weights[i]
            wsum += weights[i]
        out.append(total // wsum if wsum else 0)
    return out


def _ref_most(amounts, pod, weights):
    n = len(amounts[0][1])
    out = []
    for j in range(n):
        total = wsum = 0
        for i, alloc, used in amounts:
            a, u = int(alloc[j]), int(used[j])
            if a <= 0:
                continue
            total += min(u + int(pod[i]), a) * 100 // a * weights[i]
            wsum += weights[i]
        out.append(total // wsum if wsum else 0)
    return out


node_rows = st.lists(
    st.tuples(st.integers(0, 1 << 44), st.integers(0, 1 << 44), st.integers(0, 1 << 40), st.integers(0, 1 << 40)),
    min_size=1, max_size=30,
)


@settings(max_examples=200, deadline=None)
@given(node_rows, st.integers(0, 1 << 20), st.integers(0, 1 << 30),
       st.sampled_from([(1, 1), (1, 3), (2, 2), (5, 1)]), st.booleans())
def test_allocated_scorers_match_the_integer_formulas(rows, r0, r1, weights, all_have):
    if all_have:  # the common case: every node has both resources
        rows = [(max(a0, 1), max(a1, 1), u0, u1) for a0, a1, u0, u1 in rows]
    a0 = np.array([r[0] for r in rows], dtype=np.int64)
    a1 = np.array([r[1] for r in rows], dtype=np.int64)
    u0 = np.array([r[2] for r in rows], dtype=np.int64)
    u1 = np.array([r[3] for r in rows], dtype=np.int64)
    pod = np.array([r0, r1], dtype=np.int64)
    w = list(weights)

    def amounts():  # the scorers work in place on their temporaries: fresh copies each time
        return [(0, a0.copy(), u0.copy()), (1, a1.copy(), u1.copy())]

    assert least_allocated(amounts(), pod, w, len(rows)).tolist() == _ref_least(amounts(), pod, w)
    assert most_allocated(amounts(), pod, w, len(rows)).tolist() == _ref_most(amounts(), pod, w)


def _ref_balance_two(req, alloc):
    """The two-resource balance, float steps in Go's order, one node at a time."""
    out = []
    for r0, r1, a0, a1 in zip(*req, *alloc):
        if a0 <= 0 or a1 <= 0:
            std = 0.0
        else:
            f0 = min(np.float64(r0) / np.float64(a0), 1.0)
            f1 = min(np.float64(r1) / np.float64(a1), 1.0)
            std = abs((f0 - f1) / 2)
        out.append(int((1 - std) * 100.0))
    return out


@settings(max_examples=300, deadline=None)
@given(node_rows, st.booleans())
def test_two_resource_balance_matches_the_formula_in_place_and_in_python_floats(rows, all_have):
    if all_have:
        rows = [(max(a0, 1), max(a1, 1), u0, u1) for a0, a1, u0, u1 in rows]
    req = [[r[2] for r in rows], [r[3] for r in rows]]
    alloc = [[r[0] for r in rows], [r[1] for r in rows]]
    want = _ref_balance_two(req, alloc)
    as_arrays = lambda cols: [np.array(c, dtype=np.int64) for c in cols]  # noqa: E731
    assert balance_score(as_arrays(req), as_arrays(alloc)).tolist() == want
    # the same rows a few at a time: the Python-float path
    for start in range(0, len(rows), 3):
        part = slice(start, start + 3)
        got = balance_score(as_arrays([c[part] for c in req]), as_arrays([c[part] for c in alloc]))
        assert got.tolist() == want[part]
