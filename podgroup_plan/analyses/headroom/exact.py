"""`headroom --exact`: the largest number of copies *any* assignment could place, with OR-Tools
CP-SAT (`python3 -m pip install '.[exact]' in the podgroup-plan checkout`), beside the greedy count of the scheduler's own
order.

The model (docs/headroom.md says why this one): copies are identical, so it decides *how many
copies go to each topology domain* (`m[d]`, one integer per value of the gang's topology key,
or one for the whole cluster when the copy has no constraint) and *how many pods of each shape
go to each node* (`c[n, s]`, integers), never which copy a pod belongs to. A domain holding m[d]
copies holds exactly m[d] times each shape's count, on its own nodes. Nodes bound the pods
they take by every resource they have free after the input's plan, by their pod count, by the
host ports already in use, and by hostname anti-affinity of pods that repel their own kind. A
shape may use only nodes that the planner's own helpers say it could land on ignoring
resources: required node affinity and nodeSelector, untolerated NoSchedule/NoExecute taints,
a cordon. The objective is sum(m[d]), at most `--max`.

Filters it cannot express (pod affinity, anti-affinity other than per node, topology
spreading, CompositePodGroup levels) are named, and the answer is then an upper bound:
`upperBound: true`. So is preemption: a copy that may preempt could take what running pods of
lower priority hold, which the model counts as free without choosing victims.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from podgroup_plan.model.objects import Pod, Taint
from podgroup_plan.plugins.helper.node_affinity import required_node_affinity_mask
from podgroup_plan.plugins.helper.taint import (
    taint_table,
    tolerations_tolerate,
    untolerated_per_node,
)

HOSTNAME = "kubernetes.io/hostname"
# node.kubernetes.io/unschedulable:NoSchedule, the taint a cordon amounts to (NodeUnschedulable)
_CORDON_TAINT = Taint("node.kubernetes.io/unschedulable", "", "NoSchedule")


class ExactUnavailable(RuntimeError):
    """OR-Tools is not installed."""


@dataclass
class Shape:
    """Pods of one copy that the model cannot tell apart."""

    pod: Pod  # a representative
    count: int
    eligible: np.ndarray  # bool per node of the state
    per_node: int | None = None  # at most this many on one node (self-repelling hostname anti-affinity)
    # other shapes its hostname anti-affinity also repels: none of them on a node that holds it
    repels: tuple[int, ...] = ()
    terms: tuple = ()  # its self-repelling hostname anti-affinity terms

    def to_dict(self) -> dict[str, Any]:
        return {"pods": self.count, "requests": dict(sorted(self.pod.requests.items())),
                "eligibleNodes": int(self.eligible.sum())}


@dataclass
class Capacity:
    """What each node has free for the copies: after the input's plan, plus what the pods a
    copy could preempt hold (kube-scheduler's preemption may evict them)."""

    free: np.ndarray  # resources x nodes
    free_pods: np.ndarray
    evictable: frozenset[tuple[str, str]]  # keys of the running pods counted as free


@dataclass
class Exact:
    fits: int
    status: str  # OPTIMAL | FEASIBLE | UNKNOWN | INFEASIBLE | MODEL_INVALID
    upper_bound: bool
    not_modelled: list[str] = field(default_factory=list)
    # one packing achieving `fits`: per copy, (pod shape index, node name) per pod
    packing: list[list[tuple[int, str]]] = field(default_factory=list)
    bound: int | None = None  # the solver's proven bound on the objective
    seconds: float = 0.0
    shapes: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self, greedy: int) -> dict[str, Any]:
        return {
            "fits": self.fits,
            "status": self.status,
            "upperBound": self.upper_bound,
            "notModelled": self.not_modelled,
            "bestBound": self.bound,
            "leftOnTheTable": max(0, self.fits - greedy),
            "shapes": self.shapes,
            "packing": [{"copy": i + 1, "nodes": sorted({n for _, n in pods}),
                         "pods": [{"shape": s, "node": n} for s, n in pods]}
                        for i, pods in enumerate(self.packing)],
            "wallSeconds": round(self.seconds, 3),
        }


def _shape_key(pod: Pod) -> tuple:
    return (tuple(sorted(pod.requests.items())), tuple(sorted(pod.node_selector.items())), pod.affinity,
            pod.tolerations, pod.host_ports, pod.topology_spread_constraints, tuple(sorted(pod.labels.items())),
            pod.priority, pod.preemption_policy)


PREEMPTION = ("preemption: running pods of lower priority counted as free (which victims the scheduler "
              "would choose, PodDisruptionBudgets and the victims' gangs are not modelled)")


