"""PrioritySort: the queue order (`pkg/scheduler/framework/plugins/queuesort/priority_sort.go`).

Higher priority first, then earlier timestamp. Upstream's timestamp is when the scheduler first
saw the object; offline we use creationTimestamp (objects without one sort after those with
one), then namespace and name, so the order never depends on file order (README, "Deviations from kube-scheduler").
"""
from __future__ import annotations

from podgroup_plan.framework.interface import QueueSortPlugin, default_queue_key


class PrioritySort(QueueSortPlugin):
    name = "PrioritySort"

    def queue_key(self, priority: int, timestamp: str | None, namespace: str, name: str) -> tuple:
        return default_queue_key(priority, timestamp, namespace, name)
