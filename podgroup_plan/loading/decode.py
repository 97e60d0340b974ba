"""Schema-checked documents -> the planner's model: one shape whatever the API version.

What the apiserver and kube-scheduler derive from an object is derived here, once:
* defaulting: namespace `default`, container requests from limits, `pods: 110` on nodes,
  toleration/spread/port defaults;
* quantities in the scheduler's integer units (`podgroup_plan.model.quantity`);
* the effective pod request as `k8s.io/component-helpers/resource` `PodRequests` computes it
  (sidecars included) and the non-zero cpu/memory that `NodeResourcesFit` scores with;
* priorities as the `Priority` admission plugin resolves them;
* pod-group links per API version (`spec/planner.md`, "Groups, by API version"), including the
  PodGroups that `scheduling.k8s.io/v1alpha1` only implies.

Problems found while decoding (bad quantities, timestamps, percentages) are collected as Issues
with their JSON path; cross-object rules live in `validate.py`.
"""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from fractions import Fraction
from typing import Any, Callable, Mapping

import orjson

from podgroup_plan.loading.files import Document, Issue
from podgroup_plan.model.objects import (
    BASIC,
    CPU,
    DEFAULT_SCHEDULER_NAME,
    DISRUPTION_ALL,
    DISRUPTION_SINGLE,
    GANG,
    MEMORY,
    PODS,
    PREEMPT_LOWER_PRIORITY,
    Affinity,
    ClusterInput,
    CompositePodGroup,
    CompositePodGroupTemplate,
    Condition,
    HostPort,
    ImageState,
    Node,
    OwnerReference,
    Pod,
    PodAffinityTerm,
    PodDisruptionBudget,
    PodGroup,
    PodGroupTemplate,
    PreferredSchedulingTerm,
    PriorityClass,
    Source,
    SpreadSelector,
    Taint,
    Toleration,
    TopologySpreadConstraint,
    WeightedPodAffinityTerm,
    Workload,
)
from podgroup_plan.model.quantity import parse_quantity
from podgroup_plan.model.selectors import (
    LabelSelector,
    LabelSelectorRequirement,
    NodeSelector,
    NodeSelectorRequirement,
    NodeSelectorTerm,
)

V1ALPHA1 = "scheduling.k8s.io/v1alpha1"
V1ALPHA2 = "scheduling.k8s.io/v1alpha2"

DEFAULT_NAMESPACE = "default"
DEFAULT_NODE_PODS = 110  # kubelet's default --max-pods, when a node does not say
NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name"  # set on every namespace by the apiserver

# kube-scheduler's defaults for containers that request no cpu / memory (scoring only):
# `pkg/scheduler/util` DefaultMilliCPURequest = 100m, DefaultMemoryRequest = 200Mi.
# In nano-units, as decode sums amounts (see `amount`).
NON_ZERO_CPU = 100 * 10**6
NON_ZERO_MEMORY = 200 * 1024 * 1024 * 10**9

# PriorityClasses every cluster has (`pkg/apis/scheduling` SystemPriorityClasses); pods in
# kube-system name them without the input having to list them.
SYSTEM_PRIORITY_CLASSES = {
    "system-node-critical": PriorityClass("system-node-critical", 2000001000),
    "system-cluster-critical": PriorityClass("system-cluster-critical", 2000000000),
}

# Resources a pod may request at pod level (`resource.IsSupportedPodLevelResource`).
_POD_LEVEL_RESOURCES = (CPU, MEMORY)

Report = Callable[[tuple, str], None]


