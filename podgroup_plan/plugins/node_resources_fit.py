"""NodeResourcesFit: does the pod's request fit the node (Filter), and how full would it be (Score).

Mirrors `pkg/scheduler/framework/plugins/noderesources/fit.go` (PreFilter, Filter, PreScore,
Score), `resource_allocation.go` (which request and allocatable each scored resource uses),
`least_allocated.go`, `most_allocated.go`, `requested_to_capacity_ratio.go` and
`pkg/scheduler/framework/plugins/helper/shape_score.go` (BuildBrokenLinearFunction), newest
state (2026; see the notes per function).

Filter (`fitsRequest`), per node, each failure one reason of the node's status:
  * `Too many pods` when pods on the node + 1 > allowed pods;
  * for cpu, memory, ephemeral-storage with a request > 0, and for every scalar resource
    (extended, hugepages-*, *kubernetes.io/*, attachable-volumes-*) the pod requests:
    `Insufficient <name>` when request > allocatable - requested. Extended resources listed
    in `ignoredResources`, or whose prefix before "/" is in `ignoredResourceGroups`, are not
    checked (both args only ever apply to extended resources).
  * Code: `Unschedulable`, except `UnschedulableAndUnresolvable` when for some insufficient
    resource the request exceeds the node's whole allocatable (InsufficientResource.Unresolvable,
    newest fit.go: preemption cannot help there). `Too many pods` is never unresolvable.
  Reasons are ordered pods, cpu, memory, ephemeral-storage, then scalars by name (upstream
  iterates a Go map for scalars; the FitError histogram does not depend on the order).

Score (resourceAllocationScorer with useRequested=false): for each configured resource, the
node's requested amount plus the pod's request against the node's allocatable. cpu and memory
use the non-zero requests (a container without a request counts 100m / 200Mi) on both sides;
ephemeral-storage and scalars use actual requests. A scalar resource the pod does not request
is skipped, as is any resource the node has no (or zero) allocatable of.
  * LeastAllocated: `(alloc - req) * 100 / alloc` (0 if req > alloc), weighted mean with
    integer division.
  * MostAllocated: `min(req, alloc) * 100 / alloc`, weighted mean with integer division.
  * RequestedToCapacityRatio: utilisation `req * 100 / alloc` (100 if req > alloc) through the
    broken-linear shape (shape scores x10, MaxNodeScore / MaxCustomPriorityScore), Go integer
    division truncating toward zero inside the shape; only resources scoring > 0 take part;
    the weighted mean is rounded half away from zero (math.Round).
No NormalizeScore.

PlacementScore (v1.37.0, TopologyAwareWorkloadScheduling): bin-packing over a whole candidate
placement, always with the MostAllocated formula whatever the configured strategy, with the
configured resource weights: per resource, the placement's summed allocatable against its
summed requested (non-zero cpu/memory, as Score) plus the requests of the pods the placement's
trial proposed; a scalar resource no proposed pod requests is left out. No
NormalizePlacementScore: the 0..100 score is used as it is.

Why the shape differs from upstream: everything is numpy over the view (filter) or the
feasible nodes (score), with one row per resource; nothing loops over nodes in Python.
"""
from __future__ import annotations

import itertools
from typing import Any, Hashable, Literal, Sequence, overload

import numpy as np

from podgroup_plan.config.args import (
    LEAST_ALLOCATED,
    MOST_ALLOCATED,
    REQUESTED_TO_CAPACITY_RATIO,
    NodeResourcesFitArgs,
    ResourceSpec,
)
from podgroup_plan.framework.interface import (
    MAX_NODE_SCORE,
    CycleState,
    FilterPlugin,
    FilterVerdict,
    Group,
    NodeFailure,
    PlacementScorePlugin,
    PodGroupAssignments,
    PreFilterPlugin,
    PreFilterResult,
    PreScorePlugin,
    ScorePlugin,
    StateKey,
)
from podgroup_plan.framework.status import SUCCESS, Code, Status
from podgroup_plan.model.objects import CPU, EPHEMERAL_STORAGE, MEMORY, PODS, Pod
from podgroup_plan.plugins.helper import few_rows
from podgroup_plan.state.derived import DerivedKey, Memo

REASON_TOO_MANY_PODS = "Too many pods"
MAX_CUSTOM_PRIORITY_SCORE = 10  # config.MaxCustomPriorityScore
MAX_UTILIZATION = 100

