"""What every human-readable rendering says the same way: the headline, where a group landed,
why something did not schedule.

These read a `PlanResult` and never recompute a scheduling decision; they only count and
group what the plan reported.
"""
from __future__ import annotations

from collections import Counter
from typing import Callable, Hashable, Mapping, Sequence, TypeVar

from podgroup_plan.result import (
    IGNORED,
    PREEMPTED,
    SCHEDULED,
    CompositePodGroupResult,
    PlanResult,
    PodGroupResult,
    PodResult,
)

# Order in which non-scheduled statuses are listed in a headline.
_OTHER_STATUSES = ("Unschedulable", "Waiting", "Invalid", "Preempted", "Ignored", "Suspended")

DASH = "—"

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)


# The note `--from-cluster` adds to a plan (cli/live_input.py): the header shows it, where the
# input is named, and the notes section leaves it out.
SOURCE_NOTE = "cluster: "


def source_notes(notes: Sequence[str]) -> list[str]:
    return [n for n in notes if n.startswith(SOURCE_NOTE)]


def other_notes(notes: Sequence[str]) -> list[str]:
    return [n for n in notes if not n.startswith(SOURCE_NOTE)]


def ref(namespace: str, name: str) -> str:
    return f"{namespace}/{name}"


def plural(n: int, word: str, words: str | None = None) -> str:
    return f"{n} {word if n == 1 else (words or word + 's')}"


def _tally(total: int, scheduled: int, word: str, statuses: Counter, what: str = "") -> str:
    head = f"{scheduled} of {plural(total, word)}{what} scheduled"
    rest = [f"{statuses[s]} {s.lower()}" for s in _OTHER_STATUSES if statuses.get(s)]
    return head + ("; " + ", ".join(rest) if rest else "")


def pending_pods(result: PlanResult) -> list[PodResult]:
    """Pods that were pending in the input (the evicted ones were running)."""
    return [p for p in result.pods if p.status != PREEMPTED]


def headline_lines(result: PlanResult) -> list[str]:
    """One line per kind of object, e.g. `2 of 3 PodGroups scheduled; 1 unschedulable`."""
    lines = []
    if result.pod_groups:
        statuses = Counter(g.status for g in result.pod_groups)
        lines.append(_tally(len(result.pod_groups), statuses[SCHEDULED], "PodGroup", statuses))
    if result.composite_pod_groups:
        statuses = Counter(c.status for c in result.composite_pod_groups)
        lines.append(_tally(len(result.composite_pod_groups), statuses[SCHEDULED],
                            "CompositePodGroup", statuses))
    pending = pending_pods(result)
    if pending:
        statuses = Counter(p.status for p in pending)
        lines.append(_tally(len(pending), statuses[SCHEDULED], "pending pod", statuses))
    else:
        lines.append("no pending pods in the input")
    if result.victims:
        lines.append(f"{plural(len(result.victims), 'running pod')} preempted (evicted) by the plan")
    if result.unplanned:
        lines.append(unplanned_line(result))
    return lines


def unplanned_line(result: PlanResult, limit: int = 6) -> str:
    """`3 objects that create pods were not planned: Workflow ml/etl, …`: their pods are not in
    the plan, whatever the verdict says about the rest."""
    names = [f"{kind} {ns}/{name}" for kind, ns, name in result.unplanned]
    shown = ", ".join(names[:limit]) + (f", … +{len(names) - limit} more" if len(names) > limit else "")
    n = len(names)
    if n == 1:
        return f"1 object that creates pods was not planned: {shown}"
    return f"{n} objects that create pods were not planned: {shown}"


SUMMARY_COLUMNS = ("Scheduled", "Unschedulable", "Waiting", "Preempted")


def summary_rows(result: PlanResult) -> list[tuple[str, int, int, int, int]]:
    """The contract's summary as two rows (pods, PodGroups) under SUMMARY_COLUMNS."""
    s = result.summary
    groups_preempted = sum(1 for g in result.pod_groups if g.status == PREEMPTED)
    return [("Pods", s.pods_scheduled, s.pods_unschedulable, s.pods_waiting, s.pods_preempted),
            ("PodGroups", s.pod_groups_scheduled, s.pod_groups_unschedulable, s.pod_groups_waiting,
             groups_preempted)]


def policy_text(policy: str, count: int, unit: str = "") -> str:
    """`Gang ≥4` (the gang's minimum), or the policy name for Basic."""
    return f"Gang ≥{count}{unit}" if policy == "Gang" else policy


