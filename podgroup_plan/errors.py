"""Bad input: one exception type that carries every problem found.

Unschedulable is a result, not an exception; anything else that escapes is a bug.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with the input, located as precisely as we can."""

    file: str
    message: str
    line: int | None = None
    document: int | None = None  # 1-based index of the YAML document inside the file
    kind: str | None = None
    namespace: str | None = None
    name: str | None = None
    path: str | None = None  # JSON path of the field, e.g. spec.containers[0].resources

    def sort_key(self) -> tuple:
        return (self.file, self.line or 0, self.document or 0, self.path or "", self.message)

    def __str__(self) -> str:
        # FILE[:LINE]: [document N] KIND NAMESPACE/NAME: JSON.PATH: problem  (spec/contract.md)
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        parts = [where + ":"]
        if self.document is not None and self.line is None:
            parts.append(f"document {self.document}")
        if self.kind:
            obj = self.kind
            if self.name is not None:
                obj += " " + (f"{self.namespace}/{self.name}" if self.namespace else self.name)
            parts.append(obj + ":")
        if self.path:
            parts.append(self.path + ":")
        parts.append(self.message)
        return " ".join(parts)


class InputError(Exception):
    """The input cannot be planned. Carries every problem found, sorted."""

    def __init__(self, problems: list[Problem] | tuple[Problem, ...]):
        self.problems = tuple(sorted(problems, key=Problem.sort_key))
        super().__init__("\n".join(str(p) for p in self.problems))
