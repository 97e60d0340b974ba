"""The `podgroup-plan` command line (docs/contract.md: commands, flags and exit codes are fixed).

    podgroup-plan simulate PATH... [--scheduler-config FILE] [--feature-gates G=BOOL,...]
                                   [-o table|json|yaml|markdown|junit] [--output-file FILE]
                                   [--fail-on unschedulable|waiting|preemption]...
    podgroup-plan validate PATH... [--scheduler-config FILE] [--feature-gates ...]
    podgroup-plan diff PATH... [--config-a FILE] --config-b FILE [-o table|json|markdown]

Exit codes: 0 planned (and no --fail-on condition holds) / valid / A equals B; 1 a --fail-on
condition holds / A and B differ; 2 bad input or usage, every problem on stderr, no traceback, or
the result could not be written; 3 an internal error (a bug): one line, the traceback only with
`--debug` (`_guard`).

This module is an edge (design.md): it reads files and flags, calls `plan()`, and hands the
`PlanResult` to a renderer. It decides nothing about scheduling.
"""
from __future__ import annotations

import dataclasses
import gc
import os
import sys
import time
import threading
from contextlib import contextmanager, nullcontext
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Callable, Iterator, Mapping, Optional, Sequence

import typer
import typer.core

from podgroup_plan import KUBERNETES_VERSION, __version__
from podgroup_plan.errors import InputError, Problem
from podgroup_plan.result import PlanResult

if TYPE_CHECKING:
    from podgroup_plan.model.objects import ClusterInput

# Exit codes (docs/contract.md).
EXIT_OK = 0
EXIT_CONDITION = 1
EXIT_INPUT = 2
EXIT_INTERNAL = 3

INTERNAL_ERROR = ("podgroup-plan: internal error (a bug); please report it with the input and the "
                  "--debug output: ")
# The name write errors on standard output are reported under.
STDOUT_NAME = "<stdout>"

# The file name config.configuration.build_profiles() gives problems of a configuration it was
# handed without one.
UNNAMED_CONFIG = "<config>"

# The progress bar appears only if the plan is still running after this many seconds.
PROGRESS_DELAY = 0.5
# Width of table output when neither COLUMNS nor a terminal says (contract.md).
DEFAULT_WIDTH = 80


def words_of(enum: type[Enum], what: str) -> Callable[[Any], Any]:
    """An option callback taking one of `enum`'s values (case-insensitive), or a list of them.
    A wrong word is answered in plain words with the choices (`'xml' is not an output format;
    use table, json, yaml, markdown or junit`) instead of the parser's `Value error, ...`; the
    options are typed `str` so that no version of typer converts (and words) them first."""

    def one(value: Any) -> Any:
        if isinstance(value, enum):
            return value
        word = str(value).strip().lower()
        for member in enum:
            if member.value == word:
                return member
        choices = [m.value for m in enum]
        raise typer.BadParameter(
            f"{value!r} is not {what}; use {', '.join(choices[:-1])} or {choices[-1]}")

    def convert(value: Any) -> Any:
        if value is None:
            return None
        if isinstance(value, (list, tuple)):
            return [one(v) for v in value]
        return one(value)

    return convert


def whole_number(value: Any, flag: str) -> int:
    """An option callback for a count (0 or more), answered in words when it is not one (the
    option is typed `str` so that typer does not word the error itself)."""
    text = str(value).strip()
    if not text.isdigit():
        raise typer.BadParameter(f"{value!r} is not a whole number (0 or more), e.g. {flag} 3")
    return int(text)


class Output(str, Enum):
    table = "table"
    json = "json"
    yaml = "yaml"
    markdown = "markdown"
    junit = "junit"


class DiffOutput(str, Enum):
    table = "table"
    json = "json"
    markdown = "markdown"


class FailOn(str, Enum):
    unschedulable = "unschedulable"
    waiting = "waiting"
    preemption = "preemption"


class PlainCoercion:
    """Commands whose options, the help option included, are coerced without pydantic
    (`_plain_coercion`)."""

    params: list[Any]

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        for param in self.params:
            _plain_coercion(param)

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)  # type: ignore[misc]
        if option is not None:
            _plain_coercion(option)
        return option


class PlainGroup(PlainCoercion, typer.core.TyperGroup):
    """The root command (`--version`, `--help`)."""


