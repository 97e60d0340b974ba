"""Derived data of a ClusterState: the one caching idiom of the planner.

kube-scheduler recomputes PreFilter/PreScore state per pod from its snapshot and keeps no
caches beyond the scheduler cache itself (`pkg/scheduler/backend/cache`). The planner keeps
more, to reach its speed goals, and keeps all of it one way.

The rule. Everything computed from a `ClusterState` lives *on* that state, under a typed
`DerivedKey`, and is kept current by the state; no plugin, framework or cycle keeps a cache
keyed by a state of its own (no `WeakKeyDictionary`, no weak reference, no bind-and-clear).
It dies with the state, and a new state starts empty. What the data is derived from decides
which of the state's doors it goes through:

* the **node table** (labels, taints, images, cordons, names: never change inside a state):
  `state.derived(key, build)`, built on first use and kept for the state's life (the taint
  table, the image table, `state.label_column`);
* the **placed pods**: `state.index(key, factory)`, a *ledger* (`PodIndex`: `add` / `remove`)
  fed by every assume, forget, eviction and rollback, i.e. by the undo log. It is never
  refreshed by hand, so it cannot go stale after a rolled-back trial (pods matching a
  selector per node, host ports in use, existing pods' affinity terms, usage by priority,
  group members);
* the nodes' **usage rows** (requested, pod counts): `state.column(key, compute)`, recomputed
  only at the rows whose `node_version` moved since (`state.changed_rows`).

Results for one pod or one pod input (its tolerations, a selector, its signature) go in a
`Memo` (`state.memo(key)`): least recently used first, bounded by the bytes of the arrays it
holds, whatever the number of distinct inputs. A memoised result must be a pure function of
its key and of the node table, or refresh itself row by row from `state.changed_rows` as the
framework's signature cache does (framework/node_cache.py). What depends on placed pods is
not memoised by `state.version` but kept as a ledger: every assume and every rollback moves the
version, so a per-version memo would almost never serve a second pod (PodTopologySpread and
InterPodAffinity read per-domain sums from ledgers instead, helper/pod_match_counts.py). A
Memo may also serve a plugin for inputs that involve no state (its configuration and the
input's objects).
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Any, Callable, Generic, Hashable, Iterator, TypeVar, overload

import numpy as np

T = TypeVar("T")

# A memo's default budget: plenty for hundreds of distinct inputs at 10,000 nodes.
MEMO_BYTES = 16 << 20


class DerivedKey(str, Generic[T]):
    """The key of one kind of derived data on a ClusterState, with the type it holds, e.g.
    `HOST_PORTS: DerivedKey[HostPortIndex] = DerivedKey("NodePorts/hostPorts")`. A string, so
    it prints as its name; declare each once, at module level, named after its owner."""

    __slots__ = ()


def nbytes_of(value: Any) -> int:
    """What a memo counts for `value`: the bytes of its numpy arrays (in tuples, lists and
    objects with an `nbytes`), and a small constant for anything else."""
    if isinstance(value, np.ndarray):
        return value.nbytes
    if isinstance(value, (tuple, list)):
        return sum(nbytes_of(v) for v in value) + 8 * len(value)
    size = getattr(value, "nbytes", None)
    if isinstance(size, int):
        return size
    return 64


class Memo:
    """Results by input, least recently used first, bounded by bytes (`max_bytes`): when the
    entries add up to more, the oldest go, but never the newest one (a single result larger
    than the budget is still returned and kept until the next)."""

    __slots__ = ("max_bytes", "_entries", "_bytes")

    def __init__(self, max_bytes: int = MEMO_BYTES):
        self.max_bytes = max_bytes
        self._entries: OrderedDict[Hashable, list] = OrderedDict()  # key -> [value, bytes]
        self._bytes = 0

    @overload
    def get(self, key: Hashable) -> Any: ...

    @overload
    def get(self, key: Hashable, compute: Callable[[], T]) -> T: ...

    def get(self, key: Hashable, compute: Callable[[], T] | None = None) -> Any:
        """The result for `key` (marked recently used); computed by `compute` and kept when
        missing, or None without `compute`. With `compute` the result is what `compute`
        returns (a key always maps to what its one `compute` makes); without it the entry is
        whatever was put (a memo holds values of many types), or None."""
        found = self._entries.get(key)
        if found is not None:
            self._entries.move_to_end(key)
            return found[0]
        if compute is None:
            return None
        value = compute()
        self.put(key, value)
        return value

    def put(self, key: Hashable, value: Any, nbytes: int | None = None) -> None:
        """Keep `value` for `key` (newest), counted as `nbytes` (default `nbytes_of(value)`)."""
        old = self._entries.pop(key, None)
        if old is not None:
            self._bytes -= old[1]
        size = nbytes_of(value) if nbytes is None else nbytes
        self._entries[key] = [value, size]
        self._bytes += size
        self._evict()

    def resize(self, key: Hashable, nbytes: int) -> None:
        """The entry under `key` grew or shrank in place (arrays added to it): count it anew.
        Nothing happens when it was evicted meanwhile."""
        found = self._entries.get(key)
        if found is None:
            return
        self._bytes += nbytes - found[1]
        found[1] = nbytes
        self._entries.move_to_end(key)
        self._evict()

    def clear(self) -> None:
        self._entries.clear()
        self._bytes = 0

    def _evict(self) -> None:
        entries = self._entries
        while self._bytes > self.max_bytes and len(entries) > 1:
            _, (_, size) = entries.popitem(last=False)
            self._bytes -= size

    @property
    def nbytes(self) -> int:
        """The bytes of every entry together (what `max_bytes` bounds)."""
        return self._bytes

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._entries

    def keys(self) -> Iterator[Hashable]:
        return iter(self._entries)


class HashedTuple(tuple):
    """A tuple that computes its hash once, for keys looked up many times: the generated
    `__hash__` of frozen dataclasses (tolerations, selector terms, resource specs) rehashes
    every field on every call. Equal to, and hashing like, the plain tuple (the framework's pod
    signature is one: framework/node_cache.py)."""

    _hash: int

    def __new__(cls, items):
        self = super().__new__(cls, items)
        self._hash = tuple.__hash__(self)
        return self

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self):
        return (HashedTuple, (tuple(self),))
