"""`podgroup-plan deanonymize`: a result planned on an anonymised snapshot, names mapped back."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from podgroup_plan.cli.app import EXIT_INPUT, EXIT_OK, PlainCommand, app
from podgroup_plan.cli.guard import guard
from podgroup_plan.cli.live_input import live_errors
from podgroup_plan.cli.options import DebugOpt, OutputFileOpt
from podgroup_plan.cli.output import write


@app.command(cls=PlainCommand)
def deanonymize(
    plan: Annotated[Path, typer.Argument(
        metavar="PLAN.json", show_default=False, dir_okay=False,
        help="A JSON document podgroup-plan wrote (simulate, headroom, what-if, explain, diff -o json) "
             "from an anonymised snapshot; '-' reads stdin.")],
    key_file: Annotated[Path, typer.Option(
        "--key-file", metavar="FILE", dir_okay=False, show_default=False,
        help="The key file `snapshot --anonymize` wrote.")],
    output_file: OutputFileOpt = None,
    debug: DebugOpt = False,
) -> None:
    """Map the names of a result planned on an anonymised snapshot back to the cluster's.

    Every token the key file gave is replaced, wherever it appears (names, references, messages).
    Exit 0 when written, 2 on bad input."""
    with guard(debug):
        import sys

        import orjson

        from podgroup_plan.live.anonymize import KeyFile
        from podgroup_plan.live.anonymize import deanonymize as mapped

        with live_errors():
            keys = KeyFile.read(str(key_file))
        try:
            data = sys.stdin.buffer.read() if str(plan) == "-" else plan.read_bytes()
            doc = orjson.loads(data)
        except OSError as err:
            typer.echo(f"podgroup-plan: {plan}: cannot read it ({err.strerror or err})", err=True)
            raise typer.Exit(EXIT_INPUT) from None
        except orjson.JSONDecodeError as err:
            typer.echo(f"podgroup-plan: {plan}: not JSON ({err}); deanonymize reads -o json output", err=True)
            raise typer.Exit(EXIT_INPUT) from None
        if output_file is not None and str(plan) != "-" and output_file.resolve() == plan.resolve():
            typer.echo(f"podgroup-plan: --output-file names the input {plan}; choose another file", err=True)
            raise typer.Exit(EXIT_INPUT)
        text = orjson.dumps(mapped(doc, keys.names), option=orjson.OPT_INDENT_2).decode() + "\n"
        write(text, output_file)
    raise typer.Exit(EXIT_OK)
