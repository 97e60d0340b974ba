"""The `simulate -o table` rendering: what a person reads in a terminal or a CI log.

The page is a list of sections (`SECTIONS`), each a function from a `View` to lines: the header
(tool, configuration, gates that differ from upstream's defaults, the verdict in words), the
summary, every PodGroup with its condition and where it landed or why not, the CompositePodGroups,
the pods (by default only those that did not end Scheduled; `--pods all` lists every one), why
they did not schedule, the victims and the notes. Lines are laid out by `render.layout` to fit
the width (docs/contract.md, "Tables"); colour only when printing to a terminal.

To add lines under a PodGroup (placements, owners, ...), add a function to `GROUP_DETAILS`; to
add a section, add a function to `SECTIONS`. Rows are in natural order (`job-2` before `job-10`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Sequence

from rich.text import Text

from podgroup_plan import KUBERNETES_VERSION
from podgroup_plan.render import common, layout
from podgroup_plan.render.common import DASH, ref
from podgroup_plan.render.layout import Column, natural_ref_key
from podgroup_plan.result import PREEMPTED, SCHEDULED, PlanResult, PodGroupResult, PodResult

if TYPE_CHECKING:  # a terminal's console is made by the CLI; plain text needs no rich.console
    from rich.console import Console

    from podgroup_plan.render.registry import RenderOptions

# Width when nothing says otherwise (contract: COLUMNS, else the terminal's, else 80).
DEFAULT_WIDTH = 80
# At most this many rows of pods (or groups); -o json has them all.
MAX_LISTED = 1000
# `--pods`: which pods the table lists.
PODS_PENDING = "pending"
PODS_ALL = "all"
# Kept for callers that still pass a row limit: above it only the pods that did not schedule.
MAX_POD_ROWS = MAX_LISTED

STATUS_STYLE = {
    "Scheduled": "green",
    "Unschedulable": "bold red",
    "SchedulerError": "bold red",
    "Invalid": "bold red",
    "Waiting": "yellow",
    "Preempted": "magenta",
    "Running": "cyan",
    "Ignored": "dim",
    "True": "green",
    "False": "red",
}


@dataclass(frozen=True)
class View:
    """What a section needs: the plan, the width, and what the user asked to see."""
    result: PlanResult
    width: int = DEFAULT_WIDTH
    pods: str = PODS_PENDING
    # The configuration used, as the header names it (a file, or the built-in default).
    configuration: str | None = None
    # `--capacity`: add the GPU fragmentation section (the result's `capacity`).
    capacity: bool = False
    # The gates the user set (--feature-gates); the header calls the others planner defaults.
    user_gates: tuple[str, ...] = ()
    # Lists several sections share, computed once (`memo`): sorting 50,000 pods takes a while.
    _memo: dict = field(default_factory=dict, compare=False, repr=False)

    def memo(self, key: str, compute: Callable[[], Any]) -> Any:
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    def labels(self) -> common.Labels:
        """Objects named by their owner (`Job ns/train`), computed once."""
        return self.memo("labels", lambda: common.Labels(self.result))

    def not_scheduled_pods(self) -> list[PodResult]:
        """The pods that did not end Scheduled, in natural order."""
        return self.memo("not_scheduled", lambda: by_name(
            [p for p in self.result.pods if p.status != SCHEDULED]))


def status_text(status: str | None) -> Text:
    if status is None:
        return Text(DASH, style="dim")
    return Text(status, style=STATUS_STYLE.get(status, ""))


def _cell(value: str | None) -> Text:
    return Text(value) if value else Text(DASH, style="dim")


def by_name(items: Sequence) -> list:
    """Objects with `namespace` and `name`, in the tables' natural order."""
    return sorted(items, key=lambda x: natural_ref_key(x.namespace, x.name))


# --- header -------------------------------------------------------------------------------------

