"""Plugin interfaces: kube-scheduler's extension points over all nodes of a view at once.

Mirrors `staging/src/k8s.io/kube-scheduler/framework/interface.go`, reshaped for numpy: a filter
plugin answers for every node of the view in one call (a boolean array plus reasons for the
rejected rows) and a score plugin returns an integer array. A *view* is an index array of node
rows (ascending, so in node-name order) over the one `ClusterState`; a placement is just a
smaller view, never a copy.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Generic, Hashable, Mapping, Sequence, TypeVar

import numpy as np

from podgroup_plan.framework.diagnosis import Diagnosis
from podgroup_plan.framework.status import Code, Status
from podgroup_plan.model.objects import GANG, CompositePodGroup, Pod, PodGroup, SpreadSelector
from podgroup_plan.state.cluster import ClusterState

MAX_NODE_SCORE = 100
MIN_NODE_SCORE = 0


T = TypeVar("T")


class StateKey(str, Generic[T]):
    """A CycleState key with the type of what it holds (upstream keys are strings such as
    `"PreFilter" + Name`; this is that string, typed). Declare one per kind of data, e.g.
    `PRE_FILTER_KEY: StateKey[_FitRequest] = StateKey("PreFilterNodeResourcesFit")`, and
    read it back with `cs.read(PRE_FILTER_KEY)`."""

    __slots__ = ()


class CycleState(dict):
    """Scratch space for one pod's scheduling cycle, keyed by `StateKey`s (upstream CycleState)."""

    def read(self, key: StateKey[T]) -> T | None:
        return self.get(key)

    def write(self, key: StateKey[T], value: T) -> None:
        self[key] = value


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
    # (namespace, name) of each CompositePodGroup -> the leaf PodGroups below it, in child
    # order (model/hierarchy.py; empty with the CompositePodGroup gate off): what upstream's
    # helper.GetPodGroupStates walks through the snapshot's CompositePodGroupStates
    composite_leaves: Mapping[tuple[str, str], tuple[tuple[str, str], ...]] = field(default_factory=dict)


