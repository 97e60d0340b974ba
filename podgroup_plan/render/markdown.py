"""The `simulate -o markdown` rendering: GitHub-flavoured Markdown for a CI job summary
(`$GITHUB_STEP_SUMMARY`) or a pull-request comment.

Verdict first, then the summary table, the groups, the pods that did not schedule (with
kube-scheduler's message in full), the victims and the notes. Long lists are cut at `MAX_ROWS`
rows, keeping what did not schedule, so the text stays under a comment's size limit.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Sequence

from podgroup_plan import KUBERNETES_VERSION
from podgroup_plan.render import common
from podgroup_plan.render.common import DASH, ref
from podgroup_plan.render.layout import natural_ref_key
from podgroup_plan.result import SCHEDULED, PlanResult, PodGroupResult, PodResult

if TYPE_CHECKING:
    from podgroup_plan.render.registry import RenderOptions

MAX_ROWS = 100


def by_name(items) -> list:
    """Rows in the tables' natural order (`job-2` before `job-10`)."""
    return sorted(items, key=lambda x: natural_ref_key(x.namespace, x.name))


def cell(value: object) -> str:
    """One table cell: pipes escaped, newlines as <br>, HTML kept literal."""
    if value is None or value == "":
        return DASH
    text = str(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace("|", "\\|").replace("\r\n", "\n").replace("\n", "<br>")


def code(value: str | None) -> str:
    return DASH if not value else f"`{cell(value)}`"


def table(headers: Sequence[str], rows: Iterable[Sequence[object]], align: str = "") -> list[str]:
    """A GFM table; `align` has one letter per column (l/r), default left."""
    marks = ["---:" if (align[i:i + 1] == "r") else "---" for i in range(len(headers))]
    lines = ["| " + " | ".join(headers) + " |", "| " + " | ".join(marks) + " |"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return lines


def status(value: str | None) -> str:
    return f"**{value}**" if value and value != SCHEDULED else (value or DASH)


def heading(result: PlanResult, configuration: str | None = None, user_gates: tuple[str, ...] = ()) -> list[str]:
    mark = "✅" if result.feasible else "❌"
    word = "feasible" if result.feasible else "not feasible"
    lines = [f"## {mark} podgroup-plan: {word}", "", common.verdict(result), ""]
    lines += [f"- {line}" for line in common.headline_lines(result)]
    profiles = ", ".join(result.scheduler_names) or "default-scheduler"
    about = [f"kube-scheduler {KUBERNETES_VERSION}",
             f"configuration: {cell(configuration or 'built-in default')} (profile(s): {profiles})",
             common.plural(result.summary.nodes, 'node')]
    about += [cell(line) for line in common.gate_lines(getattr(result, "feature_gates", None), user_gates)]
    about += [cell(line) for line in common.source_notes(result.notes)]
    lines += ["", "_" + " · ".join(about) + "_"]
    return lines


def summary(result: PlanResult) -> list[str]:
    return ["### Summary", ""] + table(["", *common.SUMMARY_COLUMNS], common.summary_rows(result),
                                       align="lrrrr")


def condition_cell(group: PodGroupResult) -> str:
    """`PodGroupInitiallyScheduled=False (Unschedulable)`, one per condition."""
    return "<br>".join(cell(f"{c.type}={c.status}" + (f" ({c.reason})" if c.reason else ""))
                       for c in group.conditions) or DASH


def pod_groups(result: PlanResult) -> list[str]:
    members = common.group_members(result)
    labels = common.Labels(result)
    groups, more = common.shorten(by_name(result.pod_groups), MAX_ROWS, MAX_ROWS, "PodGroup")
    rows = []
    for g in groups:
        mine = members.get((g.namespace, g.name), [])
        rows.append([code(labels.group(g.namespace, g.name)), g.policy, status(g.status),
                     f"{g.scheduled_pods}/{g.min_count}", condition_cell(g),
                     cell(common.outcome_text(g, mine))])
    lines = ["### PodGroups", ""] + table(
        ["PodGroup", "Policy", "Status", "Scheduled/min", "Condition", "Landed on / why not"],
        rows, align="lllrll")
    return lines + (["", f"_{more}_"] if more else [])


def composites(result: PlanResult) -> list[str]:
    rows = []
    for c in by_name(result.composite_pod_groups):
        policy = common.policy_text(c.policy, c.min_group_count, " groups")
        rows.append([code(ref(c.namespace, c.name)), cell(c.parent), policy, status(c.status),
                     cell(common.composite_outcome(c))])
    return ["### CompositePodGroups", ""] + table(
        ["CompositePodGroup", "Parent", "Policy", "Status", "Landed on / why not"], rows)


def owners(result: PlanResult) -> list[str]:
    """Pods by the object a user wrote (a Job, JobSet, Deployment, StatefulSet)."""
    rows = [[code(common.owner_text(kind, namespace, name)), cell(common.owner_counts(members))]
            for (kind, namespace, name), members in list(common.by_owner(result).items())[:MAX_ROWS]]
    return ["### By owner", ""] + table(["Owner", "Pods"], rows)


def unscheduled_pods(result: PlanResult, pods: str = "pending") -> list[str]:
    """The pods that did not end Scheduled with their messages, pods of one owner with the same
    status and message in one row (`Job ns/train (40 pods)`); `pods="all"`: every pod by name."""
    every = pods == "all"
    listed = by_name(common.every_pod(result) if every else [p for p in result.pods if p.status != SCHEDULED])
    title = "### Pods" if every else "### Pods that did not schedule"
    lines = [title, ""]
    if not listed:
        return lines + ["Every pending pod was scheduled." if common.pending_pods(result)
                        else "No pending pods."]
    evicted_by = common.preemptors(result)
    labels = common.Labels(result)

    def same_row(p) -> tuple:
        if every:
            return (p.namespace, p.name)
        return (labels.pod_owner(p) or (p.namespace, p.name), p.pod_group, p.status, p.nominated_node,
                common.pod_detail(p, evicted_by))

    rows = common.fold(listed, same_row)
    shown = rows[:MAX_ROWS]
    table_rows = []
    for _, same in shown:
        p = same[0]
        first = ref(p.namespace, p.name) if every else common.pods_label(labels, same)
        group = p.pod_group if every else labels.group_name(p.namespace, p.pod_group)
        table_rows.append([code(first), cell(group), status(p.status),
                           cell(common.nodes_cell([x.node for x in same])), cell(p.nominated_node),
                           cell(common.pod_detail(p, evicted_by))])
    lines += table(["Pod", "PodGroup", "Status", "Node", "Nominated node", "Message"], table_rows)
    if len(rows) > len(shown):
        lines += ["", f"_{len(rows) - len(shown)} more rows not listed; `-o json` lists every pod._"]
    return lines


def victims(result: PlanResult) -> list[str]:
    """Evicted pods, those of one owner evicted by one preemptor in one row."""
    labels = common.Labels(result)
    evicted = {(p.namespace, p.name): p for p in result.pods if p.status == "Preempted"}
    listed = by_name(result.victims)

    def pod_of(v):
        return evicted.get((v.namespace, v.name)) or PodResult(v.namespace, v.name, v.pod_group,
                                                               "Preempted", node=v.node)

    rows = common.fold(listed, lambda v: (labels.pod_owner(pod_of(v)) or (v.namespace, v.name),
                                          v.pod_group, v.priority, v.preemptor, v.pdbs))
    # a column for the PodDisruptionBudgets an eviction violates, only when one does
    pdb_column = any(v.pdbs for v in result.victims)
    table_rows = [[code(common.pods_label(labels, [pod_of(v) for v in same])),
                   cell(common.nodes_cell([v.node for v in same])),
                   cell(labels.group_name(same[0].namespace, same[0].pod_group)), same[0].priority,
                   cell(labels.preemptor(same[0].preemptor.kind, same[0].preemptor.namespace,
                                         same[0].preemptor.name))]
                  + ([cell(", ".join(same[0].pdbs))] if pdb_column else [])
                  for _, same in rows[:MAX_ROWS]]
    lines = ["### Victims (running pods the plan evicts)", ""] + table(
        ["Pod", "Node", "PodGroup", "Priority", "Preempted by"] + (["Violates PDB"] if pdb_column else []),
        table_rows, align="lllrl" + ("l" if pdb_column else ""))
    if len(rows) > MAX_ROWS:
        lines += ["", f"_{len(rows) - MAX_ROWS} more rows not listed; `-o json` lists every one._"]
    return lines


def notes(items: Sequence[str], title: str = "Notes (what the plan did not apply)") -> list[str]:
    return [f"### {title}", ""] + [f"- {cell(n)}" for n in items]


def render_markdown(result: PlanResult, *, pods: str = "pending",
                    configuration: str | None = None, user_gates: tuple[str, ...] = ()) -> str:
    sections = [heading(result, configuration, user_gates), summary(result)]
    if result.pod_groups:
        sections.append(pod_groups(result))
    if result.composite_pod_groups:
        sections.append(composites(result))
    if common.by_owner(result):
        sections.append(owners(result))
    sections.append(unscheduled_pods(result, pods))
    if result.victims:
        sections.append(victims(result))
    if common.other_notes(result.notes):
        sections.append(notes(common.other_notes(result.notes)))
    return "\n\n".join("\n".join(s) for s in sections) + "\n"


def render_text(result: PlanResult, options: RenderOptions) -> str:
    """The registry's entry (render/registry.py)."""
    return render_markdown(result, pods=options.pods, configuration=options.configuration,
                           user_gates=options.user_gates)