@dataclass
class Decoded:
    """Every decoded object beside the document it came from (validate.py reports there)."""

    nodes: list[tuple[Document, Node]] = field(default_factory=list)
    pods: list[tuple[Document, Pod]] = field(default_factory=list)
    finished_pods: list[tuple[Document, Pod]] = field(default_factory=list)  # Succeeded/Failed
    priority_classes: list[tuple[Document, PriorityClass]] = field(default_factory=list)
    pdbs: list[tuple[Document, PodDisruptionBudget]] = field(default_factory=list)
    workloads: list[tuple[Document, Workload]] = field(default_factory=list)
    pod_groups: list[tuple[Document, PodGroup]] = field(default_factory=list)
    implied_groups: list[PodGroup] = field(default_factory=list)
    composite_pod_groups: list[tuple[Document, CompositePodGroup]] = field(default_factory=list)
    spread_selectors: list[tuple[Document, SpreadSelector]] = field(default_factory=list)
    namespaces: list[tuple[Document, str, dict[str, str]]] = field(default_factory=list)
    scheduler_configs: list[Document] = field(default_factory=list)
    pod_class_names: list[tuple[Document, str]] = field(default_factory=list)  # for validation

    def cluster_input(self, ignored_kinds: Mapping[str, int]) -> ClusterInput:
        """The ClusterInput, every list sorted by (namespace, name) or name."""
        namespaces: dict[str, dict[str, str]] = {}
        # Every namespace an object lives in exists on a live cluster and carries its name label.
        for objs in (self.pods, self.pdbs, self.workloads, self.pod_groups,
                     self.composite_pod_groups, self.spread_selectors):
            for _, obj in objs:
                namespaces.setdefault(obj.namespace, {NAMESPACE_NAME_LABEL: obj.namespace})
        for _, name, labels in self.namespaces:
            namespaces[name] = {**labels, NAMESPACE_NAME_LABEL: name}
        scheduler_config = self.scheduler_configs[0].obj if self.scheduler_configs else None

        def by_key(pairs: list) -> tuple:
            return tuple(sorted((o for _, o in pairs), key=lambda o: (o.namespace, o.name)))

        return ClusterInput(
            nodes=tuple(sorted((n for _, n in self.nodes), key=lambda n: n.name)),
            pods=by_key(self.pods),
            priority_classes=tuple(sorted((c for _, c in self.priority_classes), key=lambda c: c.name)),
            pod_disruption_budgets=by_key(self.pdbs),
            workloads=by_key(self.workloads),
            pod_groups=tuple(sorted(
                [g for _, g in self.pod_groups] + self.implied_groups,
                key=lambda g: (g.namespace, g.name),
            )),
            composite_pod_groups=by_key(self.composite_pod_groups),
            spread_selectors=tuple(sorted(
                (s for _, s in self.spread_selectors), key=lambda s: (s.namespace, s.name, s.kind)
            )),
            namespaces={k: namespaces[k] for k in sorted(namespaces)},
            scheduler_config=scheduler_config,
            ignored_kinds={k: ignored_kinds[k] for k in sorted(ignored_kinds)},
        )


class Decoder:
    """Decodes documents as they are read (`add`), then what depends on the whole input
    (`finish`).

    Pods and Nodes, the bulk of a cluster dump, are decoded on arrival and their documents
    slimmed to what a problem report needs, so that a 150,000-pod dump never holds all its raw
    objects at once. A pod's priority may come from a PriorityClass read later: it is settled
    in `finish` (a kubectl dump carries spec.priority, so this is rare). The other kinds are few;
    they are kept whole and decoded in `finish`, in the order their dependencies need.
    """

    def __init__(self, issues: list[Issue]):
        self.issues = issues
        self.out = Decoded()
        self._kept: dict[str, list[Document]] = defaultdict(list)
        self._memo = Memo()
        self._no_classes = PriorityTable([])  # until every PriorityClass is read
        # (list, index, spec) of pods whose priority may depend on a PriorityClass
        self._unsettled: list[tuple[list, int, dict]] = []
        self._implied: dict[tuple[str, str], tuple[str, str, str]] = {}

    def add(self, doc: Document) -> None:
        """Decode (or keep) one schema-checked document."""
        if doc.kind == "Pod":
            self._pod(doc)
        elif doc.kind == "Node":
            self.out.nodes.append((doc, decode_node(doc, _reporter(doc, self.issues))))
            slim(doc)
        else:
            self._kept[doc.kind].append(doc)

    def _pod(self, doc: Document) -> None:
        spec = doc.obj["spec"]
        pod = decode_pod(doc, self._no_classes, _reporter(doc, self.issues), self._memo)
        # kube-scheduler's informer never sees finished pods; nor does the plan.
        target = self.out.finished_pods if pod.phase in ("Succeeded", "Failed") else self.out.pods
        class_name = spec.get("priorityClassName")
        if class_name:
            self.out.pod_class_names.append((doc, class_name))
        if spec.get("priority") is None or spec.get("preemptionPolicy") is None:
            fields = ("priorityClassName", "priority", "preemptionPolicy")
            self._unsettled.append((target, len(target), {k: spec.get(k) for k in fields}))
        target.append((doc, pod))
        ref = spec.get("workloadRef") if not spec.get("schedulingGroup") else None
        if ref and target is self.out.pods and (pod.namespace, pod.pod_group) not in self._implied:
            self._implied[(pod.namespace, pod.pod_group)] = (
                ref["name"], ref["podGroup"], ref.get("podGroupReplicaKey") or ""
            )
        slim(doc)

    def finish(self) -> Decoded:
        out, kept = self.out, self._kept
        for doc in kept["PriorityClass"]:
            out.priority_classes.append((doc, decode_priority_class(doc)))
        priorities = PriorityTable([c for _, c in out.priority_classes])
        for target, i, spec in self._unsettled:
            doc, pod = target[i]
            priority, policy = priorities.pod(spec)
            if (priority, policy) != (pod.priority, pod.preemption_policy):
                target[i] = (doc, replace(pod, priority=priority, preemption_policy=policy))

        for doc in kept["PodDisruptionBudget"]:
            out.pdbs.append((doc, decode_pdb(doc, _reporter(doc, self.issues))))
        for doc in kept["Namespace"]:
            out.namespaces.append((doc, doc.obj["metadata"]["name"], dict(_labels(doc.obj["metadata"]))))
        for kind in ("Service", "ReplicationController", "ReplicaSet", "StatefulSet"):
            for doc in kept[kind]:
                selector = decode_spread_selector(doc)
                if selector is not None:
                    out.spread_selectors.append((doc, selector))
        out.scheduler_configs.extend(kept["KubeSchedulerConfiguration"])
        for doc in kept["Workload"]:
            out.workloads.append((doc, decode_workload(doc)))
        for doc in kept["PodGroup"]:
            out.pod_groups.append((doc, decode_pod_group(doc, priorities, _reporter(doc, self.issues))))
        for doc in kept["CompositePodGroup"]:
            cpg = decode_composite_pod_group(doc, priorities, _reporter(doc, self.issues))
            out.composite_pod_groups.append((doc, cpg))
        out.implied_groups = implied_pod_groups(self._implied, out.workloads, priorities)
        return out


