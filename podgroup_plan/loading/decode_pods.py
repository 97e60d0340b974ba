"""Pods: effective requests, host ports, images, scheduling constraints and group link.

Mirrors what kube-scheduler derives from a pod:
* container requests after apiserver defaulting (a limit with no request requests the limit);
* the effective request as `k8s.io/component-helpers/resource` `PodRequests` computes it:
  `AggregateContainerRequests` (sidecars included), pod-level resources, overhead; for a pod
  whose container statuses carry resources, as NodeInfo counts it (`UseStatusResources`,
  InPlacePodVerticalScaling locked on in v1.37.0): during an in-place resize the larger of the
  spec's and the status's requests and allocated resources, only the status's and allocated
  ones when the resize is Infeasible (`determineContainerReqs`);
* the non-zero cpu/memory that `NodeResourcesFit` scores with (`NonMissingContainerRequests`,
  `pkg/scheduler/util` defaults);
* NodePorts' host ports and ImageLocality's normalized image names;
* the pod's PodGroup, per API version (see loading/decode_groups.py).

Pods of one controller are written alike: `Memo` decodes each distinct part once.
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any, Callable, Mapping, Sequence

import orjson

from podgroup_plan.loading.decode_meta import DEFAULT_NAMESPACE, Report, timestamp
from podgroup_plan.loading.decode_nodes import normalized_image
from podgroup_plan.loading.decode_priorities import PriorityTable
from podgroup_plan.loading.decode_quantities import check_total, in_units, quantities, unit
from podgroup_plan.loading.decode_scheduling import affinity, spread_constraint, toleration
from podgroup_plan.loading.documents import Document
from podgroup_plan.model.objects import (
    CPU,
    DEFAULT_SCHEDULER_NAME,
    MEMORY,
    HostPort,
    OwnerReference,
    Pod,
    Source,
    Toleration,
    TopologySpreadConstraint,
)
from podgroup_plan.model.quantity import MAX_INT64

# kube-scheduler's defaults for containers that request no cpu / memory (scoring only):
# `pkg/scheduler/util` DefaultMilliCPURequest = 100m, DefaultMemoryRequest = 200Mi.
# In nano-units, as decode sums amounts (see `decode_quantities.amount`).
NON_ZERO_CPU = 100 * 10**6
NON_ZERO_MEMORY = 200 * 1024 * 1024 * 10**9

# Resources a pod may request at pod level (`resource.IsSupportedPodLevelResource`).
_POD_LEVEL_RESOURCES = (CPU, MEMORY)


# --- requests ----------------------------------------------------------------------------------


def container_requests(container: Mapping, path: tuple, report: Report) -> dict[str, int | Fraction]:
    """A container's requests after apiserver defaulting: a resource with a limit but no
    request requests its limit. (A negative amount, or a request above its limit, is the API
    server's validation's to report: validate_resources.py.)"""
    resources = container.get("resources") or {}
    requests = quantities(resources.get("requests"), path + ("resources", "requests"), report, validated=True)
    limits = resources.get("limits")
    if limits:
        limit_q = quantities(limits, path + ("resources", "limits"), report, validated=True)
        for name, limit in limit_q.items():
            if name not in requests:
                requests[name] = limit
    return requests


def _add(into: dict, values: Mapping) -> None:
    for name, q in values.items():
        into[name] = into.get(name, 0) + q


def _max(into: dict, values: Mapping) -> None:
    for name, q in values.items():
        if q > into.get(name, 0):
            into[name] = q


def aggregate_requests(
    regular: Sequence[Mapping[str, int | Fraction]],
    init: Sequence[tuple[Mapping[str, int | Fraction], bool]],
) -> dict[str, int | Fraction]:
    """`resource.AggregateContainerRequests`: the pod's peak request.

    Regular containers and sidecars (init containers with restartPolicy Always) run together;
    each init container runs alone beside the sidecars started before it. The pod needs the
    larger of the two peaks, per resource.
    """
    total: dict[str, int | Fraction] = {}
    for r in regular:
        _add(total, r)
    sidecars: dict[str, int | Fraction] = {}
    init_peak: dict[str, int | Fraction] = {}
    for requests, is_sidecar in init:
        if is_sidecar:
            _add(total, requests)
            _add(sidecars, requests)
            _max(init_peak, sidecars)
        else:
            peak = dict(sidecars)
            _add(peak, requests)
            _max(init_peak, peak)
    _max(total, init_peak)
    return total


def _with_non_zero(requests: Mapping[str, int | Fraction]) -> dict[str, int | Fraction]:
    # `NonMissingContainerRequests`: a missing (not a zero) cpu/memory request counts as the default.
    return {CPU: requests.get(CPU, NON_ZERO_CPU), MEMORY: requests.get(MEMORY, NON_ZERO_MEMORY)}


def _is_mapping(value: Any) -> bool:
    # parsed manifests hold dicts: a dict is answered before typing.Mapping's slow abc check,
    # which cost about 5 % of loading a JSON dump (several conditions per running pod)
    return type(value) is dict or isinstance(value, Mapping)


def resize_status(status: Mapping) -> tuple[dict[str, tuple[tuple, Mapping]], bool] | None:
    """What an in-place resize changes, from a pod's status: the container statuses that carry
    `resources` (by container name, with their index and kind for problem paths) and whether the
    resize is Infeasible (the first PodResizePending condition's reason). None when no status
    carries resources (every pending pod, most running ones)."""
    by_name: dict[str, tuple[tuple, Mapping]] = {}  # name -> (path of its status, status)
    for field_name in ("containerStatuses", "initContainerStatuses"):
        statuses = status.get(field_name)
        if not statuses:
            continue
        for cs in statuses:  # the usual answer (no resources) without enumerate's tuples
            if (type(cs) is dict or isinstance(cs, Mapping)) and cs.get("resources") is not None:
                break
        else:
            continue
        for i, cs in enumerate(statuses):
            if _is_mapping(cs) and cs.get("resources") is not None:
                by_name[cs["name"]] = (("status", field_name, i), cs)
    if not by_name:
        return None
    infeasible = False
    for condition in status.get("conditions") or ():
        if condition.get("type") == "PodResizePending":
            infeasible = condition.get("reason") == "Infeasible"
            break
    return by_name, infeasible


def _status_requests(requests: dict, container: Mapping, resize, report: Report) -> dict:
    """`determineContainerReqs` for one container, when its status carries resources."""
    if resize is None:
        return requests
    by_name, infeasible = resize
    found = by_name.get(container.get("name"))
    if found is None:
        return requests
    path, cs = found
    out: dict = {} if infeasible else dict(requests)
    _max(out, quantities((cs.get("resources") or {}).get("requests"), path + ("resources", "requests"), report))
    _max(out, quantities(cs.get("allocatedResources"), path + ("allocatedResources",), report))
    return out


def pod_requests(spec: Mapping, report: Report, resize=None) -> tuple[dict[str, int], int, int]:
    """(effective requests, non-zero cpu, non-zero memory) in scheduler units. `resize`
    (`resize_status`) makes containers count as NodeInfo counts them during a resize."""
    regular = [
        _status_requests(container_requests(c, ("spec", "containers", i), report), c, resize, report)
        for i, c in enumerate(spec["containers"])
    ]
    init_containers = spec.get("initContainers")
    if init_containers:
        # Only sidecars (restartPolicy Always) take their status into account upstream.
        init = [
            (_status_requests(container_requests(c, ("spec", "initContainers", i), report), c,
                              resize if c.get("restartPolicy") == "Always" else None, report),
             c.get("restartPolicy") == "Always")
            for i, c in enumerate(init_containers)
        ]
        total = aggregate_requests(regular, init)
        non_zero = aggregate_requests(
            [_with_non_zero(r) for r in regular], [(_with_non_zero(r), s) for r, s in init]
        )
    else:  # the common case: a plain sum
        total = dict(regular[0]) if len(regular) == 1 else aggregate_requests(regular, [])
        non_zero = {
            CPU: sum(r.get(CPU, NON_ZERO_CPU) for r in regular),
            MEMORY: sum(r.get(MEMORY, NON_ZERO_MEMORY) for r in regular),
        }
    if spec.get("resources"):
        # Pod-level resources (spec.resources) replace the containers' sum where they are set.
        level = container_requests(spec, ("spec",), report)
        for name in _POD_LEVEL_RESOURCES:
            if name in level:
                total[name] = non_zero[name] = level[name]
        for name, a in level.items():
            if name.startswith("hugepages-"):
                total[name] = a
    overhead = spec.get("overhead")
    if overhead:
        extra = quantities(overhead, ("spec", "overhead"), report, validated=True)
        _add(total, extra)
        _add(non_zero, {k: v for k, v in extra.items() if k in (CPU, MEMORY)})
    requests = {name: v for name, v in check_total(in_units(total), ("spec",), report).items() if v}
    return requests, min(unit(CPU, non_zero[CPU]), MAX_INT64), min(unit(MEMORY, non_zero[MEMORY]), MAX_INT64)


def host_ports(spec: Mapping, host_network: bool = False) -> tuple[HostPort, ...]:
    """Ports that claim a host port, from containers and sidecars (NodePorts' view). In a
    hostNetwork pod a port without hostPort claims its containerPort: the apiserver's defaulting
    (`pkg/apis/core/v1/defaults.go` defaultHostNetworkPorts) sets hostPort = containerPort
    before anything else sees the pod."""
    containers = list(spec["containers"])
    containers += [c for c in spec.get("initContainers") or () if c.get("restartPolicy") == "Always"]
    ports = []
    for c in containers:
        for p in c.get("ports") or ():
            port = p.get("hostPort") or (p.get("containerPort") if host_network else None)
            if port:
                ports.append(HostPort(port, p.get("protocol") or "TCP", p.get("hostIP") or "0.0.0.0"))
    return tuple(ports)


# --- pods --------------------------------------------------------------------------------------


class Memo:
    """Decoded parts shared by objects written alike: the pods of one Job or StatefulSet repeat
    the same containers, tolerations and affinity. Each distinct part is decoded once and the
    (immutable) result shared, which saves time and memory alike. Keys are the parts' JSON
    text; a part that cannot be serialised (non-string keys from YAML) is simply not shared."""

    def __init__(self) -> None:
        self._parts: dict[tuple[str, bytes], Any] = {}

    def get(self, kind: str, raw: Any, build: Callable[[Any], Any]) -> Any:
        if not raw:
            return build(raw)
        try:
            key = (kind, orjson.dumps(raw))
        except TypeError:
            return build(raw)
        part = self._parts.get(key, _MISSING)
        if part is _MISSING:
            part = self._parts[key] = build(raw)
        return part


_MISSING = object()


def _containers_part(spec_parts: tuple, resize=None) -> tuple:
    """What a pod's containers decide: (requests, non-zero cpu, non-zero memory, host ports,
    images, problems). Problems are kept so that every pod sharing the part reports them."""
    containers, init_containers, overhead, resources = spec_parts
    spec = {"containers": containers, "initContainers": init_containers,
            "overhead": overhead, "resources": resources}
    problems: list[tuple[tuple, str]] = []
    requests, cpu, memory = pod_requests(spec, lambda path, message: problems.append((path, message)), resize)
    images = [c.get("image") for c in init_containers or ()] + [c.get("image") for c in containers]
    return (requests, cpu, memory, host_ports(spec),
            tuple(normalized_image(i) for i in images if i), tuple(problems))


def _tolerations(raw: list | None) -> tuple[Toleration, ...]:
    return tuple(toleration(t) for t in raw or ())


def _spread_constraints(raw: list | None) -> tuple[TopologySpreadConstraint, ...]:
    return tuple(spread_constraint(c) for c in raw or ())


def _slot_constructor(cls: type) -> Callable[..., Any]:
    """`cls(...)` for a frozen slots dataclass, every field passed, without the generated
    `__init__`: that calls `object.__setattr__` per field (the frozen guard's way round), which
    was about 40 % of building a Pod of 28 fields, once per pod of a 150,000-pod dump. Each
    slot is set through its own descriptor instead; the object is the same (equal, same hash,
    still frozen). Only for a class whose `__init__` does nothing else: no `__post_init__`, and
    no defaults to fill, since the function has none (a field added to Pod and not passed is a
    TypeError, not a silent default)."""
    fields = dataclasses.fields(cls)
    if hasattr(cls, "__post_init__") or not all(f.init for f in fields):
        raise TypeError(f"{cls.__name__} needs its own __init__")
    names = [f.name for f in fields]
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    namespace.update((f"_set_{n}", getattr(cls, n).__set__) for n in names)
    source = (f"def build(*, {', '.join(names)}):\n    self = _new(_cls)\n"
              + "".join(f"    _set_{n}(self, {n})\n" for n in names) + "    return self\n")
    exec(source, namespace)  # noqa: S102 - our own generated code
    return namespace["build"]


_new_pod = _slot_constructor(Pod)


def decode_pod(doc: Document, priorities: PriorityTable, report: Report, memo: Memo | None = None) -> Pod:
    memo = memo or Memo()
    obj = doc.obj
    meta, spec = obj["metadata"], obj["spec"]
    get = spec.get
    status = obj.get("status") or {}
    containers = (spec["containers"], get("initContainers"), get("overhead"), get("resources"))
    resize = resize_status(status)
    if resize is None:
        requests, non_zero_cpu, non_zero_memory, ports, images, problems = memo.get(
            "containers", containers, _containers_part)
    else:  # a pod mid-resize: its own requests, not shared with its siblings'
        requests, non_zero_cpu, non_zero_memory, ports, images, problems = _containers_part(containers, resize)
    for path, message in problems:
        report(path, message)
    if get("hostNetwork"):
        ports = host_ports({"containers": spec["containers"], "initContainers": get("initContainers")}, True)
    priority, preemption_policy = priorities.pod(spec)
    # Most pods have no affinity, spread constraints, gates or owners: their empty values
    # directly, without a memo lookup or a generator (what those would give for None or []).
    raw_affinity, raw_tolerations, raw_spread = get("affinity"), get("tolerations"), get("topologySpreadConstraints")
    gates, owners = get("schedulingGates"), meta.get("ownerReferences")
    return _new_pod(
        namespace=meta.get("namespace") or DEFAULT_NAMESPACE,
        name=meta["name"],
        labels=meta.get("labels") or {},  # the parsed dict itself: nobody mutates model mappings
        node_name=get("nodeName") or None,
        scheduler_name=get("schedulerName") or DEFAULT_SCHEDULER_NAME,
        priority=priority,
        preemption_policy=preemption_policy,
        requests=requests,
        non_zero_cpu=non_zero_cpu,
        non_zero_memory=non_zero_memory,
        host_ports=ports,
        node_selector=get("nodeSelector") or {},
        affinity=memo.get("affinity", raw_affinity, affinity) if raw_affinity else None,
        tolerations=memo.get("tolerations", raw_tolerations, _tolerations) if raw_tolerations else (),
        topology_spread_constraints=memo.get("spread", raw_spread, _spread_constraints) if raw_spread else (),
        images=images,
        pod_group=pod_group_link(spec),
        creation_timestamp=timestamp(meta.get("creationTimestamp"), ("metadata", "creationTimestamp"), report),
        start_time=timestamp(status.get("startTime"), ("status", "startTime"), report),
        phase=status.get("phase") or "Pending",
        nominated_node_name=status.get("nominatedNodeName") or None,
        deletion_timestamp=timestamp(meta.get("deletionTimestamp"), ("metadata", "deletionTimestamp"), report),
        scheduling_gates=tuple(g["name"] for g in gates) if gates else (),
        owner_references=tuple(
            OwnerReference(r["kind"], r["name"], bool(r.get("controller"))) for r in owners
        ) if owners else (),
        uid=meta.get("uid") or "",
        source=Source(doc.file, doc.document, doc.line),
        preempted_by_scheduler=_preempted_by_scheduler(status),
    )


def _preempted_by_scheduler(status: Mapping) -> bool:
    """The first DisruptionTarget condition says the scheduler preempted the pod (upstream
    PodTerminatingByPreemption reads that one condition)."""
    for condition in status.get("conditions") or ():
        # `_is_mapping` inline: a running pod has about five conditions
        if (type(condition) is dict or isinstance(condition, Mapping)) and condition.get("type") == "DisruptionTarget":
            return condition.get("status") == "True" and condition.get("reason") == "PreemptionByScheduler"
    return False


def pod_group_link(spec: Mapping) -> str | None:
    """The PodGroup a pod names: 1.36+ `schedulingGroup.podGroupName`, or for 1.35
    (`workloadRef`) the implied group `WORKLOAD/PODGROUP[/REPLICAKEY]`.
    (A pod setting both is reported by validate.py; schedulingGroup wins here.)"""
    group = spec.get("schedulingGroup")
    if group:
        return group["podGroupName"]
    ref = spec.get("workloadRef")
    if ref:
        key = ref.get("podGroupReplicaKey")
        return f"{ref['name']}/{ref['podGroup']}" + (f"/{key}" if key else "")
    return None
