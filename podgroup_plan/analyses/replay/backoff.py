"""Backoff and the unschedulable pool's flush, as kube-scheduler v1.37.0's queue computes them
(pkg/scheduler/backend/queue/backoff_queue.go, scheduling_queue.go).

* getBackoffTime: the count is the consecutive errors when the last cycle erred, else the
  unschedulable attempts; none: no backoff; podMaxBackoffSeconds 0 turns backoff off.
* calculateBackoffDuration: initial << (count-1), at most the maximum; for an entity of more
  than one pod the maximum is multiplied by the square root of its size (its pods still queued:
  a basic group that placed some has fewer).
* With SchedulerPopFromBackoffQ (on by default) expiries are truncated to whole seconds
  (alignToWindow), and an entity is still backing off while its expiry is not before the
  current window.
* flushUnschedulableEntitiesLeftover runs every 30 seconds and moves what waited more than
  podMaxInUnschedulablePodsDuration (5 minutes) since its last attempt or flush.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from podgroup_plan.analyses.replay.units import Unit

FLUSH_PERIOD = 30.0
MAX_IN_UNSCHEDULABLE = 300.0


@dataclass(frozen=True, slots=True)
class Backoff:
    initial: float = 1.0
    maximum: float = 10.0
    windows: bool = True  # SchedulerPopFromBackoffQ: whole-second ordering windows

    def align(self, t: float) -> float:
        return math.floor(t) if self.windows else t

    def duration(self, count: int, size: int) -> float:
        if count == 0:
            return 0.0
        maximum = self.maximum * math.sqrt(size) if size > 1 else self.maximum
        shift = min(count - 1, 62)
        if self.initial > maximum / (1 << shift):
            return maximum
        return self.initial * (1 << shift)

    def expiry(self, unit: Unit) -> float | None:
        """When the unit's backoff ends (None: no backoff)."""
        if self.maximum == 0:
            return None
        count = unit.error_count if unit.error_count > 0 else unit.unschedulable_count
        if count == 0:
            return None
        # the entity's size as it is now (QueuedPodGroupInfo.Size: its queued pods)
        return self.align(unit.queued_at + self.duration(count, len(unit.entity.pods)))

    def backing_off(self, unit: Unit, now: float) -> bool:
        expiry = self.expiry(unit)
        return expiry is not None and not expiry < self.align(now)


def next_flush(last: float, origin: float) -> float:
    """The first tick of the flush loop (every 30 s from `origin`) at which an entity whose
    last attempt or flush was at `last` has waited strictly more than 5 minutes."""
    due = last + MAX_IN_UNSCHEDULABLE
    ticks = math.floor((due - origin) / FLUSH_PERIOD) + 1
    return origin + ticks * FLUSH_PERIOD


def flush_times(last: float, origin: float, until: float, inclusive: bool, keep: int) -> tuple[list[float], int]:
    """The flushes of an entity left in the pool from its last attempt `last` until `until`
    (included or not), each a retry: the first `keep` times, and how many in all. After a
    flush (on a tick) the next comes 330 s later: the first tick strictly more than 300 s on."""
    first = next_flush(last, origin)
    if first > until or (first == until and not inclusive):
        return [], 0
    period = MAX_IN_UNSCHEDULABLE + FLUSH_PERIOD
    count = int((until - first) // period) + 1
    if not inclusive and first + (count - 1) * period == until:
        count -= 1
    return [first + i * period for i in range(min(count, keep))], count
