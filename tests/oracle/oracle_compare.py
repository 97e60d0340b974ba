"""Comparing the planner with the oracle, field by field, with the exclusion rules applied.

`framework` mode is compared exactly: per pending pod the PreFilter verdict, every node's Filter
status (code, plugin, reasons in order), every feasible node's per-plugin normalised and weighted
scores and total, the set of best nodes, and the FitError text. The exclusions (exclusions.py)
are the only allowed differences; each cites the README deviation or scope rule behind it.
"""
from __future__ import annotations

import copy
from typing import Any, Mapping

from oracle_exclusions import (
    OUT_OF_SCOPE_SCORE_PLUGINS,
    PLANNER_ONLY_GROUP_CONDITIONS,
    apply_known_oracle_side_mismatches,
    apply_known_planner_mismatches,
    normalise_oracle_text,
    planner_node_for_tie,
    sorted_domain_pair,
)


def compare_framework(oracle: dict[str, Any], planner: dict[str, Any]) -> list[str]:
    problems: list[str] = []
    if oracle["nodes"] != planner["nodes"]:
        problems.append(f"node count: oracle {oracle['nodes']}, planner {planner['nodes']}")
    o_pods = {(p["namespace"], p["name"]): p for p in oracle["pods"]}
    p_pods = {(p["namespace"], p["name"]): p for p in planner["pods"]}
    if set(o_pods) != set(p_pods):
        problems.append(f"pending pods: oracle {sorted(o_pods)}, planner {sorted(p_pods)}")
    for key in sorted(set(o_pods) & set(p_pods)):
        problems += [f"{key[0]}/{key[1]}: {m}" for m in _compare_pod(o_pods[key], p_pods[key])]
    return problems


def _compare_pod(o: dict, p: dict) -> list[str]:
    out: list[str] = []
    if o["ignored"] != p["ignored"]:
        return [f"ignored: oracle {o['ignored']}, planner {p['ignored']}"]
    if o["ignored"]:
        return []
    if o["preFilter"] != p["preFilter"]:
        out.append(f"PreFilter status: oracle {o['preFilter']}, planner {p['preFilter']}")
    if o["preFilterNodeNames"] != p["preFilterNodeNames"]:
        out.append(f"PreFilter node names: oracle {o['preFilterNodeNames']}, planner {p['preFilterNodeNames']}")
    for node in sorted(set(o["filter"]) | set(p["filter"])):
        os_, ps_ = o["filter"].get(node), p["filter"].get(node)
        if os_ != ps_:
            out.append(f"Filter on {node}: oracle {os_}, planner {ps_}")
    if set(o["scores"]) != set(p["scores"]):
        out.append(f"scored nodes: oracle {sorted(o['scores'])}, planner {sorted(p['scores'])}")
    if o.get("preScore"):
        out.append(f"oracle PreScore/Score failed: {o['preScore']}")
    for node in sorted(set(o["scores"]) & set(p["scores"])):
        out += [f"scores on {node}: {m}" for m in _compare_scores(o["scores"][node], p["scores"][node])]
    if o["bestNodes"] != p["bestNodes"]:
        out.append(f"best nodes: oracle {o['bestNodes']}, planner {p['bestNodes']}")
    out += _compare_schedule(o, p)
    return out


def _compare_scores(o: dict, p: dict) -> list[str]:
    out = []
    if o["total"] != p["total"]:
        out.append(f"total: oracle {o['total']}, planner {p['total']}")
    for plugin in sorted(set(o["plugins"]) | set(p["plugins"])):
        os_, ps_ = o["plugins"].get(plugin), p["plugins"].get(plugin)
        if ps_ is None:
            if plugin in OUT_OF_SCOPE_SCORE_PLUGINS and os_["weighted"] == 0:
                continue
            out.append(f"{plugin}: scored by the oracle only ({os_})")
        elif os_ is None:
            out.append(f"{plugin}: scored by the planner only ({ps_})")
        else:
            for field in ("normalized", "weight", "weighted"):
                if os_[field] != ps_[field]:
                    out.append(f"{plugin} {field}: oracle {os_[field]}, planner {ps_[field]} (raw: oracle {os_['raw']}, planner {ps_['raw']})")
    return out


