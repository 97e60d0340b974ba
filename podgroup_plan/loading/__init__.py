"""Loading the input: files -> documents -> schema check -> model -> validation.

    load_input(paths)             the ClusterInput, or InputError with every problem found
    check_not_empty(ci, paths)    InputError when the input holds no Node and no Pod
    with_lines(problems)          problems found after loading, given the line of their field
    load_scheduler_config(path)   a standalone KubeSchedulerConfiguration, as a plain dict
    summarize(cluster_input)      one line per kind, for `podgroup-plan validate`

Every stage keeps going after a problem, so that one run lists all of them (docs/contract.md:
"every problem, not only the first"). Problems are located (file, line, JSON path) only at the
end, and only the files that have problems are parsed a second time for field lines.
"""
from __future__ import annotations

import dataclasses
import gc
import itertools
import os
from collections import Counter
from contextlib import contextmanager
from typing import Any, Iterable, Iterator, Mapping, Sequence

from podgroup_plan.errors import InputError, Problem
from podgroup_plan.loading import known_fields, validate_scheduling
from podgroup_plan.loading.decode import Decoded, Decoder
from podgroup_plan.loading.decode_meta import namespace_of
from podgroup_plan.loading.documents import Document, Issue
from podgroup_plan.loading.field_lines import FieldLines, format_path, parse_path
from podgroup_plan.loading.known_fields import IGNORE, STRICT
from podgroup_plan.loading.paths import STDIN_NAME
from podgroup_plan.loading.reading import decode_text, iter_documents, read_documents
from podgroup_plan.loading.room import ensure_headroom
from podgroup_plan.loading.schema import Check, SchemaSet, bundled, group_of
from podgroup_plan.loading.unplanned import creates_pods
from podgroup_plan.loading.validate import Identity, check_input, check_object, identity, reference_notes
from podgroup_plan.loading.validate_tolerations import GATE as TOLERATION_GATE
from podgroup_plan.loading.validate_tolerations import comparison_operators
from podgroup_plan.model.cluster_input import ClusterInput

__all__ = ["load_input", "load_scheduler_config", "check_not_empty", "summarize", "InputError"]

SCHEDULER_CONFIG_KIND = "KubeSchedulerConfiguration"
_UNKNOWN: Any = object()


# Kinds that objects of another file lean on when that file is loaded apart from the input
# (`headroom --workload`): the PriorityClasses a pod or group names, the RuntimeClasses and
# LimitRanges admission applies to new pods, the runtimes a TrainJob names.
CONTEXT_KINDS = frozenset({"PriorityClass", "RuntimeClass", "LimitRange", "TrainingRuntime",
                           "ClusterTrainingRuntime"})


def load_input(paths: Sequence[str], stdin_text: str | bytes | None = None,
               validate: str = STRICT, *, context: Sequence[Document] = (),
               keep_context: list[Document] | None = None,
               feature_gates: Mapping[str, bool] | None = None) -> ClusterInput:
    """Read, check, decode and validate every object under `paths` (`-` is stdin; its text or
    bytes may be passed as `stdin_text`). Raises InputError listing every problem.

    `validate` is kubectl's `--validate` (known_fields.py): `strict` makes an unknown field
    bad input, `warn` a note of the result (`input_notes`), `ignore` lets it pass unsaid.
    `keep_context` collects the documents of CONTEXT_KINDS read; `context` is such documents
    of another input, read before `paths` (their objects are part of the result).
    `feature_gates` (`--feature-gates`, unresolved) decide the validation rules an API server
    gate changes: Gt/Lt tolerations (validate_tolerations.py)."""
    problems: list[Problem] = []
    if isinstance(stdin_text, bytes):
        stdin_text = decode_text(STDIN_NAME, stdin_text, problems) or ""
    warnings: list[Issue] = []
    with _no_gc():
        docs: Iterable[Document] = iter_documents(paths, stdin_text, problems)
        if keep_context is not None:
            docs = _kept(docs, keep_context)
        if context:
            docs = itertools.chain(context, docs)
        with comparison_operators(_gate(feature_gates, TOLERATION_GATE)):
            decoded, ignored, issues = check_and_decode(docs, validate=validate, warnings=warnings)
        if not problems and not issues:
            ci = decoded.cluster_input(ignored)
            if warnings:
                ci = dataclasses.replace(ci, input_notes=field_warnings(warnings, stdin_text))
            return ci
    try:
        raise_problems(problems, issues, stdin_text)
    except InputError as err:
        raise InputError(err.problems, partial=_partial(decoded, ignored)) from None
    raise AssertionError("unreachable")  # pragma: no cover