def running_text(group: PodGroupResult) -> str:
    """`3/4`: member pods running after the plan, of all its members."""
    return f"{group.scheduled_pods}/{group.scheduled_pods + group.pending_pods}"


def gate_lines(gates: Mapping[str, bool] | None, user_gates: Sequence[str] = ()) -> list[str]:
    """The header's words on feature gates (the result's `featureGates`: those unlike kube-scheduler
    v1.37.0's defaults): the ones the user set as the user's, the others as the planner's
    defaults, with how to match a stock cluster."""
    if not gates:
        return []

    def listed(names: list[str]) -> str:
        return ", ".join(f"{n}={'true' if gates[n] else 'false'}" for n in names)

    mine = sorted(n for n in gates if n in user_gates)
    planner = sorted(n for n in gates if n not in user_gates)
    lines = []
    if mine:
        lines.append(f"feature gates you set: {listed(mine)}")
    if planner:
        on = [n for n in planner if gates[n]]
        off = [n for n in planner if not gates[n]]
        words = []
        if on:
            words.append(f"gang scheduling on ({', '.join(on)}; off in a stock v1.37.0)")
        if off:
            words.append(f"{', '.join(off)} off")
        lines.append(f"planner defaults: {'; '.join(words)}; --feature-gates to match a stock cluster")
    return lines


def verdict(result: PlanResult) -> str:
    if result.feasible:
        cost = f", by evicting {plural(len(result.victims), 'running pod')}" if result.victims else ""
        return f"Feasible: every pending pod and PodGroup can be scheduled{cost}."
    return "Not feasible: some pods or PodGroups stay unschedulable or waiting."


def group_members(result: PlanResult) -> dict[tuple[str, str], list[PodResult]]:
    """Reported pods by (namespace, podGroup)."""
    members: dict[tuple[str, str], list[PodResult]] = {}
    for pod in result.pods:
        if pod.pod_group is not None:
            members.setdefault((pod.namespace, pod.pod_group), []).append(pod)
    return members


def nodes_of(pods: list[PodResult], status: str = SCHEDULED) -> list[tuple[str, int]]:
    """(node, pod count) for the pods with `status`, sorted by node name."""
    counts = Counter(p.node for p in pods if p.status == status and p.node)
    return sorted(counts.items())


def format_nodes(nodes: list[tuple[str, int]], limit: int = 6) -> str:
    """`node-a ×2, node-b`; past `limit` nodes, `16 nodes: node-a, node-b, … +14 more`."""
    parts = [node if n == 1 else f"{node} ×{n}" for node, n in nodes[:limit]]
    if len(nodes) > limit:
        return f"{len(nodes)} nodes: " + ", ".join(parts) + f", … +{len(nodes) - limit} more"
    return ", ".join(parts)


def placement_text(group: PodGroupResult) -> str | None:
    """`rack-1 (topology.kubernetes.io/rack)`: the domain first, since it is what a reader wants."""
    if group.placement is None:
        return None
    if group.topology_key:
        return f"{group.placement} ({group.topology_key})"
    return group.placement


_SHORT_PLUGIN = {"PodGroupPodsCount": "pods", "NodeResourcesFit": "fit"}


def placement_summary(group: PodGroupResult, limit: int = 4) -> str | None:
    """The planner's one line on a group's placement candidates (never upstream's text), e.g.
    `rack-b chosen (score 187: pods 100, fit 87); rack-a: 3 pods placed, infeasible;
    rack-c: score 150`. None when there is nothing to explain (no topology constraint)."""
    trials = group.placements
    if trials is None or not group.topology_key:
        return None
    if not len(trials):  # the generator made none (upstream: `no feasible placements found`)
        return f'placements: none (no candidate node has label "{group.topology_key}")'
    ordered = sorted(trials, key=lambda t: not t.chosen)  # the winner first, then evaluation order
    parts = []
    for t in ordered[:limit]:
        name = t.name if t.name is not None else "all nodes"
        if t.chosen:
            text = f"{name} chosen"
            if t.score is not None:
                detail = ", ".join(f"{_SHORT_PLUGIN.get(p, p)} {v}" for p, v in (t.scores or {}).items())
                text += f" (score {t.score}: {detail})"
        elif not t.evaluated:
            text = f"{name}: not evaluated"
        elif not t.feasible:
            text = f"{name}: {t.scheduled_pods} pods placed, infeasible"
        elif t.score is not None:
            text = f"{name}: score {t.score}"
        else:
            text = f"{name}: feasible"
        parts.append(text)
    if len(ordered) > limit:
        parts.append(f"… +{len(ordered) - limit} more")
    return "placements: " + "; ".join(parts)


