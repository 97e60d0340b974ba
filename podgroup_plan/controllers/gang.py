"""The planner's gang mapping for operator objects: Workload + PodGroup(s) (+ CompositePodGroup).

No operator's 2026 release creates `scheduling.k8s.io` objects on a 1.37 cluster
(docs/controllers.md), so this mapping is the planner's own, asked for with `--gang` or the
annotation `podgroup-plan.io/gang` on one object. It answers "what would 1.37 gang scheduling
do with this object": one Workload named as the object, and

* `single`: one Gang PodGroup `<object>-<template>` holding every pod;
* a tree: one CompositePodGroup `<object>` over one PodGroup per role
  (`<object>-<role>`), as KEP-4671's CompositePodGroup builds multi-level gangs.

`minCount` is the operator's own field where it has one, else every pod of the group; the
topology constraint is the label named by `podgroup-plan.io/topology`. All objects are
`scheduling.k8s.io/v1alpha3`, what the 1.37 Job controller writes.
"""
from __future__ import annotations

from dataclasses import dataclass

from podgroup_plan.controllers.context import Creation
from podgroup_plan.model.objects import (
    BASIC,
    GANG,
    CompositePodGroup,
    CompositePodGroupTemplate,
    OwnerReference,
    PodGroup,
    PodGroupTemplate,
    Source,
    Workload,
)

API_VERSION = "scheduling.k8s.io/v1alpha3"
SINGLE = "gang"  # the template (and PodGroup suffix) of a one-gang mapping


@dataclass(frozen=True)
class Leaf:
    """One PodGroup to create: its template (role) and name, and its gang's minimum."""

    template: str
    name: str
    min_count: int
    topology_key: str | None = None


def pod_by_pod_note(kind: str, namespace: str, name: str) -> str:
    return (f"{kind} {namespace}/{name}: planned pod by pod, as a 1.37 cluster without a gang "
            "scheduler schedules it (its operator creates no Workload or PodGroup); --gang or the "
            'annotation podgroup-plan.io/gang: "true" plans it as a gang')


def make_gang(ctx: Creation, kind: str, namespace: str, name: str, leaves: list[Leaf],
              root: tuple[str, int, str | None] | None, creation_timestamp: str | None,
              source: Source | None, root_policy: str = GANG) -> bool:
    """Create the Workload `name`, the PodGroups `leaves` and, when `root` is
    (template, minGroupCount, topologyKey), the CompositePodGroup `name` above them. False (and
    a note) when the input already has a Workload or PodGroup of those names: the object is then
    planned pod by pod."""
    taken = [n for n in [name] if ctx.has_workload(namespace, n)]
    taken += [leaf.name for leaf in leaves if ctx.pod_group(namespace, leaf.name) is not None]
    if taken:
        ctx.notes.add(f"{kind} {namespace}/{name}: not planned as a gang: the input already has "
                      f"{', '.join(sorted(set(taken)))}; planned pod by pod")
        return False
    owner = OwnerReference(kind, name, True)
    templates = tuple(_unique(PodGroupTemplate(leaf.template, GANG, leaf.min_count, leaf.topology_key)
                              for leaf in leaves))
    composites: tuple = ()
    if root is not None:
        template, min_groups, topology = root
        composites = (CompositePodGroupTemplate(template, root_policy, min_groups, topology,
                                                pod_group_templates=templates),)
        templates = ()
        ctx.add_composite_pod_group(CompositePodGroup(
            namespace=namespace, name=name, api_version=API_VERSION, policy=root_policy,
            min_group_count=min_groups if root_policy == GANG else 1, topology_key=topology,
            workload_name=name, template_name=template, creation_timestamp=creation_timestamp,
            source=source))
        ctx.parent(namespace, "CompositePodGroup", name, owner)  # tables name it by its object
    ctx.add_workload(Workload(namespace=namespace, name=name, api_version=API_VERSION,
                              pod_group_templates=templates, composite_pod_group_templates=composites,
                              source=source))
    for leaf in leaves:
        ctx.add_pod_group(PodGroup(
            namespace=namespace, name=leaf.name, api_version=API_VERSION, policy=GANG,
            min_count=leaf.min_count, topology_key=leaf.topology_key, workload_name=name,
            template_name=leaf.template, parent=name if root is not None else None,
            creation_timestamp=creation_timestamp, source=source))
        ctx.parent(namespace, "PodGroup", leaf.name, owner)
    ctx.notes.add(f"{kind} {namespace}/{name}: planned as a gang (the planner's mapping, "
                  "docs/controllers.md): " + _shape(leaves, root, root_policy))
    return True


def _unique(templates):
    seen = set()
    for t in templates:
        if t.name not in seen:
            seen.add(t.name)
            yield t


def _shape(leaves: list[Leaf], root, root_policy: str) -> str:
    groups = ", ".join(f"{leaf.name} (minCount {leaf.min_count})" for leaf in leaves[:4])
    if len(leaves) > 4:
        groups += f", … +{len(leaves) - 4} more"
    if root is None:
        return f"PodGroup {groups}"
    policy = f"Gang minGroupCount {root[1]}" if root_policy == GANG else BASIC
    return f"CompositePodGroup ({policy}) over PodGroups {groups}"