def _compare_schedule(o: dict, p: dict) -> list[str]:
    os_, ps_ = o["schedule"], p["schedule"]
    out = []
    if os_["error"] or ps_["error"]:
        if os_["error"] != ps_["error"]:
            out.append(f"error: oracle {os_['error']!r}, planner {ps_['error']!r}")
        return out
    if os_["fitError"] != ps_["fitError"]:
        out.append(f"FitError: oracle {os_['fitError']!r}, planner {ps_['fitError']!r}")
    if os_["node"] is None or ps_["node"] is None:
        if os_["node"] != ps_["node"]:
            out.append(f"node: oracle {os_['node']}, planner {ps_['node']}")
        return out
    # The oracle's SchedulePod picked one of its best nodes at random; the planner must pick
    # the one the tie rule names.
    best = o["bestNodes"] or [os_["node"]]
    if os_["node"] not in best:
        out.append(f"oracle inconsistent: SchedulePod chose {os_['node']}, best nodes {best}")
    expected = planner_node_for_tie(best)
    if ps_["node"] != expected:
        out.append(f"node: planner {ps_['node']}, oracle's best nodes {best} (tie rule: {expected})")
    return out


def compare_scheduler(oracle: dict[str, Any], planner: dict[str, Any], gates: Mapping[str, bool],
                      known: set[str] | None = None, documents: list[dict] | None = None) -> list[str]:
    """`scheduler` mode: the oracle ran with --tie-break=name (the planner's tie rule, README
    deviation), so every decision compares exactly: each pending pod's node, or its status,
    reason and message to the character; each PodGroup's conditions; each CompositePodGroup
    (`_compare_composites`, which needs the input `documents` for the tree links); the victims.
    Texts go through the exclusion rules first (oracle side) and the known planner mismatches
    (planner side, collected into `known`)."""
    known = set() if known is None else known
    oracle = _normalised_oracle(oracle, gates, known)
    planner = _normalised_planner(planner, known)
    problems: list[str] = []
    p_pods = {(p["namespace"], p["name"]): p for p in planner["pods"]}
    for o in oracle["pods"]:
        k = (o["namespace"], o["name"])
        p = p_pods.get(k)
        if p is None:
            problems.append(f"{k[0]}/{k[1]}: not in the plan")
            continue
        problems += [f"{k[0]}/{k[1]}: {m}" for m in _compare_pod_outcome(o, p)]
    p_groups = {(g["namespace"], g["name"]): g for g in planner["podGroups"]}
    for o in oracle["podGroups"]:
        k = (o["namespace"], o["name"])
        p = p_groups.get(k)
        if p is None:
            problems.append(f"PodGroup {k[0]}/{k[1]}: not in the plan")
            continue
        theirs = [{f: c[f] for f in ("type", "status", "reason", "message")} for c in p["conditions"]
                  if c["type"] not in PLANNER_ONLY_GROUP_CONDITIONS]
        if o["conditions"] != theirs:
            problems.append(f"PodGroup {k[0]}/{k[1]} conditions: oracle {o['conditions']}, planner {theirs}")
    problems += _compare_composites(oracle, planner, gates, documents or [])
    o_victims = sorted((v["namespace"], v["name"]) for v in oracle["victims"])
    p_victims = sorted((v["namespace"], v["name"]) for v in planner["victims"])
    if o_victims != p_victims:
        problems.append(f"victims: oracle {o_victims}, planner {p_victims}")
    return problems


def _normalised_oracle(oracle: dict, gates: Mapping[str, bool], known: set[str]) -> dict:
    oracle = copy.deepcopy(oracle)
    for pod in oracle["pods"]:
        if pod["condition"]:
            text = sorted_domain_pair(normalise_oracle_text(pod["condition"]["message"], gates))
            pod["condition"]["message"] = apply_known_oracle_side_mismatches(text, known)
    for group in oracle["podGroups"]:
        for cond in group["conditions"]:
            text = sorted_domain_pair(normalise_oracle_text(cond["message"], gates))
            cond["message"] = apply_known_oracle_side_mismatches(text, known)
    return oracle


def _normalised_planner(planner: dict, known: set[str]) -> dict:
    planner = copy.deepcopy(planner)
    for pod in planner["pods"]:
        text = sorted_domain_pair(apply_known_planner_mismatches(pod["message"], known))
        pod["message"] = apply_known_oracle_side_mismatches(text, known)
    for group in planner["podGroups"]:
        for cond in group["conditions"]:
            text = sorted_domain_pair(apply_known_planner_mismatches(cond["message"], known))
            cond["message"] = apply_known_oracle_side_mismatches(text, known)
    return planner


