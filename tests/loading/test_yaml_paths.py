"""The YAML fast path (objects built from libyaml's events) against PyYAML's node composer.

`yaml_stream.yaml_documents` builds each document straight from the parser's events and keeps only
the lines of the objects; anything unusual (merge keys, explicit collection tags, complex keys,
undefined aliases) sends the rest of the file through PyYAML's composer and constructor
(`_node_documents`). Both must give the same documents, lines and problems.
"""
from __future__ import annotations

import string

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from podgroup_plan.loading import yaml_stream
from podgroup_plan.loading.aliases import aliasing_problem


def _both(text: str):
    out = []
    for reader in (yaml_stream.yaml_documents, yaml_stream._node_documents):
        problems: list = []
        docs = [(d.obj, d.document, d.line, d.items) for d in reader("f.yaml", text, problems)]
        out.append((docs, [str(p) for p in problems]))
    return out


def _used_fast_path(text: str) -> bool:
    try:
        list(yaml_stream._event_documents("f.yaml", text, []))
    except yaml_stream._Unusual:
        return False
    return True


scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**40), 2**40),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(string.ascii_letters + string.digits + " :-_./#'\"{}[]&*!|>%@`,?", max_size=12),
    st.sampled_from(["yes", "No", "on", "~", "null", "017", "0x1F", "1_000", "2025-01-01",
                     "2025-01-01T00:00:00Z", "1e3", ".inf", "-.NaN", "=", "<<"]),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.text(string.ascii_lowercase + "-./", min_size=1, max_size=8), inner, max_size=4),
    ),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(st.lists(values, min_size=1, max_size=3), st.sampled_from([False, True, None]))
def test_event_and_node_paths_agree_on_any_dumped_stream(docs, flow):
    text = yaml.safe_dump_all(docs, default_flow_style=flow)
    fast, slow = _both(text)
    assert fast == slow


@pytest.mark.parametrize(
    "text, fast",
    [
        ("apiVersion: v1\nkind: List\nitems:\n- {kind: A, apiVersion: v1}\n-   kind: B\n    apiVersion: v1\n", True),
        ("a: &x 3\nb: *x\n", True),  # an aliased scalar cannot multiply anything
        # an aliased collection goes to the node path, where the alias budget is checked
        ("a: &x {b: 1}\nc: *x\nd: &y 3\ne: *y\n", False),
        ("a: !!float 1\nb: !!binary aGk=\nc: 0o17\nd: !!str 12\ne: !!timestamp 2025-01-01\n", True),
        ("a:\n  <<: {b: 1}\n  c: 2\n", False),
        ("a: !!set {x, y}\n", False),
        ("? [a, b]\n: c\n", False),
        ("a: 1\n---\nb: *nowhere\n", False),
        ("a: &x 1\n---\nb: *x\n", False),  # anchors do not cross documents
        ("a: &x 1\n---\nb: &x 2\nc: *x\n", True),  # nor do their definitions: no duplicate
        # an anchor defined twice: PyYAML's composer refuses it, so the event path does too
        ("a: &x 1\nb: &x 2\nc: *x\n", False),
        ("a: &x 1\nb: &x 2\n", False),
        ("a: &x [1]\nb: &x {c: 2}\n", False),
        ("a: &x {b: &x 1}\n", False),
        ("a: !custom 1\n", True),  # PyYAML's own constructor error, with its line
        ("a: 1\n---\nb: [1\n", True),  # a syntax error keeps the documents before it
        ("---\n---\nkind: X\n", True),
    ],
)
def test_unusual_features_fall_back_with_the_same_result(text, fast):
    assert _used_fast_path(text) is fast
    fast_result, slow_result = _both(text)
    assert fast_result == slow_result


def test_fallback_resumes_after_the_documents_already_given():
    text = "apiVersion: v1\nkind: A\n---\napiVersion: v1\nkind: B\nm:\n  <<: {x: 1}\n"
    problems: list = []
    docs = list(yaml_stream.yaml_documents("f.yaml", text, problems))
    assert [(d.obj["kind"], d.document, d.line) for d in docs] == [("A", 1, 1), ("B", 2, 4)]
    assert docs[1].obj["m"] == {"x": 1}
    assert problems == []


# --- documents with aliased collections: the event builder counting go-yaml's alias budget ----

def _budget_path_read_all(text: str) -> bool:
    """Whether `_BudgetBuilder` read every document (no fall back to the node path)."""
    try:
        list(yaml_stream._event_documents("f.yaml", text, [], budget=True))
    except yaml_stream._Unusual:
        return False
    return True


