"""What the HTML report shows, as plain data for the templates: the cluster map's nodes, the
groups with the nodes they run on, pending pods by reason, victims by preemptor, fragmentation.

Read from a `PlanResult` (its `usage` carries every node's usage before and after the plan,
podgroup_plan/capacity.py); nothing is decided here. Everything is sorted, so the same plan
gives the same page byte for byte.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from podgroup_plan import KUBERNETES_VERSION
from podgroup_plan.capacity import MEASURES, NodeUsage
from podgroup_plan.render import common
from podgroup_plan.render.layout import natural_ref_key
from podgroup_plan.result import PREEMPTED, SCHEDULED, PlanResult

# How a pod relates to a node on the map (the node data's pod codes).
RUNNING, PLACED, EVICTED, MOVED = "r", "n", "e", "m"
# At most this many pods named per reason; the JSON result has them all.
NAMED_PER_REASON = 50
# Placement candidates listed per group (the chosen one always among them), and above how many
# groups only the one-line summary is shown: 2,500 gangs over 50 racks would be 125,000 rows.
PLACEMENTS_SHOWN = 12
PLACEMENT_TABLES_UP_TO = 100


@dataclass
class MapNode:
    index: int
    name: str
    zone: str | None
    rack: str | None
    allocatable: tuple[int, ...]  # MEASURES order
    before: tuple[int, ...]
    after: tuple[int, ...]
    pods: list[tuple[str, str]] = field(default_factory=list)  # (ns/name, code), sorted

    def count(self, code: str) -> int:
        return sum(1 for _, c in self.pods if c == code)


@dataclass
class Rack:
    name: str | None
    nodes: list[MapNode]
    svg: str = ""  # its cells (svg.rack_svg), filled in by the renderer


@dataclass
class Zone:
    name: str | None
    racks: list[Rack]

    @property
    def node_count(self) -> int:
        return sum(len(r.nodes) for r in self.racks)


@dataclass
class ClusterMap:
    """One plan's map: zones -> racks -> nodes (module docstring)."""

    key: str  # "a", "b" for diff; "plan" for simulate
    title: str
    zone_key: str | None
    rack_key: str | None
    gpu_resource: str | None
    nodes: list[MapNode]
    zones: list[Zone]


def cluster_map(result: PlanResult, key: str = "plan", title: str = "Cluster") -> ClusterMap:
    usage = result.usage
    if usage is None:
        return ClusterMap(key, title, None, None, None, [], [])
    codes = _pod_codes(result, usage)
    nodes = []
    for i, name in enumerate(usage.names):
        nodes.append(MapNode(
            i, name, usage.zones[i], usage.racks[i],
            tuple(int(usage.allocatable[m][i]) for m in MEASURES),
            tuple(int(usage.before[m][i]) for m in MEASURES),
            tuple(int(usage.after[m][i]) for m in MEASURES),
            sorted(codes.get(i, {}).items(), key=lambda kv: natural_ref_key(*kv[0].split("/", 1)))))
    zones: dict[str | None, dict[str | None, list[MapNode]]] = {}
    for n in nodes:
        zones.setdefault(n.zone, {}).setdefault(n.rack, []).append(n)
    order = _label_order
    return ClusterMap(key, title, usage.zone_key, usage.rack_key, usage.gpu_resource, nodes, [
        Zone(z, [Rack(r, sorted(racks[r], key=lambda n: _natural(n.name))) for r in sorted(racks, key=order)])
        for z, racks in sorted(zones.items(), key=lambda kv: order(kv[0]))])


def _pod_codes(result: PlanResult, usage: NodeUsage) -> dict[int, dict[str, str]]:
    """node row -> {ns/name: code}: running (already there), placed by the plan, evicted."""
    index = {name: i for i, name in enumerate(usage.names)}
    placed = {(p.namespace, p.name) for p in result.pods if p.status == SCHEDULED}
    out: dict[int, dict[str, str]] = {}
    for i, pods in enumerate(usage.pods_after):
        if pods:
            out[i] = {f"{ns}/{name}": PLACED if (ns, name) in placed else RUNNING for ns, name in pods}
    for v in result.victims:
        row = index.get(v.node)
        if row is not None:
            out.setdefault(row, {})[f"{v.namespace}/{v.name}"] = EVICTED
    return out


def _natural(name: str) -> tuple:
    return natural_ref_key("", name)


def _label_order(value: str | None) -> tuple:
    return (value is None, _natural(value or ""))


# --- groups ------------------------------------------------------------------------------------

