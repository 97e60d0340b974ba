"""The workload `headroom` adds copies of, and its copies.

A `--workload` file holds one workload as users write it: a Job (with `spec.scheduling` for a
gang), a JobSet, a Deployment, ReplicaSet or StatefulSet, a Workload with its PodGroups and
pods, a CompositePodGroup tree, a PodGroup with its pods, or one bare pod. Copy k renames
every object of it (`NAME-hK`) and every reference between them (a pod's PodGroup, a group's
Workload and parent, an owner reference), keeps everything else (labels too: a second
submission of the same manifest carries the same labels), and is created after everything in
the input, copy k one second after copy k-1, so the queue takes copies in order and after the
input's own pending work of the same priority.
"""
from __future__ import annotations

from dataclasses import fields, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from podgroup_plan.analyses.controller_kinds import CONTROLLER_KINDS
from podgroup_plan.analyses.controller_kinds import controller_objects as _controller_objects
from podgroup_plan.errors import Problem
from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import OwnerReference, Pod

COPY_SUFFIX = "-h{k}"


class WorkloadProblem(Exception):
    def __init__(self, problems: list[Problem]):
        super().__init__("\n".join(map(str, problems)))
        self.problems = problems


def roots(work: ClusterInput) -> list[tuple[str, str, str, Any]]:
    """(kind, namespace, name, object) of every workload in `work`: controllers not owned by
    another controller of the file, Workloads, PodGroups and CompositePodGroups that belong to
    no Workload and no parent, and pods that belong to none of those."""
    out: list[tuple[str, str, str, Any]] = []
    controllers = _controller_objects(work.controllers)
    named = {(kind, o.namespace, o.name) for kind, o in controllers}
    for kind, obj in controllers:
        owner = getattr(obj, "owner", None)
        # owned by another object of the file (a TrainJob's JobSet names the TrainJob itself)
        if (owner is not None and (owner.kind, obj.namespace, owner.name) in named
                and (owner.kind, owner.name) != (kind, obj.name)):
            continue
        out.append((kind, obj.namespace, obj.name, obj))
    out += [("Workload", w.namespace, w.name, w) for w in work.workloads]
    workloads = {(w.namespace, w.name) for w in work.workloads}
    tops: list[tuple[str, Any]] = [("CompositePodGroup", c) for c in work.composite_pod_groups]
    tops += [("PodGroup", g) for g in work.pod_groups]
    for kind, g in tops:
        if g.parent is None and (g.workload_name is None or (g.namespace, g.workload_name) not in workloads):
            out.append((kind, g.namespace, g.name, g))
    groups = {(g.namespace, g.name) for g in work.pod_groups}
    absent: set[tuple[str, str]] = set()  # PodGroups the pods name and the file lacks: one gang each
    # the PodGroups a Workload's controller would create, `<workload>-<template>`, are the Workload's
    for w in work.workloads:
        absent |= {(w.namespace, f"{w.name}-{t.name}") for t in w.pod_group_templates}
        absent |= {(w.namespace, f"{w.name}-{t.name}") for t in w.composite_pod_group_templates}
    for p in work.pods:
        if p.pod_group and (p.namespace, p.pod_group) in groups:
            continue
        if any((r.kind, p.namespace, r.name) in named for r in p.owner_references):
            continue
        if p.pod_group:
            if (p.namespace, p.pod_group) not in absent:
                absent.add((p.namespace, p.pod_group))
                out.append(("PodGroup", p.namespace, p.pod_group, p))
            continue
        out.append(("Pod", p.namespace, p.name, p))
    return out


