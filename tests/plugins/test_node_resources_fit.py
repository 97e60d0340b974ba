"""NodeResourcesFit: Filter cases of upstream's `fit_test.go` (TestEnoughRequests,
TestNotEnoughRequests, TestStorageRequests) with the newest status codes (Unschedulable, or
UnschedulableAndUnresolvable when a request exceeds the node's whole allocatable), and the
Score cases of `least_allocated_test.go`, `most_allocated_test.go` and
`requested_to_capacity_ratio_test.go` (including TestBrokenLinearFunction,
TestResourceBinPackingSingleExtended and TestResourceBinPackingMultipleExtended).

Upstream's fit tests give cpu in whole cores; here cpu is in millicores throughout, with the
same ratios, so every expected number is upstream's."""
import numpy as np
import pytest

from builders import DEFAULT_MEMORY_REQUEST, make_node, make_pod, make_state, node_statuses
from podgroup_plan.config.args import (
    LEAST_ALLOCATED,
    MOST_ALLOCATED,
    REQUESTED_TO_CAPACITY_RATIO,
    NodeResourcesFitArgs,
    ResourceSpec,
    ScoringStrategy,
    UtilizationShapePoint,
)
from podgroup_plan.framework.interface import CycleState
from podgroup_plan.framework.status import Code
from podgroup_plan.plugins.node_resources_fit import (
    NodeResourcesFit,
    broken_linear,
    is_extended_resource_name,
    is_scalar_resource_name,
)

EXT_A = "example.com/aaa"
EXT_B = "example.com/bbb"
K8S_IO_A = "kubernetes.io/something"
K8S_IO_B = "subdomain.kubernetes.io/something"
HUGE_A = "hugepages-2Mi"

# makeAllocatableResources(10, 20, 32, 5, 20, 5): cpu 10, memory 20, pods 32, extA 5,
# ephemeral-storage 20, hugepages 5.
ALLOC = {"cpu": 10, "memory": 20, "pods": 32, EXT_A: 5, "ephemeral-storage": 20, HUGE_A: 5}


def U(*reasons):
    return ("Unschedulable", tuple(reasons))


def UU(*reasons):
    return ("UnschedulableAndUnresolvable", tuple(reasons))


def ins(name):
    return f"Insufficient {name}"


