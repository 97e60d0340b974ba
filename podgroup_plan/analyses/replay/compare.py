"""`replay --config-b`: the same input replayed under two configurations, and what differs,
workload by workload and in the summary."""
from __future__ import annotations

from typing import Any, Mapping

SUMMARY_KEYS = ("makespanSeconds", "podsStarted", "podsCompleted", "preemptions", "gpuUtilisation", "cpuUtilisation")


def compare(a: Mapping[str, Any], b: Mapping[str, Any], label_a: str, label_b: str) -> dict[str, Any]:
    summary: dict[str, list] = {}
    for name in SUMMARY_KEYS:
        if a["summary"][name] != b["summary"][name]:
            summary[name] = [a["summary"][name], b["summary"][name]]
    for stat in ("p50", "p95", "max"):
        va, vb = a["summary"]["waitSeconds"][stat], b["summary"]["waitSeconds"][stat]
        if va != vb:
            summary[f"waitSeconds.{stat}"] = [va, vb]

    def key(w: Mapping[str, Any]) -> tuple[str, str, str]:
        return (w["kind"], w["namespace"], w["name"])

    in_b = {key(w): w for w in b["workloads"]}
    workloads = []
    for wa in a["workloads"]:
        wb = in_b.get(key(wa))
        if wb is None or (wa["start"], wa["end"], wa["nodes"]) != (wb["start"], wb["end"], wb["nodes"]):
            workloads.append({"workload": f"{wa['kind']} {wa['namespace']}/{wa['name']}",
                              "startA": wa["start"], "startB": wb and wb["start"],
                              "endA": wa["end"], "endB": wb and wb["end"],
                              "waitA": wa["waitSeconds"], "waitB": wb and wb["waitSeconds"],
                              "nodesA": wa["nodes"], "nodesB": wb["nodes"] if wb else []})
    return {"kind": "ReplayComparison", "a": dict(a), "b": dict(b),
            "comparison": {"labelA": label_a, "labelB": label_b, "summary": summary, "workloads": workloads}}
