"""Reading manifests: files, folders, stdin, multi-document YAML, List envelopes, lines."""
from __future__ import annotations

import orjson
import pytest

from podgroup_plan.loading.field_lines import FieldLines, format_path
from podgroup_plan.loading.reading import read_documents


def read(*paths, stdin_text=None):
    docs, problems = read_documents(list(paths), stdin_text)
    return docs, [str(p) for p in problems]


def test_documents_lines_and_indexes(manifests):
    manifests.write("a.yaml", """
        # leading comment
        apiVersion: v1
        kind: Namespace
        metadata: {name: one}
        ---
        ---
        # an empty document above (skipped, still counted) and a comment here
        apiVersion: v1
        kind: Namespace
        metadata: {name: two}
        ---
    """)
    docs, problems = read("a.yaml")
    assert problems == []
    assert [(d.obj["metadata"]["name"], d.document, d.line) for d in docs] == [
        ("one", 1, 2),
        ("two", 3, 8),
    ]


KUBECTL_LIST = """
apiVersion: v1
items:
- apiVersion: v1
  kind: Pod
  metadata:
    creationTimestamp: "2025-01-01T00:00:00Z"
    managedFields:
    - apiVersion: v1
      fieldsType: FieldsV1
      fieldsV1: {f:spec: {}}
      manager: kubectl
    name: a
    namespace: default
    resourceVersion: "123"
    uid: 0b8c
  spec:
    containers:
    - name: c
      image: nginx
  status:
    phase: Running
    conditions:
    - type: Ready
      status: "True"
- apiVersion: v1
  kind: Pod
  metadata:
    name: b
  spec:
    containers: [{name: c}]
kind: List
metadata:
  resourceVersion: ""
"""


def test_kubectl_list_items_have_their_own_lines(manifests):
    manifests.write("dump.yaml", KUBECTL_LIST)
    docs, problems = read("dump.yaml")
    assert problems == []
    assert [(d.obj["metadata"]["name"], d.document, d.line, d.items) for d in docs] == [
        ("a", 1, 3, (0,)),
        ("b", 1, 25, (1,)),
    ]
    # timestamps stay text (the apiserver's view), not datetimes
    assert docs[0].obj["metadata"]["creationTimestamp"] == "2025-01-01T00:00:00Z"


def test_api_list_items_get_kind_and_api_version(manifests):
    manifests.write("nodes.json", orjson.dumps({
        "apiVersion": "v1", "kind": "NodeList", "metadata": {},
        "items": [{"metadata": {"name": "n1"}}, {"metadata": {"name": "n2"}}],
    }).decode())
    docs, _ = read("nodes.json")
    assert [(d.kind, d.api_version, d.obj["metadata"]["name"]) for d in docs] == [
        ("Node", "v1", "n1"),
        ("Node", "v1", "n2"),
    ]
    assert [d.line for d in docs] == [None, None]  # JSON: found only when a problem needs it


def test_nested_and_empty_lists(manifests):
    manifests.write("l.yaml", """
        kind: List
        apiVersion: v1
        items:
        - kind: List
          apiVersion: v1
          items:
          - {apiVersion: v1, kind: Namespace, metadata: {name: inner}}
        - kind: PodList
          apiVersion: v1
          items: []
    """)
    docs, _ = read("l.yaml")
    assert [(d.obj["metadata"]["name"], d.items, d.line) for d in docs] == [("inner", (0, 0), 7)]


def test_folders_are_read_recursively_in_sorted_order(manifests):
    for name in ["b/z.yaml", "b/a.yml", "a.json", "c/.hidden.yaml", ".git/x.yaml", "notes.txt", "b/c/d.yaml"]:
        manifests.write(name, '{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "x"}}')
    docs, problems = read(".")
    assert problems == []
    assert [d.file for d in docs] == ["./a.json", "./b/a.yml", "./b/c/d.yaml", "./b/z.yaml"]


