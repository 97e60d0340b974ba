"""JUnit XML: valid against the Jenkins/Surefire schema, one case per group and single pod,
counts that add up, failures that carry kube-scheduler's message, byte-stable."""
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import sample_plans
from podgroup_plan.render.junit import render_junit
from podgroup_plan.result import PlanResult, PodResult, Summary

XSD = Path(__file__).with_name("junit.xsd")
SAMPLES = [sample_plans.mixed, sample_plans.feasible, sample_plans.with_composite,
           sample_plans.only_waiting, sample_plans.only_preemption]


@pytest.fixture(scope="module")
def schema():
    xmlschema = pytest.importorskip("xmlschema", reason="test extra: pip install '.[test]'")
    return xmlschema.XMLSchema(str(XSD))


@pytest.mark.parametrize("make", SAMPLES, ids=lambda f: f.__name__)
def test_valid_against_junit_xsd(schema, make):
    schema.validate(render_junit(make()))


def test_schema_rejects_what_it_should(schema):
    assert not schema.is_valid('<testsuites><testsuite name="s" tests="x"/></testsuites>')
    assert not schema.is_valid('<testsuite name="s"/>')  # tests is required
    assert not schema.is_valid(
        '<testsuites><testsuite name="s" tests="1"><testcase name="a" classname="c">'
        '<failure/><skipped/></testcase></testsuite></testsuites>')


def cases(root):
    return {(c.get("classname"), c.get("name")): c for c in root.iter("testcase")}


@pytest.mark.parametrize("make", SAMPLES, ids=lambda f: f.__name__)
def test_counts_add_up(make):
    """Checked by hand too, so the structure holds even without xmlschema."""
    root = ET.fromstring(render_junit(make()))
    assert root.tag == "testsuites"
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for suite in root.findall("testsuite"):
        tcs = suite.findall("testcase")
        assert int(suite.get("tests")) == len(tcs)
        assert int(suite.get("failures")) == sum(1 for c in tcs if c.find("failure") is not None)
        assert int(suite.get("skipped")) == sum(1 for c in tcs if c.find("skipped") is not None)
        assert int(suite.get("errors")) == 0
        for c in tcs:
            assert c.get("name") and c.get("classname")
            assert len(list(c)) <= 1
        for key in totals:
            totals[key] += int(suite.get(key))
    for key, value in totals.items():
        assert int(root.get(key)) == value


def test_one_case_per_group_and_every_pod():
    root = ET.fromstring(render_junit(sample_plans.mixed()))
    got = cases(root)
    plan = sample_plans.mixed()
    assert set(got) == {(f"PodGroup.{g.namespace}", g.name) for g in plan.pod_groups} | \
        {(f"Pod.{p.namespace}", p.name) for p in plan.pods}
    assert list(got[("PodGroup.ml", "train-a")]) == []
    assert list(got[("Pod.default", "web-1")]) == []
    # Waiting pods (of a group that has too few pods) fail like their group
    assert got[("Pod.ml", "infer-0")].find("failure").get("type") == "Waiting"
    assert got[("Pod.default", "low-1")].find("failure").get("message") == \
        "Preempted: preempted by PodGroup ml/train-a"


def test_pods_waiting_for_a_missing_group_are_cases():
    got = cases(ET.fromstring(render_junit(sample_plans.only_waiting())))
    failure = got[("Pod.default", "w-0")].find("failure")
    assert failure.get("message") == "Waiting: pod group default/missing not found"


def failing(xml: str) -> set:
    return {key for key, case in cases(ET.fromstring(xml)).items() if case.find("failure") is not None}


@pytest.mark.parametrize("make", SAMPLES + [sample_plans.preempted_group], ids=lambda f: f.__name__)
@pytest.mark.parametrize("fail_on", [["unschedulable"], ["waiting"], ["preemption"],
                                     ["unschedulable", "waiting"], ["waiting", "preemption"],
                                     ["unschedulable", "waiting", "preemption"]],
                         ids=lambda f: "+".join(f))