@dataclass
class Group:
    """A PodGroup or CompositePodGroup as the report lists it."""

    id: str  # "pg:ns/name" or "cpg:ns/name": its entry in the page's group index
    kind: str
    namespace: str
    name: str
    status: str
    policy: str
    scheduled_of_min: str | None
    conditions: list[str]
    message: str | None
    placement: str | None
    topology_key: str | None
    domains: list[str]
    placements: list[dict[str, Any]] | None
    nodes: list[int]  # map rows its pods run on after the plan (evicted from, if none runs)
    parent: str | None = None
    depth: int = 0
    placement_line: str | None = None  # the table's one-line summary of the candidates
    placements_total: int = 0  # candidates in the run (placements lists at most PLACEMENTS_SHOWN)


def _shown_placements(trials: Any, tables: bool) -> tuple[list[dict[str, Any]] | None, int]:
    """The candidates a group's placements table lists: the first PLACEMENTS_SHOWN in evaluation
    order, the chosen one added if it is later; none (only the summary line) when `tables` is off."""
    if trials is None:
        return None, 0
    total = len(trials)
    if not tables:
        return None, total
    shown = [trials[i].to_dict() for i in range(min(total, PLACEMENTS_SHOWN))]
    chosen = next((i for i in range(PLACEMENTS_SHOWN, total) if trials[i].chosen), None)
    if chosen is not None:
        shown.append(trials[chosen].to_dict())
    return shown, total


def groups(result: PlanResult, cmap: ClusterMap) -> list[Group]:
    """Every PodGroup and CompositePodGroup, trees drawn under their roots (CompositePodGroups
    first, their leaf PodGroups under them), the rest by name."""
    members = _group_nodes(result, cmap)
    tables = len(result.pod_groups) + len(result.composite_pod_groups) <= PLACEMENT_TABLES_UP_TO
    pg_entries = {}
    for g in result.pod_groups:
        rows = members.get((g.namespace, g.name), {})
        nodes = sorted(rows.get("on", set())) or sorted(rows.get("off", set()))
        conds = [f"{c.type}={c.status}" + (f" ({c.reason})" if c.reason else "") + (f": {c.message}" if c.message else "")
                 for c in g.conditions if tables or c.status != "True" or c.message]  # many groups: the news only
        shown, total = _shown_placements(g.placements, tables)
        pg_entries[(g.namespace, g.name)] = Group(
            f"pg:{g.namespace}/{g.name}", "PodGroup", g.namespace, g.name, g.status,
            common.policy_text(g.policy, g.min_count), f"{g.scheduled_pods}/{g.min_count}", conds,
            None if g.conditions else common.group_detail(g, []), g.placement, g.topology_key,
            _domains(cmap, nodes), shown, nodes, result.group_parents.get((g.namespace, g.name)),
            placement_line=None if tables else _placement_line(g.placements), placements_total=total)
    cpg_entries = {}
    for c in result.composite_pod_groups:
        shown, total = _shown_placements(c.placements, tables)
        cpg_entries[(c.namespace, c.name)] = Group(
            f"cpg:{c.namespace}/{c.name}", "CompositePodGroup", c.namespace, c.name, c.status,
            common.policy_text(c.policy, c.min_group_count, " groups"), None, [], c.message, c.placement,
            None, [], shown, [], c.parent, placements_total=total)
    # a CompositePodGroup runs where its leaves run
    children: dict[tuple[str, str], list[Group]] = {}
    for entry in [*cpg_entries.values(), *pg_entries.values()]:
        if entry.parent and (entry.namespace, entry.parent) in cpg_entries:
            children.setdefault((entry.namespace, entry.parent), []).append(entry)

    below = _leaf_nodes_below(cpg_entries, children)
    for key, entry in cpg_entries.items():
        entry.nodes = sorted(below[key])
        entry.domains = _domains(cmap, entry.nodes)
    ordered: list[Group] = []
    placed: set[str] = set()

    def walk(top: Group) -> None:
        """Parents before children, in child order, each entry once (a cycle in bad input must
        not loop). On a stack: a tree is as deep as the input makes it."""
        todo = [(top, 0)]
        while todo:
            entry, depth = todo.pop()
            if entry.id in placed:
                continue
            entry.depth = depth
            placed.add(entry.id)
            ordered.append(entry)
            if entry.kind == "CompositePodGroup":
                kids = sorted(children.get((entry.namespace, entry.name), []), key=_entry_order)
                todo.extend((child, depth + 1) for child in reversed(kids))

    roots = [e for e in cpg_entries.values() if not (e.parent and (e.namespace, e.parent) in cpg_entries)]
    for root in sorted(roots, key=_entry_order):
        walk(root)
    for entry in sorted([*cpg_entries.values(), *pg_entries.values()], key=_entry_order):
        walk(entry)  # the rest (and any left out by a cycle)
    return ordered