def check_template(work: ClusterInput, file: str) -> tuple[str, str, str]:
    """The one workload of a `--workload` file, as (kind, namespace, name); raises
    WorkloadProblem (with the file's lines) when it holds none, several, or other things."""
    problems: list[Problem] = []
    if work.nodes:
        problems.append(Problem(file, "a --workload file holds one workload, not Nodes", line=_line(work.nodes[0])))
    running = [p for p in work.pods if p.node_name is not None]
    if running:
        problems.append(Problem(file, "a --workload file holds work to add: this pod is bound to a node",
                                line=_line(running[0]), kind="Pod", namespace=running[0].namespace,
                                name=running[0].name, path="spec.nodeName"))
    found = roots(work)
    if not found:
        problems.append(Problem(file, "no object that creates pods (a Job, JobSet, Deployment, ReplicaSet, "
                                "StatefulSet, an operator's job, Workload, PodGroup with pods, or Pod)"))
    elif len(found) > 1:
        for kind, ns, name, obj in found[1:]:
            problems.append(Problem(file, f"a --workload file holds one workload; this is another besides "
                                    f"{found[0][0]} {found[0][1]}/{found[0][2]}", line=_line(obj),
                                    kind=kind, namespace=ns, name=name))
    if problems:
        raise WorkloadProblem(problems)
    kind, ns, name, _ = found[0]
    return kind, ns, name


def _line(obj: Any) -> int | None:
    source = getattr(obj, "source", None)
    return source.line if source is not None else None


def latest_timestamp(cluster: ClusterInput) -> str:
    stamps = [t for p in cluster.pods for t in (p.creation_timestamp, p.start_time) if t]
    stamps += [g.creation_timestamp for g in cluster.pod_groups if g.creation_timestamp]
    stamps += [c.creation_timestamp for c in cluster.composite_pod_groups if c.creation_timestamp]
    stamps += [o.creation_timestamp for _, o in _controller_objects(cluster.controllers) if o.creation_timestamp]
    return max(stamps) if stamps else "1970-01-01T00:00:00Z"


def _after(stamp: str, seconds: int) -> str:
    try:
        when = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        when = datetime(1970, 1, 1, tzinfo=UTC)
    return (when.astimezone(UTC) + timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%SZ")


def copy_of(work: ClusterInput, k: int, after: str, seconds: int | None = None) -> ClusterInput:
    """Copy `k` (1-based) of the workload `work`, created `seconds` (default k) after `after`."""
    suffix = COPY_SUFFIX.format(k=k)
    stamp = _after(after, k if seconds is None else seconds)
    # every group a pod names is the copy's own, also one the file lacks (the copy waits for it)
    groups = ({g.name for g in work.pod_groups} | {c.name for c in work.composite_pod_groups}
              | {p.pod_group for p in work.pods if p.pod_group})
    workloads = {w.name for w in work.workloads}
    owners = {o.name for _, o in _controller_objects(work.controllers)} | {p.name for p in work.pods}

    def rn(name: str | None, known: set[str]) -> str | None:
        return None if name is None else (name + suffix if name in known else name)

    def own(refs: tuple[OwnerReference, ...]) -> tuple[OwnerReference, ...]:
        return tuple(replace(r, name=rn(r.name, owners) or r.name) for r in refs)

    def pod(p: Pod) -> Pod:
        return replace(p, name=p.name + suffix, pod_group=rn(p.pod_group, groups),
                       owner_references=own(p.owner_references), creation_timestamp=stamp, uid="")

    def group(g: Any) -> Any:
        return replace(g, name=g.name + suffix, workload_name=rn(g.workload_name, workloads),
                       parent=rn(g.parent, groups), creation_timestamp=stamp, conditions=())

    def controller(o: Any) -> Any:
        changes: dict[str, Any] = {"name": o.name + suffix, "uid": "", "creation_timestamp": stamp}
        names = {f.name for f in fields(o)}
        if "owner" in names and o.owner is not None:
            changes["owner"] = replace(o.owner, name=rn(o.owner.name, owners) or o.owner.name)
        return replace(o, **changes)

    found = work.controllers
    controllers = None
    if found:
        copied: dict[str, Any] = {attr: tuple(controller(o) for o in getattr(found, attr)) for attr in CONTROLLER_KINDS}
        controllers = replace(found, **copied)
    return replace(
        work,
        pods=tuple(pod(p) for p in work.pods),
        pod_groups=tuple(group(g) for g in work.pod_groups),
        composite_pod_groups=tuple(group(c) for c in work.composite_pod_groups),
        workloads=tuple(replace(w, name=w.name + suffix) for w in work.workloads),
        controllers=controllers,
    )
