"""A snapshot on disk: one `kubectl get -o yaml`-style List per kind (`apiVersion: v1`,
`kind: List`, `items`, each item with its apiVersion and kind, managedFields stripped), streamed
item by item so that 150,000 pods never sit in memory at once.

Nothing half-written is ever left where the user asked for it: the Lists go into a staging
folder (or file) beside the target, which is renamed into place only once every kind has been
read; on any failure the staging copy is removed (`Staging`)."""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import IO, Any

# A path ending so is one file holding every List; anything else is a folder, one file per kind.
FILE_SUFFIXES = (".yaml", ".yml")
KEY_ORDER = ("apiVersion", "kind", "metadata", "spec", "status")


def is_single_file(target: str) -> bool:
    return target.endswith(FILE_SUFFIXES)


def check_target(target: str) -> str | None:
    """Why `target` cannot receive a snapshot (None: it can). A folder must be new or empty
    (a snapshot never mixes with, or deletes, what is there); a file is replaced whole."""
    path = Path(target)
    if is_single_file(target):
        if path.is_dir():
            return f"{target} is a folder; a snapshot file must end in .yaml or .yml and name a file"
        parent = path.parent
    else:
        if path.exists() and not path.is_dir():
            return f"{target} exists and is not a folder (a file snapshot must end in .yaml or .yml)"
        if path.is_dir() and any(path.iterdir()):
            return f"{target} is a folder that is not empty: give a new or empty folder"
        parent = path.parent
    if not parent.is_dir():
        return f"{target}: its folder {parent} does not exist"
    if not os.access(parent, os.W_OK):
        return f"{target}: cannot write in {parent}"
    return None


def clean(item: dict, api_version: str, kind: str) -> dict:
    """An item of a List answer as `kubectl get -o yaml` shows it: apiVersion and kind (a List
    answer's items carry neither), managedFields stripped, the usual key order."""
    metadata = item.get("metadata")
    if isinstance(metadata, dict) and "managedFields" in metadata:
        metadata = {k: v for k, v in metadata.items() if k != "managedFields"}
    out: dict[str, Any] = {"apiVersion": api_version, "kind": kind}
    if metadata is not None:
        out["metadata"] = metadata
    for key in ("spec", "status"):
        if key in item:
            out[key] = item[key]
    for key, value in item.items():
        if key not in KEY_ORDER:
            out[key] = value
    return out


class ListWriter:
    """One List document written item by item to an open stream."""

    def __init__(self, stream: IO[str]):
        self.stream = stream
        self.count = 0
        stream.write("apiVersion: v1\nkind: List\n")

    def add(self, items: list[dict]) -> None:
        if not items:
            return
        if self.count == 0:
            self.stream.write("items:\n")
        self.stream.write(_dump(items))
        self.count += len(items)

    def close(self) -> None:
        if self.count == 0:
            self.stream.write("items: []\n")


def _dump(items: list[dict]) -> str:
    import yaml

    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return yaml.dump(items, Dumper=dumper, default_flow_style=False, sort_keys=False, allow_unicode=True,
                     width=1 << 16)


class Staging:
    """Where a snapshot is written until it is complete: `open_list(name)` gives a writer per
    kind; `commit()` moves everything into `target` at once; `discard()` removes it all."""

    def __init__(self, target: str):
        self.target = Path(target)
        self.single = is_single_file(target)
        parent = self.target.parent
        prefix = f".{self.target.name}.partial-"
        if self.single:
            fd, name = tempfile.mkstemp(prefix=prefix, dir=parent)
            self.path = Path(name)
            self._file: IO[str] | None = os.fdopen(fd, "w", encoding="utf-8")
            self._documents = 0
        else:
            self.path = Path(tempfile.mkdtemp(prefix=prefix, dir=parent))
            self._file = None
        self._open: list[tuple[IO[str] | None, ListWriter]] = []

    def open_list(self, file_name: str, comment: str) -> ListWriter:
        """A List of its own: a file `file_name` in a folder, the next document of a single file."""
        if self.single:
            assert self._file is not None
            if self._documents:
                self._file.write("---\n")
            self._documents += 1
            self._file.write(f"# {comment}\n")
            writer = ListWriter(self._file)
            self._open.append((None, writer))
            return writer
        stream = open(self.path / file_name, "w", encoding="utf-8")
        stream.write(f"# {comment}\n")
        writer = ListWriter(stream)
        self._open.append((stream, writer))
        return writer

    def close_list(self, writer: ListWriter) -> None:
        writer.close()
        for stream, w in self._open:
            if w is writer and stream is not None:
                stream.close()

    def commit(self) -> None:
        if self.single:
            assert self._file is not None
            self._file.close()
            os.chmod(self.path, 0o644 & ~_umask())
            os.replace(self.path, self.target)
            return
        os.chmod(self.path, 0o755 & ~_umask())
        if self.target.is_dir():
            self.target.rmdir()  # empty (check_target): replaced by the complete snapshot
        os.rename(self.path, self.target)

    def discard(self) -> None:
        for stream, _ in self._open:
            if stream is not None and not stream.closed:
                stream.close()
        if self.single:
            if self._file is not None and not self._file.closed:
                self._file.close()
            self.path.unlink(missing_ok=True)
        else:
            shutil.rmtree(self.path, ignore_errors=True)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask

