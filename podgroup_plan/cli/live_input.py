"""The live-cluster options shared by the commands (`--kubeconfig`, `--context`,
`--from-cluster`), a LiveError as one line and exit 2, and `--from-cluster`'s input: the
cluster read into a private temporary snapshot (removed after the run) that is planned with
the local files, and the note that names the cluster and when it was read."""
from __future__ import annotations

import dataclasses
import shutil
import sys
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Iterator, Optional

import typer

from podgroup_plan.cli.app import EXIT_INPUT

if TYPE_CHECKING:
    from podgroup_plan.cli.progress import ProgressBar
    from podgroup_plan.live.snapshot import Report
    from podgroup_plan.result import PlanResult

KubeconfigOpt = Annotated[Optional[Path], typer.Option(
    "--kubeconfig", metavar="FILE", dir_okay=False,
    help="kubeconfig to read the cluster with (default: $KUBECONFIG, else ~/.kube/config).")]
ContextOpt = Annotated[Optional[str], typer.Option(
    "--context", metavar="NAME", help="kubeconfig context to use (default: its current context).")]
FromClusterOpt = Annotated[bool, typer.Option(
    "--from-cluster",
    help="Also read the live cluster (every kind the planner reads; needs podgroup-plan[live]) and "
         "plan the given files against it; nothing is written. See --context, --kubeconfig.")]


@contextmanager
def live_errors() -> Iterator[None]:
    """A failure reading the cluster: one line on stderr, exit 2, no traceback."""
    from podgroup_plan.errors import escape_controls
    from podgroup_plan.live import LiveError

    try:
        yield
    except LiveError as err:
        typer.echo(f"podgroup-plan: {escape_controls(str(err))}", err=True)
        raise typer.Exit(EXIT_INPUT) from None


class Progress:
    """The snapshot's progress on stderr: a bar per kind, on a terminal only."""

    def __init__(self) -> None:
        from podgroup_plan.cli.output import is_terminal

        self.enabled = is_terminal(sys.stderr)
        self.bar: ProgressBar | None = None
        self.label = ""

    def __call__(self, label: str, done: int, total: int | None) -> None:
        if not self.enabled:
            return
        from podgroup_plan.cli.progress import ProgressBar  # noqa: F811 - at run time

        if label != self.label:
            self.close()
            self.bar, self.label = ProgressBar(label=label), label
        if self.bar is not None:
            self.bar(done, total if total is not None else done + 1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


@dataclass(frozen=True)
class LiveInput:
    """What `--from-cluster` adds to a run: the paths to read, and the note naming the cluster."""

    paths: tuple[str, ...] = ()
    note: str | None = None

    def noted(self, result: PlanResult) -> PlanResult:
        if self.note is None:
            return result
        return dataclasses.replace(result, notes=tuple(sorted({*result.notes, self.note})))


@contextmanager
def cluster_input(from_cluster: bool, kubeconfig: Path | None, context: str | None) -> Iterator[LiveInput]:
    """With `--from-cluster`: the temporary snapshot's folder to read and the note naming the
    cluster and when it was read; the snapshot is removed when the run ends."""
    if not from_cluster:
        if context is not None or kubeconfig is not None:
            raise typer.BadParameter("--context and --kubeconfig go with --from-cluster",
                                     param_hint="'--context'" if context is not None else "'--kubeconfig'")
        yield LiveInput()
        return
    from podgroup_plan.live import snapshot
    from podgroup_plan.live.client import connect

    scratch = tempfile.mkdtemp(prefix="podgroup-plan-cluster-")
    try:
        with live_errors():
            cluster = connect(str(kubeconfig) if kubeconfig else None, context)
            progress = Progress()
            try:
                report = snapshot.take(cluster, str(Path(scratch) / "cluster"), progress=progress)
            finally:
                progress.close()
        if report.not_served:
            typer.echo(f"podgroup-plan: {report.not_served_line()}", err=True)
        yield LiveInput((str(Path(scratch) / "cluster"),), from_cluster_note(report))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def from_cluster_note(report: Report) -> str:
    objects = sum(n for _, n in report.counts)
    from podgroup_plan.render.common import SOURCE_NOTE

    return (f"{SOURCE_NOTE}read from context {report.context} ({report.server}) at {report.read_at}, "
            f"{objects} object(s)")
