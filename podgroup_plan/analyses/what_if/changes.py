"""What-if changes applied to the input before it is planned: cordon, drain, fail, add a node.

* **cordon** marks the nodes unschedulable (`kubectl cordon`): nothing moves.
* **drain** cordons them and evicts their pods as `kubectl drain --ignore-daemonsets` does
  (staging/src/k8s.io/kubectl/pkg/drain): DaemonSet pods and mirror pods stay; every other pod
  goes through the Eviction API, which refuses an eviction that would take a
  PodDisruptionBudget below zero (pkg/registry/core/pod/storage/eviction.go: `Cannot evict pod
  as it would violate the pod's disruption budget.`). A refused pod stays where it runs and is
  reported. Evictions are made in (namespace, name) order, each one counted against the budgets
  of the pods after it.
* **fail** removes the nodes and every pod on them (an involuntary disruption: no budget is
  asked).
* **add-node** adds Node objects (read from manifests by the caller).

A pod that leaves its node comes back as its controller would bring it back: a pod whose
controlling owner is in the input as a Job, ReplicaSet or StatefulSet is simply gone, and the
planner's controller expansion creates the pod its owner now lacks (podgroup_plan/controllers,
as a Job or ReplicaSet that partly runs only adds what it lacks); a pod whose controller is
not in the input (a dump of pods only) is recreated here, pending: a StatefulSet's pod keeps
its name, any other gets a new generated name (`<owner>-<five characters>`, drawn from a hash
so runs agree). A pod without a controller (a bare pod) is lost. A recreated pod keeps its
`schedulingGroup`, so the new pod of a running gang joins that gang, as 1.37 places new pods
of a running PodGroup.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC

from podgroup_plan.controllers.names import generate_name, stand_in_uid
from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import Node, OwnerReference, Pod, PodDisruptionBudget

CORDON = "cordon"
DRAIN = "drain"
FAIL = "fail"
ADD_NODE = "add-node"
ACTIONS = (CORDON, DRAIN, FAIL)

# Pods bound to their node by their owner: a DaemonSet's (kubectl drain --ignore-daemonsets
# leaves them, pkg/drain/filters.go daemonSetFilter; a failed node takes them along and their
# controller makes none elsewhere) and mirror pods, owned by their Node (mirrorPodFilter).
NODE_BOUND_OWNERS = frozenset({"DaemonSet", "Node"})
PDB_REFUSAL = "Cannot evict pod as it would violate the pod's disruption budget."


class ChangeError(ValueError):
    """A change names nothing that exists (an unknown node, a label no node carries)."""


@dataclass(frozen=True, slots=True)
class NodeChange:
    """`action` (cordon / drain / fail) on the nodes `target` names: a node name, or
    `LABEL=VALUE` for every node carrying that label value."""

    action: str
    target: str

    def describe(self) -> str:
        return f"--{self.action} {self.target}"


@dataclass(frozen=True, slots=True)
class Displaced:
    """A running pod a change took off its node, and what became of it."""

    pod: Pod
    node: str
    fate: str  # "recreated" (by the planner's controllers or here) | "lost" (a bare pod)
    replacement: str | None = None  # the recreated pod's name, when recreated here


@dataclass(frozen=True, slots=True)
class RefusedEviction:
    pod: Pod
    node: str
    budgets: tuple[str, ...]  # namespace/name of each PDB that refused
    message: str = PDB_REFUSAL


@dataclass(frozen=True)
class Applied:
    """The changed input and an account of the change."""

    cluster: ClusterInput
    nodes: tuple[str, ...]  # every node a change named, sorted
    cordoned: tuple[str, ...]
    drained: tuple[str, ...]
    failed: tuple[str, ...]
    added: tuple[str, ...]
    displaced: tuple[Displaced, ...]
    refused: tuple[RefusedEviction, ...]
    kept: tuple[Pod, ...]  # DaemonSet and mirror pods a drain leaves in place


def select_nodes(nodes: Sequence[Node], target: str) -> list[Node]:
    """The nodes a target names, in name order. `LABEL=VALUE` (split at the first `=`) matches
    the label; anything else is a node name. Raises ChangeError when nothing matches."""
    if "=" in target:
        key, value = target.split("=", 1)
        found = [n for n in nodes if n.labels.get(key) == value]
        if not found:
            raise ChangeError(f"no node has the label {key}={value}")
    else:
        found = [n for n in nodes if n.name == target]
        if not found:
            raise ChangeError(f"no node named {target!r} in the input")
    return sorted(found, key=lambda n: n.name)


def apply_changes(cluster: ClusterInput, changes: Sequence[NodeChange], added: Sequence[Node] = ()) -> Applied:
    """`cluster` with `changes` and `added` nodes applied (the module docstring says how).
    A node named by several changes gets the strongest: fail over drain over cordon."""
    strength = {CORDON: 0, DRAIN: 1, FAIL: 2}
    action_of: dict[str, str] = {}
    for change in changes:
        if change.action not in strength:
            raise ChangeError(f"unknown change {change.action!r}")
        for node in select_nodes(cluster.nodes, change.target):
            old = action_of.get(node.name)
            if old is None or strength[change.action] > strength[old]:
                action_of[node.name] = change.action
    existing = {n.name for n in cluster.nodes}
    for node in added:
        if node.name in existing:
            raise ChangeError(f"--add-node: a node named {node.name!r} is already in the input")
        existing.add(node.name)

    nodes: list[Node] = []
    for node in cluster.nodes:
        action = action_of.get(node.name)
        if action == FAIL:
            continue
        nodes.append(replace(node, unschedulable=True) if action in (CORDON, DRAIN) else node)
    nodes += added

    leaving, refused, kept = _leaving_pods(cluster, action_of)
    by_failed = {n for n, a in action_of.items() if a == FAIL}
    recreated_by_expansion = _expanded_owners(cluster)
    stamp = _after_everything(cluster)
    gone = {p.key for p, _ in leaving}
    displaced: list[Displaced] = []
    new_pods: list[Pod] = []
    for pod, node_name in leaving:
        owner = controller_of(pod)
        if owner is None:
            displaced.append(Displaced(pod, node_name, "lost"))
        elif (pod.namespace, owner.kind, owner.name) in recreated_by_expansion:
            displaced.append(Displaced(pod, node_name, "recreated"))
        else:
            again = _recreate(pod, owner, stamp)
            new_pods.append(again)
            displaced.append(Displaced(pod, node_name, "recreated", again.name))
    gone |= {p.key for p in cluster.pods if p.node_name in by_failed}  # node-bound pods too
    pods = [p for p in cluster.pods if p.key not in gone] + new_pods
    changed = replace(
        cluster,
        nodes=tuple(sorted(nodes, key=lambda n: n.name)),
        pods=tuple(sorted(pods, key=lambda p: (p.namespace, p.name))),
    )
    by_action = {a: tuple(sorted(n for n, x in action_of.items() if x == a)) for a in ACTIONS}
    return Applied(
        cluster=changed,
        nodes=tuple(sorted(action_of)),
        cordoned=by_action[CORDON],
        drained=by_action[DRAIN],
        failed=by_action[FAIL],
        added=tuple(sorted(n.name for n in added)),
        displaced=tuple(displaced),
        refused=tuple(refused),
        kept=tuple(kept),
    )


def controller_of(pod: Pod) -> OwnerReference | None:
    """The pod's controlling ownerReference (`controller: true`), if any."""
    for ref in pod.owner_references:
        if ref.controller:
            return ref
    return None


