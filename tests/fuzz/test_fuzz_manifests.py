"""Fuzzing the whole command line with mutated real manifests (issue 14).

Every example takes the manifests of a real case (a scenario folder, the CLI's manifests, the
bundled fixtures' workloads), mutates them the way hand edits, generators and hostile testers
do (wrong types, missing fields, huge and negative numbers, invalid quantities and label values,
deep nesting, unicode, shared objects written as anchors and aliases, duplicate keys, binary and
empty files, truncations), writes them as YAML or as a kubectl-style JSON List, and runs
`podgroup-plan simulate` on them. Whatever the input, the answer must be one of the contract's:

* exit 0 or 1 with a JSON result on stdout, or
* exit 2 with every line on stderr of the form `FILE[:LINE]: ...`, nothing on stdout,

never exit 3 (an internal error) and never a traceback.

Whatever the answer, nothing printed holds a raw control character from the input (issue 25):
inputs carrying them are also rendered as a table, Markdown and JUnit and every line is checked.

Classes beyond mutations of the real cases (issue 25): control characters in any string or
key (`hostile` strings), every encoding kubectl reads (UTF-16/32 and UTF-8 with a byte-order
mark, a stream of concatenated JSON objects) and content starting with NUL bytes, inputs over
the size limit (`PODGROUP_PLAN_MAX_INPUT`), deep CompositePodGroup chains, controllers asking
for far too many pods, and standard input named again as `--output-file`.

Budget: a fixed, derandomised 60 examples in CI (about half a minute). A longer run for
developers, with fresh randomness each time:

    FUZZ_EXAMPLES=3000 python -m pytest tests/fuzz -q -p no:cacheprovider

An input that breaks the tool is kept in `tests/fuzz/corpus/` (its name says what it caught):
`test_corpus_case` replays every file there on each run. When the fuzzer finds a new one, the
failure message names the file it wrote; copy it into the corpus with the fix.
"""
from __future__ import annotations

import copy
import hashlib
import json
import os
import re
import tempfile
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from podgroup_plan.cli import app

ROOT = Path(__file__).resolve().parent.parent.parent
CORPUS = Path(__file__).parent / "corpus"
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "60"))
LONG_RUN = "FUZZ_EXAMPLES" in os.environ

# FILE[:LINE]: ... (the file may be `-`, `<stdin>` or a flag such as `--feature-gates`)
PROBLEM_LINE = re.compile(r"^[^\n:]+(?::\d+)?: \S")


def _seed_sets() -> list[list[dict]]:
    """Each real case's manifests as a list of objects."""
    folders = sorted(p for p in (ROOT / "tests" / "scenarios").glob("*/manifests") if p.is_dir())
    folders.append(ROOT / "tests" / "cli" / "manifests")
    sets = []
    for folder in folders:
        docs = []
        for f in sorted(folder.glob("*.yaml")):
            docs += [d for d in yaml.safe_load_all(f.read_text()) if isinstance(d, dict)]
        if docs:
            sets.append(docs)
    cli_set = sets[-1]
    classes = [d for d in yaml.safe_load_all(
        (ROOT / "fixtures" / "cluster" / "priorityclasses.yaml").read_text()) if isinstance(d, dict)]
    for f in sorted((ROOT / "fixtures" / "workloads").glob("*.yaml")):
        docs = [d for d in yaml.safe_load_all(f.read_text()) if isinstance(d, dict)]
        if docs:  # with the CLI's nodes and the demo's PriorityClasses, so that something plans
            sets.append(docs + cli_set[:2] + classes)
    # a KubeSchedulerConfiguration among the manifests: its profiles are fuzzed too
    for f in sorted((ROOT / "tests" / "cli" / "configs").glob("*.yaml")) + sorted(
            (ROOT / "fixtures" / "scheduler-config").glob("*.yaml")):
        configs = [d for d in yaml.safe_load_all(f.read_text()) if isinstance(d, dict)]
        if configs:
            sets.append(cli_set + configs[:1])
    return sets


SEEDS = _seed_sets()

# --- mutations ---------------------------------------------------------------------------------

