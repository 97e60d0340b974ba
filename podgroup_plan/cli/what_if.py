"""`podgroup-plan what-if`: one scenario per rack (zone, node), configuration or set of feature
gates, each planned as `simulate` plans it and compared with the plan of the unchanged input
(docs/what-if.md)."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from podgroup_plan.cli import emit, inputs, live_input
from podgroup_plan.cli.app import EXIT_CONDITION, EXIT_OK, PlainCommand, app
from podgroup_plan.cli.guard import guard, input_errors
from podgroup_plan.cli.header import configuration_label
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
from podgroup_plan.render.registry import WHAT_IF, choices

FORMATS = choices(WHAT_IF)
EXECUTORS = ("serial", "processes", "ray")
# --fail-on: `down` when a scenario leaves a workload lost or unschedulable, `error` when a
# scenario could not be planned.
FAIL_ON = ("down", "error")


@app.command("what-if", cls=PlainCommand)
def what_if(
    paths: PathsArg,
    each: Annotated[str | None, typer.Option(
        "--each", metavar="LABEL", help="One scenario per value of this node label (or `node`: one per "
        "node), each failing (default), draining or cordoning those nodes.")] = None,
    fail: Annotated[bool, typer.Option("--fail", help="--each scenarios fail the nodes (the default).")] = False,
    drain: Annotated[bool, typer.Option("--drain", help="--each scenarios drain the nodes.")] = False,
    cordon: Annotated[bool, typer.Option("--cordon", help="--each scenarios cordon the nodes.")] = False,
    config: Annotated[list[str] | None, typer.Option(
        "--config", metavar="FILE", show_default=False,
        help="A scenario planned under this KubeSchedulerConfiguration. Repeatable.")] = None,
    gates: Annotated[list[str] | None, typer.Option(
        "--gates", metavar="NAME=BOOL,...", show_default=False,
        help="A scenario planned with these feature gates. Repeatable.")] = None,
    scheduler_config: SchedulerConfigOpt = None,
    feature_gates: FeatureGatesOpt = None,
    executor: Annotated[str, typer.Option(
        "--executor", callback=words_of(EXECUTORS, "an executor"), metavar=metavar(EXECUTORS),
        help="Who plans the scenarios: this process, a local process pool, or a Ray cluster "
             "(python3 -m pip install '.[ray]' in the podgroup-plan checkout).")] = EXECUTORS[0],
    workers: Annotated[str | None, typer.Option(
        "--workers", metavar="N", help="Processes (or a local Ray's CPUs); default: the CPUs.")] = None,
    ray_address: Annotated[str | None, typer.Option(
        "--ray-address", metavar="ADDR", help="An existing Ray cluster (default: start a local one).")] = None,
    output: Annotated[str, typer.Option(
        "-o", "--output", callback=words_of(FORMATS, "an output format"),
        metavar=metavar(FORMATS), help="Output format.")] = FORMATS[0],
    output_file: OutputFileOpt = None,
    fail_on: Annotated[list[str] | None, typer.Option(
        "--fail-on", callback=words_of(FAIL_ON, "a --fail-on condition"), show_default=False,
        metavar=metavar(FAIL_ON),
        help="Exit 1 when a scenario leaves a workload down (lost or unschedulable), or when a "
             "scenario could not be planned. Repeatable.")] = None,
    from_cluster: live_input.FromClusterOpt = False,
    kube_context: live_input.ContextOpt = None,
    kubeconfig: live_input.KubeconfigOpt = None,
    debug: DebugOpt = False,
    no_expand: NoExpandOpt = False,
) -> None:
    """What if a rack (zone, node) failed, were drained or cordoned, or the configuration
    changed: one scenario each, compared with the plan of the unchanged input.

    Exit 0 when swept, 1 when a --fail-on condition holds, 2 on bad input."""
    from podgroup_plan.analyses.what_if import executors
    from podgroup_plan.analyses.what_if.changes import CORDON, DRAIN, FAIL, ChangeError
    from podgroup_plan.analyses.what_if.sweep import (
        PlanEach,
        Scenario,
        Sweep,
        assemble,
        each_value,
        with_base,
    )

    with guard(debug), live_input.cluster_input(from_cluster, kubeconfig, kube_context) as live:
        with input_errors():
            count = whole_number(workers, "--workers") if workers is not None else None
            actions = [a for a, on in ((FAIL, fail), (DRAIN, drain), (CORDON, cordon)) if on]
            if len(actions) > 1:
                raise InputError([Problem("what-if", "give at most one of --fail, --drain, --cordon")])
            if actions and each is None:
                raise InputError([Problem("what-if", f"--{actions[0]} goes with --each LABEL")])
            if each is None and not config and not gates:
                raise InputError([Problem("what-if", "nothing to sweep: give --each LABEL, --config FILE "
                                          "or --gates NAME=BOOL,...")])
            configs = [Path(f) for f in config or ()]
            inputs.check_output_file(output_file, paths, [scheduler_config, *configs])
            # the base configuration and each --config file, resolved once while checking the
            # input (None: none found, the Planner resolves the default profile)
            resolved: list = [None] * (1 + len(configs))
            cluster, (base_config, *variants), base_gates = inputs.load(
                [*paths, *live.paths], [scheduler_config, *configs], feature_gates, resolved=resolved)
            cluster = inputs.expansion(cluster, no_expand)
            gate_sets = _gate_sets(gates or [], base_gates)
            scenarios: list[Any] = []
            if each is not None:
                try:
                    scenarios += each_value(cluster, each, actions[0] if actions else FAIL)
                except ChangeError as err:
                    raise InputError([Problem(f"--each {each}", str(err))]) from None
            scenarios += [Scenario(str(f), scheduler_config=v, config_source=str(f), configuration=c)
                          for f, v, c in zip(configs, variants, resolved[1:])]
            scenarios += [Scenario(f"--gates {text}", feature_gates=g) for text, g in gate_sets]
            factory = PlanEach(expand=not no_expand)
            sweep = inputs.naming(scheduler_config, lambda: with_base(Sweep(
                cluster, tuple(scenarios), base_config, inputs.config_source(scheduler_config),
                base_gates, configuration=resolved[0]), factory()))
            try:
                rows = executors.run(sweep, factory, executor, count, ray_address)
            except executors.ExecutorUnavailable as err:
                raise InputError([Problem(f"--executor {executor}", str(err))]) from None
        doc = assemble(sweep, rows)
        if live.note is not None:
            doc["notes"] = [live.note]
        # -o html draws the sweep on the map of the unchanged input's plan (the sweep's base)
        emit.emit(WHAT_IF, output, doc, output_file, emit.options(
            configuration=configuration_label(scheduler_config, cluster), plans=(sweep.base,)))
        held = _held(doc, fail_on or [])
        for line in held:
            typer.echo(f"podgroup-plan: --fail-on {line}", err=True)
    raise typer.Exit(EXIT_CONDITION if held else EXIT_OK)


def _gate_sets(texts: list[str], base: dict[str, bool] | None) -> list[tuple[str, dict[str, bool]]]:
    """Each `--gates` list parsed, over the base `--feature-gates`; every problem at once."""
    out: list[tuple[str, dict[str, bool]]] = []
    problems: list[Problem] = []
    for text in texts:
        try:
            parsed = inputs.parse_gates(text) or {}
        except InputError as err:
            problems += err.problems
            continue
        out.append((text, {**(base or {}), **parsed}))
    if problems:
        raise InputError(problems)
    return out


def _held(doc: dict[str, Any], fail_on: list[str]) -> list[str]:
    held = []
    down = [r["name"] for r in doc["ranking"] if r["workloadsDown"]]
    if "down" in fail_on and down:
        held.append(f"down: {len(down)} scenario(s) leave a workload down, e.g. {down[0]}")
    failed = [r["name"] for r in doc["scenarios"] if r.get("error")]
    if "error" in fail_on and failed:
        held.append(f"error: {len(failed)} scenario(s) could not be planned, e.g. {failed[0]}")
    return held