def capacity(pods: Sequence[Pod], state, preemption: bool = True) -> tuple[Capacity, list[str]]:
    """Each node's free resources and pod slots for the copy `pods`. A copy that may preempt
    (`preemption`: the profile has a PostFilter; a pod whose policy is not Never) could take
    what running pods of lower priority hold: that is counted as free, and named (the answer
    is then an upper bound)."""
    free = state.allocatable - state.requested
    free_pods = state.allowed_pods - state.pod_count
    preemptors = [p.priority for p in pods if p.preemption_policy != "Never"]
    evictable: set[tuple[str, str]] = set()
    if preemption and preemptors:
        top = max(preemptors)
        free = free.copy()
        free_pods = free_pods.copy()
        for i in range(state.n):
            for pod in state.pods_on_node[i].values():
                if pod.priority < top and pod.deletion_timestamp is None:
                    vec = state.request_vector(pod)
                    free[: len(vec), i] += vec
                    free_pods[i] += 1
                    evictable.add(pod.key)
    return Capacity(free, free_pods, frozenset(evictable)), [PREEMPTION] if evictable else []


def _repels(term, owner: Pod, target: Pod) -> bool | None:
    """Whether required anti-affinity `term` of `owner` matches `target`; None when the term
    reads what the model does not (namespace selectors, matchLabelKeys)."""
    if term.namespace_selector is not None or term.match_label_keys or term.mismatch_label_keys:
        return None
    namespaces = term.namespaces or (owner.namespace,)
    return (term.label_selector is not None and target.namespace in namespaces
            and term.label_selector.matches(target.labels))


def shapes_of(pods: Sequence[Pod], state, cap: Capacity | None = None) -> tuple[list[Shape], list[str]]:
    """The copy's pods grouped into shapes, each with the nodes it could use; and what of
    them the model cannot express."""
    cap = cap if cap is not None else capacity(pods, state, preemption=False)[0]
    groups: dict[tuple, list[Pod]] = {}
    for pod in pods:
        groups.setdefault(_shape_key(pod), []).append(pod)
    shapes: list[Shape] = []
    missing: set[str] = set()
    table = taint_table(state)
    cordoned = np.fromiter((n.unschedulable for n in state.nodes), dtype=bool, count=state.n)
    # running pods (not counted as evictable) with required anti-affinity: they repel a shape
    # from their node (hostname) or their domain (any other key, not modelled)
    repellers = [(i, p) for i in range(state.n) for p in state.pods_on_node[i].values()
                 if p.key not in cap.evictable and p.affinity is not None and p.affinity.pod_anti_affinity_required]
    for key in sorted(groups, key=repr):
        members = groups[key]
        pod = members[0]
        if pod.scheduling_gates:
            missing.add("scheduling gates (the scheduler places no gated pod)")
        eligible = np.ones(state.n, dtype=bool)
        mask = required_node_affinity_mask(state, pod)
        if mask is not None:
            eligible &= mask
        eligible &= untolerated_per_node(state, table, pod.tolerations, ("NoSchedule", "NoExecute")) == 0
        if cordoned.any() and not tolerations_tolerate(pod.tolerations, _CORDON_TAINT):
            eligible &= ~cordoned
        for i, running in repellers:
            for term in running.affinity.pod_anti_affinity_required:
                hit = _repels(term, running, pod)
                if hit is None or (hit and term.topology_key != HOSTNAME):
                    missing.add("required pod anti-affinity of running pods other than per node")
                elif hit:
                    eligible[i] = False
        per_node = None
        terms = []
        affinity = pod.affinity
        if affinity is not None:
            if affinity.pod_affinity_required:
                missing.add("required pod affinity")
            for term in affinity.pod_anti_affinity_required:
                own = _repels(term, pod, pod)
                if own and term.topology_key == HOSTNAME:
                    per_node = 1
                    terms.append(term)
                    # a running pod it repels takes its node out
                    for row in np.flatnonzero(eligible):
                        if any(p.key not in cap.evictable and _repels(term, pod, p)
                               for p in state.pods_on_node[int(row)].values()):
                            eligible[int(row)] = False
                else:
                    missing.add("required pod anti-affinity other than one per node among its own kind")
        if any(c.when_unsatisfiable == "DoNotSchedule" for c in pod.topology_spread_constraints):
            missing.add("topology spread constraints")
        if pod.host_ports:
            per_node = 1  # one pod per host port and node (NodePorts)
            wanted = {(hp.port, hp.protocol) for hp in pod.host_ports}
            for row in np.flatnonzero(eligible):
                used = {(hp.port, hp.protocol) for p in state.pods_on_node[int(row)].values()
                        if p.key not in cap.evictable for hp in p.host_ports}
                if used & wanted:
                    eligible[int(row)] = False
        shapes.append(Shape(pod, len(members), eligible, per_node, terms=tuple(terms)))
    for shape in shapes:  # the copy's other pods a self-repelling term also repels
        shape.repels = tuple(i for i, other in enumerate(shapes) if other is not shape
                             and any(_repels(t, shape.pod, other.pod) for t in shape.terms))
    return shapes, sorted(missing)


