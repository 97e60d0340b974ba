"""Natural order for names, the one order every human-readable output uses (tables, Markdown,
the Preemption section, what-if's scenarios): counters compare as integers, everything else by
code point (docs/contract.md, "Tables")."""
from __future__ import annotations

import re

_DIGIT_RUNS = re.compile(r"([0-9]+)")
# A name is cut into words at every character that is neither a letter nor a digit.
_WORD_START = re.compile(r"[A-Za-z0-9]*$")


def natural_key(text: str) -> tuple:
    """Sort key where counters compare as integers and everything else by code point (`job-2`
    before `job-10`, `gpu-z2-r9-n12` before `gpu-z2-r10-n1`, `ip-10-0-9-4` before `ip-10-0-12-3`),
    the contract's order for names in tables.

    A counter is a run of ASCII digits that ends its word (the next character is neither a letter
    nor a digit) and has only letters before it in the word (`10`, `r10`, `n1`). Other digits are
    text, so random suffixes (`5c5cf67795`, `2dad9`, `x7kq`) sort by code point as `kubectl get`
    lists them, instead of by the numbers that happen to be in them.

    A counter becomes ("0", value, digits) and any other run (run, 0, ""): every character that is
    not a digit sorts below or above "0" exactly as it sorts below or above any digit, so mixed
    runs compare as their code points would; equal values ("01", "1") fall back to the text."""
    parts = _DIGIT_RUNS.split(text)  # text, digits, text, ... (text pieces may be empty)
    if len(parts) == 1:
        return ((text, 0, ""),) if text else ()
    key: list[tuple[str, int, str]] = []
    pending = ""  # text not yet emitted (digits that are not a counter join their neighbours)
    for i, part in enumerate(parts):
        if not i & 1:
            pending += part
            continue
        after = parts[i + 1] if i + 1 < len(parts) else ""
        word_head = _WORD_START.search(pending)
        head = word_head.group() if word_head else ""
        if (after[:1].isascii() and after[:1].isalnum()) or any(c.isdigit() for c in head):
            pending += part
            continue
        if pending:
            key.append((pending, 0, ""))
        pending = ""
        key.append(("0", int(part), part))
    if pending:
        key.append((pending, 0, ""))
    return tuple(key)