ENOUGH_CASES = [
    # (pod request, node used by an existing pod, args, want)
    pytest.param({}, {"cpu": 10, "memory": 20}, None, None, id="no resources requested always fits"),
    pytest.param({"cpu": 1, "memory": 1}, {"cpu": 10, "memory": 20}, None, U(ins("cpu"), ins("memory")),
                 id="too many resources fails"),
    pytest.param({"cpu": 3, "memory": 1}, {"cpu": 8, "memory": 19}, None, U(ins("cpu")),
                 id="too many resources fails due to init container cpu"),
    pytest.param({"cpu": 1, "memory": 3}, {"cpu": 9, "memory": 19}, None, U(ins("memory")),
                 id="too many resources fails due to init container memory"),
    pytest.param({"cpu": 1, "memory": 1}, {"cpu": 9, "memory": 19}, None, None,
                 id="init container fits because it's the max, not sum"),
    pytest.param({"cpu": 1, "memory": 1}, {"cpu": 5, "memory": 5}, None, None, id="both resources fit"),
    pytest.param({"cpu": 2, "memory": 1}, {"cpu": 9, "memory": 5}, None, U(ins("cpu")), id="one resource memory fits"),
    pytest.param({"cpu": 1, "memory": 2}, {"cpu": 5, "memory": 19}, None, U(ins("memory")), id="one resource cpu fits"),
    pytest.param({"cpu": 5, "memory": 1}, {"cpu": 5, "memory": 19}, None, None, id="equal edge case"),
    pytest.param({EXT_A: 1}, {}, None, None, id="extended resource fits"),
    pytest.param({"cpu": 1, "memory": 1, EXT_A: 10}, {}, None, UU(ins(EXT_A)),
                 id="extended resource capacity enforced (request above allocatable: unresolvable)"),
    pytest.param({"cpu": 1, "memory": 1, EXT_A: 1}, {EXT_A: 5}, None, U(ins(EXT_A)),
                 id="extended resource allocatable enforced"),
    pytest.param({"cpu": 2, "memory": 2, EXT_A: 6}, {EXT_A: 2}, None, UU(ins(EXT_A)),
                 id="extended resource allocatable enforced for multiple containers"),
    pytest.param({"cpu": 1, "memory": 1, EXT_A: 3}, {EXT_A: 2}, None, None,
                 id="extended resource allocatable admits multiple init containers"),
    pytest.param({"cpu": 1, "memory": 1, EXT_B: 1}, {}, None, UU(ins(EXT_B)),
                 id="extended resource allocatable enforced for unknown resource"),
    pytest.param({"cpu": 1, "memory": 1, K8S_IO_A: 10}, {}, None, UU(ins(K8S_IO_A)),
                 id="kubernetes.io resource capacity enforced"),
    pytest.param({"cpu": 1, "memory": 1, K8S_IO_B: 10}, {}, None, UU(ins(K8S_IO_B)),
                 id="subdomain kubernetes.io resource capacity enforced"),
    pytest.param({"cpu": 1, "memory": 1, HUGE_A: 10}, {HUGE_A: 0}, None, UU(ins(HUGE_A)),
                 id="hugepages resource capacity enforced"),
    pytest.param({"cpu": 1, "memory": 1, HUGE_A: 6}, {HUGE_A: 2}, None, UU(ins(HUGE_A)),
                 id="hugepages resource allocatable enforced for multiple containers"),
    pytest.param({"cpu": 1, "memory": 1, EXT_B: 1}, {}, NodeResourcesFitArgs(ignored_resources=(EXT_B,)), None,
                 id="skip checking ignored extended resource"),
    pytest.param({"cpu": 4, "memory": 14}, {"cpu": 5, "memory": 5}, None, None,
                 id="resources + pod overhead fits"),
    pytest.param({"cpu": 4, "memory": 17}, {"cpu": 5, "memory": 5}, None, U(ins("memory")),
                 id="requests + overhead does not fit for memory"),
    pytest.param({"cpu": 1, "memory": 1, EXT_B: 1}, {}, NodeResourcesFitArgs(ignored_resource_groups=("example.com",)),
                 None, id="skip checking ignored extended resource via resource groups"),
    pytest.param({"cpu": 1, "memory": 1, EXT_A: 0}, {}, None, None, id="skip checking resource request with quantity zero"),
    pytest.param({"cpu": 1, "memory": 1, K8S_IO_A: 10}, {}, NodeResourcesFitArgs(ignored_resources=(K8S_IO_A,)),
                 UU(ins(K8S_IO_A)), id="ignoredResources only apply to extended resources"),
    pytest.param({"cpu": 11, "memory": 1, EXT_A: 1}, {EXT_A: 5}, None, UU(ins("cpu"), ins(EXT_A)),
                 id="one unresolvable reason makes the whole node unresolvable"),
    pytest.param({"ephemeral-storage": 25}, {"ephemeral-storage": 2}, None, UU(ins("ephemeral-storage")),
                 id="ephemeral local storage request exceeds allocatable"),
    pytest.param({"ephemeral-storage": 10}, {"ephemeral-storage": 2}, None, None,
                 id="ephemeral local storage is sufficient"),
    pytest.param({"ephemeral-storage": 19}, {"ephemeral-storage": 2}, None, U(ins("ephemeral-storage")),
                 id="ephemeral local storage used by other pods"),
    pytest.param({"foo": 5, "cpu": 1}, {}, None, None, id="a non-scalar unknown name is not part of the request"),
]


