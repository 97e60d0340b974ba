"""Workloads, their templates, PodGroups, CompositePodGroups and v1alpha1's implied groups.

Mirrors the `scheduling.k8s.io` gang-scheduling API across its versions (README,
"Groups, by API version"): v1alpha1 Workloads list `podGroups` whose pods each imply a
PodGroup (`WORKLOAD/PODGROUP[/REPLICAKEY]`); v1alpha2 and later have real PodGroups made from
`podGroupTemplates` (v1alpha2 `podGroupTemplateRef.workload`, later `workloadRef`), and
CompositePodGroups that nest them. A group's priority resolves as the `Priority` admission
plugin resolves a pod's (`decode_priorities.PriorityTable.group`).
"""
from __future__ import annotations

from typing import Any, Mapping

from podgroup_plan.loading.decode_meta import Report, namespace_of, source_of, timestamp
from podgroup_plan.loading.decode_priorities import PriorityTable
from podgroup_plan.loading.documents import Document
from podgroup_plan.model.objects import (
    BASIC,
    DISRUPTION_ALL,
    DISRUPTION_SINGLE,
    GANG,
    CompositePodGroup,
    CompositePodGroupTemplate,
    Condition,
    PodGroup,
    PodGroupTemplate,
    Workload,
)

V1ALPHA1 = "scheduling.k8s.io/v1alpha1"
V1ALPHA2 = "scheduling.k8s.io/v1alpha2"


# --- fields groups and templates share ---------------------------------------------------------


def _policy(raw: Mapping, count_field: str) -> tuple[str, int]:
    gang = raw.get("gang")
    if gang is not None:
        return GANG, gang[count_field]
    return BASIC, 1


def _topology_key(raw: Mapping) -> str | None:
    topology = (raw.get("schedulingConstraints") or {}).get("topology")
    return (topology[0] or {}).get("key") if topology else None  # missing: refused by its validation


def _disruption_mode(raw: Mapping) -> str:
    mode = raw.get("disruptionMode")
    if isinstance(mode, str):  # v1alpha2: "Pod" | "PodGroup"
        return DISRUPTION_ALL if mode == "PodGroup" else DISRUPTION_SINGLE
    if mode and "all" in mode:  # v1alpha3/v1beta1: {single: {}} | {all: {}}
        return DISRUPTION_ALL
    return DISRUPTION_SINGLE


# --- Workloads and their templates -------------------------------------------------------------


def _template_fields(raw: Mapping) -> dict[str, Any]:
    """What pod group and composite templates share, as keyword arguments."""
    return dict(
        name=raw["name"],
        topology_key=_topology_key(raw),
        disruption_mode=_disruption_mode(raw),
        priority_class_name=raw.get("priorityClassName") or None,
        priority=raw.get("priority"),
        preemption_policy=raw.get("preemptionPolicy") or None,
    )


def pod_group_template(raw: Mapping, api_version: str) -> PodGroupTemplate:
    policy, min_count = _policy(raw["policy"] if api_version == V1ALPHA1 else raw["schedulingPolicy"], "minCount")
    return PodGroupTemplate(policy=policy, min_count=min_count, **_template_fields(raw))


def composite_template(raw: Mapping, api_version: str) -> CompositePodGroupTemplate:
    policy, min_group_count = _policy(raw["schedulingPolicy"], "minGroupCount")
    return CompositePodGroupTemplate(
        policy=policy,
        min_group_count=min_group_count,
        pod_group_templates=tuple(
            pod_group_template(t, api_version) for t in raw.get("podGroupTemplates") or ()
        ),
        composite_pod_group_templates=tuple(
            composite_template(t, api_version) for t in raw.get("compositePodGroupTemplates") or ()
        ),
        **_template_fields(raw),
    )


def template_field(api_version: str) -> str:
    """Where a Workload lists its pod group templates: v1alpha1 calls them podGroups."""
    return "podGroups" if api_version == V1ALPHA1 else "podGroupTemplates"


def decode_workload(doc: Document) -> Workload:
    obj, api_version = doc.obj, doc.api_version
    meta, spec = obj["metadata"], obj["spec"]
    return Workload(
        namespace=namespace_of(meta),
        name=meta["name"],
        api_version=api_version,
        pod_group_templates=tuple(
            pod_group_template(t, api_version) for t in spec.get(template_field(api_version)) or ()
        ),
        composite_pod_group_templates=tuple(
            composite_template(t, api_version) for t in spec.get("compositePodGroupTemplates") or ()
        ),
        source=source_of(doc),
    )


