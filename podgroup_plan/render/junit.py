"""The `simulate -o junit` rendering: JUnit XML (the Jenkins / Maven Surefire format) for CI
systems that show test reports.

One test case per PodGroup, per CompositePodGroup and per pending pod that is in no group. A case
fails (`<failure>`, with kube-scheduler's message) when the object is not `Scheduled`; a pod that
no profile schedules (`Ignored`) is `<skipped>`, since it belongs to another scheduler. Times are
always 0 so that the document is byte-identical across runs.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from podgroup_plan import KUBERNETES_VERSION, __version__
from podgroup_plan.render import common
from podgroup_plan.result import IGNORED, SCHEDULED, PlanResult

SUITE_PREFIX = "podgroup-plan"

# XML 1.0 forbids most control characters, even escaped.
_INVALID_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _clean(text: str) -> str:
    return _INVALID_XML.sub("\ufffd", text)


@dataclass(frozen=True)
class Case:
    classname: str
    name: str
    outcome: str  # "passed" | "failure" | "skipped"
    type: str = ""
    message: str = ""
    text: str = ""


def _group_cases(result: PlanResult) -> list[Case]:
    members = common.group_members(result)
    evicted_by = common.preemptors(result)
    cases = []
    for g in result.pod_groups:
        classname = f"PodGroup.{g.namespace}"
        if g.status == SCHEDULED:
            cases.append(Case(classname, g.name, "passed"))
            continue
        mine = members.get((g.namespace, g.name), [])
        detail = common.group_detail(g, mine) or ""
        lines = [f"PodGroup {common.ref(g.namespace, g.name)} is {g.status}"
                 f" ({g.scheduled_pods} of {g.scheduled_pods + g.pending_pods} pods running,"
                 f" minCount {g.min_count}).", detail]
        for pod in mine:
            if pod.status != SCHEDULED:
                why = common.pod_detail(pod, evicted_by)
                lines.append(f"pod {pod.name}: {pod.status}" + (f": {why}" if why else ""))
        cases.append(Case(classname, g.name, "failure", g.status,
                          f"{g.status}: {detail}" if detail else g.status,
                          "\n".join(x for x in lines if x)))
    return cases


def _composite_cases(result: PlanResult) -> list[Case]:
    cases = []
    for c in result.composite_pod_groups:
        classname = f"CompositePodGroup.{c.namespace}"
        if c.status == SCHEDULED:
            cases.append(Case(classname, c.name, "passed"))
        else:
            msg = f"{c.status}: {c.message}" if c.message else c.status
            cases.append(Case(classname, c.name, "failure", c.status, msg, msg))
    return cases


def _pod_cases(result: PlanResult) -> list[Case]:
    cases = []
    for p in common.pending_pods(result):
        if p.pod_group is not None:
            continue
        classname = f"Pod.{p.namespace}"
        detail = common.pod_detail(p) or ""
        if p.status == SCHEDULED:
            cases.append(Case(classname, p.name, "passed"))
        elif p.status == IGNORED:
            cases.append(Case(classname, p.name, "skipped", message=f"{IGNORED}: {detail}"))
        else:
            msg = f"{p.status}: {detail}" if detail else p.status
            text = msg + (f"\nnominated node: {p.nominated_node}" if p.nominated_node else "")
            cases.append(Case(classname, p.name, "failure", p.reason or p.status, msg, text))
    return cases


def _count(cases: list[Case], outcome: str) -> str:
    return str(sum(1 for c in cases if c.outcome == outcome))


def _suite(parent: ET.Element, name: str, cases: list[Case], result: PlanResult) -> None:
    suite = ET.SubElement(parent, "testsuite", {
        "name": f"{SUITE_PREFIX}.{name}",
        "tests": str(len(cases)),
        "failures": _count(cases, "failure"),
        "errors": "0",
        "skipped": _count(cases, "skipped"),
        "time": "0",
    })
    props = ET.SubElement(suite, "properties")
    for key, value in (("podgroup-plan.version", __version__),
                       ("kube-scheduler.version", KUBERNETES_VERSION),
                       ("feasible", str(result.feasible).lower())):
        ET.SubElement(props, "property", {"name": key, "value": value})
    for case in cases:
        el = ET.SubElement(suite, "testcase", {"name": _clean(case.name),
                                               "classname": case.classname, "time": "0"})
        if case.outcome == "failure":
            f = ET.SubElement(el, "failure", {"message": _clean(case.message), "type": case.type})
            f.text = _clean(case.text)
        elif case.outcome == "skipped":
            ET.SubElement(el, "skipped", {"message": _clean(case.message)})
    if result.notes:
        out = ET.SubElement(suite, "system-out")
        out.text = _clean("\n".join(["Notes (what the plan did not apply):"] +
                                    [f"- {n}" for n in result.notes]))


def render_junit(result: PlanResult) -> str:
    suites = [("PodGroups", _group_cases(result))]
    if result.composite_pod_groups:
        suites.append(("CompositePodGroups", _composite_cases(result)))
    suites.append(("Pods", _pod_cases(result)))
    every = [c for _, cases in suites for c in cases]
    root = ET.Element("testsuites", {
        "name": SUITE_PREFIX,
        "tests": str(len(every)),
        "failures": _count(every, "failure"),
        "errors": "0",
        "skipped": _count(every, "skipped"),
        "time": "0",
    })
    for name, cases in suites:
        _suite(root, name, cases, result)
    ET.indent(root, space="  ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