def _kept(docs: Iterable[Document], into: list[Document]) -> Iterator[Document]:
    for doc in docs:
        if doc.kind in CONTEXT_KINDS:
            into.append(doc)
        yield doc


def _partial(decoded: Decoded, ignored: Counter) -> ClusterInput | None:
    try:
        return decoded.cluster_input(ignored)
    except Exception:  # noqa: BLE001 - only a courtesy for more problems; the real ones stand
        return None


def check_not_empty(ci: ClusterInput, paths: Sequence[str]) -> None:
    """A whole input without a Node and without a Pod is bad input (docs/contract.md): a CI gate
    fed a failed snapshot (an empty file, empty stdin, only other kinds) must not pass. It is
    named by the first PATH (`-` for standard input). Jobs and the other objects that expand
    into pods count as pods."""
    if not ci.nodes and not ci.pods and not ci.controllers:
        raise InputError([Problem(paths[0] if paths else "-", "no Node and no Pod found in the input")])


@contextmanager
def _no_gc() -> Iterator[None]:
    # Loading allocates hundreds of thousands of dicts and lists that all stay alive; the cyclic
    # collector would walk them again and again for nothing (a third of the load time).
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def load_scheduler_config(path: str, stdin_text: str | None = None) -> dict:
    """A KubeSchedulerConfiguration file (`--scheduler-config`), schema-checked, as a dict."""
    docs, problems = read_documents([path], stdin_text)
    issues: list[Issue] = []
    configs = [d for d in docs if d.kind == SCHEDULER_CONFIG_KIND]
    for doc in docs:
        if doc.kind != SCHEDULER_CONFIG_KIND:
            issues.append(Issue(doc, ("kind",), f'expected a {SCHEDULER_CONFIG_KIND}, found "{doc.kind}"'))
    if not docs and not problems:
        problems.append(Problem(path, f"no {SCHEDULER_CONFIG_KIND} found"))
    for doc in configs[1:]:
        issues.append(Issue(doc, (), f"more than one {SCHEDULER_CONFIG_KIND} in the file", (configs[0],)))
    if configs:
        issues += schema_issues(configs[0], bundled())
    raise_problems(problems, issues, stdin_text)
    return configs[0].obj


def check_and_decode(
    docs: Iterable[Document], schemas: SchemaSet | None = None,
    validate: str = STRICT, warnings: list[Issue] | None = None,
) -> tuple[Decoded, Counter, list[Issue]]:
    """Documents -> (decoded objects, ignored kinds, issues): every stage after reading files.

    Each document is checked and decoded as it arrives (`docs` may be a generator reading
    files). Unknown fields (known_fields.py) are issues under `validate="strict"`, appended to
    `warnings` under `"warn"`, not looked for under `"ignore"`; an object holding one is still
    decoded, so that the rest of its problems are found in the same run. References that lead
    nowhere but that the API server accepts are appended to `warnings` as notes.
    """
    schemas = schemas or bundled()
    issues: list[Issue] = []
    decoder = Decoder(issues)
    owned: list[tuple[Identity, Document]] = []
    broken: set[Identity] = set()
    ignored: Counter = Counter()
    # (apiVersion, kind) -> the compiled schema check, or None: ask schema_issues (a version
    # we do not read, a schema the compiler cannot take, or a document the check refuses)
    checks: dict[tuple[str, str], Check | None] = {}
    # (apiVersion, kind) -> the known-fields check, or None (no known fields, or --validate=ignore)
    field_checks: dict[tuple[str, str], tuple[str, Check] | None] = {}
    field_issues = issues if validate == STRICT else warnings if warnings is not None else []
    for n, doc in enumerate(docs):
        if not n % 512:
            ensure_headroom()  # loading/room.py: a clean MemoryError before a crash
        kind, api_version = doc.kind, doc.api_version
        if not kind or not api_version:
            issues.append(_missing_type(doc))
            continue
        if not schemas.owns(api_version, kind):
            ignored[_ignored_name(kind, api_version, schemas)] += 1
            if creates_pods(group_of(api_version), kind):
                decoder.out.unplanned.append((kind, namespace_of(doc.metadata), str(doc.metadata.get("name") or "")))
            continue
        key = identity(doc)
        owned.append((key, doc))
        check = checks.get((api_version, kind), _UNKNOWN)
        if check is _UNKNOWN:
            check = schemas.check(api_version, kind) if schemas.supports(api_version, kind) else None
            checks[(api_version, kind)] = check
        found = [] if check is not None and check(doc.obj) else schema_issues(doc, schemas)
        fields = field_checks.get((api_version, kind), _UNKNOWN)
        if fields is _UNKNOWN:
            type_name = known_fields.type_of(api_version, kind) if validate != IGNORE else None
            fields = (type_name, known_fields.check(type_name)) if type_name else None
            field_checks[(api_version, kind)] = fields
        if fields is not None and not fields[1](doc.obj):
            said = " (not read: --validate=warn)" if field_issues is not issues else ""
            field_issues += [Issue(doc, path, message + said)
                             for path, message in known_fields.unknown_fields(fields[0], doc.obj)]
        if found:
            issues += found
            broken.add(key)
            if schemas.types_hold(api_version, kind, doc.obj):  # the API server's rules too:
                issues += check_object(doc, key)  # every problem of the object at once
                if kind == "Pod":  # and what Priority admission refuses, which comes first
                    decoder.admission_fields(doc)
            continue
        own = check_object(doc, key)
        issues += own
        if own and validate_scheduling.applies(doc):
            broken.add(key)  # decoding reads these kinds' values as their rules promise
            continue
        decoder.add(doc)
    decoded = decoder.finish()
    issues += check_input(decoded, owned)
    if warnings is not None:
        warnings += reference_notes(decoded)
    return decoded, ignored, issues


