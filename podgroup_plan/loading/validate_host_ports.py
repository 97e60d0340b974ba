"""The host ports of a pod spec's containers as the API server validates them (the planner
reads them for NodePorts).

Mirrors Kubernetes v1.37.0 `pkg/apis/core/validation/validation.go` checkHostPortConflicts
(AccumulateUniqueHostPorts): a host port is claimed once per protocol (SetDefaults_ContainerPort:
TCP) and host IP among the regular containers, `Duplicate value: "TCP//8080"` at the later one;
validateInitContainers checks each init container on its own, as a list of one, so upstream's
path numbers it [0] (shown so, located at the container itself). A Pod's hostNetwork ports claim
their containerPort (SetDefaults_Pod's defaultHostNetworkPorts; not a template's).
"""
from __future__ import annotations

from typing import Any

from podgroup_plan.loading.documents import Document, Issue
from podgroup_plan.loading.field_errors import duplicate
from podgroup_plan.loading.field_lines import format_path

Path = tuple


def host_port_issues(doc: Document, at: Path, spec: dict, pod: bool = False) -> list[Issue]:
    """checkHostPortConflicts for the pod spec at `at` (`pod`: a Pod's, not a template's)."""
    host_network = pod and spec.get("hostNetwork") is True
    issues = _conflicts(doc, at + ("containers",), list(enumerate(_containers(spec.get("containers")))),
                        host_network)
    for i, c in enumerate(_containers(spec.get("initContainers"))):
        issues += _conflicts(doc, at + ("initContainers",), [(i, c)], host_network, shown_index=0)
    return issues


def _containers(value: Any) -> list[dict]:
    return [c for c in value if isinstance(c, dict)] if isinstance(value, list) else []


def _conflicts(doc: Document, at: Path, containers: list[tuple[int, dict]], host_network: bool,
               shown_index: int | None = None) -> list[Issue]:
    issues = []
    seen: set[str] = set()
    for i, c in containers:
        ports = c.get("ports")
        for j, p in enumerate(ports if isinstance(ports, list) else ()):
            if not isinstance(p, dict):
                continue
            port = p.get("hostPort") or (p.get("containerPort") if host_network else None)
            if not port or type(port) is not int:
                continue
            claim = f"{p.get('protocol') or 'TCP'}/{p.get('hostIP') or ''}/{port}"
            if claim in seen:
                shown = format_path(at + (i if shown_index is None else shown_index, "ports", j, "hostPort"))
                issues.append(Issue(doc, at + (i, "ports", j, "hostPort"), duplicate(claim), shown=shown))
            seen.add(claim)
    return issues
