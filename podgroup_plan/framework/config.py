"""KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1) -> one Profile per schedulerName.

Works on plain dicts (the loader turns YAML into them). Mirrors, in the order upstream applies them:

1. defaulting -- `pkg/scheduler/apis/config/v1/defaults.go` (a single profile without a name is
   `default-scheduler`; plugin args defaults) and `default_plugins.go` (`mergePlugins`: the
   defaults live in `multiPoint`; `disabled: [{name: "*"}]` drops every default of that set; a
   default re-listed in `enabled` is replaced in place; other enabled plugins are appended);
2. validation -- `pkg/scheduler/apis/config/validation/validation.go` and
   `validation_pluginargs.go`, messages in apimachinery's `field.Error` body form
   (`Invalid value: 101: not in valid range [0, 100]`), the field path in `Problem.path`;
3. framework construction -- `pkg/scheduler/framework/runtime/framework.go` (`NewFramework`,
   `expandMultiPointPlugins`, `getScoreWeights`): every multiPoint plugin is expanded to each
   extension point it implements, unless that point disables it or `"*"`; a plugin also enabled
   at the specific point overrides its multiPoint entry (its weight wins) and -- as upstream --
   such overrides run first, then the multiPoint plugins, then the other specific ones;
   `pkg/scheduler/profile/profile.go` (one queue sort plugin, shared by all profiles).

Every problem is collected and raised at once as one InputError. Choices of ours, beyond upstream:
unknown plugin names (also in `disabled` and `pluginConfig`) and unknown fields are errors (upstream
ignores some of them); args given to a plugin that takes none are an error; extension points whose
feature gate is off are left empty (see defaults.GATED_EXTENSION_POINTS); a 0 or unset
percentageOfNodesToScore / percentageOfPlacementsToScore (upstream: adaptive) becomes None, which
the planner reads as "score everything" (documented deviation).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from podgroup_plan.errors import InputError, Problem
from podgroup_plan.framework import defaults
from podgroup_plan.framework.args import (
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
from podgroup_plan.framework.defaults import (
    COMPOSITE_POD_GROUP,
    DEFAULT_SCHEDULER_NAME,
    GENERIC_WORKLOAD,
    POD_GROUP_PREEMPTION_POLICY,
    TOPOLOGY_AWARE_WORKLOAD_SCHEDULING,
    WEIGHTED_EXTENSION_POINTS,
    WORKLOAD_AWARE_PREEMPTION,
)
from podgroup_plan.framework.profile import EXTENSION_POINTS, PluginRef, Profile
from podgroup_plan.framework.registry import KNOWN_PLUGINS, NOT_APPLIED
from podgroup_plan.model.objects import PreferredSchedulingTerm, TopologySpreadConstraint
from podgroup_plan.model.selectors import NodeSelector, NodeSelectorRequirement, NodeSelectorTerm

__all__ = [
    "API_VERSION",
    "FEATURE_GATES_DEFAULTS",
    "KIND",
    "build_profiles",
    "describe_not_applied",
    "parse_feature_gates",
    "resolve_feature_gates",
]

API_VERSION = "kubescheduler.config.k8s.io/v1"
KIND = "KubeSchedulerConfiguration"

# The gates this tool understands, all on by default (contract.md). Upstream 1.37 defaults
# differ (GenericWorkload beta off, the others alpha off); ours describe the target state.
FEATURE_GATES_DEFAULTS: dict[str, bool] = {
    COMPOSITE_POD_GROUP: True,
    GENERIC_WORKLOAD: True,
    POD_GROUP_PREEMPTION_POLICY: True,
    TOPOLOGY_AWARE_WORKLOAD_SCHEDULING: True,
    WORKLOAD_AWARE_PREEMPTION: True,
}

FEATURE_GATES_SOURCE = "--feature-gates"

# ---------------------------------------------------------------------------------------------
# Feature gates
# ---------------------------------------------------------------------------------------------

_GO_TRUE = ("1", "t", "T", "TRUE", "true", "True")
_GO_FALSE = ("0", "f", "F", "FALSE", "false", "False")


def _unknown_gate(name: str) -> str:
    known = ", ".join(sorted(FEATURE_GATES_DEFAULTS))
    return f"unrecognized feature gate: {name}; known feature gates: {known}"


def parse_feature_gates(text: str, source: str = FEATURE_GATES_SOURCE) -> dict[str, bool]:
    """Parse kube-scheduler's `--feature-gates` syntax, `A=true,B=false` (component-base
    featuregate.Set: empty items are skipped, names and values are trimmed, values use Go's
    strconv.ParseBool). Returns only the gates named; see resolve_feature_gates for defaults."""
    problems: list[Problem] = []
    out: dict[str, bool] = {}
    for item in text.split(","):
        if not item:
            continue
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep:
            problems.append(Problem(source, f"missing bool value for {name}"))
            continue
        value = value.strip()
        if value in _GO_TRUE:
            parsed = True
        elif value in _GO_FALSE:
            parsed = False
        else:
            problems.append(Problem(
                source,
                f"invalid value of {name}={value}, err: strconv.ParseBool: parsing "
                f"{_quote(value)}: invalid syntax",
            ))
            continue
        if name not in FEATURE_GATES_DEFAULTS:
            problems.append(Problem(source, _unknown_gate(name)))
            continue
        out[name] = parsed
    if problems:
        raise InputError(problems)
    return out


def resolve_feature_gates(
    overrides: Mapping[str, bool] | None, source: str = FEATURE_GATES_SOURCE
) -> dict[str, bool]:
    """FEATURE_GATES_DEFAULTS with `overrides` applied; unknown names or non-bool values raise."""
    problems: list[Problem] = []
    gates = dict(FEATURE_GATES_DEFAULTS)
    for name, value in (overrides or {}).items():
        if name not in FEATURE_GATES_DEFAULTS:
            problems.append(Problem(source, _unknown_gate(str(name))))
        elif not isinstance(value, bool):
            problems.append(Problem(source, f"invalid value of {name}={value!r}: expected a boolean"))
        else:
            gates[name] = value
    if problems:
        raise InputError(problems)
    return gates


# ---------------------------------------------------------------------------------------------
# Problem collection and field.Error-style messages
# ---------------------------------------------------------------------------------------------


def _quote(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def _show(value: Any) -> str:
    """A bad value as apimachinery's field.Error prints it: strings quoted, numbers and bools
    bare; lists and objects as compact JSON (Go prints a Go literal there)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return _quote(value)
    if isinstance(value, (int, float)):
        return repr(value)
    if value is None:
        return "null"
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    except (TypeError, ValueError):
        return repr(value)


