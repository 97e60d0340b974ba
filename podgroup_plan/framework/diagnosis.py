"""Why nodes were rejected, and the FitError message built from it.

Mirrors `framework.Diagnosis` and `FitError.Error()` of `pkg/scheduler/framework/types.go`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(slots=True)
class Diagnosis:
    """Why nodes were rejected (upstream framework.Diagnosis), for the FitError message and
    for preemption, which skips nodes rejected as UnschedulableAndUnresolvable."""

    # reason -> number of nodes that carry it
    reasons: dict[str, int] = field(default_factory=dict)
    # per node of the view: 0 passed, else the Code that rejected it
    node_codes: np.ndarray | None = None
    pre_filter_msg: str = ""
    unschedulable_plugins: set[str] = field(default_factory=set)

    def add(self, reason: str, count: int) -> None:
        if count:
            self.reasons[reason] = self.reasons.get(reason, 0) + count


def fit_error_message(num_all_nodes: int, diagnosis: Diagnosis, post_filter_msg: str = "") -> str:
    """`0/N nodes are available: ` + sorted `COUNT reason` entries + `.` (FitError.Error())."""
    msg = f"0/{num_all_nodes} nodes are available:"
    if diagnosis.pre_filter_msg:
        msg += f" {diagnosis.pre_filter_msg}."
    else:
        entries = sorted(f"{count} {reason}" for reason, count in diagnosis.reasons.items())
        if entries:
            msg += f" {', '.join(entries)}."
    if post_filter_msg:
        # The PostFilter text follows as it is (it carries its own final punctuation, if any).
        msg += f" {post_filter_msg}"
    return msg
