"""A CronJob's schedule and time zone as the API server validates them, with its messages.

Mirrors Kubernetes v1.37.0 `pkg/apis/batch/validation/validation.go` on create:
validateCronJobSpec (an empty or missing schedule is `field.Required`, the declarative
`+k8s:required` says the same), validateScheduleFormat (ParseCronScheduleWithPanicRecovery's
error as the detail of a field.Invalid, controllers/cron_parse.py; then "TZ" anywhere in the
schedule is refused, allowTZInSchedule being false without an old object) and validateTimeZone.
"""
from __future__ import annotations

import re
from typing import Any

from podgroup_plan.loading.documents import Document, Issue
from podgroup_plan.loading.field_errors import invalid, required

# validTimeZoneCharacters: each part of an IANA name
_ZONE_PART = re.compile(r"[A-Za-z.\-_0-9+]{1,14}")


def cron_job_issues(doc: Document) -> list[Issue]:
    spec = doc.obj.get("spec")
    if not isinstance(spec, dict):
        return []
    issues = [Issue(doc, ("spec", "schedule"), m) for m in schedule_problems(spec.get("schedule"))]
    issues += [Issue(doc, ("spec", "timeZone"), m) for m in time_zone_problems(spec.get("timeZone"))]
    return issues


def schedule_problems(schedule: Any) -> list[str]:
    """validateCronJobSpec's schedule and validateScheduleFormat."""
    if schedule is None or schedule == "":
        return [required()]
    if not isinstance(schedule, str):
        return []  # the schema reports it
    # imported here: the controllers package (numpy and all) is not loaded at startup, and a
    # run without CronJobs never needs it (tests/cli/test_cli_startup_imports.py)
    from podgroup_plan.controllers.cron_parse import CronError, parse_schedule

    problems = []
    try:
        parse_schedule(schedule)
    except CronError as e:
        problems.append(invalid(schedule, str(e)))
    if "TZ" in schedule:
        problems.append(invalid(schedule, "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"))
    return problems


def time_zone_problems(time_zone: Any) -> list[str]:
    """validateTimeZone (nil is fine)."""
    if not isinstance(time_zone, str):
        return []
    if not time_zone:
        return [invalid(time_zone, "timeZone must be nil or non-empty string")]
    for part in time_zone.split("/"):
        if part in (".", "..") or part.startswith("-") or not _ZONE_PART.fullmatch(part):
            return [invalid(time_zone, f"unknown time zone {time_zone}")]
    problems = []
    if time_zone.lower() == "local":  # strings.EqualFold
        problems.append(invalid(time_zone, "timeZone must be an explicit time zone as defined in "
                                           "https://www.iana.org/time-zones"))
    from podgroup_plan.controllers.cron_parse import load_location_error

    problem = load_location_error(time_zone)
    if problem:
        problems.append(invalid(time_zone, problem))
    return problems