ODD_STRINGS = [
    "", " ", "-", ".", "1.2.3", "Ki", "1Kb", "1e", "1e1000000", "-1", "+-1", "0x10", "∞", "1_000",
    "NaN", "1e18", "99999999999999999999Ei", "9223372036854775808", "a" * 300, "é中🙂",
    "\u202e", "x\ny", "null", "~", "true", "${VAR}", "*", "&a", "!!binary", "a/b/c", "-a-",
    "UPPER", "with space", "ns/name", "1m", "0.0000000001", "123456789012345678901234567890",
]
# Strings a hostile user writes to reach the terminal: a title and a cleared screen, a forged
# line, a one-byte CSI, reversed text, a line separator, DEL, a NUL
HOSTILE_STRINGS = [
    "\x1b]0;owned\x07\x1b[2J", "x\n• all pods scheduled, nothing to see here", "\x9b31m", "\u202eevil",
    "\u2066iso\u2069", "a\u2028b", "\x7f", "nul\x00byte", "cr\roverwrite", "\x85next", "tab\tbed",
]
ODD_STRINGS += HOSTILE_STRINGS
# What must never be printed raw (the input's own line breaks, shown escaped, included)
RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029"
                         "\u202a-\u202e\u2066-\u2069]")
ODD_NUMBERS = [0, -1, 1, 2**31, -(2**31) - 1, 2**63, -(2**63) - 1, 10**30, 1e308, -1e-308,
               float("inf"), 0.5, 3.7, True, False]


def _paths(value, prefix=(), above=frozenset()):
    """Every (path, value) inside a document, outermost first (not into cycles, nor deeper
    than 60 levels: the mutations themselves make such documents)."""
    yield prefix, value
    if id(value) in above or len(prefix) > 60:
        return
    above = above | {id(value)}
    if isinstance(value, dict):
        for k, v in list(value.items()):
            yield from _paths(v, prefix + (k,), above)
    elif isinstance(value, list):
        for i, v in enumerate(list(value)):
            yield from _paths(v, prefix + (i,), above)


def _set(doc, path, value):
    target = doc
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = value


def _get(doc, path):
    target = doc
    for part in path:
        target = target[part]
    return target


def _delete(doc, path):
    target = doc
    for part in path[:-1]:
        target = target[part]
    del target[path[-1]]


def _nest(value, depth):
    for i in range(depth):
        value = [value] if i % 2 else {"x": value}
    return value


scalars = st.one_of(
    st.sampled_from(ODD_STRINGS), st.sampled_from(ODD_NUMBERS), st.none(),
    st.text(max_size=20), st.integers(), st.floats(allow_nan=False),
)
any_value = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)),
    max_leaves=6)


VALID_QUANTITIES = ["0", "1", "100m", "2", "64", "1e3", "1Gi", "512Mi", "9e15", "0.5", "3.7k"]
VALID_NAMES = ["a", "zone-a", "node-1", "default", "training", "trainer"]
QUANTITY_LIKE = re.compile(r"[0-9.]+([eE][0-9]+|[numkMGTPE]i?)?")


@st.composite
def plausible(draw, doc):
    """Mutations that keep each value's type and shape, so that the input still loads and
    the planner itself is exercised: other numbers, quantities and names, list items dropped
    or repeated, optional-looking keys deleted."""
    doc = copy.deepcopy(doc)
    for _ in range(draw(st.integers(min_value=1, max_value=6))):
        places = [(p, v) for p, v in _paths(doc) if p and p[0] not in ("apiVersion", "kind")]
        if not places:
            break
        path, value = draw(st.sampled_from(places))
        if isinstance(value, bool):
            _set(doc, path, not value)
        elif isinstance(value, int):
            _set(doc, path, draw(st.sampled_from([0, 1, 2, 3, 7, 100, 2**31 - 1, value + 1])))
        elif isinstance(value, str) and QUANTITY_LIKE.fullmatch(value):
            _set(doc, path, draw(st.sampled_from(VALID_QUANTITIES)))
        elif isinstance(value, str) and not value[:1].isupper() and not value[:1].isdigit():
            # (enums such as `Never` and timestamps are kept)
            _set(doc, path, draw(st.sampled_from(VALID_NAMES + [value + "-2"])))
        elif isinstance(value, list) and value:
            i = draw(st.integers(min_value=0, max_value=len(value) - 1))
            if draw(st.booleans()) and len(value) > 1:
                del value[i]
            else:
                value.append(copy.deepcopy(value[i]))
        elif isinstance(value, dict) and value and path[-1] in MAPS_OF_ENTRIES:
            del value[draw(st.sampled_from(sorted(value, key=str)))]
    return doc