app = typer.Typer(
    name="podgroup-plan",
    cls=PlainGroup,
    help="Offline what-if planner for Kubernetes gang (PodGroup) scheduling: "
         f"plans pending pods and PodGroups as kube-scheduler {KUBERNETES_VERSION} would.",
    add_completion=False,
    no_args_is_help=True,
    rich_markup_mode=None,
    pretty_exceptions_show_locals=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

class PlainCommand(PlainCoercion, typer.core.TyperCommand):
    """A command whose arguments read as a person writes them: `PATH...` in the usage line and
    in the help, not typer's `{PATH}...` and `PATH <list[str]>`."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        for param in self.params:
            if param.param_type_name == "argument":
                _plain_argument(param)


def _plain_argument(param: Any) -> None:
    name = (param.metavar or param.name or "").upper() + ("..." if param.nargs != 1 else "")
    shown = name if param.required else f"[{name}]"
    help_text = param.help or ""

    def get_help_record(ctx: Any) -> tuple[str, str]:
        return name, help_text

    def get_usage_pieces(ctx: Any) -> list[str]:
        return [shown]

    # Instance attributes win over the class's methods, whatever typer's version composes.
    param.get_help_record = get_help_record
    param.get_usage_pieces = get_usage_pieces
    param.make_metavar = lambda *a, **k: shown


def _plain_coercion(param: Any) -> None:
    """Coerce a string, list-of-strings or path parameter without pydantic.

    typer 0.29 coerces each value through a pydantic `TypeAdapter` built on first use: importing
    pydantic and building the adapters took about a tenth of a second of every run, a third of
    the demo's whole start-up budget. The parameters here are only `str`, `list[str]`, `Path` and
    `bool` (flags), and what those adapters do with the values of a command line is simple: no
    value stays None, a flag's bool and a string stay themselves, a list of strings becomes a
    list, a path is checked by typer's own `coerce_cli_path` (same checks, same messages) and
    becomes a `Path`. Any other value, or a typer without this machinery, goes through typer's
    own coercion unchanged."""
    get_runtime_param = getattr(param, "get_runtime_param", None)
    descriptor = getattr(param, "type_descriptor", None)
    if get_runtime_param is None or descriptor is None or "get_runtime_param" in vars(param):
        return  # not typer's machinery, or done already
    try:
        from typer._param_types import coerce_cli_path
    except ImportError:  # pragma: no cover - another typer: its own coercion
        return
    annotation, info = descriptor.annotation, descriptor.parameter_info
    if annotation is str or annotation is bool:
        kind = annotation.__name__
    elif annotation == list[str]:
        kind = "list"
    elif (annotation is Path and getattr(info, "path_type", None) is None
          and not getattr(info, "allow_dash", False) and not getattr(info, "resolve_path", False)):
        kind = "path"
    else:
        return
    multiple = bool(param.multiple or param.nargs == -1)

    class PlainCoercion:
        @staticmethod
        def coerce(value: Any, param: Any, ctx: Any) -> Any:
            if value is None:
                return () if multiple else None
            if kind == "str" and type(value) is str and not multiple:
                return value
            if kind == "bool" and type(value) is bool and not multiple:
                return value
            if (kind == "list" and multiple and isinstance(value, (list, tuple))
                    and all(type(v) is str for v in value)):
                return list(value)
            # Checked as typed (so that messages quote it as typed) and then made a Path, where
            # typer checks the Path; the two differ only for text that Path() rewrites into
            # another file: '' ('.'), 'x/' and 'x/.' ('x'), left to typer.
            if (kind == "path" and type(value) is str and not multiple and value
                    and not value.endswith(("/", "/."))):
                return Path(coerce_cli_path(value, info, path_type=None, param=param, ctx=ctx))
            return get_runtime_param().coerce(value, param=param, ctx=ctx)

    # An instance attribute wins over typer's method (as in `_plain_argument`).
    param.get_runtime_param = lambda: PlainCoercion


# --- options shared by the commands -------------------------------------------------------------

PathsArg = Annotated[list[str], typer.Argument(
    metavar="PATH", show_default=False,
    help="Manifest files or folders (read recursively: *.yaml, *.yml, *.json); '-' reads stdin.")]
SchedulerConfigOpt = Annotated[Optional[Path], typer.Option(
    "--scheduler-config", metavar="FILE", dir_okay=False,
    help="KubeSchedulerConfiguration file; wins over one found among the manifests.")]
FeatureGatesOpt = Annotated[Optional[str], typer.Option(
    "--feature-gates", metavar="NAME=BOOL,...",
    help="kube-scheduler feature gates, e.g. TopologyAwareWorkloadScheduling=false.")]
NoExpandOpt = Annotated[bool, typer.Option(
    "--no-expand",
    help="Do not expand Jobs, JobSets, Deployments, ReplicaSets and StatefulSets into the pods "
         "their controllers would create; plan only the pods in the input.")]
OutputFileOpt = Annotated[Optional[Path], typer.Option(
    "--output-file", metavar="FILE", dir_okay=False,
    help="Write the output to FILE instead of standard output.")]
DebugOpt = Annotated[bool, typer.Option(
    "--debug", help="On an internal error (exit 3), also print the Python traceback.")]


def _version_callback(value: bool) -> None:
    if value:
        typer.echo(f"podgroup-plan {__version__} (kube-scheduler {KUBERNETES_VERSION})")
        raise typer.Exit(EXIT_OK)


@app.callback()
def _root(
    version: Annotated[bool, typer.Option(
        "--version", callback=_version_callback, is_eager=True,
        help="Print the tool's version and the kube-scheduler version it mirrors.")] = False,
) -> None:
    """Offline what-if planner for Kubernetes gang (PodGroup) scheduling."""


# --- commands -----------------------------------------------------------------------------------

class PodsShown(str, Enum):
    pending = "pending"
    all = "all"


@app.command(cls=PlainCommand)
def simulate(
    paths: PathsArg,
    scheduler_config: SchedulerConfigOpt = None,
    feature_gates: FeatureGatesOpt = None,
    output: Annotated[str, typer.Option(
        "-o", "--output", callback=words_of(Output, "an output format"),
        metavar="table|json|yaml|markdown|junit", help="Output format.")] = Output.table.value,
    output_file: OutputFileOpt = None,
    fail_on: Annotated[Optional[list[str]], typer.Option(
        "--fail-on", callback=words_of(FailOn, "a --fail-on condition"), show_default=False,
        metavar="unschedulable|waiting|preemption",
        help="Exit 1 when the plan leaves a pod or group unschedulable, waiting, "
             "or evicts a pod. Repeatable.")] = None,
    pods: Annotated[str, typer.Option(
        "--pods", callback=words_of(PodsShown, "a choice of pods"), metavar="pending|all",
        help="Pods the table and Markdown list: those that did not end Scheduled (pending), "
             "or every pod (all). JSON and YAML always list every pod.")] = PodsShown.pending.value,
    debug: DebugOpt = False,
    no_expand: NoExpandOpt = False,
) -> None:
    """Plan the pending pods and PodGroups; show where they land.

    Exit 0 when planned, 1 when a --fail-on condition holds, 2 on bad input."""
    with _guard(debug):
        with _input_errors():
            _check_output_file(output_file, paths, [scheduler_config])
            cluster, (config,), gates = _load(paths, [scheduler_config], feature_gates)
            cluster = _expansion(cluster, no_expand)
            result = _naming(scheduler_config, lambda: _plan(cluster, config, gates, config_file=scheduler_config))
        _emit_result(result, output, output_file, pods.value,
                     configuration_label(scheduler_config, cluster), fail_on or [])
        held = fail_conditions(result, fail_on or [])
        for line in held:
            typer.echo(f"podgroup-plan: --fail-on {line}", err=True)
    raise typer.Exit(EXIT_CONDITION if held else EXIT_OK)


def configuration_label(config_file: Path | None, cluster: ClusterInput) -> str:
    """How the table's header names the configuration the plan used (the flag wins over one
    found among the manifests; neither: upstream's default profile)."""
    if config_file is not None:
        return str(config_file)
    if cluster.scheduler_config is not None:
        return f"{cluster.scheduler_config_source or 'a KubeSchedulerConfiguration'} " \
               "(found among the manifests)"
    return "built-in default"


@app.command(cls=PlainCommand)
def validate(
    paths: PathsArg,
    scheduler_config: SchedulerConfigOpt = None,
    feature_gates: FeatureGatesOpt = None,
    debug: DebugOpt = False,
) -> None:
    """Check the input without planning.

    Lists what was read; exit 0 when valid, 2 (every problem on stderr) when not."""
    with _guard(debug):
        with _input_errors():
            cluster, (config,), gates = _load(paths, [scheduler_config], feature_gates)
            _naming(scheduler_config, lambda: _check_config(cluster, config, gates, scheduler_config))
        from podgroup_plan import loading

        _write("".join(line + "\n" for line in loading.summarize(cluster)) + "Input is valid.\n",
               None)
    raise typer.Exit(EXIT_OK)


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
    no_expand: NoExpandOpt = False,
    output: Annotated[str, typer.Option(
        "-o", "--output", callback=words_of(DiffOutput, "a diff output format"),
        metavar="table|json|markdown",
        help="Output format.")] = DiffOutput.table.value,
    output_file: OutputFileOpt = None,
    debug: DebugOpt = False,
) -> None:
    """Plan under configurations A and B; show what differs.

    Exit 0 when A and B give the same plan, 1 when they differ, 2 on bad input."""
    with _guard(debug):
        from podgroup_plan.diff import diff_plans

        with _input_errors():
            _check_output_file(output_file, paths, [config_a, config_b])
            cluster, (conf_a, conf_b), gates = _load(paths, [config_a, config_b], feature_gates,
                                                     manifest_config_used=False)
            cluster = _expansion(cluster, no_expand)
            # A without --config-a is the built-in default profile, not a config in the manifests.
            cluster_a = cluster if config_a is not None else _without_config(cluster)
            if cluster.scheduler_config is not None:
                typer.echo("podgroup-plan: the KubeSchedulerConfiguration among the manifests is "
                           "not used by diff: A is " + ("--config-a" if config_a else
                                                       "the built-in default profile") +
                           ", B is --config-b", err=True)
            result_a, result_b = _collect(
                lambda: _naming(config_a, lambda: _plan(cluster_a, conf_a, gates, "Planning A", config_a)),
                lambda: _naming(config_b, lambda: _plan(cluster, conf_b, gates, "Planning B", config_b)))
        document = diff_plans(result_a, result_b)
        label_a = str(config_a) if config_a is not None else "built-in default profile"
        _emit_diff(document, output, output_file, label_a, str(config_b))
    raise typer.Exit(EXIT_OK if document["identical"] else EXIT_CONDITION)