def _gate(feature_gates: Mapping[str, bool] | None, name: str) -> bool:
    """A gate as the run resolves it (config/feature_gates.py: defaults, AllAlpha/AllBeta, the
    given values); off when the gates do not resolve (their problems are the configuration's,
    reported with it)."""
    if not feature_gates:
        return False  # (no gate these rules ask about is on by default)
    from podgroup_plan.config.defaults import gate_enabled
    from podgroup_plan.config.feature_gates import resolve_feature_gates

    try:
        return gate_enabled(resolve_feature_gates(feature_gates), name)
    except InputError:
        return False


def field_warnings(warnings: list[Issue], stdin_text: str | None = None) -> tuple[str, ...]:
    """What loading let pass, as the result's notes: unknown fields under --validate=warn and
    references the API server accepts but that lead nowhere (`KIND NS/NAME: PATH: message`:
    notes name objects, never files: contract.md), sorted, each once."""
    notes = set()
    for issue in warnings:
        kind, namespace, name = identity(issue.doc)
        who = f"{kind} {namespace}/{name}" if namespace else f"{kind} {name}"
        notes.add(f"{who}: {format_path(issue.path)}: {issue.message}")
    return tuple(sorted(notes))


def schema_issues(doc: Document, schemas: SchemaSet) -> list[Issue]:
    """The apiVersion must be one we read; then the object must match its schema."""
    kind, api_version = doc.kind, doc.api_version
    if not schemas.supports(api_version, kind):
        supported = ", ".join(schemas.versions(kind))
        return [Issue(doc, ("apiVersion",), f'unsupported apiVersion "{api_version}" for {kind}; supported: {supported}')]
    return [Issue(doc, path, message) for path, message in schemas.errors(api_version, kind, doc.obj)]


def _missing_type(doc: Document) -> Issue:
    for field in ("apiVersion", "kind"):
        value = doc.obj.get(field)
        if value is None or value == "":
            return Issue(doc, (field,), "required field is missing (every object needs apiVersion and kind)")
        if not isinstance(value, str):
            return Issue(doc, (field,), "must be a string")
    raise AssertionError("unreachable")  # pragma: no cover


def _ignored_name(kind: str, api_version: str, schemas: SchemaSet) -> str:
    # Another group's kind that shares a name with one of ours (Kueue's Workload) is named
    # with its group, so that the note does not suggest ours were skipped.
    return f"{kind}.{group_of(api_version)}" if schemas.versions(kind) else kind


# --- problems ----------------------------------------------------------------------------------


