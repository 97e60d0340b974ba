"""What a plugin is lives on its class (issue 23): every registered plugin declares its facts, and
a node-local plugin's signature fragment covers every pod field its Filter and Score read.

The signature cache (framework/node_cache.py) gives a pod the verdicts and raw scores computed
for an earlier pod with the same signature; a node-local plugin reading a pod field its `sign`
leaves out would silently hand one pod another's answers. The property: two pods drawn from
small domains (so that they often agree on a plugin's fragment while differing elsewhere: labels,
namespace, priority, spreading, pod affinity, requests, ...) with equal fragments get equal
Filter verdicts (pass, reasons, code) and equal raw Scores on every node, plugin by plugin.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from builders import make_node, make_pod, make_state
from podgroup_plan.framework.interface import (
    CANNOT_SIGN,
    CycleState,
    FilterPlugin,
    FilterVerdict,
    Handle,
    Plugin,
    PreFilterPlugin,
    PreScorePlugin,
    ScorePlugin,
)
from podgroup_plan.model.objects import Affinity, HostPort, PreferredSchedulingTerm, Toleration
from podgroup_plan.model.selectors import NodeSelector, NodeSelectorRequirement, NodeSelectorTerm
from podgroup_plan.plugins.registry import IMPLEMENTED

NODE_LOCAL = sorted(name for name, cls in IMPLEMENTED.items() if cls.node_local)
FILTER_OR_SCORE = sorted(name for name, cls in IMPLEMENTED.items() if issubclass(cls, (FilterPlugin, ScorePlugin)))

ZONES = ["a", "b"]
NODES = [
    make_node("n0", cpu=2, memory="4Gi", labels={"zone": "a", "disk": "ssd"}),
    make_node("n1", cpu=4, memory="8Gi", labels={"zone": "b"}, taints=[("gpu", "true", "NoSchedule")],
              allocatable={"nvidia.com/gpu": 2}),
    make_node("n2", cpu=8, memory="2Gi", labels={"zone": "a"}, unschedulable=True,
              images=[(["app:1"], 300 << 20)]),
    make_node("n3", cpu=1, memory="16Gi", labels={"zone": "b", "disk": "ssd"},
              taints=[("spot", "", "PreferNoSchedule")], images=[(["app:1", "db:2"], 900 << 20)]),
]
RUNNING = [
    make_pod("r0", node_name="n0", requests={"cpu": 1, "memory": "1Gi"}, host_ports=[(8080,)]),
    make_pod("r1", node_name="n3", requests={"cpu": "500m"}, labels={"app": "web"}),
]

_term = st.builds(
    lambda key, op, values: NodeSelectorTerm((NodeSelectorRequirement(key, op, tuple(values)),)),
    st.sampled_from(["zone", "disk"]), st.sampled_from(["In", "NotIn", "Exists"]),
    st.lists(st.sampled_from(["a", "b", "ssd"]), max_size=2),
)
_affinity = st.one_of(
    st.none(),
    st.builds(
        lambda required, preferred: Affinity(
            node_required=NodeSelector((required,)) if required is not None else None,
            node_preferred=tuple(PreferredSchedulingTerm(w, t) for w, t in preferred)),
        st.one_of(st.none(), _term),
        st.lists(st.tuples(st.integers(1, 10), _term), max_size=1),
    ),
)
pods = st.builds(
    lambda name, ns, cpu, mem, gpu, bare, labels, tolerations, selector, affinity, ports, images, node_name,
    priority: make_pod(
        name, ns, requests={"cpu": cpu, "memory": mem, "nvidia.com/gpu": gpu}, containers_without_requests=bare,
        labels=labels, tolerations=tolerations, node_selector=selector, affinity=affinity, host_ports=ports,
        images=images, node_name=node_name, priority=priority),
    st.sampled_from(["p", "q"]),
    st.sampled_from(["default", "other"]),
    st.sampled_from([0, "500m", 1, 3]),
    st.sampled_from([0, "1Gi", "3Gi"]),
    st.sampled_from([0, 0, 1]),
    st.sampled_from([0, 1]),
    st.dictionaries(st.sampled_from(["app", "tier"]), st.sampled_from(["web", "db"]), max_size=1),
    st.lists(st.sampled_from([Toleration("gpu", "Equal", "true", "NoSchedule"), Toleration("spot", "Exists"),
                              Toleration("node.kubernetes.io/unschedulable", "Exists")]), max_size=1, unique=True),
    st.dictionaries(st.just("zone"), st.sampled_from(ZONES), max_size=1),
    _affinity,
    st.lists(st.sampled_from([HostPort(8080), HostPort(9090)]), max_size=1, unique=True),
    st.lists(st.sampled_from(["app:1", "db:2"]), max_size=2, unique=True),
    st.sampled_from([None, None, "n1", "n3"]),
    st.sampled_from([0, 100]),
)


def answers(plugin: Plugin, pod, state=None) -> tuple:
    """What the signature cache would keep for `pod`: per node the Filter verdict (passed, code,
    reasons) and the raw Score, with PreFilter / PreScore run first as the framework does
    (on `state`; the NODES with the RUNNING pods unless given)."""
    state = make_state(NODES, RUNNING) if state is None else state
    view = state.all_nodes
    cs = CycleState()
    out: list = []
    filtering = isinstance(plugin, FilterPlugin)
    if isinstance(plugin, PreFilterPlugin):
        result = plugin.pre_filter(cs, pod, state, view)
        out.append(("preFilter", result.status.code, result.status.reasons, result.node_names))
        filtering = filtering and result.status.is_success()  # a Skip or a rejection: no Filter
    if filtering:
        verdict: FilterVerdict = plugin.filter(cs, pod, state, view)
        per_node = []
        for i in range(len(view)):
            failures = tuple((int(f.code), f.reasons) for f in verdict.failures if f.mask[i])
            per_node.append((bool(verdict.passed[i]), failures))
        out.append(("filter", tuple(per_node)))
    if isinstance(plugin, ScorePlugin):
        status = plugin.pre_score(cs, pod, state, view) if isinstance(plugin, PreScorePlugin) else None
        out.append(("preScore", None if status is None else (status.code, status.reasons)))
        if status is None or status.is_success():
            out.append(("score", tuple(np.asarray(plugin.score(cs, pod, state, view)).tolist())))
    return tuple(out)


# Where the configuration's table of upstream's plugin interfaces (config/defaults.py, which also
# covers the plugins that are not applied) says more than the class implements. Each is a known
# difference, kept so that the plan stays as it is: v1.37.0's NodeName has a PreFilter (it
# narrows to the named node) that the planner's NodeName class has but the table leaves out;
# DefaultPreemption's PreEnqueue (pods waiting for their victims to go) is not modelled.
KNOWN_TABLE_DIFFERENCES = {
    "NodeName": {"preFilter"},
    "DefaultPreemption": {"preEnqueue"},
}


def test_extension_points_from_the_classes_agree_with_the_configuration():
    from podgroup_plan.config.defaults import PLUGIN_EXTENSION_POINTS

    for name, cls in IMPLEMENTED.items():
        differ = set(cls.extension_points()) ^ set(PLUGIN_EXTENSION_POINTS[name])
        assert differ == KNOWN_TABLE_DIFFERENCES.get(name, set()), name


def test_every_registered_plugin_declares_its_facts():
    for name, cls in IMPLEMENTED.items():
        assert cls.name == name
        assert isinstance(cls.node_local, bool) and isinstance(cls.static, bool)
        assert not cls.static or cls.node_local, f"{name}: static only makes sense for a node-local plugin"
        assert cls.extension_points(), f"{name} implements no extension point"
        # reads_pods and reads_pods_of go together: a plugin that reads pods says for which
        # (else the framework would never see it), and only such a plugin answers per pod
        assert isinstance(cls.reads_pods, bool), name
        assert cls.reads_pods == ("reads_pods_of" in cls.__dict__), f"{name}: reads_pods without reads_pods_of"
        plugin = cls.create(None, Handle(), None)
        if cls.node_local:
            # a node-local plugin signs the pods the cache keeps (else the cache would never serve it)
            assert plugin.sign(make_pod("p")) is not CANNOT_SIGN, name
            assert isinstance(plugin, (FilterPlugin, ScorePlugin)), name
        else:
            assert "sign" not in cls.__dict__, f"{name} signs pods but is not node-local"


# Pod fields a pair may differ in (one at a time, or all at once).
FIELDS = ["namespace", "name", "labels", "requests", "non_zero_cpu", "non_zero_memory", "tolerations",
          "node_selector", "affinity", "host_ports", "images", "node_name", "priority"]


@pytest.mark.parametrize("field", FIELDS + [None])
@pytest.mark.parametrize("name", NODE_LOCAL)
@settings(max_examples=15, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(a=pods, c=pods)
def test_equal_fragments_give_equal_answers(name, field, a, c):
    """`b` is `a` with `field` taken from `c` (None: `c` itself): pairs that differ in exactly
    one field are where a field missing from a fragment shows."""
    b = c if field is None else replace(a, **{field: getattr(c, field)})
    plugin = IMPLEMENTED[name].create(None, Handle(), None)
    fa, fb = plugin.sign(a), plugin.sign(b)
    if fa == fb:
        assert answers(plugin, a) == answers(plugin, b), f"{name} reads a pod field its sign() leaves out"


class _ReadsLabelsUnsigned(FilterPlugin):
    """A node-local filter that reads the pod's labels but signs only its tolerations: the
    mistake the property above exists to catch."""

    name = "ReadsLabelsUnsigned"
    node_local = True

    def sign(self, pod):
        return pod.tolerations

    def filter(self, cs, pod, state, view):
        return FilterVerdict.reject_where(np.full(len(view), "app" in pod.labels), "labelled")


def test_the_property_catches_a_plugin_reading_an_unsigned_field():
    plugin = _ReadsLabelsUnsigned()
    a, b = make_pod("p"), make_pod("p", labels={"app": "web"})
    assert plugin.sign(a) == plugin.sign(b)
    assert answers(plugin, a) != answers(plugin, b)


def test_a_plugin_that_cannot_sign_turns_the_cache_off_for_that_pod():
    from podgroup_plan.config.profile import Profile
    from podgroup_plan.framework.diagnosis import Diagnosis
    from podgroup_plan.framework.runtime import Framework

    class SignsOnlyLabelledPods(FilterPlugin):
        name = "SignsOnlyLabelledPods"
        node_local = True

        def sign(self, pod):
            return pod.labels.get("app", CANNOT_SIGN)

        def filter(self, cs, pod, state, view):
            return FilterVerdict.reject_where(np.zeros(len(view), dtype=bool), "never")

    fwk = Framework(Profile("default-scheduler", {}), Handle(), IMPLEMENTED)
    fwk.use_plugins(filter=[SignsOnlyLabelledPods()])
    assert fwk.pod_signature(make_pod("p")) is None
    assert fwk.pod_signature(make_pod("p", labels={"app": "web"})) is not None
    state = make_state(NODES)
    for pod in (make_pod("p"), make_pod("q")):  # unsigned pods share no entry, even alike ones
        fwk.run_filter(CycleState(), pod, state, state.all_nodes, Diagnosis())
    assert len(fwk.cache) == 0
    for pod in (make_pod("p", labels={"app": "web"}), make_pod("q", labels={"app": "web"})):
        fwk.run_filter(CycleState(), pod, state, state.all_nodes, Diagnosis())
    assert len(fwk.cache) == 1  # signed alike: the second pod keeps the entry


# ----- reads_pods: when pods can be replaced by their usage ------------------------------------
# Preemption takes victims off their nodes, and Filter adds nominated pods, as a shift of the
# usage columns (ClusterState.shift_usage) for a pod that no plugin of its profile reads pods for
# (framework/columns.py, Plugin.reads_pods / reads_pods_of). The property: for such a pod, every
# plugin answers alike whether another pod is on a node or only its usage is.

def _with_pod_or_its_usage(x, pod) -> tuple:
    """Two states: RUNNING with `x` on its node, and RUNNING with only x's usage shifted there."""
    from podgroup_plan.state.cluster import ClusterState

    resources = set(x.requests) | set(pod.requests)
    with_pod = ClusterState(NODES, [*RUNNING, x], resources)
    columns = ClusterState(NODES, RUNNING, resources)
    return with_pod, columns


