"""CompositePodGroup trees, built once per plan from `parentCompositePodGroupName` links.

KEP-6012 ("Group hierarchy") says a hierarchy with a cycle, deeper than `WorkloadMaxTreeDepth`
(4) or with objects of more than one Workload must not be scheduled. v1.37.0 bounds its walks
and leaves such pods pending without a word (kube-scheduler v1.37.0); the planner reports the tree
`Invalid` with its own message naming the rule and the objects (README deviations). Depth counts the
levels from the root (1) down to and including the leaf PodGroups.

This module only builds and judges the trees (issue 12's first part): children in the order
the hierarchical cycle visits them (creationTimestamp, then name; README deviations), the depth, and
the rule a tree breaks. A link to a parent that is not in the input leaves that subtree without
a root: its pods wait (upstream's PreEnqueue), which `missing_parent` reports.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from podgroup_plan.model.objects import CompositePodGroup, PodGroup

WORKLOAD_MAX_TREE_DEPTH = 4

Key = tuple[str, str]


@dataclass(slots=True)
class TreeNode:
    group: CompositePodGroup | PodGroup
    children: list["TreeNode"] = field(default_factory=list)  # empty for a leaf PodGroup

    @property
    def key(self) -> Key:
        return self.group.key

    @property
    def is_leaf(self) -> bool:
        return isinstance(self.group, PodGroup)

    def depth(self) -> int:
        """Levels from this node down to and including its deepest leaf PodGroup."""
        return 1 + max((c.depth() for c in self.children), default=0)

    def walk(self):
        yield self
        for child in self.children:
            yield from child.walk()

    def leaves(self) -> list[PodGroup]:
        return [n.group for n in self.walk() if n.is_leaf]  # type: ignore[misc]


@dataclass(slots=True)
class Trees:
    roots: list[TreeNode]  # valid trees, by root key
    # CompositePodGroup key -> the planner's message, for every CompositePodGroup of an invalid
    # tree (or cycle)
    invalid: dict[Key, str]
    # key of an object (PodGroup or CompositePodGroup) whose parent is not in the input -> that
    # parent's key
    missing_parent: dict[Key, Key]


def _ref(key: Key) -> str:
    return f"{key[0]}/{key[1]}"


def _child_order(group: CompositePodGroup | PodGroup) -> tuple:
    ts = group.creation_timestamp
    return (ts is None, ts or "", group.name)


def build_trees(composites: tuple[CompositePodGroup, ...] | list[CompositePodGroup],
                pod_groups: tuple[PodGroup, ...] | list[PodGroup]) -> Trees:
    cpgs = {c.key: c for c in composites}
    children: dict[Key, list[CompositePodGroup | PodGroup]] = {}
    missing: dict[Key, Key] = {}
    for obj in list(composites) + [g for g in pod_groups if g.parent]:
        if not obj.parent:
            continue
        parent = (obj.namespace, obj.parent)
        if parent not in cpgs:
            missing[obj.key] = parent
            continue
        children.setdefault(parent, []).append(obj)

    def node(obj) -> TreeNode:
        n = TreeNode(obj)
        if isinstance(obj, CompositePodGroup):
            n.children = [node(c) for c in sorted(children.get(obj.key, []), key=_child_order)]
        return n

    invalid: dict[Key, str] = {}
    roots: list[TreeNode] = []
    reached: set[Key] = set()
    for key in sorted(cpgs):
        c = cpgs[key]
        if c.parent:
            continue
        root = node(c)
        members = list(root.walk())
        reached.update(n.key for n in members if not n.is_leaf)
        message = _judge(root, members)
        if message is None:
            roots.append(root)
        else:
            for n in members:
                if not n.is_leaf:
                    invalid[n.key] = message
    # CompositePodGroups no root reaches, whose parents all exist: they hang on a cycle.
    for key in sorted(cpgs):
        if key in reached or key in invalid or _hangs_below_missing(key, cpgs, missing):
            continue
        path = _cycle_from(key, cpgs)
        message = "invalid CompositePodGroup hierarchy: cycle " + " -> ".join(_ref(k) for k in path)
        for k in _below(path, children, cpgs):
            invalid.setdefault(k, message)
    return Trees(roots, invalid, missing)


def _judge(root: TreeNode, members: list[TreeNode]) -> str | None:
    """The rule the tree breaks, in the planner's words, or None."""
    depth = root.depth()
    if depth > WORKLOAD_MAX_TREE_DEPTH:
        deepest = _deepest_path(root)
        return (f"invalid CompositePodGroup hierarchy: depth {depth} exceeds {WORKLOAD_MAX_TREE_DEPTH} "
                f"(WorkloadMaxTreeDepth): " + " -> ".join(_ref(n.key) for n in deepest))
    workloads: dict[str, list[Key]] = {}
    for n in members:
        workloads.setdefault(n.group.workload_name or "", []).append(n.key)
    if len(workloads) > 1:
        parts = "; ".join(f"{w or '(none)'}: " + ", ".join(_ref(k) for k in keys)
                          for w, keys in sorted(workloads.items()))
        return f"invalid CompositePodGroup hierarchy: objects of more than one Workload ({parts})"
    return None


def _deepest_path(root: TreeNode) -> list[TreeNode]:
    best = [root]
    for child in root.children:
        path = [root] + _deepest_path(child)
        if len(path) > len(best):
            best = path
    return best


def _hangs_below_missing(key: Key, cpgs: dict[Key, CompositePodGroup], missing: dict[Key, Key]) -> bool:
    seen: set[Key] = set()
    while key in cpgs and key not in seen:
        if key in missing:
            return True
        seen.add(key)
        parent = cpgs[key].parent
        if not parent:
            return False
        key = (key[0], parent)
    return False


def _cycle_from(start: Key, cpgs: dict[Key, CompositePodGroup]) -> list[Key]:
    """The cycle reached walking up from `start`, starting and ending at its smallest key."""
    order: list[Key] = []
    seen: dict[Key, int] = {}
    key = start
    while key not in seen:
        seen[key] = len(order)
        order.append(key)
        key = (key[0], cpgs[key].parent)  # every parent exists here
    cycle = order[seen[key]:]
    i = cycle.index(min(cycle))
    cycle = cycle[i:] + cycle[:i]
    return cycle + [cycle[0]]


def _below(cycle: list[Key], children: dict[Key, list], cpgs: dict[Key, CompositePodGroup]) -> list[Key]:
    """The CompositePodGroups of the cycle and every one hanging below it."""
    out: list[Key] = []
    todo = list(dict.fromkeys(cycle))
    while todo:
        key = todo.pop()
        if key in out:
            continue
        out.append(key)
        todo.extend(c.key for c in children.get(key, []) if isinstance(c, CompositePodGroup))
    return out
