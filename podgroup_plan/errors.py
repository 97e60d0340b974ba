"""Bad input: one exception type that carries every problem found.

Unschedulable is a result, not an exception; anything else that escapes is a bug.
"""
from __future__ import annotations

from dataclasses import dataclass

# A message quotes what the user wrote; a 50 MB scalar must not come back whole on stderr.
# Values are cut to this many characters (the middle goes), whole messages to MAX_MESSAGE.
MAX_VALUE = 80
MAX_MESSAGE = 1000


def shorten(text: str, limit: int = MAX_VALUE) -> str:
    """`text` as it is when short, else its start and end with the middle cut out, saying how
    much was cut: `aaaa…(49999920 characters cut)…zzzz`."""
    if len(text) <= limit:
        return text
    keep = max(limit - 30, 8)
    head, tail = keep - keep // 3, keep // 3
    return f"{text[:head]}…({len(text) - head - tail} characters cut)…{text[len(text) - tail:]}"


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with the input, located as precisely as we can. Its texts are cut when
    long (`shorten`): names and paths can come from the input too."""

    file: str
    message: str
    line: int | None = None
    document: int | None = None  # 1-based index of the YAML document inside the file
    kind: str | None = None
    namespace: str | None = None
    name: str | None = None
    path: str | None = None  # JSON path of the field, e.g. spec.containers[0].resources

    def __post_init__(self) -> None:
        for name, limit in (("message", MAX_MESSAGE), ("name", MAX_VALUE * 4),
                            ("namespace", MAX_VALUE * 4), ("path", MAX_VALUE * 4),
                            ("kind", MAX_VALUE), ("file", MAX_MESSAGE)):
            value = getattr(self, name)
            if isinstance(value, str):
                # one problem, one line: a line break quoted from the input is shown escaped
                shown = value.replace("\r", "\\r").replace("\n", "\\n")
                if len(shown) > limit:
                    shown = shorten(shown, limit)
                if shown is not value:
                    object.__setattr__(self, name, shown)

    def sort_key(self) -> tuple:
        return (self.file, self.line or 0, self.document or 0, self.path or "", self.message)

    def __str__(self) -> str:
        # FILE[:LINE]: [document N] KIND NAMESPACE/NAME: JSON.PATH: problem  (docs/contract.md)
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

    def __init__(self, problems: list[Problem] | tuple[Problem, ...], partial: object = None):
        self.problems = tuple(sorted(problems, key=Problem.sort_key))
        # What could be read despite the problems (loading's ClusterInput), so that a caller
        # can still check the rest, e.g. the profiles of a configuration among the manifests.
        self.partial = partial
        super().__init__("\n".join(str(p) for p in self.problems))