def _shift_in(state, x) -> None:
    vec = state.request_vector(x)
    requested = np.zeros((len(state.resource_names), 1), dtype=state.requested.dtype)
    requested[: len(vec), 0] = vec
    non_zero = np.array([[x.non_zero_cpu], [x.non_zero_memory]], dtype=state.non_zero_requested.dtype)
    state.shift_usage(np.array([state.node_index[x.node_name]]), requested, non_zero,
                      np.ones(1, dtype=state.pod_count.dtype))


def _same_either_way(plugin: Plugin, pod, x) -> bool:
    with_pod, columns = _with_pod_or_its_usage(x, pod)
    with columns.tentative():
        _shift_in(columns, x)
        on_columns = answers(plugin, pod, columns)
    return answers(plugin, pod, with_pod) == on_columns


@pytest.mark.parametrize("name", FILTER_OR_SCORE)
@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(pod=pods, x=pods, node=st.sampled_from([n.name for n in NODES]))
def test_a_pod_no_plugin_reads_pods_for_sees_only_usage(name, pod, x, node):
    """The cluster holds no pod (anti-)affinity terms (the cluster-wide condition,
    columns.cluster_reads_columns_only), as none of these pods has any."""
    plugin = IMPLEMENTED[name].create(None, Handle(), None)
    x = replace(x, name="x", node_name=node)
    pod = replace(pod, node_name=None)
    if not plugin.reads_pods_of(pod):
        assert _same_either_way(plugin, pod, x), f"{name} reads pods but says it does not for this pod"


