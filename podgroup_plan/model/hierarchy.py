"""CompositePodGroup trees: built and judged once per plan from the `parentCompositePodGroupName`
links.

KEP-6012 ("Group hierarchy") and v1.37.0's hierarchy snapshot: leaf PodGroups hang under
CompositePodGroups up to a root CompositePodGroup (no parent). KEP-6012 names three rules a
hierarchy must keep: no cycle, at most `WorkloadMaxTreeDepth` = 4 levels counted from the root
(root = 1) down to and including the leaf PodGroups, and every object of one Workload.
kube-scheduler v1.37 checks none of the last two when it schedules (the oracle scheduled a
too-deep and a two-Workload tree), so neither does the plan: such a tree is scheduled like any
other, and the rule it breaks is named in `broken` (for the result's notes). Only a cycle, which
has no root to schedule from, is held `Invalid` (README deviations).

A PodGroup whose parent (or an ancestor) is not in the input has no root: its pods wait with
upstream's PreEnqueue text `failed to build hierarchy snapshot: composite pod group object not
found in state for <namespace>/<name>`.

Children are kept in the order the cycle evaluates them: creationTimestamp (an object without
one after those with one), then name (README deviations, "Inside a CompositePodGroup").
"""
from __future__ import annotations

from dataclasses import dataclass, field

from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import CompositePodGroup, PodGroup

WORKLOAD_MAX_TREE_DEPTH = 4

Key = tuple[str, str]


@dataclass(eq=False, slots=True)
class TreeNode:
    """One object of a tree: a CompositePodGroup with its children, or a leaf PodGroup."""

    group: PodGroup | CompositePodGroup
    # not in the repr: a repr that followed them would recurse once per level of the tree
    parent: "TreeNode | None" = field(default=None, repr=False)
    children: list["TreeNode"] = field(default_factory=list, repr=False)
    depth: int = 1  # the root is level 1

    @property
    def key(self) -> Key:
        return self.group.key

    @property
    def is_leaf(self) -> bool:
        return isinstance(self.group, PodGroup)

    def walk(self):
        """This node and every node below it, parents before children, in child order. A loop
        over a stack: a chain of CompositePodGroups is as deep as the input makes it (the
        depth rule is judged after the walk), and Python's recursion stops at 1,000."""
        todo = [self]
        while todo:
            node = todo.pop()
            yield node
            todo.extend(reversed(node.children))

    def leaves(self) -> list["TreeNode"]:
        return [n for n in self.walk() if n.is_leaf]

    @property
    def leaf_keys(self) -> tuple[Key, ...]:
        return tuple(n.key for n in self.leaves())

    def height(self) -> int:
        """Levels from this node down to and including its deepest leaf PodGroup."""
        top = self.depth
        return 1 + max(n.depth - top for n in self.walk())


@dataclass(slots=True)
class Hierarchy:
    """Every tree of the input. `root_of` maps each PodGroup of a valid tree to its root;
    `invalid` maps each CompositePodGroup of an invalid tree (or cycle) to the planner's message,
    `invalid_leaves` the PodGroups below them; `missing` maps a PodGroup without a root to the
    key of the first CompositePodGroup on its way up that is not in the input."""

    roots: dict[Key, TreeNode] = field(default_factory=dict)
    root_of: dict[Key, TreeNode] = field(default_factory=dict)
    nodes: dict[Key, TreeNode] = field(default_factory=dict)
    invalid: dict[Key, str] = field(default_factory=dict)
    invalid_leaves: set[Key] = field(default_factory=set)
    missing: dict[Key, Key] = field(default_factory=dict)
    # root -> the KEP-6012 rule its tree breaks (too deep, more than one Workload): scheduled
    # all the same, as kube-scheduler v1.37 schedules it
    broken: dict[Key, str] = field(default_factory=dict)

    def in_tree(self, key: Key) -> bool:
        """The PodGroup has a parent link (whatever became of its tree)."""
        return key in self.root_of or key in self.invalid_leaves or key in self.missing


def _order(group: PodGroup | CompositePodGroup) -> tuple:
    stamp = group.creation_timestamp
    return (stamp is None, stamp or "", group.name)


def _name(key: Key) -> str:
    return f"{key[0]}/{key[1]}"


# A path or cycle named in a message shows at most this many objects (its ends): the message
# is repeated on every object of the tree, and a chain can be 100,000 levels long.
PATH_SHOWN = 8


def _path_text(keys: list[Key]) -> str:
    if len(keys) <= PATH_SHOWN:
        return " -> ".join(_name(k) for k in keys)
    half = PATH_SHOWN // 2
    return (" -> ".join(_name(k) for k in keys[:half]) + f" -> ({len(keys) - 2 * half} more) -> "
            + " -> ".join(_name(k) for k in keys[-half:]))


