"""A CronJob's schedule parsed as kube-apiserver and the CronJob controller parse it, with the
same error texts.

Mirrors github.com/robfig/cron v3.0.1 `parser.go` (`ParseStandard`: the parser for
`Minute | Hour | Dom | Month | Dow | Descriptor`; `Parse`, `normalizeFields`, `getField`,
`getRange`, `parseIntOrName`, `mustParseInt`, `parseDescriptor`, and `Every` in
`constantdelay.go`) as wrapped by Kubernetes v1.37.0 `pkg/util/parsers`
`ParseCronScheduleWithPanicRecovery` (a panic becomes `invalid schedule format: ...`), and the
Go library functions whose errors reach the text: `strings.Fields`, `strconv.Atoi`,
`time.ParseDuration`, `time.LoadLocation` (go1.26 `src/strconv/atoi.go`, `src/time/format.go`,
`src/time/zoneinfo.go`). `CronError`'s text is `err.Error()`, which batch validation's
validateScheduleFormat puts in `field.Invalid(spec.schedule, schedule, err.Error())`.

A `TZ=`/`CRON_TZ=` prefix is parsed (its location only checked: the planner reads the CronJob's
`spec.timeZone`, and validation refuses a schedule holding "TZ" on create anyway).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

STAR = 1 << 63  # robfig's starBit: the field was `*` or `?` (no step above 1)
_BOUNDS = {  # (min, max, names): robfig's minutes, hours, dom, months, dow
    "minute": (0, 59, {}),
    "hour": (0, 23, {}),
    "dom": (1, 31, {}),
    "month": (1, 12, {m: i + 1 for i, m in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"))}),
    "dow": (0, 6, {d: i for i, d in enumerate(("sun", "mon", "tue", "wed", "thu", "fri", "sat"))}),
}
# parseDescriptor's schedules, as the five fields that make the same bits
_DESCRIPTORS = {
    "@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *", "@monthly": "0 0 1 * *",
    "@weekly": "0 0 * * 0", "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@hourly": "0 * * * *",
}
_EVERY = "@every "
_SECOND_NS = 1_000_000_000


class CronError(ValueError):
    """A schedule robfig's parser refuses; str() is its error's text."""


@dataclass(frozen=True)
class Schedule:
    minute: int = 0
    hour: int = 0
    dom: int = 0
    month: int = 0
    dow: int = 0
    every: timedelta | None = None  # @every: ConstantDelaySchedule


@lru_cache(maxsize=256)
def parse_schedule(spec: str) -> Schedule:
    """ParseCronScheduleWithPanicRecovery(spec): cron.ParseStandard."""
    if not spec:
        raise CronError("empty spec string")
    if spec.startswith(("TZ=", "CRON_TZ=")):
        raw = spec.encode()  # Go indexes bytes
        i, eq = raw.find(b" "), raw.find(b"=")
        if i < 0:  # spec[eq+1:i] with i == -1: the runtime's panic, recovered
            raise CronError("invalid schedule format: runtime error: slice bounds out of range [:-1]")
        name = raw[eq + 1:i].decode()
        problem = load_location_error(name)
        if problem:
            raise CronError(f"provided bad location {name}: {problem}")
        spec = _trim_space(raw[i:].decode())
    if spec.startswith("@"):
        return _descriptor(spec)
    fields = _fields(spec)
    if len(fields) != 5:  # normalizeFields: fmt's %s of a []string
        raise CronError(f"expected exactly 5 fields, found {len(fields)}: [{' '.join(fields)}]")
    minute, hour, dom, month, dow = (_field(f, name) for f, name in zip(fields, _BOUNDS))
    return Schedule(minute, hour, dom, month, dow)


def _descriptor(spec: str) -> Schedule:
    """parseDescriptor: the names as written (no trimming, no case folding), or `@every D`."""
    if spec in _DESCRIPTORS:
        return parse_schedule(_DESCRIPTORS[spec])
    if spec.startswith(_EVERY):
        try:
            ns = parse_duration(spec[len(_EVERY):])
        except CronError as e:
            raise CronError(f"failed to parse duration {spec}: {e}") from None
        # Every: at least a second, and whole seconds (the rest dropped)
        seconds = 1 if ns < _SECOND_NS else ns // _SECOND_NS
        return Schedule(every=timedelta(seconds=seconds))
    raise CronError(f"unrecognized descriptor: {spec}")


def _field(text: str, name: str) -> int:
    """getField: the comma-separated ranges (strings.FieldsFunc: empty ones skipped)."""
    lo, hi, names = _BOUNDS[name]
    out = 0
    for expr in (part for part in text.split(",") if part):
        out |= _range(expr, lo, hi, names)
    return out


def _range(expr: str, lo: int, hi: int, names: dict) -> int:
    """getRange: `number | number "-" number [ "/" number ]`, `*` or `?`."""
    range_step = expr.split("/")
    low_high = range_step[0].split("-")
    extra = 0
    if low_high[0] in ("*", "?"):
        start, end, extra = lo, hi, STAR
    else:
        start = _int_or_name(low_high[0], names)
        if len(low_high) == 1:
            end = start
        elif len(low_high) == 2:
            end = _int_or_name(low_high[1], names)
        else:
            raise CronError(f"too many hyphens: {expr}")
    if len(range_step) == 1:
        step = 1
    elif len(range_step) == 2:
        step = _must_parse_int(range_step[1])
        if len(low_high) == 1:
            end = hi  # "N/step" means "N-max/step"
        if step > 1:
            extra = 0
    else:
        raise CronError(f"too many slashes: {expr}")
    if start < lo:
        raise CronError(f"beginning of range ({start}) below minimum ({lo}): {expr}")
    if end > hi:
        raise CronError(f"end of range ({end}) above maximum ({hi}): {expr}")
    if start > end:
        raise CronError(f"beginning of range ({start}) beyond end of range ({end}): {expr}")
    if step == 0:
        raise CronError(f"step of range should be a positive number: {expr}")
    bits = 0
    for v in range(start, end + 1, step):
        bits |= 1 << v
    return bits | extra


def _int_or_name(expr: str, names: dict) -> int:
    """parseIntOrName: a month's or weekday's name in any case, else mustParseInt."""
    if names and expr.lower() in names:
        return names[expr.lower()]
    return _must_parse_int(expr)


def _must_parse_int(expr: str) -> int:
    try:
        num = atoi(expr)
    except CronError as e:
        raise CronError(f"failed to parse int from {expr}: {e}") from None
    if num < 0:
        raise CronError(f"negative number ({num}) not allowed: {expr}")
    return num


# --- the Go library, for its texts --------------------------------------------------------------

# unicode.IsSpace up to U+00FF (Python's str.isspace also takes U+001C..U+001F, Go does not)
_LATIN1_SPACE = frozenset("\t\n\v\f\r \x85\xa0")


def _is_space(c: str) -> bool:
    return c in _LATIN1_SPACE or (ord(c) > 0xFF and c.isspace())


def _fields(text: str) -> list[str]:
    """strings.Fields"""
    out: list[str] = []
    current: list[str] = []
    for c in text:
        if _is_space(c):
            if current:
                out.append("".join(current))
                current = []
        else:
            current.append(c)
    if current:
        out.append("".join(current))
    return out


def _trim_space(text: str) -> str:
    """strings.TrimSpace"""
    start, end = 0, len(text)
    while start < end and _is_space(text[start]):
        start += 1
    while end > start and _is_space(text[end - 1]):
        end -= 1
    return text[start:end]


def go_quote(text: str) -> str:
    """strconv.Quote for the texts that reach these errors: printable characters as they are
    (`"` and `\\` escaped), the others escaped as Go escapes them."""
    out = ['"']
    for c in text:
        if c in '"\\':
            out.append("\\" + c)
        elif c.isprintable() and c != "\x7f":
            out.append(c)
        elif c in "\a\b\f\n\r\t\v":
            out.append({"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v"}[c])
        elif ord(c) < 0x80:
            out.append(f"\\x{ord(c):02x}")
        elif ord(c) <= 0xFFFF:
            out.append(f"\\u{ord(c):04x}")
        else:
            out.append(f"\\U{ord(c):08x}")
    return "".join(out) + '"'


_INT64_MAX = (1 << 63) - 1


def atoi(text: str) -> int:
    """strconv.Atoi on a 64-bit machine, its errors `strconv.Atoi: parsing "x": invalid
    syntax` / `value out of range` (ParseInt's order: a digit past the range before a later
    non-digit is `value out of range`)."""
    syntax = CronError(f"strconv.Atoi: parsing {go_quote(text)}: invalid syntax")
    digits, negative = text, False
    if digits[:1] in ("+", "-"):
        negative, digits = digits[0] == "-", digits[1:]
    if not digits:
        raise syntax
    n = 0
    for c in digits:
        if not "0" <= c <= "9":
            raise syntax
        n = n * 10 + ord(c) - 48
        if n > (1 << 64) - 1:  # ParseUint's overflow: reported at once
            raise CronError(f"strconv.Atoi: parsing {go_quote(text)}: value out of range")
    if (not negative and n > _INT64_MAX) or (negative and n > _INT64_MAX + 1):
        raise CronError(f"strconv.Atoi: parsing {go_quote(text)}: value out of range")
    return -n if negative else n


_UNITS = {"ns": 1, "us": 1_000, "µs": 1_000, "μs": 1_000, "ms": 1_000_000, "s": _SECOND_NS,
          "m": 60 * _SECOND_NS, "h": 3600 * _SECOND_NS}


def _time_quote(text: str) -> str:
    """time's own quote(): printable ASCII as is (`"` and `\\` escaped), every byte of the rest
    as \\xNN."""
    out = ['"']
    for c in text:
        if ord(c) >= 0x80 or c < " ":
            out += [f"\\x{b:02x}" for b in c.encode()]
        else:
            out.append("\\" + c if c in '"\\' else c)
    return "".join(out) + '"'


def parse_duration(text: str) -> int:
    """time.ParseDuration, in nanoseconds."""
    def invalid(message: str = "invalid duration") -> CronError:
        return CronError(f"time: {message} {_time_quote(text)}")

    s, negative, total = text, False, 0
    if s[:1] in ("-", "+"):
        negative, s = s[0] == "-", s[1:]
    if s == "0":
        return 0
    if not s:
        raise invalid()
    while s:
        if not (s[0] == "." or "0" <= s[0] <= "9"):
            raise invalid()
        i = 0
        while i < len(s) and "0" <= s[i] <= "9":
            i += 1
        whole = int(s[:i]) if i else 0
        if whole > 1 << 63:  # leadingInt's overflow
            raise invalid()
        pre, s = i > 0, s[i:]
        fraction, scale, post = 0, 1.0, False
        if s[:1] == ".":
            s = s[1:]
            i, overflow = 0, False
            while i < len(s) and "0" <= s[i] <= "9":
                if not overflow:
                    if fraction > (_INT64_MAX) // 10 or fraction * 10 + ord(s[i]) - 48 > 1 << 63:
                        overflow = True
                    else:
                        fraction, scale = fraction * 10 + ord(s[i]) - 48, scale * 10
                i += 1
            post, s = i > 0, s[i:]
        if not pre and not post:
            raise invalid()
        i = 0
        while i < len(s) and not (s[i] == "." or "0" <= s[i] <= "9"):
            i += 1
        if i == 0:
            raise invalid("missing unit in duration")
        unit_text, s = s[:i], s[i:]
        unit = _UNITS.get(unit_text)
        if unit is None:
            raise invalid(f"unknown unit {_time_quote(unit_text)} in duration")
        if whole > (1 << 63) // unit:
            raise invalid()
        value = whole * unit
        if fraction > 0:
            value += int(float(fraction) * (float(unit) / scale))
            if value > 1 << 63:
                raise invalid()
        total += value
        if total > 1 << 63:
            raise invalid()
    if negative:
        return -total
    if total > _INT64_MAX:
        raise invalid()
    return total


def load_location_error(name: str) -> str:
    """time.LoadLocation's error text, "" when it finds the zone ("" and "UTC" are UTC,
    "Local" the local zone; kube-apiserver embeds the tz database, `time/tzdata`)."""
    if name in ("", "UTC", "Local"):
        return ""
    if ".." in name or name[0] in "/\\":  # containsDotDot, or an absolute path
        return "time: invalid location name"
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return f"unknown time zone {name}"
    return ""