def _compare_pod_outcome(o: dict, p: dict) -> list[str]:
    if o["deleted"]:
        return [] if p["status"] == "Preempted" else [f"deleted by kube-scheduler, planner says {p['status']}"]
    if o["node"] is not None:
        if p["status"] != "Scheduled" or p["node"] != o["node"]:
            return [f"kube-scheduler bound it to {o['node']} (tied: {o['ties']}), planner: {p['status']} {p['node']} {p['message']!r}"]
        return []
    out = []
    cond = o["condition"]
    if cond is None:
        # never tried (gated at PreEnqueue, or no profile): the planner says Waiting or Ignored
        if p["status"] not in ("Waiting", "Ignored"):
            out.append(f"never tried by kube-scheduler, planner: {p['status']} {p['message']!r}")
        return out
    if cond["reason"] == "SchedulingGated":
        return [] if p["status"] == "Waiting" else [f"kube-scheduler: SchedulingGated, planner: {p['status']}"]
    if p["status"] not in ("Unschedulable",) or p["reason"] != cond["reason"]:
        out.append(f"kube-scheduler: {cond['reason']}, planner: {p['status']} {p['reason']} on {p['node']}")
    if p["message"] != cond["message"]:
        out.append(f"message: kube-scheduler {cond['message']!r}, planner {p['message']!r}")
    if (o["nominatedNode"] or None) != (p.get("nominatedNode") or None):
        out.append(f"nominated node: kube-scheduler {o['nominatedNode']}, planner {p.get('nominatedNode')}")
    return out


def _compare_composites(oracle: dict, planner: dict, gates: Mapping[str, bool], documents: list[dict]) -> list[str]:
    """CompositePodGroups. v1.37 writes no condition on them (its cycle patches leaf PodGroups
    only: schedule_one_podgroup.go, submitPodGroupAlgorithmResult skips composites), while the
    planner gives each one a status of its own (README deviations, "CompositePodGroups get a
    planner status"). So: kube-scheduler must have written nothing (anything else is news the
    planner does not model), the plan must list every one, and the planner's status must agree
    with what kube-scheduler did below it. A leaf succeeds only inside a cycle where every
    ancestor succeeded (a failed parent's status is copied down onto every child,
    completeCompositePodGroupAlgorithmResultMap), and a successful CompositePodGroup has at least
    one successful child (minGroupCount >= 1, 1 for basic): so a CompositePodGroup is
    `Scheduled` in the plan exactly when some leaf PodGroup below it has kube-scheduler's
    `PodGroupInitiallyScheduled=True` (checked for trees with a pending pod; others never have a
    cycle). With the CompositePodGroup gate off the planner says `Ignored` and leaves are
    scheduled on their own."""
    out: list[str] = []
    if "compositePodGroups" not in oracle:
        return out
    parents: dict[tuple[str, str, str], tuple[str, str] | None] = {}
    for doc in documents:
        if doc.get("kind") in ("CompositePodGroup", "PodGroup"):
            meta, spec = doc["metadata"], doc.get("spec", {})
            ns = meta.get("namespace", "default")
            parent = spec.get("parentCompositePodGroupName")
            parents[(doc["kind"], ns, meta["name"])] = (ns, parent) if parent else None
    scheduled_leaves = {(g["namespace"], g["name"]) for g in oracle["podGroups"]
                        if any(c["type"] == "PodGroupInitiallyScheduled" and c["status"] == "True"
                               for c in g["conditions"])}
    pending_leaves = {(d["metadata"].get("namespace", "default"), d["spec"]["schedulingGroup"]["podGroupName"])
                      for d in documents if d.get("kind") == "Pod" and not d["spec"].get("nodeName")
                      and (d["spec"].get("schedulingGroup") or {}).get("podGroupName")}

    def ancestors(leaf: tuple[str, str]) -> set[tuple[str, str]]:
        out, up = set(), parents.get(("PodGroup", *leaf))
        while up is not None and up not in out:
            out.add(up)
            up = parents.get(("CompositePodGroup", *up))
        return out

    succeeded_below = set().union(*(ancestors(leaf) for leaf in scheduled_leaves))
    # a tree without a pending pod never has a cycle: nothing to compare its status with
    queued = set().union(*(ancestors(leaf) for leaf in pending_leaves))
    mine = {(c["namespace"], c["name"]): c for c in planner.get("compositePodGroups", [])}
    for o in oracle["compositePodGroups"]:
        k = (o["namespace"], o["name"])
        if o["conditions"]:
            out.append(f"CompositePodGroup {k[0]}/{k[1]}: kube-scheduler wrote conditions {o['conditions']}")
        p = mine.get(k)
        if p is None:
            out.append(f"CompositePodGroup {k[0]}/{k[1]}: not in the plan")
            continue
        if not gates.get("CompositePodGroup", True):
            if p["status"] != "Ignored":
                out.append(f"CompositePodGroup {k[0]}/{k[1]}: gate off, planner says {p['status']}")
            continue
        if k in queued and (p["status"] == "Scheduled") != (k in succeeded_below):
            below = "a leaf below it scheduled" if k in succeeded_below else "no leaf below it scheduled"
            out.append(f"CompositePodGroup {k[0]}/{k[1]}: kube-scheduler has {below}, planner: "
                       f"{p['status']} {p.get('message')!r}")
    return out