def header(view: View) -> list[Text]:
    result = view.result
    profiles = ", ".join(result.scheduler_names) or "default-scheduler"
    lines = layout.paragraph(
        f"podgroup-plan · kube-scheduler {KUBERNETES_VERSION} · "
        f"{common.plural(result.summary.nodes, 'node')}", view.width, "dim")
    configuration = view.configuration or "built-in default"
    noun = "profiles" if len(result.scheduler_names) > 1 else "profile"
    lines += layout.wrap(Text(f"configuration: {configuration} ({noun} {profiles})", style="dim"),
                         view.width, 0, 2)
    for line in common.source_notes(result.notes):
        lines += layout.wrap(Text(line, style="dim"), view.width, 0, 2)
    # featureGates is the result's field for the gates that differ from upstream (contract.md).
    for line in common.gate_lines(getattr(result, "feature_gates", None), view.user_gates):
        lines += layout.wrap(Text(line, style="dim"), view.width, 0, 2)
    verdict = Text(common.verdict(result), style="bold green" if result.feasible else "bold red")
    lines += layout.wrap(verdict, view.width)
    lines += layout.bullets(None, common.headline_lines(result), view.width)
    return lines


def summary(view: View) -> list[Text]:
    t = layout.Table("Summary", [Column("")] +
                     [Column(name, justify="right") for name in common.SUMMARY_COLUMNS])
    for label, *counts in common.summary_rows(view.result):
        t.add_row(label, *(str(n) for n in counts))
    return t.lines(view.width)


# --- PodGroups ----------------------------------------------------------------------------------

def condition_lines(group: PodGroupResult, members: list[PodResult]) -> list[Text]:
    """The group's status conditions (`PodGroupInitiallyScheduled=False (Unschedulable):
    message`); for a group with none (Ignored, v1alpha1) that is not Scheduled, why not."""
    lines = []
    for c in group.conditions:
        line = Text(f"{c.type}=")
        line.append(c.status, style=STATUS_STYLE.get(c.status, ""))
        line.append(f" ({c.reason})" if c.reason else "")
        if c.message:
            line.append(f": {c.message}")
        lines.append(line)
    if not group.conditions and group.status != SCHEDULED:
        detail = common.group_detail(group, members)
        if detail:
            lines.append(Text(detail))
    return lines


def landed_lines(group: PodGroupResult, members: list[PodResult]) -> list[Text]:
    """Where the group's pods run after the plan (or were evicted from)."""
    if group.status not in (SCHEDULED, "Preempted"):
        return []
    text = common.landed_text(group, members, node_limit=8)
    return [Text(line) for line in text.split("\n") if line and line != DASH]


# Each function gives lines shown under a PodGroup's row, in this order.
GroupDetail = Callable[[PodGroupResult, list[PodResult]], list[Text]]
def placement_lines(group: PodGroupResult, members: list[PodResult]) -> list[Text]:
    """The planner's line on the placement candidates (`z1-r4 chosen (score 139: ...); ...`)."""
    summary = common.placement_summary(group)
    return [Text(summary)] if summary else []


GROUP_DETAILS: list[GroupDetail] = [condition_lines, landed_lines, placement_lines]


def scheduled_of_min(group: PodGroupResult) -> str:
    """`6/8`: member pods running after the plan, of the gang's minCount."""
    return f"{group.scheduled_pods}/{group.min_count}"


def pod_groups(view: View) -> list[Text]:
    """Every PodGroup: policy, status, scheduled/minCount; under it its condition and where it
    landed (or why not)."""
    result = view.result
    if not result.pod_groups:
        return []
    members = common.group_members(result)
    labels = view.labels()
    groups, caption = common.shorten(by_name(result.pod_groups), MAX_LISTED, MAX_LISTED, "PodGroup")
    t = layout.Table("PodGroups", [Column("PodGroup", elide=True), Column("Policy"),
                                   Column("Status"), Column("Scheduled/min", justify="right")],
                     caption)
    for g in groups:
        mine = members.get((g.namespace, g.name), [])
        details = [line for detail in GROUP_DETAILS for line in detail(g, mine)]
        t.add_row(labels.group(g.namespace, g.name), g.policy, status_text(g.status), scheduled_of_min(g),
                  details=details)
    return t.lines(view.width)


def composites(view: View) -> list[Text]:
    result = view.result
    if not result.composite_pod_groups:
        return []
    t = layout.Table("CompositePodGroups", [
        Column("CompositePodGroup", elide=True), Column("Parent", elide=True), Column("Policy"),
        Column("Status")])
    labels = view.labels()
    for c in by_name(result.composite_pod_groups):
        policy = common.policy_text(c.policy, c.min_group_count, " groups")
        details = [common.composite_outcome(c)] if common.composite_outcome(c) != DASH else []
        t.add_row(labels.composite(c.namespace, c.name), _cell(c.parent), policy, status_text(c.status),
                  details=[line for d in details for line in d.split("\n")])
    return t.lines(view.width)


