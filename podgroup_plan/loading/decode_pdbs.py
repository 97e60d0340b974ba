"""PodDisruptionBudgets, as preemption reads them.

Mirrors `policy/v1` PodDisruptionBudget: its selector, `minAvailable`/`maxUnavailable` as
`intstr.IntOrString` (validated in validate.pdb_rules), and the disruption controller's
`status.disruptionsAllowed` and `status.disruptedPods`, which `DefaultPreemption` consults.
"""
from __future__ import annotations

import re

from podgroup_plan.loading.decode_meta import namespace_of, source_of
from podgroup_plan.loading.decode_scheduling import label_selector
from podgroup_plan.loading.documents import Document
from podgroup_plan.model.objects import PodDisruptionBudget

PERCENT = re.compile("[0-9]+%")  # apimachinery validation percentFmt (IsValidPercent)


def int_or_percent(value: int | str | None) -> int | str | None:
    """intstr.IntOrString as PDBs use it: an int, or a string "N%"; what the API server's
    validation refuses (validate.pdb_rules says so) is read as not set."""
    if isinstance(value, str) and not PERCENT.fullmatch(value):
        return None
    return value


def decode_pdb(doc: Document) -> PodDisruptionBudget:
    obj = doc.obj
    meta = obj["metadata"]
    spec = obj.get("spec") or {}
    status = obj.get("status") or {}
    return PodDisruptionBudget(
        namespace=namespace_of(meta),
        name=meta["name"],
        selector=label_selector(spec.get("selector")),
        min_available=int_or_percent(spec.get("minAvailable")),
        max_unavailable=int_or_percent(spec.get("maxUnavailable")),
        disruptions_allowed=status.get("disruptionsAllowed"),
        disrupted_pods=tuple(sorted(status.get("disruptedPods") or ())),
        source=source_of(doc),
    )
