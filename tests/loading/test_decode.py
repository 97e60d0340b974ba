"""Documents -> model: units, defaulting, requests, priorities and groups for each API version."""
from __future__ import annotations

import pytest
import yaml

from podgroup_plan.errors import InputError
from podgroup_plan.loading import summarize
from podgroup_plan.loading import load_input
from podgroup_plan.loading.decode_nodes import normalized_image
from podgroup_plan.loading.decode_pods import aggregate_requests, pod_requests
from podgroup_plan.model.objects import (
    BASIC,
    DISRUPTION_ALL,
    DISRUPTION_SINGLE,
    GANG,
    Condition,
    HostPort,
    Taint,
    Toleration,
)
from podgroup_plan.model.selectors import LabelSelector, LabelSelectorRequirement

from . import samples
from .samples import sample

Gi = 2**30
Mi = 2**20


def load(manifests, *objs, name="in.yaml"):
    manifests.write(name, yaml.safe_dump_all(list(objs), sort_keys=False))
    return load_input([name])


# --- nodes -------------------------------------------------------------------------------------


def test_node(manifests):
    (node,) = load(manifests, samples.NODE).nodes
    assert node.name == "n1"
    assert node.labels == {"zone": "a"}
    assert node.taints == (Taint("gpu", "true", "NoSchedule"),)
    assert node.allocatable == {"cpu": 7500, "memory": 30 * Gi, "nvidia.com/gpu": 8, "pods": 100}
    assert [(i.names, i.size_bytes) for i in node.images] == [
        (("nginx:latest", "docker.io/library/nginx@sha256:abc"), 123)
    ]
    assert (node.source.file, node.source.document, node.source.line) == ("in.yaml", 1, 1)


def test_node_capacity_and_no_pods_unless_listed(manifests):
    # kube-scheduler's NodeInfo allows the pods the node lists: none when `pods` is missing
    node = sample(samples.NODE)
    del node["status"]["allocatable"]
    del node["status"]["capacity"]["pods"]
    bare = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "bare"}}
    nodes = load(manifests, node, bare).nodes
    assert [n.allocatable for n in nodes] == [{"pods": 0}, {"cpu": 8000, "memory": 32 * Gi, "pods": 0}]


@pytest.mark.parametrize(
    "image, normalized",
    [("nginx", "nginx:latest"), ("nginx:1.2", "nginx:1.2"), ("reg:5000/app", "reg:5000/app:latest"),
     ("reg:5000/app:v1", "reg:5000/app:v1"), ("app@sha256:abc", "app@sha256:abc")],
)
def test_normalized_image(image, normalized):
    assert normalized_image(image) == normalized


# --- pods --------------------------------------------------------------------------------------

PC_HIGH = samples.PRIORITY_CLASS


def test_pod(manifests):
    ci = load(manifests, PC_HIGH, samples.POD)
    (pod,) = ci.pods
    assert (pod.namespace, pod.name, pod.labels) == ("team-a", "trainer-0", {"app": "trainer"})
    assert pod.node_name is None and not pod.is_running
    assert (pod.priority, pod.preemption_policy) == (1000, "Never")
    # containers: main 500m/2Gi (+ gpu 1 and memory 4Gi? no: requests win over limits for memory)
    # sidecar proxy 100m runs beside them; init "setup" 2 cpu/1Gi runs alone beside the sidecar
    # started before it (none) -> peak cpu max(0.6, 2) = 2; plus 10m overhead.
    assert pod.requests == {"cpu": 2010, "memory": 2 * Gi, "nvidia.com/gpu": 1}
    # non-zero: proxy has no memory request -> 200Mi beside main's 2Gi
    assert (pod.non_zero_cpu, pod.non_zero_memory) == (2010, 2 * Gi + 200 * Mi)
    assert pod.host_ports == (HostPort(80, "TCP", "10.0.0.1"), HostPort(15000, "TCP", "0.0.0.0"))
    assert pod.node_selector == {"pool": "gpu"}
    assert pod.tolerations == (
        Toleration("gpu", "Exists", "", "NoSchedule"), Toleration("k", "Equal", "v", ""), Toleration("", "Exists"),
    )
    assert pod.images == ("busybox:latest", "envoy:1.0", "registry.example.com/trainer:latest")
    assert pod.pod_group == "pg"
    assert pod.creation_timestamp == "2025-01-01T00:00:00Z"
    assert pod.nominated_node_name == "n1"
    assert [(o.kind, o.name, o.controller) for o in pod.owner_references] == [("Job", "j", True)]
    assert pod.uid == "u-1"
    (spread,) = pod.topology_spread_constraints
    assert (spread.max_skew, spread.topology_key, spread.when_unsatisfiable, spread.min_domains,
            spread.node_affinity_policy, spread.node_taints_policy, spread.match_label_keys) == (
        1, "zone", "DoNotSchedule", 2, "Ignore", "Honor", ("job",))
    assert spread.label_selector == LabelSelector((("app", "trainer"),))


def test_pod_affinity(manifests):
    (pod,) = load(manifests, PC_HIGH, samples.POD).pods
    aff = pod.affinity
    terms = aff.node_required.terms
    assert [(r.key, r.operator, r.values) for r in terms[0].match_expressions] == [
        ("zone", "In", ("a", "b")), ("gen", "Gt", ("3",)), ("spot", "DoesNotExist", ())]
    assert [(r.key, r.values) for r in terms[1].match_fields] == [("metadata.name", ("n1",))]
    assert terms[1].matches("n1", {}) and not terms[1].matches("n2", {})
    assert [(p.weight, p.preference.match_expressions[0].key) for p in aff.node_preferred] == [(10, "ssd")]
    (required,) = aff.pod_affinity_required
    assert (required.topology_key, required.namespaces, required.match_label_keys) == ("zone", ("x",), ("job",))
    assert required.namespace_selector is None
    (weighted,) = aff.pod_anti_affinity_preferred
    assert weighted.weight == 5
    assert weighted.term.namespace_selector == LabelSelector()  # empty: all namespaces
    assert weighted.term.label_selector.match_expressions == (LabelSelectorRequirement("app", "NotIn", ("x",)),)


def test_pod_defaults(manifests):
    bare = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
            "spec": {"containers": [{"name": "c"}], "nodeName": "n1"}}
    (pod,) = load(manifests, bare).pods
    assert (pod.namespace, pod.scheduler_name, pod.priority, pod.preemption_policy) == (
        "default", "default-scheduler", 0, "PreemptLowerPriority")
    assert pod.requests == {} and (pod.non_zero_cpu, pod.non_zero_memory) == (100, 200 * Mi)
    assert pod.node_name == "n1" and pod.is_running
    assert pod.affinity is None and pod.pod_group is None and pod.images == ()
    assert pod.phase == "Pending" and pod.creation_timestamp is None


def test_finished_pods_are_left_out(manifests):
    done = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "done"},
            "spec": {"containers": [{"name": "c"}], "nodeName": "n1"}, "status": {"phase": "Succeeded"}}
    failed = sample(done)
    failed["metadata"]["name"], failed["status"]["phase"] = "failed", "Failed"
    running = sample(done)
    running["metadata"]["name"], running["status"]["phase"] = "running", "Running"
    ci = load(manifests, done, failed, running)
    assert [p.name for p in ci.pods] == ["running"]
    # ... but `validate` counts them, as what they are
    assert ci.finished_pods == {"Failed": 1, "Succeeded": 1}
    assert summarize(ci)[1] == "Pod: 3 (1 running, 0 pending, 1 failed, 1 succeeded)"


def _requests(spec):
    problems = []
    result = pod_requests(spec, lambda path, message: problems.append((path, message)))
    assert problems == []
    return result


def c(name, restart=None, **requests):
    container = {"name": name, "resources": {"requests": requests}}
    if restart:
        container["restartPolicy"] = restart
    return container


@pytest.mark.parametrize(
    "spec, requests, non_zero",
    [
        pytest.param({"containers": [c("a", cpu="1", memory="1Gi"), c("b", cpu="500m")]},
                     {"cpu": 1500, "memory": Gi}, (1500, Gi + 200 * Mi), id="sum of containers"),
        pytest.param({"containers": [c("a", cpu="1")], "initContainers": [c("i", cpu="3")]},
                     {"cpu": 3000}, (3000, 200 * Mi), id="largest init container"),
        pytest.param({"containers": [c("a", cpu="1")],
                      "initContainers": [c("s1", "Always", cpu="1"), c("i", cpu="2"), c("s2", "Always", cpu="1")]},
                     # regular + sidecars = 3; init i beside s1 = 3; s1+s2 during start = 2
                     {"cpu": 3000}, (3000, 3 * 200 * Mi), id="sidecars"),
        pytest.param({"containers": [c("a", cpu="1")],
                      "initContainers": [c("s1", "Always", cpu="2"), c("i", cpu="3")]},
                     {"cpu": 5000}, (5000, 2 * 200 * Mi), id="init beside earlier sidecar"),
        pytest.param({"containers": [c("a", cpu="0")]}, {}, (0, 200 * Mi), id="explicit zero is not missing"),
        pytest.param({"containers": [{"name": "a", "resources": {"limits": {"cpu": "2", "memory": "1Gi"}}}]},
                     {"cpu": 2000, "memory": Gi}, (2000, Gi), id="requests default to limits"),
        pytest.param({"containers": [c("a", cpu="1")], "overhead": {"cpu": "250m", "memory": "64Mi"}},
                     {"cpu": 1250, "memory": 64 * Mi}, (1250, 264 * Mi), id="overhead"),
        pytest.param({"containers": [c("a", cpu="1"), c("b", cpu="1")], "resources": {"requests": {"cpu": "3"}}},
                     {"cpu": 3000}, (3000, 400 * Mi), id="pod-level resources"),
        pytest.param({"containers": [c("a", cpu="0.5m"), c("b", cpu="0.5m")]},
                     {"cpu": 1}, (1, 400 * Mi), id="rounded once on the total"),
        pytest.param({"containers": [c("a", memory="0.5")]}, {"memory": 1}, (100, 1), id="bytes round up"),
    ],
)
def test_effective_requests(spec, requests, non_zero):
    got_requests, cpu, memory = _requests(spec)
    assert got_requests == requests
    assert (cpu, memory) == non_zero


def test_aggregate_requests_without_init():
    assert aggregate_requests([{"cpu": 1}, {"cpu": 2, "x": 1}], []) == {"cpu": 3, "x": 1}


# --- priorities --------------------------------------------------------------------------------


def _pc(name, value, default=False, policy=None):
    pc = {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": name},
          "value": value, "globalDefault": default}
    if policy:
        pc["preemptionPolicy"] = policy
    return pc


def _pod(name, **spec):
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name},
            "spec": {"containers": [{"name": "c"}], **spec}}


def _admitted(pod):
    pod["metadata"]["uid"] = f"uid-{pod['metadata']['name']}"
    return pod


def test_priority_resolution(manifests):
    ci = load(
        manifests,
        _pc("low", 10, default=True, policy="Never"),
        _pc("high", 1000),
        _pod("own", priority=5, priorityClassName="high"),  # spec.priority wins
        _pod("named", priorityClassName="high"),
        _pod("default"),  # the globalDefault class, and its preemption policy
        _pod("system", priorityClassName="system-node-critical"),
        # read from a cluster (a uid): admitted when its class said so; its own policy wins
        _admitted(_pod("policy", priorityClassName="low", preemptionPolicy="PreemptLowerPriority")),
    )
    assert {p.name: (p.priority, p.preemption_policy) for p in ci.pods} == {
        "own": (5, "PreemptLowerPriority"),
        "named": (1000, "PreemptLowerPriority"),
        "default": (10, "Never"),
        "system": (2000001000, "PreemptLowerPriority"),
        "policy": (10, "PreemptLowerPriority"),
    }
    assert [(c.name, c.value, c.global_default, c.preemption_policy) for c in ci.priority_classes] == [
        ("high", 1000, False, "PreemptLowerPriority"), ("low", 10, True, "Never")]


def test_no_priority_class_means_zero(manifests):
    (pod,) = load(manifests, _pod("p")).pods
    assert pod.priority == 0


# --- groups, by API version --------------------------------------------------------------------


