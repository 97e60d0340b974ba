"""The recursive tree algorithm, as the planner had it before it became iterative (and as
upstream's Go code is written): kept here only as the reference the iterative version must
equal, result for result (tests/properties/test_hierarchy_iterative.py). Recursion per level:
fit for the small trees the property test draws, not for deep inputs."""
# ruff: noqa
from __future__ import annotations

from podgroup_plan.framework.interface import Placement, PlacementProgress, PodGroupAssignments
from podgroup_plan.framework.runtime import Framework
from podgroup_plan.framework.status import Code, Status
from podgroup_plan.model.hierarchy import Hierarchy, TreeNode
from podgroup_plan.model.objects import Pod
from podgroup_plan.scheduling.hierarchy import (
    LeafMemo, NodeResult, StatusBox, _as_results, _unnamed,
)
from podgroup_plan.scheduling.placement import as_error_text, placements_unavailable, schedule_placements, PlacementTrial
from podgroup_plan.scheduling.pod_group import POD_GROUP_IS_UNSCHEDULABLE
from typing import Mapping
from podgroup_plan.state.cluster import ClusterState

GroupKey = tuple[str, str]



def schedule_node(
    fwk: Framework, node: TreeNode, queued: dict[tuple[str, str], list[Pod]], state: ClusterState,
    parent: Placement, memo: LeafMemo | None = None,
) -> NodeResult:
    """podGroupSchedulingRecursiveAlgorithm: a leaf runs the PodGroup placement algorithm inside
    `parent`, a CompositePodGroup its own. A success stays assumed in `state`."""
    if node.is_leaf:
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
    return _schedule_composite(fwk, node, queued, state, parent, memo)


def _schedule_composite(
    fwk: Framework, node: TreeNode, queued: dict[tuple[str, str], list[Pod]], state: ClusterState,
    parent: Placement, memo: LeafMemo | None,
) -> NodeResult:
    cpg = node.group
    placements, status = fwk.run_placement_generate(cpg, parent, state)
    if not status.is_success():  # incl. the runner's `no feasible placements found`
        return NodeResult(node, StatusBox(status), [])
    trials = [PlacementTrial(p.name, len(p.nodes)) for p in placements]
    first: NodeResult | None = None
    feasible: list[tuple[int, NodeResult]] = []
    for i, placement in enumerate(placements):
        with state.tentative():  # between candidates everything the trial assumed is undone
            result = _evaluate_composite(fwk, node, queued, state, placement, memo)
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


def _evaluate_composite(
    fwk: Framework, node: TreeNode, queued: dict[tuple[str, str], list[Pod]], state: ClusterState,
    placement: Placement, memo: LeafMemo | None,
) -> NodeResult:
    """One candidate of a CompositePodGroup: PlacementFeasible before and after each child."""
    cpg = node.group
    result = NodeResult(node, StatusBox(Status()))
    remaining, scheduled = len(node.children), 0
    status = fwk.run_placement_feasible(cpg, PlacementProgress(remaining, scheduled))
    if status.code in (Code.ERROR, Code.UNSCHEDULABLE):
        result.box = StatusBox(status)  # as returned: no `pod group is unschedulable` attached
        return result
    for child in node.children:
        child_result = schedule_node(fwk, child, queued, state, placement, memo)
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
    their group's text now, before any post-filter text is appended."""
    _complete(result, None)
    return result


def _complete(result: NodeResult, parent: NodeResult | None) -> None:
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
        _complete(got, result)
    result.children = done


def all_results(result: NodeResult) -> list[NodeResult]:
    """The results of every object of the tree, parents first, in child order."""
    out = [result]
    for child in result.children:
        out.extend(all_results(child))
    return out


def _tree_ready(node: TreeNode, known: Mapping[tuple[str, str], int]) -> bool:
    """GangScheduling's recursive readiness: a leaf needs AllPodsCount >= minCount (basic: 1),
    a CompositePodGroup ready children >= minGroupCount (basic: 1)."""
    from podgroup_plan.plugins.gang_scheduling import required_count

    if node.is_leaf:
        return known.get(node.key, 0) >= required_count(node.group)
    ready = sum(_tree_ready(child, known) for child in node.children)
    return ready >= required_count(node.group)


def _leaves(trees: Hierarchy | None) -> dict[GroupKey, tuple[GroupKey, ...]]:
    """CompositePodGroup -> its leaf PodGroups, for the valid trees only (a cycle has no root)."""
    if trees is None:
        return {}
    return {n.key: n.leaf_keys for root in trees.roots.values() if root.key not in trees.invalid
            for n in root.walk() if not n.is_leaf}