def _leaving_pods(cluster: ClusterInput, action_of: dict[str, str]
                  ) -> tuple[list[tuple[Pod, str]], list[RefusedEviction], list[Pod]]:
    """The running pods that leave their node, the evictions a budget refused, and the pods a
    drain leaves in place; all in (namespace, name) order."""
    on_changed = sorted(
        (p for p in cluster.pods
         if p.node_name is not None and action_of.get(p.node_name) in (DRAIN, FAIL)
         and p.phase not in ("Succeeded", "Failed")),
        key=lambda p: (p.namespace, p.name))
    budgets = _Budgets(cluster.pod_disruption_budgets, cluster.pods)
    leaving: list[tuple[Pod, str]] = []
    refused: list[RefusedEviction] = []
    kept: list[Pod] = []
    for pod in on_changed:
        node = pod.node_name
        assert node is not None
        owner = controller_of(pod)
        node_bound = owner is not None and owner.kind in NODE_BOUND_OWNERS
        if action_of[node] == FAIL:
            if not node_bound:
                leaving.append((pod, node))
            continue
        if node_bound:
            kept.append(pod)
            continue
        blocking = budgets.evict(pod)
        if blocking:
            refused.append(RefusedEviction(pod, node, blocking))
        else:
            leaving.append((pod, node))
    return leaving, refused, kept


