"""`podgroup-plan validate`: check the input without planning."""
from __future__ import annotations

import typer

from podgroup_plan.cli import inputs, planning
from podgroup_plan.cli.app import EXIT_OK, PlainCommand, app
from podgroup_plan.cli.guard import guard, input_errors
from podgroup_plan.cli.options import DebugOpt, FeatureGatesOpt, PathsArg, SchedulerConfigOpt, ValidateOpt
from podgroup_plan.cli.output import write


@app.command(cls=PlainCommand)
def validate(
    paths: PathsArg,
    scheduler_config: SchedulerConfigOpt = None,
    feature_gates: FeatureGatesOpt = None,
    validate: ValidateOpt = "strict",
    debug: DebugOpt = False,
) -> None:
    """Check the input without planning.

    Lists what was read; exit 0 when valid, 2 (every problem on stderr) when not."""
    with guard(debug):
        with input_errors():
            resolved: list = []  # the configuration, resolved once while checking the input
            cluster, (config,), gates = inputs.load(paths, [scheduler_config], feature_gates, validate=validate,
                                                    resolved=resolved)
            if not resolved or resolved[0] is None:
                # no configuration anywhere: the default profile with these gates, checked as
                # plan() would resolve it (load() resolved, and so checked, any other)
                inputs.naming(scheduler_config, lambda: planning.check_config(
                    cluster, config, gates, scheduler_config))
        from podgroup_plan import loading
        from podgroup_plan.errors import escape_controls

        # --validate=warn: what kubectl would print as `Warning: unknown field ...`
        for note in cluster.input_notes:
            typer.echo(escape_controls(f"Warning: {note}"), err=True)
        # the summary names the input's kinds: shown escaped, as in every other output
        write("".join(escape_controls(line) + "\n" for line in loading.summarize(cluster))
              + "Input is valid.\n", None)
    raise typer.Exit(EXIT_OK)