@settings(max_examples=100, deadline=None)
@given(st.lists(values, min_size=1, max_size=4), st.lists(st.integers(0, 3), max_size=6),
       st.sampled_from([False, True, None]))
def test_shared_values_dumped_with_anchors_read_as_the_node_path_reads_them(shared, uses, flow):
    """PyYAML's dumper writes an anchor for a collection met twice and aliases after: both
    paths give the same documents, lines and problems, and the event path reads them itself."""
    items = [{"kind": "A", "apiVersion": "v1", "v": shared[i % len(shared)]} for i in uses]
    text = yaml.safe_dump_all([{"kind": "List", "apiVersion": "v1", "items": items}, shared],
                              default_flow_style=flow)
    fast, slow = _both(text)
    assert fast == slow
    assert _budget_path_read_all(text)


def _ladder(widths: list[int], filler: int) -> str:
    lines = [f"l0: &l0 [{', '.join(['x'] * widths[0])}]"]
    lines += [f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * w)}]" for i, w in enumerate(widths[1:], 1)]
    return f"filler: [{', '.join(['y'] * filler)}]\n" + "\n".join(lines) + "\n"


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 12), min_size=2, max_size=4), st.integers(0, 3000))
def test_the_budget_path_refuses_exactly_what_the_node_path_refuses(widths, filler):
    """Ladders of aliases around go-yaml's ratio: the counting builder accepts a document only
    when `aliasing_problem` does (a refusal goes to the node path, which words it)."""
    text = "a: 1\n---\n" + _ladder(widths, filler)
    refused = aliasing_problem(list(yaml.compose_all(text, Loader=yaml.SafeLoader))[1])
    assert _budget_path_read_all(text) is (refused is None)
    fast, slow = _both(text)
    assert fast == slow


@pytest.mark.parametrize(
    "text, budget_reads_it",
    [
        ("a: &x {b: 1}\nc: *x\nd: &y 3\ne: *y\n", True),
        ("a: &x [1, *x]\n", False),  # contains itself: refused by the node path
        ("a: &x {b: *x}\n", False),
        ("a: &x [1]\nb: &x [2]\nc: *x\n", False),  # duplicate anchor: PyYAML's composer error
        ("a: &x [1]\n---\nb: *x\n", False),  # anchors do not cross documents
        ("a: &x [1]\nb: *x\nc:\n  <<: {d: 1}\n", False),  # merge key
        ("a: &x [1]\nb: *x\n" + "c: " + "[" * 501 + "]" * 501 + "\n", False),  # too deep
        ("a: &x [1]\nb: *x\n" + "c: " + "[" * 200 + "]" * 200 + "\n", True),  # deep, within Python's limit
    ],
)
def test_aliased_collections_with_unusual_features_fall_back_with_the_same_result(text, budget_reads_it):
    assert _used_fast_path(text) is False
    assert _budget_path_read_all(text) is budget_reads_it
    fast_result, slow_result = _both(text)
    assert fast_result == slow_result


def test_the_budget_path_resumes_after_the_documents_already_given():
    text = ("apiVersion: v1\nkind: A\n---\napiVersion: v1\nkind: B\nm: &t [1]\nn: *t\n---\n"
            "apiVersion: v1\nkind: C\n")
    problems: list = []
    docs = list(yaml_stream.yaml_documents("f.yaml", text, problems))
    assert [(d.obj["kind"], d.document, d.line) for d in docs] == [("A", 1, 1), ("B", 2, 4), ("C", 3, 9)]
    assert docs[1].obj["n"] is docs[1].obj["m"]
    assert problems == []


def test_a_duplicate_anchor_is_refused_on_both_paths():
    """Session 3 found the event builder letting a second scalar anchor of the same name win
    (go-yaml's way) where the composer refuses the document; the project keeps the refusal
    (README, Input limits), whichever path reads the document: the documents before it are
    read, the problem names its line, and the later documents are not read."""
    text = ("apiVersion: v1\nkind: A\n---\napiVersion: v1\nkind: B\nm: &t one\nn: &t two\no: *t\n"
            "---\napiVersion: v1\nkind: C\n")
    for budget_first in ("", "p: &l [1]\nq: *l\n"):  # plain builder, and the alias-budget builder
        fast, slow = _both(budget_first + text)
        assert fast == slow
        docs, problems = fast
        assert [d[0]["kind"] for d in docs] == ["A"]
        first = 6 + budget_first.count(chr(10))
        assert problems == [f"f.yaml:{first + 1}: invalid YAML: anchor defined twice in one document "
                            f"(first at line {first})"]
