"""Admission for manifests never admitted (loading/admission.py), against upstream's plugins:
`plugin/pkg/admission/runtimeclass/admission.go` (messages), `plugin/pkg/admission/limitranger`
(defaultContainerResourceRequirements) and LimitRange's defaulting."""
import pytest

from podgroup_plan.errors import InputError
from podgroup_plan.loading import load_input

RC = """---
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: kata}
handler: kata
overhead: {podFixed: {cpu: 250m}}
scheduling: {nodeSelector: {runtime: kata}}
"""
NODE = """apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
"""


def pod(extra_spec="", meta="", containers="[{name: c, image: i}]"):
    return (f"---\napiVersion: v1\nkind: Pod\nmetadata: {{name: p, namespace: ns{meta}}}\n"
            f"spec:\n  containers: {containers}\n{extra_spec}")


def load(tmp_path, text):
    f = tmp_path / "in.yaml"
    f.write_text(text)
    return load_input([str(f)])


def problems(tmp_path, text):
    with pytest.raises(InputError) as exc:
        load(tmp_path, text)
    return [p.message for p in exc.value.problems]


def test_missing_runtime_class_is_refused_as_the_apiserver_refuses_the_pod(tmp_path):
    assert problems(tmp_path, NODE + pod("  runtimeClassName: gone\n")) == [
        'pod rejected: RuntimeClass "gone" not found']


def test_an_admitted_pod_is_left_as_it_is(tmp_path):
    # a uid: read from a cluster, where admission already ran (or the class was deleted since)
    ci = load(tmp_path, NODE + pod("  runtimeClassName: gone\n", meta=", uid: abc"))
    assert ci.pods[0].requests == {}


def test_overhead_that_differs_from_the_class_is_refused(tmp_path):
    assert problems(tmp_path, NODE + RC + pod("  runtimeClassName: kata\n  overhead: {cpu: 300m}\n")) == [
        "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead"]
    # the same amount written another way is the same overhead (Semantic.DeepEqual)
    ci = load(tmp_path, NODE + RC + pod("  runtimeClassName: kata\n  overhead: {cpu: '0.25'}\n"))
    assert ci.pods[0].requests == {"cpu": 250}


def test_node_selector_conflict_is_refused(tmp_path):
    assert problems(tmp_path, NODE + RC + pod("  runtimeClassName: kata\n  nodeSelector: {runtime: runc}\n")) == [
        "conflict: runtimeClass.scheduling.nodeSelector[runtime] = kata; pod.spec.nodeSelector[runtime] = runc"]


def test_runtime_class_adds_overhead_and_selector(tmp_path):
    p = load(tmp_path, NODE + RC + pod("  runtimeClassName: kata\n")).pods[0]
    assert p.requests == {"cpu": 250} and dict(p.node_selector) == {"runtime": "kata"}


LR = """---
apiVersion: v1
kind: LimitRange
metadata: {name: lr, namespace: ns}
spec:
  limits:
  - type: Container
    max: {cpu: "3"}
    min: {memory: 100Mi}
"""


def test_limit_range_defaults_follow_limit_range_defaulting(tmp_path):
    # default cpu <- max (3); defaultRequest cpu <- default (3); defaultRequest memory <- min
    p = load(tmp_path, NODE + LR + pod()).pods[0]
    assert p.requests["cpu"] == 3000 and p.requests["memory"] == 100 * 1024 * 1024


def test_limit_range_leaves_set_requests_and_limits_alone(tmp_path):
    containers = "[{name: c, image: i, resources: {limits: {cpu: '1'}, requests: {memory: 1Gi}}}]"
    p = load(tmp_path, NODE + LR + pod(containers=containers)).pods[0]
    assert p.requests["cpu"] == 1000 and p.requests["memory"] == 1024 ** 3


def test_limit_range_of_another_namespace_does_nothing(tmp_path):
    p = load(tmp_path, NODE + LR.replace("namespace: ns", "namespace: other") + pod()).pods[0]
    assert p.requests == {}