class ExplainOutput(str, Enum):
    table = "table"
    json = "json"


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
    node: Annotated[Optional[str], typer.Option(
        "--node", metavar="NAME", show_default=False,
        help="Also show this node's verdict from every filter plugin and its scores.")] = None,
    top: Annotated[str, typer.Option(
        "--top", metavar="N", callback=lambda value: whole_number(value, "--top"),
        help="How many best-scored nodes to show beside the plan's node.")] = "3",
    output: Annotated[str, typer.Option(
        "-o", "--output", callback=words_of(ExplainOutput, "an explain output format"),
        metavar="table|json", help="Output format.")] = ExplainOutput.table.value,
    scheduler_config: SchedulerConfigOpt = None,
    feature_gates: FeatureGatesOpt = None,
    no_expand: NoExpandOpt = False,
    debug: DebugOpt = False,
) -> None:
    """Explain why one pod, PodGroup or CompositePodGroup ended as it did.

    Plans the input exactly as simulate does. Exit 0 whatever the outcome, 2 on bad input or
    when the target is not in the input."""
    with _guard(debug):
        from podgroup_plan import explain as explaining

        with _input_errors():
            given = [(explaining.POD, pod), (explaining.POD_GROUP, pod_group),
                     (explaining.COMPOSITE_POD_GROUP, composite_pod_group)]
            chosen = [(kind, text) for kind, text in given if text is not None]
            if len(chosen) != 1:
                raise InputError([Problem("-", "explain needs exactly one of --pod, --pod-group "
                                               "and --composite-pod-group")])
            target = explaining.parse_target(*chosen[0])
            cluster, (config,), gates = _load(paths, [scheduler_config], feature_gates)
            cluster = _expansion(cluster, no_expand)
            source = str(scheduler_config) if scheduler_config is not None else UNNAMED_CONFIG
            document = _naming(scheduler_config, lambda: explaining.explain(
                cluster, target, scheduler_config=config, feature_gates=gates,
                config_source=source, node=node, top=top))
        if output is ExplainOutput.json:
            from podgroup_plan.render.json_yaml import render_json
            text = render_json(document)
        else:
            from podgroup_plan.render.explain_table import render_explanation
            text = render_explanation(document, width=table_width())
        _write(text, None)
    raise typer.Exit(EXIT_OK)


