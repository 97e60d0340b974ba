"""`--cordon`, `--drain`, `--fail NODE|LABEL=VALUE` and `--add-node FILE`: what-if changes
applied to the input before it is planned (podgroup_plan/analyses/what_if/changes.py says what
each does). Shared by the commands that plan one input (`simulate`, `headroom`)."""
from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Annotated

import typer

from podgroup_plan.errors import InputError, Problem

if TYPE_CHECKING:
    from podgroup_plan.analyses.what_if.changes import Applied
    from podgroup_plan.model.cluster_input import ClusterInput
    from podgroup_plan.model.objects import Node
    from podgroup_plan.result import PlanResult

TARGET = "NODE|LABEL=VALUE"
CordonOpt = Annotated[list[str] | None, typer.Option(
    "--cordon", metavar=TARGET, show_default=False,
    help="What if these nodes were cordoned (unschedulable, their pods stay)? Repeatable.")]
DrainOpt = Annotated[list[str] | None, typer.Option(
    "--drain", metavar=TARGET, show_default=False,
    help="What if these nodes were drained (cordoned, pods evicted as kubectl drain "
         "--ignore-daemonsets evicts them, PodDisruptionBudgets respected)? Repeatable.")]
FailOpt = Annotated[list[str] | None, typer.Option(
    "--fail", metavar=TARGET, show_default=False,
    help="What if these nodes failed (gone with their pods; controllers recreate theirs)? "
         "Repeatable.")]
# list[str], not list[Path]: the CLI coerces strings and lists of strings without pydantic
# (app._plain_coercion); paths are made here.
AddNodeOpt = Annotated[list[str] | None, typer.Option(
    "--add-node", metavar="FILE", show_default=False,
    help="What if the Node objects in FILE were added? Repeatable.")]


def read_nodes(files: list[str] | None) -> list[Node]:
    """The Node objects of every `--add-node` file; a file without one, or with anything else,
    is bad input."""
    if not files:
        return []
    from podgroup_plan.loading import load_input

    nodes: list[Node] = []
    problems: list[Problem] = []
    for file in files:
        try:
            found = load_input([str(file)])
        except InputError as err:
            problems += err.problems
            continue
        others = len(found.pods) + len(found.pod_groups) + len(found.workloads) + len(found.priority_classes)
        if not found.nodes or others:
            problems.append(Problem(str(file), "--add-node: the file must hold Node objects only "
                                    f"(found {len(found.nodes)} Node(s) and {others} other object(s))"))
        nodes += found.nodes
    if problems:
        raise InputError(problems)
    return nodes


def apply(cluster: ClusterInput, cordon: list[str] | None, drain: list[str] | None,
          fail: list[str] | None, add_node: list[str] | None) -> tuple[ClusterInput, Applied | None]:
    """`cluster` with the changes applied, and their account (None when there are none)."""
    if not (cordon or drain or fail or add_node):
        return cluster, None
    from podgroup_plan.analyses.what_if.changes import (
        CORDON,
        DRAIN,
        FAIL,
        ChangeError,
        NodeChange,
        apply_changes,
    )

    changes = ([NodeChange(CORDON, t) for t in cordon or ()] + [NodeChange(DRAIN, t) for t in drain or ()]
               + [NodeChange(FAIL, t) for t in fail or ()])
    problems = []
    from podgroup_plan.analyses.what_if.changes import select_nodes

    for change in changes:  # every target that names nothing, at once
        try:
            select_nodes(cluster.nodes, change.target)
        except ChangeError as err:
            problems.append(Problem(change.describe(), str(err)))
    if problems:
        raise InputError(problems)
    added = read_nodes(add_node)
    try:
        applied = apply_changes(cluster, changes, added)
    except ChangeError as err:
        raise InputError([Problem("--add-node", str(err))]) from None
    return applied.cluster, applied


def noted(result: PlanResult, applied: Applied | None) -> PlanResult:
    """`result` with a note saying what the changes did (the plan's JSON document keeps its
    shape: the displaced pods are among its pods, recreated pending)."""
    if applied is None:
        return result
    return dataclasses.replace(result, notes=tuple(sorted(set(result.notes) | set(noted_lines(applied)))))


def noted_lines(applied: Applied) -> list[str]:
    """One line saying what the changes did."""
    parts = []
    for word, nodes in (("cordoned", applied.cordoned), ("drained", applied.drained),
                        ("failed", applied.failed), ("added", applied.added)):
        if nodes:
            shown = ", ".join(nodes[:6]) + (f" and {len(nodes) - 6} more" if len(nodes) > 6 else "")
            parts.append(f"{len(nodes)} node(s) {word} ({shown})")
    moved = [d for d in applied.displaced if d.fate == "recreated"]
    lost = [d for d in applied.displaced if d.fate == "lost"]
    text = "what-if: " + "; ".join(parts)
    if applied.displaced:
        text += (f"; {len(applied.displaced)} running pod(s) displaced: {len(moved)} recreated pending "
                 f"by their controllers, {len(lost)} bare pod(s) lost")
        if lost:
            text += " (" + ", ".join(f"{d.pod.namespace}/{d.pod.name}" for d in lost[:6]) + \
                (f" and {len(lost) - 6} more" if len(lost) > 6 else "") + ")"
    if applied.refused:
        text += (f"; {len(applied.refused)} eviction(s) refused by a PodDisruptionBudget, the pods stay: "
                 + ", ".join(f"{r.pod.namespace}/{r.pod.name} ({', '.join(r.budgets)})" for r in applied.refused[:6]))
    return [text]