@pytest.mark.parametrize("request_,used,args,want", ENOUGH_CASES)
def test_filter(request_, used, args, want):
    node = make_node("node", allocatable=ALLOC)
    existing = make_pod("existing", node_name="node", requests=used)
    state = make_state([node], [existing])
    pod = make_pod("pod", requests=request_)
    plugin, cs = NodeResourcesFit(args), CycleState()
    assert plugin.pre_filter(cs, pod, state, state.all_nodes).status.code == Code.SUCCESS
    assert node_statuses(plugin.filter(cs, pod, state, state.all_nodes), state) == {"node": want}


@pytest.mark.parametrize(
    "request_,want",
    [
        pytest.param({}, U("Too many pods"), id="even without requests"),
        pytest.param({"cpu": 1, "memory": 1}, U("Too many pods"), id="due to pods only"),
        pytest.param({"cpu": 1, "memory": 3}, U("Too many pods", ins("memory")), id="due to pods and memory"),
        pytest.param({"cpu": 1, "memory": 30}, UU("Too many pods", ins("memory")), id="memory above allocatable"),
    ],
)
def test_filter_not_enough_pods(request_, want):
    # TestNotEnoughRequests: a node that allows 1 pod and already runs one.
    node = make_node("node", allocatable={"cpu": 10, "memory": 20, "pods": 1})
    state = make_state([node], [make_pod("existing", node_name="node", requests={"cpu": 5, "memory": 18})])
    pod = make_pod("pod", requests=request_)
    verdict = NodeResourcesFit().filter(CycleState(), pod, state, state.all_nodes)
    assert node_statuses(verdict, state) == {"node": want}


def test_filter_groups_nodes_by_their_own_reasons_and_code():
    nodes = [make_node(f"n{i}", cpu=c, memory=m) for i, (c, m) in enumerate([(4000, 4), (1000, 4), (4000, 1), (500, 1)])]
    state = make_state(nodes)
    pod = make_pod("p", requests={"cpu": 2000, "memory": 2})
    verdict = NodeResourcesFit().filter(CycleState(), pod, state, state.all_nodes)
    assert node_statuses(verdict, state) == {
        "n0": None,
        "n1": UU(ins("cpu")),
        "n2": UU(ins("memory")),
        "n3": UU(ins("cpu"), ins("memory")),
    }
    view = np.array([1, 3])
    assert node_statuses(NodeResourcesFit().filter(CycleState(), pod, state, view), state, view) == {
        "n1": UU(ins("cpu")), "n3": UU(ins("cpu"), ins("memory"))}


def test_gpu_filter_and_extended_rows():
    nodes = [make_node("cpu-only", cpu="8", memory="32Gi"),
             make_node("gpu", cpu="8", memory="32Gi", allocatable={"nvidia.com/gpu": 4})]
    state = make_state(nodes, [make_pod("busy", node_name="gpu", requests={"nvidia.com/gpu": 3})])
    pod = make_pod("train", requests={"cpu": "1", "nvidia.com/gpu": 2})
    verdict = NodeResourcesFit().filter(CycleState(), pod, state, state.all_nodes)
    assert node_statuses(verdict, state) == {
        "cpu-only": UU(ins("nvidia.com/gpu")), "gpu": U(ins("nvidia.com/gpu"))}


@pytest.mark.parametrize(
    "name,extended,scalar",
    [
        ("cpu", False, False),
        ("example.com/aaa", True, True),
        ("kubernetes.io/something", False, True),
        ("subdomain.kubernetes.io/something", False, True),
        ("hugepages-2Mi", False, True),
        ("attachable-volumes-aws-ebs", False, True),
        ("requests.example.com/x", False, False),
        ("foo", False, False),
    ],
)
def test_resource_name_classes(name, extended, scalar):
    assert is_extended_resource_name(name) is extended
    assert is_scalar_resource_name(name) is scalar


# ----- Score ------------------------------------------------------------------------------

