"""`podgroup-plan diff`: plan under configurations A and B, show what differs."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from podgroup_plan.cli import emit, inputs, planning
from podgroup_plan.cli.app import EXIT_CONDITION, EXIT_OK, PlainCommand, app
from podgroup_plan.cli.guard import collect, guard, input_errors
from podgroup_plan.cli.options import (
    AdmitSuspendedOpt,
    DebugOpt,
    FeatureGatesOpt,
    GangOpt,
    NoExpandOpt,
    OutputFileOpt,
    PathsArg,
    ValidateOpt,
    metavar,
    words_of,
)
from podgroup_plan.render.registry import DIFF, choices

FORMATS = choices(DIFF)


@app.command(cls=PlainCommand)
def diff(
    paths: PathsArg,
    config_b: Annotated[Path, typer.Option(
        "--config-b", metavar="FILE", dir_okay=False, show_default=False,
        help="KubeSchedulerConfiguration for plan B.")],
    config_a: Annotated[Optional[Path], typer.Option(
        "--config-a", metavar="FILE", dir_okay=False,
        help="KubeSchedulerConfiguration for plan A (default: the built-in default profile).")]
    = None,
    feature_gates: FeatureGatesOpt = None,
    validate: ValidateOpt = "strict",
    no_expand: NoExpandOpt = False,
    admit_suspended: AdmitSuspendedOpt = False,
    gang: GangOpt = False,
    output: Annotated[str, typer.Option(
        "-o", "--output", callback=words_of(FORMATS, "a diff output format"),
        metavar=metavar(FORMATS),
        help="Output format.")] = FORMATS[0],
    output_file: OutputFileOpt = None,
    debug: DebugOpt = False,
) -> None:
    """Plan under configurations A and B; show what differs.

    Exit 0 when A and B give the same plan, 1 when they differ, 2 on bad input."""
    with guard(debug):
        from podgroup_plan.diff import diff_plans

        with input_errors():
            inputs.check_output_file(output_file, paths, [config_a, config_b])
            # A's and B's configurations, each resolved once while checking the input (None:
            # no file, plan() resolves the default profile)
            resolved: list = [None, None]
            cluster, (conf_a, conf_b), gates = inputs.load(paths, [config_a, config_b],
                                                           feature_gates, manifest_config_used=False,
                                                           validate=validate, resolved=resolved)
            cluster = inputs.expansion(cluster, no_expand, admit_suspended, gang)
            # A without --config-a is the built-in default profile, not a config in the manifests.
            cluster_a = cluster if config_a is not None else inputs.without_config(cluster)
            if cluster.scheduler_config is not None:
                typer.echo("podgroup-plan: the KubeSchedulerConfiguration among the manifests is "
                           "not used by diff: A is " + ("--config-a" if config_a else
                                                       "the built-in default profile") +
                           ", B is --config-b", err=True)
            result_a, result_b = collect(
                lambda: inputs.naming(config_a, lambda: planning.run_plan(
                    cluster_a, conf_a, gates, "Planning A", config_a, configuration=resolved[0])),
                lambda: inputs.naming(config_b, lambda: planning.run_plan(
                    cluster, conf_b, gates, "Planning B", config_b, configuration=resolved[1])))
        document = diff_plans(result_a, result_b)
        label_a = str(config_a) if config_a is not None else "built-in default profile"
        emit.emit(DIFF, output, document, output_file,
                  emit.options(label_a=label_a, label_b=str(config_b), plans=(result_a, result_b)))
    raise typer.Exit(EXIT_OK if document["identical"] else EXIT_CONDITION)
