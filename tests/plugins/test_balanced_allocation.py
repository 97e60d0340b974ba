"""NodeResourcesBalancedAllocation.

`test_balance_score_matches_upstream_pre_pr_expectations` reproduces the numbers of upstream's
`balanced_allocation_test.go` as it stood before PR #135573: those expected values are exactly
the balance of the node *with* the pod, which the 1.36+ score still computes. The final scores
of `test_score` are the same upstream scenarios under the 1.36+ formula
`50 + (50 + balance_with - balance_without) / 2`, computed by hand in the ids' comments (the
post-PR upstream test file was not available to copy numbers from; see the module docstring)."""
import numpy as np
import pytest

from builders import make_node, make_pod, make_state
from podgroup_plan.config.args import NodeResourcesBalancedAllocationArgs, ResourceSpec
from podgroup_plan.framework.interface import CycleState
from podgroup_plan.framework.status import Code
from podgroup_plan.plugins.balanced_allocation import NodeResourcesBalancedAllocation, balance_score

GPU = "nvidia.com/gpu"
CPU_MEM_GPU = NodeResourcesBalancedAllocationArgs(
    resources=(ResourceSpec("cpu", 1), ResourceSpec("memory", 1), ResourceSpec(GPU, 1))
)


@pytest.mark.parametrize(
    "requested,allocatable,want",
    [
        pytest.param([3000, 5000], [4000, 10000], 87, id="cpu 75% mem 50%: std 0.125"),
        pytest.param([3000, 5000], [6000, 10000], 100, id="cpu 50% mem 50%: balanced"),
        pytest.param([6000, 5000], [10000, 20000], 82, id="cpu 60% mem 25%: std 0.175"),
        pytest.param([6000, 10000], [10000, 20000], 95, id="cpu 60% mem 50%: std 0.05"),
        pytest.param([6000, 10000], [10000, 50000], 80, id="cpu 60% mem 20%: std 0.2"),
        pytest.param([6000, 0], [6000, 10000], 50, id="requested at node capacity, cpu 100% mem 0%"),
        pytest.param([6000, 5000], [6000, 10000], 75, id="cpu 100% mem 50%"),
        pytest.param([9000, 5000], [6000, 10000], 75, id="fractions above 1 are capped"),
        pytest.param([3000, 5000, 4], [3500, 40000, 8], 70, id="three resources: population std 0.3002"),
        pytest.param([3000, 5000, 1], [3500, 40000, 8], 65, id="three resources: std 0.345"),
        pytest.param([3000, 5000], [3500, 40000], 63, id="node without the scalar resource"),
        pytest.param([3000, 0, 1], [3500, 40000, 8], 62, id="three resources: std 0.378"),
        pytest.param([3000, 5000], [0, 0], 100, id="no allocatable: std 0"),
        pytest.param([3000, 5000], [4000, 0], 100, id="one fraction: std 0"),
    ],
)
def test_balance_score_matches_upstream_pre_pr_expectations(requested, allocatable, want):
    got = balance_score([np.array([r], dtype=np.int64) for r in requested],
                        [np.array([a], dtype=np.int64) for a in allocatable])
    assert got.tolist() == [want]


def cpu_mem(name, cpu, mem, node=None):
    return make_pod(name, node_name=node, requests={"cpu": cpu, "memory": mem})


CPU_ONLY = dict(cpu=3000, mem=0)
CPU_AND_MEMORY = dict(cpu=3000, mem=5000)

