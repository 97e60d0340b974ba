"""Which kinds a snapshot reads: every kind the planner reads (the bundled schemas: one file per
kind and apiVersion, `schemas/`), in the versions the planner reads. The planner's own
configuration kind (KubeSchedulerConfiguration) is not an API object and is not read."""
from __future__ import annotations

from dataclasses import dataclass

NOT_API_OBJECTS = frozenset({"KubeSchedulerConfiguration"})


@dataclass(frozen=True)
class Kind:
    """A kind the planner reads: its API group ('' for the core group) and the versions of it
    the planner reads, newest first by Kubernetes' version order."""

    group: str
    kind: str
    versions: tuple[str, ...]


def planner_kinds() -> list[Kind]:
    from podgroup_plan.loading.schema import bundled, group_of

    schemas = bundled()
    out: list[Kind] = []
    for kind in schemas.kinds():
        if kind in NOT_API_OBJECTS:
            continue
        by_group: dict[str, list[str]] = {}
        for api_version in schemas.versions(kind):
            by_group.setdefault(group_of(api_version), []).append(api_version.rpartition("/")[2])
        for group, versions in sorted(by_group.items()):
            out.append(Kind(group, kind, tuple(sorted(versions, key=version_priority))))
    return out


def version_priority(version: str) -> tuple[int, int, int]:
    """Kubernetes' version order (apimachinery's CompareKubeAwareVersionStrings): GA before
    beta before alpha, higher numbers first; as a sort key, smallest first."""
    import re

    match = re.fullmatch(r"v(\d+)(?:(alpha|beta)(\d+))?", version)
    if match is None:
        return (3, 0, 0)
    major, level, minor = int(match.group(1)), match.group(2), int(match.group(3) or 0)
    rank = {None: 0, "beta": 1, "alpha": 2}[level]
    return (rank, -major, -minor)
