"""A command's document, rendered in the format `-o` chose (render/registry.py) and written:
printed by the format's terminal renderer when the output goes to a terminal and it has one
(colour, the console's width), else written as text (output.py)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from podgroup_plan.cli.output import table_width, to_stdout, to_terminal, write
from podgroup_plan.render import registry
from podgroup_plan.render.registry import RenderOptions


def emit(document: str, output: str, value: Any, output_file: Path | None,
         options: RenderOptions) -> None:
    """`value`, a `document` (registry.RESULT, DIFF or EXPLANATION), in format `output`, to
    `output_file` or standard output."""
    terminal = registry.terminal_renderer(document, output) if to_terminal(output_file) else None
    if terminal is not None:
        from rich.console import Console

        to_stdout(lambda: terminal(value, Console(highlight=False, width=table_width()), options))
        return
    write(registry.render_text(document, output, value, options), output_file)


def options(**given: Any) -> RenderOptions:
    """The renderers' options, at the contract's table width."""
    return RenderOptions(width=table_width(), **given)
