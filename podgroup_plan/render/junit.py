"""The `simulate -o junit` rendering: JUnit XML (the Jenkins / Maven Surefire format) for CI
systems that show test reports.

One test case per PodGroup, per CompositePodGroup, and per pending pod (in a group or not,
`Waiting` ones included) and per pod the plan evicts. A case fails (`<failure>`, with
kube-scheduler's message) exactly when its object makes one of the `--fail-on` conditions hold
(`fail_on.py`, which also decides the exit code); without `--fail-on` every condition counts.
Any other object that did not end `Scheduled` (a Waiting pod under `--fail-on unschedulable`, a
pod of another scheduler) is `<skipped>` with its status and message, so the report still says
what happened to it. Times are always 0 so that the document is byte-identical across runs.

Pods and PodGroups that have an owner (a Job, JobSet, Deployment, ReplicaSet, StatefulSet,
DaemonSet, an operator's object: the top of their chain of controlling owners, made by
expansion or in the input with such an owner) are reported in one test case per owner instead
(suite `Owners`), failing when any of them makes a wanted condition hold: a CI job asks "does my
Job fit?", not 64 questions about its pods. Inside a case, pods with the same status and message
share one line (`40 pods (a, b, c, … +37 more): Unschedulable: ...`).
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable

from podgroup_plan import KUBERNETES_VERSION, __version__
from podgroup_plan.fail_on import CONDITIONS, group_conditions, pod_conditions
from podgroup_plan.render import common
from podgroup_plan.result import SCHEDULED, PlanResult, PodResult

if TYPE_CHECKING:
    from podgroup_plan.render.registry import RenderOptions

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


def _by_name(items: Iterable) -> list:
    """Cases in the result's own order (namespace, then name, as strings): CI report viewers
    sort cases themselves, and a natural sort of 50,000 pods would cost a second."""
    return sorted(items, key=lambda x: (x.namespace, x.name))


def _outcome(conditions: list[str], wanted: frozenset[str], status: str) -> str:
    if any(c in wanted for c in conditions):
        return "failure"
    return "passed" if status == SCHEDULED else "skipped"


def _job_owner(result: PlanResult, namespace: str, root) -> tuple[str, str, str] | None:
    """The owner whose case reports an object: any kind (a 4,500-replica Deployment is one case)."""
    return (root.kind, namespace, root.name) if root is not None else None


def _group_owner(result: PlanResult, g) -> tuple[str, str, str] | None:
    return _job_owner(result, g.namespace, result.group_owner(g.namespace, g.name))


def _pod_owner(result: PlanResult, p) -> tuple[str, str, str] | None:
    return _job_owner(result, p.namespace, result.root_owner(p.namespace, p.owner))


def _owner_cases(result: PlanResult, wanted: frozenset[str]) -> list[Case]:
    """One case per owning Job or JobSet: failed when one of its PodGroups or pods makes a
    wanted condition hold, with each of those and its outcome."""
    groups: dict[tuple[str, str, str], list] = {}
    pods: dict[tuple[str, str, str], list[PodResult]] = {}
    for g in _by_name(result.pod_groups):
        if (owner := _group_owner(result, g)) is not None:
            groups.setdefault(owner, []).append(g)
    for p in _by_name(result.pods):
        if (owner := _pod_owner(result, p)) is not None:
            pods.setdefault(owner, []).append(p)
    evicted_by = common.preemptors(result)
    cases = []
    for owner in sorted(set(groups) | set(pods)):
        kind, namespace, name = owner
        mine = pods.get(owner, [])
        bad_groups = [g for g in groups.get(owner, []) if any(c in wanted for c in group_conditions(g))]
        bad_pods = [p for p in mine if any(c in wanted for c in pod_conditions(p))]
        summary = f"{common.owner_text(kind, namespace, name)}: {common.owner_counts(mine)}"
        if not bad_groups and not bad_pods:
            done = all(p.status == SCHEDULED for p in mine)
            cases.append(Case(f"{kind}.{namespace}", name, "passed" if done else "skipped",
                              message="" if done else summary))
            continue
        lines = [summary]
        for g in bad_groups:
            detail = common.group_detail(g, [p for p in mine if p.pod_group == g.name]) or ""
            lines.append(f"PodGroup {g.name}: {g.status}" + (f": {detail}" if detail else ""))
        for (status, why), same in common.fold(bad_pods, lambda p: (p.status, common.pod_detail(p, evicted_by) or "")):
            names = [p.name for p in same]
            who = f"pod {names[0]}" if len(same) == 1 else f"{len(same)} pods ({common.name_list(names)})"
            lines.append(f"{who}: {status}" + (f": {why}" if why else ""))
        status = bad_groups[0].status if bad_groups else bad_pods[0].status
        cases.append(Case(f"{kind}.{namespace}", name, "failure", status, summary, "\n".join(lines)))
    return cases


def _group_cases(result: PlanResult, wanted: frozenset[str]) -> list[Case]:
    members = common.group_members(result)
    evicted_by = common.preemptors(result)
    cases = []
    for g in _by_name(result.pod_groups):
        if _group_owner(result, g) is not None:
            continue  # in its Job's case (_owner_cases)
        classname = f"PodGroup.{g.namespace}"
        outcome = _outcome(group_conditions(g), wanted, g.status)
        if outcome == "passed":
            cases.append(Case(classname, g.name, "passed"))
            continue
        mine = members.get((g.namespace, g.name), [])
        detail = common.group_detail(g, mine) or ""
        lines = [f"PodGroup {common.ref(g.namespace, g.name)} is {g.status}"
                 f" ({g.scheduled_pods} of minCount {g.min_count} pods scheduled,"
                 f" {g.pending_pods} pending).", detail]
        lines += [f"condition {c.type}={c.status} ({c.reason})" + (f": {c.message}" if c.message else "")
                  for c in g.conditions]
        for pod in mine:
            if pod.status != SCHEDULED:
                why = common.pod_detail(pod, evicted_by)
                lines.append(f"pod {pod.name}: {pod.status}" + (f": {why}" if why else ""))
        message = f"{g.status}: {detail}" if detail else g.status
        cases.append(Case(classname, g.name, outcome, g.status, message,
                          "\n".join(x for x in lines if x)))
    return cases


def _composite_cases(result: PlanResult, wanted: frozenset[str]) -> list[Case]:
    cases = []
    for c in _by_name(result.composite_pod_groups):
        classname = f"CompositePodGroup.{c.namespace}"
        outcome = _outcome(group_conditions(c), wanted, c.status)
        if outcome == "passed":
            cases.append(Case(classname, c.name, "passed"))
        else:
            msg = f"{c.status}: {c.message}" if c.message else c.status
            cases.append(Case(classname, c.name, outcome, c.status, msg, msg))
    return cases


def _pod_cases(result: PlanResult, wanted: frozenset[str]) -> list[Case]:
    """Every pod of the result (pending ones and evicted ones), and any victim it lacks."""
    evicted_by = common.preemptors(result)
    violates = {(v.namespace, v.name): v.pdbs for v in result.victims if v.pdbs}
    pods = list(result.pods)
    listed = {(p.namespace, p.name) for p in pods}
    pods += [PodResult(v.namespace, v.name, v.pod_group, "Preempted", node=v.node)
             for v in result.victims if (v.namespace, v.name) not in listed]
    cases = []
    for p in _by_name(pods):
        if _pod_owner(result, p) is not None:
            continue  # in its Job's case (_owner_cases)
        classname = f"Pod.{p.namespace}"
        outcome = _outcome(pod_conditions(p), wanted, p.status)
        if outcome == "passed":
            cases.append(Case(classname, p.name, "passed"))
            continue
        detail = common.pod_detail(p, evicted_by) or ""
        msg = f"{p.status}: {detail}" if detail else p.status
        extra = [f"PodGroup: {p.pod_group}" if p.pod_group else "",
                 f"node: {p.node}" if p.node else "",
                 f"nominated node: {p.nominated_node}" if p.nominated_node else "",
                 f"violates PodDisruptionBudget: {', '.join(violates[(p.namespace, p.name)])}"
                 if (p.namespace, p.name) in violates else ""]
        text = "\n".join([msg] + [x for x in extra if x])
        cases.append(Case(classname, p.name, outcome, p.reason or p.status, msg, text))
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


def render_junit(result: PlanResult, fail_on: Iterable[str] | None = None) -> str:
    """`fail_on`: the `--fail-on` conditions given (None or empty: every condition)."""
    wanted = frozenset(str(getattr(c, "value", c)) for c in (fail_on or ())) or frozenset(CONDITIONS)
    suites = [("PodGroups", _group_cases(result, wanted))]
    if result.composite_pod_groups:
        suites.append(("CompositePodGroups", _composite_cases(result, wanted)))
    suites.append(("Pods", _pod_cases(result, wanted)))
    owner_cases = _owner_cases(result, wanted)
    if owner_cases:
        suites.append(("Owners", owner_cases))
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


def render_text(result: PlanResult, options: RenderOptions) -> str:
    """The registry's entry (render/registry.py): the report for the `--fail-on` given."""
    return render_junit(result, list(options.fail_on))
