"""A CronJob's schedule: parse and find the next time, as the CronJob controller does.

Mirrors robfig/cron v3 (what `pkg/controller/cronjob` uses): `ParseStandard` (cron_parse.py:
five fields `minute hour day-of-month month day-of-week`, names jan-dec and sun-sat, `*`, `?`,
ranges, steps, and the descriptors @yearly, @annually, @monthly, @weekly, @daily, @midnight,
@hourly, @every DURATION, with robfig's error texts) and `SpecSchedule.Next` (the first whole minute after a time whose fields all
match; day-of-month and day-of-week are ORed unless either is `*`/`?`, `dayMatches`). Times are
wall-clock times of the CronJob's `spec.timeZone` (UTC when unset: the planner has no
kube-controller-manager local zone).
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from podgroup_plan.controllers.cron_parse import STAR, CronError, Schedule, parse_schedule

__all__ = ["CronError", "Schedule", "next_time", "parse_schedule", "zone"]


def zone(name: str | None):
    """time.LoadLocation: "" and "UTC" are UTC, "Local" is refused (no local zone here)."""
    if not name or name == "UTC":
        return timezone.utc
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def next_time(schedule: Schedule, after: datetime, tz) -> datetime | None:
    """The first activation strictly after `after` (aware), as an aware UTC time; None when
    none comes within five years (robfig gives up the same way)."""
    if schedule.every is not None:
        return (after.replace(microsecond=0) + schedule.every).astimezone(timezone.utc)
    t = after.astimezone(tz).replace(tzinfo=None, second=0, microsecond=0) + timedelta(minutes=1)
    limit = t.year + 5
    while t.year <= limit:
        if not schedule.month >> t.month & 1:
            t = (t.replace(day=1, hour=0, minute=0) + timedelta(days=32)).replace(day=1)
            continue
        if not _day_matches(schedule, t):
            t = t.replace(hour=0, minute=0) + timedelta(days=1)
            continue
        if not schedule.hour >> t.hour & 1:
            t = t.replace(minute=0) + timedelta(hours=1)
            continue
        if not schedule.minute >> t.minute & 1:
            t += timedelta(minutes=1)
            continue
        return t.replace(tzinfo=tz).astimezone(timezone.utc)
    return None


def _day_matches(s: Schedule, t: datetime) -> bool:
    dom = bool(s.dom >> t.day & 1)
    dow = bool(s.dow >> ((t.weekday() + 1) % 7) & 1)  # Go: Sunday is 0
    if s.dom & STAR or s.dow & STAR:
        return dom and dow
    return dom or dow