# maps whose entries are each optional: deleting one keeps the object valid
MAPS_OF_ENTRIES = {"labels", "annotations", "nodeSelector", "matchLabels", "requests", "limits",
                   "allocatable", "capacity", "overhead"}


@st.composite
def mutated(draw, doc):
    doc = copy.deepcopy(doc)
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        places = [p for p, _ in _paths(doc) if p]
        if not places:
            break
        path = draw(st.sampled_from(places))
        action = draw(st.sampled_from(
            ["replace", "replace", "delete", "nest", "share", "number", "string", "empty",
             "hostile", "hostile-key"]))
        if action == "hostile":  # a control sequence inside a string the tool may print
            value = _get(doc, path)
            text = value if isinstance(value, str) else ""
            _set(doc, path, text + draw(st.sampled_from(HOSTILE_STRINGS)))
        elif action == "hostile-key":  # ... or inside a mapping's key (labels, resources)
            parent = _get(doc, path[:-1])
            if isinstance(parent, dict) and isinstance(path[-1], str):
                parent[path[-1] + draw(st.sampled_from(HOSTILE_STRINGS))] = parent.pop(path[-1])
        elif action == "delete":
            _delete(doc, path)
        elif action == "nest":
            depth = draw(st.sampled_from([3, 50, 400]))
            _set(doc, path, _nest(draw(any_value), depth))
            if depth > 50:  # too deep to walk again here: the last mutation
                break
        elif action == "share":  # the same object twice: YAML writes an anchor and an alias
            other = draw(st.sampled_from([p for p, v in _paths(doc) if isinstance(v, (dict, list))]))
            source = doc
            for part in other:
                source = source[part]
            _set(doc, path, source)
            if path[: len(other)] == other:  # put inside itself: a cycle, the last mutation
                break
        elif action == "number":
            _set(doc, path, draw(st.sampled_from(ODD_NUMBERS)))
        elif action == "string":
            _set(doc, path, draw(st.sampled_from(ODD_STRINGS)))
        elif action == "empty":
            _set(doc, path, draw(st.sampled_from([{}, [], "", None])))
        else:
            _set(doc, path, draw(any_value))
    return doc


def _yaml(docs) -> str:
    return yaml.safe_dump_all(docs, sort_keys=False, allow_unicode=True)


def _json_stream(docs) -> str:
    """What `kubectl get -o json -w` writes: one object after another."""
    return "\n".join(json.dumps(d, indent=4, ensure_ascii=False, allow_nan=True) for d in docs) + "\n"


def _json_list(docs) -> str:
    return json.dumps({"apiVersion": "v1", "kind": "List", "items": docs}, indent=2,
                      ensure_ascii=False, allow_nan=True)