def slim(doc: Document) -> None:
    """Drop a decoded document's raw object but what names it in a problem report."""
    meta = doc.metadata
    doc.obj = {
        "apiVersion": doc.api_version,
        "kind": doc.kind,
        "metadata": {"name": meta.get("name"), "namespace": meta.get("namespace")},
    }


def _reporter(doc: Document, issues: list[Issue]) -> Report:
    return lambda path, message: issues.append(Issue(doc, path, message))


# --- metadata ----------------------------------------------------------------------------------


def _labels(meta: Mapping) -> Mapping[str, str]:
    return meta.get("labels") or {}


def _namespace(meta: Mapping) -> str:
    return meta.get("namespace") or DEFAULT_NAMESPACE


def _source(doc: Document) -> Source:
    return Source(doc.file, doc.document, doc.line)


_TIMESTAMPS: dict[str, str] = {}  # many objects share a timestamp: parse each text once
_CANONICAL_TIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")


def timestamp(value: str | None, path: tuple, report: Report) -> str | None:
    """An RFC 3339 time as `YYYY-MM-DDTHH:MM:SSZ` in UTC, so that text order is time order.

    metav1.Time has second precision; fractions are dropped as the apiserver drops them.
    """
    if not value:
        return None
    if _CANONICAL_TIME.fullmatch(value):  # what the apiserver writes: already UTC seconds
        return value
    known = _TIMESTAMPS.get(value)
    if known is not None:
        return known
    try:
        if "T" not in value.upper():
            raise ValueError(value)
        parsed = datetime.fromisoformat(value)
        if parsed.tzinfo is None:
            raise ValueError(value)
    except ValueError:
        report(path, f'invalid timestamp "{value}"; expected RFC 3339, e.g. 2025-01-01T00:00:00Z')
        return None
    text = parsed.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    if len(_TIMESTAMPS) < 10_000:
        _TIMESTAMPS[value] = text
    return text


# --- quantities and requests -------------------------------------------------------------------


# Amounts are kept in nano-units while they are summed: exact integers for every suffix down to
# `n` (Fraction only for rarer, finer amounts such as 1e-12), and integer arithmetic is many times
# faster than Fraction's. Rounding to scheduler units happens once, on the pod's total.
NANO = 10**9
_AMOUNTS: dict = {}  # quantity as written -> nano amount; the same few texts recur in every pod


def amount(raw: str | int | float) -> int | Fraction:
    """A quantity in nano-units (exact). Raises ValueError as `parse_quantity` does."""
    if raw.__class__ is not bool:  # True == 1 as a dict key; never a quantity
        known = _AMOUNTS.get(raw)
        if known is not None:
            return known
    q = parse_quantity(raw) * NANO
    value = q.numerator if q.denominator == 1 else q
    if len(_AMOUNTS) < 100_000:
        _AMOUNTS[raw] = value
    return value


