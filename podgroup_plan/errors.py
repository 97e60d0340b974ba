"""Bad input: one exception type that carries every problem found.

Unschedulable is a result, not an exception; anything else that escapes is a bug.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

# A message quotes what the user wrote; a 50 MB scalar must not come back whole on stderr.
# Values are cut to this many characters (the middle goes), whole messages to MAX_MESSAGE.
MAX_VALUE = 80
MAX_MESSAGE = 1000


# What no text from the input may bring to a terminal (issue 25): C0 controls (ESC starts the
# sequences that move the cursor, clear the screen or set the window title; a line break forges
# a line), DEL, C1 controls (U+009B is a one-byte CSI on some terminals, U+0085 a line break),
# the Unicode line and paragraph separators, and the bidi marks, embeddings, overrides and
# isolates (U+061C, U+200E-200F, U+202A-202E, U+2066-2069: they reorder what is displayed, so one
# name could hide or reverse the text around it). JSON and YAML output keep strings exact and
# escape by their own rules; every other output escapes through `escape_controls`.
CONTROL_CHARACTERS = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_SHORT_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape_one(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    return _SHORT_ESCAPES.get(char) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def escape_controls(text: str) -> str:
    """`text` with every control character shown as an escape (`\\n`, `\\t`, `\\x1b`,
    `\\u202e`), so that printing it can neither move the cursor nor start a line nor reorder
    the text around it: the one escaping function of every human-readable output and of every
    problem line. Text without one is returned as it is (the same object)."""
    if CONTROL_CHARACTERS.search(text) is None:
        return text
    return CONTROL_CHARACTERS.sub(_escape_one, text)


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
                # one problem, one line: a line break or a terminal control sequence quoted
                # from the input (a name, a file name, a value) is shown escaped
                shown = escape_controls(value)
                if len(shown) > limit:
                    shown = shorten(shown, limit)
                if shown is not value:
                    object.__setattr__(self, name, shown)

    def sort_key(self) -> tuple:
        """Where the problem is: the problems of one field keep the order they were found in
        (a stable sort), which is the API server's order for its validation errors (a pod
        affinity term's empty topologyKey: `Required value` before ValidateLabelName's two)."""
        return (self.file, self.line or 0, self.document or 0, self.path or "")

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
