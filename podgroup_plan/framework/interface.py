"""Plugin interfaces: kube-scheduler's extension points over all nodes of a view at once.

Mirrors `staging/src/k8s.io/kube-scheduler/framework/interface.go`, reshaped for numpy: a filter
plugin answers for every node of the view in one call (a boolean array plus reasons for the
rejected rows) and a score plugin returns an integer array. A *view* is an index array of node
rows (ascending, so in node-name order) over the one `ClusterState`; a placement is just a
smaller view, never a copy.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Mapping

import numpy as np

from podgroup_plan.framework.status import Code, Status
from podgroup_plan.model.objects import Pod, SpreadSelector

if TYPE_CHECKING:  # pragma: no cover
    from podgroup_plan.state.cluster import ClusterState

MAX_NODE_SCORE = 100
MIN_NODE_SCORE = 0


class CycleState(dict):
    """Scratch space for one pod's scheduling cycle, keyed by plugin name (upstream CycleState)."""


@dataclass(frozen=True, slots=True)
class NodeFailure:
    """Nodes of the view that a filter plugin rejected for the same reason(s)."""

    mask: np.ndarray  # bool, one entry per node of the view
    reasons: tuple[str, ...]
    code: Code = Code.UNSCHEDULABLE


@dataclass(slots=True)
class FilterVerdict:
    """A filter plugin's answer for every node of a view.

    `passed[i]` is True when node view[i] passes. Every rejected node is covered by at least one
    failure mask; a node may carry several reasons (e.g. `Insufficient cpu` and
    `Insufficient memory`), each counted in the FitError histogram.
    """

    passed: np.ndarray
    failures: list[NodeFailure] = field(default_factory=list)

    @staticmethod
    def all_pass(n: int) -> "FilterVerdict":
        return FilterVerdict(np.ones(n, dtype=bool), [])

    @staticmethod
    def reject_where(
        rejected: np.ndarray, reason: str, code: Code = Code.UNSCHEDULABLE
    ) -> "FilterVerdict":
        """One reason for every rejected node."""
        return FilterVerdict(~rejected, [NodeFailure(rejected, (reason,), code)] if rejected.any() else [])


@dataclass(frozen=True, slots=True)
class PreFilterResult:
    """PreFilter's answer: a status and, optionally, the only node names worth filtering."""

    status: Status = Status()
    node_names: frozenset[str] | None = None


@dataclass(frozen=True)
class Handle:
    """What plugins may know about the input beyond the cluster state (upstream framework.Handle,
    kept small on purpose)."""

    spread_selectors: tuple[SpreadSelector, ...] = ()
    namespace_labels: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    feature_gates: Mapping[str, bool] = field(default_factory=dict)


class Plugin:
    """Base of every plugin. `name` is upstream's plugin name; `args` the decoded pluginConfig
    args (the dataclass in framework/args.py for plugins that take args, else None)."""

    name: ClassVar[str] = ""

    def __init__(self, args: Any = None, handle: Handle | None = None):
        self.args = args
        self.handle = handle or Handle()


class PreFilterPlugin(Plugin):
    def pre_filter(
        self, cs: CycleState, pod: Pod, state: "ClusterState", view: np.ndarray
    ) -> PreFilterResult:
        raise NotImplementedError


class FilterPlugin(Plugin):
    def filter(
        self, cs: CycleState, pod: Pod, state: "ClusterState", view: np.ndarray
    ) -> FilterVerdict:
        raise NotImplementedError


class PreScorePlugin(Plugin):
    def pre_score(
        self, cs: CycleState, pod: Pod, state: "ClusterState", feasible: np.ndarray
    ) -> Status:
        """Return a SKIP status to leave this plugin's Score out for this pod."""
        raise NotImplementedError


class ScorePlugin(Plugin):
    def score(
        self, cs: CycleState, pod: Pod, state: "ClusterState", feasible: np.ndarray
    ) -> np.ndarray:
        """Raw scores (int64), one per node of `feasible`."""
        raise NotImplementedError

    def normalize(self, cs: CycleState, pod: Pod, scores: np.ndarray) -> np.ndarray:
        """NormalizeScore; the default leaves raw scores as they are."""
        return scores


def default_normalize_score(scores: np.ndarray, reverse: bool, max_priority: int = MAX_NODE_SCORE) -> np.ndarray:
    """framework helper DefaultNormalizeScore: scale to [0, max_priority] by the maximum
    (integer division), optionally reversed. With a zero maximum, reverse gives max_priority
    everywhere and no reverse leaves the scores unchanged."""
    if scores.size == 0:
        return scores
    top = int(scores.max())
    if top == 0:
        if reverse:
            return np.full_like(scores, max_priority)
        return scores
    out = max_priority * scores // top
    if reverse:
        out = max_priority - out
    return out