def main() -> None:
    """Console-script entry point (`podgroup-plan`).

    What only a whole process pays for (issue 16: the demo's whole run in 0.35 s):
    * OpenBLAS, which numpy loads on import, starts a worker thread per core and sizes its
      buffers for them (about 0.05 s of CPU on 2 cores). The planner does no linear algebra
      (no BLAS call anywhere), so one thread is enough; a value the user set is kept.
    * The cyclic garbage collector: loading and `plan()` already turn it off (they allocate
      masses of objects that stay alive, and make no cycles worth collecting); the rest of a run
      (imports, configuration, queue, result, output) is short and makes few cycles, yet paid
      about 80 collections, 0.01 s of the demo. Peak memory is unchanged (10,000 pods).
    * The interpreter's teardown (freeing every module and object, about 0.03 s): once the
      command has ended and its output is flushed, the process ends at once (`_exit_at_once`).
    """
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    gc.disable()
    try:
        app(prog_name="podgroup-plan")
    except SystemExit as done:
        _exit_at_once(done.code)
        raise


def exit_status(code: object) -> int | None:
    """The status `sys.exit(code)` gives the process, or None when the interpreter itself would
    print `code` first (a message) and exit 1."""
    if code is None:
        return 0
    if isinstance(code, int):  # bool included, as sys.exit takes it
        return int(code)
    return None


