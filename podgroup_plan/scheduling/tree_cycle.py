"""One scheduling cycle of a root CompositePodGroup and its whole tree, with its outcome.

Mirrors v1.37.0's `pkg/scheduler/schedule_one_podgroup.go` for a composite root: validatePodGroup
over every queued pod of the tree against the root's priority and preemption policy, the root
algorithm (scheduling/hierarchy.py), PodGroupPostFilter once for the root when its status is
exactly Unschedulable, the post filter's text folded into every result of the tree
(applyPodGroupPostFilterResult, once per result sharing a status), then submit per leaf
PodGroup: binding is atomic at the root, a leaf that failed binds nothing, and a failing parent
binds nothing below it. CompositePodGroups own no pods and get no condition; the planner records
their outcome as its own summary (contract.md, `compositePodGroups[]`).

`passes` is the plan's pass runner (passes.py `Passes`): state, frameworks, nominator, and
`emit`, through which the cycle reports what happened (events.py) to the recorder.
"""
from __future__ import annotations

from dataclasses import replace

from podgroup_plan import events as ev
from podgroup_plan.framework.status import Code, Status
from podgroup_plan.model.hierarchy import TreeNode
from podgroup_plan.model.objects import Pod, PodGroup
from podgroup_plan.result import Preemptor
from podgroup_plan.scheduling.hierarchy import NodeResult, all_results, leaf_pod_results, run_tree_algorithm
from podgroup_plan.scheduling.pod_group import POD_GROUP_IS_UNSCHEDULABLE, validate_pod_group