@st.composite
def inputs(draw):
    """{file name: bytes}: a real case, some of its objects mutated, written out, perhaps
    damaged as text."""
    docs = list(draw(st.sampled_from(SEEDS)))
    gentle = draw(st.booleans())  # half the examples keep the input loadable, mostly
    for i in draw(st.sets(st.integers(min_value=0, max_value=len(docs) - 1), max_size=3)):
        docs[i] = draw(plausible(docs[i]) if gentle else mutated(docs[i]))
    fmt = draw(st.sampled_from(["yaml", "yaml", "json", "json-stream"]))
    try:
        text = (_yaml(docs) if fmt == "yaml" else _json_list(docs) if fmt == "json"
                else _json_stream(docs))
    except (ValueError, yaml.YAMLError, RecursionError):  # not representable: write the seed
        text = _yaml(draw(st.sampled_from(SEEDS)))
    data = text.encode("utf-8", "surrogatepass")
    damage = draw(st.sampled_from(["none", "none", "none", "none", "utf-16", "utf-32"])) if gentle \
        else draw(st.sampled_from(["none", "none", "none", "truncate", "duplicate-line", "binary",
                                   "empty", "bom", "tabs", "utf-16", "utf-32", "nul-start"]))
    if damage == "truncate":
        data = data[: draw(st.integers(min_value=0, max_value=max(len(data) - 1, 0)))]
    elif damage == "duplicate-line":  # duplicate keys, or a repeated item
        lines = data.split(b"\n")
        at = draw(st.integers(min_value=0, max_value=len(lines) - 1))
        lines.insert(at, lines[at])
        data = b"\n".join(lines)
    elif damage == "binary":
        at = draw(st.integers(min_value=0, max_value=len(data)))
        data = data[:at] + draw(st.binary(min_size=1, max_size=16)) + data[at:]
    elif damage == "empty":
        data = b""
    elif damage == "bom":
        data = b"\xef\xbb\xbf" + data
    elif damage == "tabs":
        data = data.replace(b"  ", b"\t", 3)
    elif damage in ("utf-16", "utf-32"):  # what Windows PowerShell writes: a byte-order mark first
        data = data.decode("utf-8", "surrogatepass").encode(damage, "surrogatepass")
    elif damage == "nul-start":  # a sparse file, a disk image
        data = b"\x00" * draw(st.sampled_from([1, 4096])) + data
    files = {f"input.{'json' if fmt == 'json-stream' else fmt}": data}
    if draw(st.booleans()):  # a second, untouched file beside it
        files["other.yaml"] = _yaml(draw(st.sampled_from(SEEDS))).encode()
    return files


# --- the check ---------------------------------------------------------------------------------

def check(files: dict[str, bytes], folder: Path, env: dict[str, str] | None = None) -> None:
    for name, data in files.items():
        (folder / name).write_bytes(data)
    result = CliRunner().invoke(app, ["simulate", str(folder), "-o", "json"], env=env)
    where = _keep(files) if result.exit_code not in (0, 1, 2) or "Traceback" in result.stderr else ""
    assert result.exit_code in (0, 1, 2), f"exit {result.exit_code}: {result.stderr}{where}"
    assert "Traceback" not in result.stderr, result.stderr + where
    _no_raw_control(result.stderr, "stderr", files)
    if result.exit_code == 2:
        assert result.stdout == ""
        lines = result.stderr.splitlines()
        assert lines, "exit 2 without a word"
        for line in lines:
            assert PROBLEM_LINE.match(line), f"not a FILE[:LINE]: problem line: {line!r}"
            assert len(line) < 2500, "a problem line that long quotes too much of the input"
    else:
        document = json.loads(result.stdout)
        assert document["kind"] == "PlanResult"
        if not LONG_RUN or _carries_controls(files):  # every human-readable output, escaped
            for output in ("table", "markdown", "junit"):
                shown = CliRunner().invoke(app, ["simulate", str(folder), "-o", output, "--pods", "all"],
                                           env=env)
                assert shown.exit_code in (0, 1), shown.stderr
                _no_raw_control(shown.stdout, output, files)
                _no_raw_control(shown.stderr, output + " stderr", files)


def _carries_controls(files: dict[str, bytes]) -> bool:
    """Whether the input may hold a control character (raw, in another encoding, or escaped in
    JSON or YAML): long runs render the human outputs only for those."""
    data = b"".join(files.values())
    return re.search(rb"[\x00-\x09\x0b-\x1f\x7f-\xff]|\\", data) is not None


def _no_raw_control(text: str, where: str, files: dict[str, bytes]) -> None:
    found = RAW_CONTROL.search(text)
    assert found is None, (f"raw {found.group()!r} in {where}: "
                           f"{text[max(found.start() - 80, 0):found.end() + 40]!r}{_keep(files)}")