def _exit_at_once(code: object) -> None:
    """End the process with the command's exit status without the interpreter's teardown, as
    mypy does, doing first what the interpreter's exit would do that anyone can see: wait for
    threads that are not daemons (none here: then the ordinary exit), run the `atexit`
    callbacks, flush standard output and error. Returns (and the caller lets the interpreter
    exit as it always did) whenever any of that cannot be done exactly: a message as exit code,
    a thread still running, or a flush that fails (a full disk or a closed pipe then reads as
    the interpreter reports it, exit 120, not as a silent success)."""
    import atexit

    status = exit_status(code)
    run_exitfuncs = getattr(atexit, "_run_exitfuncs", None)
    clear = getattr(atexit, "_clear", None)
    if status is None or run_exitfuncs is None or clear is None:
        return
    if any(t is not threading.main_thread() and t.is_alive() and not t.daemon
           for t in threading.enumerate()):
        return
    if not _flushed():
        return
    run_exitfuncs()
    clear()  # run once, should a flush below fail and the ordinary exit follow
    if not _flushed():
        return
    os._exit(status & 0xFF)


def _flushed() -> bool:
    for stream in (sys.stdout, sys.stderr):
        if stream is None:  # started with the descriptor closed
            continue
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 - whatever it is, the ordinary exit reports it
            return False
    return True


# --- errors -------------------------------------------------------------------------------------

@contextmanager
def _guard(debug: bool) -> Iterator[None]:
    """Anything but bad input, a usage error or an exit that escapes a command is a bug: one line
    on stderr and exit 3 (docs/contract.md), with the traceback only under `--debug`. A broken
    pipe is not a bug: `podgroup-plan ... | head` ends quietly (`_write`)."""
    # Usage errors derive from the ClickException of the click typer uses: recent typers vendor
    # their own (`typer._click`) and do not install `click` at all, older ones use `click`.
    usage_error = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")
    try:
        yield
    except (typer.Exit, typer.Abort, usage_error):
        raise
    except Exception as err:  # noqa: BLE001 - the point: no traceback reaches a user
        if debug:
            import traceback

            typer.echo("".join(traceback.format_exception(err)), err=True, nl=False)
        typer.echo(INTERNAL_ERROR + internal_error_text(err), err=True)
        raise typer.Exit(EXIT_INTERNAL) from None


def internal_error_text(err: BaseException) -> str:
    """`Type: message` on one line, cut when long."""
    from podgroup_plan.errors import shorten

    message = " ".join(str(err).split())
    return f"{type(err).__name__}: {shorten(message)}" if message else type(err).__name__


# --- input --------------------------------------------------------------------------------------

@contextmanager
def _input_errors() -> Iterator[None]:
    """Bad input: every problem on stderr, one per line, and exit 2."""
    try:
        yield
    except InputError as err:
        lines = [str(p) for p in err.problems] if err.problems else [str(err)]
        for line in dict.fromkeys(lines):  # the same problem found twice is listed once
            typer.echo(line, err=True)
        raise typer.Exit(EXIT_INPUT) from None


def _collect(*steps: Callable[[], Any]) -> list[Any]:
    """Run every step even when an earlier one raised InputError, so that all problems are
    reported together; raise one InputError carrying all of them."""
    values, problems = _gather(*steps)
    if problems:
        raise InputError(problems)
    return values


def _gather(*steps: Callable[[], Any]) -> tuple[list[Any], list[Problem]]:
    """Every step's value (for a step that raised InputError, what it could read despite the
    problems, or None) and every problem."""
    problems: list[Problem] = []
    values = []
    for step in steps:
        try:
            values.append(step())
        except InputError as err:
            problems.extend(err.problems)
            values.append(err.partial)
    return values, problems


