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
percentageOfNodesToScore (upstream: adaptive) becomes None, which the planner reads as "score
everything" (documented deviation). Fields v1.37.0 does not have (`percentageOfPlacementsToScore`,
a `placementFeasible` plugin set; 1.38-dev) are refused as its strict decoding refuses them.

This module parses the top level and the profiles: plugin sets, their merge with the defaults,
multiPoint expansion and the framework invariants. The rest lives beside it:
config/feature_gates.py (`--feature-gates` and the gate defaults), config/values.py
(typed value reading, field.Error messages, name and label validation) and
config/plugin_args.py (pluginConfig args: decoding, defaulting, validation_pluginargs.go).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from podgroup_plan.config import defaults
from podgroup_plan.config.defaults import DEFAULT_SCHEDULER_NAME, WEIGHTED_EXTENSION_POINTS
from podgroup_plan.config.feature_gates import (
    FEATURE_GATES_DEFAULTS,
    FeatureGates,
    parse_feature_gates,
    resolve_feature_gates,
)
from podgroup_plan.config.plugin_args import ARGS_TYPES, decode_args
from podgroup_plan.config.profile import EXTENSION_POINTS, PluginRef, Profile
from podgroup_plan.config.values import (
    API_VERSION,
    INT64,
    KIND,
    Ctx,
    child_path,
    index_path,
    quote,
    read_bool,
    read_int,
    read_list,
    read_object,
)
from podgroup_plan.errors import InputError, Problem
from podgroup_plan.plugins.names import KNOWN_PLUGINS, NOT_APPLIED

# Re-exported, so that callers keep importing them from here: API_VERSION and KIND
# (config_values.py), the feature gate names (feature_gates.py; cli.py and plan.py use them).
__all__ = [
    "API_VERSION",
    "FEATURE_GATES_DEFAULTS",
    "KIND",
    "Configuration",
    "build_profiles",
    "describe_not_applied",
    "resolve_configuration",
    "parse_feature_gates",
    "resolve_feature_gates",
]


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


_PLUGIN_SET_POINTS = ("multiPoint",) + tuple(p for p in EXTENSION_POINTS if p != "placementFeasible")

# Fields of 1.38-dev's configuration that v1.37.0 does not have (a 1.37 kube-scheduler decodes
# its configuration strictly and refuses them). PlacementFeasible in v1.37.0 is GangScheduling
# whenever the profile enables it: no plugin set configures it.
NOT_IN_V1_37 = ("percentageOfPlacementsToScore", "placementFeasible")


def not_in_v1_37(name: str) -> str:
    return f'unknown field "{name}" (not in kube-scheduler v1.37.0; added in 1.38-dev)'


def _refuse_not_in_v1_37(ctx: Ctx, obj: Mapping, path: str) -> dict:
    """`obj` without the 1.38-dev fields, each reported in one line (README, "Deviations from kube-scheduler")."""
    for name in NOT_IN_V1_37:
        if name in obj:
            ctx.add(child_path(path, name), not_in_v1_37(name))
    return {k: v for k, v in obj.items() if k not in NOT_IN_V1_37}


def _plugin_set(ctx: Ctx, value: Any, path: str) -> _PluginSet:
    out = _PluginSet()
    obj = read_object(ctx, value, path, ("enabled", "disabled"))
    if obj is None:
        return out
    epath = child_path(path, "enabled")
    for i, item in enumerate(read_list(ctx, obj.get("enabled"), epath)):
        p = index_path(epath, i)
        entry = read_object(ctx, item, p, ("name", "weight"))
        if entry is None:
            continue
        name = _plugin_name(ctx, entry.get("name"), child_path(p, "name"), allow_star=False)
        weight = read_int(ctx, entry.get("weight"), child_path(p, "weight"))
        if name is not None and (weight is not None or entry.get("weight") is None):
            out.enabled.append(_Entry(name, weight or 0, p))
    dpath = child_path(path, "disabled")
    for i, item in enumerate(read_list(ctx, obj.get("disabled"), dpath)):
        p = index_path(dpath, i)
        entry = read_object(ctx, item, p, ("name", "weight"))
        if entry is None:
            continue
        read_int(ctx, entry.get("weight"), child_path(p, "weight"))
        name = _plugin_name(ctx, entry.get("name"), child_path(p, "name"), allow_star=True)
        if name is not None:
            out.disabled.append(name)
    return out