def test_v1alpha1_implied_groups(manifests):
    def member(name, workload="w1", group="workers", key=None):
        ref = {"name": workload, "podGroup": group}
        if key is not None:
            ref["podGroupReplicaKey"] = key
        p = _pod(name, workloadRef=ref)
        p["metadata"]["namespace"] = "team-a"
        return p

    ci = load(manifests, samples.WORKLOAD_V1ALPHA1,
              member("a", key="0"), member("b", key="0"), member("c", key="1"), member("d", group="driver"),
              member("lost", workload="nope"), member("stray", group="nope"))
    assert {p.name: p.pod_group for p in ci.pods} == {
        "a": "w1/workers/0", "b": "w1/workers/0", "c": "w1/workers/1", "d": "w1/driver",
        "lost": "nope/workers", "stray": "w1/nope",
    }
    assert [(g.name, g.policy, g.min_count, g.implied, g.api_version, g.workload_name, g.template_name)
            for g in ci.pod_groups] == [
        ("w1/driver", BASIC, 1, True, "scheduling.k8s.io/v1alpha1", "w1", "driver"),
        ("w1/workers/0", GANG, 4, True, "scheduling.k8s.io/v1alpha1", "w1", "workers"),
        ("w1/workers/1", GANG, 4, True, "scheduling.k8s.io/v1alpha1", "w1", "workers"),
    ]
    assert all(g.priority is None and g.condition_type == "PodGroupInitiallyScheduled" for g in ci.pod_groups)
    (workload,) = ci.workloads
    assert [(t.name, t.policy, t.min_count) for t in workload.pod_group_templates] == [
        ("workers", GANG, 4), ("driver", BASIC, 1)]


def test_v1alpha2(manifests):
    ci = load(manifests, PC_HIGH, samples.WORKLOAD_V1ALPHA2, samples.POD_GROUP_V1ALPHA2)
    (group,) = ci.pod_groups
    assert (group.name, group.policy, group.min_count, group.topology_key, group.disruption_mode) == (
        "pg2", GANG, 4, "rack", DISRUPTION_ALL)
    assert (group.workload_name, group.template_name, group.priority_class_name, group.priority) == (
        "w2", "workers", "high", 1000)
    assert group.condition_type == "PodGroupScheduled"
    assert group.conditions == (Condition("PodGroupScheduled", "False", "Unschedulable", "m"),)
    assert group.creation_timestamp == "2025-01-01T00:00:00Z"
    (template,) = ci.workloads[0].pod_group_templates
    assert (template.topology_key, template.disruption_mode, template.priority_class_name, template.priority) == (
        "rack", DISRUPTION_ALL, "high", 7)


def test_v1beta1(manifests):
    ci = load(manifests, samples.WORKLOAD_V1BETA1, samples.POD_GROUP_V1BETA1)
    (group,) = ci.pod_groups
    assert (group.api_version, group.policy, group.min_count, group.disruption_mode, group.priority,
            group.preemption_policy, group.workload_name, group.template_name, group.parent) == (
        "scheduling.k8s.io/v1beta1", GANG, 2, DISRUPTION_ALL, 50, "Never", "w3", "workers", None)
    assert group.condition_type == "PodGroupInitiallyScheduled"
    (template,) = ci.workloads[0].pod_group_templates
    assert (template.disruption_mode, template.preemption_policy) == (DISRUPTION_ALL, "Never")


def test_v1alpha3_composite(manifests):
    ci = load(manifests, samples.WORKLOAD_V1ALPHA3, samples.POD_GROUP_V1ALPHA3, samples.COMPOSITE_POD_GROUP)
    (group,) = ci.pod_groups
    assert (group.parent, group.disruption_mode, group.priority) == ("rack-0", DISRUPTION_SINGLE, None)
    (cpg,) = ci.composite_pod_groups
    assert (cpg.name, cpg.policy, cpg.min_group_count, cpg.topology_key, cpg.parent, cpg.priority,
            cpg.workload_name, cpg.template_name) == (
        "rack-0", GANG, 1, "rack", "block-0", 10, "w4", "rack")
    (block,) = ci.workloads[0].composite_pod_group_templates
    assert (block.name, block.policy, block.min_group_count, block.topology_key) == ("block", GANG, 2, "block")
    (rack,) = block.composite_pod_group_templates
    assert (rack.policy, [t.name for t in rack.pod_group_templates]) == (BASIC, ["workers"])


def test_pod_group_priority_from_its_class(manifests):
    group = sample(samples.POD_GROUP_V1BETA1)
    del group["spec"]["priority"]
    del group["spec"]["preemptionPolicy"]
    group["spec"]["priorityClassName"] = "low"
    ci = load(manifests, _pc("low", 10, policy="Never"), samples.WORKLOAD_V1BETA1, group)
    assert (ci.pod_groups[0].priority, ci.pod_groups[0].preemption_policy) == (10, "Never")


# --- the rest ----------------------------------------------------------------------------------


def test_pdb(manifests):
    (pdb,) = load(manifests, samples.PDB).pod_disruption_budgets
    assert (pdb.namespace, pdb.name, pdb.min_available, pdb.max_unavailable, pdb.disruptions_allowed,
            pdb.disrupted_pods) == ("team-a", "pdb", "50%", None, 1, ("p1",))
    assert pdb.selector == LabelSelector((("app", "trainer"),))


def test_pdb_without_status_or_selector(manifests):
    pdb = {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "p"},
           "spec": {"maxUnavailable": 1}}
    (got,) = load(manifests, pdb).pod_disruption_budgets
    assert (got.selector, got.max_unavailable, got.disruptions_allowed) == (None, 1, None)


def test_spread_selectors_and_namespaces(manifests):
    empty_service = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "headless"},
                     "spec": {"clusterIP": "None"}}
    ci = load(manifests, samples.SERVICE, samples.REPLICA_SET, samples.STATEFUL_SET,
              samples.REPLICATION_CONTROLLER, samples.NAMESPACE, empty_service)
    assert [(s.kind, s.name, s.selector) for s in ci.spread_selectors] == [
        ("ReplicationController", "rc", LabelSelector((("app", "old"),))),
        ("ReplicaSet", "rs", LabelSelector((("app", "web"),))),
        ("StatefulSet", "ss", LabelSelector((), (LabelSelectorRequirement("app", "Exists"),))),
        ("Service", "svc", LabelSelector((("app", "trainer"),))),
    ]
    # Namespace objects give labels; the apiserver's name label is always there.
    assert ci.namespaces == {"team-a": {"tier": "gold", "kubernetes.io/metadata.name": "team-a"}}


def test_every_namespace_in_use_has_its_name_label(manifests):
    ci = load(manifests, _pod("p"), samples.PDB)
    assert ci.namespaces == {"default": {"kubernetes.io/metadata.name": "default"},
                             "team-a": {"kubernetes.io/metadata.name": "team-a"}}


def test_cluster_input_is_sorted_and_keeps_the_config(manifests):
    pods = [_pod(n) for n in ["b", "a", "c"]]
    pods[0]["metadata"]["namespace"] = "z"
    nodes = [{"apiVersion": "v1", "kind": "Node", "metadata": {"name": n}} for n in ["n2", "n1"]]
    extra = [{"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {"name": "d"}},
             {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}},
             {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {"name": "e"}}]
    ci = load(manifests, *pods, *nodes, *extra, samples.SCHEDULER_CONFIG)
    assert [(p.namespace, p.name) for p in ci.pods] == [("default", "a"), ("default", "c"), ("z", "b")]
    assert [n.name for n in ci.nodes] == ["n1", "n2"]
    assert ci.ignored_kinds == {"ConfigMap": 1, "Ingress": 2}
    assert ci.scheduler_config["profiles"][0]["schedulerName"] == "default-scheduler"


def test_timestamps_are_utc_seconds(manifests):
    pods = [_pod(f"p{i}") for i in range(3)]
    pods[0]["metadata"]["creationTimestamp"] = "2025-01-01T01:00:00+01:00"
    pods[1]["metadata"]["creationTimestamp"] = "2025-01-01T00:00:00.750Z"
    pods[2]["status"] = {"startTime": "2025-06-01T12:00:00Z"}
    ci = load(manifests, *pods)
    assert [p.creation_timestamp for p in ci.pods] == ["2025-01-01T00:00:00Z", "2025-01-01T00:00:00Z", None]
    assert ci.pods[2].start_time == "2025-06-01T12:00:00Z"


