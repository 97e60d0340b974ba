"""A CronJob's schedule and time zone get batch validation's texts (validate_cron.py); the
expected lines are kube-apiserver v1.37.2's (dry-run creates of the same CronJobs)."""
from __future__ import annotations

import pytest
import yaml

NODE = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n0"},
        "status": {"allocatable": {"cpu": "8", "memory": "16Gi", "pods": "110"}}}
TZ_IN_SCHEDULE = "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"


def _cron(**spec) -> dict:
    job = {"spec": {"template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "x"}]}}}}
    return {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": {"name": "c", "namespace": "a"},
            "spec": {**spec, "jobTemplate": job}}


def _problems(manifests, cron: dict) -> list[str]:
    manifests.write("m.yaml", yaml.safe_dump_all([NODE, cron], sort_keys=False))
    return [p.split(": ", 2)[2] for p in manifests.problems("m.yaml")]


@pytest.mark.parametrize("spec", [{}, {"schedule": ""}])
def test_an_empty_or_missing_schedule_is_required(manifests, spec):
    """validateCronJobSpec: field.Required (was our 'must not be empty'); the object's other
    problems come with it."""
    assert _problems(manifests, _cron(**spec, timeZone="")) == [
        "spec.schedule: Required value",
        'spec.timeZone: Invalid value: "": timeZone must be nil or non-empty string',
    ]


@pytest.mark.parametrize("schedule, said", [
    ("a b c", ['Invalid value: "a b c": expected exactly 5 fields, found 3: [a b c]']),
    ("TZ=UTC 0 * * * *", [f'Invalid value: "TZ=UTC 0 * * * *": {TZ_IN_SCHEDULE}']),
    ("TZ=UTC", ['Invalid value: "TZ=UTC": invalid schedule format: runtime error: slice bounds out of range [:-1]',
                f'Invalid value: "TZ=UTC": {TZ_IN_SCHEDULE}']),
    ("CRON_TZ=Mars/Olympus 0 * * * *",
     ['Invalid value: "CRON_TZ=Mars/Olympus 0 * * * *": provided bad location Mars/Olympus: '
      "unknown time zone Mars/Olympus",
      f'Invalid value: "CRON_TZ=Mars/Olympus 0 * * * *": {TZ_IN_SCHEDULE}']),
    ("0 * * * * TZ", ['Invalid value: "0 * * * * TZ": expected exactly 5 fields, found 6: [0 * * * * TZ]',
                      f'Invalid value: "0 * * * * TZ": {TZ_IN_SCHEDULE}']),
    ("@every 5", ['Invalid value: "@every 5": failed to parse duration @every 5: time: missing unit in duration "5"']),
    ("*/15 * * * 1-5", []),
    ("@hourly", []),
])
def test_schedules(manifests, schedule, said):
    """validateScheduleFormat: the parser's error, then "TZ" anywhere in the schedule."""
    cron = _cron(schedule=schedule)
    if not said:
        manifests.write("m.yaml", yaml.safe_dump_all([NODE, cron], sort_keys=False))
        manifests.load("m.yaml")
        return
    assert _problems(manifests, cron) == [f"spec.schedule: {m}" for m in said]


@pytest.mark.parametrize("zone, said", [
    ("Local", ['Invalid value: "Local": timeZone must be an explicit time zone as defined in '
               "https://www.iana.org/time-zones"]),
    ("local", ['Invalid value: "local": timeZone must be an explicit time zone as defined in '
               "https://www.iana.org/time-zones",
               'Invalid value: "local": unknown time zone local']),
    ("Mars/Olympus", ['Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus']),
    ("../etc", ['Invalid value: "../etc": unknown time zone ../etc']),
    ("-foo", ['Invalid value: "-foo": unknown time zone -foo']),
    ("abcdefghijklmnopq/x", ['Invalid value: "abcdefghijklmnopq/x": unknown time zone abcdefghijklmnopq/x']),
    ("Europe/Paris", []),
    ("America/Argentina/Buenos_Aires", []),
    ("Etc/GMT+5", []),
    ("UTC", []),
])
def test_time_zones(manifests, zone, said):
    """validateTimeZone."""
    cron = _cron(schedule="0 * * * *", timeZone=zone)
    if not said:
        manifests.write("m.yaml", yaml.safe_dump_all([NODE, cron], sort_keys=False))
        manifests.load("m.yaml")
        return
    assert _problems(manifests, cron) == [f"spec.timeZone: {m}" for m in said]
