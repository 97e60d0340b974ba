"""NodePorts: a pod's host ports must be free on the node.

Mirrors `pkg/scheduler/framework/plugins/nodeports/node_ports.go` (PreFilter + Filter) and the
conflict rule of `HostPortInfo.CheckConflict` (`pkg/scheduler/framework/types.go`):

* PreFilter: collect the pod's (hostIP, protocol, hostPort) with hostPort > 0 (containers and
  sidecar init containers, as the loader builds `Pod.host_ports`); none: `Skip`.
* Filter: a wanted port conflicts with the node when some pod already on the node uses the same
  (protocol, port) and either the wanted hostIP is 0.0.0.0 (then any used IP conflicts), or the
  used hostIP is 0.0.0.0 or equal to the wanted one. Empty hostIP means 0.0.0.0, empty protocol
  TCP (`sanitize`). Conflict: `Unschedulable` with
  `node(s) didn't have free ports for the requested pod ports` (ErrReason). Only the node's
  ports are checked, not the pod's own ports against each other, as upstream.

Why the shape differs from upstream: instead of a per-node map scan, a derived index kept by
ClusterState (`ClusterState.index`) holds, for each (protocol, port), a count per node and
hostIP, updated as pods are assumed, forgotten or evicted; a check is then a few numpy lookups
over the view.
"""
from __future__ import annotations

from typing import Hashable

import numpy as np

from podgroup_plan.framework.interface import (
    CycleState,
    FilterPlugin,
    FilterVerdict,
    PreFilterPlugin,
    PreFilterResult,
    StateKey,
)
from podgroup_plan.framework.status import Code, skip
from podgroup_plan.model.objects import HostPort, Pod
from podgroup_plan.state.derived import DerivedKey

ERR_REASON = "node(s) didn't have free ports for the requested pod ports"
DEFAULT_BIND_ALL_HOST_IP = "0.0.0.0"

# PreFilter's wanted (hostIP, protocol, port) triples, for Filter.
PRE_FILTER_KEY: StateKey[tuple[tuple[str, str, int], ...]] = StateKey("PreFilterNodePorts")


def sanitize(hp: HostPort) -> tuple[str, str, int]:
    """(hostIP, protocol, port) with upstream's defaults for empty fields."""
    return (hp.host_ip or DEFAULT_BIND_ALL_HOST_IP, hp.protocol or "TCP", int(hp.port))


class HostPortIndex:
    """(protocol, port) -> {hostIP -> per-node use count} and the total over IPs."""

    def __init__(self, state) -> None:
        self.n = state.n
        self.by_ip: dict[tuple[str, int], dict[str, np.ndarray]] = {}
        self.total: dict[tuple[str, int], np.ndarray] = {}

    def _update(self, pod: Pod, node: int, delta: int) -> None:
        for hp in pod.host_ports:
            ip, proto, port = sanitize(hp)
            if port <= 0:
                continue
            pp = (proto, port)
            per_ip = self.by_ip.setdefault(pp, {})
            counts = per_ip.get(ip)
            if counts is None:
                counts = per_ip[ip] = np.zeros(self.n, dtype=np.int32)
            counts[node] += delta
            total = self.total.get(pp)
            if total is None:
                total = self.total[pp] = np.zeros(self.n, dtype=np.int32)
            total[node] += delta

    def add(self, pod: Pod, node: int) -> None:
        self._update(pod, node, 1)

    def remove(self, pod: Pod, node: int) -> None:
        self._update(pod, node, -1)

    def conflicts(self, wanted: tuple[tuple[str, str, int], ...], view: np.ndarray) -> np.ndarray:
        out = np.zeros(len(view), dtype=bool)
        for ip, proto, port in wanted:
            pp = (proto, port)
            if ip == DEFAULT_BIND_ALL_HOST_IP:
                total = self.total.get(pp)
                if total is not None:
                    out |= total[view] > 0
                continue
            per_ip = self.by_ip.get(pp)
            if not per_ip:
                continue
            for key in (DEFAULT_BIND_ALL_HOST_IP, ip):
                counts = per_ip.get(key)
                if counts is not None:
                    out |= counts[view] > 0
        return out


# The ledger of host ports in use (state/derived.py).
HOST_PORTS: "DerivedKey[HostPortIndex]" = DerivedKey("NodePorts/hostPorts")


def wanted_ports(pod: Pod) -> tuple[tuple[str, str, int], ...]:
    return tuple(p for p in (sanitize(hp) for hp in pod.host_ports) if p[2] > 0)


class NodePorts(PreFilterPlugin, FilterPlugin):
    """Upstream NodePorts (PreFilter, Filter)."""

    name = "NodePorts"
    node_local = True
    reads_pods = True  # the host ports of the pods on a node

    def sign(self, pod: Pod) -> Hashable:
        return pod.host_ports

    def reads_pods_of(self, pod: Pod) -> bool:
        return bool(pod.host_ports)  # a pod asking for no host port passes on every node

    def pre_filter(self, cs: CycleState, pod: Pod, state, view: np.ndarray) -> PreFilterResult:
        wanted = wanted_ports(pod)
        if not wanted:
            return PreFilterResult(status=skip(self.name))
        cs.write(PRE_FILTER_KEY, wanted)
        return PreFilterResult()

    def filter(self, cs: CycleState, pod: Pod, state, view: np.ndarray) -> FilterVerdict:
        wanted = cs.read(PRE_FILTER_KEY)
        if wanted is None:
            wanted = wanted_ports(pod)
        if not wanted:
            return FilterVerdict.all_pass(len(view))
        index = state.index(HOST_PORTS, HostPortIndex)
        return FilterVerdict.reject_where(index.conflicts(wanted, view), ERR_REASON, Code.UNSCHEDULABLE)
