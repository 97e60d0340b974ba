"""`podgroup-plan explain`: one target's outcome, with the numbers that decided it.

The plan is run once, exactly as `simulate` runs it (same configuration, same gates), with a
`Tracer` recording the target's own cycles (explain/trace.py). The result is a plain dict shaped
as contract.md's `explain` section (schemas/Explanation.json); explain/pod.py explains a pod and
explain/group.py a PodGroup or CompositePodGroup.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping

from podgroup_plan.explain.pod import explain_pod
from podgroup_plan.explain.targets import fail, not_found, resolve_owner
from podgroup_plan.explain.trace import Tracer
from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import CompositePodGroup, PodGroup
from podgroup_plan.result import API_VERSION, OwnerRef, PlanResult

if TYPE_CHECKING:
    from podgroup_plan.config.configuration import Configuration

POD, POD_GROUP, COMPOSITE_POD_GROUP = "Pod", "PodGroup", "CompositePodGroup"
DEFAULT_TOP = 3


@dataclass(frozen=True)
class Target:
    kind: str  # Pod | PodGroup | CompositePodGroup
    namespace: str
    name: str

    @property
    def key(self) -> tuple[str, str]:
        return (self.namespace, self.name)

    def to_dict(self) -> dict[str, str]:
        return {"kind": self.kind, "namespace": self.namespace, "name": self.name}


def parse_target(kind: str, text: str, flag: str | None = None) -> Target:
    """`NS/NAME` (or `NAME` in namespace `default`); `flag` names the option in an error."""
    namespace, sep, name = text.partition("/")
    if not sep:
        namespace, name = "default", text
    if not namespace or not name or "/" in name:
        raise fail(f"{flag or '--' + _flag(kind)} {text!r}: expected NAMESPACE/NAME")
    return Target(kind, namespace, name)


def owner_target(cluster: ClusterInput, kind: str, namespace: str, name: str, flag: str, *,
                 scheduler_config: Mapping | None = None, feature_gates: Mapping[str, bool] | None = None,
                 config_source: str = "<config>", expand: bool = True,
                 configuration: Configuration | None = None) -> Target:
    """The target `--job NS/NAME` or `--owner KIND/NS/NAME` names: planned once to learn which
    PodGroup (or CompositePodGroup tree, or pod) the owner's controller made, as the tables name
    it. Raises InputError (with the nearest owners) when there is none. `configuration`: the
    configuration already resolved (see `plan()`)."""
    from podgroup_plan.planner import plan

    result = plan(cluster, scheduler_config, feature_gates, config_source=config_source, expand=expand,
                  configuration=configuration)
    return Target(*resolve_owner(result, kind, namespace, name, flag))


def _flag(kind: str) -> str:
    return {POD: "pod", POD_GROUP: "pod-group", COMPOSITE_POD_GROUP: "composite-pod-group"}[kind]


def explain(cluster: ClusterInput, target: Target, *, scheduler_config: Mapping | None = None,
            feature_gates: Mapping[str, bool] | None = None, config_source: str = "<config>",
            node: str | None = None, top: int = DEFAULT_TOP, expand: bool = True,
            configuration: Configuration | None = None) -> dict[str, Any]:
    """Plan `cluster` as `simulate` does and explain `target`. Raises InputError when the target
    (or `node`) is not in the input. `configuration`: the configuration already resolved (the
    CLI resolves it while reading its input), used as it is (see `plan()`)."""
    from podgroup_plan.planner import plan

    tracer = Tracer(target, _parents(cluster))
    result = plan(cluster, scheduler_config, feature_gates, config_source=config_source,
                  expand=expand, observer=tracer, configuration=configuration)
    state = tracer.state
    if node is not None and node not in {n.name for n in cluster.nodes}:
        raise fail(f"--node {node}: no such Node in the input")
    doc: dict[str, Any] = {"apiVersion": API_VERSION, "kind": "Explanation", "target": target.to_dict()}
    if target.kind == POD:
        pod_result = next((p for p in result.pods if (p.namespace, p.name) == target.key), None)
        if pod_result is None:
            raise not_found(result, POD, target.namespace, target.name, "--pod", "no such pending Pod in the input")
        doc.update(explain_pod(pod_result, tracer.pods.get(target.key), tracer, state, top, node))
    else:
        from podgroup_plan.explain.group import explain_group

        doc.update(explain_group(result, target, tracer, state))
    owner = _owner(result, target)
    if owner is not None:
        doc["owner"] = owner.to_dict()
    return doc


def _owner(result: PlanResult, target: Target) -> OwnerRef | None:
    """The object the target was made for, at the top of its owner chain (the Job of a
    generated PodGroup, the JobSet of a Job's pod), or None: a field of the planner's own, so
    that a person sees `Job ns/train` beside the generated name."""
    if target.kind == POD:
        pod = next((p for p in result.pods if (p.namespace, p.name) == target.key), None)
        return result.root_owner(target.namespace, pod.owner) if pod is not None else None
    if target.kind == POD_GROUP:
        return result.group_owner(target.namespace, target.name)
    return result.composite_owner(target.namespace, target.name)


def _parents(cluster: ClusterInput) -> dict[tuple[str, str], tuple[str, str] | None]:
    """Group key -> its parent CompositePodGroup's key (`parentCompositePodGroupName`), for
    PodGroups and CompositePodGroups alike, so that a composite target sees its whole tree."""
    parents: dict[tuple[str, str], tuple[str, str] | None] = {}
    groups: tuple[PodGroup | CompositePodGroup, ...] = (*cluster.pod_groups, *cluster.composite_pod_groups)
    for group in groups:
        parents[group.key] = (group.namespace, group.parent) if group.parent else None
    return parents