def raise_problems(problems: list[Problem], issues: list[Issue], stdin_text: str | None) -> None:
    """Locate every issue (only now are field lines looked up) and raise them all at once."""
    if not problems and not issues:
        return
    lines = FieldLines(stdin_text)
    located = dict.fromkeys(issue_problem(i, lines) for i in issues)  # the same problem once, in order
    raise InputError(list(problems) + list(located))


def issue_problem(issue: Issue, lines: FieldLines) -> Problem:
    doc = issue.doc
    kind, namespace, name = identity(doc)
    line = lines.line(doc, issue.path) if issue.path or doc.line is None else doc.line
    message = issue.message
    if issue.also:
        places = ", ".join(_place(d, lines) for d in issue.also)
        message = f"{message}; also at {places}"
    return Problem(
        file=doc.file,
        message=message,
        line=line,
        document=doc.document,
        kind=kind or None,
        namespace=(namespace or None) if name else None,
        name=name or None,
        path=(issue.shown if issue.shown is not None else format_path(issue.path)) or None,
    )


def _place(doc: Document, lines: FieldLines) -> str:
    line = doc.line if doc.line is not None else lines.line(doc)
    return f"{doc.file}:{line}" if line is not None else f"{doc.file} document {doc.document}"


def with_lines(problems: Iterable[Problem], stdin_text: str | None = None) -> list[Problem]:
    """Problems found after loading (a KubeSchedulerConfiguration's profiles are checked when
    they are built) name their file, object kind and field path but not the line: look it up,
    so that they read `FILE:LINE:` like every other problem."""
    lines = FieldLines(stdin_text)
    out = []
    for p in problems:
        if p.line is None and p.path and p.kind and (os.path.isfile(p.file) or p.file == STDIN_NAME):
            line = lines.line_in(p.file, p.kind, parse_path(p.path))
            if line is not None:
                p = dataclasses.replace(p, line=line)
        out.append(p)
    return out


# --- summary -----------------------------------------------------------------------------------


def summarize(ci: ClusterInput) -> list[str]:
    """One line per kind read (for `podgroup-plan validate`), and a note naming ignored kinds."""
    running = sum(1 for p in ci.pods if p.is_running)
    implied = sum(1 for g in ci.pod_groups if g.implied)
    finished = "".join(f", {n} {phase.lower()}" for phase, n in ci.finished_pods.items())
    lines = [
        f"Node: {len(ci.nodes)}",
        f"Pod: {len(ci.pods) + sum(ci.finished_pods.values())} ({running} running, "
        f"{len(ci.pods) - running} pending{finished})",
    ]
    counts = [
        ("Namespace", ci.namespace_objects, ""),
        ("PriorityClass", len(ci.priority_classes), ""),
        ("PodDisruptionBudget", len(ci.pod_disruption_budgets), ""),
        ("Workload", len(ci.workloads), ""),
        ("PodGroup", len(ci.pod_groups), f" ({implied} implied by v1alpha1 workloadRef)" if implied else ""),
        ("CompositePodGroup", len(ci.composite_pod_groups), ""),
    ]
    found = ci.controllers
    if found is not None:  # expanded into pods by the plan (docs/controllers.md)
        counts += [("Job", len(found.jobs), ""), ("JobSet", len(found.job_sets), ""),
                   ("Deployment", len(found.deployments), ""), ("TrainJob", len(found.train_jobs), ""),
                   ("PyTorchJob", len(found.pytorch_jobs), ""), ("TFJob", len(found.tf_jobs), ""),
                   ("LeaderWorkerSet", len(found.leader_worker_sets), ""),
                   ("RayCluster", len(found.ray_clusters), ""), ("RayJob", len(found.ray_jobs), ""),
                   ("CronJob", len(found.cron_jobs), ""), ("DaemonSet", len(found.daemon_sets), "")]
    selectors = Counter(s.kind for s in ci.spread_selectors)
    counts += [(kind, selectors[kind], "") for kind in sorted(selectors)]
    counts.append((SCHEDULER_CONFIG_KIND, 1 if ci.scheduler_config is not None else 0, ""))
    lines += [f"{kind}: {n}{extra}" for kind, n, extra in counts if n]
    if ci.ignored_kinds:
        kinds = ", ".join(f"{k} ({n})" for k, n in sorted(ci.ignored_kinds.items()))
        lines.append(f"input kinds not planned (ignored): {kinds}")
    return lines
