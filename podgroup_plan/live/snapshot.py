"""A snapshot of a live cluster: every kind the planner reads that the server serves, listed
page by page (`limit`/`continue`, so 5,000 nodes and 150,000 pods come in bounded memory), each
written as a List (writer.py) into a staging copy that becomes the snapshot only once every
kind has been read. Kinds the server does not serve are skipped and named in the report; a
refusal (RBAC), an unreachable or vanished server is a LiveError and leaves nothing behind."""
from __future__ import annotations

import datetime
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence

from podgroup_plan.live import LiveError
from podgroup_plan.live.client import Cluster, NotServed
from podgroup_plan.live.discovery import Served, discover
from podgroup_plan.live.kinds import Kind, planner_kinds
from podgroup_plan.live.writer import Staging, clean

if TYPE_CHECKING:
    from podgroup_plan.live.anonymize import Anonymizer

# Items per page: kubectl's own chunk size.
PAGE_SIZE = 500
# Pods on a node, outside the namespaces asked for, still take the node's room.
BOUND_PODS = ("fieldSelector", "spec.nodeName!=")

# (what is being read, items so far, items in all when the server says so)
Progress = Callable[[str, int, "int | None"], None]


@dataclass
class Report:
    """What a snapshot read: from where and when, how many of each kind, what was not served."""

    server: str
    context: str
    read_at: str  # RFC 3339, UTC, when the reading started
    counts: list[tuple[Served, int]] = field(default_factory=list)
    not_served: list[Kind] = field(default_factory=list)

    def not_served_line(self) -> str | None:
        if not self.not_served:
            return None
        names = ", ".join(f"{k.kind} ({k.group or 'core'})" for k in self.not_served)
        return f"not served by {self.server}, skipped: {names}"


def take(cluster: Cluster, target: str, namespaces: Sequence[str] = (), anonymizer: Anonymizer | None = None,
         progress: Progress | None = None, page_size: int = PAGE_SIZE) -> Report:
    """Read the cluster into `target` (a folder, or one .yaml file). Raises LiveError.

    With `anonymizer`, every name of the snapshot must be known before the first is replaced
    (anonymize.py: the tokens keep the names' order), so the items are first spooled as JSON
    lines beside the target, noted by the anonymizer, and written once all have been read."""
    read_at = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")
    served, missing = discover(cluster, planner_kinds())
    report = Report(cluster.server, cluster.context, read_at, not_served=missing)
    staging = Staging(target)
    spool = tempfile.mkdtemp(prefix=f".{os.path.basename(target.rstrip('/'))}.spool-",
                             dir=os.path.dirname(os.path.abspath(target))) if anonymizer is not None else None
    try:
        for kind in served:
            if spool is not None and anonymizer is not None:
                count = _spool(cluster, kind, namespaces, page_size, progress, anonymizer, os.path.join(spool, kind.resource))
            else:
                count = _write(staging, kind, _pages_of(cluster, kind, namespaces, page_size, progress))
            report.counts.append((kind, count))
        if spool is not None and anonymizer is not None:
            anonymizer.assign()
            for kind in served:
                _write(staging, kind, _spooled(os.path.join(spool, kind.resource), anonymizer))
        staging.commit()
    except BaseException:
        staging.discard()
        raise
    finally:
        if spool is not None:
            shutil.rmtree(spool, ignore_errors=True)
    return report


def _write(staging: Staging, kind: Served, pages: Iterator[list[dict]]) -> int:
    writer = staging.open_list(f"{kind.resource}.yaml", f"{kind.kind} ({kind.api_version}), podgroup-plan snapshot")
    try:
        for page in pages:
            writer.add([clean(i, kind.api_version, kind.kind) for i in page])
    finally:
        staging.close_list(writer)
    return writer.count


def _spool(cluster: Cluster, kind: Served, namespaces: Sequence[str], page_size: int, progress: Progress | None,
           anonymizer: Anonymizer, path: str) -> int:
    import orjson

    count = 0
    with open(path, "wb") as f:
        for page in _pages_of(cluster, kind, namespaces, page_size, progress):
            for item in page:
                anonymizer.collect(item)
                f.write(orjson.dumps(item) + b"\n")
            count += len(page)
    return count


def _spooled(path: str, anonymizer: Anonymizer) -> Iterator[list[dict]]:
    import orjson

    page: list[dict] = []
    with open(path, "rb") as f:
        for line in f:
            page.append(anonymizer.anonymize(orjson.loads(line)))
            if len(page) == PAGE_SIZE:
                yield page
                page = []
    yield page


def _pages_of(cluster: Cluster, kind: Served, namespaces: Sequence[str], page_size: int,
              progress: Progress | None) -> Any:
    """Every page of `kind`'s items: the whole cluster, or each namespace asked for (Pods: and
    the pods bound to a node in any other namespace)."""
    if not kind.namespaced or not namespaces:
        yield from _list(cluster, kind, None, (), page_size, progress)
        return
    chosen = set(namespaces)
    for namespace in sorted(chosen):
        yield from _list(cluster, kind, namespace, (), page_size, progress)
    if kind.kind == "Pod" and kind.group == "":
        for page in _list(cluster, kind, None, (BOUND_PODS,), page_size, progress):
            yield [p for p in page if (p.get("metadata") or {}).get("namespace") not in chosen]


def _list(cluster: Cluster, kind: Served, namespace: str | None, extra: Sequence[tuple[str, str]],
          page_size: int, progress: Progress | None) -> Any:
    where = f"in namespace {namespace}" if namespace else ("in all namespaces" if kind.namespaced else "")
    label = " ".join(p for p in (f"Reading {kind.resource}", where) if p)
    token = ""
    done = 0
    while True:
        query = [("limit", str(page_size)), *extra] + ([("continue", token)] if token else [])
        try:
            doc = cluster.get(kind.path(namespace), query, verb="list",
                              resource=f"{kind.resource} {where or 'at the cluster scope'}".strip())
        except NotServed:
            if namespace is not None:
                return  # a namespace that does not exist: nothing in it
            raise LiveError(f"the API server {cluster.server} stopped serving {kind.resource} while it was read") from None
        items = [i for i in doc.get("items") or () if isinstance(i, dict)]
        done += len(items)
        metadata = doc.get("metadata") or {}
        token = str(metadata.get("continue") or "")
        remaining = metadata.get("remainingItemCount")
        if progress is not None:
            progress(label, done, done + remaining if isinstance(remaining, int) and token else (done if not token else None))
        yield items
        if not token:
            return