def test_the_plugins_that_read_pods_say_so_where_it_shows():
    """The declarations are needed: NodePorts answers differently for a pod asking for the host
    port another pod holds than for that pod's usage alone, and says it reads pods for it."""
    from podgroup_plan.plugins.node_ports import NodePorts

    plugin = NodePorts()
    pod = make_pod("p", host_ports=[(9090,)])
    x = make_pod("x", node_name="n3", host_ports=[(9090,)])
    assert plugin.reads_pods_of(pod) and not plugin.reads_pods_of(make_pod("q"))
    assert not _same_either_way(plugin, pod, x)


class _CountsLabelledPods(FilterPlugin):
    """A filter that reads the labels of the pods on a node but does not say it reads pods: the
    mistake the property above exists to catch."""

    name = "CountsLabelledPods"

    def filter(self, cs, pod, state, view):
        labelled = np.array([any("app" in p.labels for p in state.pods_on_node[row].values()) for row in view])
        return FilterVerdict.reject_where(labelled, "a labelled pod is there")


def test_the_property_catches_a_plugin_reading_pods_undeclared():
    pod, x = make_pod("p"), make_pod("x", node_name="n0", labels={"app": "web"})
    assert not _CountsLabelledPods().reads_pods_of(pod)
    assert not _same_either_way(_CountsLabelledPods(), pod, x)


def test_the_framework_reads_it_from_its_plugin_instances():
    """pod_reads_columns_only asks the framework's instances of the plugins that read pods, once
    per pod; a profile without them reads columns only even for a pod with host ports."""
    from podgroup_plan.config.configuration import build_profiles
    from podgroup_plan.framework.columns import pod_reads_columns_only
    from podgroup_plan.framework.runtime import Framework

    profile = build_profiles(None, {})["default-scheduler"]
    fwk = Framework(profile, Handle(), IMPLEMENTED)
    assert sorted(p.name for p in fwk.pod_readers) == ["InterPodAffinity", "NodePorts", "PodTopologySpread"]
    assert all(p is fwk.plugin(p.name) for p in fwk.pod_readers)
    ported, plain = make_pod("p", host_ports=[(80,)]), make_pod("q")
    assert not pod_reads_columns_only(ported, fwk) and pod_reads_columns_only(plain, fwk)
    fwk.use_plugins(filter=[p for p in fwk.filter if p.name != "NodePorts"])
    assert sorted(p.name for p in fwk.pod_readers) == ["InterPodAffinity", "PodTopologySpread"]
    assert pod_reads_columns_only(ported, fwk)
