"""Heterogeneous clusters: many pod shapes on nodes of several instance types (issue 16).

Real clusters are not one pod shape on one node shape: every Deployment asks for its own
requests, affinities and spreading. For a case with `pod_shapes = N > 0`:

* Nodes come in four instance types (label `node.kubernetes.io/instance-type`), node i of type
  i % 4; zones and racks as in scheduler_perf (`zone-{i // nodes_per_zone}`,
  `rack-{i // nodes_per_rack}`), so every zone holds every type. One node in ten
  (i % 10 == 7) carries the taint `dedicated=infra:NoSchedule`.
* Pending pod j has shape j % N. Shape s has its own requests (cpu and memory differ for every
  s below 12,800, so N = pending pods makes every pod its own node-cache signature) and the
  features of template t = s % 20:
    - required node affinity on the instance type (t % 4 == 0: In two types; t % 4 == 1:
      NotIn one type), a nodeSelector on `kubernetes.io/os` (t % 10 == 3);
    - preferred node affinity for a zone and an instance type (t % 3 == 0);
    - required hostname anti-affinity against its own template (t % 5 == 0);
    - zone spreading, maxSkew 1, DoNotSchedule, over its own template (t % 2 == 0);
    - hostname spreading, maxSkew 1, ScheduleAnyway (t % 5 == 2);
    - preferred pod affinity to the next template's pods in the same zone (t % 10 == 7);
    - a toleration of the `dedicated` taint (t % 4 == 3).
  Pods are labelled `app: tmpl-{t}` (what the selectors match) and `shape: s-{s}`.

Everything fits: the plan must place every pod (`benchmarks/verify.py` checks that, plus the
hard constraints above, on the result).
"""
from __future__ import annotations

from benchmarks.cases import Case, Gi, Mi

INSTANCE_TYPE_LABEL = "node.kubernetes.io/instance-type"
OS_LABEL = "kubernetes.io/os"
# (name, cpu millicores, memory)
INSTANCE_TYPES = (
    ("m5.xlarge", 4000, 16 * Gi),
    ("m5.2xlarge", 8000, 32 * Gi),
    ("c5.4xlarge", 16000, 32 * Gi),
    ("r5.2xlarge", 8000, 64 * Gi),
)
TAINT = {"key": "dedicated", "value": "infra", "effect": "NoSchedule"}
TEMPLATES = 20


def instance_type(i: int) -> tuple[str, int, int]:
    return INSTANCE_TYPES[i % len(INSTANCE_TYPES)]


def tainted(i: int) -> bool:
    return i % 10 == 7


def shape_requests(s: int) -> tuple[int, int]:
    """(cpu millicores, memory bytes) of shape s: distinct for every s < lcm(400, 512)."""
    return 100 + (s * 97) % 400, 128 * Mi + ((s * 89) % 512) * Mi


def node_spec(case: Case, i: int) -> tuple[dict, dict, list[dict]]:
    """(extra labels, allocatable, taints) of node i."""
    name, cpu, memory = instance_type(i)
    labels = {INSTANCE_TYPE_LABEL: name}
    allocatable = {"cpu": cpu, "memory": memory, "pods": case.node_pods}
    return labels, allocatable, [dict(TAINT)] if tainted(i) else []


def _selector(t: int) -> dict:
    return {"matchLabels": {"app": f"tmpl-{t}"}}


def pod_labels(s: int) -> dict:
    return {"app": f"tmpl-{s % TEMPLATES}", "shape": f"s-{s}"}


def pod_spec_fields(case: Case, s: int) -> dict:
    """The scheduling fields of a pod of shape s, as `spec` keys (API JSON)."""
    t = s % TEMPLATES
    zones = max(1, -(-case.nodes // case.nodes_per_zone))
    out: dict = {}
    affinity: dict = {}
    if t % 4 in (0, 1):
        if t % 4 == 0:
            expr = {"key": INSTANCE_TYPE_LABEL, "operator": "In",
                    "values": [INSTANCE_TYPES[0][0], INSTANCE_TYPES[1][0]]}
        else:
            expr = {"key": INSTANCE_TYPE_LABEL, "operator": "NotIn", "values": [INSTANCE_TYPES[3][0]]}
        affinity.setdefault("nodeAffinity", {})["requiredDuringSchedulingIgnoredDuringExecution"] = {
            "nodeSelectorTerms": [{"matchExpressions": [expr]}]
        }
    if t % 3 == 0:
        affinity.setdefault("nodeAffinity", {})["preferredDuringSchedulingIgnoredDuringExecution"] = [
            {"weight": 50, "preference": {"matchExpressions": [
                {"key": "topology.kubernetes.io/zone", "operator": "In", "values": [f"zone-{t % zones}"]}]}},
            {"weight": 20, "preference": {"matchExpressions": [
                {"key": INSTANCE_TYPE_LABEL, "operator": "In", "values": [INSTANCE_TYPES[2][0]]}]}},
        ]
    if t % 5 == 0:
        affinity["podAntiAffinity"] = {"requiredDuringSchedulingIgnoredDuringExecution": [
            {"labelSelector": _selector(t), "topologyKey": "kubernetes.io/hostname"}]}
    if t % 10 == 7:
        affinity["podAffinity"] = {"preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": 10, "podAffinityTerm": {"labelSelector": _selector((t + 1) % TEMPLATES),
                                               "topologyKey": "topology.kubernetes.io/zone"}}]}
    if affinity:
        out["affinity"] = affinity
    if t % 10 == 3:
        out["nodeSelector"] = {OS_LABEL: "linux"}
    spread = []
    if t % 2 == 0:
        spread.append({"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone",
                       "whenUnsatisfiable": "DoNotSchedule", "labelSelector": _selector(t)})
    if t % 5 == 2:
        spread.append({"maxSkew": 1, "topologyKey": "kubernetes.io/hostname",
                       "whenUnsatisfiable": "ScheduleAnyway", "labelSelector": _selector(t)})
    if spread:
        out["topologySpreadConstraints"] = spread
    if t % 4 == 3:
        out["tolerations"] = [{"key": TAINT["key"], "operator": "Equal", "value": TAINT["value"],
                               "effect": TAINT["effect"]}]
    return out
