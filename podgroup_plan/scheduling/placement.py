"""The placement-based PodGroup algorithm (Topology-Aware Workload Scheduling).

Mirrors v1.37.0's `pkg/scheduler/schedule_one_podgroup.go`: podGroupSchedulingPlacementAlgorithm,
findBestPodGroupPlacement / findBestPlacement.

1. PlacementGenerate makes the candidate placements inside the parent placement (all nodes for a
   standalone group); no candidate at all is the framework runner's `no feasible placements
   found` (Framework.run_placement_generate), returned as the group's status, no pod tried.
2. Each candidate is a trial: the default algorithm (`pod_group.run_default_algorithm`) runs over
   the candidate's nodes as a *view* of the columns, then every assume of the trial is rolled back
   through the undo log. Nothing else of a trial survives it: each pod gets a fresh cycle state
   (schedule_one), and the group's scheduled count is read again from the state. The rotating
   node start index (percentageOfNodesToScore) is the framework's and is never rolled back.
3. Every candidate is evaluated, in generation order (v1.37.0 has no nominated-placement fast
   path: nominated pods only count where Filter sees them).
4. No feasible candidate: `0/N placements are available, first placement status: <X>` behind
   `pod group is unschedulable`, with the first evaluated candidate's pod results (v1.37.0
   reports the first one; generation order is by name here, a Go map's order upstream). One:
   it wins. More: PlacementScore decides, ties going to the domain whose name sorts first
   (upstream draws at random; README deviations).

Every candidate's trial is recorded (the result's `placements[]`, kept by column in
`PlacementResults`), with the inner status text upstream's failure message drops.

Most trials of a large cluster repeat earlier ones exactly; `placement_cache` keeps their
verdicts and re-runs only the candidates whose nodes changed (`_schedule_with_kept_trials`), and
falls back to running every trial wherever a kept verdict might not be exact.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from podgroup_plan.framework.interface import (
    MAX_PLACEMENT_SCORE,
    MIN_PLACEMENT_SCORE,
    Group,
    Placement,
    PodGroupAssignments,
    required_count,
)
from podgroup_plan.framework.runtime import Framework
from podgroup_plan.framework.status import Code, Status
from podgroup_plan.model.objects import Pod
from podgroup_plan.result import PlacementResults
from podgroup_plan.scheduling import placement_cache
from podgroup_plan.scheduling.pod_group import POD_GROUP_IS_UNSCHEDULABLE, GroupCycleResult, run_default_algorithm
from podgroup_plan.state.cluster import ClusterState
from podgroup_plan.state.group_members import scheduled_count


@dataclass(slots=True)
class PlacementTrial:
    """One candidate placement as the result explains it (contract.md, `placements`)."""

    name: str | None
    nodes: int
    evaluated: bool = False
    feasible: bool | None = None
    scheduled_pods: int | None = None
    message: str | None = None  # the trial's own status text when infeasible
    score: int | None = None
    scores: dict[str, int] | None = None
    chosen: bool = False


def as_error_text(status: Status) -> str:
    """`%v` of status.AsError(): the attached error alone when there is one, else the joined
    reasons; `<nil>` for a Success (Go's rendering of no error)."""
    if status.is_success():
        return "<nil>"
    if status.err:
        return status.err
    return ", ".join(status.reasons)


def placements_unavailable(n: int, first: Status) -> Status:
    """v1.37.0's status when no candidate was feasible, at every level (PodGroup and
    CompositePodGroup): the first evaluated candidate's status as an error, wrapped."""
    return Status(
        Code.UNSCHEDULABLE,
        (f"0/{n} placements are available, first placement status: {as_error_text(first)}",),
        err=POD_GROUP_IS_UNSCHEDULABLE,
    )


def schedule_placements(
    fwk: Framework, group: Group, queued: Sequence[Pod], state: ClusterState,
    parent: Placement | None = None, keep_single: bool = False,
) -> GroupCycleResult:
    """podGroupSchedulingPlacementAlgorithm for a (leaf) PodGroup inside `parent` (default: every
    node). The trials are rolled back; the returned result proposes the chosen candidate's
    assignments. With `keep_single`, a lone candidate's successful trial stays assumed
    (`result.assumed`; the caller's checkpoint still owns it): it is the winner, and nothing is
    scored after it."""
    if parent is None:
        parent = Placement(None, state.all_nodes)
    placements, status = fwk.run_placement_generate(group, parent, state)
    if not status.is_success():
        return _without_trials(group, queued, status)

    # A lone candidate (no topology constraint: the parent itself) is evaluated exactly once
    # on either path, so kept trials could only add their bookkeeping.
    if len(placements) > 1 and placement_cache.applies(fwk, queued, state, placements):
        kept = _schedule_with_kept_trials(fwk, group, queued, state, placements)
        if kept is not None:
            return kept
    trials = [PlacementTrial(p.name, len(p.nodes)) for p in placements]
    first: GroupCycleResult | None = None
    feasible: list[tuple[int, GroupCycleResult]] = []  # (position, trial result)
    keep = keep_single and len(placements) == 1
    for i, placement in enumerate(placements):
        result = evaluate_placement(fwk, group, queued, state, placement, keep)
        _record(trials[i], result)
        if result.status.code == Code.ERROR:
            result.placements = _columns(fwk, trials[: i + 1])
            return result
        if first is None:
            first = result
        if result.status.is_success():
            feasible.append((i, result))

    if not feasible:
        assert first is not None
        first.status = placements_unavailable(len(placements), first.status)
        first.placements = _columns(fwk, trials)
        return first

    best, status = _best(fwk, group, state, placements, feasible, trials)
    if not status.is_success():
        failed = _without_trials(group, queued, status)
        failed.placements = _columns(fwk, trials)
        return failed
    trials[best].chosen = True
    chosen = next(r for i, r in feasible if i == best)
    chosen.placements = _columns(fwk, trials)
    chosen.placement = placements[best].name
    return chosen


def _schedule_with_kept_trials(
    fwk: Framework, group: Group, queued: Sequence[Pod], state: ClusterState, placements: list[Placement],
) -> GroupCycleResult | None:
    """The same decision as running every trial, from kept verdicts (placement_cache): only the
    candidates whose nodes changed are evaluated, the scores are read from the kept raw scores,
    and only the winner (or the first candidate, reported on failure) is run again for its pods' results. None
    when something needs the general path (an Error, a scoring failure): it redoes the run."""
    s0 = scheduled_count(state, group.key)
    plugins = [p.name for p, _ in fwk.placement_score]
    key = placement_cache.key_for(fwk, queued, s0, required_count(group), placements)
    entry = fwk.placement_cache.entry(key, placements, plugins)
    fresh: dict[int, GroupCycleResult] = {}  # trials run in this cycle, kept for their pods
    for i in entry.stale(state).tolist():
        tried = fresh[i] = evaluate_placement(fwk, group, queued, state, placements[i])
        if tried.status.code == Code.ERROR:
            return None
        ok = tried.status.is_success()
        entry.feasible[i] = ok
        entry.scheduled[i] = len(tried.assignments)
        entry.messages[i] = None if ok else tried.status.message
        if ok:
            candidate = PodGroupAssignments(placements[i], tuple(tried.assignments))
            for plugin, _ in fwk.placement_score:
                value, status = plugin.score_placement(group, candidate, state)
                if not status.is_success():
                    entry.version[i] = -1
                    return None
                entry.raw[plugin.name][i] = value
        entry.version[i] = state.version

    n = len(placements)
    feasible = np.flatnonzero(entry.feasible)
    totals: list[int | None] = [None] * n
    scores: dict[str, Any] = {}  # plugin -> int64 column, read as a sequence
    if not len(feasible):
        best = 0  # the first candidate: its status is the one reported
    elif len(feasible) == 1:
        best = int(feasible[0])
    else:
        weighted = np.zeros(len(feasible), dtype=np.int64)
        for plugin, weight in fwk.placement_score:
            normalised, status = plugin.normalize_placement_scores(group, entry.raw[plugin.name][feasible])
            normalised = np.asarray(normalised, dtype=np.int64)
            if not status.is_success() or (normalised.size and (
                    normalised.min() < MIN_PLACEMENT_SCORE or normalised.max() > MAX_PLACEMENT_SCORE)):
                return None
            full = np.zeros(n, dtype=np.int64)
            full[feasible] = normalised
            scores[plugin.name] = full
            weighted += weight * normalised
        for i, total in zip(feasible.tolist(), weighted.tolist()):
            totals[i] = total
        top = int(weighted.max())
        # highest total; on a tie the domain whose name sorts first (upstream: random)
        best = min((i for i, t in zip(feasible.tolist(), weighted.tolist()) if t == top),
                   key=lambda i: placements[i].name or "")

    result: GroupCycleResult | None = fresh.get(best)
    if result is None:  # a kept verdict: run the trial again for its pods' results
        result = evaluate_placement(fwk, group, queued, state, placements[best])
        entry.version[best] = state.version  # the run again saw the same rows
    columns = PlacementResults(
        [p.name for p in placements], [len(p.nodes) for p in placements], [True] * n,
        entry.feasible.tolist(), entry.scheduled.tolist(), list(entry.messages), totals,
        scores, best if len(feasible) else None,
    )
    result.placements = columns
    if not len(feasible):
        result.status = placements_unavailable(n, result.status)
        return result
    result.placement = placements[best].name
    return result


def _columns(fwk: Framework, trials: list[PlacementTrial]) -> PlacementResults:
    """The general path's trials as the result keeps them."""
    chosen = next((i for i, t in enumerate(trials) if t.chosen), None)
    names = [p.name for p, _ in fwk.placement_score]
    return PlacementResults(
        [t.name for t in trials], [t.nodes for t in trials], [t.evaluated for t in trials],
        [t.feasible for t in trials], [t.scheduled_pods for t in trials], [t.message for t in trials],
        [t.score for t in trials],
        {n: [None if t.scores is None else t.scores.get(n) for t in trials] for n in names},
        chosen,
    )


def evaluate_placement(
    fwk: Framework, group: Group, queued: Sequence[Pod], state: ClusterState, placement: Placement,
    keep: bool = False,
) -> GroupCycleResult:
    """evaluatePlacement: the default algorithm restricted to the placement's nodes, then rolled
    back. The group's scheduled count is read before the trial (the previous trial is undone).
    `keep`: a successful trial's assumes stay, inside the caller's checkpoint (`result.assumed`)."""
    s0 = scheduled_count(state, group.key)
    observer = fwk.observer
    if observer is not None:  # `explain`: each pod cycle of the trial names its candidate
        observer.trial_started(placement.name)
    try:
        with state.tentative() as trial:  # rolled back on exit: a trial never leaks into the next one
            result = run_default_algorithm(fwk, group, queued, state, view=placement.nodes, scheduled_count=s0)
            if keep and result.status.is_success():
                trial.keep()
                result.assumed = True
            return result
    finally:
        if observer is not None:
            observer.trial_ended()


def _record(trial: PlacementTrial, result: GroupCycleResult) -> None:
    trial.evaluated = True
    trial.feasible = result.status.is_success()
    trial.scheduled_pods = len(result.assignments)
    trial.message = None if trial.feasible else result.status.message


def _without_trials(group: Group, queued: Sequence[Pod], status: Status) -> GroupCycleResult:
    """A result for a group whose placement algorithm evaluated no candidate: no pod was tried."""
    result = GroupCycleResult(group, status, [(pod, None) for pod in queued])
    result.placements = PlacementResults([], [], [], [], [], [], [], {}, None)
    return result


def _best(
    fwk: Framework, group: Group, state: ClusterState, order: list[Placement],
    feasible: list[tuple[int, GroupCycleResult]], trials: list[PlacementTrial],
) -> tuple[int, Status]:
    """findBestPodGroupPlacement: the position (in `order`) of the winner. One feasible
    candidate wins unscored; several are scored by the PlacementScore plugins."""
    if len(feasible) == 1:
        return feasible[0][0], Status()
    candidates = [PodGroupAssignments(order[i], tuple(r.assignments)) for i, r in feasible]
    scores, status = fwk.run_placement_score(group, candidates, state)
    if not status.is_success():
        return -1, status
    for (i, _), score in zip(feasible, scores):
        trials[i].score, trials[i].scores = score.total, dict(score.scores)
    # Highest total; on a tie the domain whose name sorts first (upstream: random).
    best = min(zip(feasible, scores), key=lambda fs: (-fs[1].total, fs[1].placement.name or ""))
    return best[0][0], Status()
