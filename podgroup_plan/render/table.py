"""The `simulate -o table` rendering: what a person reads in a terminal or a CI log.

One rich table per concern (summary, pod groups, composite groups, pods, victims, notes), under a
headline that says in words what happened. Colour only when the console is a terminal; every
message is shown in full, wrapped, never cut.
"""
from __future__ import annotations

import io

from rich import box
from rich.console import Console, Group, RenderableType
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


def new_table(title: str, caption: str | None = None, expand: bool = False) -> Table:
    """A borderless table; `expand` lets the ratio columns (messages) share the full width."""
    return Table(
        title=title,
        title_justify="left",
        title_style="bold",
        caption=caption,
        caption_justify="left",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
        expand=expand,
        min_width=len(title),
    )


def header(result: PlanResult) -> RenderableType:
    profiles = ", ".join(result.scheduler_names) or "default-scheduler"
    lines = Text()
    lines.append(f"podgroup-plan · kube-scheduler {KUBERNETES_VERSION} · "
                 f"profile(s): {profiles} · {common.plural(result.summary.nodes, 'node')}\n",
                 style="dim")
    lines.append(common.verdict(result) + "\n", style="bold green" if result.feasible else "bold red")
    lines.append("\n".join(f"  • {line}" for line in common.headline_lines(result)))
    return lines


def summary_table(result: PlanResult) -> Table:
    t = new_table("Summary")
    t.add_column("")
    for name in common.SUMMARY_COLUMNS:
        t.add_column(name, justify="right")
    for label, *counts in common.summary_rows(result):
        t.add_row(label, *(str(n) for n in counts))
    return t


def pod_groups_table(result: PlanResult) -> Table:
    """Every PodGroup with where it landed or why not; past `MAX_LISTED` groups, only those
    that are not Scheduled."""
    members = common.group_members(result)
    groups = list(result.pod_groups)
    caption = None
    if len(groups) > MAX_LISTED:
        hidden = sum(1 for g in groups if g.status == SCHEDULED)
        groups = [g for g in groups if g.status != SCHEDULED]
        notes = [f"{common.plural(hidden, 'scheduled PodGroup')} not listed"]
        if len(groups) > MAX_LISTED:
            notes.append(f"{len(groups) - MAX_LISTED} more not listed")
            groups = groups[:MAX_LISTED]
        caption = "; ".join(notes) + ". -o json lists every group."
    t = new_table("PodGroups", caption, expand=True)
    t.add_column("PodGroup", overflow="fold", min_width=12)
    t.add_column("Policy", no_wrap=True)
    t.add_column("Status", no_wrap=True)
    t.add_column("Running", justify="right", no_wrap=True)
    t.add_column("Landed on / why not", overflow="fold", ratio=1, min_width=24)
    for g in groups:
        mine = members.get((g.namespace, g.name), [])
        t.add_row(Text(ref(g.namespace, g.name)), common.policy_text(g.policy, g.min_count),
                  status_text(g.status), common.running_text(g),
                  Text(common.outcome_text(g, mine)))
    return t


def composite_table(result: PlanResult) -> Table:
    t = new_table("CompositePodGroups", expand=True)
    t.add_column("CompositePodGroup", overflow="fold", min_width=12)
    t.add_column("Parent", overflow="fold")
    t.add_column("Policy", no_wrap=True)
    t.add_column("Status", no_wrap=True)
    t.add_column("Landed on / why not", overflow="fold", ratio=1, min_width=20)
    for c in result.composite_pod_groups:
        policy = common.policy_text(c.policy, c.min_group_count, " groups")
        t.add_row(Text(ref(c.namespace, c.name)), _cell(c.parent), policy, status_text(c.status),
                  Text(common.composite_outcome(c)))
    return t


def pods_table(result: PlanResult, max_rows: int = MAX_POD_ROWS) -> Table:
    """Every reported pod; when there are more than `max_rows`, only those that did not
    schedule (at most `MAX_LISTED`), so that a big plan stays readable."""
    pods = list(result.pods)
    caption = None
    if len(pods) > max_rows:
        hidden = sum(1 for p in pods if p.status == SCHEDULED)
        pods = [p for p in pods if p.status != SCHEDULED]
        notes = [f"{common.plural(hidden, 'scheduled pod')} not listed (see the PodGroups table)"]
        if len(pods) > MAX_LISTED:
            notes.append(f"{len(pods) - MAX_LISTED} more that did not schedule not listed")
            pods = pods[:MAX_LISTED]
        caption = "; ".join(notes) + ". -o json lists every pod."
    t = new_table("Pods", caption, expand=any(p.message for p in pods))
    t.add_column("Pod", overflow="fold", min_width=12)
    t.add_column("PodGroup", overflow="fold")
    t.add_column("Status", no_wrap=True)
    t.add_column("Node", overflow="fold")
    t.add_column("Message", overflow="fold", ratio=1, min_width=20)
    evicted_by = common.preemptors(result)
    for p in pods:
        message = common.pod_detail(p, evicted_by)
        if p.nominated_node:
            message = (message + "\n" if message else "") + f"nominated node: {p.nominated_node}"
        t.add_row(Text(ref(p.namespace, p.name)), _cell(p.pod_group), status_text(p.status),
                  _cell(p.node), _cell(message))
    return t


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
    """A titled bullet list; wrapped lines hang under their bullet's text."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold")
    for note in notes:
        grid.add_row("  •", Text(note))
    return Group(Text(title, style="bold"), grid)


def renderables(result: PlanResult, max_pod_rows: int = MAX_POD_ROWS) -> list[RenderableType]:
    parts: list[RenderableType] = [header(result), summary_table(result)]
    if result.pod_groups:
        parts.append(pod_groups_table(result))
    if result.composite_pod_groups:
        parts.append(composite_table(result))
    if result.pods:
        parts.append(pods_table(result, max_pod_rows))
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
