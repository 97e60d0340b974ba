"""DefaultPreemption: the PostFilter (single pods) and PodGroupPostFilter (groups) plugin.

Mirrors `pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go`. The algorithms
live in `podgroup_plan/scheduling/preemption/` (they need the cluster, the queue's nominations
and the group cycle, which a plugin does not own); this class gives them the plugin's name and
args, so that a profile enables, disables and configures preemption as it does upstream.
"""
from __future__ import annotations

from podgroup_plan.framework.args import DefaultPreemptionArgs
from podgroup_plan.framework.interface import Plugin


class DefaultPreemption(Plugin):
    name = "DefaultPreemption"

    @property
    def preemption_args(self) -> DefaultPreemptionArgs:
        return self.args if isinstance(self.args, DefaultPreemptionArgs) else DefaultPreemptionArgs()
