"""`Planner.submit()` + `run()` against `plan()` of the input with the same work in it (hypothesis).

Work submitted after a plan arrives when the plan has settled: a pod the plan's first pass
failed and its second placed (a preemptor, nominated in pass 1) is bound before the new work is
tried. Planned at once, the same work (queued after everything else: priority 0, a later
creationTimestamp) is tried at the end of the first pass instead, beside the nomination. So the
two agree whenever the input's plan does all its work in its first pass (a second pass that
changes nothing ends it); for the others, a Planner that submits inside a scope taken back and
then again outside it must agree with one that only submitted outside."""
from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings, strategies as st

from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import Node, Pod, PodGroup
from podgroup_plan.planner import plan
from podgroup_plan.planner import Planner

PRIORITIES = [0, 10, 100]
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _pod(name, cpu, priority=0, node=None, group=None, stamp="2026-01-01T00:00:00Z", app="x"):
    return Pod(namespace="ns", name=name, labels={"app": app}, pod_group=group, node_name=node,
               requests={"cpu": cpu, "memory": 1 << 30}, non_zero_cpu=cpu, non_zero_memory=1 << 30,
               priority=priority, phase="Running" if node else "Pending",
               start_time="2026-01-01T00:00:00Z" if node else None, creation_timestamp=stamp)


def _group(name, priority, min_count, stamp="2026-01-01T00:00:00Z"):
    return PodGroup(namespace="ns", name=name, api_version="scheduling.k8s.io/v1beta1", policy="Gang",
                    min_count=min_count, priority=priority, creation_timestamp=stamp)


@st.composite
def base_and_extra(draw):
    nodes = tuple(Node(name=f"node-{i}", labels={"kubernetes.io/hostname": f"node-{i}"},
                       allocatable={"cpu": 4000, "memory": 16 << 30, "pods": 110})
                  for i in range(draw(st.integers(1, 4))))
    cpu = st.sampled_from([500, 1000, 2000, 3000])
    pods, groups = [], []
    for k in range(draw(st.integers(0, 5))):
        pods.append(_pod(f"run-{k}", draw(cpu), 0, draw(st.sampled_from(nodes)).name))
    for g in range(draw(st.integers(0, 2))):
        size, prio = draw(st.integers(1, 3)), draw(st.sampled_from(PRIORITIES))
        groups.append(_group(f"gang-{g}", prio, draw(st.integers(1, size))))
        pods += [_pod(f"gang-{g}-{j}", draw(cpu), prio, group=f"gang-{g}") for j in range(size)]
    for k in range(draw(st.integers(0, 4))):
        pods.append(_pod(f"pod-{k}", draw(cpu), draw(st.sampled_from(PRIORITIES))))
    # the work submitted later: queued after all of the above (priority 0, a later timestamp)
    later = "2026-01-02T00:00:00Z"
    extra_pods, extra_groups = [], []
    for k in range(draw(st.integers(1, 4))):
        extra_pods.append(_pod(f"more-{k}", draw(cpu), 0, stamp=later))
    if draw(st.booleans()):
        size = draw(st.integers(1, 3))
        extra_groups.append(_group("more-gang", 0, draw(st.integers(1, size)), later))
        extra_pods += [_pod(f"more-gang-{j}", draw(cpu), 0, group="more-gang", stamp=later) for j in range(size)]
    base = ClusterInput(nodes=nodes, pods=tuple(sorted(pods, key=lambda p: p.key)),
                        pod_groups=tuple(sorted(groups, key=lambda g: g.key)))
    return base, extra_pods, extra_groups


def _with(base: ClusterInput, pods, groups) -> ClusterInput:
    return ClusterInput(nodes=base.nodes, pods=tuple(sorted(base.pods + tuple(pods), key=lambda p: p.key)),
                        pod_groups=tuple(sorted(base.pod_groups + tuple(groups), key=lambda g: g.key)))


@SETTINGS
@given(base_and_extra())
def test_submit_then_run_equals_planning_it_all_at_once(case):
    base, extra_pods, extra_groups = case
    planner = Planner(base)
    planner.plan()
    assume(planner.passes.productive_passes <= 1)  # see the module's docstring
    added = planner.submit(pods=extra_pods, pod_groups=extra_groups)
    assert sorted(p.key for p in added) == sorted(p.key for p in extra_pods)
    assert planner.run().to_dict() == plan(_with(base, extra_pods, extra_groups)).to_dict()


@SETTINGS
@given(base_and_extra())
def test_submit_inside_a_scope_taken_back_leaves_the_plan_as_it_was(case):
    base, extra_pods, extra_groups = case
    planner = Planner(base)
    before = planner.plan().to_dict()
    with planner.tentative():
        planner.submit(pods=extra_pods, pod_groups=extra_groups)
        planner.run()
    assert planner.result().to_dict() == before
    # and what follows behaves as if the scope never was
    planner.submit(pods=extra_pods, pod_groups=extra_groups)
    fresh = Planner(base)
    fresh.plan()
    fresh.submit(pods=extra_pods, pod_groups=extra_groups)
    assert planner.run().to_dict() == fresh.run().to_dict()
