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
            ["replace", "replace", "delete", "nest", "share", "number", "string", "empty"]))
        if action == "delete":
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
    fmt = draw(st.sampled_from(["yaml", "yaml", "json"]))
    try:
        text = _yaml(docs) if fmt == "yaml" else _json_list(docs)
    except (ValueError, yaml.YAMLError, RecursionError):  # not representable: write the seed
        text = _yaml(draw(st.sampled_from(SEEDS)))
    data = text.encode("utf-8", "surrogatepass")
    damage = "none" if gentle else draw(st.sampled_from(
        ["none", "none", "none", "truncate", "duplicate-line", "binary", "empty", "bom", "tabs"]))
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
    files = {f"input.{fmt}": data}
    if draw(st.booleans()):  # a second, untouched file beside it
        files["other.yaml"] = _yaml(draw(st.sampled_from(SEEDS))).encode()
    return files


# --- the check ---------------------------------------------------------------------------------

def check(files: dict[str, bytes], folder: Path) -> None:
    for name, data in files.items():
        (folder / name).write_bytes(data)
    result = CliRunner().invoke(app, ["simulate", str(folder), "-o", "json"])
    where = _keep(files) if result.exit_code not in (0, 1, 2) or "Traceback" in result.stderr else ""
    assert result.exit_code in (0, 1, 2), f"exit {result.exit_code}: {result.stderr}{where}"
    assert "Traceback" not in result.stderr, result.stderr + where
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
