"""PriorityClasses and the priorities they give pods and groups.

Mirrors the `Priority` admission plugin (`plugin/pkg/admission/priority`): a pod's own
spec.priority, else its named class, else the global default class, else 0, with
`PreemptLowerPriority` as the default policy; and `pkg/apis/scheduling`'s
SystemPriorityClasses, which every cluster has without the input listing them.
"""
from __future__ import annotations

from typing import Mapping

from podgroup_plan.loading.decode_meta import source_of
from podgroup_plan.loading.documents import Document
from podgroup_plan.model.objects import PREEMPT_LOWER_PRIORITY, PriorityClass

# PriorityClasses every cluster has (`pkg/apis/scheduling` SystemPriorityClasses); pods in
# kube-system name them without the input having to list them.
SYSTEM_PRIORITY_CLASSES = {
    "system-node-critical": PriorityClass("system-node-critical", 2000001000),
    "system-cluster-critical": PriorityClass("system-cluster-critical", 2000000000),
}


class PriorityTable:
    """PriorityClasses by name, as the `Priority` admission plugin resolves them."""

    def __init__(self, classes: list[PriorityClass]):
        self.by_name: dict[str, PriorityClass] = dict(SYSTEM_PRIORITY_CLASSES)
        self.by_name.update((c.name, c) for c in classes)
        # Priority admission (getDefaultPriorityClass): when a race left more than one global
        # default, the one with the lowest value applies (equal values: the name sorting first).
        defaults = sorted((c for c in classes if c.global_default), key=lambda c: (c.value, c.name))
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

    def refusal(self, spec: Mapping, admitted: bool = False) -> tuple[tuple, str] | None:
        """What the Priority admission plugin's admitPod refuses in the `spec` of a pod without
        spec.priority (admission sets it): (the field, the message of its Forbidden), or None.
        A named class must exist (resolvePriorityClass): the planner needs it too, even for a
        pod read from a cluster (`admitted`). A preemptionPolicy written in a new pod's spec must
        be the one admission computes from the class, the global default class, or
        PreemptLowerPriority (establishPriority); an admitted pod's was accepted then. Admission
        stops at the first."""
        name = spec.get("priorityClassName")
        if name and name not in self.by_name:
            return ("priorityClassName",), f"no PriorityClass with name {name} was found"
        if admitted:
            return None
        policy = spec.get("preemptionPolicy")
        cls = self.by_name[name] if name else self.global_default
        computed = cls.preemption_policy if cls else PREEMPT_LOWER_PRIORITY
        if isinstance(policy, str) and policy != computed:
            return ("preemptionPolicy",), (
                f"the string value of PreemptionPolicy ({policy}) must not be provided in pod spec; "
                f"priority admission controller computed {computed} from the given PriorityClass name")
        return None

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
        source=source_of(doc),
    )
