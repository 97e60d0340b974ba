"""The hierarchical (CompositePodGroup) algorithm: one cycle for a root and its whole tree.

Mirrors v1.37.0's `pkg/scheduler/schedule_one_podgroup.go`: podGroupSchedulingRecursiveAlgorithm,
compositePodGroupSchedulingPlacementAlgorithm, completeCompositePodGroupAlgorithmResultMap and
successfulLeafResults (v1.37.0; the seed "CompositePodGroup을 사용한 계층적 스케줄링").

* A CompositePodGroup always runs the placement algorithm: PlacementGenerate inside its parent's
  placement (all nodes for the root), then each candidate is a trial rolled back through the undo
  log. In a trial: PlacementFeasible with R = children, S = 0 (minGroupCount); then each child in
  its fixed order (creationTimestamp, name) inside the candidate, a leaf PodGroup running the
  placement algorithm of scheduling/placement.py and a CompositePodGroup
  recursing; after each child R-1, S+1 if it succeeded, PlacementFeasible again, Unschedulable
  stops the trial. A child that succeeded stays assumed so later siblings see it; a child that
  failed left nothing assumed (its own trials were rolled back).
* No candidate feasible: `0/N placements are available, first placement status: <X>` behind
  `pod group is unschedulable`, keeping the first candidate's subtree results. One: it wins. More:
  PlacementScore over the assignments of every successful leaf below (ties: the name that sorts
  first, README deviations). The winner's leaves are assumed again.
* No backtracking: a greedy child may take what a later sibling needed (upstream's stated
  limitation, KEP-4671 "Algorithm Limitations").
* After the root algorithm (`complete`): a child without a result, or one that succeeded under a
  failed parent, gets a result holding *the parent's status object itself* and no pod results.
  Statuses are therefore shared boxes (`StatusBox`): the post filter's text appended to every
  result lands once per result sharing a box (kube-scheduler v1.37.0; 1.38-dev copies instead).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Generator, Sequence

from podgroup_plan.framework.columns import pod_reads_columns_only
from podgroup_plan.framework.interface import Placement, PlacementProgress, PodGroupAssignments, required_count
from podgroup_plan.framework.runtime import Framework
from podgroup_plan.framework.status import Code, Status
from podgroup_plan.model.hierarchy import TreeNode
from podgroup_plan.model.objects import Pod
from podgroup_plan.result import PlacementResult
from podgroup_plan.scheduling.placement import (
    PlacementTrial,
    as_error_text,
    placements_unavailable,
    schedule_placements,
)
from podgroup_plan.scheduling.pod_group import POD_GROUP_IS_UNSCHEDULABLE, GroupCycleResult
from podgroup_plan.state.cluster import ClusterState
from podgroup_plan.state.group_members import scheduled_count


class StatusBox:
    """A status as upstream holds it, by pointer: results may share one."""

    __slots__ = ("status",)

    def __init__(self, status: Status):
        self.status = status


@dataclass(eq=False, slots=True)
class NodeResult:
    """The algorithm's result for one object of the tree."""

    node: TreeNode
    box: StatusBox
    # the candidates of this object's placement-algorithm run (None: it never ran)
    trials: Sequence | None = None  # PlacementResult entries (placements[])
    placement: str | None = None  # the chosen candidate's name, when it succeeded
    leaf: GroupCycleResult | None = None  # a leaf's pod results (None for an invalidated leaf)
    # not in the repr: it would recurse once per level of the tree
    children: list["NodeResult"] = field(default_factory=list, repr=False)
    # (pod, node row) of every successful leaf below, still assumed after this object ran
    assumed: list[tuple[Pod, int]] = field(default_factory=list)
    # the text never-evaluated pods copy (completePodGroupAlgorithmResult), set by `complete`
    unevaluated: str | None = None

    @property
    def status(self) -> Status:
        return self.box.status