def _naming(config_file: Path | None, step: Callable[[], Any]) -> Any:
    """Run `step`; the configuration problems it reports get their line in the file (and any
    still against an unnamed configuration name `config_file`)."""
    from podgroup_plan.loading import with_lines

    try:
        return step()
    except InputError as err:
        problems = err.problems if config_file is None else [
            dataclasses.replace(p, file=str(config_file)) if p.file == UNNAMED_CONFIG else p
            for p in err.problems]
        raise InputError(with_lines(problems)) from None


def _read_stdin(paths: list[str]) -> bytes | str | None:
    """Standard input's bytes when a PATH is `-` (decoded by loading, which reports bytes that
    are not UTF-8 as bad input). typer's CliRunner swaps sys.stdin, so this works in tests."""
    if "-" not in paths:
        return None
    buffer = getattr(sys.stdin, "buffer", None)
    return buffer.read() if buffer is not None else sys.stdin.read()


def _load(paths: list[str], config_files: Sequence[Path | None], feature_gates: str | None,
          manifest_config_used: bool = True,
          ) -> tuple[ClusterInput, list[Mapping | None], dict[str, bool] | None]:
    """Read the manifests, each configuration file (None: no file) and the feature gates, and
    build the profiles of every configuration that will be used (`manifest_config_used`: the
    one found among the manifests stands in for a None); every problem of all of them in one
    InputError, so that a bad flag or a broken manifest hides nothing else."""
    from podgroup_plan import loading

    stdin_text = _read_stdin(paths)

    def load_input() -> Any:
        with DelayedStatus("Reading manifests…") if is_terminal(sys.stderr) else nullcontext():
            return loading.load_input(list(paths), stdin_text)

    steps: list[Callable[[], Any]] = [load_input]
    steps += [(lambda f=f: loading.load_scheduler_config(str(f)) if f is not None else None)
              for f in config_files]
    steps.append(lambda: _parse_gates(feature_gates))
    (cluster, *configs, gates), problems = _gather(*steps)
    checks = [(config, str(f)) for f, config in zip(config_files, configs)
              if f is not None and config is not None]
    if (manifest_config_used and cluster is not None and cluster.scheduler_config is not None
            and any(f is None for f in config_files)):
        checks.append((cluster.scheduler_config,
                       cluster.scheduler_config_source or UNNAMED_CONFIG))
    problems += _gather(*[lambda c=c, f=f: _build_profiles(c, gates, f) for c, f in checks])[1]
    if problems:
        text = stdin_text.decode("utf-8", "replace") if isinstance(stdin_text, bytes) else stdin_text
        raise InputError(loading.with_lines(problems, text))
    loading.check_not_empty(cluster, paths)
    return cluster, configs, gates


def _build_profiles(config: Mapping, gates: Mapping[str, bool] | None, file: str) -> None:
    from podgroup_plan.config.configuration import build_profiles

    # gates that did not parse are reported on their own; the profiles are built with the rest
    build_profiles(config, gates or {}, file=file)


def _check_output_file(output_file: Path | None, paths: list[str],
                       config_files: Sequence[Path | None]) -> None:
    """`--output-file` must not name anything the command reads: nothing the tool reads is
    ever modified (a typo such as `--output-file cluster.yaml` would destroy the input)."""
    if output_file is None:
        return
    from podgroup_plan.loading.files import MANIFEST_SUFFIXES, expand_paths, same_file

    files, _ = expand_paths([p for p in paths if p != "-"])
    files += [str(f) for f in config_files if f is not None]
    for name in files:
        if same_file(str(output_file), name):
            raise InputError([Problem(str(output_file), f"--output-file names an input ({name}); "
                                      "it would be overwritten: choose another file")])
    # A new manifest-named file inside an input folder would be read as input by the next run
    # (and then refused as one): say so now, not on the second run.
    if str(output_file).endswith(MANIFEST_SUFFIXES):
        target = os.path.realpath(output_file)
        for folder in (p for p in paths if p != "-" and os.path.isdir(p)):
            root = os.path.realpath(folder)
            hidden = any(part.startswith(".") for part in os.path.relpath(target, root).split(os.sep))
            if os.path.commonpath([root, target]) == root and not hidden:
                raise InputError([Problem(str(output_file), f"--output-file is inside the input "
                                          f"folder {folder}: the next run would read it as input; "
                                          "choose a file outside it")])


def _parse_gates(text: str | None) -> dict[str, bool] | None:
    if text is None:
        return None
    from podgroup_plan.config.configuration import parse_feature_gates

    return parse_feature_gates(text)


