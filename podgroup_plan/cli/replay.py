"""`podgroup-plan replay`: a discrete-event replay on a simulated clock -- when will each
workload start, what did it wait for, and what a configuration change does to queue times and
utilisation (`--config-b`). docs/replay.md."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from podgroup_plan.cli import emit, inputs, live_input
from podgroup_plan.cli.app import EXIT_OK, PlainCommand, app
from podgroup_plan.cli.guard import guard, input_errors
from podgroup_plan.cli.options import (
    DebugOpt,
    FeatureGatesOpt,
    OutputFileOpt,
    PathsArg,
    SchedulerConfigOpt,
    metavar,
    words_of,
)
from podgroup_plan.errors import InputError, Problem
from podgroup_plan.render.registry import REPLAY, choices

FORMATS = choices(REPLAY)
TRACES = ["alibaba-gpu"]


def _time_or_duration(value: str, flag: str, problems: list[Problem]) -> tuple[float | None, float | None]:
    """(absolute time, duration after the start) from --until's TIME|DURATION."""
    from podgroup_plan.model.timing import parse_duration, parse_time

    try:
        return parse_time(value), None
    except ValueError:
        pass
    try:
        return None, parse_duration(value)
    except ValueError as err:
        problems.append(Problem(flag, f"{err} (or an RFC 3339 time)"))
        return None, None


@app.command(cls=PlainCommand)
def replay(
    paths: PathsArg,
    start: Annotated[Optional[str], typer.Option(
        "--start", metavar="TIME", help="The clock's start (RFC 3339); default: the latest start of a "
        "running pod, else the earliest arrival.")] = None,
    until: Annotated[Optional[str], typer.Option(
        "--until", metavar="TIME|DURATION", help="Stop at this time, or this long after the start "
        "(e.g. 2026-01-02T00:00:00Z, 8h).")] = None,
    default_duration: Annotated[Optional[str], typer.Option(
        "--default-duration", metavar="DURATION", help="Run time of batch pods without a "
        "podgroup-plan.io/duration annotation (default: they run forever; pods of DaemonSets, "
        "ReplicaSets, Deployments and StatefulSets always do unless annotated).")] = None,
    focus: Annotated[Optional[str], typer.Option(
        "--focus", metavar="NS/NAME", help="One workload (or pod): when it starts, what it waited "
        "for, the message while it waited, its attempts.")] = None,
    config_b: Annotated[Optional[Path], typer.Option(
        "--config-b", metavar="FILE", dir_okay=False, help="A second KubeSchedulerConfiguration: both "
        "replays and the differences.")] = None,
    trace: Annotated[Optional[str], typer.Option(
        "--trace", callback=words_of(TRACES, "a trace format"), metavar="|".join(TRACES),
        help="Read PATHs as a trace: alibaba-gpu NODES.csv PODS.csv (the FGD paper's "
        "openb format).")] = None,
    scheduler_config: SchedulerConfigOpt = None,
    feature_gates: FeatureGatesOpt = None,
    output: Annotated[str, typer.Option(
        "-o", "--output", callback=words_of(FORMATS, "an output format"),
        metavar=metavar(FORMATS), help="Output format (csv: the timeline).")] = FORMATS[0],
    output_file: OutputFileOpt = None,
    from_cluster: live_input.FromClusterOpt = False,
    kube_context: live_input.ContextOpt = None,
    kubeconfig: live_input.KubeconfigOpt = None,
    debug: DebugOpt = False,
) -> None:
    """Replay the input over time: when each workload starts and ends, and why.

    Exit 0 when replayed, 2 on bad input."""
    from podgroup_plan.analyses.replay.compare import compare
    from podgroup_plan.analyses.replay.run import Settings
    from podgroup_plan.analyses.replay.run import replay as run
    from podgroup_plan.model.timing import parse_duration, parse_time

    with guard(debug), live_input.cluster_input(from_cluster and trace is None, kubeconfig, kube_context) as live:
        with input_errors():
            problems: list[Problem] = []
            start_at = until_at = until_after = duration = None
            if start is not None:
                try:
                    start_at = parse_time(start)
                except ValueError as err:
                    problems.append(Problem("--start", str(err)))
            if until is not None:
                until_at, until_after = _time_or_duration(until, "--until", problems)
            if default_duration is not None:
                try:
                    duration = parse_duration(default_duration)
                except ValueError as err:
                    problems.append(Problem("--default-duration", str(err)))
            if from_cluster and trace is not None:
                problems.append(Problem("--from-cluster", "a trace is a cluster of its own: --from-cluster "
                                        "does not go with --trace"))
            inputs.check_output_file(output_file, paths, [scheduler_config, config_b])
            loaded: Any = None
            try:
                loaded = _load([*paths, *live.paths], trace, scheduler_config, config_b, feature_gates)
            except InputError as err:
                problems += err.problems
            if problems:
                raise InputError(problems)
            cluster, timing, config, config_b_doc, gates, resolved = loaded
            settings = Settings(start_at, until_at, until_after, duration, focus)
            doc: dict[str, Any] = inputs.naming(scheduler_config, lambda: run(
                cluster, timing, settings, config, gates, config_source=inputs.config_source(scheduler_config),
                configuration=resolved[0]))
            if config_b is not None:
                other = inputs.naming(config_b, lambda: run(
                    cluster, timing, settings, config_b_doc, gates, config_source=str(config_b),
                    configuration=resolved[1]))
                doc = compare(doc, other, str(scheduler_config or "A"), str(config_b))
            if live.note is not None:  # the header names the cluster and when it was read
                doc["notes"] = [live.note]
        emit.emit(REPLAY, output, doc, output_file, emit.options())
    raise typer.Exit(EXIT_OK)


def _load(paths: list[str], trace: str | None, scheduler_config: Path | None, config_b: Path | None,
          feature_gates: str | None) -> tuple:
    """The input, its timing, both configurations and the gates, and both configurations as
    resolved while checking them (None: not found, the Planner resolves the default)."""
    resolved: list = [None, None]
    if trace is None:
        from podgroup_plan.loading.timing import read_timing

        cluster, (config, config_b_doc), gates = inputs.load(paths, [scheduler_config, config_b], feature_gates,
                                                             resolved=resolved)
        return cluster, read_timing(paths), config, config_b_doc, gates, resolved
    from podgroup_plan.loading.alibaba_trace import read_trace

    if len(paths) != 2:
        raise InputError([Problem("--trace", "alibaba-gpu reads two files: NODES.csv PODS.csv")])
    from podgroup_plan.cli.guard import gather
    from podgroup_plan.loading import load_scheduler_config

    steps: list = [lambda f=f: load_scheduler_config(str(f)) if f is not None else None
                   for f in (scheduler_config, config_b)]
    steps += [lambda: inputs.parse_gates(feature_gates), lambda: read_trace(paths[0], paths[1])]
    (config_a, config_b_doc, gates, read), problems = gather(*steps)
    configs = (config_a, config_b_doc)
    if not problems:
        built, problems = gather(*[lambda c=c, f=f: inputs.build_profiles(c, gates, str(f))
                                   for c, f in zip(configs, (scheduler_config, config_b)) if c is not None])
        by_file = iter(built)
        resolved = [next(by_file) if c is not None else None for c in configs]
    if problems:
        raise InputError(problems)
    cluster, timing = read
    return cluster, timing, configs[0], configs[1], gates, resolved
