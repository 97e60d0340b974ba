"""A CronJob's schedule: parse and find the next time, as the CronJob controller does.

Mirrors robfig/cron v3 (what `pkg/controller/cronjob` uses): `ParseStandard` (five fields
`minute hour day-of-month month day-of-week`, names jan-dec and sun-sat, `*`, `?`, ranges,
steps, and the descriptors @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly,
@every DURATION) and `SpecSchedule.Next` (the first whole minute after a time whose fields all
match; day-of-month and day-of-week are ORed unless either is `*`/`?`, `dayMatches`). Times are
wall-clock times of the CronJob's `spec.timeZone` (UTC when unset: the planner has no
kube-controller-manager local zone).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

STAR = 1 << 63  # robfig's starBit: the field was `*` or `?` (no step above 1)
_BOUNDS = {  # (min, max, names)
    "minute": (0, 59, {}),
    "hour": (0, 23, {}),
    "dom": (1, 31, {}),
    "month": (1, 12, {m: i + 1 for i, m in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"))}),
    "dow": (0, 6, {d: i for i, d in enumerate(("sun", "mon", "tue", "wed", "thu", "fri", "sat"))}),
}
_DESCRIPTORS = {
    "@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *", "@monthly": "0 0 1 * *",
    "@weekly": "0 0 * * 0", "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@hourly": "0 * * * *",
}
_DURATION = re.compile(r"(?:(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|ns))")


class CronError(ValueError):
    pass


@dataclass(frozen=True)
class Schedule:
    minute: int = 0
    hour: int = 0
    dom: int = 0
    month: int = 0
    dow: int = 0
    every: timedelta | None = None  # @every: ConstantDelaySchedule


def zone(name: str | None):
    """time.LoadLocation: "" and "UTC" are UTC, "Local" is refused (no local zone here)."""
    if not name or name == "UTC":
        return timezone.utc
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


@lru_cache(maxsize=256)
def parse_schedule(text: str) -> Schedule:
    text = text.strip()
    if text.startswith("TZ=") or text.startswith("CRON_TZ="):
        raise CronError("TZ in the schedule is not supported; use spec.timeZone")
    if text.startswith("@every "):
        return Schedule(every=_duration(text[len("@every "):].strip()))
    if text.startswith("@"):
        if text not in _DESCRIPTORS:
            raise CronError(f"unrecognized descriptor: {text}")
        text = _DESCRIPTORS[text]
    fields = text.split()
    if len(fields) != 5:
        raise CronError(f"expected exactly 5 fields, found {len(fields)}: {text}")
    minute, hour, dom, month, dow = (_field(f, name) for f, name in zip(fields, ("minute", "hour", "dom", "month", "dow")))
    return Schedule(minute, hour, dom, month, dow)


def _duration(text: str) -> timedelta:
    """Go's time.ParseDuration for the units a schedule uses; rounded up to a second as
    robfig's Every does (at least one second)."""
    pos, total = 0, 0.0
    scale = {"h": 3600, "m": 60, "s": 1, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "ns": 1e-9}
    for m in _DURATION.finditer(text):
        if m.start() != pos:
            break
        total += float(m.group(1)) * scale[m.group(2)]
        pos = m.end()
    if pos != len(text) or not text:
        raise CronError(f"failed to parse duration {text}")
    return timedelta(seconds=max(1, int(total)))


def _field(text: str, name: str) -> int:
    lo, hi, names = _BOUNDS[name]
    out = 0
    for part in text.split(","):
        range_step = part.split("/")
        low_high = range_step[0].split("-")
        extra = 0
        if low_high[0] in ("*", "?"):
            start, end, extra = lo, hi, STAR
        else:
            start = _value(low_high[0], names, part)
            end = _value(low_high[1], names, part) if len(low_high) == 2 else start
            if len(low_high) > 2:
                raise CronError(f"too many hyphens: {part}")
        step = 1
        if len(range_step) == 2:
            step = _value(range_step[1], {}, part)
            if len(low_high) == 1:
                end = hi  # "N/step" means "N-max/step"
            if step > 1:
                extra = 0
        elif len(range_step) > 2:
            raise CronError(f"too many slashes: {part}")
        if start < lo:
            raise CronError(f"beginning of range ({start}) below minimum ({lo}): {part}")
        if end > hi:
            raise CronError(f"end of range ({end}) above maximum ({hi}): {part}")
        if start > end:
            raise CronError(f"beginning of range ({start}) beyond end of range ({end}): {part}")
        if step == 0:
            raise CronError(f"step of range should be a positive number: {part}")
        for v in range(start, end + 1, step):
            out |= 1 << v
        out |= extra
    return out


def _value(text: str, names: dict, part: str) -> int:
    if text.lower() in names:
        return names[text.lower()]
    if not text.isdigit():
        raise CronError(f"failed to parse int from {text}: {part}")
    return int(text)


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