class _Budgets:
    """PodDisruptionBudgets as the Eviction API reads them: `status.disruptionsAllowed` (or, for
    a budget the input gives no status, what the disruption controller would compute from
    minAvailable / maxUnavailable over the running pods it selects), less one per eviction
    granted so far."""

    def __init__(self, pdbs: Iterable[PodDisruptionBudget], pods: Sequence[Pod]):
        self.pdbs = sorted(pdbs, key=lambda b: (b.namespace, b.name))
        running = [p for p in pods if p.node_name is not None and p.phase not in ("Succeeded", "Failed")]
        self.allowed = [self._initial(b, running) for b in self.pdbs]

    @staticmethod
    def _selects(pdb: PodDisruptionBudget, pod: Pod) -> bool:
        return pdb.namespace == pod.namespace and pdb.selector is not None and pdb.selector.matches(pod.labels)

    def _initial(self, pdb: PodDisruptionBudget, running: Sequence[Pod]) -> int:
        if pdb.disruptions_allowed is not None:
            return pdb.disruptions_allowed
        healthy = sum(1 for p in running if self._selects(pdb, p))
        if pdb.max_unavailable is not None:
            desired = healthy - _scaled(pdb.max_unavailable, healthy)
        elif pdb.min_available is not None:
            desired = _scaled(pdb.min_available, healthy)
        else:
            desired = 0
        return max(0, healthy - desired)

    def evict(self, pod: Pod) -> tuple[str, ...]:
        """Grant the eviction (spending one disruption of every budget that selects the pod) and
        return (); or refuse it and return the budgets with none left."""
        matching = [i for i, b in enumerate(self.pdbs) if self._selects(b, pod)]
        blocking = tuple(f"{self.pdbs[i].namespace}/{self.pdbs[i].name}" for i in matching if self.allowed[i] <= 0)
        if not blocking:
            for i in matching:
                self.allowed[i] -= 1
        return blocking


def _scaled(value: int | str, total: int) -> int:
    """intstr.GetScaledValueFromIntOrPercent, rounding up, as the disruption controller does."""
    if isinstance(value, int):
        return value
    return -(-int(value[:-1]) * total // 100)


# Owners whose objects make pods (a Pod or PodGroup is no controller of pods)
_NOT_CONTROLLERS = frozenset({"Pod", "PodGroup", "CompositePodGroup", "Workload", "DaemonSet"})


def _expanded_owners(cluster: ClusterInput) -> set[tuple[str, str, str]]:
    """(namespace, kind, name) of the controllers whose expansion recreates a pod they lack:
    every controller object of the input (a Job, ReplicaSet, StatefulSet, an operator's object)
    and every one expansion makes (a JobSet's or CronJob's Jobs, a Deployment's ReplicaSet, a
    LeaderWorkerSet's StatefulSets, a RayJob's RayCluster), found by expanding the unchanged
    input as the planner will (each of them creates only what it lacks, by name)."""
    found = cluster.controllers
    if not found:
        return set()
    from podgroup_plan.analyses.controller_kinds import controller_objects
    from podgroup_plan.config.feature_gates import resolve_feature_gates
    from podgroup_plan.controllers.expand import expand

    expanded = expand(cluster, resolve_feature_gates(None))
    owners = {(o.namespace, kind, o.name) for kind, o in controller_objects(expanded.controllers)
              if kind not in _NOT_CONTROLLERS}
    owners |= {key for key in expanded.owner_parents if key[1] not in _NOT_CONTROLLERS}
    return owners


def _after_everything(cluster: ClusterInput) -> str:
    """A creation time later than every timestamp of the input (the recreated pods are new
    objects, queued after what was there), as RFC 3339 text."""
    stamps = [t for p in cluster.pods for t in (p.creation_timestamp, p.start_time) if t]
    stamps += [g.creation_timestamp for g in cluster.pod_groups if g.creation_timestamp]
    latest = max(stamps) if stamps else "1970-01-01T00:00:00Z"
    return _plus_one_second(latest)


def _plus_one_second(stamp: str) -> str:
    from datetime import datetime, timedelta

    try:
        when = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return stamp
    return (when.astimezone(UTC) + timedelta(seconds=1)).strftime("%Y-%m-%dT%H:%M:%SZ")


def _recreate(pod: Pod, owner: OwnerReference, stamp: str) -> Pod:
    if owner.kind == "StatefulSet":
        name = pod.name  # a StatefulSet pod keeps its identity
    else:
        name = generate_name(f"{owner.name}-", f"what-if/{pod.namespace}/{pod.name}")
    return replace(
        pod,
        name=name,
        node_name=None,
        phase="Pending",
        start_time=None,
        nominated_node_name=None,
        deletion_timestamp=None,
        preempted_by_scheduler=False,
        creation_timestamp=stamp,
        uid=stand_in_uid("Pod", pod.namespace, name),
        source=None,
    )
