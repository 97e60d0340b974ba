"""NodeName, with the cases of upstream's `pkg/scheduler/framework/plugins/nodename/node_name_test.go`
(TestNodeName, TestNodeName_PreFilter)."""
import pytest

from builders import make_node, make_pod, make_state, node_statuses
from podgroup_plan.framework.interface import CycleState
from podgroup_plan.framework.status import Code
from podgroup_plan.plugins.node_name import NodeName

REJECT = ("UnschedulableAndUnresolvable", ("node(s) didn't match the requested node name",))


@pytest.mark.parametrize(
    "pod_node,node,want",
    [
        pytest.param(None, "foo", None, id="no host specified"),
        pytest.param("foo", "foo", None, id="host matches"),
        pytest.param("bar", "foo", REJECT, id="host doesn't match"),
    ],
)
def test_filter(pod_node, node, want):
    state = make_state([make_node(node)])
    pod = make_pod("p", node_name=pod_node)
    verdict = NodeName().filter(CycleState(), pod, state, state.all_nodes)
    assert node_statuses(verdict, state) == {node: want}


@pytest.mark.parametrize(
    "pod_node,want",
    [
        pytest.param(None, None, id="unassigned pod: no narrowing"),
        pytest.param("node-a", frozenset({"node-a"}), id="assigned pod: only its node"),
    ],
)
def test_pre_filter(pod_node, want):
    state = make_state([make_node("node-a"), make_node("node-b")])
    result = NodeName().pre_filter(CycleState(), make_pod("p", node_name=pod_node), state, state.all_nodes)
    assert result.status.code == Code.SUCCESS
    assert result.node_names == want


def test_filter_over_a_view_and_unknown_node():
    state = make_state([make_node("a"), make_node("b"), make_node("c")])
    assert NodeName().filter(CycleState(), make_pod("p", node_name="c"), state, state.all_nodes).passed.tolist() == [
        False, False, True]
    assert not NodeName().filter(CycleState(), make_pod("p", node_name="zz"), state, state.all_nodes).passed.any()
