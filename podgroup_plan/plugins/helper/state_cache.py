"""`PerStateCache`: results that depend only on the pod and on the nodes of one ClusterState.

Node labels, taints, images and cordons never change inside a ClusterState, so the static
plugins (TaintToleration, NodeAffinity, NodeUnschedulable, ImageLocality) compute a verdict
or score for all nodes once per distinct input and index it by the view afterwards. Entries
are least recently used first and bounded by the bytes of their arrays, not by their number.
"""
from __future__ import annotations

import weakref
from collections import OrderedDict
from typing import Any, Callable, Hashable

import numpy as np

# Per cache (one per plugin instance): plenty for hundreds of distinct tolerations or
# selectors at 10,000 nodes.
MAX_BYTES = 16 << 20


def _nbytes(value: Any) -> int:
    if isinstance(value, np.ndarray):
        return value.nbytes
    if isinstance(value, tuple):
        return sum(_nbytes(v) for v in value) + 8 * len(value)
    return 64


class PerStateCache:
    """Results that depend only on a pod signature and on the nodes of one ClusterState.

    Nodes (labels, taints, images, unschedulable) never change inside a ClusterState, so a
    result computed for all nodes stays valid for the state's life. The cache belongs to one
    state at a time (held by weak reference) and empties itself when a plugin instance is used
    with another state. Per-signature entries are least recently used first and bounded by
    bytes (`max_bytes`, about `MAX_BYTES`); `state_data` entries (encodings of the node table)
    are not evicted.
    """

    def __init__(self, max_bytes: int | None = None):
        self.max_bytes = MAX_BYTES if max_bytes is None else max_bytes
        self._owner: weakref.ref | None = None
        self._entries: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()  # value, bytes
        self._bytes = 0
        self._state_data: dict[str, Any] = {}

    def _bind(self, state: object) -> None:
        if self._owner is None or self._owner() is not state:
            self._entries.clear()
            self._bytes = 0
            self._state_data.clear()
            self._owner = weakref.ref(state)

    def get(self, state: object, key: Hashable, compute: Callable[[], Any]) -> Any:
        self._bind(state)
        found = self._entries.get(key)
        if found is not None:
            self._entries.move_to_end(key)
            return found[0]
        value = compute()
        size = _nbytes(value)
        self._entries[key] = (value, size)
        self._bytes += size
        while self._bytes > self.max_bytes and len(self._entries) > 1:
            _, (_, old) = self._entries.popitem(last=False)
            self._bytes -= old
        return value

    @property
    def nbytes(self) -> int:
        return self._bytes

    def state_data(self, state: object, name: str, compute: Callable[[], Any]) -> Any:
        self._bind(state)
        try:
            return self._state_data[name]
        except KeyError:
            value = self._state_data[name] = compute()
            return value