DEFAULT = (ResourceSpec("cpu", 1), ResourceSpec("memory", 1))
EXT_RES = "vendor-domain/resource"
EXT_SET = (ResourceSpec("cpu", 1), ResourceSpec("memory", 1), ResourceSpec(EXT_RES, 1))


def score(strategy, pod, nodes, existing=(), resources=DEFAULT, shape=()):
    state = make_state(nodes, existing)
    args = NodeResourcesFitArgs(scoring_strategy=ScoringStrategy(type=strategy, resources=resources, shape=shape))
    plugin, cs = NodeResourcesFit(args), CycleState()
    assert plugin.pre_score(cs, pod, state, state.all_nodes).code == Code.SUCCESS
    raw = plugin.score(cs, pod, state, state.all_nodes)
    assert raw.dtype == np.int64
    out = plugin.normalize(cs, pod, raw)
    return dict(zip(state.node_names, out.tolist()))


def N(name, cpu, mem, **extra):
    return make_node(name, cpu=cpu, memory=mem, allocatable=extra.pop("alloc", None))


def P(name="p", node=None, cpu=None, mem=None, **kw):
    req = {}
    if cpu is not None:
        req["cpu"] = cpu
    if mem is not None:
        req["memory"] = mem
    req.update(kw.pop("extra", {}))
    return make_pod(name, node_name=node, requests=req, **kw)


TWO_CONTAINERS = dict(cpu=3000, mem=5000)  # Req(1000, 2000) + Req(2000, 3000)

LEAST_CASES = [
    pytest.param(P(), [N("node1", 4000, 10000), N("node2", 4000, 10000)], [], DEFAULT,
                 {"node1": 100, "node2": 100}, id="nothing scheduled, nothing requested"),
    pytest.param(P(**TWO_CONTAINERS), [N("node1", 4000, 10000), N("node2", 6000, 10000)], [], DEFAULT,
                 {"node1": 37, "node2": 50}, id="nothing scheduled, resources requested, differently sized nodes"),
    pytest.param(P(), [N("node1", 4000, 10000), N("node2", 4000, 10000)],
                 [P("e1", "node1"), P("e2", "node1"), P("e3", "node2"), P("e4", "node2")], DEFAULT,
                 {"node1": 100, "node2": 100}, id="no resources requested, pods scheduled"),
    pytest.param(P(), [N("node1", 10000, 20000), N("node2", 10000, 20000)],
                 [P("e1", "node1", 3000, 0), P("e2", "node1", 3000, 0), P("e3", "node2", 3000, 0),
                  P("e4", "node2", 3000, 5000)], DEFAULT,
                 {"node1": 70, "node2": 57}, id="no resources requested, pods scheduled with resources"),
    pytest.param(P(**TWO_CONTAINERS), [N("node1", 10000, 20000), N("node2", 10000, 20000)],
                 [P("e1", "node1", 3000, 0), P("e2", "node2", 3000, 5000)], DEFAULT,
                 {"node1": 57, "node2": 45}, id="resources requested, pods scheduled with resources"),
    pytest.param(P(**TWO_CONTAINERS), [N("node1", 10000, 20000), N("node2", 10000, 50000)],
                 [P("e1", "node1", 3000, 0), P("e2", "node2", 3000, 5000)], DEFAULT,
                 {"node1": 57, "node2": 60}, id="resources requested, pods scheduled, differently sized nodes"),
    pytest.param(P(cpu=3000, mem=0), [N("node1", 4000, 10000), N("node2", 4000, 10000)],
                 [P("e1", "node1", 3000, 0), P("e2", "node2", 3000, 5000)], DEFAULT,
                 {"node1": 50, "node2": 25}, id="requested resources exceed node capacity"),
    pytest.param(P(), [make_node("node1"), make_node("node2")],
                 [P("e1", "node1", 3000, 0), P("e2", "node2", 3000, 5000)], DEFAULT,
                 {"node1": 0, "node2": 0}, id="zero node resources, pods scheduled with resources"),
    pytest.param(P(**TWO_CONTAINERS), [N("node1", 4000, 10000), N("node2", 6000, 10000)], [],
                 (ResourceSpec("memory", 2), ResourceSpec("cpu", 1)),
                 {"node1": 41, "node2": 50}, id="different weight on cpu and memory"),
    pytest.param(P(**TWO_CONTAINERS), [N("node1", 6000, 10000), N("node2", 6000, 10000, alloc={EXT_RES: 4})], [],
                 EXT_SET, {"node1": 50, "node2": 50}, id="bypass extended resource if the pod does not request"),
    pytest.param(P(cpu=3000, mem=5000, extra={EXT_RES: 2}),
                 [N("node1", 6000, 10000, alloc={EXT_RES: 4}), N("node2", 6000, 10000, alloc={EXT_RES: 10})], [],
                 EXT_SET, {"node1": 50, "node2": 60}, id="honor extended resource if the pod requests"),
    pytest.param(P(cpu=3000, mem=4000), [N("node1", 6000, 10000), N("node2", 6000, 10000, alloc={EXT_RES: 4})], [],
                 (ResourceSpec(EXT_RES, 2), ResourceSpec("cpu", 1), ResourceSpec("memory", 1)),
                 {"node1": 55, "node2": 55}, id="if the node doesn't have a resource"),
]