def domains_text(group: PodGroupResult, limit: int = 4) -> str | None:
    """`domains: zone us-east-1a, us-east-1b · rack z1-r3, z2-r1`: where the group's running pods
    are at every topology level the nodes carry, coarse to fine (the key's last segment names it;
    the JSON's `domains` has the full keys)."""
    if not group.domains:
        return None
    parts = []
    for key, values in group.domains:
        shown = ", ".join(values[:limit]) + (f", … +{len(values) - limit} more" if len(values) > limit else "")
        parts.append(f"{key.rsplit('/', 1)[-1]} {shown}")
    return "domains: " + " · ".join(parts)


def landed_text(group: PodGroupResult, members: list[PodResult], node_limit: int = 6) -> str:
    """Where a group's pods run after the plan: its topology domain, then the nodes of the pods
    this plan placed (or, for an evicted group, evicted)."""
    parts = []
    placement = placement_text(group)
    if placement:
        parts.append(placement)
    spans = domains_text(group)
    if spans and group.status == SCHEDULED:
        parts.append(spans)
    status = PREEMPTED if group.status == PREEMPTED else SCHEDULED
    nodes = nodes_of(members, status)
    if nodes:
        text = format_nodes(nodes, node_limit)
        if status == PREEMPTED:
            parts.append("evicted from " + text)
        else:
            parts.append(text if len(nodes) > node_limit else "nodes: " + text)
    elif status == SCHEDULED and group.pending_pods == 0 and not members:
        parts.append("already running")
    return "\n".join(parts) if parts else DASH


def outcome_text(group: PodGroupResult, members: list[PodResult], node_limit: int = 6) -> str:
    """Where a Scheduled group landed, or why any other group did not; then the planner's line
    on its placement candidates."""
    text = _outcome_text(group, members, node_limit)
    summary = placement_summary(group)
    if summary:
        return summary if text == DASH else f"{text}\n{summary}"
    return text


def _outcome_text(group: PodGroupResult, members: list[PodResult], node_limit: int = 6) -> str:
    if group.status == SCHEDULED:
        return landed_text(group, members, node_limit)
    detail = group_detail(group, members)
    if group.status == PREEMPTED:
        landed = landed_text(group, members, node_limit)
        return "\n".join(x for x in (detail, landed if landed != DASH else None) if x) or DASH
    return detail or DASH


def composite_outcome(group: CompositePodGroupResult) -> str:
    """A CompositePodGroup's placement when Scheduled, else its message."""
    if group.status == SCHEDULED:
        return group.placement or DASH
    return "\n".join(x for x in (group.message, group.placement) if x) or DASH


def group_detail(group: PodGroupResult, members: list[PodResult]) -> str | None:
    """Why a group is not Scheduled, in kube-scheduler's words; None when it is."""
    if group.status == SCHEDULED:
        return None
    for cond in group.conditions:
        if cond.status == "False" and cond.message:
            return cond.message
    for cond in group.conditions:
        if cond.type == "DisruptionTarget" and cond.message:
            return cond.message
    for pod in members:
        if pod.status != SCHEDULED and pod.message:
            return pod.message
    return None


def preemptors(result: PlanResult) -> dict[tuple[str, str], str]:
    """Victim (namespace, name) -> `KIND NAMESPACE/NAME` of what evicted it."""
    return {(v.namespace, v.name): f"{v.preemptor.kind} {ref(v.preemptor.namespace, v.preemptor.name)}"
            for v in result.victims}


def pod_detail(pod: PodResult, evicted_by: Mapping[tuple[str, str], str] | None = None) -> str | None:
    """The pod's message; for an evicted pod, who evicted it (`evicted_by`: `preemptors()`)."""
    if pod.message:
        return pod.message
    if pod.status == PREEMPTED and evicted_by:
        by = evicted_by.get((pod.namespace, pod.name))
        if by:
            return f"preempted by {by}"
    if pod.status == IGNORED:
        return "its schedulerName matches no profile of the configuration"
    return None


