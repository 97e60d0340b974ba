"""Kept placement trials of one framework (profile): the arrays `scheduling/placement_cache.py`
reads and refreshes, which say when a kept verdict applies and what keys it.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from podgroup_plan.framework.interface import Placement
from podgroup_plan.state.cluster import ClusterState

_MAX_ENTRIES = 256


@dataclass(slots=True)
class Entry:
    """Kept trials for one candidate list, aligned with it."""

    placements: list[Placement]
    concat: np.ndarray  # every candidate's rows, one after the other
    starts: np.ndarray  # where each candidate's rows start in `concat`
    version: np.ndarray  # state.version each kept trial saw; -1: never evaluated
    feasible: np.ndarray  # bool
    scheduled: np.ndarray  # pods the trial placed
    messages: list[str | None]
    raw: dict[str, np.ndarray] = field(default_factory=dict)  # plugin -> raw score (feasible only)

    @staticmethod
    def new(placements: list[Placement], plugins: list[str]) -> "Entry":
        sizes = np.array([len(p.nodes) for p in placements], dtype=np.intp)
        starts = np.zeros(len(placements), dtype=np.intp)
        np.cumsum(sizes[:-1], out=starts[1:])
        n = len(placements)
        return Entry(
            placements,
            np.concatenate([p.nodes for p in placements]) if n else np.zeros(0, dtype=np.intp),
            starts,
            np.full(n, -1, dtype=np.int64),
            np.zeros(n, dtype=bool),
            np.zeros(n, dtype=np.int64),
            [None] * n,
            {name: np.zeros(n, dtype=np.int64) for name in plugins},
        )

    def stale(self, state: ClusterState) -> np.ndarray:
        """Positions whose nodes changed after their kept trial (or that were never tried)."""
        if not len(self.placements):
            return np.zeros(0, dtype=np.intp)
        latest = np.maximum.reduceat(state.node_version[self.concat], self.starts)
        return np.flatnonzero(latest > self.version)


class PlacementCache:
    """One per framework (profile): its plugins decide what a trial computes."""

    def __init__(self) -> None:
        self.entries: dict[tuple, Entry] = {}

    def entry(self, key: tuple, placements: list[Placement], plugins: list[str]) -> Entry:
        e = self.entries.get(key)
        if e is None or e.placements is not placements:
            if len(self.entries) >= _MAX_ENTRIES:
                self.entries.clear()
            e = self.entries[key] = Entry.new(placements, plugins)
        return e
