"""`headroom()`: the analysis end to end, and its document (`headroom -o json`,
schemas/Headroom.json)."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from podgroup_plan.analyses.headroom.domains import (
    ZONE,
    by_domain,
    constrained_keys,
    domains_of,
    topology_labels,
)
from podgroup_plan.analyses.headroom.exact import Exact, capacity, shapes_of, solve
from podgroup_plan.analyses.headroom.greedy import (
    DEFAULT_MAX,
    Copy,
    Template,
    add_copies,
)
from podgroup_plan.analyses.headroom.grow import smallest_growth
from podgroup_plan.analyses.headroom.workload import copy_of, latest_timestamp
from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import Node
from podgroup_plan.planner import Planner
from podgroup_plan.result import API_VERSION

KIND = "Headroom"


@dataclass(frozen=True)
class Question:
    templates: tuple[Template, ...]
    max_copies: int = DEFAULT_MAX
    by: str | None = None  # --by; None: the gang's topology key, else zone


def default_by(question: Question, planner: Planner) -> str:
    if question.by:
        return question.by
    keys = sorted(constrained_keys(t.work for t in question.templates))
    return keys[0] if keys else ZONE


def headroom(planner: Planner, question: Question, exact: bool = False, time_limit: float = 10.0) -> dict[str, Any]:
    """Plan the input, add copies greedily, and describe the outcome; with `exact`, also the
    most copies any assignment could place (CP-SAT), on the cluster as the input's plan left
    it."""
    planner.run()
    best = exact_answer(planner, question, time_limit) if exact else None
    kept, failure = add_copies(planner, question.templates, question.max_copies)
    doc = describe(planner, question, kept, failure)
    if best is not None:
        doc["exact"] = best.to_dict(len(kept))
    return doc


def grow(planner: Planner, cluster: ClusterInput, shapes: Sequence[Node], target: int, question: Question,
         exact: bool = False, time_limit: float = 10.0) -> dict[str, Any]:
    """`--add-node FILE --target K`: the fewest such nodes for K copies, and the plan of the K
    copies on the grown cluster. With `exact`, CP-SAT's answer is for the cluster as it is
    (beside `grow.before`, the greedy count there)."""
    planner.run()
    best = exact_answer(planner, question, time_limit) if exact else None
    found = smallest_growth(planner, cluster, shapes, target, question.templates)
    doc = describe(found.planner or planner, replace(question, max_copies=target), found.kept, None)
    doc["maxReached"] = found.nodes is not None
    doc["grow"] = {"target": target, "nodes": found.nodes, "before": found.before,
                   "shapes": [n.name for n in shapes],
                   "added": [n.name for n in (found.planner.cluster.nodes if found.planner else ())
                             if n.name not in {c.name for c in cluster.nodes}]}
    if best is not None:
        doc["exact"] = best.to_dict(found.before)
    return doc


def exact_answer(planner: Planner, question: Question, time_limit: float) -> Exact:
    """CP-SAT's answer for the one workload of `question`, on the planner's state now."""
    [template] = question.templates
    with planner.tentative():  # one copy, to see the pods its controllers make; taken back
        pods = planner.submit(copy_of(template.work, 0, latest_timestamp(planner.cluster)))
        groups = {g.key: g for g in planner.cluster.pod_groups}
        composite = bool(planner.cluster.composite_pod_groups) and any(
            g.parent for g in groups.values() if (g.namespace, g.name) in {(p.namespace, p.pod_group) for p in pods})
    keys = {groups[(p.namespace, p.pod_group)].topology_key for p in pods
            if p.pod_group and (p.namespace, p.pod_group) in groups}
    cap, missing = capacity(pods, planner.state)
    shapes, more = shapes_of(pods, planner.state, cap)
    missing += more
    if composite:
        missing.append("CompositePodGroup levels")
    if len(keys) > 1:
        missing.append("several PodGroups with different topology constraints")
    key = next(iter(keys)) if len(keys) == 1 else None
    return solve(planner.state, shapes, key, question.max_copies, time_limit, sorted(set(missing)), cap)


def describe(planner: Planner, question: Question, kept: Sequence[Copy], failure: Copy | None) -> dict[str, Any]:
    state = planner.state
    by_name = {n.name: n for n in state.nodes}
    labels = topology_labels(state.nodes, constrained_keys([planner.cluster, *(t.work for t in question.templates)]))
    by = default_by(question, planner)
    return {
        "apiVersion": API_VERSION,
        "kind": KIND,
        "workloads": [{"kind": t.kind, "namespace": t.namespace, "name": t.name} for t in question.templates],
        "fits": len(kept),
        "max": question.max_copies,
        "maxReached": failure is None,
        "copies": [{"name": c.name, "workload": question.templates[i % len(question.templates)].name,
                    "nodes": c.nodes, "domains": domains_of(c.nodes, by_name, labels),
                    "pods": len(c.pods), "victims": c.victims} for i, c in enumerate(kept)],
        "by": by,
        "topologyLabels": labels,
        "byDomain": {by: by_domain(state, by, kept)},
        "firstFailure": None if failure is None else {
            "name": failure.name, "message": failure.message, "placements": failure.placements},
    }
