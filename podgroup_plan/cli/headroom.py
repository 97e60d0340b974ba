"""`podgroup-plan headroom`: how many more copies of a workload fit after the input's own
pending work, where, what the greedy order leaves on the table (`--exact`), and how many nodes
to add for K copies (`--add-node FILE --target K`). docs/headroom.md."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from podgroup_plan.cli import changes, emit, inputs, live_input
from podgroup_plan.cli.app import EXIT_OK, PlainCommand, app
from podgroup_plan.cli.guard import guard, input_errors
from podgroup_plan.cli.options import (
    DebugOpt,
    FeatureGatesOpt,
    NoExpandOpt,
    OutputFileOpt,
    PathsArg,
    SchedulerConfigOpt,
    metavar,
    whole_number,
    words_of,
)
from podgroup_plan.errors import InputError, Problem
from podgroup_plan.render.registry import HEADROOM, choices

FORMATS = choices(HEADROOM)


@app.command(cls=PlainCommand)
def headroom(
    paths: PathsArg,
    workload: Annotated[list[str] | None, typer.Option(
        "--workload", metavar="FILE", show_default=False,
        help="One workload as you would submit it (a Job, JobSet, Deployment, Workload with its "
             "PodGroups and pods, ...). Repeatable: several are added in turn, as a mix.")] = None,
    max_copies: Annotated[str, typer.Option("--max", metavar="N", help="Stop after N copies.")] = "1000",
    by: Annotated[str | None, typer.Option(
        "--by", metavar="LABEL", help="Count copies and free resources per value of this node label "
        "(default: the workload's topology constraint, else the zone).")] = None,
    exact: Annotated[bool, typer.Option(
        "--exact", help="Also the most copies any assignment could place (OR-Tools CP-SAT: "
        "python3 -m pip install '.[exact]' in the podgroup-plan checkout).")] = False,
    time_limit: Annotated[str, typer.Option(
        "--time-limit", metavar="SECONDS", help="CP-SAT's time limit for --exact.")] = "10",
    target: Annotated[str | None, typer.Option(
        "--target", metavar="K", help="With --add-node: the fewest such nodes to add so that K "
        "copies fit.")] = None,
    scheduler_config: SchedulerConfigOpt = None,
    feature_gates: FeatureGatesOpt = None,
    output: Annotated[str, typer.Option(
        "-o", "--output", callback=words_of(FORMATS, "an output format"),
        metavar=metavar(FORMATS), help="Output format.")] = FORMATS[0],
    output_file: OutputFileOpt = None,
    from_cluster: live_input.FromClusterOpt = False,
    kube_context: live_input.ContextOpt = None,
    kubeconfig: live_input.KubeconfigOpt = None,
    debug: DebugOpt = False,
    no_expand: NoExpandOpt = False,
    cordon: changes.CordonOpt = None,
    drain: changes.DrainOpt = None,
    fail: changes.FailOpt = None,
    add_node: changes.AddNodeOpt = None,
) -> None:
    """How many more copies of a workload fit, and where.

    Exit 0 when answered, 2 on bad input."""
    from podgroup_plan.analyses.headroom.exact import ExactUnavailable
    from podgroup_plan.analyses.headroom.greedy import Template
    from podgroup_plan.analyses.headroom.report import Question, grow
    from podgroup_plan.analyses.headroom.report import headroom as run
    from podgroup_plan.analyses.headroom.workload import WorkloadProblem, check_template
    from podgroup_plan.planner import Planner

    with guard(debug), live_input.cluster_input(from_cluster, kubeconfig, kube_context) as live:
        with input_errors():
            count = whole_number(max_copies, "--max")
            limit = float(whole_number(time_limit, "--time-limit"))
            goal = whole_number(target, "--target") if target is not None else None
            if goal is not None and not add_node:
                raise InputError([Problem("headroom", "--target goes with --add-node FILE (the node "
                                          "shape to add)")])
            if not workload:
                raise InputError([Problem("headroom", "give the workload to add copies of: --workload FILE")])
            if exact and len(workload) > 1:
                raise InputError([Problem("headroom", "--exact answers for one --workload")])
            inputs.check_output_file(output_file, paths,
                                     [scheduler_config, *map(Path, workload), *map(Path, add_node or ())])
            context: list[Any] = []
            resolved: list = []  # the configuration, resolved once while checking the input
            cluster, (config,), gates = inputs.load([*paths, *live.paths], [scheduler_config], feature_gates,
                                                    keep_context=context, resolved=resolved)
            templates: list[Template] = []
            problems: list[Problem] = []
            for file in workload:
                try:
                    work = inputs.load_workload(str(file), context, gates)
                    kind, ns, name = check_template(work, str(file))
                    templates.append(Template(inputs.expansion(work, no_expand), kind, ns, name))
                except InputError as err:
                    problems += err.problems
                except WorkloadProblem as err:
                    problems += err.problems
            if problems:
                raise InputError(problems)
            shapes = None
            if goal is not None:
                shapes = changes.read_nodes(add_node)
                cluster, applied = changes.apply(cluster, cordon, drain, fail, None)
            else:
                cluster, applied = changes.apply(cluster, cordon, drain, fail, add_node)
            cluster = inputs.expansion(cluster, no_expand)
            question = Question(tuple(templates), count, by)
            planner = inputs.naming(scheduler_config, lambda: Planner(
                cluster, config, gates, config_source=inputs.config_source(scheduler_config),
                expand=not no_expand, configuration=resolved[0] if resolved else None))
            try:
                if shapes is not None and goal is not None:
                    doc: dict[str, Any] = grow(planner, cluster, shapes, goal, question, exact, limit)
                else:
                    doc = run(planner, question, exact=exact, time_limit=limit)
            except ExactUnavailable as err:
                raise InputError([Problem("--exact", str(err))]) from None
        if applied is not None:
            doc["notes"] = list(changes.noted_lines(applied))
        if live.note is not None:
            doc["notes"] = [*doc.get("notes", ()), live.note]
        emit.emit(HEADROOM, output, doc, output_file, emit.options())
    raise typer.Exit(EXIT_OK)
