"""No control character from the input reaches a terminal through a human-readable output
(issue 25): the one escaping function (`errors.escape_controls`) and the copy every renderer is
handed (`render.escape.for_display`)."""
from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ET

import pytest

from podgroup_plan.errors import Problem, escape_controls
from podgroup_plan.render import registry
from podgroup_plan.render.escape import for_display, has_controls
from podgroup_plan.render.registry import RenderOptions
from podgroup_plan.result import (
    ConditionResult,
    CompositePodGroupResult,
    OwnerRef,
    PlacementResults,
    PlanResult,
    PodGroupResult,
    PodResult,
    Summary,
)

# Every character that must never be printed raw: C0, DEL, C1, line/paragraph separators,
# bidi marks, embeddings, overrides and isolates.
RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
HOSTILE = "x\x1b]0;owned\x07\x1b[2J\x9b31m\x7f\u202e\u2066\u2028\r\n• all pods scheduled\t"
EVERY_CONTROL = ("".join(chr(c) for c in range(0x20)) + "".join(chr(c) for c in range(0x7f, 0xa0))
                 + "\u061c\u200e\u200f\u2028\u2029" + "".join(chr(c) for c in range(0x202a, 0x202f))
                 + "".join(chr(c) for c in range(0x2066, 0x206a)))


def test_every_control_character_is_escaped_and_nothing_else():
    shown = escape_controls(EVERY_CONTROL)
    assert shown.isascii() and shown.isprintable()
    assert shown.startswith("\\x00\\x01") and "\\n" in shown and "\\t" in shown and "\\r" in shown
    assert "\\x1b" in shown and "\\x7f" in shown and "\\x9b" in shown and "\\u202e" in shown
    assert "\\u2069" in shown and "\\u2028" in shown and "\\u061c" in shown
    kept = "plain é 中 🙂 ‐ – — \u00a0 back\\slash"
    assert escape_controls(kept) is kept


def test_a_problem_line_escapes_every_field():
    problem = Problem("dir/\x1bfile.yaml", f"invalid value {HOSTILE!s}", line=3, kind="K\u202e",
                      namespace="n\x07", name="p\n", path="metadata.labels[a\x1b]")
    text = str(problem)
    assert RAW.search(text) is None and "\n" not in text
    assert text.startswith("dir/\\x1bfile.yaml:3: K\\u202e n\\x07/p\\n: metadata.labels[a\\x1b]: ")


def _hostile_result() -> PlanResult:
    h = HOSTILE
    condition = ConditionResult("PodGroupInitiallyScheduled", "False", "Unschedulable", "m" + h)
    placements = PlacementResults(["rack" + h], [2], [True], [False], [None], ["why" + h], [None], {}, None)
    pods = (PodResult("ns" + h, "pod" + h, "group" + h, "Unschedulable", reason="Unschedulable",
                      message="0/1 nodes" + h, owner=OwnerRef("Job" + h, "job" + h)),
            PodResult("ns", "ok", None, "Scheduled", node="node" + h),
            PodResult("ns", "fine", None, "Scheduled", node="node"))
    groups = (PodGroupResult("ns" + h, "group" + h, "Gang", 2, "topo" + h, None, 0, 1,
                             "Unschedulable", (condition,), placements),)
    composites = (CompositePodGroupResult("ns" + h, "root" + h, None, "Gang", 1, None,
                                          "Unschedulable", "msg" + h),)
    return PlanResult(Summary(nodes=1, pods_scheduled=2, pods_unschedulable=1,
                              pod_groups_unschedulable=1),
                      pods, groups, composites, notes=("input kinds not planned: Kind" + h,),
                      owner_parents={("ns" + h, "Job" + h, "job" + h): ("JobSet" + h, "set" + h)},
                      group_parents={("ns" + h, "group" + h): "root" + h})


def test_a_result_without_control_characters_is_not_copied():
    result = dataclasses.replace(_hostile_result(), pods=(), pod_groups=(), composite_pod_groups=(),
                                 notes=("fine",), owner_parents={}, group_parents={})
    assert not has_controls(result)
    assert for_display(result) is result


def test_every_string_of_a_result_is_escaped_keys_and_columns_included():
    result = _hostile_result()
    assert has_controls(result)
    shown = for_display(result)
    assert not has_controls(shown)
    assert shown.pods[0].owner.name == "job" + escape_controls(HOSTILE)
    assert shown.pods[2] is result.pods[2]  # what needed nothing is shared, not copied
    assert shown.pod_groups[0].placements[0].message == "why" + escape_controls(HOSTILE)
    assert list(shown.owner_parents) == [(f"ns{escape_controls(HOSTILE)}", f"Job{escape_controls(HOSTILE)}",
                                          f"job{escape_controls(HOSTILE)}")]
    # each kind of value is found wherever it is
    for value in ({"k\x1b": 1}, [("a", ["b\u202e"])], PlacementResults([None], [1], [True], [True], [1],
                                                                         ["\x85"], [1], {"s": [1]}, 0)):
        assert has_controls(value) and not has_controls(for_display(value))


def _every_format(document: str, value, options: RenderOptions):
    """(format, text) of every format of `document` through the registry, the terminal
    renderings included (recorded from a rich console)."""
    from rich.console import Console

    for name, found in registry.FORMATS[document].items():
        try:
            text = registry.render_text(document, name, value, options)
        except ImportError:  # a format whose library is not installed here (html: Jinja2)
            continue
        yield name, found.exact, text
        terminal = registry.terminal_renderer(document, name)
        if terminal is not None:
            console = Console(record=True, width=options.width, force_terminal=True, color_system=None)
            with console.capture() as captured:
                terminal(value, console, options)
            yield name + " (terminal)", found.exact, captured.get()


def test_every_format_but_json_and_yaml_escapes_through_the_registry():
    result = _hostile_result()
    options = RenderOptions(width=80, pods="all", configuration="cfg\x1b[2J.yaml", fail_on=("waiting",))
    names = []
    for name, exact, text in _every_format(registry.RESULT, result, options):
        names.append(name)
        if exact:  # strings as they are, under JSON's and YAML's own escaping
            assert "\\u001b]0;owned" in text and "\u202e" in text
            continue
        assert RAW.search(text) is None, (name, repr(RAW.search(text)))
        assert "\\x1b]0;owned\\x07\\x1b[2J" in text, name
        assert "\n• all pods scheduled" not in text, name  # no forged line
    assert names[:6] == ["table", "table (terminal)", "json", "yaml", "markdown", "junit"]
    ET.fromstring(registry.render_text(registry.RESULT, "junit", result, options))  # well-formed


def test_diff_documents_are_escaped_in_every_format():
    from podgroup_plan.diff import diff_plans

    a = _hostile_result()
    b = dataclasses.replace(a, pods=a.pods[:1], notes=("other" + HOSTILE,))
    doc = diff_plans(a, b)
    assert has_controls(doc)
    options = RenderOptions(width=80, label_a="a" + HOSTILE, label_b="b", plans=(a, b))
    for name, exact, text in _every_format(registry.DIFF, doc, options):
        if not exact:
            assert RAW.search(text) is None, (name, repr(RAW.search(text)))
            assert "\\x1b]0;owned" in text