def shorten(items: list, limit: int, shown: int, what: str) -> tuple[list, str | None]:
    """All items when at most `limit`; else those not Scheduled (at most `shown`), with a
    sentence that says what was left out (`what`: `pod`, `PodGroup`)."""
    if len(items) <= limit:
        return items, None
    hidden = sum(1 for x in items if x.status == SCHEDULED)
    kept = [x for x in items if x.status != SCHEDULED]
    notes = [f"{plural(hidden, 'scheduled ' + what)} not listed"] if hidden else []
    if len(kept) > shown:
        notes.append(f"{len(kept) - shown} more not listed")
        kept = kept[:shown]
    return kept, "; ".join(notes) + f". -o json lists every {what}."


# --- by owner (the Job, JobSet, Deployment, StatefulSet a user wrote) -----------------------------

def owner_text(kind: str, namespace: str, name: str) -> str:
    """`Job ml/train`: how tables, --fail-on lines and JUnit name an owner."""
    return f"{kind} {namespace}/{name}"


def by_owner(result: PlanResult) -> dict[tuple[str, str, str], list[PodResult]]:
    """Pods by the top of their owner chain, `(kind, namespace, name)` -> pods, by kind then in
    the tables' natural order (`job-2` before `job-10`); pods without an owner are left out."""
    from podgroup_plan.render.layout import natural_ref_key

    out: dict[tuple[str, str, str], list[PodResult]] = {}
    for p in result.pods:
        root = result.root_owner(p.namespace, p.owner)
        if root is not None:
            out.setdefault((root.kind, p.namespace, root.name), []).append(p)
    return {k: out[k] for k in sorted(out, key=lambda k: (k[0], natural_ref_key(k[1], k[2])))}


def owner_of_pod(result: PlanResult, pod: PodResult) -> str | None:
    root = result.root_owner(pod.namespace, pod.owner)
    return owner_text(root.kind, pod.namespace, root.name) if root else None


def owner_of_group(result: PlanResult, group: PodGroupResult) -> str | None:
    root = result.group_owner(group.namespace, group.name)
    return owner_text(root.kind, group.namespace, root.name) if root else None


# Owners whose pods the planner plans pod by pod unless --gang or their annotation asks otherwise.
GANG_CAPABLE_OWNERS = frozenset({"PyTorchJob", "TFJob", "LeaderWorkerSet", "RayCluster", "RayJob", "TrainJob",
                                 "JobSet", "CronJob"})


def planned_as(kind: str, pods: list[PodResult]) -> str:
    """`pod by pod`, `gang` or `3 gangs` for an operator's object (the PodGroups are in their own
    table); "—" for the other owners."""
    if kind not in GANG_CAPABLE_OWNERS:
        return "—"
    groups = sorted({p.pod_group for p in pods if p.pod_group})
    if not groups:
        return "pod by pod"
    return "gang" if len(groups) == 1 else f"{len(groups)} gangs"


def owner_counts(pods: list[PodResult]) -> str:
    """`3 of 4 pods scheduled, 1 Unschedulable`."""
    statuses = Counter(p.status for p in pods if p.status != SCHEDULED)
    text = f"{sum(p.status == SCHEDULED for p in pods)} of {plural(len(pods), 'pod')} scheduled"
    return text + "".join(f", {n} {s}" for s, n in sorted(statuses.items()))


# --- names a person knows (the owner), and identical rows folded ---------------------------------

