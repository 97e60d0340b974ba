"""Options shared by the commands, and the callbacks that read words and counts in plain words
(the options are typed `str` so that no version of typer converts, and words, them first)."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Callable, Optional, Sequence

import typer


def words_of(choices: Sequence[str], what: str) -> Callable[[Any], Any]:
    """An option callback taking one of `choices` (case-insensitive), or a list of them.
    A wrong word is answered in plain words with the choices (`'xml' is not an output format;
    use table, json, yaml, markdown or junit`) instead of the parser's `Value error, ...`."""

    def one(value: Any) -> str:
        word = str(value).strip().lower()
        if word in choices:
            return word
        raise typer.BadParameter(
            f"{value!r} is not {what}; use {', '.join(choices[:-1])} or {choices[-1]}")

    def convert(value: Any) -> Any:
        if value is None:
            return None
        if isinstance(value, (list, tuple)):
            return [one(v) for v in value]
        return one(value)

    return convert


def metavar(choices: Sequence[str]) -> str:
    """`table|json|...`: how the help shows an option's choices."""
    return "|".join(choices)


def whole_number(value: Any, flag: str) -> int:
    """An option callback for a count (0 or more), answered in words when it is not one (the
    option is typed `str` so that typer does not word the error itself)."""
    text = str(value).strip()
    if not text.isdigit():
        raise typer.BadParameter(f"{value!r} is not a whole number (0 or more), e.g. {flag} 3")
    return int(text)


PathsArg = Annotated[list[str], typer.Argument(
    metavar="PATH", show_default=False,
    help="Manifest files or folders (read recursively: *.yaml, *.yml, *.json); '-' reads stdin.")]
SchedulerConfigOpt = Annotated[Optional[Path], typer.Option(
    "--scheduler-config", metavar="FILE", dir_okay=False,
    help="KubeSchedulerConfiguration file; wins over one found among the manifests.")]
FeatureGatesOpt = Annotated[Optional[str], typer.Option(
    "--feature-gates", metavar="NAME=BOOL,...",
    help="kube-scheduler feature gates, e.g. TopologyAwareWorkloadScheduling=false.")]
AdmitSuspendedOpt = Annotated[bool, typer.Option(
    "--admit-suspended",
    help="Plan suspended Jobs and JobSets as if admitted (Kueue creates every Job suspended): "
         "would they fit once admitted?")]
NoExpandOpt = Annotated[bool, typer.Option(
    "--no-expand",
    help="Do not expand Jobs, JobSets, Deployments, ReplicaSets, StatefulSets, DaemonSets, "
         "CronJobs and the operators' objects into the pods their controllers would create; "
         "plan only the pods in the input.")]
GangOpt = Annotated[bool, typer.Option(
    "--gang",
    help="Plan every TrainJob, JobSet, PyTorchJob, TFJob, LeaderWorkerSet, RayCluster, RayJob and "
         "CronJob as a Workload with Gang PodGroups (the planner's mapping, docs/controllers.md), "
         "as 1.37 gang scheduling would; without it they are planned pod by pod, as their "
         "operators' 2026 releases are scheduled. The annotation podgroup-plan.io/gang decides "
         "per object.")]
OutputFileOpt = Annotated[Optional[Path], typer.Option(
    "--output-file", metavar="FILE", dir_okay=False,
    help="Write the output to FILE instead of standard output.")]
DebugOpt = Annotated[bool, typer.Option(
    "--debug", help="On an internal error (exit 3), also print the Python traceback.")]



# kubectl's --validate (kubectl/pkg/cmd/util/helpers.go GetValidationDirective): strict (also
# `true`, the default), warn, ignore (also `false`). loading/known_fields.py says what it checks.
VALIDATE_CHOICES = ("strict", "warn", "ignore", "true", "false")


def validate_directive(value: Any) -> str:
    word = words_of(VALIDATE_CHOICES, "a --validate value")(value)
    return {"true": "strict", "false": "ignore"}.get(word, word)


ValidateOpt = Annotated[str, typer.Option(
    "--validate", callback=validate_directive, metavar="strict|warn|ignore",
    help="Unknown fields (as kubectl's --validate): strict refuses them (exit 2), warn plans "
         "and names them in the notes, ignore drops them. true = strict, false = ignore.")]
