"""DefaultPreemption: the PostFilter (single pods) and PodGroupPostFilter (groups) plugin.

Mirrors `pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go` (PostFilter,
PodGroupPostFilter). The algorithms live in `podgroup_plan/framework/preemption/`; the plugin
gives them its args and the plan-wide context (victim units, PodDisruptionBudgets) the plan
attaches, so that a profile enables, disables and configures preemption as upstream does and
the cycles reach it through the framework's RunPostFilterPlugins /
RunPodGroupPostFilterPlugins.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from podgroup_plan.config.args import DefaultPreemptionArgs
from podgroup_plan.framework.interface import (
    CycleState,
    PodGroupPostFilterPlugin,
    PodGroupSchedulingFunc,
    PostFilterPlugin,
)
from podgroup_plan.framework.status import Code, Status
from podgroup_plan.model.objects import Pod

if TYPE_CHECKING:  # pragma: no cover
    from podgroup_plan.framework.runtime import Diagnosis, Framework
    from podgroup_plan.framework.preemption.common import PreemptionContext, PreemptionOutcome
    from podgroup_plan.state.cluster import ClusterState


class DefaultPreemption(PostFilterPlugin, PodGroupPostFilterPlugin):
    name = "DefaultPreemption"

    framework: "Framework | None" = None
    context: "PreemptionContext | None" = None
    policy_gate: bool = True

    def attach(self, framework: "Framework", context: "PreemptionContext", policy_gate: bool) -> None:
        """Give the plugin its framework (Filter on candidate nodes) and the plan's context."""
        self.framework, self.context, self.policy_gate = framework, context, policy_gate

    @property
    def preemption_args(self) -> DefaultPreemptionArgs:
        return self.args if isinstance(self.args, DefaultPreemptionArgs) else DefaultPreemptionArgs()

    def post_filter(self, cs: CycleState, pod: Pod, state: "ClusterState", diagnosis: "Diagnosis"
                    ) -> tuple["PreemptionOutcome | None", Status]:
        from podgroup_plan.framework.preemption.default_preemption import post_filter

        if self.framework is None or self.context is None:
            return None, Status(Code.ERROR, ("DefaultPreemption has no preemption context",))
        outcome = post_filter(self.framework, self.context, pod, state, diagnosis)
        return outcome, outcome.status

    def pod_group_post_filter(self, root, pods: Sequence[Pod], state: "ClusterState",
                              scheduling_func: PodGroupSchedulingFunc) -> tuple["PreemptionOutcome | None", Status]:
        from podgroup_plan.framework.preemption.pod_group_preemption import pod_group_post_filter

        if self.framework is None or self.context is None:
            return None, Status(Code.ERROR, ("DefaultPreemption has no preemption context",))

        def rerun():
            assignments, status = scheduling_func()
            return status, list(assignments)

        outcome = pod_group_post_filter(self.framework, self.context, root, pods, state, rerun, self.policy_gate)
        return outcome, outcome.status
