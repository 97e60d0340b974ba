"""A Service as the API server validates it, for what the planner reads of it (its selector,
for default topology spreading) and what no Service can lack.

Mirrors Kubernetes v1.37.0 `pkg/apis/core/validation/validation.go` validateService (from
ValidateServiceCreate): `spec.ports` is required unless the Service is headless
(isHeadlessService: clusterIPs is `[None]`, which the registry's NormalizeClusterIPs fills from
clusterIP before validation) or of type ExternalName, whose `spec.externalName` is then required and a DNS subdomain
(ValidateDNS1123Subdomain, a trailing dot trimmed); `spec.selector` through ValidateLabels.
Its other rules (ports' numbers and protocols, IPs, traffic policies) are about fields the
planner does not read, and are not applied.
"""
from __future__ import annotations

from podgroup_plan.loading.documents import Document, Issue
from podgroup_plan.loading.field_errors import invalid, name_is_dns_subdomain, required
from podgroup_plan.loading.validate_selectors import label_map_issues


def service_issues(doc: Document) -> list[Issue]:
    spec = doc.obj.get("spec")
    spec = spec if isinstance(spec, dict) else {}
    issues: list[Issue] = []
    external = spec.get("type") == "ExternalName"
    if not spec.get("ports") and not _headless(spec) and not external:
        issues.append(Issue(doc, ("spec", "ports"), required()))
    if external:  # what makes one without ports valid: a DNS name, a trailing dot allowed
        name = spec.get("externalName")
        cname = name.removesuffix(".") if isinstance(name, str) else ""
        if not cname:
            issues.append(Issue(doc, ("spec", "externalName"), required()))
        else:
            issues += [Issue(doc, ("spec", "externalName"), invalid(cname, m)) for m in name_is_dns_subdomain(cname)]
    selector = spec.get("selector")
    if isinstance(selector, dict):
        issues += label_map_issues(doc, ("spec", "selector"), selector)
    return issues


def _headless(spec: dict) -> bool:
    ips = spec.get("clusterIPs") or ([spec["clusterIP"]] if spec.get("clusterIP") else [])
    return ips == ["None"]