class LeafMemo:
    """Leaf placement runs already computed, for leaves that meet the same nodes in the same
    state with pods of the same scheduling signatures (a speed-up only: same decisions).

    A leaf's placement algorithm (generation, every trial, scoring) depends on the parent
    placement's node rows and, when every queued pod reads only usage columns and static node
    fields (no host ports, no pod (anti-)affinity, no spreading: framework/columns.py), on
    nothing else of the cluster than those rows' usage columns; on the pods only through their
    signatures (framework/node_cache.py), and on the group's minCount, policy and topology key.
    So the run is keyed by exactly that, with the rows' usage read as bytes. Used only when no
    member of the leaf is scheduled yet (TopologyPlacement pins such a group to their domain),
    no pod is nominated anywhere (Filter adds nominated pods), percentageOfNodesToScore is unset
    (its rotating start index advances with every pod cycle) and `explain` is not tracing. Many
    trees of one shape (a job's replicas) then evaluate each untouched domain once."""

    LIMIT = 50_000  # entries; emptied when full

    def __init__(self) -> None:
        self.runs: dict[tuple, GroupCycleResult] = {}
        self.hits = 0

    def key(self, fwk: Framework, group, queued: Sequence[Pod], state: ClusterState, parent: Placement) -> tuple | None:
        if fwk.observer is not None or fwk.profile.percentage_of_nodes_to_score is not None:
            return None
        if fwk.nominator or scheduled_count(state, group.key):
            return None
        if not all(pod_reads_columns_only(p, fwk) for p in queued):
            return None
        signatures = tuple(fwk.pod_signature(p) for p in queued)
        if None in signatures:  # a plugin cannot sign a pod: nothing is kept for it
            return None
        rows = parent.nodes
        return (
            fwk.scheduler_name, group.policy, required_count(group), group.topology_key,
            signatures, parent.name, rows.tobytes(),
            state.requested.shape[0], state.requested[:, rows].tobytes(),
            state.non_zero_requested[:, rows].tobytes(), state.pod_count[rows].tobytes(),
        )

    def get(self, key: tuple, group, queued: Sequence[Pod]) -> GroupCycleResult | None:
        got = self.runs.get(key)
        if got is None:
            return None
        self.hits += 1
        result = GroupCycleResult(
            group, got.status,
            [(pod, None if pr is None else replace(pr, pod=pod)) for pod, (_, pr) in zip(queued, got.pod_results)],
            got.any_scheduled,
        )
        result.placements = got.placements  # read-only: shared
        result.placement = got.placement
        return result

    def put(self, key: tuple, result: GroupCycleResult) -> None:
        if len(self.runs) >= self.LIMIT:
            self.runs.clear()
        stored = GroupCycleResult(result.group, result.status, list(result.pod_results), result.any_scheduled)
        stored.placements = result.placements
        stored.placement = result.placement
        self.runs[key] = stored


def run_tree_algorithm(
    fwk: Framework, root: TreeNode, queued: dict[tuple[str, str], list[Pod]], state: ClusterState,
    memo: LeafMemo | None = None,
) -> NodeResult:
    """runRootSchedulingAlgorithm for a root CompositePodGroup: every tentative assume is rolled
    back on return; the result proposes `assumed` (on Success) and commits nothing. Results are
    completed for every object of the tree (`complete`)."""
    with state.tentative():
        result = schedule_node(fwk, root, queued, state, Placement(None, state.all_nodes), memo)
        if result.status.is_success() and not result.assumed:
            # Root rule: success needs a newly placed pod somewhere in the tree.
            result.box = StatusBox(Status(Code.UNSCHEDULABLE, err=POD_GROUP_IS_UNSCHEDULABLE))
    return complete(root, result)


def schedule_node(
    fwk: Framework, node: TreeNode, queued: dict[tuple[str, str], list[Pod]], state: ClusterState,
    parent: Placement, memo: LeafMemo | None = None,
) -> NodeResult:
    """podGroupSchedulingRecursiveAlgorithm: a leaf runs the PodGroup placement algorithm inside
    `parent`, a CompositePodGroup its own. A success stays assumed in `state`.

    Upstream recurses once per level; a chain of CompositePodGroups is as deep as the input
    makes it (100,000 levels is an input the planner answers, issue 25), deeper than Python's
    recursion goes. So each object's algorithm is a generator (`_node_steps`) that yields the
    call it needs for a child and is sent back the child's result; `_drive` runs them on an
    explicit stack. The calls, their order and every `state.tentative()` are those of the
    recursion (a child's exception is thrown back into its parent at the same point)."""
    return _drive(_node_steps(fwk, node, queued, state, parent, memo))


# The algorithm of one object: yields a child's steps (a Steps), is sent that child's
# NodeResult back, returns its own NodeResult.
Steps = Generator[Any, NodeResult, NodeResult]