def _plugin_name(ctx: Ctx, value: Any, path: str, allow_star: bool) -> str | None:
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
    ctx: Ctx,
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
    "podInitialBackoffSeconds", "podMaxBackoffSeconds",
    "profiles", "extenders", "delayCacheUntilActive",
)
_PROFILE_FIELDS = (
    "schedulerName", "percentageOfNodesToScore", "plugins", "pluginConfig",
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


def _percentage(ctx: Ctx, value: Any, path: str) -> int | None:
    pct = read_int(ctx, value, path)
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
    ctx: Ctx, raw: Any, index: int, single: bool, gates: Mapping[str, bool]
) -> _ParsedProfile:
    path = index_path("profiles", index)
    parsed = _ParsedProfile(index, path, None)
    if isinstance(raw, Mapping):
        raw = _refuse_not_in_v1_37(ctx, raw, path)
    obj = read_object(ctx, raw, path, _PROFILE_FIELDS)
    if obj is None:
        return parsed

    name_path = child_path(path, "schedulerName")
    name = obj.get("schedulerName")
    if name is None and single:
        name = DEFAULT_SCHEDULER_NAME  # SetDefaults_KubeSchedulerConfiguration
    if name is None or name == "":
        ctx.required(name_path)
    elif not isinstance(name, str):
        ctx.invalid(name_path, name, "expected a string")
    else:
        parsed.name = name

    parsed.pct_nodes = _percentage(
        ctx, obj.get("percentageOfNodesToScore"), child_path(path, "percentageOfNodesToScore")
    )

    # plugins: parse every set, merge with the defaults, expand multiPoint.
    ppath = child_path(path, "plugins")
    plugins_raw = obj.get("plugins")
    if isinstance(plugins_raw, Mapping):
        plugins_raw = _refuse_not_in_v1_37(ctx, plugins_raw, ppath)
    plugins_obj = read_object(ctx, plugins_raw, ppath, _PLUGIN_SET_POINTS) or {}
    sets = {point: _plugin_set(ctx, plugins_obj.get(point), child_path(ppath, point)) for point in _PLUGIN_SET_POINTS}
    sets["placementFeasible"] = _PluginSet()  # not configurable in v1.37.0: only multiPoint's GangScheduling
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
    cpath = child_path(path, "pluginConfig")
    seen: set[str] = set()
    for j, item in enumerate(read_list(ctx, obj.get("pluginConfig"), cpath)):
        p = index_path(cpath, j)
        entry = read_object(ctx, item, p, ("name", "args"))
        if entry is None:
            continue
        name_ = entry.get("name")
        if name_ is None or name_ == "":
            ctx.required(child_path(p, "name"))
            continue
        if not isinstance(name_, str):
            ctx.invalid(child_path(p, "name"), name_, "expected a string")
            continue
        if name_ in seen:
            ctx.duplicate(p, name_)
            continue
        seen.add(name_)
        if name_ not in KNOWN_PLUGINS:
            ctx.unknown_plugin(child_path(p, "name"), name_)
            continue
        parsed.raw_args[name_] = entry.get("args")
        decoded = decode_args(ctx, name_, entry.get("args"), child_path(p, "args"))
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
            child_path(ppath, "queueSort"),
            f"only one queue sort plugin required for profile with scheduler name {quote(shown)}, "
            f"but got {len(queue_sort)}",
        )
    if not plugins["bind"]:
        ctx.add(
            child_path(ppath, "bind"),
            f"at least one bind plugin is needed for profile with scheduler name {quote(shown)}",
        )
    return parsed


def _check_profiles_together(ctx: Ctx, profiles: list[_ParsedProfile]) -> None:
    """Unique scheduler names (validation.go) and one queue sort for all profiles
    (validation.go validateCommonQueueSort, then profile.go cfgValidator)."""
    first_by_name: dict[str, int] = {}
    for p in profiles:
        if p.name is None:
            continue
        if p.name in first_by_name:
            ctx.add(
                child_path(p.path, "schedulerName"),
                f"Duplicate value: {quote(p.name)}: already used by "
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
                child_path(child_path(p.path, "plugins"), "queueSort"),
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
                child_path(child_path(p.path, "plugins"), "queueSort"),
                f"different queue sort plugins for profile {quote(shown)}: "
                f"{quote(sort_[0].name)}, first: {quote(first_sort_name)}",
            )
        elif p.raw_args.get(first_sort_name) != first.raw_args.get(first_sort_name):
            ctx.add(
                child_path(p.path, "pluginConfig"),
                f"different queue sort plugin args for profile {quote(shown)}",
            )