_DEFAULT_NAMESPACE_PREFIX = "kubernetes.io/"
_REQUESTS_PREFIX = "requests."
_HUGEPAGES_PREFIX = "hugepages-"
_ATTACHABLE_VOLUMES_PREFIX = "attachable-volumes-"


# ----- resource names (v1helper / schedutil) ----------------------------------------------

def is_prefixed_native_resource(name: str) -> bool:
    return _DEFAULT_NAMESPACE_PREFIX in name


def is_extended_resource_name(name: str) -> bool:
    """v1helper.IsExtendedResourceName: has a "/", not in the kubernetes.io namespace, not a
    quota `requests.` name. (Upstream also requires a valid qualified name, which the API
    server has already enforced.)"""
    native = "/" not in name or is_prefixed_native_resource(name)
    return not native and not name.startswith(_REQUESTS_PREFIX)


def is_scalar_resource_name(name: str) -> bool:
    """schedutil.IsScalarResourceName: resources kept in NodeInfo's ScalarResources."""
    return (
        is_extended_resource_name(name)
        or name.startswith(_HUGEPAGES_PREFIX)
        or is_prefixed_native_resource(name)
        or name.startswith(_ATTACHABLE_VOLUMES_PREFIX)
    )


# ----- Go integer helpers -----------------------------------------------------------------

def go_div(a: np.ndarray, b: np.ndarray | int) -> np.ndarray:
    """Go's integer division, truncating toward zero (numpy's // floors)."""
    a = np.asarray(a, dtype=np.int64)
    q = np.abs(a) // np.abs(b)
    return np.where((a < 0) != (np.asarray(b) < 0), -q, q)


# Below this, int64 values convert to float64 exactly.
_FLOAT_EXACT = 1 << 53


def floor_div(num: np.ndarray, den: np.ndarray | int, nonneg: bool = False) -> np.ndarray:
    """`num // den` for int64 `num` and a positive `den` (array or int), exactly, about twice
    as fast as numpy's integer division when `0 <= num < 2**53` (`nonneg`: the caller knows
    num >= 0). Then num converts to float64 exactly, and the correctly rounded quotient
    num/den cannot reach an integer the exact quotient is not already at: its distance to one
    is at least 1/den, more than half an ulp of num/den (at most num/den * 2**-53). So
    truncating the float quotient is the floor. (A den of 2**53 or more, rounded when
    converted, still gives a quotient below 1, as num is below 2**53.)"""
    if len(num) >= 8 and (nonneg or num.min() >= 0) and num.max() < _FLOAT_EXACT:
        return (num / den).astype(np.int64)
    return num // den


# Allocatable row -> that row as float64 when every node's amount is in (0, _ALLOC_FLOAT_MAX],
# else None (allocatable never changes inside a state: each row is converted once).
ALLOCATABLE_FLOAT: DerivedKey[dict[int, np.ndarray | None]] = DerivedKey("NodeResourcesFit/allocatableFloat")
# Up to this, x * MAX_NODE_SCORE stays below 2**53 for any 0 <= x <= it.
_ALLOC_FLOAT_MAX = (_FLOAT_EXACT - 1) // MAX_NODE_SCORE


def float_allocatable(state, row: int) -> np.ndarray | None:
    """`state.allocatable[row]` as float64 for the scorers' float paths over every node, or None
    unless every node has a positive amount of at most `_ALLOC_FLOAT_MAX` (then the scorers'
    integer numerators, which never exceed 100 x allocatable, convert to float64 exactly)."""
    table = state.derived(ALLOCATABLE_FLOAT, lambda s: {})
    if row not in table:
        alloc = state.allocatable[row]
        ok = len(alloc) > 0 and alloc.min() > 0 and alloc.max() <= _ALLOC_FLOAT_MAX
        table[row] = alloc.astype(np.float64) if ok else None
    return table[row]


def _div_by_weight_sum(total: np.ndarray, wsum: int) -> np.ndarray:
    """total // wsum (floor) for wsum > 0; a shift when wsum is a power of two (the default
    two resources of weight 1), which is floor division for any sign."""
    if wsum & (wsum - 1) == 0:
        return total >> (wsum.bit_length() - 1)
    return floor_div(total, wsum)


