"""Answers shared by pods of one shape within one cluster state.

After a pod ends, kube-scheduler retries every pod waiting for resources; in a busy cluster
many of them have the same shape (a trace's pods come in a few dozen). Two lone pods with the
same scheduling signature (the framework's `pod_signature`: what every cached plugin reads),
namespace, labels (other pods' anti-affinity reads them), priority and preemption policy, and
without a nomination, get the same cycle on the same cluster state: the same failure, the same
message, no preemption. So once one of them failed at a state version, the others are answered
from it until the state changes. Pods whose answer depends on other nodes' pods (inter-pod
affinity, topology spread: `hosts` gives None) are never shared.
"""
from __future__ import annotations

from podgroup_plan.analyses.replay.hosts import hosts
from podgroup_plan.analyses.replay.units import Unit
from podgroup_plan.planner import Planner

Answer = tuple[str, frozenset[str]]  # the message, the rejecting plugins


class Shapes:
    def __init__(self, planner: Planner, hosts_memo: dict):
        self.planner = planner
        self.hosts_memo = hosts_memo
        self.keys: dict[tuple[str, str], tuple | None] = {}
        self.version = -1
        self.answers: dict[tuple, Answer] = {}

    def key(self, unit: Unit) -> tuple | None:
        if unit.kind != "Pod" or len(unit.entity.pods) != 1:
            return None
        pod = unit.entity.pods[0]
        if self.planner.passes.nominator.node_of(pod) is not None:
            return None
        if pod.key not in self.keys:
            fwk = self.planner.frameworks.get(pod.scheduler_name)
            signature = fwk.pod_signature(pod) if fwk is not None else None
            shareable = signature is not None and hosts(pod, self.planner.state, self.hosts_memo) is not None
            self.keys[pod.key] = (pod.scheduler_name, pod.namespace, tuple(sorted(pod.labels.items())),
                                  pod.priority, pod.preemption_policy, signature) if shareable else None
        return self.keys[pod.key]

    def answer(self, key: tuple, version: int) -> Answer | None:
        return self.answers.get(key) if version == self.version else None

    def remember(self, key: tuple, version: int, answer: Answer) -> None:
        if version != self.version:
            self.version, self.answers = version, {}
        self.answers[key] = answer
