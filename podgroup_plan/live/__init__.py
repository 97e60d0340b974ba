"""Reading a live cluster (`podgroup-plan snapshot`, `--from-cluster`): the kinds the planner
reads, listed page by page from an API server through the official `kubernetes` Python client
(the optional extra `podgroup-plan[live]`), written as `kubectl get -o yaml`-style Lists that
the loader reads back unchanged; and anonymisation of such a snapshot with a keyed hash.

    client.py      the connection (kubeconfig, context), one GET, errors as one line (LiveError)
    kinds.py       which kinds the planner reads, in which versions, from the bundled schemas
    discovery.py   which of them the server serves (its discovery documents, not assumed)
    snapshot.py    every served kind listed with limit/continue, written into a new folder or file
    writer.py      a List per kind, streamed to disk item by item (bounded memory)
    anonymize.py   names, namespaces, label values and images replaced by a keyed hash; the key file

Only the command line imports this package; the planner never does (docs/architecture.md). The
`kubernetes` client is imported lazily, so the tool installs and runs without it.
"""
from __future__ import annotations


class LiveError(Exception):
    """Reading the cluster failed: one line naming the server (or the kubeconfig) and what failed."""


EXTRA_MISSING = ("reading a live cluster needs the official kubernetes Python client, an optional extra: "
                 "python3 -m pip install '.[live]' in the podgroup-plan checkout")