def _expansion(cluster: ClusterInput, no_expand: bool) -> ClusterInput:
    """`--no-expand`: the controllers are dropped before the plan (a note says so)."""
    if not no_expand:
        return cluster
    from podgroup_plan.controllers import without_expansion

    return without_expansion(cluster)


def _without_config(cluster: ClusterInput) -> ClusterInput:
    if cluster.scheduler_config is None:
        return cluster
    return dataclasses.replace(cluster, scheduler_config=None)


def _check_config(cluster: ClusterInput, config: Mapping | None,
                  gates: Mapping[str, bool] | None, config_file: Path | None = None) -> None:
    """Resolve gates and profiles as `plan()` does, so that `validate` rejects what `simulate` would."""
    from podgroup_plan.config.configuration import resolve_configuration

    resolve_configuration(config, gates, cluster.scheduler_config, cluster.scheduler_config_source,
                          _config_source(config_file))


def _config_source(config_file: Path | None) -> str:
    return str(config_file) if config_file is not None else UNNAMED_CONFIG


# --- planning -----------------------------------------------------------------------------------

def _plan(cluster: ClusterInput, config: Mapping | None, gates: Mapping[str, bool] | None,
          label: str = "Planning", config_file: Path | None = None) -> PlanResult:
    from podgroup_plan.plan import plan

    bar = ProgressBar(label) if is_terminal(sys.stderr) else None
    try:
        return plan(cluster, config, gates, progress=bar, config_source=_config_source(config_file))
    finally:
        if bar is not None:
            bar.close()


class ProgressBar:
    """`plan()`'s progress callback: a rich bar on stderr, shown only once the plan has run for
    `delay` seconds (a quick plan prints nothing), removed when the plan ends."""

    def __init__(self, label: str = "Planning", delay: float = PROGRESS_DELAY,
                 clock: Callable[[], float] = time.monotonic, console: Any = None):
        self.label = label
        self.delay = delay
        self.clock = clock
        self.console = console
        self.started = clock()
        self._progress: Any = None
        self._task: Any = None

    def __call__(self, done: int, total: int) -> None:
        if self._progress is None:
            if self.clock() - self.started < self.delay:
                return
            self._start(total)
        self._progress.update(self._task, completed=done, total=total)

    def _start(self, total: int) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, \
            TimeElapsedColumn

        console = self.console if self.console is not None else Console(stderr=True)
        self._progress = Progress(TextColumn("{task.description}"), BarColumn(),
                                  MofNCompleteColumn(), TimeElapsedColumn(),
                                  console=console, transient=True)
        self._progress.start()
        self._task = self._progress.add_task(self.label, total=total)

    @property
    def shown(self) -> bool:
        return self._progress is not None

    def close(self) -> None:
        if self._progress is not None:
            self._progress.stop()


class DelayedStatus:
    """A rich spinner on stderr for a step without progress reports (reading the manifests),
    shown only if the step is still running after `delay` seconds."""

    def __init__(self, message: str, delay: float = PROGRESS_DELAY, console: Any = None):
        self.message = message
        self.delay = delay
        self.console = console
        self._lock = threading.Lock()
        self._status: Any = None
        self._done = False
        self._timer = threading.Timer(delay, self._show)
        self._timer.daemon = True

    def __enter__(self) -> "DelayedStatus":
        self._timer.start()
        return self

    def _show(self) -> None:
        from rich.console import Console

        with self._lock:
            if self._done:
                return
            console = self.console if self.console is not None else Console(stderr=True)
            self._status = console.status(self.message)
            self._status.start()

    @property
    def shown(self) -> bool:
        return self._status is not None

    def __exit__(self, *exc: object) -> None:
        self._timer.cancel()
        with self._lock:
            self._done = True
            if self._status is not None:
                self._status.stop()


def fail_conditions(result: PlanResult, fail_on: list[FailOn] | list[str]) -> list[str]:
    """The `--fail-on` conditions that hold, each as `CONDITION: what holds` (contract.md;
    `fail_on.py` decides, object by object, for this and for the JUnit report alike)."""
    from podgroup_plan.fail_on import held

    return held(result, [FailOn(f).value for f in fail_on])


# --- output -------------------------------------------------------------------------------------

def table_width() -> int:
    """The contract's width for `-o table`: COLUMNS when set (also when the output is
    redirected), else the terminal's, else 80."""
    import shutil

    return shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns or DEFAULT_WIDTH


def _to_terminal(output_file: Path | None) -> bool:
    return output_file is None and is_terminal(sys.stdout)