def solve(state, shapes: Sequence[Shape], domain_key: str | None, max_copies: int,
          time_limit: float = 10.0, not_modelled: Sequence[str] = (), cap: Capacity | None = None) -> Exact:
    try:
        from ortools.sat.python import cp_model
    except ImportError as err:  # pragma: no cover - the extra is in the test extra
        raise ExactUnavailable("--exact needs OR-Tools: python3 -m pip install '.[exact]' in the podgroup-plan checkout") from err
    import time

    model = cp_model.CpModel()
    cap = cap if cap is not None else capacity([s.pod for s in shapes], state, preemption=False)[0]
    free, free_pods = cap.free, cap.free_pods
    if domain_key is None:
        domain_of = ["" for _ in range(state.n)]
    else:
        domain_of = [n.labels.get(domain_key) for n in state.nodes]
    domains = sorted({d for d in domain_of if d is not None})
    m = {d: model.new_int_var(0, max_copies, f"m[{d}]") for d in domains}
    model.add(sum(m.values()) <= max_copies)
    c: dict[tuple[int, int], Any] = {}
    most_of: dict[tuple[int, int], int] = {}  # each c's upper bound
    for s, shape in enumerate(shapes):
        for row in np.flatnonzero(shape.eligible):
            n = int(row)
            if domain_of[n] is None:
                continue
            most = int(free_pods[n])
            for r, amount in shape.pod.requests.items():
                row = state.resource_index.get(r)
                have = int(free[row, n]) if row is not None else 0
                most = min(most, have // amount if amount > 0 else most)
            if shape.per_node is not None:
                most = min(most, shape.per_node)
            most = min(most, shape.count * max_copies)
            if most > 0:
                c[(n, s)] = model.new_int_var(0, most, f"c[{n},{s}]")
                most_of[(n, s)] = most
    # a domain holds m[d] times each shape's count, on its own nodes
    for d in domains:
        for s, shape in enumerate(shapes):
            here = [v for (n, ss), v in c.items() if ss == s and domain_of[n] == d]
            if here:
                model.add(sum(here) == shape.count * m[d])
            else:
                model.add(m[d] == 0)
    # what each node has free: every resource, the pod count, host ports, self anti-affinity
    by_node: dict[int, list[tuple[int, Any]]] = {}
    for (n, s), v in c.items():
        by_node.setdefault(n, []).append((s, v))
    for n, items in by_node.items():
        if len(items) < 2:
            continue  # a single shape's cap already says it
        for i, r in enumerate(state.resource_names):
            terms = [(shapes[s].pod.requests.get(r, 0), v) for s, v in items if shapes[s].pod.requests.get(r, 0)]
            if terms:
                model.add(sum(a * v for a, v in terms) <= int(free[i, n]))
        model.add(sum(v for _, v in items) <= int(free_pods[n]))
        # a shape that repels others on its node (hostname anti-affinity; it is 0 or 1 there):
        # where it is, none of them
        on_node = dict(items)
        for s, v in items:
            for other in shapes[s].repels:
                w = on_node.get(other)
                if w is not None:
                    model.add(w <= most_of[(n, other)] * (1 - v))
        ports: dict[tuple, list[Any]] = {}
        for s, v in items:
            for hp in shapes[s].pod.host_ports:
                ports.setdefault((hp.port, hp.protocol), []).append(v)
        for vs in ports.values():
            if len(vs) > 1:
                model.add(sum(vs) <= 1)
    model.maximize(sum(m.values()))
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = float(time_limit)
    solver.parameters.num_workers = 1  # deterministic: one search, the same answer every run
    solver.parameters.random_seed = 0
    started = time.perf_counter()
    code = solver.solve(model)
    seconds = time.perf_counter() - started
    status = solver.status_name(code)
    described = [shape.to_dict() for shape in shapes]
    if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Exact(0, status, bool(not_modelled), list(not_modelled), seconds=seconds, shapes=described)
    counts = {d: int(solver.value(v)) for d, v in m.items()}
    placed = {k: int(solver.value(v)) for k, v in c.items()}
    packing = _packing(shapes, domains, domain_of, counts, placed, state)
    return Exact(sum(counts.values()), status, bool(not_modelled), list(not_modelled), packing,
                 int(solver.best_objective_bound), seconds, described)


def _packing(shapes, domains, domain_of, counts, placed, state) -> list[list[tuple[int, str]]]:
    """Copies made from the per-node counts: each copy takes each shape's count from the nodes
    of its domain, in node order."""
    left = dict(placed)
    out: list[list[tuple[int, str]]] = []
    for d in domains:
        for _ in range(counts[d]):
            pods: list[tuple[int, str]] = []
            for s, shape in enumerate(shapes):
                need = shape.count
                for n in range(state.n):
                    if need == 0:
                        break
                    if domain_of[n] != d:
                        continue
                    # one per node per copy for a self-repelling shape; else as many as are left
                    take = min(left.get((n, s), 0), need, 1 if shape.per_node else need)
                    if take:
                        left[(n, s)] -= take
                        need -= take
                        pods += [(s, state.node_names[n])] * take
            out.append(pods)
    return out
