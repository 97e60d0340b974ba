"""Incremental counts equal recomputed ones (state/derived.py's ledgers).

PodTopologySpread and InterPodAffinity read per-domain counts of matching pods from ledgers of
the cluster state (`plugins/helper/pod_match_counts.py` DomainCounts, InterPodAffinity's
existing-terms ledger), kept current by every assume, forget and rollback instead of being
recomputed per pod. Here a state lives through random assumes, forgets and nested
tentative blocks (rolled back or kept) with the ledgers in use from the start; at every step
each probe pod's PreFilter, Filter, PreScore and Score answers must equal those computed on a
fresh state built from the pods placed at that moment (every ledger then counted from scratch).
"""
from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from builders import make_node, make_pod
from podgroup_plan.config.args import InterPodAffinityArgs
from podgroup_plan.framework.interface import CycleState, Handle
from podgroup_plan.model.objects import (
    Affinity,
    PodAffinityTerm,
    SpreadSelector,
    Toleration,
    TopologySpreadConstraint,
    WeightedPodAffinityTerm,
)
from podgroup_plan.model.selectors import LabelSelector, LabelSelectorRequirement
from podgroup_plan.plugins.helper.pod_match_counts import POD_MATCH_COUNTS
from podgroup_plan.plugins.inter_pod_affinity import _EXISTING_TERMS, InterPodAffinity, pod_terms
from podgroup_plan.plugins.pod_topology_spread import PRE_FILTER_KEY, PodTopologySpread
from podgroup_plan.state.cluster import ClusterState

ZONE, RACK, HOST = "topology.kubernetes.io/zone", "rack", "kubernetes.io/hostname"
NAMESPACES = {"default": {"team": "a"}, "other": {"team": "b"}}
# A Service selecting app=a: pods without constraints of their own get the system default
# spreading (hostname and zone, ScheduleAnyway, nodes without the labels included).
HANDLE = Handle(namespace_labels=NAMESPACES, spread_selectors=(
    SpreadSelector("Service", "default", "svc-a", LabelSelector(match_labels=(("app", "a"),))),))


def _selector(rng: random.Random) -> LabelSelector:
    kind = rng.randrange(3)
    if kind == 0:
        return LabelSelector(match_labels=(("app", rng.choice("abc")),))
    if kind == 1:
        return LabelSelector(match_expressions=(LabelSelectorRequirement("app", "In", tuple(rng.sample("abc", 2))),))
    return LabelSelector(match_expressions=(LabelSelectorRequirement("tier", "Exists", ()),))


def _term(rng: random.Random) -> PodAffinityTerm:
    ns_selector = LabelSelector(match_labels=(("team", "b"),)) if rng.random() < 0.2 else None
    return PodAffinityTerm(_selector(rng), rng.choice((ZONE, HOST, RACK)), (), ns_selector)


def _pod(rng: random.Random, name: str):
    labels = {"app": rng.choice("abc")}
    if rng.random() < 0.5:
        labels["tier"] = rng.choice("xy")
    affinity = None
    if rng.random() < 0.6:
        affinity = Affinity(
            pod_affinity_required=tuple(_term(rng) for _ in range(rng.random() < 0.2)),
            pod_anti_affinity_required=tuple(_term(rng) for _ in range(rng.random() < 0.4)),
            pod_affinity_preferred=tuple(WeightedPodAffinityTerm(rng.randint(1, 100), _term(rng))
                                         for _ in range(rng.randrange(2))),
            pod_anti_affinity_preferred=tuple(WeightedPodAffinityTerm(rng.randint(1, 100), _term(rng))
                                              for _ in range(rng.randrange(2))),
        )
    spread = tuple(
        TopologySpreadConstraint(
            max_skew=rng.randint(1, 2), topology_key=rng.choice((ZONE, HOST, RACK)),
            when_unsatisfiable=rng.choice(("DoNotSchedule", "ScheduleAnyway")),
            label_selector=_selector(rng), min_domains=rng.choice((None, 1, 4)),
            node_affinity_policy=rng.choice(("Honor", "Ignore")),
            node_taints_policy=rng.choice(("Honor", "Ignore")),
        )
        for _ in range(rng.choice((0, 0, 1, 2)))
    )
    return make_pod(
        name, rng.choice(("default", "default", "other")), labels=labels, affinity=affinity,
        node_selector={"disk": "ssd"} if rng.random() < 0.2 else None,
        tolerations=(Toleration("dedicated", "Exists"),) if rng.random() < 0.3 else (),
        topology_spread_constraints=spread,
    )


