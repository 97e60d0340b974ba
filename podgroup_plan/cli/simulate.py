"""`podgroup-plan simulate`: plan the pending pods and PodGroups, show where they land."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from podgroup_plan.cli import changes, emit, inputs, live_input, planning
from podgroup_plan.cli.app import EXIT_CONDITION, EXIT_OK, PlainCommand, app
from podgroup_plan.cli.fail_on import FAIL_ON, fail_conditions
from podgroup_plan.cli.guard import guard, input_errors
from podgroup_plan.cli.header import configuration_label
from podgroup_plan.cli.options import (
    AdmitSuspendedOpt,
    DebugOpt,
    FeatureGatesOpt,
    GangOpt,
    NoExpandOpt,
    OutputFileOpt,
    PathsArg,
    SchedulerConfigOpt,
    ValidateOpt,
    metavar,
    words_of,
)
from podgroup_plan.render.registry import RESULT, choices

FORMATS = choices(RESULT)
# `--pods`: what the table and Markdown list.
PODS_SHOWN = ("pending", "all")


@app.command(cls=PlainCommand)
def simulate(
    paths: PathsArg,
    scheduler_config: SchedulerConfigOpt = None,
    feature_gates: FeatureGatesOpt = None,
    validate: ValidateOpt = "strict",
    output: Annotated[str, typer.Option(
        "-o", "--output", callback=words_of(FORMATS, "an output format"),
        metavar=metavar(FORMATS), help="Output format.")] = FORMATS[0],
    output_file: OutputFileOpt = None,
    fail_on: Annotated[Optional[list[str]], typer.Option(
        "--fail-on", callback=words_of(FAIL_ON, "a --fail-on condition"), show_default=False,
        metavar=metavar(FAIL_ON),
        help="Exit 1 when the plan leaves a pod or group unschedulable, waiting, "
             "or evicts a pod, when pods are bound to nodes not in the input (incomplete), "
             "or when the input has objects that create pods the planner does not expand "
             "(unplanned). Repeatable.")] = None,
    pods: Annotated[str, typer.Option(
        "--pods", callback=words_of(PODS_SHOWN, "a choice of pods"), metavar=metavar(PODS_SHOWN),
        help="Pods the table and Markdown list: those that did not end Scheduled (pending), "
             "or every pod by name, those left running too (all). JSON and YAML list every pending "
             "and evicted pod.")] = PODS_SHOWN[0],
    capacity: Annotated[bool, typer.Option(
        "--capacity",
        help="Add GPU fragmentation per zone and rack to the table (free GPUs, N-GPU slots left, "
             "before and after the plan). JSON, YAML and HTML always carry it.")] = False,
    from_cluster: live_input.FromClusterOpt = False,
    kube_context: live_input.ContextOpt = None,
    kubeconfig: live_input.KubeconfigOpt = None,
    debug: DebugOpt = False,
    no_expand: NoExpandOpt = False,
    cordon: changes.CordonOpt = None,
    drain: changes.DrainOpt = None,
    fail: changes.FailOpt = None,
    add_node: changes.AddNodeOpt = None,
    admit_suspended: AdmitSuspendedOpt = False,
    gang: GangOpt = False,
) -> None:
    """Plan the pending pods and PodGroups; show where they land.

    Exit 0 when planned, 1 when a --fail-on condition holds, 2 on bad input."""
    with guard(debug), live_input.cluster_input(from_cluster, kubeconfig, kube_context) as live:
        with input_errors():
            inputs.check_output_file(output_file, paths, [scheduler_config, *map(Path, add_node or ())])
            resolved: list = []  # the configuration, resolved once while checking the input
            cluster, (config,), gates = inputs.load(
                [*paths, *live.paths], [scheduler_config], feature_gates, validate=validate, resolved=resolved)
            cluster, applied = changes.apply(cluster, cordon, drain, fail, add_node)
            cluster = inputs.expansion(cluster, no_expand, admit_suspended, gang)
            result = inputs.naming(scheduler_config, lambda: planning.run_plan(
                cluster, config, gates, config_file=scheduler_config,
                configuration=resolved[0] if resolved else None))
            result = live.noted(changes.noted(result, applied))
        emit.emit(RESULT, output, result, output_file, emit.options(
            pods=pods, configuration=configuration_label(scheduler_config, cluster),
            fail_on=tuple(fail_on or ()), capacity=capacity,
            user_gates=tuple(sorted(gates or {}))))
        held = fail_conditions(result, fail_on or [])
        for line in held:
            typer.echo(f"podgroup-plan: --fail-on {line}", err=True)
    raise typer.Exit(EXIT_CONDITION if held else EXIT_OK)