def test_paths_keep_their_order_and_files_are_read_once(manifests):
    manifests.write("z.yaml", "{apiVersion: v1, kind: Namespace, metadata: {name: z}}")
    manifests.write("a.yaml", "{apiVersion: v1, kind: Namespace, metadata: {name: a}}")
    docs, _ = read("z.yaml", "a.yaml", "z.yaml")
    assert [d.file for d in docs] == ["z.yaml", "a.yaml"]


def test_stdin_yaml_and_json():
    docs, problems = read("-", stdin_text="apiVersion: v1\nkind: Namespace\nmetadata: {name: y}\n")
    assert problems == [] and docs[0].file == "<stdin>" and docs[0].line == 1
    docs, _ = read("-", stdin_text='{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "j"}}')
    assert docs[0].obj["metadata"]["name"] == "j"


def test_stdin_read_from_the_process_when_no_text_given(monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("{apiVersion: v1, kind: Namespace, metadata: {name: s}}"))
    docs, _ = read("-")
    assert docs[0].obj["metadata"]["name"] == "s"


def test_yaml_syntax_error_has_its_line_and_keeps_earlier_documents(manifests):
    manifests.write("bad.yaml", """
        apiVersion: v1
        kind: Namespace
        metadata: {name: ok}
        ---
        apiVersion: v1
        kind: Pod
        metadata:
          name: x
         namespace: y
    """)
    docs, problems = read("bad.yaml")
    assert [d.obj["metadata"]["name"] for d in docs] == ["ok"]
    assert problems == ["bad.yaml:9: invalid YAML: while parsing a block mapping: did not find expected key"]


def test_json_syntax_error_has_its_line(manifests):
    manifests.write("bad.json", '{\n  "apiVersion": "v1",\n  "kind": \n}\n')
    _, problems = read("bad.json")
    (problem,) = problems
    assert problem.startswith("bad.json:4: invalid JSON: unexpected character")  # orjson's wording


@pytest.mark.parametrize(
    "text, message",
    [
        ("- a\n- b\n", "bad.yaml:1: expected a Kubernetes object (a mapping with apiVersion and kind), got a list"),
        ("just text\n", "bad.yaml:1: expected a Kubernetes object (a mapping with apiVersion and kind), got str 'just text'"),
    ],
)
def test_documents_that_are_not_objects(manifests, text, message):
    manifests.write("bad.yaml", text)
    assert read("bad.yaml")[1] == [message]


def test_missing_paths_and_empty_folders(manifests):
    (manifests.root / "empty").mkdir()
    _, problems = read("nope.yaml", "empty")
    assert problems == ["nope.yaml: no such file or folder", "empty: folder holds no .yaml, .yml or .json files"]


def test_not_utf8(manifests):
    (manifests.root / "bin.yaml").write_bytes(b"a: \xff\n")
    assert read("bin.yaml")[1] == ["bin.yaml:1: not UTF-8 text (byte 3)"]


def test_yaml_features_manifests_use(manifests):
    manifests.write("f.yaml", """
        apiVersion: v1
        kind: ConfigMap
        metadata: &meta {name: x, labels: {a: "1"}}
        data:
          copy: *meta
          merged:
            <<: {a: 1, b: 2}
            b: 3
          octal: 017
          hex: 0x1F
          bool: yes
          date: 2025-01-01
          float: 1.5
          nothing: ~
    """)
    (doc,), _ = read("f.yaml")
    data = doc.obj["data"]
    assert data["copy"] == {"name": "x", "labels": {"a": "1"}}
    assert data["merged"] == {"a": 1, "b": 3}
    assert (data["octal"], data["hex"], data["bool"], data["date"], data["float"], data["nothing"]) == (
        15, 31, True, "2025-01-01", 1.5, None,
    )


def test_unhashable_key_is_a_yaml_problem(manifests):
    manifests.write("k.yaml", "? [a, b]\n: c\n")
    assert read("k.yaml")[1] == ["k.yaml:1: invalid YAML: while constructing a mapping: found unhashable key"]


