"""TopologyPlacement: one candidate placement per topology domain (PlacementGenerate).

Mirrors `pkg/scheduler/framework/plugins/topologyaware/topology_placement.go` (v1.37.0; its
configuration name is `TopologyPlacementGenerator`, `names.TopologyPlacementGenerator`):

* no `schedulingConstraints.topology`: the parent placement unchanged, one candidate;
* otherwise one candidate per value of the key's node label among the parent's nodes, nodes
  without the label left out of every candidate;
* a group with scheduled members (bound or assumed) is held to their domain: only that value is
  generated; members on several domains, or on a node without the label, are an Error with
  upstream's texts (`cannot determine domain for already scheduled pods: ...`). A
  CompositePodGroup's members are those of every leaf PodGroup below it (getScheduledPods with
  the CompositePodGroup gate on walks the tree, helper.GetPodGroupStates), leaves in child
  order, each leaf's members in namespace/name order.

Upstream iterates a map, so its order is unspecified; here candidates come in label-value order
(README deviations), which also fixes which candidate is "reported" in a failure text. The label column
is encoded once per key (`ClusterState.label_column`), so generating is one pass of numpy over
the parent's rows, not a Python loop over nodes.
"""
from __future__ import annotations

import numpy as np

from podgroup_plan.framework.interface import Group, Placement, PlacementGeneratePlugin
from podgroup_plan.framework.status import Code, Status
from podgroup_plan.model.objects import Pod, PodGroup
from podgroup_plan.state.cluster import ClusterState
from podgroup_plan.state.group_members import scheduled_members

NAME = "TopologyPlacementGenerator"


def domain_error(detail: str) -> Status:
    return Status(Code.ERROR, (f"cannot determine domain for already scheduled pods: {detail}",), NAME)


class TopologyPlacement(PlacementGeneratePlugin):
    name = NAME

    def __init__(self, args=None, handle=None):
        super().__init__(args, handle)
        # (key, required code, id of the parent's rows) -> (the parent's rows, the candidates):
        # labels never change, so the same split (the same list object) comes back, which is
        # what kept trials (scheduling/placement_cache.py) recognise a candidate list by
        self._splits: dict[tuple, tuple[np.ndarray, list[Placement]]] = {}

    def generate_placements(self, group: Group, parent: Placement, state: ClusterState) -> tuple[list[Placement], Status]:
        key = group.topology_key
        if not key:
            return [parent], Status()
        codes, values = state.label_column(key)
        if isinstance(group, PodGroup):
            members = scheduled_members(state, group.key)
        else:
            members = [m for leaf in self.handle.composite_leaves.get(group.key, ())
                       for m in scheduled_members(state, leaf)]
        required, status = self._scheduled_domain(members, codes, values)
        if not status.is_success():
            return [], status
        memo_key = (key, required, id(parent.nodes))
        memo = self._splits.get(memo_key)
        if memo is not None and memo[0] is parent.nodes:
            return memo[1], Status()
        placements = self._split(parent, codes, values, required)
        if len(self._splits) > 1024:
            self._splits.clear()
        self._splits[memo_key] = (parent.nodes, placements)
        return placements, Status()

    @staticmethod
    def _split(parent: Placement, codes: np.ndarray, values: tuple[str, ...], required: int) -> list[Placement]:
        parent_codes = codes[parent.nodes]
        wanted = parent_codes >= 0 if required < 0 else parent_codes == required
        rows, domain = parent.nodes[wanted], parent_codes[wanted]
        if not len(rows):
            return []
        # rows ascend within each domain after a stable sort by domain code; codes follow the
        # sorted label values, so candidates come out in value order.
        order = np.argsort(domain, kind="stable")
        rows, domain = rows[order], domain[order]
        cuts = np.flatnonzero(np.diff(domain)) + 1
        starts = np.concatenate(([0], cuts))
        return [Placement(values[int(domain[s])], part) for s, part in zip(starts, np.split(rows, cuts))]

    @staticmethod
    def _scheduled_domain(members: list[tuple[Pod, int]], codes: np.ndarray, values: tuple[str, ...]) -> tuple[int, Status]:
        """getScheduledPodsTopologyDomain: the one label code of the scheduled members' nodes,
        -1 when there are none. Members are visited in namespace/name order (README deviations), which
        fixes the order of the two values in the "more than 1 domain" text."""
        found = -1
        for pod, node in members:
            code = int(codes[node])
            if code < 0:
                return -1, domain_error(f"no topology domain found for pod {pod.namespace}/{pod.name}")
            if found >= 0 and found != code:
                return -1, domain_error(f"more than 1 domain found for pod group: {values[found]}, {values[code]}")
            found = code
        return found, Status()