def _round_div(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """int64(math.Round(p / q)) for p >= 0, q > 0: half away from zero."""
    return (2 * p + q) // (2 * q)


# ----- the scored amounts (resource_allocation.go) ----------------------------------------

def pod_score_requests(pod: Pod, resources: Sequence[ResourceSpec], use_requested: bool) -> np.ndarray:
    """calculatePodResourceRequestList: the pod's request per configured resource. With
    use_requested False (NodeResourcesFit) cpu and memory are the non-zero requests."""
    out = np.zeros(len(resources), dtype=np.int64)
    for i, spec in enumerate(resources):
        if not use_requested and spec.name == CPU:
            out[i] = pod.non_zero_cpu
        elif not use_requested and spec.name == MEMORY:
            out[i] = pod.non_zero_memory
        else:
            out[i] = pod.requests.get(spec.name, 0)
    return out


# (resource position, allocatable, requested) per scored resource, over some nodes
Amounts = list[tuple[int, np.ndarray, np.ndarray]]


@overload
def node_score_amounts(
    state, feasible: np.ndarray, resources: Sequence[ResourceSpec], pod_requests: np.ndarray, use_requested: bool,
    allocatable: Literal[True] = True,
) -> Amounts: ...


@overload
def node_score_amounts(
    state, feasible: np.ndarray, resources: Sequence[ResourceSpec], pod_requests: np.ndarray, use_requested: bool,
    allocatable: bool,
) -> list[tuple[int, np.ndarray | None, np.ndarray]]: ...


def node_score_amounts(
    state, feasible: np.ndarray, resources: Sequence[ResourceSpec], pod_requests: np.ndarray, use_requested: bool,
    allocatable: bool = True,
) -> list[Any]:
    """calculateResourceAllocatableRequest for every configured resource over `feasible`:
    a list of (resource position, allocatable, requested on the node without the pod) for the
    resources that take part. Left out, as upstream's (0, 0) entries: a scalar resource the
    pod does not request, and any name a NodeInfo's allocatable never holds. A node with zero
    allocatable of a listed resource is skipped by each scorer. `allocatable=False` leaves
    allocatable None (a float path reads it as float64; `with_allocatable` adds it later)."""
    out = []
    for i, spec in enumerate(resources):
        name = spec.name
        if pod_requests[i] == 0 and is_scalar_resource_name(name):
            continue  # scalar resources the pod does not request are not scored
        if name in (CPU, MEMORY):
            row = state.resource_index[name]
            if use_requested:
                used = state.rows_of(state.requested[row], feasible)
            else:
                used = state.rows_of(state.non_zero_requested[0 if name == CPU else 1], feasible)
        elif name == EPHEMERAL_STORAGE or is_scalar_resource_name(name):
            row = state.resource_index.get(name)
            if row is None:
                continue
            used = state.rows_of(state.requested[row], feasible)
        else:
            continue
        # read-only: the state's own rows when `feasible` is every node
        out.append((i, state.rows_of(state.allocatable[row], feasible) if allocatable else None, used))
    return out


def with_allocatable(
    state, feasible: np.ndarray, resources: Sequence[ResourceSpec],
    amounts: Sequence[tuple[int, np.ndarray | None, np.ndarray]],
) -> Amounts:
    """`amounts` with the allocatable node_score_amounts(allocatable=False) left out added."""
    return [(i, alloc if alloc is not None else
             state.rows_of(state.allocatable[state.resource_index[resources[i].name]], feasible), used)
            for i, alloc, used in amounts]


def _weights(resources: Sequence[ResourceSpec]) -> list[int]:
    # A weight of 0 is defaulted to 1 by the v1 config defaults.
    return [int(spec.weight or 1) for spec in resources]


def _weighted_mean(terms: Sequence[tuple[np.ndarray, np.ndarray | None, int]], m: int) -> np.ndarray:
    """Σ w·s / Σ w (integer division) over the resources with allocatable > 0 per node.
    `valid` None means every node has allocatable of that resource (the common case)."""
    if all(valid is None for _, valid, _ in terms):
        if not terms:
            return np.zeros(m, dtype=np.int64)
        wsum = sum(w for _, _, w in terms)
        # the first term's array is the scorer's own temporary: add the others into it
        per, _, w = terms[0]
        total = per if w == 1 else per * w
        for per, _, w in terms[1:]:
            total += per * w if w != 1 else per
        return _div_by_weight_sum(total, wsum) if wsum > 0 else total
    total = np.zeros(m, dtype=np.int64)
    wsums = np.zeros(m, dtype=np.int64)  # per node: the weights of its resources with allocatable
    for per, valid, w in terms:
        if valid is None:
            total += per * w
            wsums += w
        else:
            total += per * valid * w
            wsums += valid * w
    return np.where(wsums > 0, total // np.maximum(wsums, 1), 0)


def _per_resource(alloc: np.ndarray, numerator: np.ndarray, nonneg: bool = False) -> tuple[np.ndarray, np.ndarray | None]:
    """numerator·100 / alloc, and the mask of nodes with allocatable (None when all have)."""
    numerator *= MAX_NODE_SCORE
    if alloc.min(initial=1) > 0:
        return floor_div(numerator, alloc, nonneg), None
    valid = alloc > 0
    return numerator // np.where(valid, alloc, 1), valid


def least_allocated(amounts, pod_requests: np.ndarray, weights: list[int], m: int) -> np.ndarray:
    """leastResourceScorer: (alloc - req)·100 / alloc, 0 when req > alloc."""
    if m <= few_rows.FEW:  # the rows one binding changed: plain Python
        return few_rows.least_allocated(amounts, pod_requests, weights, m)
    terms = []
    for i, alloc, used in amounts:
        free = alloc - used
        free -= int(pod_requests[i])
        np.maximum(free, 0, out=free)
        per, valid = _per_resource(alloc, free, nonneg=True)
        terms.append((per, valid, weights[i]))
    return _weighted_mean(terms, m)


def least_allocated_float(state, rows: np.ndarray, resources: Sequence[ResourceSpec], amounts,
                          pod_requests: np.ndarray, weights: list[int]) -> np.ndarray | None:
    """least_allocated at node `rows` (`amounts` taken there) in float64, or None when an
    allocatable row does not qualify (`float_allocatable`). The same values as the integer
    formula, with fewer passes and allocatable converted once per state, not per pod. With
    0 < a <= _ALLOC_FLOAT_MAX (so a < 2**53 / 100) and integers u (used), r (request) >= 0:
    a - u is exact when u < 2**53 (an integer of magnitude below 2**53), and negative when
    u >= 2**53 (float(u) >= 2**53 > a); subtracting r is exact when the difference is >= 0 (an
    integer in [0, a]) and stays negative when it is not (rounding never changes a sign, and
    float(r) >= 2**53 > a - u when r is that large); so after the clamp at 0 the value is
    max(a - u - r, 0) exactly, times 100 exactly (below 2**53), and the division is the
    correctly rounded quotient of the same two float64 values `floor_div` divides: the same
    truncation."""
    terms = []
    every = rows is state.all_nodes
    for i, _, used in amounts:
        alloc = float_allocatable(state, state.resource_index[resources[i].name])
        if alloc is None:
            return None
        if not every:
            alloc = alloc.take(rows)
        free = np.subtract(alloc, used)
        free -= float(pod_requests[i])
        np.maximum(free, 0.0, out=free)
        free *= float(MAX_NODE_SCORE)
        free /= alloc
        terms.append((free.astype(np.int64), None, weights[i]))
    return _weighted_mean(terms, len(rows))


def most_allocated(amounts, pod_requests: np.ndarray, weights: list[int], m: int) -> np.ndarray:
    """mostResourceScorer: min(req, alloc)·100 / alloc."""
    terms = []
    for i, alloc, used in amounts:
        req = used + int(pod_requests[i])
        np.minimum(req, alloc, out=req)
        per, valid = _per_resource(alloc, req)
        terms.append((per, valid, weights[i]))
    return _weighted_mean(terms, m)


def broken_linear(shape: Sequence[tuple[int, int]], p: np.ndarray) -> np.ndarray:
    """helper.BuildBrokenLinearFunction over an array: shape[0].score for p <= first
    utilization, the last score beyond the last one, linear in between with Go's truncating
    integer division."""
    p = np.asarray(p, dtype=np.int64)
    out = np.full(p.shape, shape[-1][1], dtype=np.int64)
    # The first point with p <= utilization wins: assign from the last point backwards.
    for i in range(len(shape) - 1, -1, -1):
        u_i, s_i = shape[i]
        hit = p <= u_i
        if i == 0:
            out[hit] = s_i
            continue
        u_prev, s_prev = shape[i - 1]
        if u_i == u_prev:  # invalid shape (validation forbids); avoid dividing by zero
            out[hit] = s_i
            continue
        out[hit] = s_prev + go_div((s_i - s_prev) * (p[hit] - u_prev), u_i - u_prev)
    return out


def requested_to_capacity_ratio(
    amounts, pod_requests: np.ndarray, weights: list[int], m: int, shape: Sequence[tuple[int, int]]
) -> np.ndarray:
    """requestedToCapacityRatioScorer with the shape already scaled to 0..100: only
    resources scoring > 0 take part; the mean is rounded half away from zero."""
    total = np.zeros(m, dtype=np.int64)
    wsum = np.zeros(m, dtype=np.int64)
    for i, alloc, used in amounts:
        valid = alloc > 0
        req = used + pod_requests[i]
        util = np.where(req > alloc, MAX_UTILIZATION, req * MAX_UTILIZATION // np.where(valid, alloc, 1))
        per = broken_linear(shape, util)
        take = valid & (per > 0)
        total += per * take * weights[i]
        wsum += take * weights[i]
    return np.where(wsum > 0, _round_div(total, np.maximum(wsum, 1)), 0)


# ----- the plugin --------------------------------------------------------------------------

class _FitRequest:
    """PreFilter state: the rows to check and the pod's amount for each, in reason order."""

    __slots__ = ("rows", "names", "amounts")

    def __init__(self, rows: list[int], names: list[str], amounts: list[int]):
        # plain lists: Filter walks them in Python (numpy arrays only cost a conversion back)
        self.rows = rows
        self.names = tuple(names)
        self.amounts = amounts


# CycleState: PreFilter's request (for Filter) and PreScore's per-resource requests (for Score).
PRE_FILTER_KEY: StateKey[_FitRequest] = StateKey("PreFilterNodeResourcesFit")
PRE_SCORE_KEY: StateKey[np.ndarray] = StateKey("PreScoreNodeResourcesFit")
# fit_request by (plugin, the pod's requests): on the state, whose resource rows it holds.
_FIT_REQUESTS: DerivedKey[Memo] = DerivedKey("NodeResourcesFit/fitRequests")
_plugin_ids = itertools.count()


class NodeResourcesFit(PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin, PlacementScorePlugin):
    """Upstream NodeResourcesFit (PreFilter, Filter, PreScore, Score, PlacementScore)."""

    name = "NodeResourcesFit"
    node_local = True

    def sign(self, pod: Pod) -> Hashable:
        return (tuple(sorted(pod.requests.items())), pod.non_zero_cpu, pod.non_zero_memory)

    def __init__(self, args: NodeResourcesFitArgs | None = None, handle=None):
        super().__init__(args if args is not None else NodeResourcesFitArgs(), handle)
        self._ignored = frozenset(self.args.ignored_resources)
        self._ignored_groups = frozenset(self.args.ignored_resource_groups)
        self._id = next(_plugin_ids)  # part of the fit_request memo's keys (profiles' args differ)
        strategy = self.args.scoring_strategy
        self._resources = tuple(strategy.resources)
        self._weights = _weights(self._resources)
        self._strategy = strategy.type
        # Shape scores are 0..10 in the config; the scorer works on 0..MaxNodeScore.
        self._shape = tuple(
            (int(pt.utilization), int(pt.score) * (MAX_NODE_SCORE // MAX_CUSTOM_PRIORITY_SCORE))
            for pt in strategy.shape
        )
        if self._strategy not in (LEAST_ALLOCATED, MOST_ALLOCATED, REQUESTED_TO_CAPACITY_RATIO):
            raise ValueError(f"scoring strategy {self._strategy} is not supported")

    # ----- PreFilter / Filter -------------------------------------------------------------

    def _checked(self, name: str) -> bool:
        if name in (CPU, MEMORY, EPHEMERAL_STORAGE):
            return True
        if not is_scalar_resource_name(name):
            return False  # not part of the scheduler's Resource: never checked
        if is_extended_resource_name(name):
            if name in self._ignored or name.split("/", 1)[0] in self._ignored_groups:
                return False
        return True

    def fit_request(self, pod: Pod, state) -> _FitRequest:
        """computePodResourceRequest, reduced to what Filter checks. A function of the pod's
        requests, this plugin's args and the state's resource rows (which only grow, so a row
        once given stays): kept on the state by the requests, as most pods repeat a few shapes."""
        key = (self._id, tuple(pod.requests.items()))
        memo = state.memo(_FIT_REQUESTS)
        found = memo.get(key)
        if found is None:
            found = self._fit_request(pod, state)
            memo.put(key, found, 64 * (len(key[1]) + 1))
        return found

    def _fit_request(self, pod: Pod, state) -> _FitRequest:
        order = [r for r in (CPU, MEMORY, EPHEMERAL_STORAGE) if pod.requests.get(r, 0) > 0]
        order += sorted(
            r for r, v in pod.requests.items()
            if v > 0 and r not in (CPU, MEMORY, EPHEMERAL_STORAGE, PODS)
        )
        names = [r for r in order if self._checked(r)]
        rows = [state.resource_row(r) for r in names]  # adds an all-zero row for unknown ones
        return _FitRequest(rows, names, [pod.requests[r] for r in names])

    def pre_filter(self, cs: CycleState, pod: Pod, state, view: np.ndarray) -> PreFilterResult:
        cs.write(PRE_FILTER_KEY, self.fit_request(pod, state))
        return PreFilterResult()

    def filter(self, cs: CycleState, pod: Pod, state, view: np.ndarray) -> FilterVerdict:
        req = cs.read(PRE_FILTER_KEY)
        if req is None:
            req = self.fit_request(pod, state)
        if len(view) <= few_rows.FEW and few_rows.all_fit(state, view, req.rows, req.amounts):
            return FilterVerdict.all_pass(len(view))  # the rows one binding changed, and they fit
        # Fast path first (most nodes fit): one comparison per requested resource.
        rows_of = state.rows_of
        too_many = rows_of(state.pod_count, view) >= rows_of(state.allowed_pods, view)  # count + 1 > allowed
        rejected = too_many.copy()
        shorts: list[np.ndarray] = []
        allocs: list[np.ndarray] = []
        for row, amount in zip(req.rows, req.amounts):
            alloc = rows_of(state.allocatable[row], view)
            short = amount > alloc - rows_of(state.requested[row], view)
            shorts.append(short)
            allocs.append(alloc)
            rejected |= short
        if not rejected.any():
            return FilterVerdict.all_pass(len(view))
        # Some nodes fail: their reasons, and whether a request exceeds a whole allocatable.
        unresolvable = np.zeros(len(view), dtype=bool)
        for short, alloc, amount in zip(shorts, allocs, req.amounts):
            unresolvable |= short & (amount > alloc)
        reasons = [REASON_TOO_MANY_PODS] + [f"Insufficient {name}" for name in req.names]
        return FilterVerdict(~rejected, _group_failures([too_many] + shorts, unresolvable, rejected, reasons))

    # ----- PreScore / Score ---------------------------------------------------------------

    def pre_score(self, cs: CycleState, pod: Pod, state, feasible: np.ndarray) -> Status:
        cs.write(PRE_SCORE_KEY, pod_score_requests(pod, self._resources, use_requested=False))
        return SUCCESS

    def score(self, cs: CycleState, pod: Pod, state, feasible: np.ndarray) -> np.ndarray:
        m = len(feasible)
        if not self._resources:  # upstream: Error "resources not found"; validation forbids it
            return np.zeros(m, dtype=np.int64)
        pod_req = cs.read(PRE_SCORE_KEY)
        if pod_req is None:
            pod_req = pod_score_requests(pod, self._resources, use_requested=False)
        lean = self._strategy == LEAST_ALLOCATED and m > few_rows.FEW  # the float path first
        amounts = node_score_amounts(state, feasible, self._resources, pod_req, use_requested=False, allocatable=not lean)
        if lean:
            scores = least_allocated_float(state, feasible, self._resources, amounts, pod_req, self._weights)
            if scores is not None:
                return scores
        full = with_allocatable(state, feasible, self._resources, amounts)
        if self._strategy == LEAST_ALLOCATED:
            return least_allocated(full, pod_req, self._weights, m)
        if self._strategy == MOST_ALLOCATED:
            return most_allocated(full, pod_req, self._weights, m)
        if not self._shape:
            return np.zeros(m, dtype=np.int64)
        return requested_to_capacity_ratio(full, pod_req, self._weights, m, self._shape)

    # ----- PlacementScore -----------------------------------------------------------------

    def score_placement(self, group: Group, assignments: PodGroupAssignments, state) -> tuple[int, Status]:
        if not self._resources:
            return 0, SUCCESS
        proposed = np.zeros(len(self._resources), dtype=np.int64)
        for pod, _ in assignments.assignments:
            proposed += pod_score_requests(pod, self._resources, use_requested=False)
        nodes = assignments.placement.nodes
        total = weight_sum = 0
        for i, alloc, used in node_score_amounts(state, nodes, self._resources, proposed, use_requested=False):
            capacity = int(alloc.sum())
            if capacity == 0:
                continue
            requested = min(int(used.sum()) + int(proposed[i]), capacity)
            total += requested * MAX_NODE_SCORE // capacity * self._weights[i]
            weight_sum += self._weights[i]
        return (total // weight_sum if weight_sum else 0), SUCCESS


_BIT_WEIGHTS = np.array([1 << i for i in range(8)], dtype=np.uint8)  # 1, 2, 4, ..., 128


def _group_failures(
    masks: list[np.ndarray], unresolvable: np.ndarray, rejected: np.ndarray, reasons: list[str]
) -> list[NodeFailure]:
    """One NodeFailure per distinct (reasons, code) combination among the rejected nodes, so
    that every node carries exactly its own status (all its reasons, one code). Combinations
    are encoded as bit patterns (reason i -> bit i, unresolvable -> the next bit), in ascending
    order of the pattern.

    The usual call has a few reasons (too many pods and two or three resources) over the few
    hundred rows the signature cache refreshes: then one product with the bits' weights
    makes every row's pattern (with a top bit for "rejected", so the rows not rejected stay below it) and one
    `np.bincount` finds the patterns present, where a sort (`np.unique`) cost about twice as
    much. `_group_failures_sorted` is the general path; both give the same list
    (tests/properties/test_fit_filter_shortcuts.py)."""
    bits = len(masks) + 1
    if bits >= 8:
        return _group_failures_sorted(masks, unresolvable, rejected, reasons)
    # row i of the stack carries bit i: its weight 2**i (distinct powers of two below 256, so
    # the uint8 sums are exact)
    code = _BIT_WEIGHTS[:bits + 1] @ np.array((*masks, unresolvable, rejected), dtype=np.uint8)
    top = 1 << bits  # the "rejected" bit: a row without it is in no group, whatever its masks say
    binned = np.bincount(code, minlength=1)
    out = []
    for pattern in (np.flatnonzero(binned[top:]) + top).tolist():
        why = tuple(reasons[i] for i in range(len(masks)) if pattern >> i & 1)
        status_code = Code.UNSCHEDULABLE_AND_UNRESOLVABLE if pattern >> len(masks) & 1 else Code.UNSCHEDULABLE
        out.append(NodeFailure(code == pattern, why, status_code))
    return out


def _group_failures_sorted(
    masks: list[np.ndarray], unresolvable: np.ndarray, rejected: np.ndarray, reasons: list[str]
) -> list[NodeFailure]:
    """`_group_failures` for any number of reasons: the patterns of the rejected rows sorted
    (`np.unique`), as integers while they fit in 62 bits, else as whole columns."""
    idx = np.flatnonzero(rejected)
    if len(masks) + 1 <= 62:
        code = unresolvable[idx].astype(np.int64) << len(masks)
        for i, mask in enumerate(masks):
            code |= mask[idx].astype(np.int64) << i
        uniques, inverse = np.unique(code, return_inverse=True)
        patterns = [[bool((int(u) >> i) & 1) for i in range(len(masks) + 1)] for u in uniques]
    else:  # more resources than bits: compare whole columns (slow, never seen in practice)
        columns = np.vstack([m[idx] for m in masks] + [unresolvable[idx]]).T
        uniq, inverse = np.unique(columns, axis=0, return_inverse=True)
        patterns = [list(map(bool, row)) for row in uniq]
    inverse = np.asarray(inverse).reshape(-1)
    out = []
    for g, pattern in enumerate(patterns):
        mask = np.zeros(len(rejected), dtype=bool)
        mask[idx[inverse == g]] = True
        why = tuple(reasons[i] for i in range(len(masks)) if pattern[i])
        status_code = Code.UNSCHEDULABLE_AND_UNRESOLVABLE if pattern[-1] else Code.UNSCHEDULABLE
        out.append(NodeFailure(mask, why, status_code))
    return out
