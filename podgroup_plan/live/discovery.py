"""Which of the planner's kinds the server serves, and in which version: read from the server's
discovery documents (`/api/v1`, `/apis`, `/apis/GROUP/VERSION`), never assumed. A 1.37 server
serves scheduling.k8s.io's Workload and PodGroup in v1beta1 and v1alpha3 only when its feature
gates and runtime-config say so; an operator's kind only when its CRD is installed.

Per kind, the version read is the group's preferred version when it serves the kind there, else
the first the planner reads in Kubernetes' version order (GA, then beta, then alpha)."""
from __future__ import annotations

from dataclasses import dataclass

from podgroup_plan.live.client import Cluster, NotServed
from podgroup_plan.live.kinds import Kind


@dataclass(frozen=True)
class Served:
    """A kind as the server serves it: where to list it, and whether per namespace."""

    kind: str
    group: str
    version: str
    plural: str
    namespaced: bool

    @property
    def api_version(self) -> str:
        return f"{self.group}/{self.version}" if self.group else self.version

    @property
    def resource(self) -> str:
        """`pods`, `podgroups.scheduling.k8s.io`: how kubectl and RBAC name it."""
        return f"{self.plural}.{self.group}" if self.group else self.plural

    def path(self, namespace: str | None = None) -> str:
        base = f"/apis/{self.group}/{self.version}" if self.group else f"/api/{self.version}"
        return f"{base}/namespaces/{namespace}/{self.plural}" if namespace else f"{base}/{self.plural}"


def discover(cluster: Cluster, kinds: list[Kind]) -> tuple[list[Served], list[Kind]]:
    """The kinds served (in `kinds`' order) and those not served."""
    groups = _groups(cluster)
    resources: dict[tuple[str, str], dict[str, dict]] = {}  # (group, version) -> kind -> resource

    def kinds_of(group: str, version: str) -> dict[str, dict]:
        key = (group, version)
        if key not in resources:
            path = f"/apis/{group}/{version}" if group else f"/api/{version}"
            try:
                doc = cluster.get(path, resource=f"the discovery document {path}")
            except NotServed:
                doc = {}
            resources[key] = {str(r.get("kind")): r for r in doc.get("resources") or ()
                              if isinstance(r, dict) and "/" not in str(r.get("name", "")) and
                              "list" in (r.get("verbs") or ())}
        return resources[key]

    served: list[Served] = []
    missing: list[Kind] = []
    for kind in kinds:
        versions, preferred = groups.get(kind.group, ((), None))
        order = sorted((v for v in kind.versions if v in versions), key=lambda v: v != preferred)
        found = next(((v, r) for v in order for r in [kinds_of(kind.group, v).get(kind.kind)] if r), None)
        if found is None:
            missing.append(kind)
            continue
        version, resource = found
        served.append(Served(kind.kind, kind.group, version, str(resource["name"]), bool(resource.get("namespaced"))))
    return served, missing


def _groups(cluster: Cluster) -> dict[str, tuple[tuple[str, ...], str | None]]:
    """group -> (versions served, preferred version); '' is the core group."""
    core = cluster.get("/api", resource="the discovery document /api")
    out: dict[str, tuple[tuple[str, ...], str | None]] = {"": (tuple(core.get("versions") or ("v1",)), "v1")}
    doc = cluster.get("/apis", resource="the discovery document /apis")
    for group in doc.get("groups") or ():
        if not isinstance(group, dict):
            continue
        versions = tuple(str(v.get("version")) for v in group.get("versions") or () if isinstance(v, dict))
        preferred = (group.get("preferredVersion") or {}).get("version")
        out[str(group.get("name"))] = (versions, preferred)
    return out