@pytest.mark.parametrize("pod,nodes,existing,resources,want", LEAST_CASES)
def test_least_allocated(pod, nodes, existing, resources, want):
    assert score(LEAST_ALLOCATED, pod, nodes, existing, resources) == want


MOST_CASES = [
    pytest.param(P(), [N("node1", 4000, 10000), N("node2", 4000, 10000)], [], DEFAULT,
                 {"node1": 0, "node2": 0}, id="nothing scheduled, nothing requested"),
    pytest.param(P(**TWO_CONTAINERS), [N("node1", 4000, 10000), N("node2", 6000, 10000)], [], DEFAULT,
                 {"node1": 62, "node2": 50}, id="nothing scheduled, resources requested, differently sized nodes"),
    pytest.param(P(), [N("node1", 10000, 20000), N("node2", 10000, 20000)],
                 [P("e1", "node1", 3000, 0), P("e2", "node1", 3000, 0), P("e3", "node2", 3000, 0),
                  P("e4", "node2", 3000, 5000)], DEFAULT,
                 {"node1": 30, "node2": 42}, id="no resources requested, pods scheduled with resources"),
    pytest.param(P(**TWO_CONTAINERS), [N("node1", 10000, 20000), N("node2", 10000, 20000)],
                 [P("e1", "node1", 3000, 0), P("e2", "node2", 3000, 5000)], DEFAULT,
                 {"node1": 42, "node2": 55}, id="resources requested, pods scheduled with resources"),
    pytest.param(P(cpu=5000, mem=9000), [N("node1", 5000, 10000), N("node2", 10000, 9000)], [], DEFAULT,
                 {"node1": 95, "node2": 75}, id="resources requested equal node capacity"),
    pytest.param(P(**TWO_CONTAINERS), [N("node1", 4000, 10000), N("node2", 6000, 10000)], [],
                 (ResourceSpec("memory", 2), ResourceSpec("cpu", 1)),
                 {"node1": 58, "node2": 50}, id="different weight on cpu and memory"),
    pytest.param(make_pod("p", containers_without_requests=1),
                 [make_node("node1", cpu="250m", memory="1000Mi"), make_node("node2", cpu="250m", memory="1000Mi")],
                 [make_pod("e1", node_name="node1", containers_without_requests=1),
                  make_pod("e2", node_name="node1", containers_without_requests=1)], DEFAULT,
                 {"node1": 80, "node2": 30}, id="no resources requested, pods scheduled, nonzero request for resource"),
    pytest.param(P(**TWO_CONTAINERS), [N("node1", 6000, 10000), N("node2", 6000, 10000, alloc={EXT_RES: 4})], [],
                 EXT_SET, {"node1": 50, "node2": 50}, id="bypass extended resource if the pod does not request"),
    pytest.param(P(cpu=3000, mem=5000, extra={EXT_RES: 2}),
                 [N("node1", 6000, 10000, alloc={EXT_RES: 4}), N("node2", 6000, 10000, alloc={EXT_RES: 10})], [],
                 EXT_SET, {"node1": 50, "node2": 40}, id="honor extended resource if the pod requests"),
    pytest.param(P(cpu=3000, mem=4000), [N("node1", 6000, 10000), N("node2", 6000, 10000, alloc={EXT_RES: 4})], [],
                 (ResourceSpec(EXT_RES, 2), ResourceSpec("cpu", 1), ResourceSpec("memory", 1)),
                 {"node1": 45, "node2": 45}, id="if the node doesn't have a resource"),
]