def _child(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _index(path: str, i: int) -> str:
    return f"{path}[{i}]"


@dataclass
class _Ctx:
    file: str
    problems: list[Problem] = field(default_factory=list)

    def add(self, path: str | None, message: str) -> None:
        self.problems.append(Problem(self.file, message, kind=KIND, path=path or None))

    def invalid(self, path: str, value: Any, detail: str) -> None:
        self.add(path, f"Invalid value: {_show(value)}: {detail}")

    def required(self, path: str, detail: str = "") -> None:
        self.add(path, "Required value" + (f": {detail}" if detail else ""))

    def forbidden(self, path: str, detail: str) -> None:
        self.add(path, f"Forbidden: {detail}")

    def duplicate(self, path: str, value: Any) -> None:
        self.add(path, f"Duplicate value: {_show(value)}")

    def not_supported(self, path: str, value: Any, supported: tuple[str, ...]) -> None:
        listed = ", ".join(_quote(s) for s in supported)
        self.add(path, f"Unsupported value: {_show(value)}: supported values: {listed}")

    def unknown_plugin(self, path: str, name: Any) -> None:
        known = ", ".join(sorted(KNOWN_PLUGINS))
        shown = _quote(name) if isinstance(name, str) else _show(name)
        self.add(path, f"unknown plugin {shown}; known plugins: {known}")


_INT32 = (-(2**31), 2**31 - 1)
_INT64 = (-(2**63), 2**63 - 1)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _object(ctx: _Ctx, value: Any, path: str, known: tuple[str, ...]) -> Mapping | None:
    """`value` as an object (null -> {}); unknown keys are reported. None if not an object."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        ctx.invalid(path, value, "expected an object")
        return None
    for key in value:
        if key not in known:
            ctx.add(_child(path, str(key)), f'unknown field "{key}"; known fields: {", ".join(sorted(known))}')
    return value


def _list(ctx: _Ctx, value: Any, path: str) -> list:
    if value is None:
        return []
    if not isinstance(value, list):
        ctx.invalid(path, value, "expected a list")
        return []
    return value


def _int(ctx: _Ctx, value: Any, path: str, bounds: tuple[int, int] = _INT32) -> int | None:
    """An integer field (null -> None). Reports and returns None on a bad value."""
    if value is None:
        return None
    if not _is_int(value):
        ctx.invalid(path, value, "expected an integer")
        return None
    if not bounds[0] <= value <= bounds[1]:
        bits = 32 if bounds == _INT32 else 64
        ctx.invalid(path, value, f"must fit in a {bits}-bit integer")
        return None
    return value


def _str(ctx: _Ctx, value: Any, path: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        ctx.invalid(path, value, "expected a string")
        return None
    return value


def _bool(ctx: _Ctx, value: Any, path: str) -> bool | None:
    if value is None:
        return None
    if not isinstance(value, bool):
        ctx.invalid(path, value, "expected a boolean")
        return None
    return value


def _str_list(ctx: _Ctx, value: Any, path: str) -> list[str]:
    out = []
    for i, item in enumerate(_list(ctx, value, path)):
        s = _str(ctx, item, _index(path, i))
        if s is not None:
            out.append(s)
    return out


# ---------------------------------------------------------------------------------------------
# apimachinery name validation (k8s.io/apimachinery/pkg/util/validation)
# ---------------------------------------------------------------------------------------------

_QNAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
_QNAME_RE = re.compile(_QNAME_FMT)
_QNAME_MSG = (
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character"
)
_LABEL_VALUE_FMT = "(" + _QNAME_FMT + ")?"
_LABEL_VALUE_RE = re.compile(_LABEL_VALUE_FMT)
_LABEL_VALUE_MSG = (
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character"
)
_DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_DNS1123_SUBDOMAIN_FMT = _DNS1123_LABEL_FMT + "(\\." + _DNS1123_LABEL_FMT + ")*"
_DNS1123_SUBDOMAIN_RE = re.compile(_DNS1123_SUBDOMAIN_FMT)
_DNS1123_SUBDOMAIN_MSG = (
    "a DNS-1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and "
    "must start and end with an alphanumeric character"
)


def _regex_error(msg: str, fmt: str, *examples: str) -> str:
    if not examples:
        return f"{msg} (regex used for validation is '{fmt}')"
    shown = " or ".join(f"'{e}', " for e in examples)
    return f"{msg} (e.g. {shown}regex used for validation is '{fmt}')"


def _max_len_error(n: int) -> str:
    return f"must be no more than {n} characters"


def _is_dns1123_subdomain(value: str) -> list[str]:
    errs = []
    if len(value.encode()) > 253:
        errs.append(_max_len_error(253))
    if not _DNS1123_SUBDOMAIN_RE.fullmatch(value):
        errs.append(_regex_error(_DNS1123_SUBDOMAIN_MSG, _DNS1123_SUBDOMAIN_FMT, "example.com"))
    return errs


def is_qualified_name(value: str) -> list[str]:
    """validation.IsQualifiedName: `[prefix/]name`, the form of label keys and resource names."""
    errs: list[str] = []
    parts = value.split("/")
    if len(parts) == 1:
        name = parts[0]
    elif len(parts) == 2:
        prefix, name = parts
        if not prefix:
            errs.append("prefix part must be non-empty")
        else:
            errs.extend("prefix part " + m for m in _is_dns1123_subdomain(prefix))
    else:
        return [
            "a qualified name "
            + _regex_error(_QNAME_MSG, _QNAME_FMT, "MyName", "my.name", "123-abc")
            + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
        ]
    if not name:
        errs.append("name part must be non-empty")
    elif len(name.encode()) > 63:
        errs.append("name part " + _max_len_error(63))
    if not _QNAME_RE.fullmatch(name):
        errs.append("name part " + _regex_error(_QNAME_MSG, _QNAME_FMT, "MyName", "my.name", "123-abc"))
    return errs


def is_valid_label_value(value: str) -> list[str]:
    errs = []
    if len(value.encode()) > 63:
        errs.append(_max_len_error(63))
    if not _LABEL_VALUE_RE.fullmatch(value):
        errs.append(_regex_error(_LABEL_VALUE_MSG, _LABEL_VALUE_FMT, "MyValue", "my_value", "12345"))
    return errs


def _validate_label_name(ctx: _Ctx, value: str, path: str) -> bool:
    """metav1validation.ValidateLabelName: one Invalid error per message."""
    errs = is_qualified_name(value)
    for msg in errs:
        ctx.invalid(path, value, msg)
    return not errs


# ---------------------------------------------------------------------------------------------
# Plugin args (types_pluginargs.go; defaults.go SetDefaults_*Args; validation_pluginargs.go)
# ---------------------------------------------------------------------------------------------

_TYPE_META = ("apiVersion", "kind")
_SCORING_TYPES = (LEAST_ALLOCATED, MOST_ALLOCATED, REQUESTED_TO_CAPACITY_RATIO)
_MAX_CUSTOM_PRIORITY_SCORE = 10


def _check_type_meta(ctx: _Ctx, args: Mapping, path: str, plugin: str) -> None:
    api_version = args.get("apiVersion")
    if api_version is not None and api_version != API_VERSION:
        ctx.invalid(_child(path, "apiVersion"), api_version, f'must be "{API_VERSION}"')
    kind = args.get("kind")
    if kind is not None and kind != f"{plugin}Args":
        ctx.invalid(_child(path, "kind"), kind, "has to match plugin args")


def _resource_specs(ctx: _Ctx, value: Any, path: str) -> list[tuple[str, int, str]]:
    """[(name, weight with 0 defaulted to 1, path)] of a ResourceSpec list."""
    out = []
    for i, item in enumerate(_list(ctx, value, path)):
        p = _index(path, i)
        obj = _object(ctx, item, p, ("name", "weight"))
        if obj is None:
            continue
        name = "" if obj.get("name") is None else _str(ctx, obj.get("name"), _child(p, "name"))
        weight = _int(ctx, obj.get("weight"), _child(p, "weight"), _INT64)
        if name is None or (weight is None and obj.get("weight") is not None):
            continue
        out.append((name, weight or 1, p))
    return out


def _shape(ctx: _Ctx, value: Any, path: str) -> tuple[UtilizationShapePoint, ...] | None:
    """validateFunctionShape: at least one point; utilization strictly increasing (reported once),
    in [0, 100]; score in [0, 10]."""
    points: list[tuple[int, int, str]] = []
    broken = False
    for i, item in enumerate(_list(ctx, value, path)):
        p = _index(path, i)
        obj = _object(ctx, item, p, ("utilization", "score"))
        if obj is None:
            broken = True
            continue
        u = _int(ctx, obj.get("utilization"), _child(p, "utilization"))
        s = _int(ctx, obj.get("score"), _child(p, "score"))
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
            ctx.invalid(_child(points[i][2], "utilization"), points[i][0], "values must be sorted in increasing order")
            ok = False
            break
    for u, s, p in points:
        if not 0 <= u <= 100:
            ctx.invalid(_child(p, "utilization"), u, "not in valid range [0, 100]")
            ok = False
        if not 0 <= s <= _MAX_CUSTOM_PRIORITY_SCORE:
            ctx.invalid(_child(p, "score"), s, f"not in valid range [0, {_MAX_CUSTOM_PRIORITY_SCORE}]")
            ok = False
    return tuple(UtilizationShapePoint(u, s) for u, s, _ in points) if ok else None


def _node_resources_fit(ctx: _Ctx, args: Mapping, path: str) -> NodeResourcesFitArgs | None:
    n = len(ctx.problems)
    ignored = _str_list(ctx, args.get("ignoredResources"), _child(path, "ignoredResources"))
    for i, res in enumerate(ignored):
        _validate_label_name(ctx, res, _index(_child(path, "ignoredResources"), i))
    groups = _str_list(ctx, args.get("ignoredResourceGroups"), _child(path, "ignoredResourceGroups"))
    for i, group in enumerate(groups):
        p = _index(_child(path, "ignoredResourceGroups"), i)
        if "/" in group:
            ctx.invalid(p, group, "resource group name can't contain '/'")
        _validate_label_name(ctx, group, p)

    spath = _child(path, "scoringStrategy")
    raw = args.get("scoringStrategy")
    strategy = ScoringStrategy()
    if raw is not None:
        obj = _object(ctx, raw, spath, ("type", "resources", "requestedToCapacityRatio"))
        if obj is not None:
            type_ = _str(ctx, obj.get("type"), _child(spath, "type"))
            if type_ is None and obj.get("type") is None:
                type_ = ""  # no defaulting of the type when a strategy is given (upstream)
            if type_ is not None and type_ not in _SCORING_TYPES:
                ctx.not_supported(_child(spath, "type"), type_, _SCORING_TYPES)
            rpath = _child(spath, "resources")
            specs = _resource_specs(ctx, obj.get("resources"), rpath)
            for name, weight, p in specs:
                if weight <= 0 or weight > 100:
                    ctx.invalid(_child(p, "weight"), weight, f"resource weight of {name} not in valid range (0, 100]")
            resources = tuple(ResourceSpec(name, w) for name, w, _ in specs) or DEFAULT_RESOURCES
            shape: tuple[UtilizationShapePoint, ...] = ()
            r2c_path = _child(spath, "requestedToCapacityRatio")
            r2c = obj.get("requestedToCapacityRatio")
            if type_ == REQUESTED_TO_CAPACITY_RATIO:
                if r2c is None:
                    ctx.required(r2c_path, "must be specified when type is RequestedToCapacityRatio")
                else:
                    r2c_obj = _object(ctx, r2c, r2c_path, ("shape",))
                    if r2c_obj is not None:
                        shape = _shape(ctx, r2c_obj.get("shape"), _child(r2c_path, "shape")) or ()
            elif r2c is not None:
                ctx.forbidden(r2c_path, "must be nil when type is not RequestedToCapacityRatio")
            strategy = ScoringStrategy(type_ or "", resources, shape)
    if len(ctx.problems) > n:
        return None
    return NodeResourcesFitArgs(tuple(ignored), tuple(groups), strategy)


def _balanced_allocation(ctx: _Ctx, args: Mapping, path: str) -> NodeResourcesBalancedAllocationArgs | None:
    n = len(ctx.problems)
    rpath = _child(path, "resources")
    specs = _resource_specs(ctx, args.get("resources"), rpath)
    seen: set[str] = set()
    for name, weight, p in specs:
        if name in seen:
            ctx.duplicate(_child(p, "name"), name)
        seen.add(name)
        if weight != 1:
            ctx.invalid(_child(p, "weight"), weight, "must be 1")
    if len(ctx.problems) > n:
        return None
    return NodeResourcesBalancedAllocationArgs(tuple(ResourceSpec(nm, w) for nm, w, _ in specs) or DEFAULT_RESOURCES)


def _inter_pod_affinity(ctx: _Ctx, args: Mapping, path: str) -> InterPodAffinityArgs | None:
    n = len(ctx.problems)
    wpath = _child(path, "hardPodAffinityWeight")
    weight = _int(ctx, args.get("hardPodAffinityWeight"), wpath)
    if weight is None:
        weight = 1
    if not 0 <= weight <= 100:
        ctx.invalid(wpath, weight, "not in valid range [0, 100]")
    ignore = _bool(ctx, args.get("ignorePreferredTermsOfExistingPods"), _child(path, "ignorePreferredTermsOfExistingPods"))
    if len(ctx.problems) > n:
        return None
    return InterPodAffinityArgs(weight, bool(ignore))


_SPREAD_CONSTRAINT_FIELDS = (
    "maxSkew", "topologyKey", "whenUnsatisfiable", "labelSelector", "minDomains",
    "nodeAffinityPolicy", "nodeTaintsPolicy", "matchLabelKeys",
)
_WHEN_UNSATISFIABLE = ("DoNotSchedule", "ScheduleAnyway")


def _pod_topology_spread(ctx: _Ctx, args: Mapping, path: str) -> PodTopologySpreadArgs | None:
    n = len(ctx.problems)
    dpath = _child(path, "defaultingType")
    defaulting = _str(ctx, args.get("defaultingType"), dpath)
    if (defaulting is None and args.get("defaultingType") is None) or defaulting == "":
        defaulting = SYSTEM_DEFAULTING  # SetDefaults_PodTopologySpreadArgs
    cpath = _child(path, "defaultConstraints")
    raw_constraints = _list(ctx, args.get("defaultConstraints"), cpath)
    if defaulting is not None:
        if defaulting not in (SYSTEM_DEFAULTING, LIST_DEFAULTING):
            ctx.not_supported(dpath, defaulting, (SYSTEM_DEFAULTING, LIST_DEFAULTING))
        elif defaulting == SYSTEM_DEFAULTING and raw_constraints:
            ctx.invalid(dpath, defaulting, "when .defaultConstraints are not empty")
    constraints: list[TopologySpreadConstraint] = []
    seen: list[tuple[str, str]] = []
    for i, item in enumerate(raw_constraints):
        p = _index(cpath, i)
        obj = _object(ctx, item, p, _SPREAD_CONSTRAINT_FIELDS)
        if obj is None:
            continue
        max_skew = _int(ctx, obj.get("maxSkew"), _child(p, "maxSkew"))
        if max_skew is not None or obj.get("maxSkew") is None:
            if (max_skew or 0) <= 0:
                ctx.invalid(_child(p, "maxSkew"), max_skew or 0, "not in valid range (0, inf)")
        key = _str(ctx, obj.get("topologyKey"), _child(p, "topologyKey"))
        if key is None and obj.get("topologyKey") is None:
            key = ""
        if key is not None:
            if not key:
                ctx.required(_child(p, "topologyKey"), "can not be empty")
            else:
                _validate_label_name(ctx, key, _child(p, "topologyKey"))
        when = _str(ctx, obj.get("whenUnsatisfiable"), _child(p, "whenUnsatisfiable"))
        if when is None and obj.get("whenUnsatisfiable") is None:
            when = ""
        if when is not None:
            if not when:
                ctx.required(_child(p, "whenUnsatisfiable"), "can not be empty")
            elif when not in _WHEN_UNSATISFIABLE:
                ctx.not_supported(_child(p, "whenUnsatisfiable"), when, _WHEN_UNSATISFIABLE)
        if obj.get("labelSelector") is not None:
            ctx.forbidden(_child(p, "labelSelector"), "constraint must not define a selector, as they deduced for each pod")
        if key is not None and when is not None:
            if (key, when) in seen:
                ctx.duplicate(p, f"{{{key}, {when}}}")
            seen.append((key, when))
        min_domains = _int(ctx, obj.get("minDomains"), _child(p, "minDomains"))
        affinity_policy = _str(ctx, obj.get("nodeAffinityPolicy"), _child(p, "nodeAffinityPolicy"))
        taints_policy = _str(ctx, obj.get("nodeTaintsPolicy"), _child(p, "nodeTaintsPolicy"))
        match_label_keys = _str_list(ctx, obj.get("matchLabelKeys"), _child(p, "matchLabelKeys"))
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
    return PodTopologySpreadArgs(tuple(constraints), defaulting)


def _default_preemption(ctx: _Ctx, args: Mapping, path: str) -> DefaultPreemptionArgs | None:
    n = len(ctx.problems)
    ppath = _child(path, "minCandidateNodesPercentage")
    apath = _child(path, "minCandidateNodesAbsolute")
    pct = _int(ctx, args.get("minCandidateNodesPercentage"), ppath)
    absolute = _int(ctx, args.get("minCandidateNodesAbsolute"), apath)
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


def _label_requirement(ctx: _Ctx, item: Any, p: str) -> NodeSelectorRequirement | None:
    """One matchExpressions entry: nodeaffinity.nodeSelectorRequirementsAsSelector +
    labels.NewRequirement (messages approximate upstream's field-path variant)."""
    obj = _object(ctx, item, p, ("key", "operator", "values"))
    if obj is None:
        return None
    n = len(ctx.problems)
    key = _str(ctx, obj.get("key"), _child(p, "key")) or ""
    op = "" if obj.get("operator") is None else _str(ctx, obj.get("operator"), _child(p, "operator"))
    values = _str_list(ctx, obj.get("values"), _child(p, "values"))
    if op is not None and op not in _LABEL_OPERATORS:
        ctx.invalid(_child(p, "operator"), op, "not a valid selector operator")
        return None
    if len(ctx.problems) > n:
        return None
    errs = is_qualified_name(key)
    if errs:
        ctx.invalid(_child(p, "key"), key, "; ".join(errs))
    vpath = _child(p, "values")
    if op in ("In", "NotIn") and not values:
        ctx.invalid(vpath, values, "for 'in', 'notin' operators, values set can't be empty")
    elif op in ("Exists", "DoesNotExist") and values:
        ctx.invalid(vpath, values, "values set must be empty for exists and does not exist")
    elif op in ("Gt", "Lt"):
        if len(values) != 1:
            ctx.invalid(vpath, values, "for 'Gt', 'Lt' operators, exactly one value is required")
        for i, v in enumerate(values):
            if not re.fullmatch(r"[+-]?[0-9]+", v) or not _INT64[0] <= int(v) <= _INT64[1]:
                ctx.invalid(_index(vpath, i), v, "for 'Gt', 'Lt' operators, the value must be an integer")
    for i, v in enumerate(values):
        verrs = is_valid_label_value(v)
        if verrs:
            ctx.invalid(_index(vpath, i), v, "; ".join(verrs))
    if len(ctx.problems) > n:
        return None
    return NodeSelectorRequirement(key, op or "", tuple(values))


def _field_requirement(ctx: _Ctx, item: Any, p: str) -> NodeSelectorRequirement | None:
    """One matchFields entry: nodeaffinity.nodeSelectorRequirementsAsFieldSelector."""
    obj = _object(ctx, item, p, ("key", "operator", "values"))
    if obj is None:
        return None
    n = len(ctx.problems)
    key = _str(ctx, obj.get("key"), _child(p, "key")) or ""
    op = _str(ctx, obj.get("operator"), _child(p, "operator"))
    values = _str_list(ctx, obj.get("values"), _child(p, "values"))
    if len(ctx.problems) > n:
        return None
    if op not in ("In", "NotIn"):
        ctx.invalid(_child(p, "operator"), op or "", "not a valid selector operator")
        return None
    if len(values) != 1:
        ctx.invalid(_child(p, "values"), values, "must have one element")
        return None
    return NodeSelectorRequirement(key, op, tuple(values))


def _node_selector_term(ctx: _Ctx, value: Any, p: str) -> NodeSelectorTerm | None:
    obj = _object(ctx, value, p, ("matchExpressions", "matchFields"))
    if obj is None:
        return None
    n = len(ctx.problems)
    exprs = [
        _label_requirement(ctx, item, _index(_child(p, "matchExpressions"), i))
        for i, item in enumerate(_list(ctx, obj.get("matchExpressions"), _child(p, "matchExpressions")))
    ]
    fields_ = [
        _field_requirement(ctx, item, _index(_child(p, "matchFields"), i))
        for i, item in enumerate(_list(ctx, obj.get("matchFields"), _child(p, "matchFields")))
    ]
    if len(ctx.problems) > n:
        return None
    return NodeSelectorTerm(tuple(e for e in exprs if e), tuple(f for f in fields_ if f))


def _node_affinity(ctx: _Ctx, args: Mapping, path: str) -> NodeAffinityArgs | None:
    n = len(ctx.problems)
    apath = _child(path, "addedAffinity")
    added = _object(
        ctx, args.get("addedAffinity"), apath,
        ("requiredDuringSchedulingIgnoredDuringExecution", "preferredDuringSchedulingIgnoredDuringExecution"),
    )
    if added is None:
        return None
    required: NodeSelector | None = None
    rpath = _child(apath, "requiredDuringSchedulingIgnoredDuringExecution")
    if added.get("requiredDuringSchedulingIgnoredDuringExecution") is not None:
        sel = _object(ctx, added["requiredDuringSchedulingIgnoredDuringExecution"], rpath, ("nodeSelectorTerms",))
        if sel is not None:
            tpath = _child(rpath, "nodeSelectorTerms")
            terms = [
                _node_selector_term(ctx, item, _index(tpath, i))
                for i, item in enumerate(_list(ctx, sel.get("nodeSelectorTerms"), tpath))
            ]
            required = NodeSelector(tuple(t for t in terms if t is not None))
    preferred: list[PreferredSchedulingTerm] = []
    ppath = _child(apath, "preferredDuringSchedulingIgnoredDuringExecution")
    for i, item in enumerate(_list(ctx, added.get("preferredDuringSchedulingIgnoredDuringExecution"), ppath)):
        p = _index(ppath, i)
        obj = _object(ctx, item, p, ("weight", "preference"))
        if obj is None:
            continue
        weight = _int(ctx, obj.get("weight"), _child(p, "weight"))
        term = _node_selector_term(ctx, obj.get("preference"), _child(p, "preference"))
        if term is not None:
            preferred.append(PreferredSchedulingTerm(weight or 0, term))
    if len(ctx.problems) > n:
        return None
    return NodeAffinityArgs(required, tuple(preferred))


def _volume_binding(ctx: _Ctx, args: Mapping, path: str) -> None:
    """VolumeBinding is not applied; its args are still checked as upstream does (shape with
    StorageCapacityScoring, on by default in 1.37; an empty shape gets the default)."""
    tpath = _child(path, "bindTimeoutSeconds")
    timeout = _int(ctx, args.get("bindTimeoutSeconds"), tpath, _INT64)
    if timeout is not None and timeout < 0:
        ctx.invalid(tpath, timeout, "invalid BindTimeoutSeconds, should not be a negative value")
    if args.get("shape"):
        _shape(ctx, args.get("shape"), _child(path, "shape"))
    return None


def _dynamic_resources(ctx: _Ctx, args: Mapping, path: str) -> None:
    """DynamicResources is not applied; only the field types are checked."""
    _str(ctx, args.get("filterTimeout"), _child(path, "filterTimeout"))
    _str(ctx, args.get("bindingTimeout"), _child(path, "bindingTimeout"))
    return None


@dataclass(frozen=True)
class _ArgsType:
    fields: tuple[str, ...]
    decode: Callable[[_Ctx, Mapping, str], Any]
    default: Any  # the defaulted args when the profile has no pluginConfig entry; None = not kept


ARGS_TYPES: Mapping[str, _ArgsType] = {
    "NodeResourcesFit": _ArgsType(
        ("ignoredResources", "ignoredResourceGroups", "scoringStrategy"), _node_resources_fit, NodeResourcesFitArgs()
    ),
    "NodeResourcesBalancedAllocation": _ArgsType(
        ("resources",), _balanced_allocation, NodeResourcesBalancedAllocationArgs()
    ),
    "InterPodAffinity": _ArgsType(
        ("hardPodAffinityWeight", "ignorePreferredTermsOfExistingPods"), _inter_pod_affinity, InterPodAffinityArgs()
    ),
    "PodTopologySpread": _ArgsType(
        ("defaultConstraints", "defaultingType"), _pod_topology_spread, PodTopologySpreadArgs()
    ),
    "NodeAffinity": _ArgsType(("addedAffinity",), _node_affinity, NodeAffinityArgs()),
    "DefaultPreemption": _ArgsType(
        ("minCandidateNodesPercentage", "minCandidateNodesAbsolute"), _default_preemption, DefaultPreemptionArgs()
    ),
    "VolumeBinding": _ArgsType(("bindTimeoutSeconds", "shape"), _volume_binding, None),
    "DynamicResources": _ArgsType(("filterTimeout", "bindingTimeout"), _dynamic_resources, None),
}


def _decode_args(ctx: _Ctx, plugin: str, value: Any, path: str) -> Any:
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
                ctx.add(_child(path, str(key)), f'unknown field "{key}"; plugin {plugin} takes no args')
        return None
    obj = _object(ctx, value, path, _TYPE_META + spec.fields)
    if obj is None:
        return None
    _check_type_meta(ctx, obj, path, plugin)
    return spec.decode(ctx, obj, path)


# ---------------------------------------------------------------------------------------------
# Plugin sets, merging and multiPoint expansion
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Entry:
    name: str
    weight: int = 0  # 0 = not set
    path: str | None = None  # where the user wrote it; None for a default


@dataclass
class _PluginSet:
    enabled: list[_Entry] = field(default_factory=list)
    disabled: list[str] = field(default_factory=list)


_PLUGIN_SET_POINTS = ("multiPoint",) + EXTENSION_POINTS


def _plugin_set(ctx: _Ctx, value: Any, path: str) -> _PluginSet:
    out = _PluginSet()
    obj = _object(ctx, value, path, ("enabled", "disabled"))
    if obj is None:
        return out
    epath = _child(path, "enabled")
    for i, item in enumerate(_list(ctx, obj.get("enabled"), epath)):
        p = _index(epath, i)
        entry = _object(ctx, item, p, ("name", "weight"))
        if entry is None:
            continue
        name = _plugin_name(ctx, entry.get("name"), _child(p, "name"), allow_star=False)
        weight = _int(ctx, entry.get("weight"), _child(p, "weight"))
        if name is not None and (weight is not None or entry.get("weight") is None):
            out.enabled.append(_Entry(name, weight or 0, p))
    dpath = _child(path, "disabled")
    for i, item in enumerate(_list(ctx, obj.get("disabled"), dpath)):
        p = _index(dpath, i)
        entry = _object(ctx, item, p, ("name", "weight"))
        if entry is None:
            continue
        _int(ctx, entry.get("weight"), _child(p, "weight"))
        name = _plugin_name(ctx, entry.get("name"), _child(p, "name"), allow_star=True)
        if name is not None:
            out.disabled.append(name)
    return out


def _plugin_name(ctx: _Ctx, value: Any, path: str, allow_star: bool) -> str | None:
    if value is None or value == "":
        ctx.required(path)
        return None
    if not isinstance(value, str):
        ctx.invalid(path, value, "expected a string")
        return None
    if value == "*" and allow_star:
        return value
    if value not in KNOWN_PLUGINS:
        ctx.unknown_plugin(path, value)
        return None
    return value


def _merge_plugin_set(default_enabled: tuple[_Entry, ...], custom: _PluginSet) -> list[_Entry]:
    """default_plugins.go mergePluginSet: defaults keep their order minus the disabled ones (all
    of them with "*"); a default re-listed in `enabled` is replaced in place by the last such
    entry; every other enabled entry is appended in order (duplicates kept, rejected later)."""
    disabled = set(custom.disabled)
    by_name = {e.name: (i, e) for i, e in enumerate(custom.enabled)}
    replaced: set[int] = set()
    merged: list[_Entry] = []
    if "*" not in disabled:
        for entry in default_enabled:
            if entry.name in disabled:
                continue
            if entry.name in by_name:
                i, entry = by_name[entry.name]
                replaced.add(i)
            merged.append(entry)
    merged.extend(e for i, e in enumerate(custom.enabled) if i not in replaced)
    return merged


def _expand(
    ctx: _Ctx,
    point: str,
    specific: _PluginSet,
    multipoint: list[_Entry],
    multipoint_reported: set[str],
) -> list[_Entry]:
    """The plugins that run at `point`, in order (framework.go updatePluginList +
    expandMultiPointPlugins)."""
    iface = defaults.plugin_interface_name(point)
    enabled: list[_Entry] = []
    seen: set[str] = set()
    for e in specific.enabled:
        if not defaults.implements(e.name, point):
            ctx.add(e.path, f'plugin "{e.name}" does not extend {iface} plugin')
        elif e.name in seen:
            ctx.add(e.path, f'plugin "{e.name}" already registered as "{iface}"')
        else:
            seen.add(e.name)
            enabled.append(e)
    disabled = set(specific.disabled)
    if "*" in disabled:
        return enabled
    overrides: set[str] = set()
    from_multipoint: list[_Entry] = []
    mp_seen: set[str] = set()
    for e in multipoint:
        if not defaults.implements(e.name, point) or e.name in disabled:
            continue
        if e.name in seen:
            overrides.add(e.name)
        elif e.name in mp_seen:
            key = e.path or e.name
            if key not in multipoint_reported:
                multipoint_reported.add(key)
                ctx.add(e.path, f'plugin "{e.name}" already registered as "{iface}"')
        else:
            mp_seen.add(e.name)
            from_multipoint.append(e)
    return (
        [e for e in enabled if e.name in overrides]
        + from_multipoint
        + [e for e in enabled if e.name not in overrides]
    )


def _weights(point: str, specific: _PluginSet, multipoint: list[_Entry]) -> dict[str, int]:
    """framework.go getScoreWeights: the specific point's entries first, then multiPoint's; the
    first weight seen for a plugin wins; 0 (unset) means 1."""
    out: dict[str, int] = {}
    for e in list(specific.enabled) + multipoint:
        if defaults.implements(e.name, point) and e.name not in out:
            out[e.name] = e.weight or 1
    return out


# ---------------------------------------------------------------------------------------------
# Profiles
# ---------------------------------------------------------------------------------------------

_TOP_LEVEL_FIELDS = (
    "apiVersion", "kind", "parallelism", "leaderElection", "clientConnection",
    "enableProfiling", "enableContentionProfiling", "percentageOfNodesToScore",
    "percentageOfPlacementsToScore", "podInitialBackoffSeconds", "podMaxBackoffSeconds",
    "profiles", "extenders", "delayCacheUntilActive",
)
_PROFILE_FIELDS = (
    "schedulerName", "percentageOfNodesToScore", "percentageOfPlacementsToScore", "plugins",
    "pluginConfig",
)


@dataclass
class _ParsedProfile:
    index: int
    path: str
    name: str | None
    plugins: Mapping[str, tuple[PluginRef, ...]] = field(default_factory=dict)
    plugin_args: dict[str, Any] = field(default_factory=dict)
    raw_args: dict[str, Any] = field(default_factory=dict)  # pluginConfig args as written
    queue_sort_raw: Any = None  # the parsed queueSort set, compared across profiles
    queue_sort_shown: Any = None  # the queueSort set as written, for the message
    pct_nodes: int | None = None
    pct_placements: int | None = None


def _percentage(ctx: _Ctx, value: Any, path: str) -> int | None:
    pct = _int(ctx, value, path)
    if pct is not None and not 0 <= pct <= 100:
        ctx.invalid(path, pct, "not in valid range [0-100]")
        return None
    return pct


def _effective_percentage(profile_value: int | None, global_value: int | None) -> int | None:
    """The profile's value when set (even 0), else the global one; 0 means adaptive upstream,
    which the planner replaces by None = score everything (documented deviation)."""
    pct = profile_value if profile_value is not None else global_value
    return pct or None


def _parse_profile(
    ctx: _Ctx, raw: Any, index: int, single: bool, gates: Mapping[str, bool]
) -> _ParsedProfile:
    path = _index("profiles", index)
    parsed = _ParsedProfile(index, path, None)
    obj = _object(ctx, raw, path, _PROFILE_FIELDS)
    if obj is None:
        return parsed

    name_path = _child(path, "schedulerName")
    name = obj.get("schedulerName")
    if name is None and single:
        name = DEFAULT_SCHEDULER_NAME  # SetDefaults_KubeSchedulerConfiguration
    if name is None or name == "":
        ctx.required(name_path)
    elif not isinstance(name, str):
        ctx.invalid(name_path, name, "expected a string")
    else:
        parsed.name = name

    parsed.pct_nodes = _percentage(ctx, obj.get("percentageOfNodesToScore"), _child(path, "percentageOfNodesToScore"))
    parsed.pct_placements = _percentage(
        ctx, obj.get("percentageOfPlacementsToScore"), _child(path, "percentageOfPlacementsToScore")
    )

    # plugins: parse every set, merge with the defaults, expand multiPoint.
    ppath = _child(path, "plugins")
    plugins_obj = _object(ctx, obj.get("plugins"), ppath, _PLUGIN_SET_POINTS) or {}
    sets = {point: _plugin_set(ctx, plugins_obj.get(point), _child(ppath, point)) for point in _PLUGIN_SET_POINTS}
    queue_sort_value = plugins_obj.get("queueSort")
    parsed.queue_sort_raw = (
        tuple((e.name, e.weight) for e in sets["queueSort"].enabled),
        tuple(sets["queueSort"].disabled),
    )
    parsed.queue_sort_shown = queue_sort_value
    default_mp = tuple(_Entry(r.name, r.weight) for r in defaults.default_multipoint(gates))
    multipoint = _merge_plugin_set(default_mp, sets["multiPoint"])
    reported: set[str] = set()
    plugins: dict[str, tuple[PluginRef, ...]] = {}
    for point in EXTENSION_POINTS:
        # Specific points have no defaults upstream (all defaults live in multiPoint), so the
        # merged set is the user's own.
        entries = _expand(ctx, point, sets[point], multipoint, reported)
        if defaults.extension_point_gated_off(point, gates):
            entries = []
        if point in WEIGHTED_EXTENSION_POINTS:
            weights = _weights(point, sets[point], multipoint)
            plugins[point] = tuple(PluginRef(e.name, weights[e.name]) for e in entries)
        else:
            plugins[point] = tuple(PluginRef(e.name) for e in entries)
    parsed.plugins = plugins

    # pluginConfig
    cpath = _child(path, "pluginConfig")
    seen: set[str] = set()
    for j, item in enumerate(_list(ctx, obj.get("pluginConfig"), cpath)):
        p = _index(cpath, j)
        entry = _object(ctx, item, p, ("name", "args"))
        if entry is None:
            continue
        name_ = entry.get("name")
        if name_ is None or name_ == "":
            ctx.required(_child(p, "name"))
            continue
        if not isinstance(name_, str):
            ctx.invalid(_child(p, "name"), name_, "expected a string")
            continue
        if name_ in seen:
            ctx.duplicate(p, name_)
            continue
        seen.add(name_)
        if name_ not in KNOWN_PLUGINS:
            ctx.unknown_plugin(_child(p, "name"), name_)
            continue
        parsed.raw_args[name_] = entry.get("args")
        decoded = _decode_args(ctx, name_, entry.get("args"), _child(p, "args"))
        if decoded is not None:
            parsed.plugin_args[name_] = decoded
    for plugin, spec in ARGS_TYPES.items():
        if spec.default is not None and plugin not in parsed.plugin_args and plugin not in seen:
            parsed.plugin_args[plugin] = spec.default
    parsed.plugin_args = dict(sorted(parsed.plugin_args.items()))

    # Framework invariants (NewFramework); only meaningful once the plugins parsed cleanly.
    shown = parsed.name if parsed.name is not None else ""
    queue_sort = plugins["queueSort"]
    if len(queue_sort) != 1:
        ctx.add(
            _child(ppath, "queueSort"),
            f"only one queue sort plugin required for profile with scheduler name {_quote(shown)}, "
            f"but got {len(queue_sort)}",
        )
    if not plugins["bind"]:
        ctx.add(
            _child(ppath, "bind"),
            f"at least one bind plugin is needed for profile with scheduler name {_quote(shown)}",
        )
    return parsed


def _check_profiles_together(ctx: _Ctx, profiles: list[_ParsedProfile]) -> None:
    """Unique scheduler names (validation.go) and one queue sort for all profiles
    (validation.go validateCommonQueueSort, then profile.go cfgValidator)."""
    first_by_name: dict[str, int] = {}
    for p in profiles:
        if p.name is None:
            continue
        if p.name in first_by_name:
            ctx.add(
                _child(p.path, "schedulerName"),
                f"Duplicate value: {_quote(p.name)}: already used by "
                f"profiles[{first_by_name[p.name]}].schedulerName",
            )
        else:
            first_by_name[p.name] = p.index
    if not profiles:
        return
    first = profiles[0]
    first_sort = first.plugins.get("queueSort", ())
    first_sort_name = first_sort[0].name if len(first_sort) == 1 else None
    for p in profiles[1:]:
        if p.queue_sort_raw != first.queue_sort_raw:
            ctx.invalid(
                _child(_child(p.path, "plugins"), "queueSort"),
                p.queue_sort_shown,
                "queueSort must be the same for all profiles",
            )
            continue
        sort_ = p.plugins.get("queueSort", ())
        if first_sort_name is None or len(sort_) != 1:
            continue  # already reported as a count problem
        shown = p.name if p.name is not None else ""
        if sort_[0].name != first_sort_name:
            ctx.add(
                _child(_child(p.path, "plugins"), "queueSort"),
                f"different queue sort plugins for profile {_quote(shown)}: "
                f"{_quote(sort_[0].name)}, first: {_quote(first_sort_name)}",
            )
        elif p.raw_args.get(first_sort_name) != first.raw_args.get(first_sort_name):
            ctx.add(
                _child(p.path, "pluginConfig"),
                f"different queue sort plugin args for profile {_quote(shown)}",
            )


def build_profiles(
    config: Mapping | None, feature_gates: Mapping[str, bool], file: str = "<config>"
) -> dict[str, Profile]:
    """Every profile of `config` (a KubeSchedulerConfiguration as a plain dict), keyed by
    schedulerName in configuration order. No configuration: the default profile
    `default-scheduler`. `feature_gates` may name only some of the supported gates; the others
    take FEATURE_GATES_DEFAULTS. Raises InputError listing every problem."""
    ctx = _Ctx(file)
    try:
        gates = resolve_feature_gates(feature_gates)
    except InputError as exc:  # report them with the configuration's own problems
        ctx.problems.extend(exc.problems)
        gates = resolve_feature_gates({k: v for k, v in feature_gates.items()
                                       if k in FEATURE_GATES_DEFAULTS and isinstance(v, bool)})
    top = _object(ctx, {} if config is None else config, "", _TOP_LEVEL_FIELDS)
    if top is None:
        raise InputError(ctx.problems)

    api_version = top.get("apiVersion")
    if api_version is not None and api_version != API_VERSION:
        ctx.invalid("apiVersion", api_version, f'must be "{API_VERSION}"')
    kind = top.get("kind")
    if kind is not None and kind != KIND:
        ctx.invalid("kind", kind, f'must be "{KIND}"')

    parallelism = _int(ctx, top.get("parallelism"), "parallelism")
    if parallelism is not None and parallelism <= 0:
        ctx.invalid("parallelism", parallelism, "should be an integer value greater than zero")
    initial = _int(ctx, top.get("podInitialBackoffSeconds"), "podInitialBackoffSeconds", _INT64)
    maximum = _int(ctx, top.get("podMaxBackoffSeconds"), "podMaxBackoffSeconds", _INT64)
    initial = 1 if initial is None else initial
    maximum = 10 if maximum is None else maximum
    if initial <= 0:
        ctx.invalid("podInitialBackoffSeconds", initial, "must be greater than 0")
    if maximum < initial:
        ctx.invalid("podMaxBackoffSeconds", maximum, "must be greater than or equal to PodInitialBackoffSeconds")
    for flag in ("enableProfiling", "enableContentionProfiling", "delayCacheUntilActive"):
        _bool(ctx, top.get(flag), flag)
    for obj_field in ("leaderElection", "clientConnection"):
        if top.get(obj_field) is not None and not isinstance(top.get(obj_field), Mapping):
            ctx.invalid(obj_field, top.get(obj_field), "expected an object")
    _list(ctx, top.get("extenders"), "extenders")  # extenders are out of scope: accepted, unused
    global_nodes = _percentage(ctx, top.get("percentageOfNodesToScore"), "percentageOfNodesToScore")
    global_placements = _percentage(ctx, top.get("percentageOfPlacementsToScore"), "percentageOfPlacementsToScore")

    raw_profiles = _list(ctx, top.get("profiles"), "profiles") or [{}]
    parsed = [
        _parse_profile(ctx, raw, i, len(raw_profiles) == 1, gates) for i, raw in enumerate(raw_profiles)
    ]
    _check_profiles_together(ctx, parsed)
    if ctx.problems:
        raise InputError(ctx.problems)

    out: dict[str, Profile] = {}
    for p in parsed:
        assert p.name is not None
        out[p.name] = Profile(
            scheduler_name=p.name,
            plugins=dict(p.plugins),
            plugin_args=p.plugin_args,
            percentage_of_nodes_to_score=_effective_percentage(p.pct_nodes, global_nodes),
            percentage_of_placements_to_score=_effective_percentage(p.pct_placements, global_placements),
        )
    return out


def describe_not_applied(profile: Profile) -> list[str]:
    """The plugins the profile enables anywhere that the planner does not model (volumes, DRA,
    binding, ...), sorted by name; the plan lists them as "not modelled"."""
    names = {ref.name for point in EXTENSION_POINTS for ref in profile.enabled(point)}
    return sorted(names & NOT_APPLIED)