# --- PodGroups and CompositePodGroups ----------------------------------------------------------


def _conditions(obj: Mapping) -> tuple[Condition, ...]:
    return tuple(
        Condition(c["type"], c["status"], c.get("reason") or "", c.get("message") or "")
        for c in (obj.get("status") or {}).get("conditions") or ()
    )


def workload_reference(spec: Mapping, api_version: str) -> tuple[str | None, str | None]:
    """(workload, template) a group was made from: v1alpha2 `podGroupTemplateRef.workload`,
    later `workloadRef`."""
    if api_version == V1ALPHA2:
        ref = (spec.get("podGroupTemplateRef") or {}).get("workload") or {}
        return ref.get("workloadName"), ref.get("podGroupTemplateName")
    ref = spec.get("workloadRef") or {}
    return ref.get("workloadName"), ref.get("templateName")


def _group_fields(doc: Document, priorities: PriorityTable, report: Report) -> dict[str, Any]:
    """What PodGroups and CompositePodGroups share, as keyword arguments (all but the count)."""
    obj, api_version = doc.obj, doc.api_version
    meta, spec = obj["metadata"], obj["spec"]
    class_name = spec.get("priorityClassName") or None
    priority, preemption_policy = priorities.group(spec.get("priority"), class_name, spec.get("preemptionPolicy"))
    workload, template = workload_reference(spec, api_version)
    return dict(
        namespace=namespace_of(meta),
        name=meta["name"],
        api_version=api_version,
        topology_key=_topology_key(spec),
        disruption_mode=_disruption_mode(spec),
        priority_class_name=class_name,
        priority=priority,
        preemption_policy=preemption_policy,
        workload_name=workload,
        template_name=template,
        parent=spec.get("parentCompositePodGroupName") or None,
        creation_timestamp=timestamp(meta.get("creationTimestamp"), ("metadata", "creationTimestamp"), report),
        conditions=_conditions(obj),
        source=source_of(doc),
    )


def decode_pod_group(doc: Document, priorities: PriorityTable, report: Report) -> PodGroup:
    policy, min_count = _policy(doc.obj["spec"]["schedulingPolicy"], "minCount")
    return PodGroup(policy=policy, min_count=min_count, **_group_fields(doc, priorities, report))


def decode_composite_pod_group(doc: Document, priorities: PriorityTable, report: Report) -> CompositePodGroup:
    policy, count = _policy(doc.obj["spec"]["schedulingPolicy"], "minGroupCount")
    return CompositePodGroup(policy=policy, min_group_count=count, **_group_fields(doc, priorities, report))


# --- v1alpha1: groups that pods imply ----------------------------------------------------------


def implied_pod_groups(
    refs: Mapping[tuple[str, str], tuple[str, str, str]],
    workloads: list[tuple[Document, Workload]],
    priorities: PriorityTable,
) -> list[PodGroup]:
    """The PodGroups that v1alpha1 pods imply: one per distinct (namespace, workload, podGroup,
    replicaKey), with the policy of the Workload's podGroups entry. A pod whose reference does
    not resolve gets no group (it waits, as on a live cluster)."""
    by_name = {(w.namespace, w.name): w for _, w in workloads}
    groups = []
    for (namespace, group_name), (workload_name, template_name, _key) in sorted(refs.items()):
        workload = by_name.get((namespace, workload_name))
        template = next(
            (t for t in workload.pod_group_templates if t.name == template_name), None
        ) if workload else None
        if template is None or workload is None:
            continue
        priority, preemption_policy = priorities.group(
            template.priority, template.priority_class_name, template.preemption_policy
        )
        groups.append(
            PodGroup(
                namespace=namespace,
                name=group_name,
                api_version=V1ALPHA1,
                policy=template.policy,
                min_count=template.min_count,
                topology_key=template.topology_key,
                disruption_mode=template.disruption_mode,
                priority_class_name=template.priority_class_name,
                priority=priority,
                preemption_policy=preemption_policy,
                workload_name=workload_name,
                template_name=template_name,
                implied=True,
                source=workload.source,
            )
        )
    return groups
