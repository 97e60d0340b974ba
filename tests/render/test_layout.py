"""render.layout: natural order, elision in the middle, widths that fit, wrapping that never
breaks a node name."""
import random

import pytest
from rich.text import Text

from podgroup_plan.render import layout
from podgroup_plan.render.layout import Column, elide_middle, natural_key, natural_ref_key, wrap


@pytest.mark.parametrize("names, expected", [
    (["job-10", "job-2", "job-1"], ["job-1", "job-2", "job-10"]),
    (["eval-sweep-10", "eval-sweep-2", "eval-sweep-11"], ["eval-sweep-2", "eval-sweep-10", "eval-sweep-11"]),
    # run by run: "a-" (then 1) is a shorter run than "a-!", which sorts before "a-b" by code point
    (["a-b", "a-1", "a-!"], ["a-1", "a-!", "a-b"]),
    # digits inside a word that go on with letters are text: by code point, as kubectl lists them
    (["a-!x", "a-1x", "a-bx"], ["a-!x", "a-1x", "a-bx"]),
    (["nb-7d9f8c6b5d-bd50a", "nb-7d9f8c6b5d-579f2", "nb-7d9f8c6b5d-0a806", "nb-7d9f8c6b5d-2a9ac",
      "nb-7d9f8c6b5d-27f36"],
     ["nb-7d9f8c6b5d-0a806", "nb-7d9f8c6b5d-27f36", "nb-7d9f8c6b5d-2a9ac", "nb-7d9f8c6b5d-579f2",
      "nb-7d9f8c6b5d-bd50a"]),
    (["train-10-b2x9q", "train-2-zz9k4", "train-1-x7kq2"], ["train-1-x7kq2", "train-2-zz9k4", "train-10-b2x9q"]),
    (["ip-10-0-12-34.us-west-2.compute.internal", "ip-10-0-9-40.us-west-2.compute.internal"],
     ["ip-10-0-9-40.us-west-2.compute.internal", "ip-10-0-12-34.us-west-2.compute.internal"]),
    (["gpu-z2-r10-n1", "gpu-z2-r9-n12", "gpu-z2-r9-n3"], ["gpu-z2-r9-n3", "gpu-z2-r9-n12", "gpu-z2-r10-n1"]),
    # equal numbers: the text decides, so the order is total
    (["x-1", "x-01", "x-001"], ["x-001", "x-01", "x-1"]),
    (["B", "a", "10", "9"], ["9", "10", "B", "a"]),
], ids=["basic", "demo", "code-point", "code-point-2", "random-suffixes", "job-index-then-suffix",
       "eks-addresses", "several-runs", "leading-zeros", "mixed"])
def test_natural_order(names, expected):
    assert sorted(names, key=natural_key) == expected
    shuffled = names[:]
    random.Random(1).shuffle(shuffled)
    assert sorted(shuffled, key=natural_key) == expected


def test_namespace_first():
    refs = [("b", "job-1"), ("a", "job-10"), ("a", "job-9")]
    assert sorted(refs, key=lambda r: natural_ref_key(*r)) == [("a", "job-9"), ("a", "job-10"), ("b", "job-1")]


@pytest.mark.parametrize("width, expected", [
    (40, "ml-research/vision-pretrain-trainers"),
    (15, "ml-rese…rainers"),
    (8, "ml-r…ers"),
    (1, "…"),
])
def test_elide_middle(width, expected):
    out = elide_middle(Text("ml-research/vision-pretrain-trainers"), width)
    assert out.plain == expected and out.cell_len <= width


def test_wrap_breaks_between_words_with_a_hanging_indent():
    nodes = ", ".join(f"gpu-z1-r3-n{i}" for i in range(1, 9))
    lines = [line.plain for line in wrap(Text("nodes: " + nodes), 40, 2, 2)]
    assert all(len(line) <= 40 for line in lines)
    assert lines[0].startswith("  nodes: ") and all(line.startswith("    gpu") for line in lines[1:])
    words = " ".join(lines).split()
    assert words == ("nodes: " + nodes).split()  # nothing lost, no word broken


def test_wrap_folds_only_a_word_longer_than_the_line():
    lines = [line.plain for line in wrap(Text("x" * 25 + " end"), 10)]
    assert lines == ["x" * 10, "x" * 10, "xxxxx end"]


def _table(rows):
    t = layout.Table("T", [Column("Pod", elide=True), Column("Node"), Column("Status")])
    for row in rows:
        t.add_row(*row)
    return t


def test_columns_are_as_wide_as_their_longest_value_and_no_wider():
    lines = [line.plain for line in _table([("a/p-1", "node-1", "Scheduled")]).lines(200)]
    assert lines[1] == "Pod    Node    Status"
    assert lines[3] == "a/p-1  node-1  Scheduled"


def test_names_give_way_nodes_never():
    node = "gpu-a100-us-east-1a-rack-07-node-031"
    pod = "ml-research/" + "very-long-training-job-name-" * 3 + "0"
    lines = [line.plain for line in _table([(pod, node, "Scheduled")]).lines(80)]
    assert all(len(line) <= 80 for line in lines)
    row = lines[3]
    assert node in row and "…" in row.split()[0]
    assert row.split()[0].startswith("ml-research/ve") and row.split()[0].endswith("name-0")


def test_right_justified_numbers_and_no_trailing_spaces():
    t = layout.Table("S", [Column(""), Column("Count", justify="right")])
    t.add_row("Pods", "7")
    t.add_row("PodGroups", "12")
    lines = [line.plain for line in t.lines(80)]
    assert lines[3:] == ["Pods           7", "PodGroups     12"]


def test_detail_lines_wrap_at_the_width():
    t = layout.Table("T", [Column("PodGroup", elide=True), Column("Status")])
    t.add_row("ml/g", "Unschedulable", details=["word " * 40, None, ""])
    lines = [line.plain for line in t.lines(50)]
    detail = lines[4:]
    assert all(len(line) <= 50 for line in lines) and len(detail) > 1
    assert detail[0].startswith("  word") and detail[1].startswith("    word")


def test_a_row_with_the_wrong_number_of_cells_is_a_bug():
    with pytest.raises(ValueError):
        _table([("a", "b")])


def test_an_owner_name_wraps_the_row_rather_than_being_cut():
    owner = "ReplicaSet data-science-notebooks/notebook-servers-7d9f8c6b5d"
    t = layout.Table("By owner", [Column("Owner", whole=True), Column("Pods")])
    t.add_row(owner, "0 of 12 pods scheduled, 12 Preempted")
    lines = [line.plain for line in t.lines(80)]
    assert all(len(line) <= 80 for line in lines)
    assert lines[3] == owner and lines[4] == "  pods: 0 of 12 pods scheduled, 12 Preempted"
    # at 200 columns the row is one line
    assert [line.plain for line in t.lines(200)][3] == owner + "  0 of 12 pods scheduled, 12 Preempted"


def test_an_owner_name_wider_than_the_width_alone_is_elided_as_the_last_resort():
    owner = "Deployment " + "n" * 30 + "/" + "d" * 60
    t = layout.Table("By owner", [Column("Owner", whole=True), Column("Pods")])
    t.add_row(owner, "0 of 3 pods scheduled")
    lines = [line.plain for line in t.lines(60)]
    assert all(len(line) <= 60 for line in lines)
    assert "…" in lines[3] and lines[3].startswith("Deployment nnn") and lines[4].startswith("  pods: ")
