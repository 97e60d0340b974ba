"""The undo log of every ledger the plan keeps beside the cluster state.

`ClusterState` undoes its own changes (assume / forget / shift, `checkpoint` / `rollback`). The
plan keeps more than the cluster, though: the recorder's records, the nominations, the queue's
entities and their failure marks, the passes' counters, the frameworks' rotating start index.
A tentative scope of the `Planner` (podgroup_plan/planner.py) must take all of them back, so each
of those ledgers writes through a `Journal`: while a mark is open, every write logs how to undo
it; `rollback(mark)` undoes back to the mark, newest first; with no mark open a write is just a
write (the plain `plan()` pays one attribute test per write).

The journal is separate from the state's log on purpose: the cycles' own trials roll the state
back many times per cycle, and none of them may take back a record or a nomination (those are
written outside trials, by the passes).
"""
from __future__ import annotations

from typing import Any, Callable, MutableMapping, MutableSequence, MutableSet

_MISSING = object()


class Journal:
    __slots__ = ("_log", "_open")

    def __init__(self) -> None:
        self._log: list[tuple[Callable[..., None], tuple]] = []
        self._open = 0

    @property
    def active(self) -> bool:
        return self._open > 0

    def mark(self) -> int:
        self._open += 1
        return len(self._log)

    def rollback(self, mark: int) -> None:
        """Undo every write since `mark()` returned `mark`, newest first, and close the mark."""
        log = self._log
        while len(log) > mark:
            undo, args = log.pop()
            undo(*args)
        self._close()

    def keep(self, mark: int) -> None:
        """Close the mark keeping its writes (an enclosing mark can still undo them)."""
        self._close()

    def _close(self) -> None:
        self._open -= 1
        if self._open == 0:
            self._log.clear()

    # ----- writes ----------------------------------------------------------------------------

    def on_undo(self, undo: Callable[..., None], *args: Any) -> None:
        """Log `undo(*args)` for a change made by the caller (nothing when no mark is open)."""
        if self._open:
            self._log.append((undo, args))

    def setattr(self, obj: object, name: str, value: Any) -> None:
        if self._open:
            self._log.append((object.__setattr__, (obj, name, getattr(obj, name))))
        object.__setattr__(obj, name, value)

    def setitem(self, mapping: MutableMapping, key: Any, value: Any) -> None:
        if self._open:
            self._log.append((_restore_item, (mapping, key, mapping.get(key, _MISSING))))
        mapping[key] = value

    def append(self, items: MutableSequence, value: Any) -> None:
        if self._open:
            self._log.append((_truncate, (items, len(items))))
        items.append(value)

    def add(self, members: MutableSet, value: Any) -> None:
        if self._open and value not in members:
            self._log.append((members.discard, (value,)))
        members.add(value)


def _restore_item(mapping: MutableMapping, key: Any, old: Any) -> None:
    if old is _MISSING:
        mapping.pop(key, None)
    else:
        mapping[key] = old


def _truncate(items: MutableSequence, length: int) -> None:
    del items[length:]