def trees(view: View) -> list[Text]:
    """Each CompositePodGroup tree drawn from its root down to the leaf PodGroups, indented, with
    each level's status and placement (the planner's drawing; nothing here is upstream's text)."""
    result = view.result
    if not result.composite_pod_groups:
        return []
    composites = {(c.namespace, c.name): c for c in result.composite_pod_groups}
    children: dict[tuple[str, str], list[tuple[str, tuple[str, str]]]] = {}
    for c in result.composite_pod_groups:
        if c.parent:
            children.setdefault((c.namespace, c.parent), []).append(("C", (c.namespace, c.name)))
    groups = {(g.namespace, g.name): g for g in result.pod_groups}
    for key, parent in result.group_parents.items():
        if key in groups:
            children.setdefault((key[0], parent), []).append(("G", key))
    roots = [k for k, c in composites.items() if c.parent is None or (k[0], c.parent) not in composites]
    if not roots:
        return []
    lines = [Text("CompositePodGroup trees", style="bold")]
    labels = view.labels()  # each level by the object it was made for, where there is one

    def where(placement: str | None, topology: str | None = None) -> str:
        if placement is None:
            return ""
        return f"  @ {placement}" + (f" ({topology})" if topology else "")

    def draw(kind: str, key: tuple[str, str], depth: int, seen: set, above: str = "") -> None:
        if key in seen or depth > 8:  # an Invalid tree may loop
            return
        seen.add(key)
        # The indent is the wrap's, so that continuation lines stay under their level.
        pad = "└ " if depth else ""
        if kind == "C":
            c = composites[key]
            policy = common.policy_text(c.policy, c.min_group_count, " groups")
            label = labels.composite(*key)
            line = Text(f"{pad}{label}  {policy}  ")
            line.append_text(status_text(c.status))
            line.append(where(c.placement))
            lines.extend(layout.wrap(line, view.width, indent=2 * depth, hanging=len(pad) + 4))
            for k, child in sorted(children.get(key, []), key=lambda kc: natural_ref_key(*kc[1])):
                draw(k, child, depth + 1, seen, label)
        else:
            g = groups[key]
            label = labels.group(*key)
            # under its owner's CompositePodGroup a leaf needs only its own name (`vllm-group-0`)
            label = key[1] if above and label.startswith(f"{above} · ") else label
            line = Text(f"{pad}{label}  {g.policy} {scheduled_of_min(g)}  ")
            line.append_text(status_text(g.status))
            line.append(where(g.placement, g.topology_key))
            lines.extend(layout.wrap(line, view.width, indent=2 * depth, hanging=len(pad) + 4))

    seen: set = set()
    for root in sorted(roots, key=lambda k: natural_ref_key(*k)):
        draw("C", root, 0, seen)
    return lines


# --- pods ---------------------------------------------------------------------------------------

def listed_pods(view: View) -> list[PodResult]:
    if view.pods == PODS_ALL:
        return view.memo("every_pod", lambda: by_name(common.every_pod(view.result)))
    return view.not_scheduled_pods()


