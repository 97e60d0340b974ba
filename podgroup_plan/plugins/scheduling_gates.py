"""SchedulingGates: a pod with `spec.schedulingGates` never enters the scheduling queue.

Mirrors `pkg/scheduler/framework/plugins/schedulinggates/scheduling_gates.go` (PreEnqueue).
"""
from __future__ import annotations

from podgroup_plan.framework.interface import PodGroupGate, PreEnqueuePlugin
from podgroup_plan.framework.status import Code, Status
from podgroup_plan.model.objects import Pod


class SchedulingGates(PreEnqueuePlugin):
    name = "SchedulingGates"

    def pre_enqueue(self, pod: Pod, podgroup: PodGroupGate | None = None) -> Status:
        if not pod.scheduling_gates:
            return Status()
        # upstream formats the gate names ([]string) with %v: "[a b]"
        message = f"waiting for scheduling gates: [{' '.join(pod.scheduling_gates)}]"
        return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, (message,), self.name)
