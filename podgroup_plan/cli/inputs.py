"""Reading what a command is given: the manifests (files, folders, standard input), the
configuration files and `--feature-gates`, with every problem of all of them reported at once
(`load`); `--output-file` checked against them (nothing the tool reads is ever modified) and
`--no-expand`. A new input source (another kind of file, a flag that reads one) starts here and
in `loading/`."""
from __future__ import annotations

import dataclasses
import os
import sys
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from podgroup_plan.cli.guard import gather
from podgroup_plan.cli.output import is_terminal
from podgroup_plan.cli.progress import DelayedStatus
from podgroup_plan.errors import InputError, Problem

if TYPE_CHECKING:
    from podgroup_plan.config.configuration import Configuration
    from podgroup_plan.model.cluster_input import ClusterInput

# The file name config.configuration.build_profiles() gives problems of a configuration it was
# handed without one.
UNNAMED_CONFIG = "<config>"


def naming(config_file: Path | None, step: Callable[[], Any]) -> Any:
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


def read_stdin(paths: list[str], problems: list[Problem]) -> bytes | str | None:
    """Standard input's bytes when a PATH is `-` (decoded by loading, which reports bytes that
    are not UTF-8 as bad input), read within the input limit (loading/bounded.py: a device is
    refused unread, an endless stream as soon as it passes the limit; then b"" and a problem).
    typer's CliRunner swaps sys.stdin, so this works in tests."""
    if "-" not in paths:
        return None
    from podgroup_plan.loading.bounded import read_stream
    from podgroup_plan.loading.paths import STDIN_NAME

    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:  # a text stream (some test harnesses)
        return sys.stdin.read()
    data = read_stream(buffer, STDIN_NAME, problems)
    return b"" if data is None else data


def load(paths: list[str], config_files: Sequence[Path | None], feature_gates: str | None,
          manifest_config_used: bool = True, validate: str = "strict",
          keep_context: list[Any] | None = None, resolved: list[Configuration | None] | None = None,
          ) -> tuple[ClusterInput, list[Mapping | None], dict[str, bool] | None]:
    """Read the manifests, each configuration file (None: no file) and the feature gates, and
    build the profiles of every configuration that will be used (`manifest_config_used`: the
    one found among the manifests stands in for a None); every problem of all of them in one
    InputError, so that a bad flag or a broken manifest hides nothing else. `validate` is
    `--validate` (loading/known_fields.py). `keep_context` collects the documents other files
    lean on (loading.CONTEXT_KINDS: PriorityClasses, ...), for `load_workload`. `resolved`
    receives, per configuration file, the Configuration built while checking it (the file's,
    or the manifests' one standing in for a None), to hand to `plan()` so that it is not
    resolved again; None where no configuration was found (`plan()` resolves the default)."""
    from podgroup_plan import loading

    stdin_problems: list[Problem] = []
    stdin_text = read_stdin(paths, stdin_problems)

    # the gates first: some of the API server's rules depend on them (loading.load_input)
    (gates,), gate_problems = gather(lambda: parse_gates(feature_gates))

    def load_input() -> Any:
        with DelayedStatus("Reading manifests…") if is_terminal(sys.stderr) else nullcontext():
            return loading.load_input(list(paths), stdin_text, validate=validate, keep_context=keep_context,
                                      feature_gates=gates)

    steps: list[Callable[[], Any]] = [load_input]
    steps += [_config_step(f) for f in config_files]
    (cluster, *configs), problems = gather(*steps)
    problems = stdin_problems + problems + gate_problems
    # Each configuration that will be used is resolved here, once: its problems join the
    # others, and the result goes on to plan() (`resolved`). The manifests' configuration is
    # resolved once however many files are missing.
    checks: list[tuple[Mapping, str]] = [(config, str(f)) for f, config in zip(config_files, configs)
                                         if f is not None and config is not None]
    manifests = (manifest_config_used and cluster is not None and cluster.scheduler_config is not None
                 and any(f is None for f in config_files))
    if manifests:
        checks.append((cluster.scheduler_config, cluster.scheduler_config_source or UNNAMED_CONFIG))
    built, config_problems = gather(*[lambda c=c, f=f: build_profiles(c, gates, f) for c, f in checks])
    problems += config_problems
    if resolved is not None:
        by_file = iter(built)
        found = [next(by_file) if f is not None and config is not None else None
                 for f, config in zip(config_files, configs)]
        from_manifests = next(by_file) if manifests else None
        resolved[:] = [from_manifests if f is None else c for f, c in zip(config_files, found)]
    if problems:
        text = stdin_text.decode("utf-8", "replace") if isinstance(stdin_text, bytes) else stdin_text
        raise InputError(loading.with_lines(problems, text))
    loading.check_not_empty(cluster, paths)
    return cluster, configs, gates