def _nodes(rng: random.Random, n: int):
    out = []
    for i in range(n):
        labels = {}
        if rng.random() < 0.9:
            labels[ZONE] = f"z{rng.randrange(3)}"
        if rng.random() < 0.9:
            labels[HOST] = f"node-{i:02d}"
        if rng.random() < 0.7:
            labels[RACK] = f"r{rng.randrange(4)}"
        if rng.random() < 0.5:
            labels["disk"] = "ssd"
        taints = [("dedicated", "x", "NoSchedule")] if rng.random() < 0.2 else []
        out.append(make_node(f"node-{i:02d}", cpu="64", memory="64Gi", pods=200, labels=labels, taints=taints))
    return out


def _answers(state: ClusterState, probes, pts: PodTopologySpread, ipa: InterPodAffinity) -> list:
    out = []
    view = state.all_nodes
    for pod in probes:
        for plugin in (pts, ipa):
            cs = CycleState()
            pre = plugin.pre_filter(cs, pod, state, view)
            verdict = plugin.filter(cs, pod, state, view)
            answer = [pre.status.code, verdict.passed.tolist(),
                      sorted((f.reasons, int(f.code), f.mask.tolist()) for f in verdict.failures)]
            if plugin is pts and cs.read(PRE_FILTER_KEY) is not None:
                answer.append([(c.sums.tolist(), c.min_match, c.self_match) for c in cs.read(PRE_FILTER_KEY).counts])
            if plugin.pre_score(cs, pod, state, view).is_skip():
                answer.append("skip")
            else:
                raw = plugin.score(cs, pod, state, view)
                answer += [raw.tolist(), plugin.normalize(cs, pod, raw.copy()).tolist()]
            out.append(answer)
    return out


def _recomputed(nodes, state: ClusterState, probes) -> list:
    placed = [replace(pod, node_name=state.node_names[row]) for pod, row in state.placed_pods()]
    fresh = ClusterState(nodes, placed)
    return _answers(fresh, probes, PodTopologySpread(handle=HANDLE),
                    InterPodAffinity(InterPodAffinityArgs(hard_pod_affinity_weight=5), HANDLE))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_incremental_counts_equal_recomputed_through_assumes_forgets_and_rollbacks(seed):
    rng = random.Random(seed)
    nodes = _nodes(rng, rng.randint(3, 12))
    running = [replace(_pod(rng, f"run-{i}"), node_name=rng.choice(nodes).name) for i in range(rng.randrange(8))]
    pending = [_pod(rng, f"pod-{i}") for i in range(25)]
    probes = [_pod(rng, f"probe-{i}") for i in range(6)]
    state = ClusterState(nodes, running)
    pts = PodTopologySpread(handle=HANDLE)
    ipa = InterPodAffinity(InterPodAffinityArgs(hard_pod_affinity_weight=5), HANDLE)
    assert _answers(state, probes, pts, ipa) == _recomputed(nodes, state, probes)

    def step(depth: int) -> None:
        for _ in range(rng.randint(1, 6)):
            action = rng.random()
            unplaced = [p for p in pending if state.node_of(p) is None]
            if action < 0.5 and unplaced:
                state.assume(rng.choice(unplaced), rng.randrange(state.n))
            elif action < 0.7:
                placed = [p for p, _ in state.placed_pods()]
                if placed:
                    state.forget(rng.choice(placed))
            elif depth < 3:
                with state.tentative() as t:
                    step(depth + 1)
                    assert _answers(state, probes, pts, ipa) == _recomputed(nodes, state, probes)
                    if rng.random() < 0.4:
                        t.keep()
            assert _answers(state, probes, pts, ipa) == _recomputed(nodes, state, probes)

    for _ in range(4):
        step(0)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_ledgers_equal_a_count_of_the_placed_pods(seed):
    """The ledgers themselves, after any history: every counter equals a count of the placed
    pods, every DomainCounts the bincount of its counter's node counts over its nodes, and
    every existing term's per-node and per-domain counts a count of the placed pods carrying
    it."""
    rng = random.Random(seed)
    nodes = _nodes(rng, rng.randint(3, 12))
    state = ClusterState(nodes)
    pts = PodTopologySpread(handle=HANDLE)
    ipa = InterPodAffinity(InterPodAffinityArgs(hard_pod_affinity_weight=5), HANDLE)
    pods = [_pod(rng, f"pod-{i}") for i in range(30)]
    _answers(state, pods[:8], pts, ipa)  # create counters and domain sums before the history
    marks = []
    for _ in range(60):
        action = rng.random()
        if action < 0.5:
            unplaced = [p for p in pods if state.node_of(p) is None]
            if unplaced:
                state.assume(rng.choice(unplaced), rng.randrange(state.n))
        elif action < 0.65:
            placed = [p for p, _ in state.placed_pods()]
            if placed:
                state.forget(rng.choice(placed))
        elif action < 0.8:
            marks.append(state.checkpoint())
        elif marks:
            state.rollback(marks.pop())
    index = state.index(POD_MATCH_COUNTS, None)
    assert index.counters
    for counter in index.counters.values():
        expected = np.zeros(state.n, dtype=np.int64)
        for pod, row in state.placed_pods():
            if counter.matches(pod.namespace, pod.labels):
                expected[row] += 1
        assert counter.counts.tolist() == expected.tolist()
        for dc in counter.domains.values():
            counted = dc.node_domain >= 0
            want = np.bincount(dc.node_domain[counted], weights=counter.counts[counted], minlength=len(dc.sums))
            assert dc.sums.tolist() == want.astype(np.int64).tolist()
    existing = state.index(_EXISTING_TERMS, None)
    want_nodes: dict = {}
    for pod, row in state.placed_pods():
        for kind, term, weight in pod_terms(pod):
            if term.selector is not None:
                per_node = want_nodes.setdefault((kind, term, weight), {})
                per_node[row] = per_node.get(row, 0) + 1
    seen = set()
    for kind, terms in existing.terms.items():
        for (term, weight), placed in terms.items():
            assert placed.nodes == want_nodes.get((kind, term, weight), {})
            if placed.nodes:
                seen.add((kind, term, weight))
            codes, values = state.label_column(term.topology_key)
            want = np.zeros(len(values), dtype=np.int64)
            for row, count in placed.nodes.items():
                if codes[row] >= 0:
                    want[codes[row]] += count
            assert placed.domains.tolist() == want.tolist()
    assert seen == set(want_nodes)