def build_profiles(
    config: Mapping | None, feature_gates: Mapping[str, bool], file: str = "<config>"
) -> dict[str, Profile]:
    """Every profile of `config` (a KubeSchedulerConfiguration as a plain dict), keyed by
    schedulerName in configuration order. No configuration: the default profile
    `default-scheduler`. `feature_gates` may name only some of the supported gates; the others
    take FEATURE_GATES_DEFAULTS. Raises InputError listing every problem."""
    ctx = Ctx(file)
    try:
        gates = resolve_feature_gates(feature_gates)
    except InputError as exc:  # report them with the configuration's own problems
        ctx.problems.extend(exc.problems)
        gates = resolve_feature_gates(None)
    config = {} if config is None else config
    if isinstance(config, Mapping):
        config = _refuse_not_in_v1_37(ctx, config, "")
    top = read_object(ctx, config, "", _TOP_LEVEL_FIELDS)
    if top is None:
        raise InputError(ctx.problems)

    api_version = top.get("apiVersion")
    if api_version is not None and api_version != API_VERSION:
        ctx.invalid("apiVersion", api_version, f'must be "{API_VERSION}"')
    kind = top.get("kind")
    if kind is not None and kind != KIND:
        ctx.invalid("kind", kind, f'must be "{KIND}"')

    parallelism = read_int(ctx, top.get("parallelism"), "parallelism")
    if parallelism is not None and parallelism <= 0:
        ctx.invalid("parallelism", parallelism, "should be an integer value greater than zero")
    initial = read_int(ctx, top.get("podInitialBackoffSeconds"), "podInitialBackoffSeconds", INT64)
    maximum = read_int(ctx, top.get("podMaxBackoffSeconds"), "podMaxBackoffSeconds", INT64)
    initial = 1 if initial is None else initial
    maximum = 10 if maximum is None else maximum
    if initial <= 0:
        ctx.invalid("podInitialBackoffSeconds", initial, "must be greater than 0")
    if maximum < initial:
        ctx.invalid("podMaxBackoffSeconds", maximum, "must be greater than or equal to PodInitialBackoffSeconds")
    for flag in ("enableProfiling", "enableContentionProfiling", "delayCacheUntilActive"):
        read_bool(ctx, top.get(flag), flag)
    for obj_field in ("leaderElection", "clientConnection"):
        if top.get(obj_field) is not None and not isinstance(top.get(obj_field), Mapping):
            ctx.invalid(obj_field, top.get(obj_field), "expected an object")
    read_list(ctx, top.get("extenders"), "extenders")  # extenders are out of scope: accepted, unused
    global_nodes = _percentage(ctx, top.get("percentageOfNodesToScore"), "percentageOfNodesToScore")

    raw_profiles = read_list(ctx, top.get("profiles"), "profiles") or [{}]
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
        )
    return out


@dataclass(frozen=True)
class Configuration:
    """What a plan runs under: every feature gate resolved, and the profiles by schedulerName."""

    gates: FeatureGates
    profiles: dict[str, Profile]


def resolve_configuration(
    scheduler_config: Mapping | None,
    feature_gates: Mapping[str, bool] | None,
    manifests_config: Mapping | None = None,
    manifests_config_source: str | None = None,
    config_source: str = "<config>",
) -> Configuration:
    """The one place configuration and gates are resolved (for `plan()` and `validate`):
    `scheduler_config` (the --scheduler-config file, named `config_source`) wins over a
    configuration found among the manifests; no configuration is the default profile. Raises
    InputError with every problem of the gates and the configuration together."""
    problems: list[Problem] = []
    try:
        gates = resolve_feature_gates(feature_gates)
    except InputError as exc:
        problems.extend(exc.problems)
        gates = resolve_feature_gates(None)
    config, source = scheduler_config, config_source
    if config is None and manifests_config is not None:
        config, source = manifests_config, manifests_config_source or config_source
    try:
        profiles = build_profiles(config, gates, file=source)
    except InputError as exc:
        problems.extend(exc.problems)
    if problems:
        raise InputError(problems)
    return Configuration(gates, profiles)


def describe_not_applied(profile: Profile) -> list[str]:
    """The plugins the profile enables anywhere that the planner does not model (volumes, DRA,
    binding, ...), sorted by name; the plan lists them as "not modelled"."""
    names = {ref.name for point in EXTENSION_POINTS for ref in profile.enabled(point)}
    return sorted(names & NOT_APPLIED)