def test_same_result_from_json_and_from_a_kubectl_list(manifests):
    objs = [samples.NODE, PC_HIGH, samples.POD, samples.WORKLOAD_V1BETA1, samples.POD_GROUP_V1BETA1]
    from_yaml = load(manifests, *objs)
    import orjson

    manifests.write("dump.json", orjson.dumps({"apiVersion": "v1", "kind": "List", "items": objs}).decode())
    from_json = load_input(["dump.json"])
    strip = lambda ci: [(type(o).__name__, o.name) for o in ci.nodes + ci.pods + ci.pod_groups]  # noqa: E731
    assert strip(from_yaml) == strip(from_json)
    assert from_yaml.pods[0].requests == from_json.pods[0].requests


def test_priority_classes_read_after_their_pods(manifests):
    manifests.write("a-pods.yaml", yaml.safe_dump_all([
        _pod("named", priorityClassName="late"), _pod("default"), _pod("own", priority=3)]))
    manifests.write("b-classes.yaml", yaml.safe_dump_all([_pc("late", 70, policy="Never"), _pc("dflt", 5, default=True)]))
    ci = load_input(["a-pods.yaml", "b-classes.yaml"])
    assert {p.name: (p.priority, p.preemption_policy) for p in ci.pods} == {
        "named": (70, "Never"), "default": (5, "PreemptLowerPriority"), "own": (3, "PreemptLowerPriority")}


def test_pods_written_alike_share_their_decoded_parts(manifests):
    a, b = sample(samples.POD), sample(samples.POD)
    b["metadata"]["name"] = "trainer-1"
    ci = load(manifests, PC_HIGH, a, b)
    first, second = ci.pods
    assert first.requests is second.requests and first.tolerations is second.tolerations
    assert first.affinity is second.affinity and first.requests == {"cpu": 2010, "memory": 2 * Gi, "nvidia.com/gpu": 1}


def test_pods_are_built_as_the_dataclass_builds_them(manifests):
    """decode_pod builds a Pod through its slots (decode_pods._slot_constructor), not Pod's
    generated __init__: the object must be the one Pod(...) gives, still frozen, and a field
    left out must be an error rather than a silent default."""
    import dataclasses

    from podgroup_plan.loading.decode_pods import _new_pod
    from podgroup_plan.model.objects import Pod

    (pod,) = load(manifests, PC_HIGH, samples.POD).pods
    values = {f.name: getattr(pod, f.name) for f in dataclasses.fields(Pod)}
    assert len(values) > 20 and values["requests"] and values["tolerations"]
    built, reference = _new_pod(**values), Pod(**values)
    assert type(built) is Pod
    assert built == reference and repr(built) == repr(reference)
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.name = "other"
    del values["uid"]
    with pytest.raises(TypeError):
        _new_pod(**values)


def test_priority_admission_refuses_a_new_pods_own_preemption_policy(manifests):
    """plugin/pkg/admission/priority admitPod: a new pod (no uid, not bound) may write the
    preemptionPolicy admission computes (its class's, the global default class's, else
    PreemptLowerPriority), no other; one read from a cluster was admitted already."""
    with pytest.raises(InputError) as err:
        load(manifests, _pc("never", 10, policy="Never"),
             _pod("a", priorityClassName="never", preemptionPolicy="PreemptLowerPriority"),
             _pod("b", preemptionPolicy="Never"),
             _pod("c", priorityClassName="never", preemptionPolicy="Never"),
             _admitted(_pod("d", preemptionPolicy="Never")))
    assert [p.split(": ", 2)[2] for p in map(str, err.value.problems)] == [
        "spec.preemptionPolicy: the string value of PreemptionPolicy (PreemptLowerPriority) must not be provided "
        "in pod spec; priority admission controller computed Never from the given PriorityClass name",
        "spec.preemptionPolicy: the string value of PreemptionPolicy (Never) must not be provided in pod spec; "
        "priority admission controller computed PreemptLowerPriority from the given PriorityClass name"]
