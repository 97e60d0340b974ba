"""What `explain` is asked about, named the way a user knows it: a pod, a PodGroup, a
CompositePodGroup, or the object that owns them (`--job NS/NAME`, `--owner KIND/NS/NAME`:
the Job, JobSet, Deployment, ... a user wrote, whose PodGroup has a generated name). When the
target is not in the plan, the error says so from the command line (`command line: --pod-group
...`) and offers the nearest names (`did you mean --job research/giant-pretrain?`).

Owners are resolved from a plan's result (`PlanResult.group_owner`, `root_owner`), the same
chains the tables name objects by, so `--job` finds exactly the gang the table calls `Job ...`.
"""
from __future__ import annotations

import difflib
from typing import Iterable

from podgroup_plan.errors import InputError, Problem
from podgroup_plan.result import PlanResult

# The "file" of a problem in what the user typed (errors.Problem's first field).
COMMAND_LINE = "command line"


def fail(text: str) -> InputError:
    return InputError([Problem(COMMAND_LINE, text)])


def parse_owner(text: str, flag: str = "--owner") -> tuple[str, str, str]:
    """`KIND/NS/NAME` (or `KIND/NAME` in namespace `default`)."""
    parts = text.split("/")
    if len(parts) == 2:
        parts = [parts[0], "default", parts[1]]
    if len(parts) != 3 or not all(parts):
        raise fail(f"{flag} {text!r}: expected KIND/NAMESPACE/NAME (e.g. Job/ml/train)")
    return parts[0], parts[1], parts[2]


def owners(result: PlanResult) -> dict[tuple[str, str, str], dict[str, list[str]]]:
    """(kind, namespace, name) of every owner at the top of a chain -> its PodGroups and pods."""
    out: dict[tuple[str, str, str], dict[str, list[str]]] = {}
    for g in result.pod_groups:
        root = result.group_owner(g.namespace, g.name)
        if root is not None:
            out.setdefault((root.kind, g.namespace, root.name), {"groups": [], "pods": []})["groups"].append(g.name)
    for p in result.pods:
        root = result.root_owner(p.namespace, p.owner)
        if root is not None:
            out.setdefault((root.kind, p.namespace, root.name), {"groups": [], "pods": []})["pods"].append(p.name)
    return out


def owner_flag(kind: str, namespace: str, name: str) -> str:
    return f"--job {namespace}/{name}" if kind == "Job" else f"--owner {kind}/{namespace}/{name}"


def resolve_owner(result: PlanResult, kind: str, namespace: str, name: str, flag: str) -> tuple[str, str, str]:
    """(target kind, namespace, name) to explain for an owner: its only PodGroup, the root
    CompositePodGroup its PodGroups share, or its only pod."""
    found = owners(result)
    mine = found.get((kind, namespace, name))
    asked = f"{flag} {namespace}/{name}" if flag == "--job" else f"{flag} {kind}/{namespace}/{name}"
    if mine is None:
        hint = did_you_mean(f"{kind}/{namespace}/{name}",
                            {f"{k}/{ns}/{n}": owner_flag(k, ns, n) for k, ns, n in found})
        raise fail(f"{asked}: no such owner of a pending pod or PodGroup in the input{hint}")
    groups = sorted(set(mine["groups"]))
    roots = sorted({root for g in groups if (root := _composite_root(result, namespace, g)) is not None})
    if len(roots) == 1:
        return "CompositePodGroup", namespace, roots[0]
    if len(groups) == 1:
        return "PodGroup", namespace, groups[0]
    if groups:
        raise fail(f"{asked}: it has {len(groups)} PodGroups ({', '.join(groups[:6])}"
                   f"{', …' if len(groups) > 6 else ''}); explain one with --pod-group {namespace}/NAME")
    pods = sorted(mine["pods"])
    if len(pods) == 1:
        return "Pod", namespace, pods[0]
    raise fail(f"{asked}: it has no PodGroup; its {len(pods)} pods are planned one by one: explain one "
               f"with --pod {namespace}/{pods[0]}")


def _composite_root(result: PlanResult, namespace: str, group: str) -> str | None:
    parent = result.group_parents.get((namespace, group))
    parents = {c.name: c.parent for c in result.composite_pod_groups if c.namespace == namespace}
    seen: set[str] = set()
    while parent is not None and parent in parents and parent not in seen:
        seen.add(parent)
        if parents[parent] is None or parents[parent] not in parents:
            return parent
        parent = parents[parent]
    return None


def not_found(result: PlanResult, kind: str, namespace: str, name: str, flag: str, what: str) -> InputError:
    """`command line: --pod-group ns/x: no such PodGroup in the input; did you mean ...?`"""
    wanted = f"{namespace}/{name}"
    choices: dict[str, str] = {}
    for (k, ns, n), _ in owners(result).items():
        # the owner's name is what a user often types for its generated PodGroup
        choices[f"{ns}/{n}"] = owner_flag(k, ns, n)
    if kind == "Pod":
        choices.update({f"{p.namespace}/{p.name}": f"--pod {p.namespace}/{p.name}" for p in result.pods})
    elif kind == "PodGroup":
        choices.update({f"{g.namespace}/{g.name}": f"--pod-group {g.namespace}/{g.name}" for g in result.pod_groups})
    else:
        choices.update({f"{c.namespace}/{c.name}": f"--composite-pod-group {c.namespace}/{c.name}"
                        for c in result.composite_pod_groups})
    return fail(f"{flag} {wanted}: {what}{did_you_mean(wanted, choices)}")


def did_you_mean(wanted: str, choices: dict[str, str]) -> str:
    """`; did you mean --job ns/x?` for the closest names (an exact owner name first)."""
    if wanted in choices:
        return f"; did you mean {choices[wanted]}?"
    close = difflib.get_close_matches(wanted, list(choices), n=3, cutoff=0.6)
    if not close:
        return ""
    return "; did you mean " + _or(choices[c] for c in close) + "?"


def _or(items: Iterable[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]
