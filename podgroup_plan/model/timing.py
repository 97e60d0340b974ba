"""Time for `replay`: what the input says about when work arrives and how long it runs.

`podgroup-plan.io/arrival` (RFC 3339) and `podgroup-plan.io/duration` (a Go duration such as
`90s`, `1h30m`, or a number of seconds) are annotations of our own: the API has no field for
either. `terminationGracePeriodSeconds` is the pod spec's (30 when unset, as the API defaults
it). The loader (loading/timing.py) reads them with the file and line of each; the replay
(analyses/replay) resolves a pod's own value first, then its template's, then its owners'.
Times are seconds since the epoch (floats); the input's timestamps have whole seconds.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timezone

ARRIVAL_ANNOTATION = "podgroup-plan.io/arrival"
DURATION_ANNOTATION = "podgroup-plan.io/duration"
DEFAULT_GRACE_SECONDS = 30.0  # the API's default terminationGracePeriodSeconds

# (kind, namespace, name): "Pod" for a pod, the controller's kind for a template or an owner
TimingKey = tuple[str, str, str]


@dataclass(frozen=True, slots=True)
class Timing:
    """One object's timing facts; None where the object says nothing."""

    duration: float | None = None  # seconds the object's pods run
    arrival: float | None = None  # when it arrives (epoch seconds)
    grace: float | None = None  # terminationGracePeriodSeconds of its pods
    template_duration: float | None = None  # the pod template's own annotation (controllers)
    template_grace: float | None = None


_UNIT = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}
_GO_DURATION = re.compile(r"((?:\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h))+")
_PART = re.compile(r"(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def parse_duration(text: object) -> float:
    """Seconds from a Go duration (`90s`, `1h30m`, `2.5h`) or a plain number of seconds; a
    day is written `24h`, as Go does. Raises ValueError saying what is wrong."""
    if isinstance(text, bool) or not isinstance(text, (str, int, float)):
        raise ValueError(f"duration must be a string such as 90s or 1h30m, not {type(text).__name__}")
    value = str(text).strip()
    if value.startswith("-"):
        raise ValueError(f'duration "{value}" is negative')
    if _NUMBER.fullmatch(value):
        return float(value)
    if value == "0" or not _GO_DURATION.fullmatch(value):
        raise ValueError(f'invalid duration "{value}"; expected e.g. 90s, 45m, 1h30m or a number of seconds')
    return sum(float(n) * _UNIT[u] for n, u in _PART.findall(value))


def parse_time(text: str) -> float:
    """Epoch seconds from an RFC 3339 time (`2026-01-01T00:00:00Z`). Raises ValueError."""
    value = text.strip()
    if not re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)", value):
        raise ValueError(f'invalid time "{value}"; expected RFC 3339, e.g. 2026-01-01T00:00:00Z')
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(f'invalid time "{value}"; expected RFC 3339, e.g. 2026-01-01T00:00:00Z') from None
    return parsed.timestamp()


def format_time(epoch: float) -> str:
    """RFC 3339 in UTC; fractions of a second only when there are some (milliseconds)."""
    whole = int(epoch // 1)
    stamp = datetime.fromtimestamp(whole, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")
    millis = round((epoch - whole) * 1000)
    if millis == 1000:
        return format_time(whole + 1)
    return f"{stamp}.{millis:03d}Z" if millis else f"{stamp}Z"
