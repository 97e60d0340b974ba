"""What both preemption paths share: the context, the outcome, Filter on one node.

Mirrors the parts of `pkg/scheduler/framework/preemption/preemption.go` that DefaultPreemption's
PostFilter and the PodGroupPostFilter both use (RunFilterPluginsWithNominatedPods on one node).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from podgroup_plan.config.args import DefaultPreemptionArgs
from podgroup_plan.framework.columns import pod_reads_columns_only
from podgroup_plan.framework.diagnosis import Diagnosis
from podgroup_plan.framework.filter_nominated import filter_with_nominated
from podgroup_plan.framework.interface import CycleState
from podgroup_plan.framework.preemption.context import PreemptionContext
from podgroup_plan.framework.preemption.victims import VictimUnit
from podgroup_plan.framework.runtime import SKIP_FILTER_KEY, Framework
from podgroup_plan.framework.status import Code, Status
from podgroup_plan.model.objects import Pod
from podgroup_plan.state.cluster import ClusterState

NOT_ELIGIBLE_NEVER = "not eligible due to preemptionPolicy=Never."


def column_only(ctx: PreemptionContext, pod: Pod, fwk: Framework) -> bool:
    """Whether every filter and score the pod meets reads only a node's usage columns and the
    node's own static fields, so that removing pods can be modelled on the columns."""
    return ctx.columns_only_cluster and pod_reads_columns_only(pod, fwk)


@dataclass
class PreemptionOutcome:
    """A PostFilter's answer. `status` carries upstream's text with its `preemption: ` /
    `pod group preemption: ` prefix."""

    status: Status
    victims: list[VictimUnit] = field(default_factory=list)  # most important first
    # Single pod: the node nominated (Success), or None; `clear` asks to clear its nomination.
    node: int | None = None
    clear: bool = False
    # Pod group: every placed preemptor pod with its proposed node, in scheduling order.
    nominations: list[tuple[Pod, int]] = field(default_factory=list)
    # The planner's own account for `explain` and the table: units spared by a PDB.
    spared_by_pdb: list[VictimUnit] = field(default_factory=list)
    num_pdb_violations: int = 0
    # For `explain` only (None otherwise): every unit the reprieve considered, in importance
    # order, as (unit, verdict, PDB-violating pods, PDBs that cover it).
    considered: list[tuple[VictimUnit, str, int, list[str]]] | None = None

    @property
    def victim_pods(self) -> list[Pod]:
        return [p for u in self.victims for p in u.pods]


def with_prefix(prefix: str, status: Status) -> Status:
    """A non-empty text gets the plugin's prefix; an empty one stays empty (same code)."""
    if not status.message:
        return status
    return Status(status.code, (f"{prefix}{status.message}",), status.plugin)


def fits_on_node(fwk: Framework, pod: Pod, state: ClusterState, node: int,
                 prefiltered: dict | None = None,
                 skips: frozenset[str] = frozenset()) -> tuple[bool, Diagnosis, Status]:
    """PreFilter then Filter (with nominated pods) of `pod` on the single node `node`, against
    the cluster as it is now. Returns (fits, diagnosis, status of the node).

    `prefiltered` (pod key -> (cycle state, PreFilter's answer)) reuses one PreFilter run per
    pod; only for pods whose PreFilter state cannot depend on the pods of the cluster
    (framework/columns.py), as upstream reuses the re-run's cycle state. `skips`: plugins whose
    PreFilter answered Skip in that re-run; their Filter stays skipped (see
    pod_group_preemption.rerun_skips)."""
    view = np.array([node], dtype=np.intp)
    diagnosis = Diagnosis()
    got = prefiltered.get(pod.key) if prefiltered is not None else None
    if got is None:
        cs = CycleState()
        got = (cs, fwk.run_pre_filter(cs, pod, state, view))
        if prefiltered is not None:
            prefiltered[pod.key] = got
    cs, (status, allowed, narrowing) = got
    if skips:
        cs.write(SKIP_FILTER_KEY, (cs.read(SKIP_FILTER_KEY) or frozenset()) | skips)
    if not status.is_success():
        diagnosis.add(status.message, 1)
        return False, diagnosis, Status(status.code, status.reasons, status.plugin)
    if allowed is not None and state.node_names[node] not in allowed:
        msg = f"node(s) didn't satisfy plugin(s) [{' '.join(sorted(narrowing))}]"
        diagnosis.add(msg, 1)
        return False, diagnosis, Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, (msg,))
    ok = bool(filter_with_nominated(fwk, cs, pod, state, view, diagnosis)[0])
    if ok:
        return True, diagnosis, Status()
    code = Code(int(diagnosis.node_codes[0])) if diagnosis.node_codes is not None else Code.UNSCHEDULABLE
    return False, diagnosis, Status(code, tuple(sorted(diagnosis.reasons)))


def preemption_args(fwk: Framework) -> DefaultPreemptionArgs:
    args = fwk.profile.plugin_args.get("DefaultPreemption")
    return args if isinstance(args, DefaultPreemptionArgs) else DefaultPreemptionArgs()


def remove_units(state: ClusterState, units: Sequence[VictimUnit]) -> None:
    for unit in units:
        for pod in unit.pods:
            state.forget(pod)


def restore_unit(state: ClusterState, unit: VictimUnit) -> None:
    for pod, node in zip(unit.pods, unit.nodes):
        state.assume(pod, node)