class TreeCycle:
    def __init__(self, passes, entity, root: TreeNode):
        self.passes = passes
        self.entity = entity
        self.root = root  # entity.tree
        self.emit: ev.Emit = passes.emit
        self.state = passes.state
        # the root's status was Success (the plan then runs the tree again for pods left over)
        self.succeeded = False

    def _queued(self) -> dict[tuple[str, str], list[Pod]]:
        queued: dict[tuple[str, str], list[Pod]] = {}
        for pod in self.entity.pods:
            queued.setdefault((pod.namespace, pod.pod_group), []).append(pod)
        return queued

    def run(self) -> bool:
        passes, entity, emit = self.passes, self.entity, self.emit
        leaves = self.root.leaves()
        placed = [p for leaf in leaves for p in passes.placed_members(leaf.group)]
        error = validate_pod_group(self.root.group, entity.pods, placed, passes.frameworks,
                                   passes.preemption_policy_gate)
        if error is not None:
            for pod in entity.pods:
                emit(ev.PodFailed(pod, "SchedulerError", error))
            for leaf in leaves:
                emit(ev.GroupCycleEnded(_pod_group(leaf), "SchedulerError", error))
            for node in self.root.walk():
                if not node.is_leaf:
                    emit(ev.CompositeCycleEnded(node.group, False, error, None, None))
            passes.failed(entity, set())
            return False
        fwk = passes.frameworks[entity.pods[0].scheduler_name]
        queued = self._queued()
        result = run_tree_algorithm(fwk, self.root, queued, self.state, passes.leaf_memo)
        plugins = _plugins_of(result)
        if result.status.is_success():
            self.succeeded = True
            return self._bind(result, queued, plugins)
        passes.failed(entity, plugins)
        outcome = passes.post_filter(fwk, self.root.group, entity.pods, result.status,
                                     lambda: self._rerun(fwk, queued))
        self._failed(result, queued, outcome)
        return passes.act_on_preemption(outcome, Preemptor("CompositePodGroup", *self.root.key),
                                        entity.pods[0].scheduler_name)

    def _rerun(self, fwk, queued) -> tuple[list, Status]:
        """Workload-aware preemption's re-run of the whole tree algorithm (it proposes only)."""
        observer = self.passes.observer
        if observer is not None:
            observer.rerun_started()
        try:
            result = run_tree_algorithm(fwk, self.root, queued, self.state, self.passes.leaf_memo)
            return (result.assumed if result.status.is_success() else []), result.status
        finally:
            if observer is not None:
                observer.rerun_finished()

    def _bind(self, result: NodeResult, queued, plugins: set[str]) -> bool:
        """The root succeeded: every successful leaf binds its pods, a failed leaf none."""
        passes, emit = self.passes, self.emit
        bound = set()
        for r in all_results(result):
            leaf = r.node.group
            if not isinstance(leaf, PodGroup):  # a CompositePodGroup (`TreeNode.is_leaf`)
                emit(ev.CompositeCycleEnded(leaf, r.status.is_success(), r.status.message,
                                            r.trials, r.placement if r.status.is_success() else None))
                continue
            pods = queued.get(leaf.key, [])
            if r.trials is not None:
                emit(ev.PlacementsTried(leaf, r.trials, r.placement if r.status.is_success() else None,
                                        r.status.is_success()))
            lr = leaf_pod_results(r, pods)
            if r.status.is_success():
                for pod, node in lr.assignments:
                    self.state.assume(pod, node)
                    emit(ev.PodBound(pod, node))
                    passes.nominator.clear(pod)
                    bound.add(pod.key)
                for pod, pr in lr.pod_results:
                    if pod.key not in bound:
                        # its own failure carries no nominating info: a nomination it had stays
                        emit(ev.PodFailed(pod, "Unschedulable", pr.message if pr else r.status.message,
                                          passes.nominated_name(pod)))
                emit(ev.GroupCycleEnded(leaf, "Scheduled", ""))
            else:
                for pod, pr in lr.pod_results:
                    reason, message = lr.pod_message(pr)
                    emit(ev.PodFailed(pod, reason, message, passes.failed_pod_nomination(
                        pod, fitted=pr is not None and pr.node is not None,
                        error=r.status.code == Code.ERROR, node=None)))
                emit(ev.GroupCycleEnded(leaf, "SchedulerError" if r.status.code == Code.ERROR else "Unschedulable",
                                        r.status.message))
        passes.journal.setattr(self.entity, "pods", [p for p in self.entity.pods if p.key not in bound])
        if self.entity.pods:
            passes.failed(self.entity, plugins)
        return True

    def _failed(self, result: NodeResult, queued, outcome) -> None:
        """submit for a failed root, the post filter's outcome folded in first."""
        passes, emit = self.passes, self.emit
        results = all_results(result)
        if outcome is not None and outcome.status.code == Code.ERROR:
            for r in results:  # an error replaces every group result
                r.box.status = outcome.status
            outcome = None
        if outcome is not None:
            # One more reason on every result's status, even when empty; a status several
            # results share gets it once per result (v1.37.0).
            for r in results:
                r.box.status = replace(r.box.status, reasons=r.box.status.reasons + (outcome.status.message,))
        waiting = outcome is not None and outcome.status.is_success()
        nominated = {p.key: n for p, n in outcome.nominations} if waiting else {}
        for r in results:
            leaf = r.node.group
            if not isinstance(leaf, PodGroup):  # a CompositePodGroup (`TreeNode.is_leaf`)
                emit(ev.CompositeCycleEnded(leaf, False, r.status.message, r.trials, None))
                continue
            if r.trials is not None:
                emit(ev.PlacementsTried(leaf, r.trials, None, False))
            lr = leaf_pod_results(r, queued.get(leaf.key, []))
            error = r.status.code == Code.ERROR
            for pod, pr in lr.pod_results:
                if error or pr is None or pr.node is None:
                    reason, message = lr.pod_message(pr)
                elif waiting:
                    reason, message = "Unschedulable", r.status.message
                else:
                    reason = "Unschedulable"
                    message = Status(Code.UNSCHEDULABLE, (r.status.message,), err=POD_GROUP_IS_UNSCHEDULABLE).message
                emit(ev.PodFailed(pod, reason, message, passes.failed_pod_nomination(
                    pod, fitted=pr is not None and pr.node is not None, error=error,
                    node=nominated.get(pod.key))))
            emit(ev.GroupCycleEnded(leaf, "SchedulerError" if error else "Unschedulable", r.status.message))


def _pod_group(leaf: TreeNode) -> PodGroup:
    group = leaf.group
    assert isinstance(group, PodGroup), "a tree's leaves are PodGroups (TreeNode.is_leaf)"
    return group


def _plugins_of(result: NodeResult) -> set[str]:
    plugins: set[str] = set()
    for r in all_results(result):
        if r.leaf is None:
            continue
        for _, pr in r.leaf.pod_results:
            if pr is not None and pr.diagnosis is not None:
                plugins |= pr.diagnosis.unschedulable_plugins
    return plugins
