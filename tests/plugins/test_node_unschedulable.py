"""NodeUnschedulable, with the cases of upstream's
`pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable_test.go`."""
import pytest

from builders import make_node, make_pod, make_state, node_statuses
from podgroup_plan.framework.interface import CycleState
from podgroup_plan.model.objects import Toleration
from podgroup_plan.plugins.node_unschedulable import NodeUnschedulable

KEY = "node.kubernetes.io/unschedulable"
REJECT = ("UnschedulableAndUnresolvable", ("node(s) were unschedulable",))

CASES = [
    pytest.param(True, (), REJECT, id="does not schedule a pod to an unschedulable node"),
    pytest.param(False, (), None, id="schedules a pod to a normal node"),
    pytest.param(True, (Toleration(key=KEY, effect="NoSchedule"),), None,
                 id="schedules a pod tolerating the unschedulable taint to an unschedulable node"),
    pytest.param(True, (Toleration(key=KEY, operator="Exists"),), None,
                 id="Exists toleration without effect also tolerates the cordon"),
    pytest.param(True, (Toleration(operator="Exists"),), None, id="tolerate-everything toleration"),
    pytest.param(True, (Toleration(key=KEY, effect="NoExecute"),), REJECT,
                 id="toleration for another effect does not tolerate the cordon"),
    pytest.param(True, (Toleration(key=KEY, value="x", effect="NoSchedule"),), REJECT,
                 id="Equal with a non-empty value does not match the empty taint value"),
]


@pytest.mark.parametrize("unschedulable,tolerations,want", CASES)
def test_filter(unschedulable, tolerations, want):
    state = make_state([make_node("node", unschedulable=unschedulable)])
    verdict = NodeUnschedulable().filter(CycleState(), make_pod("p", tolerations=tolerations), state, state.all_nodes)
    assert node_statuses(verdict, state) == {"node": want}


def test_only_cordoned_nodes_of_the_view_are_rejected():
    state = make_state([make_node("a"), make_node("b", unschedulable=True), make_node("c")])
    plugin = NodeUnschedulable()
    verdict = plugin.filter(CycleState(), make_pod("p"), state, state.all_nodes[1:])
    assert verdict.passed.tolist() == [False, True]