def pods(view: View) -> list[Text]:
    """The pods that did not end Scheduled, identical rows folded into one per owner (`Job
    ns/train (40 pods)`); `--pods all`: every pod by its own name, with its node."""
    listed = listed_pods(view)
    if not listed:
        return []
    every = view.pods == PODS_ALL
    labels = view.labels()

    def same_row(p: PodResult) -> tuple:
        # pods of one owner in the same state share a row; every pod has its own under --pods all
        if every:
            return (p.namespace, p.name)
        return (labels.pod_owner(p) or (p.namespace, p.name), p.pod_group, p.status, p.nominated_node)

    rows = common.fold(listed, same_row)
    caption = None
    if len(rows) > MAX_LISTED:
        caption = f"{len(rows) - MAX_LISTED} more rows not listed. -o json lists every pod."
        rows = rows[:MAX_LISTED]
    title = "Pods" if every else "Pods that did not schedule"
    nominated = any(p.nominated_node for p in listed)
    with_node = any(p.node for p in listed)
    columns = [Column("Pod", elide=True), Column("PodGroup", elide=True), Column("Status")]
    columns += [Column("Node", fold=True)] if with_node else []
    columns += [Column("Nominated", fold=True)] if nominated else []
    t = layout.Table(title, columns, caption)
    for _, same in rows:
        p = same[0]
        first = ref(p.namespace, p.name) if every else common.pods_label(labels, same)
        group = p.pod_group if every else labels.group_name(p.namespace, p.pod_group)
        if not every and group is not None and group == labels.pod_owner(p):
            group = "its PodGroup"  # the owner's only PodGroup: named once, in the first column
        row: list[str | Text | None] = [first, _cell(group), status_text(p.status)]
        row += [_cell(common.nodes_cell([x.node for x in same]))] if with_node else []
        row += [_cell(p.nominated_node)] if nominated else []
        t.add_row(*row)
    return t.lines(view.width)


def owners(view: View) -> list[Text]:
    """Pods by the object a user wrote (a Job, a JobSet, a Deployment, a StatefulSet): the top
    of each pod's chain of controlling owners, with how many of its pods scheduled."""
    grouped = common.by_owner(view.result)
    if not grouped:
        return []
    listed = list(grouped.items())[:MAX_LISTED]
    # the operators' objects: say how they were planned (pod by pod unless --gang, docs/controllers.md)
    with_mode = any(kind in common.GANG_CAPABLE_OWNERS for (kind, _, _), _ in listed)
    columns = [Column("Owner", whole=True), Column("Pods")] + ([Column("Planned as")] if with_mode else [])
    t = layout.Table("By owner", columns)
    for (kind, namespace, name), members in listed:
        row = [common.owner_text(kind, namespace, name), common.owner_counts(members)]
        if with_mode:
            row.append(common.planned_as(kind, members))
        t.add_row(*row)
    return t.lines(view.width)


def pod_reasons(view: View) -> list[Text]:
    """Why pending pods did not schedule: one entry per distinct (status, message), naming its
    pods, in the order of their first pod (a gang's pods mostly share one message)."""
    by_reason: dict[tuple[str, str | None], list[PodResult]] = {}
    for p in view.not_scheduled_pods():
        if p.status != PREEMPTED:  # pending pods only: an evicted one was running
            by_reason.setdefault((p.status, common.pod_detail(p)), []).append(p)
    labels = view.labels()
    items = []
    for (status, message), same in list(by_reason.items())[:MAX_LISTED]:
        head = status_text(status).append(
            f" · {common.plural(len(same), 'pod')}: {common.pods_by_owner_text(labels, same)}",
            style="bold")
        if message:
            head.append("\n" + message)
        items.append(head)
    if not items:
        return []
    return layout.bullets("Why these pods did not schedule", items, view.width)


# --- victims and notes --------------------------------------------------------------------------

def victims(view: View) -> list[Text]:
    """The running pods the plan evicts; pods of one owner evicted from one node by one preemptor
    share a row (`ReplicaSet ns/web-7d9f (12 pods)`, `6 nodes`: the Preemption section names
    them)."""
    if not view.result.victims:
        return []
    labels = view.labels()
    # a column for the PodDisruptionBudgets an eviction violates, only when one does
    pdb_column = any(v.pdbs for v in view.result.victims)
    t = layout.Table("Victims (running pods the plan evicts)", [
        Column("Pod", elide=True), Column("Node"), Column("PodGroup", elide=True),
        Column("Priority", justify="right"), Column("Preempted by", elide=True)]
        + ([Column("Violates PDB", elide=True)] if pdb_column else []))
    listed = by_name(view.result.victims)
    # the evicted pods' records carry their owners (a victim bound in the input has one there)
    evicted = {(p.namespace, p.name): p for p in view.result.pods if p.status == PREEMPTED}
    pods = {(v.namespace, v.name): evicted.get((v.namespace, v.name))
            or PodResult(v.namespace, v.name, v.pod_group, PREEMPTED, node=v.node) for v in listed}

    def same_row(v) -> tuple:
        who = labels.pod_owner(pods[(v.namespace, v.name)]) or (v.namespace, v.name)
        return (who, v.pod_group, v.priority, v.preemptor, v.pdbs)

    for _, same in common.fold(listed, same_row):
        v, p = same[0], same[0].preemptor
        t.add_row(common.pods_label(labels, [pods[(x.namespace, x.name)] for x in same]),
                  common.nodes_cell([x.node for x in same]),
                  _cell(labels.group_name(v.namespace, v.pod_group)), str(v.priority),
                  labels.preemptor(p.kind, p.namespace, p.name),
                  *([_cell(", ".join(v.pdbs) or None)] if pdb_column else []))
    return t.lines(view.width)