def _siblings(rng: random.Random, pods: list, count: int) -> list:
    """Pods that share another pod's constraint, affinity and toleration objects (as the
    decoder shares them among pods written alike) but differ in name and, at random, in
    labels, namespace or nodeSelector: the shape memos key such objects by identity, so
    everything else that decides an answer must still tell the pods apart."""
    out = []
    shaped = [p for p in pods if p.topology_spread_constraints or p.affinity is not None] or pods
    for i in range(count):
        base = rng.choice(shaped)
        labels = dict(base.labels)
        if rng.random() < 0.7:
            labels["app"] = rng.choice("abc")
        if rng.random() < 0.5:
            labels["tier"] = rng.choice("xy")
        out.append(replace(
            base, name=f"sibling-{i}", labels=labels,
            namespace=rng.choice((base.namespace, base.namespace, "default", "other")),
            node_selector={"disk": "ssd"} if rng.random() < 0.2 else base.node_selector))
    return out


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_pods_sharing_constraint_objects_get_fresh_answers(seed):
    """The plugins keep what they read per pod shape (constraint and affinity objects by
    identity, namespace, node selection; labels only where merged in) on the state, and
    Filter's answer per per-domain verdict: pods that share objects but not their labels,
    namespace or nodeSelector, some with matchLabelKeys or mismatchLabelKeys, asked in turn on
    a state that keeps changing, must each get the answers of a fresh state with fresh
    plugins."""
    rng = random.Random(seed)
    nodes = _nodes(rng, rng.randint(3, 12))
    pods = [_pod(rng, f"pod-{i}") for i in range(20)]
    for i, pod in enumerate(pods):  # some constraints and terms merge the pod's labels in
        if pod.topology_spread_constraints and rng.random() < 0.4:
            pod = pods[i] = replace(pod, topology_spread_constraints=tuple(
                replace(c, match_label_keys=("tier",)) for c in pod.topology_spread_constraints))
        if pod.affinity is not None and rng.random() < 0.4:
            keys = {rng.choice(("match_label_keys", "mismatch_label_keys")): ("tier",)}
            a = pod.affinity
            pods[i] = replace(pod, affinity=replace(
                a,
                pod_affinity_required=tuple(replace(t, **keys) for t in a.pod_affinity_required),
                pod_anti_affinity_required=tuple(replace(t, **keys) for t in a.pod_anti_affinity_required),
                pod_affinity_preferred=tuple(replace(w, term=replace(w.term, **keys)) for w in a.pod_affinity_preferred),
                pod_anti_affinity_preferred=tuple(
                    replace(w, term=replace(w.term, **keys)) for w in a.pod_anti_affinity_preferred)))
    probes = pods[:6] + _siblings(rng, pods[:6], 8)
    state = ClusterState(nodes)
    pts = PodTopologySpread(handle=HANDLE)
    ipa = InterPodAffinity(InterPodAffinityArgs(hard_pod_affinity_weight=5), HANDLE)
    for pod in pods[6:] + _siblings(rng, pods, 10):
        state.assume(pod, rng.randrange(state.n))
        # each probe on a state of its own: no shape of another probe can serve it there
        assert _answers(state, probes, pts, ipa) == [
            answer for probe in probes for answer in _recomputed(nodes, state, [probe])]