def in_units(values: Mapping[str, int | Fraction]) -> dict[str, int]:
    """Nano amounts -> scheduler units (millicores for cpu, whole units else), rounded up as
    `Quantity.MilliValue()` / `Value()` round."""
    return {name: unit(name, a) for name, a in values.items()}


def unit(name: str, a: int | Fraction) -> int:
    return -(-a // 1_000_000) if name == CPU else -(-a // NANO)


def quantities(values: Mapping | None, path: tuple, report: Report) -> dict[str, int | Fraction]:
    """A ResourceList in nano-units; invalid or negative amounts are reported and dropped."""
    out: dict[str, int | Fraction] = {}
    if not values:
        return out
    for name, raw in values.items():
        try:
            a = amount(raw)
        except ValueError as e:
            report(path + (name,), str(e))
            continue
        if a < 0:
            report(path + (name,), f"must be greater than or equal to 0, got {raw}")
            continue
        out[name] = a
    return out


def container_requests(container: Mapping, path: tuple, report: Report) -> dict[str, int | Fraction]:
    """A container's requests after apiserver defaulting: a resource with a limit but no
    request requests its limit. A request above its limit is reported, as validation does."""
    resources = container.get("resources") or {}
    requests = quantities(resources.get("requests"), path + ("resources", "requests"), report)
    limits = resources.get("limits")
    if limits:
        limit_q = quantities(limits, path + ("resources", "limits"), report)
        for name, limit in limit_q.items():
            request = requests.get(name)
            if request is None:
                requests[name] = limit
            elif request > limit:
                report(
                    path + ("resources", "requests", name),
                    f"must be less than or equal to {name} limit of {limits[name]}",
                )
    return requests


def _add(into: dict, values: Mapping) -> None:
    for name, q in values.items():
        into[name] = into.get(name, 0) + q


def _max(into: dict, values: Mapping) -> None:
    for name, q in values.items():
        if q > into.get(name, 0):
            into[name] = q


def aggregate_requests(
    regular: list[Mapping[str, int | Fraction]], init: list[tuple[Mapping[str, int | Fraction], bool]]
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


def pod_requests(spec: Mapping, report: Report) -> tuple[dict[str, int], int, int]:
    """(effective requests, non-zero cpu, non-zero memory) in scheduler units."""
    regular = [
        container_requests(c, ("spec", "containers", i), report)
        for i, c in enumerate(spec["containers"])
    ]
    init_containers = spec.get("initContainers")
    if init_containers:
        init = [
            (container_requests(c, ("spec", "initContainers", i), report),
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
        extra = quantities(overhead, ("spec", "overhead"), report)
        _add(total, extra)
        _add(non_zero, {k: v for k, v in extra.items() if k in (CPU, MEMORY)})
    requests = {name: v for name, v in in_units(total).items() if v}
    return requests, unit(CPU, non_zero[CPU]), unit(MEMORY, non_zero[MEMORY])


# --- selectors, affinity, tolerations ----------------------------------------------------------


def label_selector(raw: Mapping | None) -> LabelSelector | None:
    """metav1.LabelSelector; None when absent (callers decide what nil means)."""
    if raw is None:
        return None
    labels = raw.get("matchLabels") or {}
    return LabelSelector(
        tuple(sorted(labels.items())),
        tuple(
            LabelSelectorRequirement(e["key"], e["operator"], tuple(e.get("values") or ()))
            for e in raw.get("matchExpressions") or ()
        ),
    )


def node_selector_term(raw: Mapping | None) -> NodeSelectorTerm:
    raw = raw or {}
    return NodeSelectorTerm(
        tuple(
            NodeSelectorRequirement(e["key"], e["operator"], tuple(e.get("values") or ()))
            for e in raw.get("matchExpressions") or ()
        ),
        tuple(
            NodeSelectorRequirement(e["key"], e["operator"], tuple(e.get("values") or ()))
            for e in raw.get("matchFields") or ()
        ),
    )


def pod_affinity_term(raw: Mapping) -> PodAffinityTerm:
    return PodAffinityTerm(
        label_selector=label_selector(raw.get("labelSelector")),
        topology_key=raw["topologyKey"],
        namespaces=tuple(raw.get("namespaces") or ()),
        namespace_selector=label_selector(raw.get("namespaceSelector")),
        match_label_keys=tuple(raw.get("matchLabelKeys") or ()),
        mismatch_label_keys=tuple(raw.get("mismatchLabelKeys") or ()),
    )


def _weighted_terms(raw: list | None) -> tuple[WeightedPodAffinityTerm, ...]:
    return tuple(
        WeightedPodAffinityTerm(t["weight"], pod_affinity_term(t["podAffinityTerm"]))
        for t in raw or ()
    )


def affinity(raw: Mapping | None) -> Affinity | None:
    if not raw:
        return None
    node = raw.get("nodeAffinity") or {}
    pod = raw.get("podAffinity") or {}
    anti = raw.get("podAntiAffinity") or {}
    required = node.get("requiredDuringSchedulingIgnoredDuringExecution")
    result = Affinity(
        node_required=(
            NodeSelector(tuple(node_selector_term(t) for t in required["nodeSelectorTerms"]))
            if required is not None
            else None
        ),
        node_preferred=tuple(
            PreferredSchedulingTerm(t["weight"], node_selector_term(t["preference"]))
            for t in node.get("preferredDuringSchedulingIgnoredDuringExecution") or ()
        ),
        pod_affinity_required=tuple(
            pod_affinity_term(t) for t in pod.get("requiredDuringSchedulingIgnoredDuringExecution") or ()
        ),
        pod_affinity_preferred=_weighted_terms(pod.get("preferredDuringSchedulingIgnoredDuringExecution")),
        pod_anti_affinity_required=tuple(
            pod_affinity_term(t) for t in anti.get("requiredDuringSchedulingIgnoredDuringExecution") or ()
        ),
        pod_anti_affinity_preferred=_weighted_terms(anti.get("preferredDuringSchedulingIgnoredDuringExecution")),
    )
    return None if result == Affinity() else result


def toleration(raw: Mapping) -> Toleration:
    return Toleration(
        key=raw.get("key") or "",
        operator=raw.get("operator") or "Equal",
        value=raw.get("value") or "",
        effect=raw.get("effect") or "",
    )


def spread_constraint(raw: Mapping) -> TopologySpreadConstraint:
    return TopologySpreadConstraint(
        max_skew=raw["maxSkew"],
        topology_key=raw["topologyKey"],
        when_unsatisfiable=raw["whenUnsatisfiable"],
        label_selector=label_selector(raw.get("labelSelector")),
        min_domains=raw.get("minDomains"),
        node_affinity_policy=raw.get("nodeAffinityPolicy") or "Honor",
        node_taints_policy=raw.get("nodeTaintsPolicy") or "Ignore",
        match_label_keys=tuple(raw.get("matchLabelKeys") or ()),
    )


def normalized_image(name: str) -> str:
    """ImageLocality's `normalizedImageName`: an image without a tag or digest is `:latest`."""
    if name.rfind(":") <= name.rfind("/"):
        return name + ":latest"
    return name


def host_ports(spec: Mapping) -> tuple[HostPort, ...]:
    """Ports that claim a host port, from containers and sidecars (NodePorts' view)."""
    containers = list(spec["containers"])
    containers += [c for c in spec.get("initContainers") or () if c.get("restartPolicy") == "Always"]
    ports = []
    for c in containers:
        for p in c.get("ports") or ():
            if p.get("hostPort"):
                ports.append(HostPort(p["hostPort"], p.get("protocol") or "TCP", p.get("hostIP") or "0.0.0.0"))
    return tuple(ports)


# --- priorities --------------------------------------------------------------------------------


class PriorityTable:
    """PriorityClasses by name, as the `Priority` admission plugin resolves them."""

    def __init__(self, classes: list[PriorityClass]):
        self.by_name: dict[str, PriorityClass] = dict(SYSTEM_PRIORITY_CLASSES)
        self.by_name.update((c.name, c) for c in classes)
        defaults = sorted((c for c in classes if c.global_default), key=lambda c: c.name)
        self.global_default = defaults[0] if defaults else None

    def pod(self, spec: Mapping) -> tuple[int, str]:
        """(priority, preemptionPolicy): spec.priority, else the named class, else the global
        default class, else 0; the policy likewise, default PreemptLowerPriority."""
        name = spec.get("priorityClassName")
        cls = self.by_name.get(name) if name else self.global_default
        priority = spec.get("priority")
        if priority is None:
            priority = cls.value if cls else 0
        policy = spec.get("preemptionPolicy") or (cls.preemption_policy if cls else PREEMPT_LOWER_PRIORITY)
        return priority, policy

    def group(self, priority: int | None, class_name: str | None, policy: str | None) -> tuple[int | None, str]:
        """A (Composite)PodGroup's (priority, preemptionPolicy): its own, else its class's.
        No priority at all stays None: the group's pods must then agree instead."""
        cls = self.by_name.get(class_name) if class_name else None
        if priority is None and cls is not None:
            priority = cls.value
        return priority, policy or (cls.preemption_policy if cls else PREEMPT_LOWER_PRIORITY)


def decode_priority_class(doc: Document) -> PriorityClass:
    obj = doc.obj
    return PriorityClass(
        name=obj["metadata"]["name"],
        value=obj["value"],
        global_default=bool(obj.get("globalDefault")),
        preemption_policy=obj.get("preemptionPolicy") or PREEMPT_LOWER_PRIORITY,
        source=_source(doc),
    )


# --- kinds -------------------------------------------------------------------------------------


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


def _containers_part(spec_parts: tuple) -> tuple:
    """What a pod's containers decide: (requests, non-zero cpu, non-zero memory, host ports,
    images, problems). Problems are kept so that every pod sharing the part reports them."""
    containers, init_containers, overhead, resources = spec_parts
    spec = {"containers": containers, "initContainers": init_containers,
            "overhead": overhead, "resources": resources}
    problems: list[tuple[tuple, str]] = []
    requests, cpu, memory = pod_requests(spec, lambda path, message: problems.append((path, message)))
    images = [c.get("image") for c in init_containers or ()] + [c.get("image") for c in containers]
    return (requests, cpu, memory, host_ports(spec),
            tuple(normalized_image(i) for i in images if i), tuple(problems))


def _tolerations(raw: list | None) -> tuple[Toleration, ...]:
    return tuple(toleration(t) for t in raw or ())


def _spread_constraints(raw: list | None) -> tuple[TopologySpreadConstraint, ...]:
    return tuple(spread_constraint(c) for c in raw or ())


def decode_pod(doc: Document, priorities: PriorityTable, report: Report, memo: Memo | None = None) -> Pod:
    memo = memo or Memo()
    obj = doc.obj
    meta, spec = obj["metadata"], obj["spec"]
    get = spec.get
    status = obj.get("status") or {}
    containers = (spec["containers"], get("initContainers"), get("overhead"), get("resources"))
    requests, non_zero_cpu, non_zero_memory, ports, images, problems = memo.get(
        "containers", containers, _containers_part)
    for path, message in problems:
        report(path, message)
    priority, preemption_policy = priorities.pod(spec)
    return Pod(
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
        affinity=memo.get("affinity", get("affinity"), affinity),
        tolerations=memo.get("tolerations", get("tolerations"), _tolerations),
        topology_spread_constraints=memo.get("spread", get("topologySpreadConstraints"), _spread_constraints),
        images=images,
        pod_group=pod_group_link(spec),
        creation_timestamp=timestamp(meta.get("creationTimestamp"), ("metadata", "creationTimestamp"), report),
        start_time=timestamp(status.get("startTime"), ("status", "startTime"), report),
        phase=status.get("phase") or "Pending",
        nominated_node_name=status.get("nominatedNodeName") or None,
        scheduling_gates=tuple(g["name"] for g in get("schedulingGates") or ()),
        owner_references=tuple(
            OwnerReference(r["kind"], r["name"], bool(r.get("controller")))
            for r in meta.get("ownerReferences") or ()
        ),
        uid=meta.get("uid") or "",
        source=Source(doc.file, doc.document, doc.line),
    )


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


def decode_node(doc: Document, report: Report) -> Node:
    obj = doc.obj
    meta = obj["metadata"]
    spec = obj.get("spec") or {}
    status = obj.get("status") or {}
    if status.get("allocatable"):
        allocatable = in_units(quantities(status["allocatable"], ("status", "allocatable"), report))
    else:
        allocatable = in_units(quantities(status.get("capacity"), ("status", "capacity"), report))
    allocatable.setdefault(PODS, DEFAULT_NODE_PODS)
    return Node(
        name=meta["name"],
        labels=dict(_labels(meta)),
        taints=tuple(
            Taint(t["key"], t.get("value") or "", t["effect"]) for t in spec.get("taints") or ()
        ),
        unschedulable=bool(spec.get("unschedulable")),
        allocatable=allocatable,
        images=tuple(
            ImageState(tuple(normalized_image(n) for n in i.get("names") or ()), i.get("sizeBytes") or 0)
            for i in status.get("images") or ()
        ),
        source=_source(doc),
    )


def int_or_percent(value: int | str | None, path: tuple, report: Report) -> int | str | None:
    """intstr.IntOrString as PDBs use it: an int, or a string "N%" (0 <= N <= 100)."""
    if value is None or isinstance(value, int):
        if isinstance(value, int) and value < 0:
            report(path, f"must be greater than or equal to 0, got {value}")
        return value
    number = value[:-1] if value.endswith("%") else None
    if number is None or not number.isdigit():
        report(path, f'invalid value "{value}": must be an integer or a percentage such as "50%"')
        return None
    if int(number) > 100:
        report(path, f'invalid value "{value}": must not be greater than 100%')
    return value


def decode_pdb(doc: Document, report: Report) -> PodDisruptionBudget:
    obj = doc.obj
    meta = obj["metadata"]
    spec = obj.get("spec") or {}
    status = obj.get("status") or {}
    return PodDisruptionBudget(
        namespace=_namespace(meta),
        name=meta["name"],
        selector=label_selector(spec.get("selector")),
        min_available=int_or_percent(spec.get("minAvailable"), ("spec", "minAvailable"), report),
        max_unavailable=int_or_percent(spec.get("maxUnavailable"), ("spec", "maxUnavailable"), report),
        disruptions_allowed=status.get("disruptionsAllowed"),
        disrupted_pods=tuple(sorted(status.get("disruptedPods") or ())),
        source=_source(doc),
    )


def decode_spread_selector(doc: Document) -> SpreadSelector | None:
    """Services and ReplicationControllers select with a map, ReplicaSets and StatefulSets with
    a LabelSelector. Objects that select nothing are left out, as DefaultSelector skips them."""
    obj, kind = doc.obj, doc.kind
    meta = obj["metadata"]
    spec = obj.get("spec") or {}
    if kind in ("Service", "ReplicationController"):
        labels = spec.get("selector")
        if not labels and kind == "ReplicationController":  # defaulted from the pod template
            labels = ((spec.get("template") or {}).get("metadata") or {}).get("labels")
        if not labels:
            return None
        selector = LabelSelector(tuple(sorted(labels.items())))
    else:
        selector = label_selector(spec["selector"])
    return SpreadSelector(kind, _namespace(meta), meta["name"], selector)


# --- groups ------------------------------------------------------------------------------------


def _policy(raw: Mapping, count_field: str) -> tuple[str, int]:
    gang = raw.get("gang")
    if gang is not None:
        return GANG, gang[count_field]
    return BASIC, 1


def _topology_key(raw: Mapping) -> str | None:
    topology = (raw.get("schedulingConstraints") or {}).get("topology")
    return topology[0]["key"] if topology else None


def _disruption_mode(raw: Mapping) -> str:
    mode = raw.get("disruptionMode")
    if isinstance(mode, str):  # v1alpha2: "Pod" | "PodGroup"
        return DISRUPTION_ALL if mode == "PodGroup" else DISRUPTION_SINGLE
    if mode and "all" in mode:  # v1alpha3/v1beta1: {single: {}} | {all: {}}
        return DISRUPTION_ALL
    return DISRUPTION_SINGLE


def _template_fields(raw: Mapping) -> dict[str, Any]:
    """What pod group and composite templates share, as keyword arguments."""
    return dict(
        name=raw["name"],
        topology_key=_topology_key(raw),
        disruption_mode=_disruption_mode(raw),
        priority_class_name=raw.get("priorityClassName") or None,
        priority=raw.get("priority"),
        preemption_policy=raw.get("preemptionPolicy") or None,
    )


def pod_group_template(raw: Mapping, api_version: str) -> PodGroupTemplate:
    policy, min_count = _policy(raw["policy"] if api_version == V1ALPHA1 else raw["schedulingPolicy"], "minCount")
    return PodGroupTemplate(policy=policy, min_count=min_count, **_template_fields(raw))


def composite_template(raw: Mapping, api_version: str) -> CompositePodGroupTemplate:
    policy, min_group_count = _policy(raw["schedulingPolicy"], "minGroupCount")
    return CompositePodGroupTemplate(
        policy=policy,
        min_group_count=min_group_count,
        pod_group_templates=tuple(
            pod_group_template(t, api_version) for t in raw.get("podGroupTemplates") or ()
        ),
        composite_pod_group_templates=tuple(
            composite_template(t, api_version) for t in raw.get("compositePodGroupTemplates") or ()
        ),
        **_template_fields(raw),
    )


def template_field(api_version: str) -> str:
    """Where a Workload lists its pod group templates: v1alpha1 calls them podGroups."""
    return "podGroups" if api_version == V1ALPHA1 else "podGroupTemplates"


def decode_workload(doc: Document) -> Workload:
    obj, api_version = doc.obj, doc.api_version
    meta, spec = obj["metadata"], obj["spec"]
    return Workload(
        namespace=_namespace(meta),
        name=meta["name"],
        api_version=api_version,
        pod_group_templates=tuple(
            pod_group_template(t, api_version) for t in spec.get(template_field(api_version)) or ()
        ),
        composite_pod_group_templates=tuple(
            composite_template(t, api_version) for t in spec.get("compositePodGroupTemplates") or ()
        ),
        source=_source(doc),
    )


def _conditions(obj: Mapping) -> tuple[Condition, ...]:
    return tuple(
        Condition(c["type"], c["status"], c.get("reason") or "", c.get("message") or "")
        for c in (obj.get("status") or {}).get("conditions") or ()
    )


def workload_reference(spec: Mapping, api_version: str) -> tuple[str | None, str | None]:
    """(workload, template) a group was made from: v1alpha2 `podGroupTemplateRef.workload`,
    later `workloadRef`."""
    if api_version == V1ALPHA2:
        ref = (spec.get("podGroupTemplateRef") or {}).get("workload") or {}
        return ref.get("workloadName"), ref.get("podGroupTemplateName")
    ref = spec.get("workloadRef") or {}
    return ref.get("workloadName"), ref.get("templateName")


def _group_fields(doc: Document, priorities: PriorityTable, report: Report) -> dict[str, Any]:
    """What PodGroups and CompositePodGroups share, as keyword arguments (all but the count)."""
    obj, api_version = doc.obj, doc.api_version
    meta, spec = obj["metadata"], obj["spec"]
    class_name = spec.get("priorityClassName") or None
    priority, preemption_policy = priorities.group(spec.get("priority"), class_name, spec.get("preemptionPolicy"))
    workload, template = workload_reference(spec, api_version)
    return dict(
        namespace=_namespace(meta),
        name=meta["name"],
        api_version=api_version,
        topology_key=_topology_key(spec),
        disruption_mode=_disruption_mode(spec),
        priority_class_name=class_name,
        priority=priority,
        preemption_policy=preemption_policy,
        workload_name=workload,
        template_name=template,
        parent=spec.get("parentCompositePodGroupName") or None,
        creation_timestamp=timestamp(meta.get("creationTimestamp"), ("metadata", "creationTimestamp"), report),
        conditions=_conditions(obj),
        source=_source(doc),
    )


def decode_pod_group(doc: Document, priorities: PriorityTable, report: Report) -> PodGroup:
    policy, min_count = _policy(doc.obj["spec"]["schedulingPolicy"], "minCount")
    return PodGroup(policy=policy, min_count=min_count, **_group_fields(doc, priorities, report))


def decode_composite_pod_group(doc: Document, priorities: PriorityTable, report: Report) -> CompositePodGroup:
    policy, count = _policy(doc.obj["spec"]["schedulingPolicy"], "minGroupCount")
    return CompositePodGroup(policy=policy, min_group_count=count, **_group_fields(doc, priorities, report))


def implied_pod_groups(
    refs: Mapping[tuple[str, str], tuple[str, str, str]],
    workloads: list[tuple[Document, Workload]],
    priorities: PriorityTable,
) -> list[PodGroup]:
    """The PodGroups that v1alpha1 pods imply: one per distinct (namespace, workload, podGroup,
    replicaKey), with the policy of the Workload's podGroups entry. A pod whose reference does
    not resolve gets no group (it waits, as on a live cluster)."""
    by_name = {(w.namespace, w.name): w for _, w in workloads}
    groups = []
    for (namespace, group_name), (workload_name, template_name, _key) in sorted(refs.items()):
        workload = by_name.get((namespace, workload_name))
        template = next(
            (t for t in workload.pod_group_templates if t.name == template_name), None
        ) if workload else None
        if template is None:
            continue
        priority, preemption_policy = priorities.group(
            template.priority, template.priority_class_name, template.preemption_policy
        )
        groups.append(
            PodGroup(
                namespace=namespace,
                name=group_name,
                api_version=V1ALPHA1,
                policy=template.policy,
                min_count=template.min_count,
                topology_key=template.topology_key,
                disruption_mode=template.disruption_mode,
                priority_class_name=template.priority_class_name,
                priority=priority,
                preemption_policy=preemption_policy,
                workload_name=workload_name,
                template_name=template_name,
                implied=True,
                source=workload.source,
            )
        )
    return groups
