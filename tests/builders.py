"""Small builders for nodes, pods and cluster states in tests.

    make_node("n1", cpu="4", memory="8Gi", labels={"zone": "a"}, taints=[("k", "v", "NoSchedule")])
    make_pod("p", requests={"cpu": "500m", "memory": "1Gi"}, node_name="n1")
    make_state([node, ...], [running pod, ...])

Quantities may be ints (already in the scheduler's units: cpu in millicores, everything else in
whole units) or Kubernetes quantity strings ("500m", "2", "1Gi", "1e3"). A request given as 0
means "set explicitly to zero": it is left out of `Pod.requests` (only non-zero amounts are
kept there) but counts for the non-zero cpu/memory defaults, which otherwise follow
`containers_without_requests` (kube-scheduler counts 100m cpu / 200Mi memory for each container
that sets no request).
"""
from __future__ import annotations

from contextlib import contextmanager

import re
from fractions import Fraction
from typing import Iterable, Mapping

from podgroup_plan.model.objects import (
    CPU,
    MEMORY,
    Affinity,
    HostPort,
    ImageState,
    Node,
    Pod,
    Taint,
    Toleration,
)
from podgroup_plan.state.cluster import ClusterState

DEFAULT_MILLI_CPU_REQUEST = 100  # schedutil.DefaultMilliCPURequest
DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024  # schedutil.DefaultMemoryRequest

_SUFFIX = {
    "": Fraction(1), "m": Fraction(1, 1000), "k": Fraction(10**3), "M": Fraction(10**6),
    "G": Fraction(10**9), "T": Fraction(10**12), "P": Fraction(10**15), "E": Fraction(10**18),
    "Ki": Fraction(2**10), "Mi": Fraction(2**20), "Gi": Fraction(2**30), "Ti": Fraction(2**40),
    "Pi": Fraction(2**50), "Ei": Fraction(2**60),
}
_QUANTITY = re.compile(r"([+-]?(?:\d+\.?\d*|\.\d+))(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|m|k|M|G|T|P|E)?)\Z")


def quantity(value: int | str, resource: str = "") -> int:
    """A quantity in scheduler units: millicores for cpu, rounded-up units for the rest."""
    if isinstance(value, int):
        return value
    m = _QUANTITY.match(value.strip())
    if not m:
        raise ValueError(f"bad quantity {value!r}")
    number = Fraction(m.group(1))
    if m.group(2):
        number *= Fraction(10) ** int(m.group(2)[1:])
    else:
        number *= _SUFFIX[m.group(3) or ""]
    if resource == CPU:
        number *= 1000
    return -((-number.numerator) // number.denominator)  # ceil, as Quantity.Value/MilliValue


def _resources(amounts: Mapping[str, int | str] | None) -> dict[str, int]:
    return {r: quantity(v, r) for r, v in (amounts or {}).items()}


def make_node(
    name: str,
    cpu: int | str | None = None,
    memory: int | str | None = None,
    pods: int | None = None,
    *,
    allocatable: Mapping[str, int | str] | None = None,
    labels: Mapping[str, str] | None = None,
    taints: Iterable[Taint | tuple[str, str, str]] = (),
    unschedulable: bool = False,
    images: Iterable[ImageState | tuple[Iterable[str], int]] = (),
) -> Node:
    """A node; `cpu`, `memory`, `pods` are shorthands merged into `allocatable`."""
    alloc = _resources(allocatable)
    if cpu is not None:
        alloc[CPU] = quantity(cpu, CPU)
    if memory is not None:
        alloc[MEMORY] = quantity(memory, MEMORY)
    if pods is not None:
        alloc["pods"] = int(pods)
    return Node(
        name=name,
        labels=dict(labels or {}),
        taints=tuple(t if isinstance(t, Taint) else Taint(*t) for t in taints),
        unschedulable=unschedulable,
        allocatable=alloc,
        images=tuple(
            i if isinstance(i, ImageState) else ImageState(tuple(i[0]), int(i[1])) for i in images
        ),
    )


def make_pod(
    name: str,
    namespace: str = "default",
    *,
    requests: Mapping[str, int | str] | None = None,
    containers_without_requests: int = 0,
    node_name: str | None = None,
    labels: Mapping[str, str] | None = None,
    tolerations: Iterable[Toleration] = (),
    node_selector: Mapping[str, str] | None = None,
    affinity: Affinity | None = None,
    host_ports: Iterable[HostPort | tuple] = (),
    images: Iterable[str] = (),
    priority: int = 0,
    **extra,
) -> Pod:
    """A pod. `requests` is the effective pod request (as the loader computes it); the
    non-zero cpu/memory used for scoring add the defaults for `containers_without_requests`
    containers to every resource not given in `requests`."""
    given = _resources(requests)
    non_zero_cpu = given.get(CPU, containers_without_requests * DEFAULT_MILLI_CPU_REQUEST)
    non_zero_memory = given.get(MEMORY, containers_without_requests * DEFAULT_MEMORY_REQUEST)
    return Pod(
        namespace=namespace,
        name=name,
        labels=dict(labels or {}),
        node_name=node_name,
        priority=priority,
        requests={r: v for r, v in given.items() if v},
        non_zero_cpu=non_zero_cpu,
        non_zero_memory=non_zero_memory,
        host_ports=tuple(h if isinstance(h, HostPort) else HostPort(*h) for h in host_ports),
        node_selector=dict(node_selector or {}),
        affinity=affinity,
        tolerations=tuple(tolerations),
        images=tuple(images),
        phase="Running" if node_name else "Pending",
        **extra,
    )


def make_state(nodes: Iterable[Node], pods: Iterable[Pod] = ()) -> ClusterState:
    """A ClusterState; pods with a node_name are placed on that node."""
    return ClusterState(list(nodes), [p for p in pods if p.node_name])


def node_statuses(verdict, state: ClusterState, view=None) -> dict[str, tuple]:
    """A FilterVerdict as upstream would report it per node: name -> (code name, reasons), or
    None for a node that passed. Reasons of a node are gathered in failure order; the code is
    the highest of its failures (the runtime's rule)."""
    import numpy as np

    view = state.all_nodes if view is None else view
    out: dict[str, tuple | None] = {}
    for i, row in enumerate(np.asarray(view)):
        name = state.node_names[row]
        if verdict.passed[i]:
            out[name] = None
            continue
        hits = [f for f in verdict.failures if f.mask[i]]
        reasons = tuple(r for f in hits for r in f.reasons)
        code = max(f.code for f in hits) if hits else None
        out[name] = (code.upstream_name if code is not None else None, reasons)
    return out


@contextmanager
def without_node_cache():
    """Every registered plugin counted as not node-local while inside: frameworks built then
    keep no per-signature verdicts and ask every plugin directly (the reference the signature
    cache is compared with)."""
    from podgroup_plan.plugins.registry import IMPLEMENTED

    saved = {cls: cls.__dict__["node_local"] for cls in IMPLEMENTED.values() if "node_local" in cls.__dict__}
    for cls in saved:
        cls.node_local = False
    try:
        yield
    finally:
        for cls, value in saved.items():
            cls.node_local = value
