"""Host ports, annotations, Jobs and Nodes as the API server validates them
(validate_host_ports.py, validate_meta.py, validate_jobs.py, validate_resources.py): texts,
upstream's paths, and the lines the problems point at."""
from __future__ import annotations

from .conftest import NODE

QUALIFIED = ("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
             "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
             "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')")


def _problems(manifests, text: str) -> list[tuple[str, str]]:
    """(FILE:LINE, PATH: message) of each problem of `text` (with a Node)."""
    manifests.write("m.yaml", text + "---" + NODE)
    return [(p.split(": ")[0], p.split(": ", 2)[2]) for p in manifests.problems("m.yaml")]


def test_a_host_port_once_per_protocol_and_ip(manifests):
    """checkHostPortConflicts: across the containers, and within each init container, whose
    path upstream numbers [0] (it is checked as a list of one); a hostNetwork Pod's ports claim
    their containerPort (SetDefaults_Pod)."""
    assert _problems(manifests, """
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: a}
spec:
  hostNetwork: true
  initContainers:
  - {name: i0, image: x}
  - {name: i1, image: x, ports: [{containerPort: 90}, {containerPort: 91, hostPort: 90}]}
  containers:
  - {name: a, image: x, ports: [{containerPort: 80}, {containerPort: 80, protocol: UDP}]}
  - {name: b, image: x, ports: [{containerPort: 81, hostPort: 80}, {containerPort: 80, hostIP: 10.0.0.1}]}
""") == [
        ("m.yaml:8", 'spec.initContainers[0].ports[1].hostPort: Duplicate value: "TCP//90"'),
        ("m.yaml:11", 'spec.containers[1].ports[0].hostPort: Duplicate value: "TCP//80"'),
    ]


def test_annotations_are_qualified_names_and_hold_at_most_256_kib(manifests):
    """ValidateAnnotations: keys lower-cased, then IsQualifiedName; the total size."""
    big = "x" * (256 * 1024)
    problems = _problems(manifests, f"""
apiVersion: v1
kind: Pod
metadata:
  name: p
  namespace: a
  annotations:
    Example.COM/Fine: x
    "a b": x
    big: {big}
spec:
  containers: [{{name: c, image: x}}]
""")
    assert problems == [
        ("m.yaml:6", "metadata.annotations: Too long: may not be more than 262144 bytes"),
        ("m.yaml:8", 'metadata.annotations: Invalid value: "a b": ' + QUALIFIED),
    ]


def test_a_templates_annotations_are_shown_where_the_api_server_says(manifests):
    """ValidatePodTemplateSpec: `spec.template.annotations`, at the key's line."""
    assert _problems(manifests, """
apiVersion: apps/v1
kind: Deployment
metadata: {name: d, namespace: a}
spec:
  selector: {matchLabels: {app: d}}
  template:
    metadata:
      labels: {app: d}
      annotations:
        fine: x
        e f: g
    spec:
      containers: [{name: c, image: x}]
""") == [("m.yaml:11", 'spec.template.annotations: Invalid value: "e f": ' + QUALIFIED)]


def test_a_jobs_rules_hold_beside_its_schema_problems(manifests):
    """validateJobSpec's restartPolicy is said even when the schema refuses another field (the
    Job is then not decoded): every problem at once."""
    assert [m for _, m in _problems(manifests, """
apiVersion: batch/v1
kind: Job
metadata: {name: j, namespace: a}
spec:
  parallelism: -1
  template:
    spec: {containers: [{name: c, image: x}]}
""")] == [
        "spec.parallelism: Invalid value: -1: must be greater than or equal to 0",
        'spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
    ]


def test_a_nodes_capacity_is_its_allocatable_when_it_has_none(manifests):
    """SetDefaults_NodeStatus copies capacity into a missing allocatable before
    ValidateNodeResources: a bad amount is said of both, at the capacity's line."""
    manifests.write("m.yaml", """
apiVersion: v1
kind: Node
metadata: {name: n}
status:
  capacity:
    cpu: "4"
    pods: "-1"
""")
    assert manifests.problems("m.yaml") == [
        'm.yaml:7: Node n: status.allocatable.pods: Invalid value: "-1": must be greater than or equal to 0',
        'm.yaml:7: Node n: status.capacity.pods: Invalid value: "-1": must be greater than or equal to 0',
    ]


def test_preemption_policies_are_listed_in_the_validators_order(manifests):
    """ValidatePreemptionPolicy lists its values unsorted (the schema's `x-ordered`)."""
    assert [m for _, m in _problems(manifests, """
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: p}
value: 1
preemptionPolicy: Sometimes
""")] == ['preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"']