def _drive(top: Steps) -> NodeResult:
    """Runs `top` and every child call it yields, deepest first, on an explicit stack."""
    stack = [top]
    sent: NodeResult | None = None
    error: BaseException | None = None
    while True:
        steps = stack[-1]
        try:
            if error is not None:
                thrown, error = error, None
                call = steps.throw(thrown)
            else:
                call = steps.send(sent)  # type: ignore[arg-type]  # None starts a generator
        except StopIteration as done:
            stack.pop()
            if not stack:
                return done.value
            sent = done.value
            continue
        except BaseException as raised:  # noqa: BLE001 - handed to the caller, as a return would
            stack.pop()
            if not stack:
                raise
            error = raised
            continue
        stack.append(call)
        sent = None


def _node_steps(
    fwk: Framework, node: TreeNode, queued: dict[tuple[str, str], list[Pod]], state: ClusterState,
    parent: Placement, memo: LeafMemo | None,
) -> Steps:
    if node.is_leaf:
        return _schedule_leaf(fwk, node, queued, state, parent, memo)
    return (yield from _schedule_composite(fwk, node, queued, state, parent, memo))


def _schedule_leaf(
    fwk: Framework, node: TreeNode, queued: dict[tuple[str, str], list[Pod]], state: ClusterState,
    parent: Placement, memo: LeafMemo | None,
) -> NodeResult:
    pods = queued.get(node.key, [])
    key = memo.key(fwk, node.group, pods, state, parent) if memo is not None else None
    r = memo.get(key, node.group, pods) if memo is not None and key is not None else None
    if r is None:
        r = schedule_placements(fwk, node.group, pods, state, parent)
        if memo is not None and key is not None:
            memo.put(key, r)
    result = NodeResult(node, StatusBox(r.status), _unnamed(node, r.placements), leaf=r)
    if r.status.is_success():
        result.placement = r.placement if node.group.topology_key else None
        result.assumed = list(r.assignments)
        for pod, row in result.assumed:
            state.assume(pod, row)
    return result


def _schedule_composite(
    fwk: Framework, node: TreeNode, queued: dict[tuple[str, str], list[Pod]], state: ClusterState,
    parent: Placement, memo: LeafMemo | None,
) -> Steps:
    cpg = node.group
    placements, status = fwk.run_placement_generate(cpg, parent, state)
    if not status.is_success():  # incl. the runner's `no feasible placements found`
        return NodeResult(node, StatusBox(status), [])
    trials = [PlacementTrial(p.name, len(p.nodes)) for p in placements]
    first: NodeResult | None = None
    feasible: list[tuple[int, NodeResult]] = []
    for i, placement in enumerate(placements):
        with state.tentative():  # between candidates everything the trial assumed is undone
            result = yield from _evaluate_composite(fwk, node, queued, state, placement, memo)
        trial = trials[i]
        trial.evaluated = True
        trial.feasible = result.status.is_success()
        trial.scheduled_pods = len(result.assumed)
        trial.message = None if trial.feasible else result.status.message
        if result.status.code == Code.ERROR:
            # Upstream returns the candidate's own result without copying its subtree's results
            # into the caller's map, so every object below gets this status when the tree is
            # completed (its leaves' own texts, e.g. a domain error, are not kept).
            result.trials = _as_results(trials[: i + 1])
            result.children = []
            return result
        if first is None:
            first = result
        if trial.feasible:
            feasible.append((i, result))
    if not feasible:
        assert first is not None
        first.box = StatusBox(placements_unavailable(len(placements), first.status))
        first.trials = _unnamed(node, _as_results(trials))
        first.assumed = []
        return first
    if len(feasible) == 1:
        best = feasible[0][0]
    else:
        candidates = [PodGroupAssignments(placements[i], tuple(r.assumed)) for i, r in feasible]
        scores, status = fwk.run_placement_score(node.group, candidates, state)
        if not status.is_success():
            return NodeResult(node, StatusBox(status), _as_results(trials))
        for (i, _), score in zip(feasible, scores):
            trials[i].score, trials[i].scores = score.total, dict(score.scores)
        best = min(zip(feasible, scores), key=lambda fs: (-fs[1].total, fs[1].placement.name or ""))[0][0]
    trials[best].chosen = True
    chosen = next(r for i, r in feasible if i == best)
    chosen.trials = _unnamed(node, _as_results(trials))
    chosen.placement = placements[best].name if cpg.topology_key else None
    for pod, row in chosen.assumed:  # the winning subtree is assumed again for later siblings
        state.assume(pod, row)
    return chosen