def load_workload(file: str, context: Sequence[Any], gates: Mapping[str, bool] | None = None) -> ClusterInput:
    """A file of work to add to the input (`headroom --workload`), loaded with the input's
    PriorityClasses, RuntimeClasses, LimitRanges and runtimes (`context`, from `load`'s
    `keep_context`) as kube-apiserver would admit it into that cluster. The file's own objects
    stand where it is also one of the input's files. `gates`: `--feature-gates`, as `load` read
    them."""
    from podgroup_plan import loading
    from podgroup_plan.loading.paths import same_file

    return loading.load_input([file], context=[d for d in context if not _same(d.file, file, same_file)],
                              feature_gates=gates)


def _same(a: str, b: str, same_file: Callable[[str, str], bool]) -> bool:
    return os.path.exists(a) and os.path.exists(b) and same_file(a, b)


def _config_step(file: Path | None) -> Callable[[], Any]:
    """The step reading one configuration file (None: no file, nothing to read)."""
    from podgroup_plan import loading

    return lambda: loading.load_scheduler_config(str(file)) if file is not None else None


def build_profiles(config: Mapping, gates: Mapping[str, bool] | None, file: str) -> Configuration:
    """`config` (named `file`) resolved with `gates`, as plan() resolves it; InputError lists
    its problems."""
    from podgroup_plan.config.configuration import resolve_configuration

    # gates that did not parse are reported on their own; the profiles are built with the rest
    return resolve_configuration(config, gates or {}, config_source=file)


def check_output_file(output_file: Path | None, paths: list[str],
                       config_files: Sequence[Path | None]) -> None:
    """`--output-file` must not name anything the command reads: nothing the tool reads is
    ever modified (a typo such as `--output-file cluster.yaml` would destroy the input)."""
    if output_file is None:
        return
    from podgroup_plan.loading.paths import MANIFEST_SUFFIXES, expand_paths, same_file

    files, _ = expand_paths([p for p in paths if p != "-"])
    files += [str(f) for f in config_files if f is not None]
    for name in files:
        if same_file(str(output_file), name):  # the same device and inode: links, hard links
            raise InputError([Problem(str(output_file), f"--output-file names an input ({name}); "
                                      "it would be overwritten: choose another file")])
    if "-" in paths and _is_stdin(output_file):
        # `simulate - --output-file in.yaml < in.yaml`: standard input is that very file
        raise InputError([Problem(str(output_file), "--output-file names an input (standard "
                                  "input is that file); it would be overwritten: choose another file")])
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


def _is_stdin(output_file: Path) -> bool:
    """Whether `output_file` (links followed) is the regular file standard input reads."""
    import stat

    try:
        given = os.fstat(sys.stdin.fileno())
    except (AttributeError, OSError, ValueError):  # no descriptor (tests swap the stream), closed
        return False
    if not stat.S_ISREG(given.st_mode):
        return False  # a pipe or a terminal: writing a file cannot overwrite it
    try:
        target = os.stat(output_file)
    except OSError:  # does not exist yet
        return False
    return (target.st_dev, target.st_ino) == (given.st_dev, given.st_ino)


def parse_gates(text: str | None) -> dict[str, bool] | None:
    if text is None:
        return None
    from podgroup_plan.config.configuration import parse_feature_gates

    return parse_feature_gates(text)


def expansion(cluster: ClusterInput, no_expand: bool, admit_suspended: bool = False,
              gang: bool = False) -> ClusterInput:
    """`--no-expand`: the controllers are dropped before the plan (a note says so); `--gang`:
    the operators' objects are planned as gangs (controllers.with_gangs).
    `--admit-suspended`: every suspended Job and JobSet is planned as if admitted (Kueue's
    question: would it fit once admitted?), i.e. with `spec.suspend: false`."""
    if admit_suspended and cluster.controllers is not None:
        found = cluster.controllers
        jobs = tuple(dataclasses.replace(j, suspend=False) if j.suspend else j for j in found.jobs)
        job_sets = tuple(dataclasses.replace(j, suspend=False) if j.suspend else j for j in found.job_sets)
        job_sets = tuple(dataclasses.replace(js, replicated_jobs=tuple(
            dataclasses.replace(rj, job=dataclasses.replace(rj.job, suspend=False)) for rj in js.replicated_jobs))
            for js in job_sets)
        cluster = dataclasses.replace(cluster, controllers=dataclasses.replace(found, jobs=jobs, job_sets=job_sets))
    if not no_expand:
        if gang and cluster.controllers is not None:
            from podgroup_plan.controllers import with_gangs

            return with_gangs(cluster)
        return cluster
    from podgroup_plan.controllers import without_expansion

    return without_expansion(cluster)


def without_config(cluster: ClusterInput) -> ClusterInput:
    if cluster.scheduler_config is None:
        return cluster
    return dataclasses.replace(cluster, scheduler_config=None)



def config_source(config_file: Path | None) -> str:
    return str(config_file) if config_file is not None else UNNAMED_CONFIG