def build_hierarchy(cluster: ClusterInput) -> Hierarchy:
    """The trees of `cluster`, validated. Deterministic: every list is sorted."""
    composites = {c.key: c for c in cluster.composite_pod_groups}
    groups = {g.key: g for g in cluster.pod_groups if g.parent}
    parent_of: dict[Key, Key | None] = {}
    objects: list[CompositePodGroup | PodGroup] = [*composites.values(), *groups.values()]
    for obj in objects:
        parent_of[obj.key] = (obj.namespace, obj.parent) if obj.parent else None

    h = Hierarchy()
    # Objects whose way up meets a CompositePodGroup that is not in the input: the first one
    # missing, as the hierarchy snapshot's walk up from a leaf finds it.
    # Each object's answer is kept, so that a 100,000-level chain is walked once, not once
    # per level (None: its way up ends at a root or in a cycle).
    missing_of: dict[Key, Key] = {}
    answered: dict[Key, Key | None] = {}
    for start in sorted(composites):
        path: list[Key] = []
        on_path: set[Key] = set()
        key: Key | None = start
        while key is not None and key in composites and key not in on_path and key not in answered:
            on_path.add(key)
            path.append(key)
            key = parent_of[key]
        if key in answered:
            found = answered[key]
        elif key is not None and key not in composites:
            found = key
        else:
            found = None
        for k in path:
            answered[k] = found
            if found is not None:
                missing_of[k] = found
    h.missing.update(missing_of)
    # Build the trees from the roots down.
    for key in sorted(composites):
        h.nodes[key] = TreeNode(composites[key])
    for key in sorted(groups):
        h.nodes[key] = TreeNode(groups[key])
    for key in sorted(h.nodes, key=lambda k: (k[0],) + _order(h.nodes[k].group)):
        parent = parent_of[key]
        if parent is not None and parent in composites:
            node = h.nodes[key]
            node.parent = h.nodes[parent]
            h.nodes[parent].children.append(node)
    for key in sorted(groups):
        parent = parent_of[key]
        assert parent is not None  # `groups` holds only PodGroups with a parent
        if parent not in composites:
            h.missing[key] = parent
        elif parent in missing_of:
            h.missing[key] = missing_of[parent]
    reached: set[Key] = set()
    for key in sorted(composites):
        if parent_of[key] is None:
            root = h.nodes[key]
            nodes = list(root.walk())
            for n in nodes:  # parents come before their children
                n.depth = 1 if n.parent is None else n.parent.depth + 1
            reached.update(n.key for n in nodes)
            broken = _broken_rule(root, nodes)
            if broken is not None:
                h.broken[key] = broken
            h.roots[key] = root
            for n in nodes:
                if n.is_leaf:
                    h.root_of[n.key] = root
    # CompositePodGroups no root reaches and whose way up meets no missing object hang on a
    # cycle: the cycle, and everything below it, is Invalid.
    for key in sorted(composites):
        if key in reached or key in h.invalid or key in missing_of:
            continue
        cycle = _cycle_from(key, parent_of)
        message = "invalid CompositePodGroup hierarchy: cycle " + _path_text(cycle)
        todo = [h.nodes[k] for k in cycle]
        while todo:  # not walk(): the cycle's members are each other's children
            n = todo.pop()
            if n.is_leaf:
                h.invalid_leaves.add(n.key)
            elif n.key not in h.invalid:
                h.invalid[n.key] = message
                todo.extend(n.children)
    return h


def _broken_rule(root: TreeNode, nodes: list[TreeNode]) -> str | None:
    """The rule a tree rooted at `root` breaks (KEP-6012), in the planner's words, or None."""
    height = root.height()
    if height > WORKLOAD_MAX_TREE_DEPTH:
        path = _deepest_path(root)
        return (f"depth {height} exceeds {WORKLOAD_MAX_TREE_DEPTH} "
                f"(WorkloadMaxTreeDepth): " + _path_text([n.key for n in path]))
    workloads: dict[str, list[Key]] = {}
    for n in nodes:
        workloads.setdefault(n.group.workload_name or "", []).append(n.key)
    if len(workloads) > 1:
        parts = "; ".join(f"{w or '(none)'}: " + ", ".join(_name(k) for k in keys)
                          for w, keys in sorted(workloads.items()))
        return f"objects of more than one Workload ({parts})"
    return None


def _deepest_path(root: TreeNode) -> list[TreeNode]:
    """The first root-to-leaf path of the greatest length, in child order."""
    deepest = root
    for n in root.walk():  # in child order: the first of the deepest wins
        if n.depth > deepest.depth:
            deepest = n
    path = [deepest]
    while path[-1] is not root:
        path.append(path[-1].parent)  # type: ignore[arg-type]
    return path[::-1]


def _cycle_from(start: Key, parent_of: dict[Key, Key | None]) -> list[Key]:
    """The cycle met walking up from `start`, from its smallest key back to it. Every
    CompositePodGroup on the way has its parent in the input (the caller checked)."""
    order: list[Key] = []
    seen: dict[Key, int] = {}
    key: Key = start
    while key not in seen:
        seen[key] = len(order)
        order.append(key)
        key = parent_of[key]  # type: ignore[assignment]
    cycle = order[seen[key]:]
    i = cycle.index(min(cycle))
    cycle = cycle[i:] + cycle[:i]
    return cycle + [cycle[0]]

