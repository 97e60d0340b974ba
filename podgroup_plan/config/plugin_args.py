"""pluginConfig args: one plugin's args decoded, defaulted and validated into config/args.py.

Mirrors `pkg/scheduler/apis/config`: `types_pluginargs.go` (the fields of each *Args type),
`v1/defaults.go` (SetDefaults_*Args: the args a profile gets when its pluginConfig has no entry
for a plugin, and the defaulting of fields left unset) and `validation/validation_pluginargs.go`
(the checks and their messages); NodeAffinity's addedAffinity is checked as
`component-helpers/scheduling/corev1/nodeaffinity` parses it. VolumeBinding and DynamicResources
are not applied, but their args are still checked. Ours, beyond upstream: args given to a plugin
that takes none are an error, as is any unknown field.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from podgroup_plan.config.args import (
    DEFAULT_RESOURCES,
    LEAST_ALLOCATED,
    LIST_DEFAULTING,
    MOST_ALLOCATED,
    REQUESTED_TO_CAPACITY_RATIO,
    SYSTEM_DEFAULTING,
    DefaultPreemptionArgs,
    InterPodAffinityArgs,
    NodeAffinityArgs,
    NodeResourcesBalancedAllocationArgs,
    NodeResourcesFitArgs,
    PodTopologySpreadArgs,
    ResourceSpec,
    ScoringStrategy,
    UtilizationShapePoint,
)
from podgroup_plan.config.values import (
    API_VERSION,
    INT64,
    Ctx,
    child_path,
    index_path,
    is_qualified_name,
    is_valid_label_value,
    read_bool,
    read_int,
    read_list,
    read_object,
    read_str,
    read_str_list,
    validate_label_name,
)
from podgroup_plan.model.objects import PreferredSchedulingTerm, TopologySpreadConstraint
from podgroup_plan.model.selectors import NodeSelector, NodeSelectorRequirement, NodeSelectorTerm

__all__ = ["ARGS_TYPES", "ArgsType", "decode_args"]

_TYPE_META = ("apiVersion", "kind")
_SCORING_TYPES = (LEAST_ALLOCATED, MOST_ALLOCATED, REQUESTED_TO_CAPACITY_RATIO)
_MAX_CUSTOM_PRIORITY_SCORE = 10


def _check_type_meta(ctx: Ctx, args: Mapping, path: str, plugin: str) -> None:
    api_version = args.get("apiVersion")
    if api_version is not None and api_version != API_VERSION:
        ctx.invalid(child_path(path, "apiVersion"), api_version, f'must be "{API_VERSION}"')
    kind = args.get("kind")
    if kind is not None and kind != f"{plugin}Args":
        ctx.invalid(child_path(path, "kind"), kind, "has to match plugin args")


def _resource_specs(ctx: Ctx, value: Any, path: str) -> list[tuple[str, int, str]]:
    """[(name, weight with 0 defaulted to 1, path)] of a ResourceSpec list."""
    out = []
    for i, item in enumerate(read_list(ctx, value, path)):
        p = index_path(path, i)
        obj = read_object(ctx, item, p, ("name", "weight"))
        if obj is None:
            continue
        name = "" if obj.get("name") is None else read_str(ctx, obj.get("name"), child_path(p, "name"))
        weight = read_int(ctx, obj.get("weight"), child_path(p, "weight"), INT64)
        if name is None or (weight is None and obj.get("weight") is not None):
            continue
        out.append((name, weight or 1, p))
    return out


def _shape(ctx: Ctx, value: Any, path: str) -> tuple[UtilizationShapePoint, ...] | None:
    """validateFunctionShape: at least one point; utilization strictly increasing (reported once),
    in [0, 100]; score in [0, 10]."""
    points: list[tuple[int, int, str]] = []
    broken = False
    for i, item in enumerate(read_list(ctx, value, path)):
        p = index_path(path, i)
        obj = read_object(ctx, item, p, ("utilization", "score"))
        if obj is None:
            broken = True
            continue
        u = read_int(ctx, obj.get("utilization"), child_path(p, "utilization"))
        s = read_int(ctx, obj.get("score"), child_path(p, "score"))
        if (u is None and obj.get("utilization") is not None) or (s is None and obj.get("score") is not None):
            broken = True
            continue
        points.append((u or 0, s or 0, p))
    if broken:
        return None
    if not points:
        ctx.required(path, "at least one point must be specified")
        return None
    ok = True
    for i in range(1, len(points)):
        if points[i - 1][0] >= points[i][0]:
            ctx.invalid(
                child_path(points[i][2], "utilization"), points[i][0], "values must be sorted in increasing order"
            )
            ok = False
            break
    for u, s, p in points:
        if not 0 <= u <= 100:
            ctx.invalid(child_path(p, "utilization"), u, "not in valid range [0, 100]")
            ok = False
        if not 0 <= s <= _MAX_CUSTOM_PRIORITY_SCORE:
            ctx.invalid(child_path(p, "score"), s, f"not in valid range [0, {_MAX_CUSTOM_PRIORITY_SCORE}]")
            ok = False
    return tuple(UtilizationShapePoint(u, s) for u, s, _ in points) if ok else None


def _node_resources_fit(ctx: Ctx, args: Mapping, path: str) -> NodeResourcesFitArgs | None:
    n = len(ctx.problems)
    ignored = read_str_list(ctx, args.get("ignoredResources"), child_path(path, "ignoredResources"))
    for i, res in enumerate(ignored):
        validate_label_name(ctx, res, index_path(child_path(path, "ignoredResources"), i))
    groups = read_str_list(ctx, args.get("ignoredResourceGroups"), child_path(path, "ignoredResourceGroups"))
    for i, group in enumerate(groups):
        p = index_path(child_path(path, "ignoredResourceGroups"), i)
        if "/" in group:
            ctx.invalid(p, group, "resource group name can't contain '/'")
        validate_label_name(ctx, group, p)

    spath = child_path(path, "scoringStrategy")
    raw = args.get("scoringStrategy")
    strategy = ScoringStrategy()
    if raw is not None:
        obj = read_object(ctx, raw, spath, ("type", "resources", "requestedToCapacityRatio"))
        if obj is not None:
            type_ = read_str(ctx, obj.get("type"), child_path(spath, "type"))
            if type_ is None and obj.get("type") is None:
                type_ = ""  # no defaulting of the type when a strategy is given (upstream)
            if type_ is not None and type_ not in _SCORING_TYPES:
                ctx.not_supported(child_path(spath, "type"), type_, _SCORING_TYPES)
            rpath = child_path(spath, "resources")
            specs = _resource_specs(ctx, obj.get("resources"), rpath)
            for name, weight, p in specs:
                if weight <= 0 or weight > 100:
                    ctx.invalid(
                        child_path(p, "weight"), weight, f"resource weight of {name} not in valid range (0, 100]"
                    )
            resources = tuple(ResourceSpec(name, w) for name, w, _ in specs) or DEFAULT_RESOURCES
            shape: tuple[UtilizationShapePoint, ...] = ()
            r2c_path = child_path(spath, "requestedToCapacityRatio")
            r2c = obj.get("requestedToCapacityRatio")
            if type_ == REQUESTED_TO_CAPACITY_RATIO:
                if r2c is None:
                    ctx.required(r2c_path, "must be specified when type is RequestedToCapacityRatio")
                else:
                    r2c_obj = read_object(ctx, r2c, r2c_path, ("shape",))
                    if r2c_obj is not None:
                        shape = _shape(ctx, r2c_obj.get("shape"), child_path(r2c_path, "shape")) or ()
            elif r2c is not None:
                ctx.forbidden(r2c_path, "must be nil when type is not RequestedToCapacityRatio")
            strategy = ScoringStrategy(type_ or "", resources, shape)
    if len(ctx.problems) > n:
        return None
    return NodeResourcesFitArgs(tuple(ignored), tuple(groups), strategy)


def _balanced_allocation(ctx: Ctx, args: Mapping, path: str) -> NodeResourcesBalancedAllocationArgs | None:
    n = len(ctx.problems)
    rpath = child_path(path, "resources")
    specs = _resource_specs(ctx, args.get("resources"), rpath)
    seen: set[str] = set()
    for name, weight, p in specs:
        if name in seen:
            ctx.duplicate(child_path(p, "name"), name)
        seen.add(name)
        if weight != 1:
            ctx.invalid(child_path(p, "weight"), weight, "must be 1")
    if len(ctx.problems) > n:
        return None
    return NodeResourcesBalancedAllocationArgs(tuple(ResourceSpec(nm, w) for nm, w, _ in specs) or DEFAULT_RESOURCES)


def _inter_pod_affinity(ctx: Ctx, args: Mapping, path: str) -> InterPodAffinityArgs | None:
    n = len(ctx.problems)
    wpath = child_path(path, "hardPodAffinityWeight")
    weight = read_int(ctx, args.get("hardPodAffinityWeight"), wpath)
    if weight is None:
        weight = 1
    if not 0 <= weight <= 100:
        ctx.invalid(wpath, weight, "not in valid range [0, 100]")
    ignore = read_bool(
        ctx, args.get("ignorePreferredTermsOfExistingPods"), child_path(path, "ignorePreferredTermsOfExistingPods")
    )
    if len(ctx.problems) > n:
        return None
    return InterPodAffinityArgs(weight, bool(ignore))


_SPREAD_CONSTRAINT_FIELDS = (
    "maxSkew", "topologyKey", "whenUnsatisfiable", "labelSelector", "minDomains",
    "nodeAffinityPolicy", "nodeTaintsPolicy", "matchLabelKeys",
)
_WHEN_UNSATISFIABLE = ("DoNotSchedule", "ScheduleAnyway")


def _pod_topology_spread(ctx: Ctx, args: Mapping, path: str) -> PodTopologySpreadArgs | None:
    n = len(ctx.problems)
    dpath = child_path(path, "defaultingType")
    defaulting = read_str(ctx, args.get("defaultingType"), dpath)
    if (defaulting is None and args.get("defaultingType") is None) or defaulting == "":
        defaulting = SYSTEM_DEFAULTING  # SetDefaults_PodTopologySpreadArgs
    cpath = child_path(path, "defaultConstraints")
    raw_constraints = read_list(ctx, args.get("defaultConstraints"), cpath)
    if defaulting is not None:
        if defaulting not in (SYSTEM_DEFAULTING, LIST_DEFAULTING):
            ctx.not_supported(dpath, defaulting, (SYSTEM_DEFAULTING, LIST_DEFAULTING))
        elif defaulting == SYSTEM_DEFAULTING and raw_constraints:
            ctx.invalid(dpath, defaulting, "when .defaultConstraints are not empty")
    constraints: list[TopologySpreadConstraint] = []
    seen: list[tuple[str, str]] = []
    for i, item in enumerate(raw_constraints):
        p = index_path(cpath, i)
        obj = read_object(ctx, item, p, _SPREAD_CONSTRAINT_FIELDS)
        if obj is None:
            continue
        max_skew = read_int(ctx, obj.get("maxSkew"), child_path(p, "maxSkew"))
        if max_skew is not None or obj.get("maxSkew") is None:
            if (max_skew or 0) <= 0:
                ctx.invalid(child_path(p, "maxSkew"), max_skew or 0, "not in valid range (0, inf)")
        key = read_str(ctx, obj.get("topologyKey"), child_path(p, "topologyKey"))
        if key is None and obj.get("topologyKey") is None:
            key = ""
        if key is not None:
            if not key:
                ctx.required(child_path(p, "topologyKey"), "can not be empty")
            else:
                validate_label_name(ctx, key, child_path(p, "topologyKey"))
        when = read_str(ctx, obj.get("whenUnsatisfiable"), child_path(p, "whenUnsatisfiable"))
        if when is None and obj.get("whenUnsatisfiable") is None:
            when = ""
        if when is not None:
            if not when:
                ctx.required(child_path(p, "whenUnsatisfiable"), "can not be empty")
            elif when not in _WHEN_UNSATISFIABLE:
                ctx.not_supported(child_path(p, "whenUnsatisfiable"), when, _WHEN_UNSATISFIABLE)
        if obj.get("labelSelector") is not None:
            ctx.forbidden(
                child_path(p, "labelSelector"), "constraint must not define a selector, as they deduced for each pod"
            )
        if key is not None and when is not None:
            if (key, when) in seen:
                ctx.duplicate(p, f"{{{key}, {when}}}")
            seen.append((key, when))
        min_domains = read_int(ctx, obj.get("minDomains"), child_path(p, "minDomains"))
        affinity_policy = read_str(ctx, obj.get("nodeAffinityPolicy"), child_path(p, "nodeAffinityPolicy"))
        taints_policy = read_str(ctx, obj.get("nodeTaintsPolicy"), child_path(p, "nodeTaintsPolicy"))
        match_label_keys = read_str_list(ctx, obj.get("matchLabelKeys"), child_path(p, "matchLabelKeys"))
        constraints.append(TopologySpreadConstraint(
            max_skew=max_skew or 0,
            topology_key=key or "",
            when_unsatisfiable=when or "",
            min_domains=min_domains,
            node_affinity_policy=affinity_policy or "Honor",
            node_taints_policy=taints_policy or "Ignore",
            match_label_keys=tuple(match_label_keys),
        ))
    if len(ctx.problems) > n:
        return None
    assert defaulting is not None  # read with its default above
    return PodTopologySpreadArgs(tuple(constraints), defaulting)


def _default_preemption(ctx: Ctx, args: Mapping, path: str) -> DefaultPreemptionArgs | None:
    n = len(ctx.problems)
    ppath = child_path(path, "minCandidateNodesPercentage")
    apath = child_path(path, "minCandidateNodesAbsolute")
    pct = read_int(ctx, args.get("minCandidateNodesPercentage"), ppath)
    absolute = read_int(ctx, args.get("minCandidateNodesAbsolute"), apath)
    if len(ctx.problems) > n:
        return None
    pct = 10 if pct is None else pct
    absolute = 100 if absolute is None else absolute
    if not 0 <= pct <= 100:
        ctx.invalid(ppath, pct, "not in valid range [0, 100]")
    if absolute < 0:
        ctx.invalid(apath, absolute, "not in valid range [0, inf)")
    if pct == 0 and absolute == 0:
        ctx.invalid(ppath, pct, "cannot be zero at the same time as minCandidateNodesAbsolute")
        ctx.invalid(apath, absolute, "cannot be zero at the same time as minCandidateNodesPercentage")
    if len(ctx.problems) > n:
        return None
    return DefaultPreemptionArgs(pct, absolute)


_LABEL_OPERATORS = ("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt")


def _label_requirement(ctx: Ctx, item: Any, p: str) -> NodeSelectorRequirement | None:
    """One matchExpressions entry: nodeaffinity.nodeSelectorRequirementsAsSelector +
    labels.NewRequirement (messages approximate upstream's field-path variant)."""
    obj = read_object(ctx, item, p, ("key", "operator", "values"))
    if obj is None:
        return None
    n = len(ctx.problems)
    key = read_str(ctx, obj.get("key"), child_path(p, "key")) or ""
    op = "" if obj.get("operator") is None else read_str(ctx, obj.get("operator"), child_path(p, "operator"))
    values = read_str_list(ctx, obj.get("values"), child_path(p, "values"))
    if op is not None and op not in _LABEL_OPERATORS:
        ctx.invalid(child_path(p, "operator"), op, "not a valid selector operator")
        return None
    if len(ctx.problems) > n:
        return None
    errs = is_qualified_name(key)
    if errs:
        ctx.invalid(child_path(p, "key"), key, "; ".join(errs))
    vpath = child_path(p, "values")
    if op in ("In", "NotIn") and not values:
        ctx.invalid(vpath, values, "for 'in', 'notin' operators, values set can't be empty")
    elif op in ("Exists", "DoesNotExist") and values:
        ctx.invalid(vpath, values, "values set must be empty for exists and does not exist")
    elif op in ("Gt", "Lt"):
        if len(values) != 1:
            ctx.invalid(vpath, values, "for 'Gt', 'Lt' operators, exactly one value is required")
        for i, v in enumerate(values):
            if not re.fullmatch(r"[+-]?[0-9]+", v) or not INT64[0] <= int(v) <= INT64[1]:
                ctx.invalid(index_path(vpath, i), v, "for 'Gt', 'Lt' operators, the value must be an integer")
    for i, v in enumerate(values):
        verrs = is_valid_label_value(v)
        if verrs:
            ctx.invalid(index_path(vpath, i), v, "; ".join(verrs))
    if len(ctx.problems) > n:
        return None
    return NodeSelectorRequirement(key, op or "", tuple(values))


def _field_requirement(ctx: Ctx, item: Any, p: str) -> NodeSelectorRequirement | None:
    """One matchFields entry: nodeaffinity.nodeSelectorRequirementsAsFieldSelector."""
    obj = read_object(ctx, item, p, ("key", "operator", "values"))
    if obj is None:
        return None
    n = len(ctx.problems)
    key = read_str(ctx, obj.get("key"), child_path(p, "key")) or ""
    op = read_str(ctx, obj.get("operator"), child_path(p, "operator"))
    values = read_str_list(ctx, obj.get("values"), child_path(p, "values"))
    if len(ctx.problems) > n:
        return None
    if op not in ("In", "NotIn"):
        ctx.invalid(child_path(p, "operator"), op or "", "not a valid selector operator")
        return None
    if len(values) != 1:
        ctx.invalid(child_path(p, "values"), values, "must have one element")
        return None
    return NodeSelectorRequirement(key, op, tuple(values))


def _node_selector_term(ctx: Ctx, value: Any, p: str) -> NodeSelectorTerm | None:
    obj = read_object(ctx, value, p, ("matchExpressions", "matchFields"))
    if obj is None:
        return None
    n = len(ctx.problems)
    exprs = [
        _label_requirement(ctx, item, index_path(child_path(p, "matchExpressions"), i))
        for i, item in enumerate(read_list(ctx, obj.get("matchExpressions"), child_path(p, "matchExpressions")))
    ]
    fields_ = [
        _field_requirement(ctx, item, index_path(child_path(p, "matchFields"), i))
        for i, item in enumerate(read_list(ctx, obj.get("matchFields"), child_path(p, "matchFields")))
    ]
    if len(ctx.problems) > n:
        return None
    return NodeSelectorTerm(tuple(e for e in exprs if e), tuple(f for f in fields_ if f))


def _node_affinity(ctx: Ctx, args: Mapping, path: str) -> NodeAffinityArgs | None:
    n = len(ctx.problems)
    apath = child_path(path, "addedAffinity")
    added = read_object(
        ctx, args.get("addedAffinity"), apath,
        ("requiredDuringSchedulingIgnoredDuringExecution", "preferredDuringSchedulingIgnoredDuringExecution"),
    )
    if added is None:
        return None
    required: NodeSelector | None = None
    rpath = child_path(apath, "requiredDuringSchedulingIgnoredDuringExecution")
    if added.get("requiredDuringSchedulingIgnoredDuringExecution") is not None:
        sel = read_object(ctx, added["requiredDuringSchedulingIgnoredDuringExecution"], rpath, ("nodeSelectorTerms",))
        if sel is not None:
            tpath = child_path(rpath, "nodeSelectorTerms")
            terms = [
                _node_selector_term(ctx, item, index_path(tpath, i))
                for i, item in enumerate(read_list(ctx, sel.get("nodeSelectorTerms"), tpath))
            ]
            required = NodeSelector(tuple(t for t in terms if t is not None))
    preferred: list[PreferredSchedulingTerm] = []
    ppath = child_path(apath, "preferredDuringSchedulingIgnoredDuringExecution")
    for i, item in enumerate(read_list(ctx, added.get("preferredDuringSchedulingIgnoredDuringExecution"), ppath)):
        p = index_path(ppath, i)
        obj = read_object(ctx, item, p, ("weight", "preference"))
        if obj is None:
            continue
        weight = read_int(ctx, obj.get("weight"), child_path(p, "weight"))
        term = _node_selector_term(ctx, obj.get("preference"), child_path(p, "preference"))
        if term is not None:
            preferred.append(PreferredSchedulingTerm(weight or 0, term))
    if len(ctx.problems) > n:
        return None
    return NodeAffinityArgs(required, tuple(preferred))


def _volume_binding(ctx: Ctx, args: Mapping, path: str) -> None:
    """VolumeBinding is not applied; its args are still checked as upstream does (shape with
    StorageCapacityScoring, on by default in 1.37; an empty shape gets the default)."""
    tpath = child_path(path, "bindTimeoutSeconds")
    timeout = read_int(ctx, args.get("bindTimeoutSeconds"), tpath, INT64)
    if timeout is not None and timeout < 0:
        ctx.invalid(tpath, timeout, "invalid BindTimeoutSeconds, should not be a negative value")
    if args.get("shape"):
        _shape(ctx, args.get("shape"), child_path(path, "shape"))
    return None


def _dynamic_resources(ctx: Ctx, args: Mapping, path: str) -> None:
    """DynamicResources is not applied; only the field types are checked."""
    read_str(ctx, args.get("filterTimeout"), child_path(path, "filterTimeout"))
    read_str(ctx, args.get("bindingTimeout"), child_path(path, "bindingTimeout"))
    return None


@dataclass(frozen=True)
class ArgsType:
    fields: tuple[str, ...]
    decode: Callable[[Ctx, Mapping, str], Any]
    default: Any  # the defaulted args when the profile has no pluginConfig entry; None = not kept


ARGS_TYPES: Mapping[str, ArgsType] = {
    "NodeResourcesFit": ArgsType(
        ("ignoredResources", "ignoredResourceGroups", "scoringStrategy"), _node_resources_fit, NodeResourcesFitArgs()
    ),
    "NodeResourcesBalancedAllocation": ArgsType(
        ("resources",), _balanced_allocation, NodeResourcesBalancedAllocationArgs()
    ),
    "InterPodAffinity": ArgsType(
        ("hardPodAffinityWeight", "ignorePreferredTermsOfExistingPods"), _inter_pod_affinity, InterPodAffinityArgs()
    ),
    "PodTopologySpread": ArgsType(
        ("defaultConstraints", "defaultingType"), _pod_topology_spread, PodTopologySpreadArgs()
    ),
    "NodeAffinity": ArgsType(("addedAffinity",), _node_affinity, NodeAffinityArgs()),
    "DefaultPreemption": ArgsType(
        ("minCandidateNodesPercentage", "minCandidateNodesAbsolute"), _default_preemption, DefaultPreemptionArgs()
    ),
    "VolumeBinding": ArgsType(("bindTimeoutSeconds", "shape"), _volume_binding, None),
    "DynamicResources": ArgsType(("filterTimeout", "bindingTimeout"), _dynamic_resources, None),
}


def decode_args(ctx: Ctx, plugin: str, value: Any, path: str) -> Any:
    """Decode and validate one pluginConfig args object; None when invalid or not kept."""
    spec = ARGS_TYPES.get(plugin)
    if spec is None:
        if value is None:
            return None
        if not isinstance(value, Mapping):
            ctx.invalid(path, value, "expected an object")
            return None
        _check_type_meta(ctx, value, path, plugin)
        for key in value:
            if key not in _TYPE_META:
                ctx.add(child_path(path, str(key)), f'unknown field "{key}"; plugin {plugin} takes no args')
        return None
    obj = read_object(ctx, value, path, _TYPE_META + spec.fields)
    if obj is None:
        return None
    _check_type_meta(ctx, obj, path, plugin)
    return spec.decode(ctx, obj, path)