def _keep(files: dict[str, bytes]) -> str:
    """Write a failing input where a developer finds it, to add it to the corpus."""
    digest = hashlib.sha256(b"".join(files.values())).hexdigest()[:12]
    out = Path(tempfile.gettempdir()) / f"podgroup-plan-fuzz-{digest}"
    out.mkdir(exist_ok=True)
    for name, data in files.items():
        (out / name).write_bytes(data)
    return f"\n(input kept in {out}; add it to tests/fuzz/corpus/ with the fix)"


@settings(max_examples=EXAMPLES, deadline=None, derandomize=not LONG_RUN, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.large_base_example])
@given(inputs())
def test_any_mutation_of_real_manifests_gets_a_contract_answer(files):
    with tempfile.TemporaryDirectory() as folder:
        check(files, Path(folder))


@pytest.mark.parametrize("case", sorted(p.name for p in CORPUS.iterdir() if p.is_dir()))
def test_corpus_case(case, tmp_path):
    """Inputs that once broke the tool: each folder is one input (its files as they were)."""
    files = {p.name: p.read_bytes() for p in sorted((CORPUS / case).iterdir())}
    check(files, tmp_path)


# --- the classes of issue 25 beyond mutations ----------------------------------------------------

NODE_DOC = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-1"},
            "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}}


@st.composite
def chains(draw):
    """A CompositePodGroup chain of any depth (the planner allows 4 levels; 400 once crashed),
    sometimes closed into a cycle or hanging from a parent that is not there."""
    levels = draw(st.sampled_from([1, 3, 5, 60, 400, 3000]))
    shape = draw(st.sampled_from(["chain", "cycle", "missing"]))
    ref = {"workloadName": "w", "templateName": "t"}
    docs = [NODE_DOC, {"apiVersion": "scheduling.k8s.io/v1alpha3", "kind": "Workload",
                       "metadata": {"name": "w", "namespace": "t"},
                       "spec": {"compositePodGroupTemplates": [{
                           "name": "t", "schedulingPolicy": {"gang": {"minGroupCount": 1}},
                           "podGroupTemplates": [{"name": "l", "schedulingPolicy": {"gang": {"minCount": 1}}}]}]}}]
    for i in range(levels):
        spec = {"workloadRef": ref, "schedulingPolicy": {"gang": {"minGroupCount": 1}}}
        parent = f"c{i - 1}" if i else {"chain": None, "cycle": f"c{levels - 1}", "missing": "gone"}[shape]
        if parent:
            spec["parentCompositePodGroupName"] = parent
        docs.append({"apiVersion": "scheduling.k8s.io/v1alpha3", "kind": "CompositePodGroup",
                     "metadata": {"name": f"c{i}", "namespace": "t"}, "spec": spec})
    docs.append({"apiVersion": "scheduling.k8s.io/v1alpha3", "kind": "PodGroup",
                 "metadata": {"name": "leaf", "namespace": "t"},
                 "spec": {"workloadRef": {"workloadName": "w", "templateName": "l"},
                          "parentCompositePodGroupName": f"c{levels - 1}",
                          "schedulingPolicy": {"gang": {"minCount": 1}}}})
    docs.append({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "t"},
                 "spec": {"schedulingGroup": {"podGroupName": "leaf"},
                          "containers": [{"name": "c", "image": "x"}]}})
    return {"chain.json": _json_list(docs).encode()}


