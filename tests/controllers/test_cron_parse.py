"""A CronJob's schedule is parsed as robfig/cron v3.0.1's ParseStandard parses it, inside
kube-apiserver's ParseCronScheduleWithPanicRecovery, with the same error texts
(controllers/cron_parse.py). The table's texts are kube-apiserver v1.37.2's own: each schedule
was created (dry run) and the `spec.schedule: Invalid value: "...": DETAIL` details recorded."""
from __future__ import annotations

from datetime import timedelta

import pytest

from podgroup_plan.controllers.cron_parse import CronError, atoi, parse_duration, parse_schedule

# (schedule, ParseCronScheduleWithPanicRecovery's error text, or None: parsed)
SERVER_SAYS = [
    ('a b c', 'expected exactly 5 fields, found 3: [a b c]'),
    ('* * * *', 'expected exactly 5 fields, found 4: [* * * *]'),
    ('60 * * * *', 'end of range (60) above maximum (59): 60'),
    ('* * 0 * *', 'beginning of range (0) below minimum (1): 0'),
    ('@weekday', 'unrecognized descriptor: @weekday'),
    ('5-1 * * * *', 'beginning of range (5) beyond end of range (1): 5-1'),
    ('*/0 * * * *', 'step of range should be a positive number: */0'),
    ('1-2-3 * * * *', 'too many hyphens: 1-2-3'),
    ('1/2/3 * * * *', 'too many slashes: 1/2/3'),
    ('x * * * *', 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'),
    ('-5 * * * *', 'failed to parse int from : strconv.Atoi: parsing "": invalid syntax'),
    ('* * * * -1', 'failed to parse int from : strconv.Atoi: parsing "": invalid syntax'),
    ('*/-1 * * * *', 'negative number (-1) not allowed: -1'),
    ('99999999999999999999 * * * *', 'failed to parse int from 99999999999999999999: strconv.Atoi: parsing "99999999999999999999": value out of range'),
    ('99999999999999999999x * * * *', 'failed to parse int from 99999999999999999999x: strconv.Atoi: parsing "99999999999999999999x": value out of range'),
    ('+5 * * * *', None),
    ('1,,2 * * * *', None),
    (', * * * *', None),
    ('* * * jan-foo *', 'failed to parse int from foo: strconv.Atoi: parsing "foo": invalid syntax'),
    ('* * * * MON-fri', None),
    ('* * * 13 *', 'end of range (13) above maximum (12): 13'),
    ('* 24 * * *', 'end of range (24) above maximum (23): 24'),
    ('* * 32 * *', 'end of range (32) above maximum (31): 32'),
    ('* * * * 7', 'end of range (7) above maximum (6): 7'),
    ('@every', 'unrecognized descriptor: @every'),
    ('@every ', 'failed to parse duration @every : time: invalid duration ""'),
    ('@every x', 'failed to parse duration @every x: time: invalid duration "x"'),
    ('@every 5', 'failed to parse duration @every 5: time: missing unit in duration "5"'),
    ('@every 5q', 'failed to parse duration @every 5q: time: unknown unit "q" in duration "5q"'),
    ('@every 1h ', 'failed to parse duration @every 1h : time: unknown unit "h " in duration "1h "'),
    ('@every .s', 'failed to parse duration @every .s: time: invalid duration ".s"'),
    ('@every -5m', None),
    ('@every 1.5h', None),
    ('@every 99999999999h', 'failed to parse duration @every 99999999999h: time: invalid duration "99999999999h"'),
    ('@daily ', 'unrecognized descriptor: @daily '),
    (' @daily', 'expected exactly 5 fields, found 1: [@daily]'),
    ('@DAILY', 'unrecognized descriptor: @DAILY'),
    ('@every 1µs', None),
    ('TZ=UTC', 'invalid schedule format: runtime error: slice bounds out of range [:-1]'),
    ('TZ=UTC 0 * * * *', None),
    ('CRON_TZ=Mars/Olympus 0 * * * *', 'provided bad location Mars/Olympus: unknown time zone Mars/Olympus'),
    ('TZ=../x 0 * * * *', 'provided bad location ../x: time: invalid location name'),
    ('TZ= 0 * * * *', None),
    ('0 * * * * TZ', 'expected exactly 5 fields, found 6: [0 * * * * TZ]'),
    ('  ', 'expected exactly 5 fields, found 0: []'),
    ('0\x1c* * * *', 'expected exactly 5 fields, found 4: [0\x1c* * * *]'),
    ('0 0 1 1 * extra', 'expected exactly 5 fields, found 6: [0 0 1 1 * extra]'),
    ('1-', 'expected exactly 5 fields, found 1: [1-]'),
    ('5/ * * * *', 'failed to parse int from : strconv.Atoi: parsing "": invalid syntax'),
    ('*/5x * * * *', 'failed to parse int from 5x: strconv.Atoi: parsing "5x": invalid syntax'),
    ('? ? ? ? ?', None),
    ('0 0 * * SUN', None),
    ('@every 0', None),
    ('@every +0s', None),
    ('é * * * *', 'failed to parse int from é: strconv.Atoi: parsing "é": invalid syntax'),
]


@pytest.mark.parametrize("schedule, error", SERVER_SAYS)
def test_schedule_errors_are_robfigs(schedule, error):
    if error is None:
        parse_schedule(schedule)
        return
    with pytest.raises(CronError) as raised:
        parse_schedule(schedule)
    assert str(raised.value) == error


@pytest.mark.parametrize("schedule, every", [
    ("@every 1.5h", timedelta(minutes=90)), ("@every 1µs", timedelta(seconds=1)),  # at least a second
    ("@every -5m", timedelta(seconds=1)), ("@every 2500ms", timedelta(seconds=2)),  # whole seconds (Every)
    ("@every 1h30m", timedelta(minutes=90)),
])
def test_every(schedule, every):
    assert parse_schedule(schedule).every == every


@pytest.mark.parametrize("text, ns", [("0", 0), ("-0", 0), ("1.5s", 1_500_000_000), ("1h1m1s", 3_661_000_000_000),
                                      ("-2ms", -2_000_000), ("+3us", 3_000), ("3μs", 3_000), (".5m", 30_000_000_000),
                                      ("5.m", 300_000_000_000), ("9223372036854775807ns", 2**63 - 1)])
def test_parse_duration(text, ns):
    """time.ParseDuration's values, in nanoseconds."""
    assert parse_duration(text) == ns


@pytest.mark.parametrize("text, error", [
    ("9223372036854775808ns", 'time: invalid duration "9223372036854775808ns"'),
    ("-9223372036854775808ns", None),
    ("1é", 'time: unknown unit "\\xc3\\xa9" in duration "1\\xc3\\xa9"'),
    ("-", 'time: invalid duration "-"'),
    ("1h.", 'time: invalid duration "1h."'),
])
def test_parse_duration_errors(text, error):
    if error is None:
        parse_duration(text)
        return
    with pytest.raises(CronError) as raised:
        parse_duration(text)
    assert str(raised.value) == error


@pytest.mark.parametrize("text, value, error", [
    ("42", 42, None), ("+7", 7, None), ("-7", -7, None), ("9223372036854775807", 2**63 - 1, None),
    ("-9223372036854775808", -(2**63), None),
    ("9223372036854775808", None, 'strconv.Atoi: parsing "9223372036854775808": value out of range'),
    ("", None, 'strconv.Atoi: parsing "": invalid syntax'),
    ("+", None, 'strconv.Atoi: parsing "+": invalid syntax'),
    ("1_000", None, 'strconv.Atoi: parsing "1_000": invalid syntax'),
    ("a\tb", None, 'strconv.Atoi: parsing "a\\tb": invalid syntax'),
])
def test_atoi(text, value, error):
    """strconv.Atoi on a 64-bit machine: its values and its errors' texts."""
    if error is None:
        assert atoi(text) == value
        return
    with pytest.raises(CronError) as raised:
        atoi(text)
    assert str(raised.value) == error
