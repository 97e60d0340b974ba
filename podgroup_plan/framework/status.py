"""Status codes and statuses, as kube-scheduler's framework defines them.

Mirrors `staging/src/k8s.io/kube-scheduler/framework/interface.go` (Code, Status).
"""
from __future__ import annotations

import enum
from dataclasses import dataclass


class Code(enum.IntEnum):
    SUCCESS = 0
    ERROR = 1
    UNSCHEDULABLE = 2
    UNSCHEDULABLE_AND_UNRESOLVABLE = 3
    WAIT = 4
    SKIP = 5
    PENDING = 6

    @property
    def upstream_name(self) -> str:
        return {
            Code.SUCCESS: "Success",
            Code.ERROR: "Error",
            Code.UNSCHEDULABLE: "Unschedulable",
            Code.UNSCHEDULABLE_AND_UNRESOLVABLE: "UnschedulableAndUnresolvable",
            Code.WAIT: "Wait",
            Code.SKIP: "Skip",
            Code.PENDING: "Pending",
        }[self]


@dataclass(frozen=True, slots=True)
class Status:
    code: Code = Code.SUCCESS
    reasons: tuple[str, ...] = ()
    plugin: str = ""  # the plugin that returned it, when one did
    # An error attached to the status (upstream's `err`, e.g. `pod group is unschedulable`).
    err: str = ""

    @property
    def message(self) -> str:
        # Status.Message(): the error's text, then the reasons, all joined with ", ".
        return ", ".join((self.err, *self.reasons) if self.err else self.reasons)

    def with_error(self, err: str) -> "Status":
        return Status(self.code, self.reasons, self.plugin, err)

    def is_success(self) -> bool:
        return self.code == Code.SUCCESS

    def is_rejected(self) -> bool:
        return self.code in (Code.UNSCHEDULABLE, Code.UNSCHEDULABLE_AND_UNRESOLVABLE, Code.PENDING)

    def is_skip(self) -> bool:
        return self.code == Code.SKIP


SUCCESS = Status()


def unschedulable(*reasons: str, plugin: str = "") -> Status:
    return Status(Code.UNSCHEDULABLE, tuple(reasons), plugin)


def unresolvable(*reasons: str, plugin: str = "") -> Status:
    return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, tuple(reasons), plugin)


def error(*reasons: str, plugin: str = "") -> Status:
    return Status(Code.ERROR, tuple(reasons), plugin)


_SKIPS: dict[str, Status] = {}


def skip(plugin: str = "") -> Status:
    # A Status is immutable: every Skip of one plugin can be the same object (PreFilter and
    # PreScore answer Skip several times for every pod).
    status = _SKIPS.get(plugin)
    if status is None:
        status = _SKIPS[plugin] = Status(Code.SKIP, (), plugin)
    return status