def preemptions(view: View) -> list[Text]:
    """Per preemptor, in plan order: whom it evicts, on which nodes, at what priority, and which
    running pods a PodDisruptionBudget spared (the planner's summary; `message` columns and the
    JSON document stay upstream's)."""
    labels = view.labels()
    items = []
    for pre in view.result.preemptions[:MAX_LISTED]:
        p = pre.preemptor
        head = Text(f"{labels.preemptor(p.kind, p.namespace, p.name)} evicts "
                    f"{common.plural(len(pre.victims), 'pod')}", style="bold")
        by_node: dict[str, list] = {}
        for v in pre.victims:
            by_node.setdefault(v.node, []).append(v)
        for node, here in sorted(by_node.items(), key=lambda kv: natural_ref_key("", kv[0])):
            names = [f"{ref(v.namespace, v.name)} (priority {v.priority}"
                     + (f"; violates PDB {', '.join(v.pdbs)})" if v.pdbs else ")") for v in by_name(here)]
            head.append(f"\n{node}: {', '.join(names)}")
        for namespace, name, node, pdbs in pre.spared:
            head.append(f"\nspared by PDB {', '.join(pdbs)}: {ref(namespace, name)} on {node}")
        items.append(head)
    if not items:
        return []
    return layout.bullets("Preemption (per preemptor, the planner's summary)", items, view.width)


def notes_lines(notes: Sequence[str], width: int,
                title: str = "Notes (what the plan did not apply)") -> list[Text]:
    return layout.bullets(title, notes, width) if notes else []


def notes(view: View) -> list[Text]:
    return notes_lines(common.other_notes(view.result.notes), view.width)


def capacity(view: View) -> list[Text]:
    """`--capacity`: free GPUs and N-GPU slots per zone and rack (render/capacity_table.py)."""
    if not view.capacity or view.result.capacity is None:
        return []
    from podgroup_plan.render.capacity_table import capacity_lines

    return capacity_lines(view.result.capacity.to_dict(), view.width)


Section = Callable[[View], list[Text]]
SECTIONS: list[Section] = [header, summary, pod_groups, composites, trees, owners, pods, pod_reasons, victims,
                           preemptions, notes, capacity]


def blocks(view: View) -> list[list[Text]]:
    return [lines for section in SECTIONS if (lines := section(view))]


def print_result(result: PlanResult, console: Console, *, pods: str = PODS_PENDING,
                 configuration: str | None = None, capacity: bool = False,
                 user_gates: tuple[str, ...] = ()) -> None:
    """Print on a terminal, in colour, at the console's width."""
    view = View(result, console.width, pods, configuration, capacity, user_gates)
    layout.render_lines(blocks(view), console=console)


def render_table(result: PlanResult, *, width: int = DEFAULT_WIDTH, color: bool = False,
                 pods: str = PODS_PENDING, configuration: str | None = None, capacity: bool = False,
                 user_gates: tuple[str, ...] = ()) -> str:
    """The table as text (a file, a pipe, tests); colour codes only when `color`."""
    return layout.render_lines(blocks(View(result, width, pods, configuration, capacity, user_gates)),
                               color=color)


# --- the registry's entries (render/registry.py) --------------------------------------------

def render_text(result: PlanResult, options: RenderOptions) -> str:
    return render_table(result, width=options.width, pods=options.pods,
                        configuration=options.configuration, capacity=options.capacity,
                        user_gates=options.user_gates)


def render_terminal(result: PlanResult, console: Console, options: RenderOptions) -> None:
    print_result(result, console, pods=options.pods, configuration=options.configuration,
                 capacity=options.capacity, user_gates=options.user_gates)