@pytest.mark.parametrize(
    "path, text",
    [
        ((), ""),
        (("spec", "containers", 0, "resources", "requests", "cpu"), "spec.containers[0].resources.requests.cpu"),
        (("spec", "containers", 0, "resources", "requests", "nvidia.com/gpu"), "spec.containers[0].resources.requests[nvidia.com/gpu]"),
        (("metadata", "labels", "app.kubernetes.io/name"), "metadata.labels[app.kubernetes.io/name]"),
        (("items", 3), "items[3]"),
    ],
)
def test_format_path(path, text):
    assert format_path(path) == text


def test_field_lines(manifests):
    manifests.write("dump.yaml", KUBECTL_LIST)
    docs, _ = read("dump.yaml")
    lines = FieldLines()
    assert lines.line(docs[0], ("spec", "containers", 0, "image")) == 19
    assert lines.line(docs[0], ("status", "conditions", 0, "status")) == 24
    assert lines.line(docs[0], ("spec", "containers", 0, "resources", "requests")) == 18  # missing: its parent
    assert lines.line(docs[1], ("spec", "containers", 0)) == 30
    assert lines.line(docs[1]) == 25


def test_field_lines_in_json_lists(manifests):
    text = orjson.dumps({"apiVersion": "v1", "kind": "List", "items": [
        {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "a"}},
        {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "b"}},
    ]}, option=orjson.OPT_INDENT_2).decode()
    manifests.write("l.json", text)
    docs, _ = read("l.json")
    lines = FieldLines()
    assert lines.line(docs[1]) == 12
    assert lines.line(docs[1], ("metadata", "name")) == 16


# --- large JSON Lists are read item by item --------------------------------------------------------


