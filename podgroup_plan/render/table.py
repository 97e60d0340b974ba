"""The `simulate -o table` rendering: what a person reads in a terminal or a CI log.

One rich table per concern (summary, pod groups, composite groups, pods, victims, notes), under a
headline that says in words what happened. Colour only when the console is a terminal; every
message is shown in full, wrapped, never cut.
"""
from __future__ import annotations

import io

from rich import box
from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from podgroup_plan import KUBERNETES_VERSION
from podgroup_plan.render import common
from podgroup_plan.render.common import DASH, ref
from podgroup_plan.result import SCHEDULED, PlanResult

# Above this many pods the pod table lists only those that did not schedule.
MAX_POD_ROWS = 200
# At most this many rows of pods (or groups) that did not schedule; -o json has them all.
MAX_LISTED = 1000

STATUS_STYLE = {
    "Scheduled": "green",
    "Unschedulable": "bold red",
    "SchedulerError": "bold red",
    "Invalid": "bold red",
    "Waiting": "yellow",
    "Preempted": "magenta",
    "Ignored": "dim",
}


def status_text(status: str | None) -> Text:
    if status is None:
        return Text(DASH, style="dim")
    return Text(status, style=STATUS_STYLE.get(status, ""))


def _cell(value: str | None) -> Text:
    return Text(value) if value else Text(DASH, style="dim")


def new_table(title: str, caption: str | None = None) -> Table:
    """A borderless table under a bold title."""
    return Table(
        title=title,
        title_justify="left",
        title_style="bold",
        caption=caption,
        caption_justify="left",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
        min_width=len(title),
    )


def header(result: PlanResult) -> RenderableType:
    profiles = ", ".join(result.scheduler_names) or "default-scheduler"
    about = Text(f"podgroup-plan · kube-scheduler {KUBERNETES_VERSION} · profile(s): {profiles} · "
                 f"{common.plural(result.summary.nodes, 'node')}", style="dim")
    verdict = Text(common.verdict(result), style="bold green" if result.feasible else "bold red")
    return Group(about, bullets(verdict, [Text(line) for line in common.headline_lines(result)]))


def summary_table(result: PlanResult) -> Table:
    t = new_table("Summary")
    t.add_column("")
    for name in common.SUMMARY_COLUMNS:
        t.add_column(name, justify="right")
    for label, *counts in common.summary_rows(result):
        t.add_row(label, *(str(n) for n in counts))
    return t


def _with_detail(name: str, detail: str | None) -> RenderableType:
    """A name with its detail (where it landed, or why not) indented on the lines below: the
    first column takes the width the short columns leave, so messages wrap but are never cut."""
    if not detail or detail == DASH:
        return Text(name, overflow="fold")
    return Group(Text(name, overflow="fold"), Padding(Text(detail, overflow="fold"), (0, 0, 0, 2)))


def pod_groups_table(result: PlanResult) -> Table:
    """Every PodGroup; under its name, where it landed or, if it did not, why."""
    members = common.group_members(result)
    groups, caption = common.shorten(list(result.pod_groups), MAX_LISTED, MAX_LISTED, "PodGroup")
    t = new_table("PodGroups (where each landed, or why not)", caption)
    t.add_column("PodGroup", ratio=1)
    t.add_column("Policy", no_wrap=True)
    t.add_column("Status", no_wrap=True)
    t.add_column("Running", justify="right", no_wrap=True)
    for g in groups:
        mine = members.get((g.namespace, g.name), [])
        t.add_row(_with_detail(ref(g.namespace, g.name), common.outcome_text(g, mine, node_limit=3)),
                  common.policy_text(g.policy, g.min_count), status_text(g.status),
                  common.running_text(g))
    return t


def composite_table(result: PlanResult) -> Table:
    t = new_table("CompositePodGroups (where each landed, or why not)")
    t.add_column("CompositePodGroup", ratio=1)
    t.add_column("Parent", overflow="fold")
    t.add_column("Policy", no_wrap=True)
    t.add_column("Status", no_wrap=True)
    for c in result.composite_pod_groups:
        policy = common.policy_text(c.policy, c.min_group_count, " groups")
        t.add_row(_with_detail(ref(c.namespace, c.name), common.composite_outcome(c)),
                  _cell(c.parent), policy, status_text(c.status))
    return t