def is_terminal(stream: Any) -> bool:
    """False also for a stream the process was started without (`>&-`, `2>&-`: then None)."""
    return stream is not None and stream.isatty()


def _emit_result(result: PlanResult, output: Output, output_file: Path | None,
                 pods: str = "pending", configuration: str | None = None,
                 fail_on: Sequence[FailOn] = ()) -> None:
    if output is Output.table and _to_terminal(output_file):
        from rich.console import Console

        from podgroup_plan.render.table import print_result

        _to_stdout(lambda: print_result(result, Console(highlight=False, width=table_width()),
                                        pods=pods, configuration=configuration))
        return
    _write(_render_result(result, output, pods, configuration, fail_on), output_file)


def _render_result(result: PlanResult, output: Output, pods: str = "pending",
                   configuration: str | None = None, fail_on: Sequence[FailOn] = ()) -> str:
    if output is Output.json:
        from podgroup_plan.render.json_yaml import render_json
        return render_json(result.to_dict())
    if output is Output.yaml:
        from podgroup_plan.render.json_yaml import render_yaml
        return render_yaml(result.to_dict())
    if output is Output.markdown:
        from podgroup_plan.render.markdown import render_markdown
        return render_markdown(result, pods=pods, configuration=configuration)
    if output is Output.junit:
        from podgroup_plan.render.junit import render_junit
        return render_junit(result, [f.value for f in fail_on])
    from podgroup_plan.render.table import render_table
    return render_table(result, width=table_width(), pods=pods, configuration=configuration)


def _emit_diff(document: dict, output: DiffOutput, output_file: Path | None,
               label_a: str, label_b: str) -> None:
    if output is DiffOutput.json:
        from podgroup_plan.render.json_yaml import render_json
        text = render_json(document)
    elif output is DiffOutput.markdown:
        from podgroup_plan.render.diff_markdown import render_diff_markdown
        text = render_diff_markdown(document, label_a=label_a, label_b=label_b)
    elif _to_terminal(output_file):
        from rich.console import Console

        from podgroup_plan.render.diff_table import print_diff

        _to_stdout(lambda: print_diff(document, Console(highlight=False, width=table_width()),
                                      label_a, label_b))
        return
    else:
        from podgroup_plan.render.diff_table import render_diff_table
        text = render_diff_table(document, label_a=label_a, label_b=label_b,
                                 width=table_width())
    _write(text, output_file)


def _write(text: str, output_file: Path | None) -> None:
    """The result, to `output_file` (replaced atomically: a reader never sees half a result, and
    a failed write leaves the old file as it was) or to standard output. A write error is
    reported in one line with exit 2; a broken pipe on standard output ends quietly."""
    if output_file is None:
        _to_stdout(lambda: typer.echo(text, nl=False))
        return
    try:
        write_atomically(output_file, text)
    except OSError as err:
        _write_failed(str(output_file), err)


def _to_stdout(write: Callable[[], Any]) -> None:
    if sys.stdout is None:  # started with standard output closed (`>&-`): nowhere to write
        import errno

        _write_failed(STDOUT_NAME, OSError(errno.EBADF, os.strerror(errno.EBADF)))
    try:
        write()
        sys.stdout.flush()  # a full disk shows at the flush, not at interpreter exit
    except BrokenPipeError:
        _silence_stdout()
    except OSError as err:
        _silence_stdout()
        _write_failed(STDOUT_NAME, err)


def write_atomically(target: Path, text: str) -> None:
    """Write `text` to a new file beside `target`, then rename it over `target` (a regular
    file, or none yet); anything else is written in place."""
    import tempfile

    import stat

    target = Path(os.path.realpath(target))  # replace a symlink's target, not the link
    try:
        info = target.stat()
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    else:
        if not stat.S_ISREG(info.st_mode):
            # a pipe (`--output-file >(jq .)`), a terminal, /dev/null or /dev/full: written in
            # place; renaming over it would replace the device with a file
            with open(target, "w", encoding="utf-8") as fh:
                fh.write(text)
            return
        mode = info.st_mode & 0o777
    fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def _write_failed(name: str, err: OSError) -> None:
    typer.echo(f"{name}: cannot write: {err.strerror or err}", err=True)
    raise typer.Exit(EXIT_INPUT) from None


def _silence_stdout() -> None:
    """After a failed write, point stdout at /dev/null so that the interpreter's own flush at
    exit neither fails again nor prints "Exception ignored"."""
    try:
        fileno = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file (tests capture it)
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fileno)
    os.close(devnull)


if __name__ == "__main__":  # pragma: no cover
    main()
