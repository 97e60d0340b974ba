"""`podgroup-plan snapshot`: read a live cluster into files the planner reads (a List per kind)."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from podgroup_plan.cli.app import EXIT_INPUT, EXIT_OK, PlainCommand, app
from podgroup_plan.cli.guard import guard
from podgroup_plan.cli.live_input import ContextOpt, KubeconfigOpt, Progress, live_errors
from podgroup_plan.cli.options import DebugOpt


@app.command(cls=PlainCommand)
def snapshot(
    output: Annotated[str, typer.Option(
        "-o", "--output", metavar="DIR|FILE", show_default=False,
        help="Where to write: a new or empty folder (one List per kind), or one file ending in "
             ".yaml/.yml (every List in it). Written only once everything has been read.")],
    kubeconfig: KubeconfigOpt = None,
    context: ContextOpt = None,
    namespace: Annotated[Optional[list[str]], typer.Option(
        "-n", "--namespace", metavar="NS", show_default=False,
        help="Read the namespaced kinds of NS only (repeatable; default: every namespace). "
             "Pods bound to a node in other namespaces are still read: they take the node's room.")] = None,
    anonymize: Annotated[bool, typer.Option(
        "--anonymize",
        help="Replace every name, namespace, label value and image by a token that keeps their "
             "order (gaps drawn with a random key; label keys, resource names, topology keys and "
             "quantities are kept); the key file maps them back (podgroup-plan deanonymize).")] = False,
    key_file: Annotated[Optional[Path], typer.Option(
        "--key-file", metavar="FILE", dir_okay=False,
        help="With --anonymize: where to write the key and the names it mapped (a new file; keep "
             "it, do not share it). Default: OUTPUT.key.json beside the output.")] = None,
    debug: DebugOpt = False,
) -> None:
    """Read a live cluster into manifests the planner reads: every kind it plans with that the
    server serves, as a List per kind (kubectl get -o yaml style, managedFields stripped).

    Needs the optional extra podgroup-plan[live]. Exit 0 when written, 2 when the cluster could
    not be read (nothing is left behind)."""
    with guard(debug):
        from podgroup_plan.live import snapshot as live_snapshot
        from podgroup_plan.live.client import connect
        from podgroup_plan.live.writer import check_target

        if key_file is not None and not anonymize:
            raise typer.BadParameter("--key-file goes with --anonymize", param_hint="'--key-file'")
        problem = check_target(output)
        if problem is not None:
            typer.echo(f"podgroup-plan: {problem}", err=True)
            raise typer.Exit(EXIT_INPUT)
        with live_errors():
            keys = None
            if anonymize:
                from podgroup_plan.live.anonymize import KeyFile

                keys = KeyFile.create(str(key_file) if key_file else default_key_file(output))
            cluster = connect(str(kubeconfig) if kubeconfig else None, context)
            progress = Progress()
            try:
                report = live_snapshot.take(cluster, output, namespace or (),
                                            anonymizer=keys.anonymizer() if keys else None, progress=progress)
            finally:
                progress.close()
            if keys is not None:
                try:
                    keys.save()
                except BaseException:
                    _remove(output)  # a snapshot nobody can map back is no use to its owner
                    raise
        if report.not_served:
            typer.echo(f"podgroup-plan: {report.not_served_line()}", err=True)
        counts = ", ".join(f"{n} {k.resource}" for k, n in report.counts)
        typer.echo(f"podgroup-plan: wrote {output}: {counts} (context {report.context}, read at {report.read_at})",
                   err=True)
        if keys is not None:
            typer.echo(f"podgroup-plan: names anonymised; the key file {keys.path} maps them back: keep it, "
                       "do not share it", err=True)
    raise typer.Exit(EXIT_OK)


def _remove(output: str) -> None:
    import shutil

    path = Path(output)
    if path.is_dir():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def default_key_file(output: str) -> str:
    return str(Path(output.rstrip("/")).with_name(Path(output.rstrip("/")).name + ".key.json"))