def _namespaces(*names):
    return [{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": n}} for n in names]


def test_pretty_json_list_is_streamed_with_lines(manifests):
    text = orjson.dumps({"apiVersion": "v1", "items": _namespaces("a", "b", "c"), "kind": "List",
                         "metadata": {"resourceVersion": ""}}, option=orjson.OPT_INDENT_2).decode()
    manifests.write("l.json", text)
    docs, problems = read("l.json")
    assert problems == []
    starts = [i for i, t in enumerate(text.splitlines(), 1) if t == "    {"]
    lines = FieldLines()  # an item's line is counted only when a problem needs it
    assert [(d.obj["metadata"]["name"], lines.line(d), d.items) for d in docs] == [
        ("a", starts[0], (0,)), ("b", starts[1], (1,)), ("c", starts[2], (2,))]
    assert all(d.span is not None and d.line is None for d in docs)
    assert [lines.line_at("l.json", d.span[0]) for d in reversed(docs)] == starts[::-1]  # any order


def test_api_list_header_names_the_items(manifests):
    # The API's own order: kind and metadata first, items without kind/apiVersion.
    text = ('{\n  "kind": "NamespaceList",\n  "apiVersion": "v1",\n  "metadata": {"resourceVersion": "7"},\n'
            '  "items": [\n    {\n      "metadata": {"name": "a"}\n    },\n    {\n      "metadata": {"name": "b"}\n    }\n  ]\n}\n')
    manifests.write("l.json", text)
    docs, _ = read("l.json")
    assert [(d.kind, d.api_version, FieldLines().line(d), d.span is not None) for d in docs] == [
        ("Namespace", "v1", 6, True), ("Namespace", "v1", 9, True)]


@pytest.mark.parametrize(
    "text",
    [
        # the second item does not start on its own line: read whole from there on
        '{\n  "kind": "List",\n  "apiVersion": "v1",\n  "items": [\n    {\n      "apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "a"}\n    }, {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "b"}}\n  ]\n}\n',
        # items without kind, list kind after the items (only the whole file says what they are)
        '{\n  "apiVersion": "v1",\n  "items": [\n    {\n      "metadata": {"name": "a"}\n    },\n    {\n      "metadata": {"name": "b"}\n    }\n  ],\n  "kind": "NamespaceList"\n}\n',
        # compact
        '{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"a"}},{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"b"}}]}',
    ],
    ids=["breaks off midway", "kind after items", "compact"],
)
def test_json_lists_that_cannot_be_streamed_are_read_whole(manifests, text):
    manifests.write("l.json", text)
    docs, problems = read("l.json")
    assert problems == []
    assert [(d.kind, d.obj["metadata"]["name"], d.items) for d in docs] == [
        ("Namespace", "a", (0,)), ("Namespace", "b", (1,))]


def test_broken_json_after_streamed_items(manifests):
    text = orjson.dumps({"apiVersion": "v1", "items": _namespaces("a"), "kind": "List"},
                        option=orjson.OPT_INDENT_2).decode()
    manifests.write("l.json", text.replace('"kind": "List"', '"kind": List'))
    docs, problems = read("l.json")
    assert [d.obj["metadata"]["name"] for d in docs] == ["a"]  # read before the break was seen
    (problem,) = problems
    assert problem.startswith("l.json:12: invalid JSON: ")


def test_braces_in_strings_do_not_fool_the_splitter(manifests):
    objs = [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"},
             "data": {"x": "\n  }\n}", "y": "{"}}] + _namespaces("b")
    text = orjson.dumps({"apiVersion": "v1", "kind": "List", "items": objs}, option=orjson.OPT_INDENT_2).decode()
    manifests.write("l.json", text)
    docs, _ = read("l.json")
    assert [d.obj for d in docs] == objs


def test_items_of_any_size_are_split_where_they_end(manifests):
    """The end of an item is searched from most of the shortest item's length on; an item
    shorter than that (here after long ones, and a tiny one) must still be found whole, with
    its own line."""
    long_labels = {f"k{i}": "v" * 40 for i in range(30)}
    objs = []
    for i, size in enumerate([30, 30, 2, 30, 0, 1, 30, 0]):
        obj = _namespaces(f"n{i}")[0]
        if size:
            obj["metadata"]["labels"] = dict(list(long_labels.items())[:size])
        objs.append(obj)
    text = orjson.dumps({"apiVersion": "v1", "kind": "List", "items": objs},
                        option=orjson.OPT_INDENT_2).decode()
    manifests.write("l.json", text)
    docs, problems = read("l.json")
    assert problems == []
    assert [d.obj for d in docs] == objs
    starts = [i for i, t in enumerate(text.splitlines(), 1) if t == "    {"]
    lines = FieldLines()
    assert [lines.line(d) for d in docs] == starts
    assert all(d.span is not None for d in docs)  # streamed, not read whole


def test_a_list_read_from_a_named_pipe_counts_its_lines_as_it_reads(manifests):
    """A named pipe cannot be read again for lines (opening it again would wait for a writer):
    its items' lines are counted while it is streamed, and a problem still names its line."""
    import os
    import threading

    objs = _namespaces("a", "b") + [{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "Bad_Name"}}]
    text = orjson.dumps({"apiVersion": "v1", "kind": "List", "items": objs}, option=orjson.OPT_INDENT_2)
    starts = [i for i, t in enumerate(text.decode().splitlines(), 1) if t == "    {"]
    os.mkfifo("pipe.json")

    def through_the_pipe(read_it):
        def write() -> None:
            with open("pipe.json", "wb") as fh:
                fh.write(text)

        writer = threading.Thread(target=write)
        writer.start()
        try:
            return read_it("pipe.json")
        finally:
            writer.join()

    docs, problems = through_the_pipe(read)
    assert problems == [] and [d.line for d in docs] == starts and all(d.span for d in docs)
    assert through_the_pipe(manifests.problems) == [
        f'pipe.json:{starts[2]}: Namespace Bad_Name: metadata.name: Invalid value: "Bad_Name": '
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start "
        "and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
        "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')"]