@settings(max_examples=max(EXAMPLES // 10, 6), deadline=None, derandomize=not LONG_RUN, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(chains())
def test_composite_chains_of_any_depth_get_a_contract_answer(files):
    with tempfile.TemporaryDirectory() as folder:
        check(files, Path(folder))


@st.composite
def huge_controllers(draw):
    """Controllers asking for many pods: at, just over and far over the planner's limit."""
    from podgroup_plan.controllers.limits import MAX_CONTROLLER_PODS

    replicas = draw(st.sampled_from([MAX_CONTROLLER_PODS + 1, 10**6, 2**31 - 1, 10**18]))
    kind = draw(st.sampled_from(["Deployment", "StatefulSet", "ReplicaSet", "Job", "JobSet"]))
    template = {"metadata": {"labels": {"app": "a"}},
                "spec": {"containers": [{"name": "c", "image": "x"}]}}
    spec: dict = {"replicas": replicas, "selector": {"matchLabels": {"app": "a"}}, "template": template}
    api = {"Deployment": "apps/v1", "StatefulSet": "apps/v1", "ReplicaSet": "apps/v1",
           "Job": "batch/v1", "JobSet": "jobset.x-k8s.io/v1alpha2"}[kind]
    job = {"parallelism": replicas, "completions": replicas, "completionMode": "Indexed",
           "template": {"spec": {"restartPolicy": "Never", **template["spec"]}}}
    if kind == "Job":
        spec = job
    elif kind == "JobSet":
        spec = {"replicatedJobs": [{"name": "w", "replicas": replicas,
                                    "template": {"spec": {**job, "parallelism": 1, "completions": 1}}}]}
    if kind == "StatefulSet":
        spec["serviceName"] = "a"
    doc = {"apiVersion": api, "kind": kind, "metadata": {"name": "big", "namespace": "d"}, "spec": spec}
    return {"m.yaml": _yaml([NODE_DOC, doc]).encode()}


@settings(max_examples=max(EXAMPLES // 10, 6), deadline=None, derandomize=not LONG_RUN, database=None)
@given(huge_controllers())
def test_controllers_asking_for_too_many_pods_are_refused_at_once(files):
    with tempfile.TemporaryDirectory() as folder:
        check(files, Path(folder))
        result = CliRunner().invoke(app, ["validate", folder])
        assert result.exit_code == 2, result.stderr
        # past int32, the schema refuses the number itself, as the API server would
        assert "podgroup-plan creates at most" in result.stderr or "must be at most 2147483647" \
            in result.stderr, result.stderr


@settings(max_examples=max(EXAMPLES // 10, 6), deadline=None, derandomize=not LONG_RUN, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(inputs(), st.integers(min_value=1, max_value=4096))
def test_inputs_over_the_size_limit_are_refused_by_name(files, limit):
    """PODGROUP_PLAN_MAX_INPUT bounds every file before it is read."""
    with tempfile.TemporaryDirectory() as folder:
        check(files, Path(folder), env={"PODGROUP_PLAN_MAX_INPUT": str(limit)})
        big = [name for name, data in files.items() if len(data) > limit]
        result = CliRunner().invoke(app, ["validate", folder], env={"PODGROUP_PLAN_MAX_INPUT": str(limit)})
        for name in big:
            assert f"{Path(folder) / name}: larger than the input limit" in result.stderr, result.stderr


@settings(max_examples=max(EXAMPLES // 15, 4), deadline=None, derandomize=not LONG_RUN, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.function_scoped_fixture])
@given(st.sampled_from(SEEDS), st.sampled_from(["same", "dot", "symlink", "hardlink", "dev-stdin"]),
       st.sampled_from(["simulate", "diff"]))
def test_standard_input_named_as_output_file_is_refused_and_kept(docs, spelling, command):
    """`simulate - --output-file in.yaml < in.yaml` once overwrote the input."""
    import subprocess
    import sys

    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "in.yaml"
        data = _yaml(docs).encode()
        source.write_bytes(data)
        target = {"same": str(source), "dot": f"{folder}/./in.yaml", "symlink": f"{folder}/link.yaml",
                  "hardlink": f"{folder}/hard.yaml", "dev-stdin": "/dev/stdin"}[spelling]
        if spelling == "symlink":
            os.symlink(source, target)
        elif spelling == "hardlink":
            os.link(source, target)
        extra = ["--config-b", str(ROOT / "fixtures" / "scheduler-config" / "most-allocated.yaml")] \
            if command == "diff" else []
        with open(source, "rb") as stdin:
            result = subprocess.run([sys.executable, "-m", "podgroup_plan.cli", command, "-", *extra,
                                     "--output-file", target], stdin=stdin, capture_output=True,
                                    text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert result.returncode == 2, result.stderr
        assert "--output-file names an input (standard input is that file)" in result.stderr, result.stderr
        assert source.read_bytes() == data
