"""PodDisruptionBudgets, as preemption reads them.

Mirrors `policy/v1` PodDisruptionBudget: its selector, `minAvailable`/`maxUnavailable` as
`intstr.IntOrString` (checked as API validation checks them), and the disruption controller's
`status.disruptionsAllowed` and `status.disruptedPods`, which `DefaultPreemption` consults.
"""
from __future__ import annotations

from podgroup_plan.loading.decode_meta import Report, namespace_of, source_of
from podgroup_plan.loading.decode_scheduling import label_selector
from podgroup_plan.loading.documents import Document
from podgroup_plan.model.objects import PodDisruptionBudget


def int_or_percent(value: int | str | None, path: tuple, report: Report) -> int | str | None:
    """intstr.IntOrString as PDBs use it: an int, or a string "N%" (0 <= N <= 100)."""
    if value is None or isinstance(value, int):
        if isinstance(value, int) and value < 0:
            report(path, f"must be greater than or equal to 0, got {value}")
        return value
    number = value[:-1] if value.endswith("%") else None
    if number is None or not number.isdigit():
        report(path, f'invalid value "{value}": must be an integer or a percentage such as "50%"')
        return None
    if int(number) > 100:
        report(path, f'invalid value "{value}": must not be greater than 100%')
    return value


def decode_pdb(doc: Document, report: Report) -> PodDisruptionBudget:
    obj = doc.obj
    meta = obj["metadata"]
    spec = obj.get("spec") or {}
    status = obj.get("status") or {}
    return PodDisruptionBudget(
        namespace=namespace_of(meta),
        name=meta["name"],
        selector=label_selector(spec.get("selector")),
        min_available=int_or_percent(spec.get("minAvailable"), ("spec", "minAvailable"), report),
        max_unavailable=int_or_percent(spec.get("maxUnavailable"), ("spec", "maxUnavailable"), report),
        disruptions_allowed=status.get("disruptionsAllowed"),
        disrupted_pods=tuple(sorted(status.get("disruptedPods") or ())),
        source=source_of(doc),
    )
