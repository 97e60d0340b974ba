"""A CronJob -> its next Job (`pkg/controller/cronjob/cronjob_controllerv2.go`, `utils.go`).

The controller creates, at each scheduled time, the Job `<cronjob>-<scheduled time in minutes
since the epoch>` (`getJobName`, `getTimeHashInMinutes`) from `spec.jobTemplate`, with the
template's labels and annotations plus `batch.kubernetes.io/cronjob-scheduled-timestamp` (the
scheduled time, RFC 3339 in the CronJob's time zone), `creationTimestamp` the scheduled time and a
controller ownerReference to the CronJob (`getJobFromTemplate2`). The Job then makes its pods as
any Job (job.py); it has a controller owner, so the 1.37 Job controller creates no Workload for it.

The planner has no clock. Its rule (docs/controllers.md): the next Job is the one for the first
scheduled time strictly after the input's latest timestamp (every creationTimestamp, pod
startTime and CronJob lastScheduleTime of the input); an input without any time uses the Unix
epoch. A suspended CronJob creates nothing; a Job of that name already in the input is not made
again. `concurrencyPolicy` does not change which Job comes next, only whether running ones stay.
"""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timezone

from podgroup_plan.controllers.context import Creation
from podgroup_plan.controllers.cron import CronError, next_time, parse_schedule, zone
from podgroup_plan.model.controllers import Job
from podgroup_plan.model.objects import OwnerReference
from podgroup_plan.model.operators import CronJob

SCHEDULED_TIMESTAMP = "batch.kubernetes.io/cronjob-scheduled-timestamp"
EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def reference_time(times) -> datetime:
    """The latest of the input's timestamps (canonical `YYYY-MM-DDTHH:MM:SSZ` text), else the epoch."""
    latest = max((t for t in times if t), default=None)
    if latest is None:
        return EPOCH
    return datetime.strptime(latest, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)


def next_job(cj: CronJob, ctx: Creation, now: datetime, existing: set[tuple[str, str]]) -> Job | None:
    ns = cj.namespace
    if cj.suspend:
        ctx.notes.add(f"CronJob {ns}/{cj.name} is suspended: it creates no Job")
        return None
    tz = zone(cj.time_zone)
    try:
        when = next_time(parse_schedule(cj.schedule), now, tz) if tz is not None else None
    except CronError:
        when = None  # reported as bad input while loading
    if when is None:
        ctx.notes.add(f"CronJob {ns}/{cj.name}: no scheduled time within five years; no Job")
        return None
    name = f"{cj.name}-{int(when.timestamp()) // 60}"
    stamp = when.strftime("%Y-%m-%dT%H:%M:%SZ")
    shown = when.astimezone(tz).isoformat().replace("+00:00", "Z")
    ctx.notes.add(f"CronJob {ns}/{cj.name}: its next Job {name} is the one scheduled at {shown} "
                  f"(the first scheduled time after the input's latest timestamp, "
                  f"{now.strftime('%Y-%m-%dT%H:%M:%SZ')})")
    ctx.parent(ns, "Job", name, OwnerReference("CronJob", cj.name, True))
    if (ns, name) in existing:
        return None
    return replace(cj.job, namespace=ns, name=name, uid="", owner=OwnerReference("CronJob", cj.name, True),
                   creation_timestamp=stamp, source=cj.source)
