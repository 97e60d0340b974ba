"""Feature gates: every gate a v1.37.0 kube-scheduler accepts, its 1.37 default, and `--feature-gates`.

Mirrors component-base `featuregate` (`featureGate.Set` as the `--feature-gates` flag parses it:
`A=true,B=false`, empty items skipped, names and values trimmed, values read with Go's
`strconv.ParseBool`; `unrecognized feature gate: X` for a name it does not know; `cannot set
feature gate X to V, feature is locked to D` for a locked gate set away from its default;
`AllAlpha` / `AllBeta` set every alpha / beta gate not named explicitly) and the v1.37.0 gate
list: every gate a v1.37.0 kube-scheduler registers (`pkg/features/kube_features.go` with the
gates it re-lists from apiserver, client-go and zpages, and the logging and metrics gates of
component-base), generated into config/feature_gates_v1_37.py.

This module is the one place gates are resolved: `resolve_feature_gates` turns what a user (or
a caller of `plan()`) set into a `FeatureGates`, every gate with a value, read everywhere else.

Deviation (README, "Deviations from kube-scheduler"): the planner turns the four workload gates on
by default where v1.37.0 ships them off; `WorkloadAwarePreemption` is a planner switch with no
gate behind it in v1.37.0 (workload-aware preemption runs there whenever GenericWorkload is on).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Mapping

from podgroup_plan.config.defaults import (
    COMPOSITE_POD_GROUP,
    GENERIC_WORKLOAD,
    POD_GROUP_PREEMPTION_POLICY,
    TOPOLOGY_AWARE_WORKLOAD_SCHEDULING,
    WORKLOAD_AWARE_PREEMPTION,
    WORKLOAD_WITH_JOB,
    gate_enabled,
)
from podgroup_plan.config.feature_gates_v1_37 import V1_37_GATE_SPECS
from podgroup_plan.config.values import quote
from podgroup_plan.errors import InputError, Problem

__all__ = [
    "FEATURE_GATES_DEFAULTS",
    "FEATURE_GATES_SOURCE",
    "FeatureGates",
    "GateSpec",
    "V1_37_GATES",
    "parse_feature_gates",
    "resolve_feature_gates",
]

ALPHA, BETA, GA, DEPRECATED = "Alpha", "Beta", "GA", "Deprecated"
ALL_ALPHA, ALL_BETA = "AllAlpha", "AllBeta"


@dataclass(frozen=True, slots=True)
class GateSpec:
    name: str
    stage: str  # at v1.37.0
    default: bool  # v1.37.0's default
    locked: bool = False  # LockToDefault at v1.37.0
    # Whether the gate's value can change a plan. The others are accepted (a user pastes a
    # running scheduler's flags) and named once in the result's notes when set.
    modelled: bool = False


# Gates whose value changes a plan; every other v1.37.0 gate is accepted and, when set, named
# in the result's notes.
MODELLED = frozenset({
    COMPOSITE_POD_GROUP, GENERIC_WORKLOAD, POD_GROUP_PREEMPTION_POLICY, TOPOLOGY_AWARE_WORKLOAD_SCHEDULING,
    # locked on: a running pod's requests follow the resize accounting (loading/decode_pods.py)
    "InPlacePodVerticalScaling",
    "MatchLabelKeysInPodTopologySpread",
    "NodeInclusionPolicyInPodTopologySpread",  # locked on
    "TaintTolerationComparisonOperators",
})

V1_37_GATES: Mapping[str, GateSpec] = {
    name: GateSpec(name, stage, default, locked, name in MODELLED)
    for name, stage, default, locked in V1_37_GATE_SPECS
}

# Switches that are no kube-scheduler v1.37.0 gate, on by default and reported only when off:
# * WorkloadAwarePreemption, the planner's own (v1.37.0 behaves as if it were on);
# * WorkloadWithJob, kube-controller-manager's gate (KEP-5547, alpha and off in v1.37.0) that
#   controller expansion reads: on by the planner's default so that Jobs are planned as a cluster
#   using KEP-5547 runs them (docs/controllers.md). Its v1.37.0 default is off, so contract.md's
#   `featureGates` (values unlike v1.37.0's defaults) lists it as true with the planner's
#   defaults, like the scheduler gates the planner turns on.
PLANNER_SWITCHES: Mapping[str, GateSpec] = {
    WORKLOAD_AWARE_PREEMPTION: GateSpec(WORKLOAD_AWARE_PREEMPTION, "planner", True, modelled=True),
    WORKLOAD_WITH_JOB: GateSpec(WORKLOAD_WITH_JOB, "kube-controller-manager", False, modelled=True),
}

# The planner's defaults where they differ from v1.37.0's (contract.md).
PLANNER_DEFAULTS: Mapping[str, bool] = {
    COMPOSITE_POD_GROUP: True,
    GENERIC_WORKLOAD: True,
    POD_GROUP_PREEMPTION_POLICY: True,
    TOPOLOGY_AWARE_WORKLOAD_SCHEDULING: True,
    WORKLOAD_WITH_JOB: True,
}

_KNOWN: Mapping[str, GateSpec] = {**V1_37_GATES, **PLANNER_SWITCHES}

# Every gate's value when nothing is set.
FEATURE_GATES_DEFAULTS: Mapping[str, bool] = {
    **{name: spec.default for name, spec in _KNOWN.items()}, **PLANNER_DEFAULTS,
}

FEATURE_GATES_SOURCE = "--feature-gates"

_GO_TRUE = ("1", "t", "T", "TRUE", "true", "True")
_GO_FALSE = ("0", "f", "F", "FALSE", "false", "False")


class FeatureGates(Mapping[str, bool]):
    """Every known gate with its value in this plan; `explicit` holds what the user set."""

    def __init__(self, values: Mapping[str, bool], explicit: Mapping[str, bool]):
        self._values = dict(values)
        self.explicit: Mapping[str, bool] = dict(explicit)

    def __getitem__(self, name: str) -> bool:
        return self._values[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"FeatureGates(explicit={self.explicit!r})"

    def enabled(self, name: str) -> bool:
        """On when it and every gate it depends on are on (GenericWorkload for the workload gates):
        `gate_enabled`, the one way a gate is read."""
        return gate_enabled(self, name)

    def differing_from_upstream(self) -> dict[str, bool]:
        """The result's `featureGates` (contract.md): gates whose value here is not v1.37.0's
        default, sorted; the planner switch only when off (v1.37.0 behaves as if it were on)."""
        return {name: value for name, value in sorted(self._values.items()) if value != _KNOWN[name].default}

    def not_modelled(self) -> dict[str, bool]:
        """Gates the user set that change nothing in a plan (named once in the result's notes)."""
        return {name: value for name, value in sorted(self.explicit.items())
                if name in _KNOWN and not _KNOWN[name].modelled}


def _unknown_gate(name: str) -> str:
    return f"unrecognized feature gate: {name}"


def _locked(name: str, value: bool) -> str | None:
    spec = _KNOWN.get(name)
    if spec is not None and spec.locked and value != spec.default:
        return (f"cannot set feature gate {name} to {_go_bool(value)}, feature is locked to "
                f"{_go_bool(spec.default)}")
    return None


def _go_bool(value: bool) -> str:
    return "true" if value else "false"


def _check(name: str, value: bool, source: str) -> Problem | None:
    if name in (ALL_ALPHA, ALL_BETA):
        return None
    if name not in _KNOWN:
        return Problem(source, _unknown_gate(name))
    locked = _locked(name, value)
    return Problem(source, locked) if locked else None


def parse_feature_gates(text: str, source: str = FEATURE_GATES_SOURCE) -> dict[str, bool]:
    """Parse kube-scheduler's `--feature-gates` syntax, `A=true,B=false` (component-base
    featuregate.Set). Returns only the gates named (the last value of a name wins); unknown
    names, locked gates set away from their default and bad values are reported together."""
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
                f"{quote(value)}: invalid syntax",
            ))
            continue
        out[name] = parsed
    for name, parsed in out.items():
        problem = _check(name, parsed, source)
        if problem is not None:
            problems.append(problem)
    if problems:
        raise InputError(problems)
    return out