def _leaf_nodes_below(cpg_entries: dict[tuple[str, str], Group],
                      children: dict[tuple[str, str], list[Group]]) -> dict[tuple[str, str], set[int]]:
    """CompositePodGroup -> the nodes of every PodGroup it reaches (a CompositePodGroup runs
    where its leaves run). Each has at most one parent, so a group of bad input is a tree, or a
    cycle with trees below it: a tree's answer is built from its children's (children first),
    a cycle's members all reach the same. Without recursion or a walk per object: a chain is as
    deep as the input makes it."""
    def parent(key: tuple[str, str]) -> tuple[str, str] | None:
        entry = cpg_entries[key]
        up = (entry.namespace, entry.parent) if entry.parent else None
        return up if up in cpg_entries else None

    # cycle members: walking up from each key, the keys met twice on one walk
    on_cycle: set[tuple[str, str]] = set()
    done: set[tuple[str, str]] = set()
    for start in cpg_entries:
        path: dict[tuple[str, str], None] = {}
        key: tuple[str, str] | None = start
        while key is not None and key not in done and key not in path:
            path[key] = None
            key = parent(key)
        if key is not None and key in path:
            keys = list(path)
            on_cycle.update(keys[keys.index(key):])
        done.update(path)

    def own(key: tuple[str, str]) -> tuple[set[int], list[tuple[str, str]]]:
        nodes: set[int] = set()
        composites = []
        for child in children.get(key, []):
            if child.kind == "PodGroup":
                nodes.update(child.nodes)
            else:
                composites.append((child.namespace, child.name))
        return nodes, composites

    below: dict[tuple[str, str], set[int]] = {}
    for start in cpg_entries:  # the trees (also those below a cycle), children first
        if start in below or start in on_cycle:
            continue
        todo: list[tuple[tuple[str, str], bool]] = [(start, False)]
        while todo:
            key, children_done = todo.pop()
            nodes, composites = own(key)
            if children_done:
                for c in composites:
                    nodes |= below[c]
                below[key] = nodes
            elif key not in below:
                todo.append((key, True))
                todo.extend((c, False) for c in composites if c not in below)
    for start in sorted(on_cycle):  # each cycle once: its members and the trees below them
        if start in below:
            continue
        members = [start]
        key = parent(start)
        while key != start:
            assert key is not None  # a cycle member's parent is a member
            members.append(key)
            key = parent(key)
        reach: set[int] = set()
        for m in members:
            nodes, composites = own(m)
            reach |= nodes
            for c in composites:
                if c not in on_cycle:
                    reach |= below[c]
        for m in members:
            below[m] = reach
    return below


def _placement_line(trials: Any) -> str | None:
    """`placements: rack-3 chosen of 50 candidates (12 feasible)`, read from the run's columns
    (result.PlacementResults) without making an object per candidate."""
    if trials is None:
        return None
    total = len(trials)
    feasible_column = getattr(trials, "feasible", None)
    if feasible_column is None or not hasattr(trials, "names"):
        feasible = sum(1 for t in trials if t.feasible)
        chosen = next((t.name for t in trials if t.chosen), None)
        chosen_at = 0 if chosen is not None else None
    else:
        feasible = sum(1 for f in feasible_column if f)
        chosen_at = trials.chosen
        chosen = None if chosen_at is None else trials.names[chosen_at]
    head = f"{chosen if chosen is not None else 'all nodes'} chosen of" if chosen_at is not None else "none chosen of"
    return f"placements: {head} {common.plural(total, 'candidate')} ({feasible} feasible)"


def _entry_order(g: Group) -> tuple:
    return (g.kind != "CompositePodGroup", natural_ref_key(g.namespace, g.name))


def _group_nodes(result: PlanResult, cmap: ClusterMap) -> dict[tuple[str, str], dict[str, set[int]]]:
    """(namespace, group) -> {"on": rows its pods run on after the plan, "off": rows its evicted
    pods left}."""
    usage = result.usage
    out: dict[tuple[str, str], dict[str, set[int]]] = {}
    if usage is None:
        return out
    index = {n.name: n.index for n in cmap.nodes}
    for i, pods in enumerate(usage.pods_after):
        for pod in _values(pods):
            group = getattr(pod, "pod_group", None)
            if group:
                out.setdefault((pod.namespace, group), {}).setdefault("on", set()).add(i)
    for v in result.victims:
        if v.pod_group and v.node in index:
            out.setdefault((v.namespace, v.pod_group), {}).setdefault("off", set()).add(index[v.node])
    return out