SCORE_CASES = [
    # with 87, without 100: 50 + (50+87-100)/2 = 68; with 100, without 100: 75
    pytest.param(cpu_mem("p", **CPU_AND_MEMORY), [("node1", 4000, 10000), ("node2", 6000, 10000)], [], None,
                 {"node1": 68, "node2": 75}, id="nothing scheduled, resources requested, differently sized nodes"),
    # node1: with 82 (60%/25%), without 85 (30%/0%): 73; node2: with 95 (60%/50%), without 97 (30%/25%): 74
    pytest.param(cpu_mem("p", **CPU_AND_MEMORY), [("node1", 10000, 20000), ("node2", 10000, 20000)],
                 [cpu_mem("e1", node="node1", **CPU_ONLY), cpu_mem("e2", node="node2", **CPU_AND_MEMORY)], None,
                 {"node1": 73, "node2": 74}, id="resources requested, pods scheduled with resources"),
    # node2: with 80 (60%/20%), without 90 (30%/10%): 70
    pytest.param(cpu_mem("p", **CPU_AND_MEMORY), [("node1", 10000, 20000), ("node2", 10000, 50000)],
                 [cpu_mem("e1", node="node1", **CPU_ONLY), cpu_mem("e2", node="node2", **CPU_AND_MEMORY)], None,
                 {"node1": 73, "node2": 70}, id="resources requested, pods scheduled, differently sized nodes"),
    # node1: with 50 (100%/0%), without 75 (50%/0%): 62; node2: with 75 (100%/50%), without 100: 62
    pytest.param(cpu_mem("p", **CPU_ONLY), [("node1", 6000, 10000), ("node2", 6000, 10000)],
                 [cpu_mem("e1", node="node1", **CPU_ONLY), cpu_mem("e2", node="node2", **CPU_AND_MEMORY)], None,
                 {"node1": 62, "node2": 62}, id="requested resources at node capacity"),
    # node1: with 70, without 69: 75; node2: with 65, without 62: 76
    pytest.param(make_pod("p", requests={GPU: 1}), [("node1", 3500, 40000, 8), ("node2", 3500, 40000, 8)],
                 [make_pod("e1", node_name="node1", requests={"cpu": 3000, "memory": 5000, GPU: 3}),
                  cpu_mem("e2", node="node2", **CPU_AND_MEMORY)], CPU_MEM_GPU,
                 {"node1": 75, "node2": 76}, id="include scalar resource on a node"),
    # the pod requests no GPU: skipped; with 63, without 100: 56
    pytest.param(cpu_mem("p", **CPU_AND_MEMORY), [("node1", 3500, 40000, 8), ("node2", 3500, 40000)], [],
                 CPU_MEM_GPU, {"node1": 56, "node2": 56}, id="node without the scalar resource skips it"),
]


@pytest.mark.parametrize("pod,nodes,existing,args,want", SCORE_CASES)
def test_score(pod, nodes, existing, args, want):
    built = [make_node(n[0], cpu=n[1], memory=n[2], allocatable={GPU: n[3]} if len(n) > 3 else None) for n in nodes]
    state = make_state(built, existing)
    plugin, cs = NodeResourcesBalancedAllocation(args), CycleState()
    assert plugin.pre_score(cs, pod, state, state.all_nodes).code == Code.SUCCESS
    raw = plugin.score(cs, pod, state, state.all_nodes)
    assert raw.dtype == np.int64
    assert dict(zip(state.node_names, plugin.normalize(cs, pod, raw).tolist())) == want


@pytest.mark.parametrize(
    "pod,want",
    [
        pytest.param(make_pod("p"), Code.SKIP, id="best-effort pod: skip in PreScore"),
        pytest.param(make_pod("p", containers_without_requests=2), Code.SKIP,
                     id="non-zero defaults do not count: still best effort"),
        pytest.param(make_pod("p", requests={"ephemeral-storage": 5}), Code.SKIP,
                     id="requests outside the configured resources do not count"),
        pytest.param(make_pod("p", requests={"cpu": 1}), Code.SUCCESS, id="any configured request scores"),
    ],
)
def test_pre_score_skips_best_effort_pods(pod, want):
    state = make_state([make_node("n", cpu=4000, memory=10000)])
    assert NodeResourcesBalancedAllocation().pre_score(CycleState(), pod, state, state.all_nodes).code == want


def test_no_change_in_balance_scores_75_and_range():
    state = make_state([make_node("a", cpu=4000, memory=4000), make_node("b", cpu=4000, memory=4000)],
                       [make_pod("e", node_name="b", requests={"cpu": 4000})])
    pod = make_pod("p", requests={"cpu": 0, "memory": 4000})
    plugin, cs = NodeResourcesBalancedAllocation(), CycleState()
    plugin.pre_score(cs, pod, state, state.all_nodes)
    # a: balanced -> fully unbalanced (0%/100%): 50; b: unbalanced -> fully balanced: 100
    assert plugin.score(cs, pod, state, state.all_nodes).tolist() == [50, 100]
