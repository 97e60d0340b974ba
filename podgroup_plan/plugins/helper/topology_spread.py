"""PodTopologySpread's pieces beside the plugin: Go's float arithmetic for the score, the parsed
constraint, and the plugin's cycle-state and per-shape records.

Mirrors `pkg/scheduler/framework/plugins/podtopologyspread/common.go` and `scoring.go`'s helpers;
the plugin is `plugins/pod_topology_spread.py`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping

import numpy as np

from podgroup_plan.model.selectors import LabelSelector
from podgroup_plan.plugins.helper.pod_match_counts import DomainCounts


def go_log(x: float) -> float:
    """Go's math.Log (the FreeBSD msun algorithm Go implements, evaluated without fused
    multiply-add as on amd64). Python's math.log can differ in the last bit, and upstream's
    spreading score rounds `count * log(domains + 2)`."""
    if not (x > 0 and math.isfinite(x)):
        return float("-inf") if x == 0 else (x if x > 0 else float("nan"))  # +Inf, NaN
    f1, ki = math.frexp(x)
    if f1 < math.sqrt(2) / 2:
        f1 *= 2
        ki -= 1
    f = f1 - 1
    k = float(ki)
    s = f / (2 + f)
    s2 = s * s
    s4 = s2 * s2
    t1 = s2 * (_L1 + s4 * (_L3 + s4 * (_L5 + s4 * _L7)))
    t2 = s4 * (_L2 + s4 * (_L4 + s4 * _L6))
    r = t1 + t2
    hfsq = 0.5 * f * f
    return k * _LN2_HI - ((hfsq - (s * (hfsq + r) + k * _LN2_LO)) - f)


_LN2_HI = 6.93147180369123816490e-01
_LN2_LO = 1.90821492927058770002e-10
_L1 = 6.666666666666735130e-01
_L2 = 3.999999999940941908e-01
_L3 = 2.857142874366239149e-01
_L4 = 2.222219843214978396e-01
_L5 = 1.818357216161805012e-01
_L6 = 1.531383769920937332e-01
_L7 = 1.479819860511658591e-01


def go_round(x: np.ndarray) -> np.ndarray:
    """Go math.Round (half away from zero) to int64; x - trunc(x) is exact, so no double
    rounding as with floor(x + 0.5)."""
    t = np.trunc(x)
    frac = x - t
    return (t + np.where(np.abs(frac) >= 0.5, np.sign(x), 0.0)).astype(np.int64)


def go_round_non_negative(x: np.ndarray) -> np.ndarray:
    """`go_round` for x >= 0 (PreScore's scores: counts times a positive log plus maxSkew - 1),
    in half the array operations: trunc is floor there, and the sign is +1."""
    t = np.trunc(x)
    return (t + (x - t >= 0.5)).astype(np.int64)


def raw_scores(terms: list[tuple[np.ndarray, float, float, np.ndarray | None]], n: int) -> np.ndarray:
    """PreScore's score per node (scoring.go): for each constraint (counts, weight,
    float64(maxSkew - 1), nodes with its key or None for all) in order,
    `score += float64(cnt)*weight + float64(maxSkew-1)` where the node has the key; then
    rounded."""
    score = np.zeros(n, dtype=np.float64)
    for cnt, weight, offset, keyed in terms:
        term = cnt.astype(np.float64) * weight + offset
        if keyed is None:
            score += term
        else:
            score = np.where(keyed, score + term, score)
    return go_round_non_negative(score)


def raw_scores_by_count(cnt: np.ndarray, weight: float, offset: float) -> np.ndarray | None:
    """`raw_scores` for one constraint whose key every node has: a node's score is then a
    function of its count alone, so it is worked out once per count up to the largest (the
    same float64 operations on the same values, hence the same results: `0.0 + x` is x for
    the non-negative terms here) and gathered. None when counts run past the nodes (the
    table would be the larger pass)."""
    if not len(cnt):
        return None
    top = int(cnt.max())
    if not 0 <= top <= len(cnt):
        return None
    table = go_round_non_negative(np.arange(top + 1, dtype=np.float64) * weight + offset)
    return table.take(cnt)


# ------------------------------------------------------------------------------------------
# Constraints
# ------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class SpreadConstraint:
    """A parsed constraint (common.go topologySpreadConstraint); selector None = match nothing."""

    max_skew: int
    topology_key: str
    selector: LabelSelector | None
    min_domains: int = 1
    honor_node_affinity: bool = True
    honor_node_taints: bool = False


def _merge_match_labels(selector: LabelSelector, match: Mapping[str, str]) -> LabelSelector:
    """mergeLabelSetWithSelector: the pod's values for matchLabelKeys ANDed with the selector."""
    return LabelSelector(
        tuple(sorted(match.items())) + selector.match_labels, selector.match_expressions
    )


def _selector_counts_nothing(selector: LabelSelector | None) -> bool:
    # countPodsMatchSelector returns 0 for an empty selector (and nil matches nothing).
    return selector is None or selector.is_empty


@dataclass(slots=True)
class _ConstraintCounts:
    """PreFilter data for one constraint: domain codes, matching pods per domain and the global
    minimum (minDomains applied)."""

    filled: np.ndarray  # per node (all nodes): domain code, len(sums) without the topology label
    sums: np.ndarray  # per domain (label value): matching pods on eligible nodes
    domains: np.ndarray  # per label value: a domain of some eligible node (TpValueToMatchNum keys)
    min_match: int
    self_match: int
    max_skew: int
    topology_key: str = ""


@dataclass(slots=True)
class _PreFilterState:
    constraints: tuple[SpreadConstraint, ...]
    counts: list[_ConstraintCounts]


@dataclass(slots=True)
class _FilterShape:
    """What PreFilter reads for one DoNotSchedule constraint of one pod shape on a state:
    everything but the counts is static, and `live` is the ledger's per-domain sums (current
    after every assume, forget and rollback), so a pod of a known shape only copies them."""

    topology_key: str
    filled: np.ndarray  # _ConstraintCounts.filled
    present: np.ndarray  # per label value: a domain of some eligible node
    domains: int  # how many
    size: int  # label values of the topology key
    live: DomainCounts | None  # None: the selector counts nothing
    selector: LabelSelector | None  # the constraint's (the pod's self-match is its own)
    max_skew: int
    min_domains: int


@dataclass(slots=True)
class _ScorePart:
    """What PreScore reads for one ScheduleAnyway constraint of one pod shape on a state."""

    hostname: bool
    codes: np.ndarray  # the topology key's label codes per node (-1: no label)
    counts: np.ndarray | None  # hostname: live matching pods per node (None: counts nothing)
    bucket: np.ndarray | None  # other keys: per node its PreScore domain (`_buckets`)
    live: DomainCounts | None  # other keys: live sums per such domain (None: counts nothing)
    size: int  # other keys: domains (label values and the "" domain)
    offset: float  # float64(maxSkew - 1)


@dataclass(slots=True)
class _ScoreShape:
    has_keys: np.ndarray | None  # require_all: nodes with every topology key; else None
    all_keyed: bool  # require_all and every node has every key: no node is ever ignored
    parts: list[_ScorePart]


@dataclass(slots=True)
class _PreScoreState:
    ignored: np.ndarray | None  # per node of `feasible`: missing a required topology key (None: none)
    raw: np.ndarray | None = None
