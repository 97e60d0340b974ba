"""`headroom --add-node FILE --target K`: the fewest nodes of the given shapes to add so that K
copies fit, found by planning, not by formula.

Candidates are m nodes, the shapes taken in turn (`--add-node a.yaml --add-node b.yaml`: a, b,
a, b, ...), each named `<shape's name>-<i>` (its `kubernetes.io/hostname` label too, when it has
one; every other label says where it goes). m is found by planning the input on the grown
cluster and adding copies: m = 0, 1, 2, 4, ... until K copies fit, then bisection between the
last two. Each trial is its own Planner derived from the first (the configuration is resolved
once). The search assumes that more nodes never fit fewer copies; it stops where more nodes
cannot help (a node per pod of every missing copy and of the input's waiting pods, per shape)
or at `MAX_NODES`.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from podgroup_plan.analyses.headroom.greedy import Copy, Template, add_copies
from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import Node
from podgroup_plan.planner import Planner

HOSTNAME = "kubernetes.io/hostname"
MAX_NODES = 100_000


def grown_nodes(shapes: Sequence[Node], m: int, taken: set[str]) -> list[Node]:
    out: list[Node] = []
    counters = [0] * len(shapes)
    for i in range(m):
        k = i % len(shapes)
        shape = shapes[k]
        while True:
            counters[k] += 1
            name = f"{shape.name}-{counters[k]}"
            if name not in taken:
                break
        labels = dict(shape.labels)
        if HOSTNAME in labels:
            labels[HOSTNAME] = name
        out.append(replace(shape, name=name, labels=labels, source=None))
    return out


@dataclass
class Growth:
    """The answer to `--add-node FILE --target K`."""

    nodes: int | None  # the fewest nodes to add; None: not even MAX_NODES make K copies fit
    planner: Planner | None  # the grown cluster's planner, with its K copies placed
    kept: list[Copy]  # those copies
    before: int  # copies that fit with no node added (at most K)


def smallest_growth(base: Planner, cluster: ClusterInput, shapes: Sequence[Node], target: int,
                    templates: Sequence[Template]) -> Growth:
    """The fewest nodes of `shapes` to add to `cluster` so that `target` copies fit."""
    taken = {n.name for n in cluster.nodes}

    widest = 1  # the most pods a copy has

    def trial(m: int) -> tuple[bool, Planner, list[Copy]]:
        nonlocal widest
        grown = replace(cluster, nodes=tuple(sorted(cluster.nodes + tuple(grown_nodes(shapes, m, taken)),
                                                    key=lambda n: n.name)))
        planner = base.derive(grown)
        kept, failed = add_copies(planner, templates, target)
        widest = max([widest, *(len(c.pods) for c in kept), len(failed.pods) if failed else 0])
        return len(kept) >= target, planner, kept

    ok, planner, kept = trial(0)
    before = len(kept)
    if ok:
        return Growth(0, planner, kept, before)
    # Enough nodes for every missing copy, and every pod of the input still waiting (planned
    # first, it may take new nodes too), to have a node of every shape per pod: if a pod fits
    # on an empty node of some shape at all, that many make the copies fit (the new nodes of a
    # shape share its labels, so one rack or zone holds a copy); past it, more nodes cannot
    # help, and the search stops there instead of planning ever larger clusters.
    base.run()
    waiting = sum(1 for p in base.cluster.pods
                  if p.key not in base.state.pod_node and p.phase not in ("Succeeded", "Failed"))
    enough = min(MAX_NODES, ((target - before) * widest + waiting) * len(shapes))
    lo, hi = 0, 1
    found: tuple[Planner, list[Copy]] | None = None
    while lo < enough:
        hi = min(hi, enough)
        ok, planner, kept = trial(hi)
        if ok:
            found = (planner, kept)
            break
        lo, hi = hi, hi * 2
    if found is None:
        return Growth(None, None, [], before)
    while hi - lo > 1:  # lo never fits, hi does
        mid = (lo + hi) // 2
        ok, planner, kept = trial(mid)
        if ok:
            hi, found = mid, (planner, kept)
        else:
            lo = mid
    return Growth(hi, found[0], found[1], before)
