"""NodePorts, with the cases of upstream's `pkg/scheduler/framework/plugins/nodeports/node_ports_test.go`
(TestNodePorts), written as "PROTOCOL/hostIP/port" like upstream's newPod helper."""
import numpy as np
import pytest

from builders import make_node, make_pod, make_state, node_statuses
from podgroup_plan.framework.interface import CycleState
from podgroup_plan.framework.status import Code
from podgroup_plan.model.objects import HostPort
from podgroup_plan.plugins.node_ports import NodePorts

CONFLICT = ("Unschedulable", ("node(s) didn't have free ports for the requested pod ports",))


def ports(*specs):
    out = []
    for spec in specs:
        proto, ip, port = spec.split("/")
        out.append(HostPort(port=int(port), protocol=proto, host_ip=ip))
    return tuple(out)


CASES = [
    pytest.param(("UDP/127.0.0.1/8080",), ("UDP/127.0.0.1/9090",), None, id="other port"),
    pytest.param(("UDP/127.0.0.1/8080",), ("UDP/127.0.0.1/8080",), CONFLICT, id="same udp port"),
    pytest.param(("TCP/127.0.0.1/8080",), ("TCP/127.0.0.1/8080",), CONFLICT, id="same tcp port"),
    pytest.param(("TCP/127.0.0.1/8080",), ("TCP/127.0.0.2/8080",), None, id="different host ip"),
    pytest.param(("UDP/127.0.0.1/8080",), ("TCP/127.0.0.1/8080",), None, id="different protocol"),
    pytest.param(("UDP/127.0.0.1/8000", "UDP/127.0.0.1/8080"), ("UDP/127.0.0.1/8080",), CONFLICT,
                 id="second udp port conflict"),
    pytest.param(("TCP/127.0.0.1/8001", "UDP/127.0.0.1/8080"), ("TCP/127.0.0.1/8001", "UDP/127.0.0.1/8081"),
                 CONFLICT, id="first tcp port conflict"),
    pytest.param(("TCP/0.0.0.0/8001",), ("TCP/127.0.0.1/8001",), CONFLICT,
                 id="first tcp port conflict due to 0.0.0.0 hostIP"),
    pytest.param(("TCP/10.0.10.10/8001", "TCP/0.0.0.0/8001"), ("TCP/127.0.0.1/8001",), CONFLICT,
                 id="TCP hostPort conflict due to 0.0.0.0 hostIP"),
    pytest.param(("TCP/127.0.0.1/8001",), ("TCP/0.0.0.0/8001",), CONFLICT,
                 id="second tcp port conflict to 0.0.0.0 hostIP"),
    pytest.param(("UDP/127.0.0.1/8001",), ("TCP/0.0.0.0/8001",), None, id="second different protocol"),
    pytest.param(("UDP/127.0.0.1/8001",), ("TCP/0.0.0.0/8001", "UDP/0.0.0.0/8001"), CONFLICT,
                 id="UDP hostPort conflict due to 0.0.0.0 hostIP"),
    pytest.param(("TCP//8001",), ("TCP/127.0.0.1/8001",), CONFLICT, id="empty hostIP means 0.0.0.0"),
    pytest.param(("/127.0.0.1/8001",), ("TCP/127.0.0.1/8001",), CONFLICT, id="empty protocol means TCP"),
]


@pytest.mark.parametrize("wanted,used,want", CASES)
def test_filter(wanted, used, want):
    existing = make_pod("existing", node_name="m1", host_ports=ports(*used))
    state = make_state([make_node("m1")], [existing])
    pod = make_pod("pod", host_ports=ports(*wanted))
    plugin, cs = NodePorts(), CycleState()
    assert plugin.pre_filter(cs, pod, state, state.all_nodes).status.code == Code.SUCCESS
    assert node_statuses(plugin.filter(cs, pod, state, state.all_nodes), state) == {"m1": want}


def test_pre_filter_skips_pods_without_host_ports():
    state = make_state([make_node("m1")])
    result = NodePorts().pre_filter(CycleState(), make_pod("p"), state, state.all_nodes)
    assert result.status.code == Code.SKIP


def test_ports_follow_assume_forget_and_rollback():
    state = make_state([make_node("a"), make_node("b")])
    plugin = NodePorts()
    pod = make_pod("p", host_ports=ports("TCP/0.0.0.0/80"))
    assert plugin.filter(CycleState(), pod, state, state.all_nodes).passed.all()
    holder = make_pod("holder", host_ports=ports("TCP/10.0.0.1/80"))
    with state.tentative():
        state.assume(holder, 1)
        assert plugin.filter(CycleState(), pod, state, state.all_nodes).passed.tolist() == [True, False]
        # A pod on another IP of the same port does not conflict with a specific IP.
        other_ip = make_pod("q", host_ports=ports("TCP/10.0.0.2/80"))
        assert plugin.filter(CycleState(), other_ip, state, state.all_nodes).passed.all()
    assert plugin.filter(CycleState(), pod, state, np.array([1])).passed.tolist() == [True]
