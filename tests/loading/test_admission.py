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


# ----- pods a controller creates ------------------------------------------------------------
# The Job controller (or a ReplicaSet, a StatefulSet) creates its pods through the apiserver, so
# admission applies to every pod expanded from a template, whether or not the controller object
# itself came from a cluster.

def job(spec_extra="", containers="[{name: c, image: i}]", uid=""):
    return (f"---\napiVersion: batch/v1\nkind: Job\nmetadata: {{name: j, namespace: ns{uid}}}\n"
            f"spec:\n  parallelism: 2\n  completions: 2\n  template:\n    spec:\n"
            f"      restartPolicy: Never\n      containers: {containers}\n{spec_extra}")


def deployment(spec_extra=""):
    return ("---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d, namespace: ns}\n"
            "spec:\n  replicas: 1\n  selector: {matchLabels: {app: d}}\n  template:\n"
            "    metadata: {labels: {app: d}}\n    spec:\n      containers: [{name: c, image: i}]\n"
            f"{spec_extra}")


def expanded(tmp_path, text):
    from podgroup_plan.controllers import expand

    ci = load(tmp_path, text)
    return [p for p in expand(ci, {}).pods if p.owner_references]


def test_a_jobs_pods_get_the_limit_range_defaults(tmp_path):
    pods = expanded(tmp_path, NODE + LR + job(uid=", uid: j-1234"))
    assert len(pods) == 2
    assert all(p.requests["cpu"] == 3000 and p.requests["memory"] == 100 * 1024 * 1024 for p in pods)


def test_a_deployments_pods_get_the_runtime_class(tmp_path):
    pods = expanded(tmp_path, NODE + RC + deployment("      runtimeClassName: kata\n"))
    assert len(pods) == 1
    assert pods[0].requests == {"cpu": 250} and dict(pods[0].node_selector) == {"runtime": "kata"}


def test_a_template_admission_refuses_is_reported_at_the_templates_field(tmp_path):
    with pytest.raises(InputError) as exc:
        load(tmp_path, NODE + job("      runtimeClassName: gone\n"))
    [problem] = exc.value.problems
    assert problem.message == 'pod rejected: RuntimeClass "gone" not found'
    assert (problem.kind, problem.path, problem.line) == ("Job", "spec.template.spec.runtimeClassName", 16)


# ----- what admission does not apply is said ------------------------------------------------
LR_NOTE = ("LimitRange ns/lr: min, max and maxLimitRequestRatio were not checked (the apiserver "
           "refuses a new pod that breaks them); only its default requests were applied")


def test_a_limit_range_with_min_or_max_is_named_in_the_notes_when_pods_are_admitted(tmp_path):
    from podgroup_plan.planner import plan

    ci = load(tmp_path, NODE + LR + pod())
    assert ci.admission_notes == (LR_NOTE,)
    assert LR_NOTE in plan(ci).notes
    # a Job's template is admitted by the planner too
    assert load(tmp_path, NODE + LR + job()).admission_notes == (LR_NOTE,)


def test_no_note_when_no_pod_of_the_namespace_is_admitted_or_nothing_is_checked(tmp_path):
    # only pods read from a cluster (a uid): admission, checks included, already happened there
    assert load(tmp_path, NODE + LR + pod(meta=", uid: abc")).admission_notes == ()
    # defaults only: everything the LimitRange does was applied
    defaults_only = LR.replace('    max: {cpu: "3"}\n    min: {memory: 100Mi}\n', "    defaultRequest: {cpu: 500m}\n")
    ci = load(tmp_path, NODE + defaults_only + pod())
    assert ci.admission_notes == () and ci.pods[0].requests == {"cpu": 500}
