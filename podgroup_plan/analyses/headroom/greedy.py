"""How many more copies fit, the way kube-scheduler would place them: copies are added one
after another to one `Planner`, after the input's own pending work, each planned by the same
v1.37.0 cycle as `simulate` plans it, inside a tentative scope that is kept when every pod of
the copy is scheduled and taken back (through the undo log) when not. The first copy that does
not fit ends the count; its kube-scheduler message and placements say why.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from podgroup_plan.analyses.headroom.workload import COPY_SUFFIX, copy_of, latest_timestamp
from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.planner import Planner
from podgroup_plan.result import SCHEDULED, PlanResult

DEFAULT_MAX = 1000


@dataclass
class Copy:
    """One copy as the plan left it."""

    index: int
    name: str  # the copy's workload name (`NAME-hK`)
    fits: bool
    pods: list[tuple[str, str, str | None]] = field(default_factory=list)  # (ns, name, node)
    message: str | None = None
    placements: list[dict[str, Any]] | None = None
    victims: int = 0  # running pods the copy's cycle evicted (a copy of higher priority)

    @property
    def nodes(self) -> list[str]:
        return sorted({n for _, _, n in self.pods if n})


@dataclass(frozen=True)
class Template:
    work: ClusterInput
    kind: str
    namespace: str
    name: str


def add_copies(planner: Planner, templates: Sequence[Template], max_copies: int = DEFAULT_MAX,
               first: int = 1) -> tuple[list[Copy], Copy | None]:
    """Plan the input (if not yet), then add copies of `templates` in turn (round robin) until
    one does not fit or `max_copies` fit. Returns (the copies kept, the first that did not fit
    or None). The copies that fit stay in the planner's state."""
    planner.run()
    after = latest_timestamp(planner.cluster)
    kept: list[Copy] = []
    for k in range(first, first + max_copies):
        template = templates[(k - first) % len(templates)]
        with planner.tentative() as scope:
            new = planner.submit(copy_of(template.work, k, after))
            result = planner.run()
            copy = judge(result, template, k, {p.key for p in new})
            if copy.fits:
                scope.commit()
                kept.append(copy)
                continue
        return kept, copy
    return kept, None


def judge(result: PlanResult, template: Template, k: int, keys: set[tuple[str, str]]) -> Copy:
    """Did copy k fit? Every pod it added must be Scheduled."""
    name = template.name + COPY_SUFFIX.format(k=k)
    mine = sorted((p for p in result.pods if (p.namespace, p.name) in keys), key=lambda p: (p.namespace, p.name))
    copy = Copy(k, name, fits=bool(mine) and all(p.status == SCHEDULED for p in mine),
                pods=[(p.namespace, p.name, p.node) for p in mine])
    preemptors = keys | {(p.namespace, p.pod_group) for p in mine if p.pod_group}
    copy.victims = sum(1 for v in result.victims if (v.preemptor.namespace, v.preemptor.name) in preemptors)
    if not copy.fits:
        failed = next((p for p in mine if p.status != SCHEDULED), None)
        groups = {(g.namespace, g.name): g for g in result.pod_groups}
        group = groups.get((failed.namespace, failed.pod_group)) if failed and failed.pod_group else None
        copy.message = failed.message if failed else "the copy created no pod"
        if group is not None:
            for cond in group.conditions:
                if cond.message:
                    copy.message = cond.message
            if group.placements is not None:
                copy.placements = [p.to_dict() for p in group.placements]
    return copy