def _unnamed(node: TreeNode, trials):
    """A group without a topology constraint gets its parent's placement unchanged; the result
    names that single candidate null (contract.md, `placements[].name`), not after the parent."""
    if trials is not None and not node.group.topology_key:
        return [replace(t, name=None) for t in trials]
    return trials


def _as_results(trials: list[PlacementTrial]) -> tuple[PlacementResult, ...]:
    """A CompositePodGroup's trials as the result keeps them (contract.md, `placements`)."""
    return tuple(
        PlacementResult(t.name, t.nodes, t.evaluated, t.feasible, t.scheduled_pods, t.message, t.score,
                        None if t.scores is None else dict(t.scores), t.chosen)
        for t in trials)


def _evaluate_composite(
    fwk: Framework, node: TreeNode, queued: dict[tuple[str, str], list[Pod]], state: ClusterState,
    placement: Placement, memo: LeafMemo | None,
) -> Steps:
    """One candidate of a CompositePodGroup: PlacementFeasible before and after each child."""
    cpg = node.group
    result = NodeResult(node, StatusBox(Status()))
    remaining, scheduled = len(node.children), 0
    status = fwk.run_placement_feasible(cpg, PlacementProgress(remaining, scheduled))
    if status.code in (Code.ERROR, Code.UNSCHEDULABLE):
        result.box = StatusBox(status)  # as returned: no `pod group is unschedulable` attached
        return result
    for child in node.children:
        child_result = yield _node_steps(fwk, child, queued, state, placement, memo)
        result.children.append(child_result)
        if child_result.status.code == Code.ERROR:
            status = Status(Code.ERROR, (
                f"composite pod group evaluation failed due to child error: {as_error_text(child_result.status)}",))
            break
        succeeded = child_result.status.is_success()
        if succeeded:
            result.assumed.extend(child_result.assumed)
        remaining, scheduled = remaining - 1, scheduled + succeeded
        status = fwk.run_placement_feasible(cpg, PlacementProgress(remaining, scheduled))
        if status.code in (Code.ERROR, Code.UNSCHEDULABLE):
            break  # early stop: the caller's rollback reverts this subtree
    if status.code == Code.WAIT:
        status = Status(Code.UNSCHEDULABLE, status.reasons, status.plugin, POD_GROUP_IS_UNSCHEDULABLE)
    if not status.is_success():
        result.assumed = []
    result.box = StatusBox(status)
    return result


def complete(root: TreeNode, result: NodeResult) -> NodeResult:
    """completeCompositePodGroupAlgorithmResultMap and completePodGroupAlgorithmResult: every
    object of the tree gets a result; a child without one, or that succeeded under a failed
    parent, shares the parent's status box and has no pod results. Never-evaluated pods copy
    their group's text now, before any post-filter text is appended.

    Parents first, on a stack (upstream recurses; a tree is as deep as the input makes it): a
    result's completion reads only its own status and its parent's box, both final by then."""
    todo = [result]
    while todo:
        done = _complete_one(todo.pop())
        todo.extend(reversed(done))
    return result


def _complete_one(result: NodeResult) -> list[NodeResult]:
    """Completes `result` itself; returns its children's results, to be completed next."""
    result.unevaluated = result.status.message
    evaluated = {c.node.key: c for c in result.children}
    failed = not result.status.is_success()
    done = []
    for child in result.node.children:
        got = evaluated.get(child.key)
        if got is None or (failed and got.status.is_success()):
            replaced = NodeResult(child, result.box, got.trials if got is not None else None,
                                  children=got.children if got is not None else [])
            got = replaced
        done.append(got)
    result.children = done
    return done


def all_results(result: NodeResult) -> list[NodeResult]:
    """The results of every object of the tree, parents first, in child order (a stack, not
    recursion: a tree is as deep as the input makes it)."""
    out = []
    todo = [result]
    while todo:
        r = todo.pop()
        out.append(r)
        todo.extend(reversed(r.children))
    return out


def leaf_pod_results(result: NodeResult, queued: Sequence[Pod]) -> GroupCycleResult:
    """A leaf's GroupCycleResult as submit reads it: its own pod results with its current
    status (post-filter text included), or none at all when the leaf was invalidated (every pod
    never evaluated). Never-evaluated pods copy `unevaluated`, the text before the append."""
    if result.leaf is not None:
        r = result.leaf
    else:
        r = GroupCycleResult(result.node.group, result.status, [(p, None) for p in queued])
    r.status = result.status
    r.unevaluated_status = Status(result.status.code, (result.unevaluated,)) if result.unevaluated else result.status
    return r