class Labels:
    """How the human-readable outputs name objects: by the object a user wrote where there is one
    (`Job research/giant-pretrain`, not `research/giant-pretrain-7c1d…-pgt-0-5c5cf67795`). The
    generated names stay in the JSON result and in `--pods all`.

    A PodGroup is named by its owner when the owner has no other PodGroup (a JobSet's groups keep
    `JobSet ns/name · group` with their own name); a pod by its owner only where pods are counted
    together (`fold`)."""

    def __init__(self, result: PlanResult):
        self.result = result
        self._groups: dict[tuple[str, str], str] = {}
        owners: dict[str, list[tuple[str, str]]] = {}
        for g in result.pod_groups:
            owner = owner_of_group(result, g)
            if owner is not None:
                owners.setdefault(owner, []).append((g.namespace, g.name))
        for owner, keys in owners.items():
            for key in keys:
                self._groups[key] = owner if len(keys) == 1 else f"{owner} · {key[1]}"
        self._pod_owner: dict[tuple[str, str], str | None] = {}
        self._composites: dict[tuple[str, str], str] = {}
        for c in result.composite_pod_groups:
            root = result.composite_owner(c.namespace, c.name)
            if root is not None:
                self._composites[(c.namespace, c.name)] = owner_text(root.kind, c.namespace, root.name)

    def composite(self, namespace: str, name: str) -> str:
        """`LeaderWorkerSet ns/lws` for the CompositePodGroup made for it, else `ns/name`."""
        return self._composites.get((namespace, name)) or ref(namespace, name)

    def group(self, namespace: str, name: str) -> str:
        """`Job ns/train` for a Job's only PodGroup, else `ns/name`."""
        return self._groups.get((namespace, name)) or ref(namespace, name)

    def group_name(self, namespace: str, name: str | None) -> str | None:
        """A pod's `podGroup` cell: the group's label without the namespace the pod row shows,
        or the group's own name when the owner names it."""
        if name is None:
            return None
        label = self._groups.get((namespace, name))
        return label if label is not None else name

    def pod_owner(self, pod: PodResult) -> str | None:
        key = (pod.namespace, pod.name)
        if key not in self._pod_owner:
            self._pod_owner[key] = owner_of_pod(self.result, pod)
        return self._pod_owner[key]

    def preemptor(self, kind: str, namespace: str, name: str) -> str:
        """What evicted a pod: `Job ns/train` for a Job's gang, else `KIND ns/name`."""
        if kind == "PodGroup" and (namespace, name) in self._groups:
            return self._groups[(namespace, name)]
        return f"{kind} {ref(namespace, name)}"


def fold(items: Sequence[T], key: Callable[[T], K]) -> list[tuple[K, list[T]]]:
    """`items` with equal `key(item)` taken together, in the order of each key's first item: a
    gang's 40 pods that share every column become one row."""
    out: dict[K, list[T]] = {}
    for item in items:
        out.setdefault(key(item), []).append(item)
    return list(out.items())


def pods_label(labels: Labels, pods: list[PodResult]) -> str:
    """The first cell of a folded row: the pod itself, or `Job ns/train (40 pods)` for several
    pods of one owner, or `40 pods: ns/a, ns/b, … +38 more` for pods with no common owner."""
    if len(pods) == 1:
        return ref(pods[0].namespace, pods[0].name)
    owner = labels.pod_owner(pods[0])
    if owner is not None and all(labels.pod_owner(p) == owner for p in pods):
        return f"{owner} ({len(pods)} pods)"
    return f"{len(pods)} pods: " + name_list([ref(p.namespace, p.name) for p in pods])


RUNNING = "Running"


def every_pod(result: PlanResult) -> list[PodResult]:
    """`--pods all`: the result's pods (pending and evicted) and the pods that ran before the plan
    and still run after it on their nodes (status `Running`, a table-only word: they are not in
    `pods[]`), from the nodes' pods after the plan (the result's usage); evicted ones are in
    `pods[]` already."""
    listed = list(result.pods)
    usage = getattr(result, "usage", None)
    if usage is None or not usage.pods_after:
        return listed
    known = {(p.namespace, p.name) for p in listed}
    for node, keys in zip(usage.names, usage.pods_after, strict=False):
        for namespace, name in keys:
            if (namespace, name) not in known:
                listed.append(PodResult(namespace, name, None, RUNNING, node=node))
    return listed


def nodes_cell(nodes: list[str | None]) -> str | None:
    """A folded row's node: the node its pods share, else `6 nodes`."""
    distinct = {n for n in nodes if n}
    if len(distinct) <= 1:
        return next(iter(distinct), None)
    return f"{len(distinct)} nodes"


def name_list(names: list[str], limit: int = 3) -> str:
    """`a, b, c`, or past `limit + 1` names `a, b, c, … +37 more`."""
    if len(names) <= limit + 1:
        return ", ".join(names)
    return ", ".join(names[:limit]) + f", … +{len(names) - limit} more"


def pods_by_owner_text(labels: Labels, pods: list[PodResult]) -> str:
    """Pods named by owner where they have one (`Job ns/train: 33 pods`), else by name."""
    parts: list[str] = []
    loose: list[str] = []
    for owner, mine in fold(pods, labels.pod_owner):
        if owner is None:
            loose.extend(ref(p.namespace, p.name) for p in mine)
        else:
            parts.append(f"{owner}: {plural(len(mine), 'pod')}" if len(mine) > 1
                         else f"{owner}: {mine[0].name}")
    if loose:
        parts.append(name_list(loose))
    return "; ".join(parts)
