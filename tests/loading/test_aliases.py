"""The alias budget (loading/aliases.py): go-yaml's rule, checked against a literal re-run of
go-yaml's counters that expands every alias, and end to end through the loader."""
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from podgroup_plan.loading.aliases import (
    CONTAINS_ITSELF,
    EXCESSIVE_ALIASING,
    aliasing_problem,
    allowed_alias_ratio,
)
from podgroup_plan.loading.reading import read_documents


def compose(text: str) -> yaml.Node:
    return yaml.compose(text, Loader=yaml.SafeLoader)


class Refused(Exception):
    pass


def literal_go_yaml(root: yaml.Node) -> str | None:
    """go-yaml's `decoder.unmarshal` counting, literally: every alias expanded, the check made
    after every decode. Only for small documents."""
    walk_slots(root)
    counts = {"decodes": 1, "aliases": 0}  # the document node
    try:
        unmarshal_slots(root, 0, counts)
    except Refused:
        return EXCESSIVE_ALIASING
    return None


def walk_slots(root):
    """Which (parent, index) slots hold an alias: the anchored node met again in document order
    (fixed by the text, so the same slots are aliases again inside an expansion)."""
    seen = {id(root)}
    slots = set()

    def walk(node):
        children = _children(node)
        for i, child in enumerate(children):
            if id(child) in seen:
                slots.add((id(node), i))
                continue
            seen.add(id(child))
            walk(child)

    walk(root)
    walk_slots.slots = slots


def _children(node):
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def unmarshal_slots(node, depth, counts, is_alias=False):
    counts["decodes"] += 1
    if depth > 0:
        counts["aliases"] += 1
    d, a = counts["decodes"], counts["aliases"]
    if a > 100 and d > 1000 and a / d > allowed_alias_ratio(d):
        raise Refused
    if is_alias:  # the alias node counted; now its target, one alias level deeper
        unmarshal_slots(node, depth + 1, counts)
        return
    for i, child in enumerate(_children(node)):
        unmarshal_slots(child, depth, counts, (id(node), i) in walk_slots.slots)


def ladder(widths: list[int], filler: int, filler_first: bool = False) -> str:
    """Level 0 is a list of `widths[0]` scalars; level i a list of widths[i] aliases to level
    i-1; `filler` plain scalars make the document larger without aliases."""
    lines = [f"l0: &l0 [{', '.join(['x'] * widths[0])}]"]
    for i, w in enumerate(widths[1:], start=1):
        lines.append(f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * w)}]")
    if filler:
        at = 0 if filler_first else len(lines)
        lines.insert(at, f"filler: [{', '.join(['y'] * filler)}]")
    return "\n".join(lines) + "\n"


def test_a_billion_laughs_is_refused_without_expanding_it():
    bomb = ladder([9] * 10, 0)  # 9^10 values in a few hundred bytes
    assert aliasing_problem(compose(bomb)) == EXCESSIVE_ALIASING


def test_ordinary_anchors_are_fine():
    text = "a: &t [{key: a, operator: Exists}]\nb: *t\nc: *t\n"
    assert aliasing_problem(compose(text)) is None
    assert aliasing_problem(compose("a: 1\nb: [1, 2]\n")) is None


def test_an_anchor_containing_itself_is_refused():
    assert aliasing_problem(compose("a: &x [1, *x]\n")) == CONTAINS_ITSELF


def test_the_ratio_tapers_as_go_yaml_does():
    assert allowed_alias_ratio(1000) == 0.99
    assert allowed_alias_ratio(4_000_000) == 0.10
    assert abs(allowed_alias_ratio(2_200_000) - 0.545) < 1e-9


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=12), min_size=2, max_size=5),
       st.integers(min_value=0, max_value=3000), st.booleans())
def test_same_verdict_as_go_yaml_counting_every_expansion(widths, filler, filler_first):
    total = 1
    for w in widths:
        total *= w
    if total > 40_000:  # the literal re-run would take too long; the bomb test covers these
        widths = widths[:3]
    root = compose(ladder(widths, filler, filler_first))
    assert aliasing_problem(root) == literal_go_yaml(root)


def test_the_examples_reach_both_verdicts():
    """Both sides of the rule are exercised: a ladder of 12^4 is refused, one of 12^3 is not;
    plain nodes before the aliases bring it back under the ratio, after them they come too
    late (go-yaml fails at the first decode over the ratio)."""
    refused = compose(ladder([12, 12, 12, 12], 0))
    allowed = compose(ladder([12, 12, 12], 0))
    assert aliasing_problem(refused) == literal_go_yaml(refused) == EXCESSIVE_ALIASING
    assert aliasing_problem(allowed) == literal_go_yaml(allowed) is None
    padded = compose(ladder([12, 12, 12, 12], 3000, filler_first=True))
    assert aliasing_problem(padded) == literal_go_yaml(padded) is None
    late = compose(ladder([12, 12, 12, 12], 3000, filler_first=False))
    assert aliasing_problem(late) == literal_go_yaml(late) == EXCESSIVE_ALIASING


def test_the_loader_reports_the_bomb_and_reads_the_other_documents(tmp_path):
    bomb = "\n".join("  " + line for line in ladder([9] * 9, 0).splitlines())
    (tmp_path / "m.yaml").write_text(
        "apiVersion: v1\nkind: Node\nmetadata: {name: n}\n---\n"
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: x}]\n"
        "  extra:\n" + "\n".join("  " + line for line in bomb.splitlines()) + "\n")
    docs, problems = read_documents([str(tmp_path / "m.yaml")])
    assert [d.kind for d in docs] == ["Node"]
    assert [str(p) for p in problems] == [
        f"{tmp_path / 'm.yaml'}:5: invalid YAML: document contains excessive aliasing"]
