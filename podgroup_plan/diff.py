"""Compare two plans of the same input (`podgroup-plan diff`): the contract's PlanDiff document.

Core module: plain data in, plain data out (no CLI or rendering imports). Only what differs is
listed, sorted by namespace and name:

* pods whose status or node differs (a pod present in one plan only, e.g. evicted under A and left
  running under B, has `{"status": null, "node": null}` on the side that does not list it);
* PodGroups (and CompositePodGroups) whose status or placement differs;
* victims evicted by one plan only.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

from podgroup_plan.result import API_VERSION, PlanResult

Key = tuple[str, str]


def _index(items: Iterable[Any]) -> dict[Key, Any]:
    return {(x.namespace, x.name): x for x in items}


def _changes(a: Iterable[Any], b: Iterable[Any], fields: Mapping[str, str]) -> list[dict[str, Any]]:
    """Entries whose `fields` (contract name -> attribute) differ between A and B."""
    ia, ib = _index(a), _index(b)
    out = []
    for key in sorted(ia.keys() | ib.keys()):
        sa = {k: getattr(ia[key], attr) if key in ia else None for k, attr in fields.items()}
        sb = {k: getattr(ib[key], attr) if key in ib else None for k, attr in fields.items()}
        if sa != sb:
            out.append({"namespace": key[0], "name": key[1], "a": sa, "b": sb})
    return out


def _side(result: PlanResult) -> dict[str, Any]:
    return {"summary": result.summary.to_dict(), "feasible": result.feasible,
            "notes": list(result.notes)}


def diff_plans(a: PlanResult, b: PlanResult) -> dict[str, Any]:
    pods = _changes(a.pods, b.pods, {"status": "status", "node": "node"})
    groups = _changes(a.pod_groups, b.pod_groups, {"status": "status", "placement": "placement"})
    composites = _changes(a.composite_pod_groups, b.composite_pod_groups,
                          {"status": "status", "placement": "placement"})
    va, vb = _index(a.victims), _index(b.victims)
    only_a = [{"namespace": ns, "name": n} for ns, n in sorted(va.keys() - vb.keys())]
    only_b = [{"namespace": ns, "name": n} for ns, n in sorted(vb.keys() - va.keys())]
    identical = not (pods or groups or composites or only_a or only_b) and a.summary == b.summary
    return {
        "apiVersion": API_VERSION,
        "kind": "PlanDiff",
        "identical": identical,
        "a": _side(a),
        "b": _side(b),
        "pods": pods,
        "podGroups": groups,
        "compositePodGroups": composites,
        "victims": {"onlyA": only_a, "onlyB": only_b},
    }
