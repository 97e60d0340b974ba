"""The framework runtime for one profile: runs each extension point's plugins in order.

Mirrors `pkg/scheduler/framework/runtime/framework.go` (RunPreFilterPlugins, RunFilterPlugins,
RunPreScorePlugins, RunScorePlugins), with every plugin answering for all nodes of a view at once,
and the group extension points of 1.37 (RunPreEnqueuePlugins, QueueSortFunc,
RunPlacementGeneratePlugins, RunPlacementFeasiblePlugins, RunPlacementScorePlugins,
RunPostFilterPlugins, RunPodGroupPostFilterPlugins). The queue and the group cycles call these
`run_*` methods, never a plugin by name, so a profile that disables or reweighs a plugin changes
every caller at once.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

import numpy as np

from podgroup_plan.config import defaults
from podgroup_plan.config.profile import Profile
from podgroup_plan.framework.diagnosis import Diagnosis
from podgroup_plan.framework.interface import (
    CANNOT_SIGN,
    MAX_NODE_SCORE,
    MAX_PLACEMENT_SCORE,
    MIN_PLACEMENT_SCORE,
    CycleState,
    FilterPlugin,
    Group,
    Handle,
    Placement,
    PlacementFeasiblePlugin,
    PlacementGeneratePlugin,
    PlacementProgress,
    PlacementScorePlugin,
    Plugin,
    PodGroupAssignments,
    PodGroupGate,
    PodGroupPostFilterPlugin,
    PodGroupSchedulingFunc,
    PostFilterPlugin,
    PreEnqueuePlugin,
    PreFilterPlugin,
    PreScorePlugin,
    QueueSortPlugin,
    ScorePlugin,
    StateKey,
    default_queue_key,
)
from podgroup_plan.framework.node_cache import CacheEntry, NodeLocalCache
from podgroup_plan.framework.nominator import Nominator
from podgroup_plan.framework.observer import CycleObserver
from podgroup_plan.framework.placement_cache import PlacementCache
from podgroup_plan.framework.preemption.context import PreemptionContext
from podgroup_plan.framework.status import Code, Status
from podgroup_plan.model.objects import Pod
from podgroup_plan.state.cluster import ClusterState
from podgroup_plan.state.derived import HashedTuple

# The framework's own CycleState data (typed keys, not magic strings).
SKIP_FILTER_KEY: StateKey[frozenset[str]] = StateKey("framework/skipFilter")  # PreFilter's Skips
SIGNATURE_KEY: StateKey[HashedTuple] = StateKey("framework/signature")  # Framework.pod_signature
CACHE_ENTRY_KEY: StateKey[CacheEntry] = StateKey("framework/signatureCacheEntry")  # Filter's, for Score

class _Unsigned:
    """The signature part of a pod some plugin cannot sign: equal to itself only."""

    __slots__ = ("pod",)

    def __init__(self, pod: Pod):
        self.pod = pod

    def __hash__(self) -> int:
        return id(self.pod)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Unsigned) and other.pod is self.pod


# RunPlacementGeneratePlugins' answer to a generator that made no candidate (v1.37.0).
NO_FEASIBLE_PLACEMENTS = "no feasible placements found"


@dataclass(frozen=True, slots=True)
class PlacementScore:
    """One feasible placement's scores: per plugin the normalised, unweighted score, and the
    weighted total (upstream fwk.PlacementScore with its per-plugin Scores)."""

    placement: Placement
    scores: dict[str, int]
    total: int


class Framework:
    """One profile's instantiated plugins. Plugin instances are shared between the extension
    points they serve (as upstream), so their per-signature caches are too."""

    def __init__(
        self,
        profile: Profile,
        handle: Handle,
        registry: Mapping[str, type[Plugin]],
        *,
        nominator: Nominator | None = None,
        observer: CycleObserver | None = None,
        preemption: PreemptionContext | None = None,
        placement_cache: PlacementCache | None = None,
    ):
        """upstream runtime.NewFramework(registry, profile, opts...): `registry` maps the plugin
        names a profile may enable to their classes (plugins/registry.py for the in-tree ones;
        a name it lacks is a plugin that is not applied). The rest is what a cycle uses beyond
        the plugins: the plan's PodNominator, shared by every profile (None: the input's
        status.nominatedNodeName is used); an observer of the cycles (`explain`'s; None in
        every other run); the plan-wide context of preemption (victim units, budgets; None:
        DefaultPreemption answers with an error); and the kept placement trials (a new one
        unless given)."""
        self.profile = profile
        self.handle = handle
        self.registry = registry
        self.nominator = nominator
        self.observer = observer
        self.preemption = preemption
        self.placement_cache = placement_cache if placement_cache is not None else PlacementCache()
        self._instances: dict[str, Plugin] = {}
        # framework/columns.py's answers per pod key (whether its Filter and Score read only
        # usage columns under this profile's plugins)
        self.reads_columns_only: dict[tuple[str, str], bool] = {}
        self.pre_filter: list[PreFilterPlugin] = self._at("preFilter", PreFilterPlugin)
        self.filter: list[FilterPlugin] = self._at("filter", FilterPlugin)
        self.pre_score: list[PreScorePlugin] = self._at("preScore", PreScorePlugin)
        self.score: list[tuple[ScorePlugin, int]] = [
            (p, w) for p, w in self._weighted("score", ScorePlugin)
        ]
        self.post_filter: list[PostFilterPlugin] = self._at("postFilter", PostFilterPlugin)
        # group extension points
        self.pre_enqueue: list[PreEnqueuePlugin] = self._at("preEnqueue", PreEnqueuePlugin)
        self.queue_sort: list[QueueSortPlugin] = self._at("queueSort", QueueSortPlugin)
        self.placement_generate: list[PlacementGeneratePlugin] = self._at("placementGenerate", PlacementGeneratePlugin)
        self.placement_feasible: list[PlacementFeasiblePlugin] = self._at("placementFeasible", PlacementFeasiblePlugin)
        self.placement_score: list[tuple[PlacementScorePlugin, int]] = self._weighted("placementScore", PlacementScorePlugin)
        self.pod_group_post_filter: list[PodGroupPostFilterPlugin] = self._at("podGroupPostFilter", PodGroupPostFilterPlugin)
        # Rotating start for percentageOfNodesToScore (upstream nextStartNodeIndex), from 0.
        self.next_start_node_index = 0
        self._build_cache()

    def use_plugins(self, filter: list | None = None, score: list | None = None) -> None:
        """Replace the filter / score plugin instances (tests use fake plugins this way)."""
        if filter is not None:
            self.filter = list(filter)
        if score is not None:
            self.score = list(score)
        self._build_cache()

    def _build_cache(self) -> None:
        # The leading node-local filters and every node-local scorer share per-signature work.
        n_local = 0
        while n_local < len(self.filter) and self.filter[n_local].node_local:
            n_local += 1
        self._cached_filters = self.filter[:n_local]
        # The instances whose Filter or Score may read the pods on the nodes (Plugin.reads_pods),
        # each once, for framework/columns.py's pod_reads_columns_only.
        readers: dict[int, Plugin] = {}
        for plugin in [*self.filter, *(p for p, _ in self.score)]:
            if plugin.reads_pods:
                readers.setdefault(id(plugin), plugin)
        self.pod_readers: tuple[Plugin, ...] = tuple(readers.values())
        self.reads_columns_only.clear()
        self._other_filters = self.filter[n_local:]
        self._cached_scorers = {p.name for p, _ in self.score if p.node_local}
        # The plugins whose signature fragments make the pod's signature: the static ones
        # (leading the cached filters) key the static layer, all of them the entry.
        n_static = 0
        while n_static < n_local and self.filter[n_static].static:
            n_static += 1
        self._static_signers = self.filter[:n_static]
        self._other_signers = self.filter[n_static:n_local] + [p for p, _ in self.score if p.name in self._cached_scorers]
        self._score_plans: dict[tuple, tuple] = {}  # see _score_plan
        self._cached_skip_sets: dict[frozenset[str], frozenset[str]] = {}  # PreFilter's Skips -> the cached filters
        self.cache = NodeLocalCache(self._cached_filters, [p for p, _ in self.score if p.name in self._cached_scorers])

    @property
    def scheduler_name(self) -> str:
        return self.profile.scheduler_name

    def plugin(self, name: str) -> Plugin | None:
        """The instance of plugin `name`, creating it on first use."""
        if name in self._instances:
            return self._instances[name]
        cls = self.registry.get(name)
        if cls is None:  # not modelled, or not implemented yet (outcome.py says which)
            return None
        inst = cls.create(self.profile.plugin_args.get(name), self.handle, self)
        self._instances[name] = inst
        return inst

    def enabled_names(self, extension_point: str) -> list[str]:
        return [ref.name for ref in self.profile.enabled(extension_point)]

    def _at(self, point: str, kind: type) -> list:
        out = []
        for ref in self.profile.enabled(point):
            inst = self.plugin(ref.name)
            if isinstance(inst, kind):
                out.append(inst)
        return out

    def _weighted(self, point: str, kind: type) -> list[tuple]:
        out = []
        for ref in self.profile.enabled(point):
            inst = self.plugin(ref.name)
            if isinstance(inst, kind):
                out.append((inst, ref.weight or 1))
        return out

    # ----- PreFilter -------------------------------------------------------------------------

    def run_pre_filter(
        self, cs: CycleState, pod: Pod, state: ClusterState, view: np.ndarray
    ) -> tuple[Status, frozenset[str] | None, list[str]]:
        """Returns (status, node names all plugins allow or None for all, plugins that narrowed
        the node set). A rejecting status ends the pod's cycle with that message."""
        allowed: frozenset[str] | None = None
        narrowing: list[str] = []
        skipped: set[str] = set()
        for plugin in self.pre_filter:
            result = plugin.pre_filter(cs, pod, state, view)
            status = result.status
            if status.is_skip():
                skipped.add(plugin.name)
                continue
            if not status.is_success():
                return Status(status.code, status.reasons, plugin.name), None, [plugin.name]
            if result.node_names is not None:
                narrowing.append(plugin.name)
                allowed = result.node_names if allowed is None else allowed & result.node_names
                if not allowed:
                    if len(narrowing) == 1:
                        msg = f"node(s) didn't satisfy plugin {narrowing[0]}"
                    else:
                        msg = f"node(s) didn't satisfy plugin(s) [{' '.join(sorted(narrowing))}] simultaneously"
                    return Status(Code.UNSCHEDULABLE, (msg,)), None, narrowing
        cs.write(SKIP_FILTER_KEY, frozenset(skipped))
        return Status(), allowed, narrowing

    # ----- Filter ----------------------------------------------------------------------------

    def run_filter(
        self, cs: CycleState, pod: Pod, state: ClusterState, view: np.ndarray, diagnosis: Diagnosis,
        fresh: bool = False,
    ) -> np.ndarray:
        """Boolean mask over `view`: nodes that pass every filter. For each rejected node only
        the first rejecting plugin's reasons are recorded, as upstream stops at the first
        failure per node. The leading node-local filters come from the signature cache."""
        skipped = cs.read(SKIP_FILTER_KEY) or frozenset()
        # Only the cached plugins' skips belong in the cache key (others would split entries).
        cached_skips = self._cached_skip_sets.get(skipped)
        if cached_skips is None:
            cached_skips = self._cached_skip_sets[skipped] = frozenset(
                p.name for p in self._cached_filters if p.name in skipped)
        if fresh:
            # computed for `view` from the state as it is now, bypassing (and not touching) the
            # signature cache: the state holds a change the node versions do not show
            alive, fail_id = self.cache.fresh_rows(self._signature(cs, pod), cs, pod, state, view, cached_skips)
        else:
            entry = self.cache.filter_entry(self._signature(cs, pod), cs, pod, state, cached_skips)
            cs.write(CACHE_ENTRY_KEY, entry)
        if not fresh and view is state.all_nodes:
            # The usual single-pod cycle: the entry keeps every node's code and the count per
            # failure id, so the diagnosis costs two copies (none when the entry is this pod's
            # own: transient, kept nowhere).
            assert entry.codes is not None  # filled by filter_entry
            alive = entry.passed if entry.transient else entry.passed.copy()
            codes = entry.codes if entry.transient else entry.codes.copy()
            counts = self.cache.counts(entry)
            ids = sorted(fid for fid, count in counts.items() if count)
        else:
            if not fresh:
                alive = entry.passed[view]
                fail_id = entry.fail_id[view]
            # Failure ids are small integers (the cache's failure table): count them with one
            # bincount (shifted so that -1, passed, lands in bin 0) rather than a sort, and look
            # the codes up in one gather.
            shifted = fail_id + 1
            binned = np.bincount(shifted, minlength=1)
            found = np.flatnonzero(binned[1:])
            ids = found.tolist()
            counts = dict(zip(ids, binned[found + 1].tolist()))
            codes = self.cache.shifted_codes().take(shifted) if ids else np.zeros(len(view), dtype=np.int8)
        # ids ascending, so the reasons are added in the same order whichever way they came
        for fid in ids:
            failed_plugin, reasons, _ = self.cache.failures[fid]
            diagnosis.unschedulable_plugins.add(failed_plugin)
            for reason in reasons:
                diagnosis.add(reason, counts[fid])
        for plugin in self._other_filters:
            if plugin.name in skipped or not alive.any():
                continue
            verdict = plugin.filter(cs, pod, state, view)
            newly = alive > verdict.passed  # alive and not passed
            if not newly.any():
                continue
            diagnosis.unschedulable_plugins.add(plugin.name)
            for failure in verdict.failures:
                hit = failure.mask & newly
                hits = int(np.count_nonzero(hit))
                if hits:
                    for reason in failure.reasons:
                        diagnosis.add(reason, hits)
                    # codes are >= 0, so a 0 where not hit changes nothing (a masked ufunc
                    # costs about ten times more)
                    np.maximum(codes, hit * np.int8(int(failure.code)), out=codes)
            alive &= verdict.passed  # `alive` is this call's own array
        diagnosis.node_codes = codes
        return alive

    def pod_signature(self, pod: Pod) -> HashedTuple | None:
        """The pod's scheduling signature for this profile (upstream's SignPlugin fragments of
        every plugin the signature cache serves): (the static plugins' fragments, the others').
        Pods with equal signatures get equal cached verdicts and raw scores on every node.
        None when a plugin cannot sign the pod (`CANNOT_SIGN`): then nothing is kept for it."""
        static = tuple(p.sign_filter(pod) for p in self._static_signers)
        rest = tuple(p.sign(pod) for p in self._other_signers)
        if any(f is CANNOT_SIGN for f in static) or any(f is CANNOT_SIGN for f in rest):
            return None
        return HashedTuple((HashedTuple(static), HashedTuple(rest)))

    def _signature(self, cs: CycleState, pod: Pod) -> HashedTuple:
        sig = cs.read(SIGNATURE_KEY)
        if sig is None:
            sig = self.pod_signature(pod)
            if sig is None:  # unsigned: an entry of its own, shared with no other pod
                sig = HashedTuple((HashedTuple((_Unsigned(pod),)), HashedTuple(())))
            cs.write(SIGNATURE_KEY, sig)
        return sig

    # ----- PreScore and Score ----------------------------------------------------------------

    def run_pre_score(self, cs: CycleState, pod: Pod, state: ClusterState,
                      feasible: np.ndarray) -> tuple[Status, frozenset[str]]:
        """RunPreScorePlugins: (Success, the plugins that answered Skip), or the first answer
        that is neither, as the Error `running PreScore plugin "NAME": MESSAGE` that ends the
        pod's cycle (schedulePod returns prioritizeNodes' error)."""
        skipped = []
        for plugin in self.pre_score:
            status = plugin.pre_score(cs, pod, state, feasible)
            if status.is_skip():
                skipped.append(plugin.name)
            elif not status.is_success():
                return Status(Code.ERROR, (f'running PreScore plugin "{plugin.name}": {status.message}',),
                              plugin.name), frozenset()
        return Status(), frozenset(skipped)

    def run_score(self, cs: CycleState, pod: Pod, state: ClusterState, feasible: np.ndarray,
                  skipped: frozenset[str]) -> np.ndarray:
        """Weighted total score per node of `feasible` (int64), after run_pre_score (`skipped`:
        the plugins whose PreScore answered Skip)."""
        entry = cs.read(CACHE_ENTRY_KEY)
        if entry is not None and self.cache.score_directly(entry):
            entry = None  # scored at the feasible nodes only, as without the cache
        cached, summed, rest = self._score_plan(skipped, entry is not None)
        if summed:
            assert entry is not None  # _score_plan sums only with an entry
            self.cache.raw_scores(entry, cs, pod, state, cached, summed)
            assert entry.plain_sum is not None  # raw_scores fills it
            total = entry.plain_sum[feasible]  # a gather: this call's own array
        else:
            if cached:
                assert entry is not None
                self.cache.raw_scores(entry, cs, pod, state, cached, summed)
            total = np.zeros(len(feasible), dtype=np.int64)
        for plugin, weight, from_cache, final in rest:
            uniform = plugin.uniform_score(cs, pod, state)
            if uniform is not None:  # the same score on every node: no gather, no pass
                if uniform < 0 or uniform > MAX_NODE_SCORE:
                    raise AssertionError(f"plugin {plugin.name} returned a score outside [0, {MAX_NODE_SCORE}]")
                total += uniform * weight
                continue
            if from_cache:
                assert entry is not None
                raw = entry.raw[plugin.name][feasible]
            else:
                raw = plugin.score(cs, pod, state, feasible)
            if final:  # summed as it is, as the cache's plain_sum sums it
                raw = np.asarray(raw, dtype=np.int64)
                total += raw * weight if weight != 1 else raw
                continue
            scores = plugin.normalize(cs, pod, np.asarray(raw, dtype=np.int64))
            if scores.size and (scores.min() < 0 or scores.max() > MAX_NODE_SCORE):
                raise AssertionError(
                    f"plugin {plugin.name} returned a score outside [0, {MAX_NODE_SCORE}]"
                )
            total += scores * weight if weight != 1 else scores
        return total

    def _score_plan(self, skipped: frozenset[str], have_entry: bool) -> tuple:
        """For one set of PreScore-skipped plugins: (the cached scorers with weights, those of
        them summed without normalisation, the other (plugin, weight, from the cache, final)
        in profile order), worked out once per set instead of for every pod. `final`: a
        node-local scorer without NormalizeScore asked directly (no cache entry), whose raw
        score is added as it is, as the cache's plain sum adds it (no normalisation call, no
        range check: these plugins score within [0, MaxNodeScore] by construction)."""
        key = (skipped, have_entry)
        plan = self._score_plans.get(key)
        if plan is None:
            cached = [(p, w) for p, w in self.score if p.name in self._cached_scorers and p.name not in skipped]
            plain = frozenset(p.name for p, _ in cached if type(p).normalize is ScorePlugin.normalize)
            summed: frozenset[str] = frozenset()
            if cached and have_entry:
                summed = plain
            else:
                cached = []
            rest = [(p, w, have_entry and p.name in self._cached_scorers, not have_entry and p.name in plain)
                    for p, w in self.score if p.name not in skipped and p.name not in summed]
            plan = self._score_plans[key] = (cached, summed, rest)
        return plan

    # ----- PreEnqueue and QueueSort -----------------------------------------------------------

    def run_pre_enqueue(self, pod: Pod, podgroup: PodGroupGate | None = None) -> Status:
        """RunPreEnqueuePlugins: the first non-Success status, carrying its plugin's name."""
        for plugin in self.pre_enqueue:
            status = plugin.pre_enqueue(pod, podgroup)
            if not status.is_success():
                return Status(status.code, status.reasons, plugin.name, status.err)
        return Status()

    def queue_key(self, priority: int, timestamp: str | None, namespace: str, name: str) -> tuple:
        """The profile's QueueSort order (all profiles share one, as upstream requires); without
        a QueueSort plugin, the default order (`interface.default_queue_key`, PrioritySort's)."""
        if self.queue_sort:
            return self.queue_sort[0].queue_key(priority, timestamp, namespace, name)
        return default_queue_key(priority, timestamp, namespace, name)

    # ----- Placement ------------------------------------------------------------------------

    def run_placement_generate(self, group: Group, parent: Placement, state: ClusterState) -> tuple[list[Placement], Status]:
        """RunPlacementGeneratePlugins (v1.37.0): with no plugin the parent placement is the one
        candidate; otherwise only the first plugin runs (v1.37.0 has one in-tree generator,
        TopologyPlacementGenerator). Its failure is returned with its name; an empty list is the
        runner's own Unschedulable `no feasible placements found` (e.g. no node of the parent
        carries the group's topology key), the whole text of the group's status."""
        if not self.placement_generate:
            return [parent], Status()
        plugin = self.placement_generate[0]
        generated, status = plugin.generate_placements(group, parent, state)
        if not status.is_success():
            return [], Status(status.code, status.reasons, plugin.name, status.err)
        if not generated:
            return [], Status(Code.UNSCHEDULABLE, (NO_FEASIBLE_PLACEMENTS,), plugin.name)
        # the plugin's own list, unchanged (a generator that keeps its split of a parent returns
        # the same list object, which kept trials recognise)
        return generated, Status()

    def run_placement_feasible(self, group: Group, progress: PlacementProgress) -> Status:
        """RunPlacementFeasiblePlugins: the first status that is not Success (Wait,
        Unschedulable, Error); Success when every plugin agrees or none is enabled (v1.37.0:
        GangScheduling is the only one, present iff the profile enables it)."""
        for plugin in self.placement_feasible:
            status = plugin.placement_feasible(group, progress)
            if not status.is_success():
                return status
        return Status()

    def run_placement_score(
        self, group: Group, candidates: list[PodGroupAssignments], state: ClusterState,
        raw: dict[str, list[int]] | None = None,
    ) -> tuple[list[PlacementScore], Status]:
        """RunPlacementScorePlugins: every plugin scores every candidate, normalises its scores,
        and the total is Σ weight × score (as RunScorePlugins weighs node scores). `raw` may
        hold already known raw scores per plugin (the placement result cache)."""
        per_plugin: dict[str, list[int]] = {}
        for plugin, _ in self.placement_score:
            known = raw.get(plugin.name) if raw else None
            if known is not None:
                scores = list(known)
            else:
                scores = []
                for candidate in candidates:
                    value, status = plugin.score_placement(group, candidate, state)
                    if not status.is_success():
                        return [], Status(status.code, status.reasons, plugin.name, status.err)
                    scores.append(value)
            scores, status = plugin.normalize_placement_scores(group, scores)
            if not status.is_success():
                return [], Status(status.code, status.reasons, plugin.name, status.err)
            if any(s < MIN_PLACEMENT_SCORE or s > MAX_PLACEMENT_SCORE for s in scores):
                return [], Status(Code.ERROR, (
                    f"plugin {plugin.name} returns an invalid score, it should in the range of "
                    f"[{MIN_PLACEMENT_SCORE}, {MAX_PLACEMENT_SCORE}] after normalizing",), plugin.name)
            per_plugin[plugin.name] = scores
        weights = {plugin.name: weight for plugin, weight in self.placement_score}
        out = []
        for i, candidate in enumerate(candidates):
            own = {name: values[i] for name, values in per_plugin.items()}
            out.append(PlacementScore(candidate.placement, own, sum(weights[n] * v for n, v in own.items())))
        return out, Status()

    # ----- PostFilter -----------------------------------------------------------------------

    def run_post_filter(self, cs: CycleState, pod: Pod, state: ClusterState, diagnosis: "Diagnosis"):
        """RunPostFilterPlugins: plugins run in order until one returns Success or an Error;
        (None, None) when the profile has no PostFilter plugin."""
        if not self.post_filter:
            return None, None
        result, status = None, Status(Code.UNSCHEDULABLE)
        reasons: list[str] = []
        for plugin in self.post_filter:
            result, status = plugin.post_filter(cs, pod, state, diagnosis)
            if status.is_success() or status.code == Code.ERROR:
                return result, status
            reasons.extend(status.reasons)
        return result, Status(Code.UNSCHEDULABLE, tuple(reasons))

    def run_pod_group_post_filter(self, root: Group, pods, state: ClusterState, scheduling_func: PodGroupSchedulingFunc):
        """RunPodGroupPostFilterPlugins: in order until one returns Success or an Error.
        Returns (outcome, status); the caller appends `status.message` to the group's status
        (applyPodGroupPostFilterResult), even when it is empty.
        * No plugin enabled (e.g. the configuration disables DefaultPreemption): v1.37.0 answers
          Unschedulable with no reason, so an empty reason is appended and the group's text
          ends in `, ` (kept to the character).
        * The planner's own `WorkloadAwarePreemption=false` switch (the extension point gated
          off, not a kube-scheduler gate): (None, None), nothing is appended (README,
          "Deviations")."""
        if not self.pod_group_post_filter:
            if defaults.extension_point_gated_off("podGroupPostFilter", self.handle.feature_gates):
                return None, None
            return None, Status(Code.UNSCHEDULABLE)
        result, status = None, Status(Code.UNSCHEDULABLE)
        for plugin in self.pod_group_post_filter:
            result, status = plugin.pod_group_post_filter(root, pods, state, scheduling_func)
            if status.is_success() or status.code == Code.UNSCHEDULABLE_AND_UNRESOLVABLE:
                return result, status
            if status.code == Code.ERROR:
                # Anything but Success or a rejection is an error, reported under the plugin's
                # name and without its result (RunPodGroupPostFilterPlugins, v1.37.0); it then
                # replaces every group status (applyPodGroupPostFilterResult).
                return None, Status(Code.ERROR, (f'error in "{plugin.name}" PodGroupPostFilter plugins: {status.message}',),
                                    plugin.name)
        return result, status

