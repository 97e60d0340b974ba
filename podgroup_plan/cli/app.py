"""The `podgroup-plan` typer application: the root command (`--version`, `--help`), the exit
codes (docs/contract.md), and the command classes that read options as a person writes them,
without pydantic. The commands register themselves on `app`, one module each
(`podgroup_plan.cli.COMMAND_MODULES`).

Exit codes: 0 planned (and no --fail-on condition holds) / valid / A equals B; 1 a --fail-on
condition holds / A and B differ; 2 bad input or usage, every problem on stderr, no traceback, or
the result could not be written; 3 an internal error (a bug): one line, the traceback only with
`--debug` (`guard.guard`).
"""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
import typer.core

from podgroup_plan import KUBERNETES_VERSION, __version__

# Exit codes (docs/contract.md).
EXIT_OK = 0
EXIT_CONDITION = 1
EXIT_INPUT = 2
EXIT_INTERNAL = 3


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
                checked = coerce_cli_path(value, info, path_type=None, param=param, ctx=ctx)
                return Path(checked)  # type: ignore[arg-type]  # (str: path_type None)
            return get_runtime_param().coerce(value, param=param, ctx=ctx)  # type: ignore[misc]

    # An instance attribute wins over typer's method (as in `_plain_argument`).
    param.get_runtime_param = lambda: PlainCoercion



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
