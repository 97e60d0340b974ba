"""The output formats: for each kind of document a command writes, format name -> renderer.

A new output format is one renderer module plus one line here; the command's `-o` choices (their
order, the help's `table|json|...` and the words of a wrong choice) come from this table. A
renderer is named by `module:function` and imported only when chosen, so that start-up pays
for no renderer, nor for what one imports (rich, XML, ...).

    text(document, options) -> str                 the output as text (a file, a pipe, tests)
    terminal(document, console, options) -> None   optional: printed on a terminal (rich
                                                   console, colour, the console's width); used
                                                   when the output goes to a terminal

The documents: RESULT a `PlanResult` (`simulate`), DIFF and EXPLANATION the plain dicts that
`diff.diff_plans` and `explain.explain` build, WHAT_IF the dict of `analyses.what_if.sweep.assemble`,
HEADROOM that of `analyses.headroom.report`, REPLAY that of `analyses.replay.report` (a
`--config-b` comparison holds two).

Nothing from the input reaches a terminal raw (issue 25): every format but an `exact` one (JSON,
YAML: strings as they are, under their own escaping) is handed its document and options with
every control character escaped (`render/escape.py`), before it measures a width. That happens
here, for every format, so a new one cannot forget it.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Mapping

if TYPE_CHECKING:
    from rich.console import Console

RESULT = "result"
DIFF = "diff"
EXPLANATION = "explanation"
WHAT_IF = "what-if"
HEADROOM = "headroom"
REPLAY = "replay"


@dataclass(frozen=True)
class RenderOptions:
    """What a command tells every renderer; each takes what it uses. `width`: the table width
    (contract.md: COLUMNS, the terminal's, else 80); `pods`: `--pods`; `configuration`: how the
    header names the configuration used; `fail_on`: the `--fail-on` conditions given;
    `label_a`/`label_b`: how a diff names its two configurations; `capacity`: `--capacity`
    (the table's GPU fragmentation section); `plans`: the PlanResults behind a document, for a
    renderer that draws them (html): a diff's A and B, a what-if sweep's unchanged plan."""

    width: int = 80
    pods: str = "pending"
    configuration: str | None = None
    fail_on: tuple[str, ...] = ()
    label_a: str = "A"
    label_b: str = "B"
    capacity: bool = False
    plans: tuple[Any, ...] | None = None
    # the feature gates the user set (--feature-gates): the header names those as the user's and
    # the others of the result's featureGates as the planner's defaults
    user_gates: tuple[str, ...] = ()


@dataclass(frozen=True)
class Format:
    name: str
    text: str  # "module:function", (document, RenderOptions) -> str
    terminal: str | None = None  # "module:function", (document, Console, RenderOptions) -> None
    exact: bool = False  # strings as they are (JSON, YAML); else shown escaped


def _formats(*formats: Format) -> dict[str, Format]:
    return {f.name: f for f in formats}


# The order is the order of the choices in the help and in the answer to a wrong one.
FORMATS: Mapping[str, Mapping[str, Format]] = {
    RESULT: _formats(
        Format("table", "podgroup_plan.render.table:render_text",
               terminal="podgroup_plan.render.table:render_terminal"),
        Format("json", "podgroup_plan.render.json_yaml:render_result_json", exact=True),
        Format("yaml", "podgroup_plan.render.json_yaml:render_result_yaml", exact=True),
        Format("markdown", "podgroup_plan.render.markdown:render_text"),
        Format("junit", "podgroup_plan.render.junit:render_text"),
        Format("html", "podgroup_plan.render.html:render_result"),
    ),
    DIFF: _formats(
        Format("table", "podgroup_plan.render.diff_table:render_text",
               terminal="podgroup_plan.render.diff_table:render_terminal"),
        Format("json", "podgroup_plan.render.json_yaml:render_document_json", exact=True),
        Format("markdown", "podgroup_plan.render.diff_markdown:render_text"),
        Format("html", "podgroup_plan.render.html:render_diff"),
    ),
    EXPLANATION: _formats(
        Format("table", "podgroup_plan.render.explain_table:render_text"),
        Format("json", "podgroup_plan.render.json_yaml:render_document_json", exact=True),
    ),
    WHAT_IF: _formats(
        Format("table", "podgroup_plan.render.what_if:render_text",
               terminal="podgroup_plan.render.what_if:render_terminal"),
        Format("json", "podgroup_plan.render.json_yaml:render_document_json", exact=True),
        Format("markdown", "podgroup_plan.render.what_if:render_markdown"),
        Format("html", "podgroup_plan.render.html:render_what_if"),
    ),
    HEADROOM: _formats(
        Format("table", "podgroup_plan.render.headroom:render_text"),
        Format("json", "podgroup_plan.render.json_yaml:render_document_json", exact=True),
        Format("markdown", "podgroup_plan.render.headroom:render_markdown"),
    ),
    REPLAY: _formats(
        Format("table", "podgroup_plan.render.replay:render_text"),
        Format("json", "podgroup_plan.render.json_yaml:render_document_json", exact=True),
        Format("markdown", "podgroup_plan.render.replay:render_markdown"),
        Format("csv", "podgroup_plan.render.replay:render_csv"),
        Format("html", "podgroup_plan.render.replay_html:render_text"),
    ),
}


def choices(document: str) -> list[str]:
    """The format names for `document`, in order (the `-o` choices)."""
    return list(FORMATS[document])


def _function(target: str) -> Callable[..., Any]:
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


def render_text(document: str, name: str, value: Any, options: RenderOptions) -> str:
    """`value` in format `name` as text."""
    found = FORMATS[document][name]
    if not found.exact:
        value, options = _shown(value, options)
    return _function(found.text)(value, options)


def terminal_renderer(document: str, name: str
                      ) -> Callable[[Any, Console, RenderOptions], None] | None:
    """The renderer that prints format `name` on a terminal, or None when it has none (then
    its text is written, as to a file)."""
    found = FORMATS[document][name]
    if found.terminal is None:
        return None
    render = _function(found.terminal)
    if found.exact:
        return render

    def escaped(value: Any, console: Console, options: RenderOptions) -> None:
        value, options = _shown(value, options)
        render(value, console, options)

    return escaped


def _shown(value: Any, options: RenderOptions) -> tuple[Any, RenderOptions]:
    from podgroup_plan.render.escape import for_display

    return for_display(value), for_display(options)