def pods_table(result: PlanResult, max_rows: int = MAX_POD_ROWS) -> Table:
    """Every reported pod and its node; past `max_rows` pods, only those that did not schedule.
    Messages are listed under the table (`reasons_block`), where they have the full width."""
    pods, caption = common.shorten(list(result.pods), max_rows, MAX_LISTED, "pod")
    t = new_table("Pods", caption)
    t.add_column("Pod", overflow="fold", no_wrap=True)
    t.add_column("PodGroup", overflow="fold", no_wrap=True)
    t.add_column("Status", no_wrap=True)
    t.add_column("Node", overflow="fold")
    nominated = any(p.nominated_node for p in pods)
    if nominated:
        t.add_column("Nominated", overflow="fold")
    for p in pods:
        row = [Text(ref(p.namespace, p.name)), _cell(p.pod_group), status_text(p.status), _cell(p.node)]
        t.add_row(*row, *([_cell(p.nominated_node)] if nominated else []))
    return t


def bullets(title: str | Text, items: list[Text]) -> RenderableType:
    """A titled bullet list; wrapped lines hang under their bullet's text."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold")
    for item in items:
        grid.add_row("  •", item)
    return Group(title if isinstance(title, Text) else Text(title, style="bold"), grid)


def _reason(head: Text, message: str | None) -> Text:
    if message:
        head.append("\n" + message)
    return head


def pod_reasons(result: PlanResult) -> list[Text]:
    """Why pending pods did not schedule: one entry per distinct (status, message), naming
    its pods, in the order of their first pod (a gang's pods mostly share one message)."""
    by_reason: dict[tuple[str, str | None], list[str]] = {}
    for p in common.pending_pods(result):
        if p.status != SCHEDULED:
            by_reason.setdefault((p.status, common.pod_detail(p)), []).append(ref(p.namespace, p.name))
    items = []
    for (status, message), pods in list(by_reason.items())[:MAX_LISTED]:
        names = ", ".join(pods[:3] if len(pods) > 4 else pods)
        if len(pods) > 4:
            names += f", … +{len(pods) - 3} more"
        head = status_text(status).append(f" · {common.plural(len(pods), 'pod')}: {names}",
                                          style="bold")
        items.append(_reason(head, message))
    return items


def victims_table(result: PlanResult) -> Table:
    t = new_table("Victims (running pods the plan evicts)")
    t.add_column("Pod", overflow="fold", min_width=12)
    t.add_column("Node", overflow="fold")
    t.add_column("PodGroup", overflow="fold")
    t.add_column("Priority", justify="right", no_wrap=True)
    t.add_column("Preempted by", overflow="fold")
    for v in result.victims:
        p = v.preemptor
        t.add_row(Text(ref(v.namespace, v.name)), Text(v.node), _cell(v.pod_group), str(v.priority),
                  Text(f"{p.kind} {ref(p.namespace, p.name)}"))
    return t


def notes_block(notes: tuple[str, ...] | list[str],
                title: str = "Notes (what the plan did not apply)") -> RenderableType:
    return bullets(title, [Text(n) for n in notes])


def renderables(result: PlanResult, max_pod_rows: int = MAX_POD_ROWS) -> list[RenderableType]:
    parts: list[RenderableType] = [header(result), summary_table(result)]
    if result.pod_groups:
        parts.append(pod_groups_table(result))
    if result.composite_pod_groups:
        parts.append(composite_table(result))
    if result.pods:
        parts.append(pods_table(result, max_pod_rows))
    reasons = pod_reasons(result)
    if reasons:
        parts.append(bullets("Why these pods did not schedule", reasons))
    if result.victims:
        parts.append(victims_table(result))
    if result.notes:
        parts.append(notes_block(result.notes))
    return parts


def print_parts(parts: list[RenderableType], console: Console) -> None:
    """Print renderables one after another, a blank line between them."""
    for i, part in enumerate(parts):
        if i:
            console.print()
        console.print(part)


def print_result(result: PlanResult, console: Console) -> None:
    print_parts(renderables(result), console)


def render_text(parts: list[RenderableType], *, width: int = 100, color: bool = False) -> str:
    """Render to a string, e.g. for `--output-file` or tests. No colour codes unless asked."""
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, force_terminal=color, no_color=not color,
                      color_system="standard" if color else None, highlight=False,
                      emoji=False, legacy_windows=False)
    print_parts(parts, console)
    text = buffer.getvalue()
    if not color:  # rich pads table cells; a file or a CI log is better without the padding
        text = "\n".join(line.rstrip() for line in text.split("\n"))
    return text


def render_table(result: PlanResult, *, width: int = 100, color: bool = False) -> str:
    return render_text(renderables(result), width=width, color=color)