def test_cases_fail_exactly_when_fail_on_would(make, fail_on):
    from podgroup_plan.cli.fail_on import fail_conditions

    plan = make()
    assert bool(failing(render_junit(plan, fail_on))) == bool(fail_conditions(plan, fail_on))


def test_without_fail_on_every_condition_counts():
    plan = sample_plans.mixed()
    every = ["unschedulable", "waiting", "preemption"]
    assert render_junit(plan) == render_junit(plan, every)
    only = failing(render_junit(plan, ["unschedulable"]))
    assert ("Pod.ml", "infer-0") not in only and ("Pod.ml", "train-b-0") in only
    skipped = cases(ET.fromstring(render_junit(plan, ["unschedulable"])))[("Pod.ml", "infer-0")]
    assert skipped.find("skipped").get("message").startswith("Waiting: ")


def test_failures_carry_the_scheduler_message():
    got = cases(ET.fromstring(render_junit(sample_plans.mixed())))
    failure = got[("PodGroup.ml", "train-b")].find("failure")
    assert failure.get("type") == "Unschedulable"
    assert failure.get("message") == f"Unschedulable: {sample_plans.GANG_MSG}"
    assert "pod train-b-3: Unschedulable: " + sample_plans.GANG_MSG in failure.text
    pod = got[("Pod.default", "batch-x")].find("failure")
    assert pod.get("message") == f"Unschedulable: {sample_plans.NODE_MSG}"
    waiting = got[("PodGroup.ml", "infer")].find("failure")
    assert waiting.get("type") == "Waiting"


def test_ignored_pod_is_skipped_not_failed():
    got = cases(ET.fromstring(render_junit(sample_plans.mixed())))
    case = got[("Pod.default", "other-sched")]
    assert case.find("failure") is None
    assert case.find("skipped").get("message").startswith("Ignored")


def test_composite_groups_are_cases_too():
    got = cases(ET.fromstring(render_junit(sample_plans.with_composite())))
    # Invalid is no --fail-on condition of its own: reported, not failed
    assert got[("CompositePodGroup.ml", "loop")].find("skipped").get("message") == \
        "Invalid: composite pod group hierarchy has a cycle"
    assert list(got[("CompositePodGroup.ml", "job")]) == []


def test_notes_and_versions_are_in_the_report():
    root = ET.fromstring(render_junit(sample_plans.mixed()))
    suite = root.find("testsuite")
    props = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert props["kube-scheduler.version"] == "v1.37.0" and props["feasible"] == "false"
    assert "Volumes are not modelled" in suite.find("system-out").text


def test_deterministic_and_declared_utf8():
    text = render_junit(sample_plans.mixed())
    assert text == render_junit(sample_plans.mixed())
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')
    assert 'time="0"' in text


def test_control_characters_do_not_break_the_xml():
    pods = (PodResult("default", "odd", None, "Unschedulable", reason="Unschedulable",
                      message="bad \x01 byte & <tag>"),)
    text = render_junit(PlanResult(Summary(nodes=1, pods_unschedulable=1), pods))
    failure = ET.fromstring(text).find(".//failure")
    assert failure.get("message") == "Unschedulable: bad \ufffd byte & <tag>"


def test_preempted_group_fails_with_its_disruption_message(schema):
    text = render_junit(sample_plans.preempted_group())
    schema.validate(text)
    got = cases(ET.fromstring(text))
    failure = got[("PodGroup.ml", "old")].find("failure")
    assert failure.get("type") == "Preempted"
    assert failure.get("message") == "Preempted: preempted by PodGroup ml/urgent"
    assert list(got[("PodGroup.ml", "urgent")]) == []


def test_empty_plan_is_valid(schema):
    text = render_junit(sample_plans.empty())
    schema.validate(text)
    assert ET.fromstring(text).get("tests") == "0"
