"""`podgroup-plan explain`: why one pod, PodGroup or CompositePodGroup ended as it did."""
from __future__ import annotations

from typing import Annotated, Optional

import typer

from podgroup_plan.cli import emit, inputs, planning
from podgroup_plan.cli.app import EXIT_OK, PlainCommand, app
from podgroup_plan.cli.guard import guard, input_errors
from podgroup_plan.cli.options import (
    AdmitSuspendedOpt,
    DebugOpt,
    FeatureGatesOpt,
    GangOpt,
    NoExpandOpt,
    PathsArg,
    SchedulerConfigOpt,
    ValidateOpt,
    metavar,
    whole_number,
    words_of,
)
from podgroup_plan.errors import InputError, Problem
from podgroup_plan.render.registry import EXPLANATION, choices

FORMATS = choices(EXPLANATION)


@app.command(cls=PlainCommand)
def explain(
    paths: PathsArg,
    pod: Annotated[Optional[str], typer.Option(
        "--pod", metavar="NS/NAME", show_default=False, help="Explain this pod.")] = None,
    pod_group: Annotated[Optional[str], typer.Option(
        "--pod-group", metavar="NS/NAME", show_default=False, help="Explain this PodGroup.")] = None,
    composite_pod_group: Annotated[Optional[str], typer.Option(
        "--composite-pod-group", metavar="NS/NAME", show_default=False,
        help="Explain this CompositePodGroup.")] = None,
    job: Annotated[Optional[str], typer.Option(
        "--job", metavar="NS/NAME", show_default=False,
        help="Explain this Job's PodGroup (its generated name need not be known).")] = None,
    owner: Annotated[Optional[str], typer.Option(
        "--owner", metavar="KIND/NS/NAME", show_default=False,
        help="Explain what this owner made: its PodGroup, its CompositePodGroup tree, or its only pod "
             "(e.g. JobSet/ml/train, Deployment/web/api).")] = None,
    node: Annotated[Optional[str], typer.Option(
        "--node", metavar="NAME", show_default=False,
        help="Also show this node's verdict from every filter plugin and its scores.")] = None,
    top: Annotated[str, typer.Option(
        "--top", metavar="N", callback=lambda value: whole_number(value, "--top"),
        help="How many best-scored nodes to show beside the plan's node.")] = "3",
    output: Annotated[str, typer.Option(
        "-o", "--output", callback=words_of(FORMATS, "an explain output format"),
        metavar=metavar(FORMATS), help="Output format.")] = FORMATS[0],
    scheduler_config: SchedulerConfigOpt = None,
    feature_gates: FeatureGatesOpt = None,
    validate: ValidateOpt = "strict",
    no_expand: NoExpandOpt = False,
    admit_suspended: AdmitSuspendedOpt = False,
    gang: GangOpt = False,
    debug: DebugOpt = False,
) -> None:
    """Explain why one pod, PodGroup or CompositePodGroup ended as it did.

    Plans the input exactly as simulate does. Exit 0 whatever the outcome, 2 on bad input or
    when the target is not in the input."""
    with guard(debug):
        from podgroup_plan import explain as explaining

        with input_errors():
            from podgroup_plan.explain.targets import COMMAND_LINE, parse_owner

            given = [(explaining.POD, pod), (explaining.POD_GROUP, pod_group),
                     (explaining.COMPOSITE_POD_GROUP, composite_pod_group), ("--job", job), ("--owner", owner)]
            chosen = [(kind, text) for kind, text in given if text is not None]
            if len(chosen) != 1:
                raise InputError([Problem(COMMAND_LINE, "explain needs exactly one of --pod, --pod-group, "
                                                        "--composite-pod-group, --job and --owner")])
            kind, text = chosen[0]
            owned = None
            if kind == "--job":
                job_target = explaining.parse_target(explaining.POD_GROUP, text, flag="--job")
                owned = ("Job", job_target.namespace, job_target.name)
            elif kind == "--owner":
                owned = parse_owner(text)
            else:
                target = explaining.parse_target(kind, text)
            resolved: list = []  # the configuration, resolved once while checking the input
            cluster, (config,), gates = inputs.load(paths, [scheduler_config], feature_gates, validate=validate,
                                                    resolved=resolved)
            cluster = inputs.expansion(cluster, no_expand, admit_suspended, gang)
            source = inputs.config_source(scheduler_config)
            if not resolved or resolved[0] is None:
                # no configuration anywhere: the default profile, resolved once for both plans
                resolved = [inputs.naming(scheduler_config, lambda: planning.check_config(cluster, config, gates,
                                                                                     scheduler_config))]
            configuration = resolved[0]
            if owned is not None:
                target = inputs.naming(scheduler_config, lambda: explaining.owner_target(
                    cluster, *owned, kind, scheduler_config=config, feature_gates=gates, config_source=source,
                    configuration=configuration))
            document = inputs.naming(scheduler_config, lambda: explaining.explain(
                cluster, target, scheduler_config=config, feature_gates=gates, config_source=source,
                node=node, top=int(top), configuration=configuration))  # (an int: whole_number)
        emit.emit(EXPLANATION, output, document, None, emit.options())
    raise typer.Exit(EXIT_OK)
