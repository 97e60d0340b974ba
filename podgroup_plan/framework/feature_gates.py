"""Feature gates: the gates this tool understands and kube-scheduler's `--feature-gates` syntax.

Mirrors component-base `featuregate` (`featureGate.Set` as the `--feature-gates` flag parses it:
`A=true,B=false`, empty items skipped, names and values trimmed, values read with Go's
`strconv.ParseBool`; an unknown gate is rejected with upstream's message). The gate names live in
framework/defaults.py; the defaults here are ours, not upstream's (see FEATURE_GATES_DEFAULTS).
"""
from __future__ import annotations

from typing import Mapping

from podgroup_plan.errors import InputError, Problem
from podgroup_plan.framework.config_values import quote
from podgroup_plan.framework.defaults import (
    COMPOSITE_POD_GROUP,
    GENERIC_WORKLOAD,
    POD_GROUP_PREEMPTION_POLICY,
    TOPOLOGY_AWARE_WORKLOAD_SCHEDULING,
    WORKLOAD_AWARE_PREEMPTION,
    WORKLOAD_WITH_JOB,
)

__all__ = [
    "FEATURE_GATES_DEFAULTS",
    "FEATURE_GATES_SOURCE",
    "parse_feature_gates",
    "resolve_feature_gates",
]

# The gates this tool understands, all on by default (contract.md). Upstream 1.37 defaults
# differ (GenericWorkload beta off, the others alpha off); ours describe the target state.
FEATURE_GATES_DEFAULTS: dict[str, bool] = {
    COMPOSITE_POD_GROUP: True,
    GENERIC_WORKLOAD: True,
    POD_GROUP_PREEMPTION_POLICY: True,
    TOPOLOGY_AWARE_WORKLOAD_SCHEDULING: True,
    WORKLOAD_AWARE_PREEMPTION: True,
    # v1.37.0: alpha, off; on here so that Jobs are planned as a cluster using KEP-5547 runs
    # them (docs/controllers.md).
    WORKLOAD_WITH_JOB: True,
}

FEATURE_GATES_SOURCE = "--feature-gates"

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
                f"{quote(value)}: invalid syntax",
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