def _values(pods: Any) -> Iterable[Any]:
    return pods.values() if isinstance(pods, Mapping) else ()


def _domains(cmap: ClusterMap, rows: list[int]) -> list[str]:
    """The racks (else zones) the nodes lie in, `zone / rack`."""
    seen = set()
    for i in rows:
        n = cmap.nodes[i]
        seen.add((n.zone, n.rack))
    out = []
    for zone, rack in sorted(seen, key=lambda zr: (_label_order(zr[0]), _label_order(zr[1]))):
        z = zone if zone is not None else ("no zone label" if cmap.zone_key else None)
        r = rack if rack is not None else ("no rack label" if cmap.rack_key else None)
        out.append(" / ".join(x for x in (z, r) if x) or "cluster")
    return out


# --- pending pods, victims ---------------------------------------------------------------------

@dataclass
class Reason:
    status: str
    message: str | None
    pods: list[str]  # ns/name, natural order, at most NAMED_PER_REASON
    count: int


def pending_by_reason(result: PlanResult) -> list[Reason]:
    """Pods that were pending and did not end Scheduled, one entry per (status, message), the
    largest first."""
    found: dict[tuple[str, str | None], list[Any]] = {}
    for p in result.pods:
        if p.status not in (SCHEDULED, PREEMPTED):
            found.setdefault((p.status, common.pod_detail(p)), []).append(p)
    out = []
    for (status, message), pods in found.items():
        pods.sort(key=lambda p: natural_ref_key(p.namespace, p.name))
        out.append(Reason(status, message, [common.ref(p.namespace, p.name) for p in pods[:NAMED_PER_REASON]],
                          len(pods)))
    return sorted(out, key=lambda r: (-r.count, r.status, r.message or ""))


@dataclass
class Eviction:
    preemptor: str
    victims: list[tuple[str, str, int]]  # (ns/name, node, priority)


def victims_by_preemptor(result: PlanResult) -> list[Eviction]:
    found: dict[tuple, list[Any]] = {}
    for v in result.victims:
        found.setdefault((v.preemptor.kind, v.preemptor.namespace, v.preemptor.name), []).append(v)
    out = []
    for (kind, ns, name), victims in sorted(found.items(), key=lambda kv: (kv[0][0], natural_ref_key(*kv[0][1:]))):
        victims.sort(key=lambda v: natural_ref_key(v.namespace, v.name))
        out.append(Eviction(f"{kind} {ns}/{name}", [(common.ref(v.namespace, v.name), v.node, v.priority)
                                                     for v in victims]))
    return out


# --- the header ---------------------------------------------------------------------------------

def header(result: PlanResult, configuration: str | None) -> dict[str, Any]:
    profiles = ", ".join(result.scheduler_names) or "default-scheduler"
    gates = ", ".join(f"{n}={'true' if on else 'false'}" for n, on in sorted(result.feature_gates.items()))
    return {
        "kubernetes": KUBERNETES_VERSION,
        "nodes": result.summary.nodes,
        "configuration": configuration or "built-in default",
        "profiles": profiles,
        "gates": gates,
        "feasible": result.feasible,
        "verdict": common.verdict(result),
        "headlines": common.headline_lines(result),
        "summary_columns": common.SUMMARY_COLUMNS,
        "summary": common.summary_rows(result),
    }


# --- the data the page's script reads -------------------------------------------------------------

def map_data(cmap: ClusterMap, group_list: Iterable[Group], moved: Mapping[int, list[str]] | None = None
             ) -> dict[str, Any]:
    """Compact per-node rows for the tooltip and the colour switch: [name, zone, rack,
    allocatable, before, after, pods]; pods as [ns/name, code]."""
    moved = moved or {}
    nodes = []
    for n in cmap.nodes:
        pods = [[ref, code] for ref, code in n.pods] + [[ref, MOVED] for ref in moved.get(n.index, [])]
        nodes.append([n.name, n.zone, n.rack, list(n.allocatable), list(n.before), list(n.after), pods])
    return {"key": cmap.key, "gpu": cmap.gpu_resource, "measures": list(MEASURES), "nodes": nodes,
            "groups": {g.id: g.nodes for g in group_list}}
