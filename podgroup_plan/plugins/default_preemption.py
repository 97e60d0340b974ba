"""DefaultPreemption: the PostFilter (single pods) and PodGroupPostFilter (groups) plugin.

Mirrors `pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go` (PostFilter,
PodGroupPostFilter). The algorithms are the library in `podgroup_plan/framework/preemption/`
(upstream pkg/scheduler/framework/preemption); the plugin calls it with its args, the framework
that made it (Filter on candidate nodes; upstream's framework handle) and the framework's
plan-wide preemption context (victim units, PodDisruptionBudgets), so that a profile enables,
disables and configures preemption as upstream does and the cycles reach it through the
framework's RunPostFilterPlugins / RunPodGroupPostFilterPlugins.
"""
from __future__ import annotations

from typing import Any, Sequence

from podgroup_plan.config.args import DefaultPreemptionArgs
from podgroup_plan.framework.diagnosis import Diagnosis
from podgroup_plan.framework.interface import (
    CycleState,
    Handle,
    PodGroupPostFilterPlugin,
    PodGroupSchedulingFunc,
    PostFilterPlugin,
)
from podgroup_plan.framework.preemption.common import PreemptionOutcome
from podgroup_plan.framework.preemption.default_preemption import post_filter
from podgroup_plan.framework.preemption.pod_group_preemption import pod_group_post_filter
from podgroup_plan.framework.runtime import Framework
from podgroup_plan.framework.status import Code, Status
from podgroup_plan.model.objects import Pod
from podgroup_plan.state.cluster import ClusterState

_NO_CONTEXT = "DefaultPreemption has no preemption context"


class DefaultPreemption(PostFilterPlugin, PodGroupPostFilterPlugin):
    name = "DefaultPreemption"

    def __init__(self, args: Any = None, handle: Handle | None = None, framework: Framework | None = None):
        super().__init__(args, handle)
        self.framework = framework

    @classmethod
    def create(cls, args: Any, handle: Handle, framework: Any) -> "DefaultPreemption":
        return cls(args, handle, framework)

    @property
    def preemption_args(self) -> DefaultPreemptionArgs:
        return self.args if isinstance(self.args, DefaultPreemptionArgs) else DefaultPreemptionArgs()

    def post_filter(self, cs: CycleState, pod: Pod, state: ClusterState, diagnosis: Diagnosis
                    ) -> tuple[PreemptionOutcome | None, Status]:
        fwk = self.framework
        if fwk is None or fwk.preemption is None:
            return None, Status(Code.ERROR, (_NO_CONTEXT,))
        outcome = post_filter(fwk, fwk.preemption, pod, state, diagnosis)
        return outcome, outcome.status

    def pod_group_post_filter(self, root, pods: Sequence[Pod], state: ClusterState,
                              scheduling_func: PodGroupSchedulingFunc) -> tuple[PreemptionOutcome | None, Status]:
        fwk = self.framework
        if fwk is None or fwk.preemption is None:
            return None, Status(Code.ERROR, (_NO_CONTEXT,))

        def rerun():
            assignments, status = scheduling_func()
            return status, list(assignments)

        ctx = fwk.preemption
        outcome = pod_group_post_filter(fwk, ctx, root, pods, state, rerun, ctx.policy_gate)
        return outcome, outcome.status
