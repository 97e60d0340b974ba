"""CompositePodGroup trees: built once per plan from the `parentCompositePodGroupName` links.

KEP-6012 ("Group hierarchy") and v1.37.0's hierarchy snapshot: leaf PodGroups hang under
CompositePodGroups up to a root CompositePodGroup (no parent). The scheduler, not the apiserver,
judges three rules at run time: no cycle, at most `WorkloadMaxTreeDepth` = 4 levels counted
from the root (root = 1) down to and including the leaf PodGroups, and every object of one
Workload. v1.37.0 writes no status for a tree that breaks one (its pods stay pending silently);
the planner reports such a tree `Invalid` with its own message (README deviations, "`Invalid` is
the planner's own").

A PodGroup whose parent (or an ancestor) is not in the input has no root: its pods wait with
upstream's PreEnqueue text `failed to build hierarchy snapshot: composite pod group object not
found in state for <namespace>/<name>`.

Children are kept in the order the cycle evaluates them: creationTimestamp (an object without
one after those with one), then name (README deviations, "Inside a CompositePodGroup").
"""
from __future__ import annotations

from dataclasses import dataclass, field

from podgroup_plan.model.objects import ClusterInput, CompositePodGroup, PodGroup

WORKLOAD_MAX_TREE_DEPTH = 4

Key = tuple[str, str]


@dataclass(eq=False, slots=True)
class TreeNode:
    """One object of a tree: a CompositePodGroup with its children, or a leaf PodGroup."""

    group: PodGroup | CompositePodGroup
    parent: "TreeNode | None" = None
    children: list["TreeNode"] = field(default_factory=list)
    depth: int = 1  # the root is level 1

    @property
    def key(self) -> Key:
        return self.group.key

    @property
    def is_leaf(self) -> bool:
        return isinstance(self.group, PodGroup)

    def walk(self):
        """This node and every node below it, parents before children, in child order."""
        yield self
        for child in self.children:
            yield from child.walk()

    def leaves(self) -> list["TreeNode"]:
        return [n for n in self.walk() if n.is_leaf]

    @property
    def leaf_keys(self) -> tuple[Key, ...]:
        return tuple(n.key for n in self.leaves())


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

    def in_tree(self, key: Key) -> bool:
        """The PodGroup has a parent link (whatever became of its tree)."""
        return key in self.root_of or key in self.invalid_leaves or key in self.missing


def _order(group: PodGroup | CompositePodGroup) -> tuple:
    stamp = group.creation_timestamp
    return (stamp is None, stamp or "", group.name)


def _name(key: Key) -> str:
    return f"{key[0]}/{key[1]}"


def build_hierarchy(cluster: ClusterInput) -> Hierarchy:
    """The trees of `cluster`, validated. Deterministic: every list is sorted."""
    composites = {c.key: c for c in cluster.composite_pod_groups}
    groups = {g.key: g for g in cluster.pod_groups if g.parent}
    parent_of: dict[Key, Key | None] = {}
    for obj in (*composites.values(), *groups.values()):
        parent_of[obj.key] = (obj.namespace, obj.parent) if obj.parent else None

    h = Hierarchy()
    # The Invalid rules and their messages are judged once, by scheduling/hierarchy_tree.py.
    from podgroup_plan.scheduling.hierarchy_tree import build_trees

    h.invalid.update(build_trees(cluster.composite_pod_groups, cluster.pod_groups).invalid)
    # Objects whose way up meets a CompositePodGroup that is not in the input: the first one
    # missing, as the hierarchy snapshot's walk up from a leaf finds it.
    missing_of: dict[Key, Key] = {}
    for start in sorted(composites):
        key: Key | None = start
        seen: set[Key] = set()
        while key is not None and key in composites and key not in seen:
            seen.add(key)
            key = parent_of[key]
        if key is not None and key not in composites:
            missing_of[start] = key
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
        if parent in h.invalid:
            h.invalid_leaves.add(key)
        elif parent not in composites:
            h.missing[key] = parent
        elif parent in missing_of:
            h.missing[key] = missing_of[parent]
    for key in sorted(composites):
        if parent_of[key] is None:
            root = h.nodes[key]
            h.roots[key] = root
            _set_depths(root, 1)
            nodes = list(root.walk())
            if key in h.invalid:
                h.invalid_leaves.update(n.key for n in nodes if n.is_leaf)
            else:
                for n in nodes:
                    if n.is_leaf:
                        h.root_of[n.key] = root
    return h


def _set_depths(node: TreeNode, depth: int) -> None:
    node.depth = depth
    for child in node.children:
        _set_depths(child, depth + 1)