class _CannotSign:
    """The fragment of a plugin that cannot sign a pod (upstream: SignPod's non-success status)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "CANNOT_SIGN"


CANNOT_SIGN: Any = _CannotSign()


class Plugin:
    """Base of every plugin. `name` is upstream's plugin name; `args` the decoded pluginConfig
    args (the dataclass in config/args.py for plugins that take args, else None)."""

    name: ClassVar[str] = ""
    # Node-local: the plugin's Filter verdict and raw Score for a node depend only on that node's
    # row of the cluster state and on the pod fields `sign` returns, so the framework keeps them
    # per pod signature and recomputes only the nodes that changed (framework/node_cache.py).
    # Spreading and inter-pod affinity look across domains: not node-local.
    node_local: ClassVar[bool] = False
    # Static (node-local plugins only): the Filter verdict reads only what never changes inside a
    # ClusterState (labels, taints, cordons, the node's name), so it is shared by every signature
    # whose static part (the fragments of the static plugins) is the same.
    static: ClassVar[bool] = False
    # Reads pods: the plugin's Filter or Score can read the pods on the nodes themselves (their
    # host ports, their labels across a domain), not only a node's usage columns (requested
    # resources, pod count) and static fields, for some pods (`reads_pods_of` says which). For a
    # pod that no plugin of its profile reads pods for, adding or removing pods is modelled as a
    # shift of the usage columns (framework/columns.py: preemption's victims, Filter's nominated
    # pods, the kept group cycles), which is exact only then.
    reads_pods: ClassVar[bool] = False

    def __init__(self, args: Any = None, handle: Handle | None = None):
        self.args = args
        self.handle = handle or Handle()

    def reads_pods_of(self, pod: Pod) -> bool:
        """Whether this plugin's Filter or Score of `pod` reads the pods on the nodes (only a
        plugin that `reads_pods` may answer True; tests/plugins/test_signatures.py checks that
        a False answer holds up against pods replaced by their usage)."""
        return False

    def requeue_after_bindings(self, failed: Pod, added: Callable[[], Sequence[Pod]]) -> bool:
        """This plugin's queueing hint for pods bound since `failed` was rejected by it (upstream's
        EventsToRegister with a Pod/Add event and its QueueingHintFn): whether those bindings may
        cure the rejection, so the pod is worth another cycle before anything is evicted.
        `added()` gives the pods bound since, in binding order. Most rejections (resources,
        taints, ports, node affinity) cannot be cured by other pods arriving."""
        return False

    @classmethod
    def extension_points(cls) -> tuple[str, ...]:
        """The extension points the plugin implements, from its base classes (upstream asks
        the plugin's Go interfaces), in the configuration's order."""
        return tuple(point for point, base in _EXTENSION_POINT_BASES if issubclass(cls, base))

    @classmethod
    def create(cls, args: Any, handle: Handle, framework: Any) -> "Plugin":
        """The registry's factory (upstream's PluginFactory(args, handle)): how a framework makes
        the plugin. `framework` is the one making it, for plugins that call back into it (upstream
        gives them the framework as their handle: DefaultPreemption)."""
        return cls(args, handle)

    def sign(self, pod: Pod) -> Hashable:
        """The pod's signature fragment (upstream's SignPlugin.SignPod): every pod field this
        plugin's Filter and Score read, as a hashable value, so that two pods with equal
        fragments get equal verdicts and raw scores on every node. `CANNOT_SIGN`: the plugin
        cannot sign this pod, and the framework keeps nothing for it. Only node-local plugins
        are asked; tests/plugins/test_signatures.py checks every one against pods that differ
        in one field."""
        return CANNOT_SIGN

    def sign_filter(self, pod: Pod) -> Hashable:
        """The part of `sign` that Filter reads: for a static plugin, the key of the static
        layer (`framework/node_cache.py`), shared by pods that differ only in what Score reads.
        A plugin whose Score reads more than its Filter narrows it; its `sign` still carries the
        whole (the framework adds it through the plugin's place among the cached scorers)."""
        return self.sign(pod)


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

    def uniform_score(self, cs: CycleState, pod: Pod, state: "ClusterState") -> int | None:
        """After PreScore: the normalised score that Score and NormalizeScore would give every
        node of any non-empty feasible set, when the plugin knows it without scoring them (e.g.
        TaintToleration where no node has a PreferNoSchedule taint the pod does not tolerate);
        None otherwise (the default). The runtime then adds it to every node's total instead
        of scoring: the same totals."""
        return None


def default_normalize_score(scores: np.ndarray, reverse: bool, max_priority: int = MAX_NODE_SCORE) -> np.ndarray:
    """framework helper DefaultNormalizeScore: scale to [0, max_priority] by the maximum
    (integer division), optionally reversed. With a zero maximum, reverse gives max_priority
    everywhere and no reverse leaves the scores unchanged."""
    if scores.size == 0:
        return scores
    top = int(scores.max())
    if top == 0:
        if reverse:
            out = np.empty_like(scores)  # np.full_like's Python wrapper costs more than the fill
            out.fill(max_priority)
            return out
        return scores
    out = max_priority * scores // top
    if reverse:
        out = max_priority - out
    return out


# ----- group extension points ------------------------------------------------------------------
#
# kube-scheduler 1.37 adds extension points that act on a whole PodGroup (KEP-4671, KEP-5732,
# KEP-5710; `staging/src/k8s.io/kube-scheduler/framework/interface.go`). They are declared here
# like the per-pod ones, and run only through `Framework.run_*` (framework/runtime.py), so a
# configuration that disables or reweighs a plugin changes every caller at once.

MIN_PLACEMENT_SCORE = 0
MAX_PLACEMENT_SCORE = 100


@dataclass(frozen=True, slots=True)
class Placement:
    """A candidate node subset for a group (upstream fwk.Placement). `name` is the topology
    domain (label value); None for a parent placement passed through unchanged (no topology
    constraint, or the whole cluster). `nodes` is a view: ascending node rows of the one
    ClusterState, never a copy of node data."""

    name: str | None
    nodes: np.ndarray


@dataclass(frozen=True, slots=True)
class PlacementProgress:
    """What PlacementFeasible judges (upstream framework.PlacementProgress)."""

    remaining: int  # pods (or child groups) still to evaluate
    scheduled: int  # pods (or child groups) already scheduled plus those placed so far


@dataclass(frozen=True, slots=True)
class PodGroupAssignments:
    """A feasible placement with the pods its trial proposed (upstream fwk.PodGroupAssignments):
    (pod, node row) for every pod that got a node, in evaluation order."""

    placement: Placement
    assignments: tuple[tuple[Pod, int], ...]


@dataclass(frozen=True, slots=True)
class PodGroupGate:
    """What a PreEnqueue plugin may know about the pod's group: the group (None when the pod
    names a PodGroup that is not in the input), its name, and AllPodsCount (every member the
    scheduler knows, scheduled or pending)."""

    group: PodGroup | None
    name: str
    known_pods: int


Group = PodGroup | CompositePodGroup


def required_count(group: Group) -> int:
    """minCount (minGroupCount for a CompositePodGroup); a basic policy counts as 1."""
    if group.policy != GANG:
        return 1
    return group.min_group_count if isinstance(group, CompositePodGroup) else group.min_count


class PreEnqueuePlugin(Plugin):
    def pre_enqueue(self, pod: Pod, podgroup: PodGroupGate | None) -> Status:
        """Success admits the pod to the queue; anything else keeps it waiting with that
        message. `podgroup` is None when the caller asks about the pod alone (its group's
        facts are not gathered yet); a plugin that judges groups then answers Success."""
        raise NotImplementedError


def default_queue_key(priority: int, timestamp: str | None, namespace: str, name: str) -> tuple:
    """PrioritySort's order (plugins/priority_sort.py), which a framework without a QueueSort
    plugin uses too: higher priority first, then the earlier timestamp (objects without one
    after those with one), then namespace and name, so the order never depends on file order."""
    return (-priority, timestamp is None, timestamp or "", namespace, name)


class QueueSortPlugin(Plugin):
    def queue_key(self, priority: int, timestamp: str | None, namespace: str, name: str) -> tuple:
        """A sort key: entities with smaller keys leave the queue first (upstream Less)."""
        raise NotImplementedError


class PlacementGeneratePlugin(Plugin):
    def generate_placements(
        self, group: Group, parent: Placement, state: "ClusterState"
    ) -> tuple[list[Placement], Status]:
        """Candidate placements for `group` inside `parent`."""
        raise NotImplementedError


class PlacementFeasiblePlugin(Plugin):
    def placement_feasible(self, group: Group, progress: PlacementProgress) -> Status:
        """Success, Wait (not yet, keep going) or Unschedulable (out of reach: stop)."""
        raise NotImplementedError


class PermitPlugin(Plugin):
    def permit(self, pod: Pod, group: PodGroup | None, scheduled: int) -> Status:
        """At submit, after the pod is assumed and reserved: Success lets it bind, Wait holds
        it in the binding cycle. `scheduled` counts the group's assumed and bound pods, this one
        included."""
        raise NotImplementedError


class PlacementScorePlugin(Plugin):
    def score_placement(
        self, group: Group, assignments: PodGroupAssignments, state: "ClusterState"
    ) -> tuple[int, Status]:
        raise NotImplementedError

    def normalize_placement_scores(self, group: Group, scores: Any) -> tuple[Any, Status]:
        """NormalizePlacementScore; the default (no PlacementScoreExtensions) keeps raw scores.
        `scores` is a list of ints (the general path) or an int64 array (kept trials), and the
        answer is of the same kind."""
        return scores, Status()


class PostFilterPlugin(Plugin):
    def post_filter(
        self, cs: CycleState, pod: Pod, state: "ClusterState", diagnosis: "Diagnosis"
    ) -> tuple[Any, Status]:
        """Runs for a single pod that fits nowhere (preemption). Returns (result, status)."""
        raise NotImplementedError


# The root group algorithm, re-run by a PodGroupPostFilter plugin against the state as it has
# changed it (workload-aware preemption, upstream PodGroupSchedulingFunc): returns the proposed
# (pod, node row) assignments and the root status, committing nothing.
PodGroupSchedulingFunc = Callable[[], tuple[Sequence[tuple[Pod, int]], Status]]


class PodGroupPostFilterPlugin(Plugin):
    def pod_group_post_filter(
        self, root: Group, pods: Sequence[Pod], state: "ClusterState", scheduling_func: PodGroupSchedulingFunc
    ) -> tuple[Any, Status]:
        """Runs once for a root group whose cycle ended Unschedulable. Returns (result, status)."""
        raise NotImplementedError


# extension point (the configuration's name, config/profile.py's EXTENSION_POINTS order) -> the
# interface a plugin implements to serve it
_EXTENSION_POINT_BASES: tuple[tuple[str, type[Plugin]], ...] = (
    ("preEnqueue", PreEnqueuePlugin),
    ("queueSort", QueueSortPlugin),
    ("preFilter", PreFilterPlugin),
    ("filter", FilterPlugin),
    ("postFilter", PostFilterPlugin),
    ("preScore", PreScorePlugin),
    ("score", ScorePlugin),
    ("permit", PermitPlugin),
    ("placementGenerate", PlacementGeneratePlugin),
    ("placementFeasible", PlacementFeasiblePlugin),
    ("placementScore", PlacementScorePlugin),
    ("podGroupPostFilter", PodGroupPostFilterPlugin),
)
