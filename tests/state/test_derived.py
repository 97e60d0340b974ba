"""The one caching idiom (state/derived.py): memos bounded by bytes, data kept on the state,
no cache keyed by a state anywhere else, typed CycleState keys."""
from __future__ import annotations

import ast
from pathlib import Path

import numpy as np

from podgroup_plan.model.objects import Node
from podgroup_plan.state.cluster import ClusterState
from podgroup_plan.state.derived import DerivedKey, Memo, nbytes_of

PACKAGE = Path(__file__).resolve().parents[2] / "podgroup_plan"


def test_memo_keeps_least_recently_used_within_its_byte_budget():
    memo = Memo(max_bytes=3 * 800)
    for i in range(3):
        memo.put(i, np.zeros(100))  # 800 bytes each
    assert memo.get(0) is not None  # 0 is now the most recent
    memo.put(3, np.zeros(100))
    assert list(memo.keys()) == [2, 0, 3]  # 1, the least recently used, went
    assert memo.nbytes == 2400


def test_memo_never_drops_the_newest_entry_even_over_budget():
    memo = Memo(max_bytes=0)
    memo.put("a", np.zeros(10))
    memo.put("b", np.zeros(10))
    assert list(memo.keys()) == ["b"] and memo.nbytes == 80


def test_memo_computes_once_and_returns_none_values():
    memo, calls = Memo(), []
    assert memo.get("k", lambda: calls.append(1)) is None  # a None result is kept too
    assert memo.get("k", lambda: calls.append(1)) is None
    assert calls == [1] and "k" in memo


def test_memo_resize_counts_growth_and_ignores_evicted_entries():
    memo = Memo(max_bytes=1000)
    memo.put("a", None, 100)
    memo.resize("a", 600)
    assert memo.nbytes == 600
    memo.put("b", None, 500)  # over budget: "a" goes
    assert list(memo.keys()) == ["b"]
    memo.resize("a", 10_000)  # evicted meanwhile: nothing counted
    assert memo.nbytes == 500


def test_nbytes_of_counts_arrays_in_tuples():
    assert nbytes_of((np.zeros(4), np.zeros(2, dtype=np.int32))) == 32 + 8 + 16


def test_derived_data_lives_on_its_state():
    nodes = [Node("a"), Node("b")]
    key: DerivedKey[list] = DerivedKey("test/built")
    builds = []

    def build(state):
        builds.append(state)
        return [state.n]

    s1, s2 = ClusterState(nodes), ClusterState(nodes)
    assert s1.derived(key, build) is s1.derived(key, build)
    s2.derived(key, build)
    assert builds == [s1, s2]  # one build per state, none shared
    mkey: DerivedKey[Memo] = DerivedKey("test/memo")
    assert s1.memo(mkey) is s1.memo(mkey) and s1.memo(mkey) is not s2.memo(mkey)


def _sources(*parts: str):
    for path in sorted(p for part in parts or ("",) for p in (PACKAGE / part).rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def test_no_cache_is_keyed_by_a_state_outside_it():
    """Derived data lives on the state (state/derived.py): no weak references to states."""
    offenders = []
    for path, tree in _sources():
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
                if any(n.split(".")[0] == "weakref" for n in names):
                    offenders.append(str(path.relative_to(PACKAGE)))
    assert offenders == []


def test_cycle_state_keys_are_typed_constants():
    """`cs[...]`, `cs.get(...)`, `cs.read(...)` never take a string literal or a string built
    in place (e.g. "PreFilter" + self.name): keys are module-level StateKey constants."""
    offenders = []
    # where `cs` is a CycleState (the loaders use the name for container statuses)
    for path, tree in _sources("framework", "plugins", "scheduling", "explain"):
        for node in ast.walk(tree):
            key = None
            if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "cs":
                key = node.slice
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                  and isinstance(node.func.value, ast.Name) and node.func.value.id == "cs"
                  and node.func.attr in ("get", "read", "write", "pop") and node.args):
                key = node.args[0]
            if key is not None and isinstance(key, (ast.Constant, ast.BinOp, ast.JoinedStr)):
                offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert offenders == []