def resolve_feature_gates(
    overrides: Mapping[str, bool] | None, source: str = FEATURE_GATES_SOURCE
) -> FeatureGates:
    """Every gate's value: FEATURE_GATES_DEFAULTS, then AllAlpha / AllBeta for the gates of that
    stage not named explicitly, then the explicit values. A FeatureGates is returned as it is.
    Unknown names, locked gates set away from their default and non-bool values raise."""
    if isinstance(overrides, FeatureGates):
        return overrides
    problems: list[Problem] = []
    explicit: dict[str, bool] = {}
    for name, value in (overrides or {}).items():
        if not isinstance(value, bool):
            problems.append(Problem(source, f"invalid value of {name}={value!r}: expected a boolean"))
            continue
        problem = _check(str(name), value, source)
        if problem is not None:
            problems.append(problem)
        else:
            explicit[name] = value
    if problems:
        raise InputError(problems)
    values = dict(FEATURE_GATES_DEFAULTS)
    for special, stage in ((ALL_ALPHA, ALPHA), (ALL_BETA, BETA)):
        if special in explicit:
            for name, spec in V1_37_GATES.items():
                if spec.stage == stage and name not in explicit:
                    values[name] = explicit[special]
    values.update((k, v) for k, v in explicit.items() if k not in (ALL_ALPHA, ALL_BETA))
    return FeatureGates(values, explicit)