@pytest.mark.parametrize("pod,nodes,existing,resources,want", MOST_CASES)
def test_most_allocated(pod, nodes, existing, resources, want):
    assert score(MOST_ALLOCATED, pod, nodes, existing, resources) == want


def shape(*points):
    return tuple(UtilizationShapePoint(u, s) for u, s in points)


LEAST_SHAPE = shape((0, 10), (100, 0))
BIN_PACKING = shape((0, 0), (100, 1))
FOO, BAR = "intel.com/foo", "intel.com/bar"

RTCR_CASES = [
    pytest.param(P(), [N("node1", 4000, 10000), N("node2", 4000, 10000)], [P("e1", "node1"), P("e2", "node1")],
                 DEFAULT, LEAST_SHAPE, {"node1": 100, "node2": 100},
                 id="nothing scheduled, nothing requested (least requested shape)"),
    pytest.param(P(**TWO_CONTAINERS), [N("node1", 4000, 10000), N("node2", 6000, 10000)],
                 [P("e1", "node1"), P("e2", "node1")], DEFAULT, LEAST_SHAPE, {"node1": 38, "node2": 50},
                 id="nothing scheduled, resources requested, differently sized nodes (rounded)"),
    pytest.param(P(), [N("node1", 4000, 10000), N("node2", 6000, 10000)],
                 [P("e1", "node1", 3000, 5000), P("e2", "node2", 3000, 5000)], DEFAULT, LEAST_SHAPE,
                 {"node1": 38, "node2": 50}, id="no resources requested, pods scheduled with resources"),
    # TestResourceBinPackingSingleExtended
    pytest.param(P(), [N("node1", 4000, 10000 * 2**20, alloc={FOO: 8}), N("node2", 4000, 10000 * 2**20, alloc={FOO: 4})],
                 [], (ResourceSpec(FOO, 1),), BIN_PACKING, {"node1": 0, "node2": 0},
                 id="single extended: nothing requested"),
    pytest.param(P(extra={FOO: 2}), [N("node1", 4000, 10000 * 2**20, alloc={FOO: 8}),
                                     N("node2", 4000, 10000 * 2**20, alloc={FOO: 4})],
                 [P("e1")], (ResourceSpec(FOO, 1),), BIN_PACKING, {"node1": 2, "node2": 5},
                 id="single extended: pods scheduled with less resources"),
    pytest.param(P(extra={FOO: 2}), [N("node1", 4000, 10000 * 2**20, alloc={FOO: 8}),
                                     N("node2", 4000, 10000 * 2**20, alloc={FOO: 4})],
                 [P("e1", "node2", extra={FOO: 2})], (ResourceSpec(FOO, 1),), BIN_PACKING, {"node1": 2, "node2": 10},
                 id="single extended: on node with existing pod running"),
    pytest.param(P(extra={FOO: 4}), [N("node1", 4000, 10000 * 2**20, alloc={FOO: 8}),
                                     N("node2", 4000, 10000 * 2**20, alloc={FOO: 4})],
                 [P("e1")], (ResourceSpec(FOO, 1),), BIN_PACKING, {"node1": 5, "node2": 10},
                 id="single extended: pods scheduled with more resources"),
    # TestResourceBinPackingMultipleExtended (weights foo 3, bar 5)
    pytest.param(P(), [N("node1", 4000, 10000 * 2**20, alloc={FOO: 8, BAR: 4}),
                       N("node2", 4000, 10000 * 2**20, alloc={FOO: 4, BAR: 8})],
                 [], (ResourceSpec(FOO, 3), ResourceSpec(BAR, 5)), BIN_PACKING, {"node1": 0, "node2": 0},
                 id="multiple extended: nothing requested"),
    pytest.param(P(extra={FOO: 2, BAR: 2}), [N("node1", 4000, 10000 * 2**20, alloc={FOO: 8, BAR: 4}),
                                             N("node2", 4000, 10000 * 2**20, alloc={FOO: 4, BAR: 8})],
                 [P("e1")], (ResourceSpec(FOO, 3), ResourceSpec(BAR, 5)), BIN_PACKING, {"node1": 4, "node2": 3},
                 id="multiple extended: pods scheduled with less resources"),
    pytest.param(P(extra={FOO: 2, BAR: 2}), [N("node1", 4000, 10000 * 2**20, alloc={FOO: 8, BAR: 4}),
                                             N("node2", 4000, 10000 * 2**20, alloc={FOO: 4, BAR: 8})],
                 [P("e1", "node2", extra={FOO: 2, BAR: 2})], (ResourceSpec(FOO, 3), ResourceSpec(BAR, 5)), BIN_PACKING,
                 {"node1": 4, "node2": 7}, id="multiple extended: on node with existing pod running"),
    pytest.param(P(extra={FOO: 4, BAR: 2}), [N("node1", 4000, 10000 * 2**20, alloc={FOO: 8, BAR: 4}),
                                             N("node2", 4000, 10000 * 2**20, alloc={FOO: 4, BAR: 8})],
                 [P("e1")], (ResourceSpec(FOO, 3), ResourceSpec(BAR, 5)), BIN_PACKING, {"node1": 5, "node2": 5},
                 id="multiple extended: pods scheduled with more resources"),
]


