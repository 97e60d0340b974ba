"""`Planner`: the configuration resolved once, the frameworks built once, the cluster state, and
a way to try a change and take it back.

    planner = Planner(cluster, scheduler_config=None, feature_gates=None)
    result = planner.plan()                       # what `plan()` returns (byte for byte)
    with planner.tentative() as scope:            # everything inside is taken back on exit...
        planner.submit(pods=[extra_pod])          # ...pending work queued on top of the plan
        after = planner.run()                     # the passes continue as the queue would
        if keep_it:
            scope.commit()                        # ...unless committed
    what_if = planner.derive(smaller_cluster)     # same configuration, another input

What kube-scheduler is to a cluster, a Planner is to one input: `plan()` schedules what the
input holds, as `podgroup_plan.plan()` always did (that function is now this class's
wrapper); `submit()` adds pending work (pods, PodGroups, Workloads, CompositePodGroups, or the
Jobs / JobSets / Deployments / ReplicaSets / StatefulSets whose pods the controllers create,
expanded as the input's are) and `run()` schedules it on the cluster the plan left. Analyses
(how many more gangs fit, what if a rack fails) reuse one Planner: they try inside a
`tentative()` scope, which takes back everything done inside it (bindings, evictions,
nominations, the recorder's records, the queue), instead of calling `plan()` in a loop.

The scopes nest. Taking one back costs what was done inside it (the state's undo log and the
ledgers' journal, state/journal.py), never a copy of the cluster.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager
from dataclasses import fields, replace
from typing import Any, Iterable, Iterator, Mapping

from podgroup_plan.config.configuration import Configuration, resolve_configuration
from podgroup_plan.config.defaults import gate_enabled
from podgroup_plan.errors import InputError, Problem
from podgroup_plan.framework.columns import cluster_reads_columns_only
from podgroup_plan.framework.interface import Handle
from podgroup_plan.framework.nominator import seed
from podgroup_plan.framework.preemption.context import PreemptionContext
from podgroup_plan.framework.preemption.victims import Budgets
from podgroup_plan.framework.preemption.victims import Hierarchy as PreemptionHierarchy
from podgroup_plan.framework.runtime import Framework
from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.hierarchy import Hierarchy, TreeNode, build_hierarchy
from podgroup_plan.model.objects import CompositePodGroup, Pod, PodGroup, Workload
from podgroup_plan.observer import PlanObserver
from podgroup_plan.outcome import Recorder
from podgroup_plan.passes import JournaledNominator, Passes, ProgressFn
from podgroup_plan.plugins import registry
from podgroup_plan.queue import Entity, build_queue
from podgroup_plan.result import PlanResult
from podgroup_plan.state.cluster import ClusterState
from podgroup_plan.state.journal import Journal

GroupKey = tuple[str, str]


class Scope:
    """A tentative scope (`Planner.tentative()`): taken back on exit unless `commit()`ed."""

    __slots__ = ("committed",)

    def __init__(self) -> None:
        self.committed = False

    def commit(self) -> None:
        """Keep what was done inside the scope (an enclosing scope can still take it back)."""
        self.committed = True


class Planner:
    """One input, its resolved configuration, frameworks and cluster state.

    `scheduler_config` (a KubeSchedulerConfiguration as a dict, read from `config_source`) wins
    over one found among the manifests; `feature_gates` holds the gates set (`--feature-gates`),
    the others take the planner's defaults. With `expand`, Jobs, JobSets, Deployments,
    ReplicaSets and StatefulSets get the pods their controllers would create
    (podgroup_plan/controllers). Raises InputError for a bad configuration or bad feature gates.
    `observer` is notified of the cycles, the passes and the outcomes as they happen
    (podgroup_plan/observer.py: `explain`'s tracer); None otherwise. `configuration`: the
    configuration already resolved from these (`resolve_configuration`, as the CLI does while
    reading its input); given, it is used as it is and the three are not read."""

    def __init__(self, cluster: ClusterInput, scheduler_config: Mapping | None = None,
                 feature_gates: Mapping[str, bool] | None = None, *, config_source: str = "<config>",
                 expand: bool = True, observer: PlanObserver | None = None,
                 configuration: Configuration | None = None):
        if configuration is None:
            configuration = resolve_configuration(scheduler_config, feature_gates, cluster.scheduler_config,
                                                  cluster.scheduler_config_source, config_source)
        self._build(configuration, cluster, expand, observer)

    # ----- building ----------------------------------------------------------------------

    def _build(self, configuration: Configuration, cluster: ClusterInput, expand: bool,
               observer: PlanObserver | None) -> None:
        self.configuration = configuration
        self.gates = gates = configuration.gates
        self.expand = expand
        cluster = self._expanded(cluster)
        self.cluster = cluster
        self.journal = Journal()
        # The CompositePodGroup trees, built once (model/hierarchy.py); with the gate off (or
        # GenericWorkload off) every PodGroup goes on its own and the trees are not applied.
        trees = self._trees(cluster)
        self.handle = Handle(cluster.spread_selectors, cluster.namespaces, gates, composite_leaves=_leaves(trees))

        live = [p for p in cluster.pods if p.phase not in ("Succeeded", "Failed")]
        running = [p for p in live if p.is_running]
        pending = [p for p in live if not p.is_running]
        self._input_running = running  # PodDisruptionBudgets count from these (victims.Budgets)
        self.state = ClusterState(cluster.nodes, running, {r for p in pending for r in p.requests})
        # What every profile's cycles share, handed to each framework: the nominations (seeded
        # from the input's status.nominatedNodeName), preemption's victim units and budgets,
        # and the observer (`explain`'s tracer; None otherwise).
        columns_only = cluster_reads_columns_only(cluster, live)
        nominator = JournaledNominator(columns_only, self.journal)
        seed(nominator, pending, self.state)
        preemption = PreemptionContext(
            PreemptionHierarchy(cluster, gates),
            Budgets(cluster.pod_disruption_budgets, running, live),
            columns_only_cluster=columns_only,
            policy_gate=gate_enabled(gates, "PodGroupPreemptionPolicy"),
        )
        self.frameworks: dict[str, Framework] = {
            name: Framework(profile, self.handle, registry.IMPLEMENTED, nominator=nominator, observer=observer,
                            preemption=preemption)
            for name, profile in sorted(configuration.profiles.items())}
        self.record = Recorder(cluster, self.state, gates, self.journal, hierarchy=trees, observer=observer)
        self.trees = trees
        entities = build_queue(cluster, pending, running, self.frameworks, gates, self.record.emit, trees)
        self.passes = Passes(self.state, self.frameworks, gates, self.record, live, nominator, preemption, observer,
                             self.journal)
        self.passes.queue = entities
        # True once the passes ran over everything queued (plan(), run()); submit() clears it
        self.settled = False

    def _expanded(self, cluster: ClusterInput) -> ClusterInput:
        if not cluster.controllers:  # both leave an input without controllers as it is
            return cluster
        # imported here: the controllers' code (and hashlib) is start-up time of every run
        from podgroup_plan.controllers import expand as expand_controllers
        from podgroup_plan.controllers import without_expansion

        return expand_controllers(cluster, self.gates) if self.expand else without_expansion(cluster)

    def _trees(self, cluster: ClusterInput) -> Hierarchy | None:
        if gate_enabled(self.gates, "CompositePodGroup") and gate_enabled(self.gates, "GenericWorkload"):
            return build_hierarchy(cluster)
        return None

    def derive(self, cluster: ClusterInput, *, observer: PlanObserver | None = None) -> "Planner":
        """A new Planner for another input (nodes removed, pods evicted, ...) with this one's
        resolved configuration and feature gates (not resolved again: a configuration found
        among `cluster`'s manifests is not read). Nothing is shared with this Planner's state."""
        other = Planner.__new__(Planner)
        other._build(self.configuration, cluster, self.expand, observer)
        return other

    # ----- planning ------------------------------------------------------------------------

    def plan(self, progress: ProgressFn | None = None) -> PlanResult:
        """Schedule everything queued and return the result: for a new Planner, exactly what
        `podgroup_plan.plan()` returns for its input. `progress(done, total)` is called after
        every scheduling cycle (Passes.run: the cycles so far, and those plus the entities left
        in the pass)."""
        return self.run(progress)

    def run(self, progress: ProgressFn | None = None) -> PlanResult:
        """Run the passes over the queue (what is left of it and what `submit()` added) until a
        pass binds and evicts nothing, and return the result. Nothing to do once settled."""
        if not self.settled:
            # The passes allocate many small objects and no reference cycles worth collecting,
            # while each full collection walks every loaded object (about 0.5 s with 150,000 pods).
            collecting = gc.isenabled()
            gc.disable()
            try:
                self.passes.run(progress)
            finally:
                if collecting:
                    if gc.get_freeze_count() == 0:
                        # Everything allocated meanwhile is still in the youngest generation:
                        # the first collection after this would walk all of it (about 0.1 s at
                        # 10,000 pods). Count it as old instead (freeze, then unfreeze into the
                        # oldest generation): it stays collectable, by the full collections.
                        # (Not when the caller froze objects of its own: unfreezing would
                        # release them too.)
                        gc.freeze()
                        gc.unfreeze()
                    gc.enable()
            self.journal.setattr(self, "settled", True)
        return self.result()

    def result(self) -> PlanResult:
        """The result as the plan stands now (no scheduling)."""
        return self.record.result(self.frameworks)

    @property
    def pending(self) -> list[Entity]:
        """The queue: entities still to schedule, in queue order (do not modify)."""
        return self.passes.queue

    # ----- tentative scopes ------------------------------------------------------------------

    @contextmanager
    def tentative(self) -> Iterator[Scope]:
        """`with planner.tentative() as scope:` -- everything done inside (submit, run: the
        bindings, evictions, nominations, records, the queue) is taken back on exit, also on an
        exception, unless `scope.commit()` was called. Scopes nest."""
        passes = self.passes
        state_mark = self.state.checkpoint()
        mark = self.journal.mark()
        # Counters changed in place by the cycles: restored as they are now.
        starts = [(fwk, fwk.next_start_node_index) for fwk in self.frameworks.values()]
        self.journal.on_undo(_restore_starts, starts)
        version, hidden = self.state.version, passes.hidden
        scope = Scope()
        try:
            yield scope
        finally:
            if scope.committed:
                self.journal.keep(mark)
                self.state.keep(state_mark)
            else:
                self.state.rollback(state_mark)
                self.journal.rollback(mark)
                # The state's version only grows (its caches key on it); the retry decisions
                # read a clock that leaves out what this scope used, as if it never happened.
                self.journal.setattr(passes, "hidden", hidden + self.state.version - version)

    # ----- more work -------------------------------------------------------------------------

    def submit(self, work: ClusterInput | None = None, *, pods: Iterable[Pod] = (),
               pod_groups: Iterable[PodGroup] = (), workloads: Iterable[Workload] = (),
               composite_pod_groups: Iterable[CompositePodGroup] = ()) -> list[Pod]:
        """Add pending work to the input: pods (pending: no node, phase Pending), PodGroups,
        Workloads, CompositePodGroups, and with `work` (a ClusterInput fragment, e.g. from
        `load_input`) also controllers, expanded through the same controllers as the input's
        when the Planner expands. Nothing is scheduled until `run()`. Returns the pods added.

        The new pods are queued by the usual queue order among what is left of the queue. A
        group (or CompositePodGroup tree) that gains pods, its PodGroup or its parent is queued
        afresh with every pending pod it has, as a pod's arrival reactivates its group in
        kube-scheduler's queue; pods already held back (Waiting) are queued again with it.
        Raises ValueError for nodes or running pods in the work, or a name already known."""
        fragment = _fragment(work, pods, pod_groups, workloads, composite_pod_groups)
        old = self.cluster
        merged = _merged(old, fragment)
        if fragment.controllers:
            merged = self._expanded(merged)
        known = {p.key for p in old.pods}
        new_pods = [p for p in merged.pods if p.key not in known]
        new_groups = {g.key for g in merged.pod_groups} - {g.key for g in old.pod_groups}
        new_composites = {c.key for c in merged.composite_pod_groups} - {c.key for c in old.composite_pod_groups}
        self._adopt(merged, new_pods, new_groups, new_composites)
        return new_pods

    def _adopt(self, merged: ClusterInput, new_pods: list[Pod], new_groups: set[GroupKey],
               new_composites: set[GroupKey]) -> None:
        """Make `merged` the input: the ledgers and the queue learn the new objects."""
        j, passes, record = self.journal, self.passes, self.record
        j.setattr(self, "cluster", merged)
        j.setattr(record, "cluster", merged)
        trees = self._trees(merged)
        j.setattr(self, "trees", trees)
        j.setattr(record, "hierarchy", trees)
        # The handle plugins read (frozen for them; the Planner alone grows it with the input)
        j.setattr(self.handle, "spread_selectors", merged.spread_selectors)
        j.setattr(self.handle, "namespace_labels", merged.namespaces)
        j.setattr(self.handle, "composite_leaves", _leaves(trees))
        live_new = [p for p in new_pods if p.phase not in ("Succeeded", "Failed")]
        for pod in live_new:
            if pod.pod_group:
                key = (pod.namespace, pod.pod_group)
                j.setitem(passes.members, key, passes.members.get(key, []) + [pod])
        seed(passes.nominator, live_new, self.state)
        live = [p for p in merged.pods if p.phase not in ("Succeeded", "Failed")]
        preemption = passes.preemption
        j.setattr(preemption, "hierarchy", PreemptionHierarchy(merged, self.gates))
        j.setattr(preemption, "budgets", Budgets(merged.pod_disruption_budgets, self._input_running, live))
        columns_only = cluster_reads_columns_only(merged, live)
        j.setattr(preemption, "columns_only_cluster", columns_only)
        j.setattr(passes.nominator, "columns_only", columns_only)
        self._requeue(merged, live_new, new_groups, new_composites, trees)
        j.setattr(self, "settled", False)

    def _requeue(self, merged: ClusterInput, new_pods: list[Pod], new_groups: set[GroupKey],
                 new_composites: set[GroupKey], trees: Hierarchy | None) -> None:
        passes, record = self.passes, self.record
        touched = {(p.namespace, p.pod_group) for p in new_pods if p.pod_group} | new_groups
        if trees is not None:
            for key in new_composites:
                node = trees.nodes.get(key)
                if node is not None:
                    touched.update(leaf.key for leaf in node.leaves())
            for key in list(touched):  # a tree is queued as one: every leaf of its root
                root = trees.root_of.get(key)
                if root is not None:
                    touched.update(leaf.key for leaf in root.leaves())

        def touches(entity: Entity) -> bool:
            if entity.group is not None:
                return entity.group.key in touched
            if entity.tree is not None:
                return any(leaf.key in touched for leaf in entity.tree.leaves())
            return False

        kept = [e for e in passes.queue if not touches(e)]
        # every pending pod of a touched group: queued, held back before, or new (not the
        # placed ones, nor those the plan evicted: an evicted pod never comes back)
        again = [p for key in sorted(touched) for p in passes.members.get(key, ())
                 if self.state.node_of(p) is None and not p.is_running and p.key not in record.victims]
        grouped = {p.key for p in again}
        lone = [p for p in new_pods if p.key not in grouped and not p.is_running]
        placed = [pod for pod, _ in self.state.placed_pods()]
        entities = build_queue(merged, sorted(again + lone, key=lambda p: p.key), placed, self.frameworks,
                               self.gates, record.emit, trees)
        self.journal.setattr(passes, "queue", sorted(kept + entities, key=lambda e: e.key))


def _restore_starts(starts: list[tuple[Framework, int]]) -> None:
    for fwk, start in starts:
        fwk.next_start_node_index = start


# Every CompositePodGroup keeps the list of its leaf PodGroups (TopologyPlacement and
# PodGroupPodsCount read it; the tree cycle walks it at each evaluation), so a tree costs the sum,
# over its composites, of their leaves: linear in a plain chain, but quadratic in a chain with a
# leaf at every level (100,000 levels: 5,000,050,000 memberships, hours and the machine's memory).
# A planner limit, checked before anything is built (README, "Input limits"); about 6 s of CPU.
MAX_LEAF_MEMBERSHIPS = 1_000_000


def _leaves(trees: Hierarchy | None) -> dict[GroupKey, tuple[GroupKey, ...]]:
    """CompositePodGroup -> its leaf PodGroups, for the valid trees only (a cycle has no root).
    Raises InputError when the trees hold more than MAX_LEAF_MEMBERSHIPS in all."""
    if trees is None:
        return {}
    # each valid tree walked once, parents before children, for the check and the lists alike
    walks = [(root, list(root.walk())) for root in trees.roots.values() if root.key not in trees.invalid]
    _check_leaf_memberships(walks)
    out: dict[GroupKey, tuple[GroupKey, ...]] = {}
    for _, nodes in walks:
        # children before parents, each built from its children's (not `TreeNode.leaf_keys`
        # per object: a walk of the subtree per level is quadratic in a deep chain); the map
        # keeps the walk's order, as before
        below: dict[int, tuple[GroupKey, ...]] = {}
        for n in reversed(nodes):
            below[id(n)] = (n.key,) if n.is_leaf else tuple(k for c in n.children for k in below[id(c)])
        out.update((n.key, below[id(n)]) for n in nodes if not n.is_leaf)
    return out


def _check_leaf_memberships(walks: list[tuple[TreeNode, list[TreeNode]]]) -> None:
    """Counted children first, in integers (the lists themselves are what may not fit); the
    biggest tree is named, and every other that holds over a tenth of the limit."""
    sizes: list[tuple[int, CompositePodGroup | PodGroup]] = []
    for root, nodes in walks:
        count: dict[int, int] = {}
        memberships = 0
        for node in reversed(nodes):
            if node.is_leaf:
                count[id(node)] = 1
            else:
                count[id(node)] = sum(count[id(c)] for c in node.children)
                memberships += count[id(node)]
        sizes.append((memberships, root.group))
    total = sum(n for n, _ in sizes)
    if total <= MAX_LEAF_MEMBERSHIPS:
        return
    sizes.sort(key=lambda s: (-s[0], s[1].namespace, s[1].name))
    problems = []
    for i, (n, group) in enumerate(sizes):
        if i and n * 10 < MAX_LEAF_MEMBERSHIPS:
            break
        src = group.source
        problems.append(Problem(
            src.file if src else "<input>",
            f"this CompositePodGroup tree holds {n:,} leaf memberships (each leaf PodGroup counted once "
            f"for every CompositePodGroup above it); podgroup-plan plans at most {MAX_LEAF_MEMBERSHIPS:,} "
            f"per input ({total:,} in all)",
            line=src.line if src else None, document=src.document if src else None,
            kind="CompositePodGroup", namespace=group.namespace, name=group.name))
    raise InputError(problems)


def _fragment(work: ClusterInput | None, pods: Iterable[Pod], pod_groups: Iterable[PodGroup],
              workloads: Iterable[Workload], composite_pod_groups: Iterable[CompositePodGroup]) -> ClusterInput:
    work = work if work is not None else ClusterInput()
    if work.nodes:
        raise ValueError("submit() takes pending work, not nodes (derive() a Planner for another cluster)")
    fragment = replace(work, pods=work.pods + tuple(pods), pod_groups=work.pod_groups + tuple(pod_groups),
                       workloads=work.workloads + tuple(workloads),
                       composite_pod_groups=work.composite_pod_groups + tuple(composite_pod_groups))
    for pod in fragment.pods:
        if pod.is_running or pod.node_name:
            raise ValueError(f"submit() takes pending pods; {pod.namespace}/{pod.name} is bound to a node")
    return fragment


def _merged(cluster: ClusterInput, fragment: ClusterInput) -> ClusterInput:
    """`cluster` with the fragment's objects added, every list in (namespace, name) order as the
    loader gives it. A name already known is an error."""

    def union(kind: str, ours: tuple, theirs: tuple) -> tuple:
        have = {(o.namespace, o.name) for o in ours}
        for o in theirs:
            if (o.namespace, o.name) in have:
                raise ValueError(f"submit(): {kind} {o.namespace}/{o.name} is already in the input")
            have.add((o.namespace, o.name))
        return tuple(sorted(ours + theirs, key=lambda o: (o.namespace, o.name)))

    controllers = cluster.controllers
    if fragment.controllers:
        if controllers is None:
            controllers = fragment.controllers
        else:
            theirs = fragment.controllers
            kinds: dict[str, Any] = {
                f.name: union(f.name, getattr(controllers, f.name), getattr(theirs, f.name))
                for f in fields(controllers) if f.name != "gang_all"}
            # `--gang` (with_gangs) asked for by either side holds for both
            controllers = replace(controllers, **kinds, gang_all=controllers.gang_all or theirs.gang_all)
    namespaces = dict(cluster.namespaces)
    for name, labels in fragment.namespaces.items():
        namespaces.setdefault(name, labels)
    return replace(
        cluster,
        pods=union("Pod", cluster.pods, fragment.pods),
        pod_groups=union("PodGroup", cluster.pod_groups, fragment.pod_groups),
        workloads=union("Workload", cluster.workloads, fragment.workloads),
        composite_pod_groups=union("CompositePodGroup", cluster.composite_pod_groups,
                                   fragment.composite_pod_groups),
        spread_selectors=cluster.spread_selectors + tuple(
            s for s in fragment.spread_selectors if s not in cluster.spread_selectors),
        namespaces=namespaces,
        controllers=controllers,
    )


# `plan()` lives here, not in a module of its own named `plan`: importing a submodule binds it as
# an attribute of its package, so a module `podgroup_plan.plan` shadowed the public function
# `podgroup_plan.plan` once anything had imported it (`from podgroup_plan import plan` then gave
# the module; tests/test_api_doc.py).
def plan(
    cluster: ClusterInput,
    scheduler_config: Mapping | None = None,
    feature_gates: Mapping[str, bool] | None = None,
    progress: ProgressFn | None = None,
    config_source: str = "<config>",
    expand: bool = True,
    observer: PlanObserver | None = None,
    configuration: Configuration | None = None,
) -> PlanResult:
    """Plan every pending pod of `cluster`. `scheduler_config` (a KubeSchedulerConfiguration as a
    dict, read from `config_source`) wins over one found among the manifests. `feature_gates`
    holds the gates set (`--feature-gates`); the others take the planner's defaults. With
    `expand`, Jobs, JobSets, Deployments, ReplicaSets and StatefulSets first get the pods their
    controllers would create (podgroup_plan/controllers). Raises InputError for a bad
    configuration or bad feature gates. `observer` (`explain`'s tracer) is notified as the plan
    runs (podgroup_plan/observer.py). `configuration`: these already resolved (the CLI resolves
    them while reading its input), used as it is (see `Planner`)."""
    planner = Planner(cluster, scheduler_config, feature_gates, config_source=config_source,
                      expand=expand, observer=observer, configuration=configuration)
    return planner.plan(progress)
