"""Loading's shortcuts change nothing a user sees.

A large dump is loaded through two shortcuts: a pretty-printed JSON List is streamed item by
item (`json_stream._stream_list`) instead of parsed whole, and each object is checked by the compiled
schema predicate (`schema_compiler.CheckCompiler`), jsonschema being asked only about the objects the
predicate refuses. On any input, here kubectl-layout objects with random damage, the shortcuts
and the slow paths must give the same problems (every one, with the same FILE:LINE, object,
field and message) or the same loaded objects.
"""
from __future__ import annotations

import copy
import dataclasses
import os
import tempfile

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from podgroup_plan.errors import InputError
from podgroup_plan.loading import load_input
from podgroup_plan.loading.schema import SchemaSet

from .samples import NODE, POD, RUNNING_POD
from .test_schema import INTERESTING, KEYS, _mutate, _paths

# The head of a List the streaming reader takes, and one it leaves to the whole-file parse
# (a nested object in the List's metadata); both are three lines, so every line stays put.
STREAMED_META = {"resourceVersion": ""}
WHOLE_META = {"n": {}}


# Text that YAML accepts too: a field's line is found by reading the file as YAML (JSON is
# YAML's flow style), so for a file holding a control character only the streamed reader,
# which counts lines as it reads, knows an item's line; the whole-file parse names the document.
_TEXT = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Cn")), max_size=3)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2**63, 2**64 - 1) | st.floats(allow_nan=False, allow_infinity=False) | _TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3),
    max_leaves=4,
)


def _list_text(items: list, meta: dict) -> bytes:
    envelope = {"apiVersion": "v1", "kind": "List", "metadata": meta, "items": items}
    return orjson.dumps(envelope, option=orjson.OPT_INDENT_2)


def _outcome(path: str) -> tuple:
    """The problems as the CLI prints them, or the loaded objects (without their source line,
    which only the streamed reader knows without a re-parse)."""
    try:
        ci = load_input([path])
    except InputError as err:
        return "problems", [str(p) for p in err.problems]
    return "input", (
        [dataclasses.replace(p, source=None) for p in ci.pods],
        [dataclasses.replace(n, source=None) for n in ci.nodes],
    )


def _load_all_ways(items: list) -> dict[str, tuple]:
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "dump.json")
        outcomes = {}
        for way, meta in (("streamed", STREAMED_META), ("whole", WHOLE_META)):
            with open(path, "wb") as fh:
                fh.write(_list_text(items, meta))
            outcomes[way] = _outcome(path)
        with open(path, "wb") as fh:
            fh.write(_list_text(items, STREAMED_META))
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(SchemaSet, "check", lambda self, api_version, kind: None)  # jsonschema alone
            outcomes["jsonschema"] = _outcome(path)
    return outcomes


def _named(obj: dict, name: str) -> dict:
    obj = copy.deepcopy(obj)
    obj["metadata"]["name"] = name
    return obj


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_streamed_compiled_and_slow_paths_agree(data):
    bases = data.draw(st.lists(st.sampled_from([RUNNING_POD, RUNNING_POD, POD, NODE]), min_size=1, max_size=4))
    names = data.draw(st.lists(st.sampled_from(["a", "b", "c", "Bad_Name"]), min_size=len(bases),
                               max_size=len(bases)))
    items = [_named(b, n) for b, n in zip(bases, names)]
    for _ in range(data.draw(st.integers(0, 3), label="mutations")):
        i = data.draw(st.integers(0, len(items) - 1), label="item")
        path = data.draw(st.sampled_from(list(_paths(items[i]))), label="path")
        action = data.draw(st.sampled_from(["replace", "delete", "add"]), label="action")
        new = copy.deepcopy(data.draw(INTERESTING | JSON, label="value"))
        items[i] = _mutate(items[i], path, action, new, data.draw(KEYS, label="key"))
    outcomes = _load_all_ways(items)
    assert outcomes["streamed"] == outcomes["whole"]
    assert outcomes["streamed"] == outcomes["jsonschema"]


def test_a_damaged_dump_reports_every_problem_the_same_way():
    """One example of the above, fixed: problems in several items, schema and others."""
    items = [_named(RUNNING_POD, "a"), _named(RUNNING_POD, "b"), _named(NODE, "n1"), _named(RUNNING_POD, "a")]
    items[0]["spec"]["containers"][0]["ports"][0]["containerPort"] = "eighty"  # schema
    items[1]["spec"]["containers"][0]["resources"]["requests"]["cpu"] = "1x"  # decoding
    items[1]["metadata"]["labels"]["bad key!"] = "v"  # validation
    items[2]["status"] = []  # schema, on a node
    outcomes = _load_all_ways(items)
    kind, problems = outcomes["streamed"]
    assert kind == "problems" and len(problems) >= 5  # also both copies of default/a
    assert all(":" in p.split(" ")[0] and p.split(":")[1].isdigit() for p in problems)  # FILE:LINE
    assert outcomes["whole"] == outcomes["streamed"] == outcomes["jsonschema"]
