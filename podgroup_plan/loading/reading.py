"""Files to documents: every object of the input's files and standard input, one at a time,
each file read by its format's reader (`json_stream` for `.json`, `yaml_stream` otherwise; text
from standard input is JSON if it parses as JSON).

Speed and memory matter here (a 150,000-pod dump must load at tens of thousands of documents per
second), so the happy path parses each file once, hands out objects one at a time (the items of
a large JSON List are parsed one by one), and keeps only where each object starts (its line; for
the items of a JSON List, their bytes). The line of an individual field is found only when
something is wrong with it: `field_lines.FieldLines` re-composes the object's text then.
"""
from __future__ import annotations

import sys
from typing import Iterator, Sequence

from podgroup_plan.errors import Problem
from podgroup_plan.loading.bounded import read_input
from podgroup_plan.loading.documents import Document
from podgroup_plan.loading.encodings import NotText, decode
from podgroup_plan.loading.json_stream import INVALID_JSON, json_documents, mapped_json_documents
from podgroup_plan.loading.paths import STDIN, STDIN_NAME, expand_paths
from podgroup_plan.loading.yaml_stream import yaml_documents


def iter_documents(
    paths: Sequence[str], stdin_text: str | None = None, problems: list[Problem] | None = None
) -> Iterator[Document]:
    """Every object in `paths` (Lists unpacked), one at a time, so that a caller can check and
    decode each before the next is parsed. What keeps something from being read (missing files,
    YAML/JSON syntax, documents that are not objects) is appended to `problems`."""
    problems = problems if problems is not None else []
    files, found = expand_paths(paths)
    problems += found
    for path in files:
        if path == STDIN:
            text = stdin_text if stdin_text is not None else sys.stdin.read()
            yield from read_text(STDIN_NAME, text, problems)
        else:
            yield from read_file(path, problems)


def read_documents(
    paths: Sequence[str], stdin_text: str | None = None
) -> tuple[list[Document], list[Problem]]:
    """`iter_documents` as a list, with the problems."""
    problems: list[Problem] = []
    docs = list(iter_documents(paths, stdin_text, problems))
    return docs, problems


def read_file(path: str, problems: list[Problem]) -> Iterator[Document]:
    # The JSON reader's own generator, not one more level of `yield from` per document.
    return mapped_json_documents(path, problems) if path.endswith(".json") else _yaml_file(path, problems)


def _yaml_file(path: str, problems: list[Problem]) -> Iterator[Document]:
    data = read_input(path, problems)  # looked at first: its size, a device, NUL bytes first
    if data is None:
        return
    text = decode_text(path, data, problems)
    if text is not None:
        yield from yaml_documents(path, text, problems)


def decode_text(name: str, data: bytes, problems: list[Problem]) -> str | None:
    """A file's bytes as text (UTF-8, or UTF-16/32 as its byte-order mark says: encodings.py),
    or None with a problem."""
    try:
        return decode(data)
    except NotText as e:
        problems.append(Problem(name, str(e), line=e.line))
        return None


def read_text(name: str, text: str, problems: list[Problem]) -> Iterator[Document]:
    """Text whose format is not told by a file name (stdin): JSON if it parses as JSON. A large
    List is parsed item by item as a file is (json_stream.py), never whole: orjson's peak is
    many times its input (loading/room.py)."""
    if text.lstrip()[:1] in ("{", "["):
        data = text.encode("utf-8", "surrogatepass")
        found: list[Problem] = []
        given = 0
        # one value, or a stream of them (`kubectl get -o json -w | podgroup-plan ... -`)
        for doc in json_documents(name, data, found):
            given += 1
            yield doc
        if given or not any(p.message.startswith(INVALID_JSON) for p in found):
            problems += found
            return
        # not JSON from its first object on: YAML flow style or broken JSON, and the YAML parser
        # tells which, with a line
    yield from yaml_documents(name, text, problems)