@pytest.mark.parametrize("pod,nodes,existing,resources,shape_,want", RTCR_CASES)
def test_requested_to_capacity_ratio(pod, nodes, existing, resources, shape_, want):
    assert score(REQUESTED_TO_CAPACITY_RATIO, pod, nodes, existing, resources, shape_) == want


BROKEN_LINEAR_CASES = [
    pytest.param(((10, 1), (90, 9)),
                 {-10: 1, 0: 1, 9: 1, 10: 1, 15: 1, 19: 1, 20: 2, 89: 8, 90: 9, 99: 9, 100: 9, 110: 9}, id="case_0"),
    pytest.param(((0, 2), (40, 10), (100, 0)),
                 {-10: 2, 0: 2, 20: 6, 30: 8, 40: 10, 70: 5, 100: 0, 110: 0}, id="case_1"),
    pytest.param(((0, 2), (40, 2), (100, 2)),
                 {-10: 2, 0: 2, 20: 2, 30: 2, 40: 2, 70: 2, 100: 2, 110: 2}, id="case_2"),
    pytest.param(((0, 100), (70, 0)), {33: 53, 1: 99}, id="decreasing segment truncates toward zero"),
]


@pytest.mark.parametrize("points,assertions", BROKEN_LINEAR_CASES)
def test_broken_linear_function(points, assertions):
    p = np.array(list(assertions), dtype=np.int64)
    assert broken_linear(points, p).tolist() == list(assertions.values())


def test_memory_non_zero_default_is_200_mib():
    assert DEFAULT_MEMORY_REQUEST == 200 * 1024 * 1024
