"""Bad input: every kind of problem, with the exact text users see (docs/contract.md format
`FILE[:LINE]: [document N] KIND NAMESPACE/NAME: JSON.PATH: problem`)."""
from __future__ import annotations

import pytest
import yaml

from podgroup_plan.errors import InputError, Problem
from podgroup_plan.loading import load_input, load_scheduler_config, summarize

from . import samples
from .conftest import pod
from .samples import sample

# k8s.io/apimachinery v0.37.0 content.IsDNS1123Subdomain / IsDNS1123Label, as field.Invalid details
SUBDOMAIN = ("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and "
             "must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
             "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')")
DNS_LABEL = ("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start "
             "and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
             "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')")

# IsQualifiedName's regex message (content.IsLabelKey), after "name part "
QUALIFIED = ("must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
             "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
             "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')")
AT = "spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey"
AT_PREFERRED = "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey"


def dump(*objs) -> str:
    return yaml.safe_dump_all(list(objs), sort_keys=False)


def test_the_contract_example(manifests):
    manifests.write("bad/pods.yaml", """
        apiVersion: v1
        kind: Pod
        metadata:
          name: trainer-0
          namespace: team-a
          labels: {app: trainer}
        spec:
          schedulingGroup:
            podGroupName: pg
          containers:
          - name: main
            resources:
              requests:
                cpu: 1.2.3
                memory: 1Gi
    """)
    assert manifests.problems("bad") == [
        'bad/pods.yaml:14: Pod team-a/trainer-0: spec.containers[0].resources.requests.cpu: invalid quantity "1.2.3"',
    ]


def test_every_problem_of_every_file_at_once(manifests):
    manifests.write("a.yaml", pod("x", containers="""
        - name: c
          resources: {requests: {memory: 1Gb}, limits: {cpu: "-1"}}
    """))
    manifests.write("b/c.yaml", dump(
        {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "Node_1"}},
        {"apiVersion": "scheduling.k8s.io/v1beta1", "kind": "PodGroup", "metadata": {"name": "g"},
         "spec": {"schedulingPolicy": {"gang": {"minCount": 0}}}},
    ))
    assert manifests.problems(".") == [
        './a.yaml:10: Pod team-a/x: spec.containers[0].resources.limits[cpu]: Invalid value: "-1": must be greater '
        'than or equal to 0',
        './a.yaml:10: Pod team-a/x: spec.containers[0].resources.requests.memory: invalid quantity "1Gb"',
        # the limit is the request too (SetDefaults_Pod), and the API server says so of both
        './a.yaml:10: Pod team-a/x: spec.containers[0].resources.requests[cpu]: Invalid value: "-1": must be greater '
        'than or equal to 0',
        './b/c.yaml:4: Node Node_1: metadata.name: Invalid value: "Node_1": ' + SUBDOMAIN,
        # RequiredValue: the declarative rule takes an int32's 0 as unset
        "./b/c.yaml:13: PodGroup default/g: spec.schedulingPolicy.gang.minCount: Required value",
    ]


# --- one table: each kind of bad input and its message ------------------------------------------

WL = samples.WORKLOAD_V1BETA1
PG = samples.POD_GROUP_V1BETA1


def _with(obj, change):
    obj = sample(obj)
    change(obj)
    return obj


def _set(path, value):
    def change(obj):
        target = obj
        for part in path[:-1]:
            target = target[part]
        target[path[-1]] = value
    return change


def _del(path):
    def change(obj):
        target = obj
        for part in path[:-1]:
            target = target[part]
        del target[path[-1]]
    return change


CASES = [
    # (a reference to a missing Workload or template is a note, not a problem: kube-apiserver
    # v1.37 accepts it; test_dangling_references_are_notes)
    pytest.param(
        # v1beta1 and v1alpha3 have no rule against `all` disruption on a basic group (v1.37.0's
        # validation has none; the live comparison shows the server accepts it)
        [WL, _with(PG, _set(("spec", "schedulingPolicy"), {"basic": {}}))],
        [],
        id="all on basic is accepted in v1beta1"),
    pytest.param(
        [_with(samples.WORKLOAD_V1ALPHA2, _set(("spec", "podGroupTemplates", 0, "schedulingPolicy"), {"basic": {}}))],
        ['in.yaml:14: Workload team-a/w2: spec.podGroupTemplates[0].disruptionMode: "PodGroup" disruption is not '
         "allowed with a basic scheduling policy; use a gang policy or single disruption"],
        id="v1alpha2 PodGroup disruption on basic template"),
    pytest.param(
        [_with(WL, _set(("spec", "compositePodGroupTemplates"), samples.WORKLOAD_V1ALPHA3["spec"]["compositePodGroupTemplates"]))],
        ['in.yaml:6: Workload team-a/w3: spec: Invalid value: "{podGroupTemplates, compositePodGroupTemplates}": '
         "must specify exactly one of: `podGroupTemplates`, `compositePodGroupTemplates`",
         # (the tree's names must be unique: scheduling/validation validateWorkloadTemplateNamesUniqueness)
         'in.yaml:28: Workload team-a/w3: spec.compositePodGroupTemplates[0].compositePodGroupTemplates[0]'
         '.podGroupTemplates[0].name: Duplicate value: "workers"'],
        id="both template lists"),
    pytest.param(
        [_with(WL, _set(("spec", "podGroupTemplates"), []))],
        ['in.yaml:6: Workload team-a/w3: spec: Invalid value: "": must specify one of: `podGroupTemplates`, '
         "`compositePodGroupTemplates`"],
        id="neither template list"),
    pytest.param(
        [_with(samples.WORKLOAD_V1ALPHA3, _del(("spec", "compositePodGroupTemplates", 0, "compositePodGroupTemplates")))],
        ['in.yaml:8: Workload team-a/w4: spec.compositePodGroupTemplates[0]: Invalid value: "block": must have at '
         "least one child PodGroupTemplate or CompositePodGroupTemplate"],
        id="composite template without children"),
    pytest.param(
        [_with(WL, _set(("spec", "podGroupTemplates"), [{"name": f"t{i}", "schedulingPolicy": {"basic": {}}} for i in range(9)]))],
        ["in.yaml:7: Workload team-a/w3: spec.podGroupTemplates: Too many: 9: must have at most 8 items"],
        id="more than 8 templates"),
    pytest.param(
        [_with(WL, _set(("spec", "podGroupTemplates", 0, "name"), "Workers"))],
        ['in.yaml:8: Workload team-a/w3: spec.podGroupTemplates[0].name: Invalid value: "Workers": ' + DNS_LABEL],
        id="template name not a DNS label"),
    pytest.param(
        [_with(samples.WORKLOAD_V1ALPHA1, _set(("spec", "podGroups", 1, "name"), "workers"))],
        ['in.yaml:16: Workload team-a/w1: spec.podGroups[1].name: duplicate template name "workers" (also podGroups[0])'],
        id="duplicate template name"),
    pytest.param(
        [_with(WL, _set(("spec", "podGroupTemplates", 0, "schedulingPolicy"), {"gang": {"minCount": 2}, "basic": {}}))],
        ['in.yaml:9: Workload team-a/w3: spec.podGroupTemplates[0].schedulingPolicy: Invalid value: "{basic, gang}": '
         "must specify exactly one of: `basic`, `gang`"],
        id="basic and gang"),
    pytest.param(
        [_with(PG, _set(("spec", "schedulingPolicy"), {}))],
        ['in.yaml:10: PodGroup team-a/pg3: spec.schedulingPolicy: Invalid value: "": must specify one of: `basic`, `gang`'],
        id="neither basic nor gang"),
    pytest.param(
        [_with(PG, _set(("spec", "schedulingConstraints"), {"topology": [{"key": "a"}, {"key": "b"}]}))],
        ["in.yaml:18: PodGroup team-a/pg3: spec.schedulingConstraints.topology: Too many: 2: must have at most 1 item"],
        id="two topology constraints"),
    pytest.param(
        [WL, _with(PG, _set(("spec", "parentCompositePodGroupName"), "Parent"))],
        ['in.yaml:32: PodGroup team-a/pg3: spec.parentCompositePodGroupName: Invalid value: "Parent": ' + SUBDOMAIN],
        id="parent name"),
    pytest.param(
        [_with(PG, _del(("spec", "workloadRef")))],
        [],
        id="no workloadRef is fine"),
    pytest.param(
        [_with(_with(PG, _del(("spec", "workloadRef"))), _set(("spec", "parentCompositePodGroupName"), "p"))],
        ["in.yaml:6: PodGroup team-a/pg3: spec.workloadRef: Required value: must be set when parentCompositePodGroupName is set"],
        id="parent without workloadRef"),
    pytest.param(
        [_with(samples.NODE, _set(("metadata", "namespace"), "Ignored"))],
        [],
        id="cluster-scoped kinds ignore namespace"),
    pytest.param(
        [_with(samples.PDB, _set(("metadata", "namespace"), "Team.A"))],
        ['in.yaml:5: PodDisruptionBudget Team.A/pdb: metadata.namespace: Invalid value: "Team.A": ' + DNS_LABEL],
        id="namespace not a DNS label"),
    pytest.param(
        [_with(samples.NAMESPACE, _set(("metadata", "name"), "a.b"))],
        # a valid subdomain that is not a label: IsDNS1123Label's own message
        ['in.yaml:4: Namespace a.b: metadata.name: Invalid value: "a.b": must not contain dots'],
        id="namespace name"),
    pytest.param(
        # v1.37.0's Service name rule is NameIsDNSLabel (RelaxedServiceNameValidation, GA and locked on)
        [_with(samples.SERVICE, _set(("metadata", "name"), "a.b"))],
        ['in.yaml:4: Service team-a/a.b: metadata.name: Invalid value: "a.b": must not contain dots'],
        id="service name is a DNS label"),
    pytest.param(
        [_with(samples.SERVICE, _set(("metadata", "name"), "1-svc"))],
        [],
        id="service name may start with a digit"),
    pytest.param(
        [_with(samples.STATEFUL_SET, _set(("metadata", "name"), "A"))],
        ['in.yaml:4: StatefulSet team-a/A: metadata.name: Invalid value: "A": ' + DNS_LABEL],
        id="statefulset name is a DNS label"),
    pytest.param(
        [_with(samples.STATEFUL_SET, _set(("metadata", "name"), "a.b"))],
        ['in.yaml:4: StatefulSet team-a/a.b: metadata.name: Invalid value: "a.b": must not contain dots'],
        id="statefulset name has no dots"),
    pytest.param(
        [_with(samples.DEPLOYMENT, _set(("metadata", "name"), "a.b"))],
        [],
        id="deployment name is a DNS subdomain"),
    pytest.param(
        # validatePodAffinityTerm: Required "can not be empty", then ValidateLabelName's messages
        [_with(samples.POD, _set(("spec", "affinity", "podAntiAffinity"),
                                 {"requiredDuringSchedulingIgnoredDuringExecution": [{"topologyKey": ""}]})),
         samples.PRIORITY_CLASS],
        [f"in.yaml:69: Pod team-a/trainer-0: {AT}: Required value: can not be empty",
         f'in.yaml:69: Pod team-a/trainer-0: {AT}: Invalid value: "": name part must be non-empty',
         f'in.yaml:69: Pod team-a/trainer-0: {AT}: Invalid value: "": name part ' + QUALIFIED],
        id="empty pod affinity topologyKey"),
    pytest.param(
        # a missing key is Go's "": the same three, in validatePodAffinityTerm's order, and every
        # other problem of the object beside them (the label selector's)
        [_with(samples.POD, _set(("spec", "affinity", "podAntiAffinity"),
                                 {"requiredDuringSchedulingIgnoredDuringExecution": [
                                     {"labelSelector": {"matchLabels": {"a b": "c"}}}]})),
         samples.PRIORITY_CLASS],
        [f"in.yaml:69: Pod team-a/trainer-0: {AT}: Required value: can not be empty",
         f'in.yaml:69: Pod team-a/trainer-0: {AT}: Invalid value: "": name part must be non-empty',
         f'in.yaml:69: Pod team-a/trainer-0: {AT}: Invalid value: "": name part ' + QUALIFIED,
         "in.yaml:71: Pod team-a/trainer-0: spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution"
         '[0].labelSelector.matchLabels: Invalid value: "a b": name part ' + QUALIFIED],
        id="missing pod affinity topologyKey"),
    pytest.param(
        [_with(samples.POD, _set(("spec", "affinity", "podAntiAffinity"),
                                 {"preferredDuringSchedulingIgnoredDuringExecution": [
                                     {"weight": 1, "podAffinityTerm": {"topologyKey": "Bad Key"}}]})),
         samples.PRIORITY_CLASS],
        [f'in.yaml:71: Pod team-a/trainer-0: {AT_PREFERRED}: Invalid value: "Bad Key": name part ' + QUALIFIED],
        id="pod affinity topologyKey not a label name"),
    pytest.param(
        # validateSchedulingGates: ValidateQualifiedName at the gate, then field.Duplicate
        [_with(samples.POD, _set(("spec", "schedulingGates"), [{"name": ""}, {"name": "a.io/g"}, {"name": "a.io/g"}])),
         samples.PRIORITY_CLASS],
        ['in.yaml:126: Pod team-a/trainer-0: spec.schedulingGates[0]: Invalid value: "": name part must be non-empty',
         'in.yaml:126: Pod team-a/trainer-0: spec.schedulingGates[0]: Invalid value: "": name part ' + QUALIFIED,
         'in.yaml:128: Pod team-a/trainer-0: spec.schedulingGates[2]: Duplicate value: "a.io/g"'],
        id="scheduling gate names"),
    pytest.param(
        # ValidateNodeSelectorRequirement: ValidateLabelName's messages only (no "must not be empty" of ours)
        [_with(samples.POD, _set(("spec", "affinity", "nodeAffinity"), {"requiredDuringSchedulingIgnoredDuringExecution": {
            "nodeSelectorTerms": [{"matchExpressions": [{"key": "", "operator": "Exists"}]}]}})),
         samples.PRIORITY_CLASS],
        ['in.yaml:35: Pod team-a/trainer-0: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.'
         'nodeSelectorTerms[0].matchExpressions[0].key: Invalid value: "": name part must be non-empty',
         'in.yaml:35: Pod team-a/trainer-0: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.'
         'nodeSelectorTerms[0].matchExpressions[0].key: Invalid value: "": name part ' + QUALIFIED],
        id="empty node selector key"),
    pytest.param(
        [_with(samples.PDB, _set(("spec", "maxUnavailable"), 1))],
        # policy ValidatePodDisruptionBudgetSpec: the internal spec as json.Marshal renders it
        ['in.yaml:6: PodDisruptionBudget team-a/pdb: spec: Invalid value: {"MinAvailable":"50%","Selector":'
         '{"matchLabels":{"app":"trainer"}},"MaxUnavailable":1,"UnhealthyPodEvictionPolicy":null}: minAvailable and '
         "maxUnavailable cannot be both set"],
        id="pdb min and max"),
    pytest.param(
        [_with(samples.PDB, _set(("spec", "minAvailable"), "150%"))],
        ['in.yaml:7: PodDisruptionBudget team-a/pdb: spec.minAvailable: Invalid value: "150%": must not be greater than 100%'],
        id="pdb percentage over 100"),
    pytest.param(
        [_with(samples.PDB, _set(("spec", "minAvailable"), "5"))],
        # apps ValidatePositiveIntOrPercent: IsValidPercent
        ['in.yaml:7: PodDisruptionBudget team-a/pdb: spec.minAvailable: Invalid value: "5": a valid percent string must '
         "be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"],
        id="pdb string without percent"),
    pytest.param(
        [_with(samples.POD, _set(("spec", "priorityClassName"), "nope"))],
        ['in.yaml:16: Pod team-a/trainer-0: spec.priorityClassName: no PriorityClass with name nope was found'],
        id="unknown priority class"),
    pytest.param(
        [_with(PG, _set(("spec", "priorityClassName"), "nope")), WL],
        ['in.yaml:17: PodGroup team-a/pg3: spec.priorityClassName: no PriorityClass with name nope was found'],
        id="group names an unknown priority class"),
    pytest.param(
        [_with(samples.POD, _set(("spec", "priorityClassName"), "system-cluster-critical"))],
        [],
        id="built-in priority classes exist"),
    pytest.param(
        [_with(samples.PRIORITY_CLASS, _set(("value",), 1_000_000_001))],
        ["in.yaml:5: PriorityClass high: value: Forbidden: maximum allowed value of a user defined priority is 1000000000"],
        id="priority too high"),
    pytest.param(
        [_with(samples.PRIORITY_CLASS, _set(("metadata", "name"), "system-mine"))],
        ["in.yaml:4: PriorityClass system-mine: metadata.name: Forbidden: priority class names with 'system-' prefix "
         "are reserved for system use only. error: system-mine is not a known system priority class"],
        id="system prefix"),
    pytest.param(
        [_with(samples.POD, _set(("spec", "workloadRef"), {"name": "w", "podGroup": "g"})), samples.PRIORITY_CLASS],
        ["in.yaml:20: Pod team-a/trainer-0: spec.schedulingGroup: cannot be set together with spec.workloadRef"],
        id="two group links"),
    pytest.param(
        [_with(samples.POD, _set(("spec",), {"containers": [{"name": "c"}],
                                             "workloadRef": {"name": "w", "podGroup": "G", "podGroupReplicaKey": "_"}}))],
        ['in.yaml:19: Pod team-a/trainer-0: spec.workloadRef.podGroup: Invalid value: "G": ' + DNS_LABEL,
         'in.yaml:20: Pod team-a/trainer-0: spec.workloadRef.podGroupReplicaKey: Invalid value: "_": ' + DNS_LABEL],
        id="workloadRef names"),
    pytest.param(
        [_with(samples.POD, _set(("metadata", "creationTimestamp"), "yesterday")), samples.PRIORITY_CLASS],
        ['in.yaml:8: Pod team-a/trainer-0: metadata.creationTimestamp: invalid timestamp "yesterday"; expected '
         "RFC 3339, e.g. 2025-01-01T00:00:00Z"],
        id="bad timestamp"),
    pytest.param(
        [_with(samples.POD, _set(("spec", "containers", 0, "resources", "limits", "memory"), "1Gi")), samples.PRIORITY_CLASS],
        # validateResourceRequirements: at reqPath (the line: the request's)
        ['in.yaml:113: Pod team-a/trainer-0: spec.containers[0].resources.requests: Invalid value: "2Gi": must be '
         "less than or equal to memory limit of 1Gi"],
        id="request above limit"),
    pytest.param(
        [_with(samples.POD, _set(("spec", "containers", 0, "resources", "requests", "nvidia.com/gpu"), "x")), samples.PRIORITY_CLASS],
        ['in.yaml:114: Pod team-a/trainer-0: spec.containers[0].resources.requests[nvidia.com/gpu]: invalid quantity "x"'],
        id="extended resource quantity"),
    pytest.param(
        [_with(samples.NODE, _set(("status", "allocatable", "cpu"), "lots"))],
        ['in.yaml:19: Node n1: status.allocatable.cpu: invalid quantity "lots"'],
        id="node quantity"),
    pytest.param(
        [_with(samples.POD, _set(("apiVersion",), "v2"))],
        ['in.yaml:1: Pod team-a/trainer-0: apiVersion: unsupported apiVersion "v2" for Pod; supported: v1'],
        id="unsupported core version"),
    pytest.param(
        [_with(WL, _set(("apiVersion",), "scheduling.k8s.io/v1"))],
        ['in.yaml:1: Workload team-a/w3: apiVersion: unsupported apiVersion "scheduling.k8s.io/v1" for Workload; '
         "supported: scheduling.k8s.io/v1alpha1, scheduling.k8s.io/v1alpha2, scheduling.k8s.io/v1alpha3, "
         "scheduling.k8s.io/v1beta1"],
        id="unsupported workload version"),
    pytest.param(
        [_with(samples.POD, _del(("kind",)))],
        ["in.yaml:1: kind: required field is missing (every object needs apiVersion and kind)"],
        id="no kind"),
    pytest.param(
        [_with(samples.POD, _set(("apiVersion",), 1))],
        ["in.yaml:1: Pod team-a/trainer-0: apiVersion: must be a string"],
        id="apiVersion not a string"),
    pytest.param(
        [_with(samples.POD, _del(("metadata", "name"))), samples.PRIORITY_CLASS],
        ["in.yaml:3: Pod: metadata.name: Required value: name or generateName is required"],
        id="no name"),
    pytest.param(
        [samples.SCHEDULER_CONFIG, samples.SCHEDULER_CONFIG],
        ["in.yaml:1: KubeSchedulerConfiguration: more than one KubeSchedulerConfiguration in the input; also at in.yaml:26",
         "in.yaml:26: KubeSchedulerConfiguration: more than one KubeSchedulerConfiguration in the input; also at in.yaml:1"],
        id="two scheduler configurations"),
]


@pytest.mark.parametrize("objs, expected", CASES)
def test_bad_input(manifests, objs, expected):
    manifests.write("in.yaml", dump(*objs))
    if expected:
        assert manifests.problems("in.yaml") == expected
    else:
        manifests.load("in.yaml")


# --- rules that need more than one object --------------------------------------------------------


def test_duplicates_are_reported_at_both_places(manifests):
    manifests.write("a.yaml", dump(samples.NODE, samples.PRIORITY_CLASS))
    manifests.write("b.json", '{"apiVersion": "v1", "kind": "List", "items": [\n'
                              '  {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"}}\n]}\n')
    assert manifests.problems("a.yaml", "b.json") == [
        "a.yaml:1: Node n1: defined more than once; also at b.json:2",
        "b.json:2: Node n1: defined more than once; also at a.yaml:1",
    ]


def test_same_name_in_other_namespaces_or_kinds_is_fine(manifests):
    other_ns = sample(samples.POD)
    other_ns["metadata"]["namespace"] = "team-b"
    same_name_group = sample(samples.POD_GROUP_V1BETA1)
    same_name_group["metadata"]["name"] = "trainer-0"
    del same_name_group["spec"]["workloadRef"]
    manifests.write("in.yaml", dump(samples.PRIORITY_CLASS, samples.POD, other_ns, same_name_group))
    assert len(manifests.load("in.yaml").pods) == 2


def test_global_default_twice_is_accepted_and_the_lowest_applies(manifests):
    # plugin/pkg/admission/priority getDefaultPriorityClass: "In case more than one global
    # default priority class is added as a result of a race condition, we pick the one with the
    # lowest priority value."
    a = sample(samples.PRIORITY_CLASS) | {"globalDefault": True}
    b = sample(a) | {"value": 10}
    b["metadata"]["name"] = "other"
    pod = sample(samples.POD)
    pod["spec"].pop("priorityClassName", None)
    pod["spec"].pop("priority", None)
    manifests.write("in.yaml", dump(a, b, pod))
    loaded = manifests.load("in.yaml")
    assert [p.priority for p in loaded.pods] == [10]


def test_a_pod_with_spec_priority_needs_no_priority_class(manifests):
    # The scheduler reads spec.priority (corev1helpers.PodPriority) and never looks the class up.
    pod = sample(samples.POD)
    pod["spec"]["priorityClassName"] = "gone"
    pod["spec"]["priority"] = 42
    manifests.write("in.yaml", dump(pod))
    assert [p.priority for p in manifests.load("in.yaml").pods] == [42]
    del pod["spec"]["priority"]
    manifests.write("in.yaml", dump(pod))
    assert manifests.problems("in.yaml") == [
        'in.yaml:16: Pod team-a/trainer-0: spec.priorityClassName: no PriorityClass with name gone was found']


def test_pods_naming_missing_groups_are_not_errors(manifests):
    v1alpha1 = sample(samples.POD)
    del v1alpha1["spec"]["schedulingGroup"]
    v1alpha1["spec"]["workloadRef"] = {"name": "gone", "podGroup": "workers"}
    v1alpha1["metadata"]["name"] = "old"
    manifests.write("in.yaml", dump(samples.PRIORITY_CLASS, samples.POD, v1alpha1))
    ci = manifests.load("in.yaml")
    assert [p.pod_group for p in ci.pods] == ["gone/workers", "pg"]
    assert ci.pod_groups == ()


def test_a_broken_workload_does_not_also_make_its_groups_fail(manifests):
    broken = _with(WL, _set(("spec", "podGroupTemplates", 0, "schedulingPolicy"), {}))
    manifests.write("in.yaml", dump(broken, PG))
    assert manifests.problems("in.yaml") == [
        'in.yaml:9: Workload team-a/w3: spec.podGroupTemplates[0].schedulingPolicy: Invalid value: "": must specify '
        "one of: `basic`, `gang`",
    ]


DANGLING = "; the API server accepts the reference and kube-scheduler does not read it"


@pytest.mark.parametrize("objs, note", [
    ([WL, _with(PG, _set(("spec", "workloadRef", "workloadName"), "missing"))],
     'PodGroup team-a/pg3: spec.workloadRef.workloadName: Workload "missing" not found in namespace "team-a"'),
    ([WL, _with(PG, _set(("spec", "workloadRef", "templateName"), "nope"))],
     'PodGroup team-a/pg3: spec.workloadRef.templateName: Workload "w3" has no pod group template "nope" '
     "(it has: workers)"),
    ([samples.WORKLOAD_V1ALPHA2, _with(samples.POD_GROUP_V1ALPHA2, _set(
        ("spec", "podGroupTemplateRef", "workload", "podGroupTemplateName"), "nope")), samples.PRIORITY_CLASS],
     "PodGroup team-a/pg2: spec.podGroupTemplateRef.workload.podGroupTemplateName: "
     'Workload "w2" has no pod group template "nope" (it has: workers)'),
    ([samples.WORKLOAD_V1ALPHA3, _with(samples.COMPOSITE_POD_GROUP, _set(("spec", "workloadRef", "templateName"), "workers"))],
     "CompositePodGroup team-a/rack-0: spec.workloadRef.templateName: "
     'Workload "w4" has no composite pod group template "workers" (it has: block, rack)'),
], ids=["missing workload", "missing template", "v1alpha2 missing template", "composite template missing"])
def test_dangling_references_are_notes(manifests, objs, note):
    """kube-apiserver v1.37 accepts a reference to a Workload or template that does not exist
    (no validation or admission looks it up) and kube-scheduler plans the group by its own spec:
    the input is valid, and the note says what looks like a typo."""
    manifests.write("in.yaml", dump(*objs, samples.NODE))
    cluster = manifests.load("in.yaml")
    assert note + DANGLING in cluster.input_notes


def test_json_problems_find_their_lines(manifests):
    import orjson

    bad = _with(samples.POD, _set(("spec", "containers", 0, "resources", "requests", "cpu"), "1.2.3"))
    text = orjson.dumps({"apiVersion": "v1", "kind": "List", "items": [samples.PRIORITY_CLASS, bad]},
                        option=orjson.OPT_INDENT_2).decode()
    manifests.write("dump.json", text)
    (problem,) = manifests.problems("dump.json")
    line = next(i for i, t in enumerate(text.splitlines(), 1) if '"1.2.3"' in t)
    assert problem == (f'dump.json:{line}: Pod team-a/trainer-0: spec.containers[0].resources.requests.cpu: '
                       'invalid quantity "1.2.3"')


def test_stdin_problems_name_stdin(manifests):
    assert manifests.problems("-", stdin_text=pod("Bad")) == [
        '<stdin>:5: Pod team-a/Bad: metadata.name: Invalid value: "Bad": ' + SUBDOMAIN,
    ]


def test_problems_without_a_line_name_the_document():
    from podgroup_plan.errors import Problem

    assert str(Problem("x.json", "m", document=2, kind="Pod", namespace="a", name="b", path="spec")) == (
        "x.json: document 2 Pod a/b: spec: m")


# --- the scheduler configuration file and the summary --------------------------------------------


def test_load_scheduler_config(manifests):
    manifests.write("config.yaml", dump(samples.SCHEDULER_CONFIG))
    assert load_scheduler_config("config.yaml") == samples.SCHEDULER_CONFIG


@pytest.mark.parametrize(
    "objs, expected",
    [
        ([samples.NODE], ['config.yaml:2: Node n1: kind: expected a KubeSchedulerConfiguration, found "Node"']),
        ([], ["config.yaml: no KubeSchedulerConfiguration found"]),
        ([_with(samples.SCHEDULER_CONFIG, _set(("profiles", 0, "percentageOfNodesToScore"), 101))],
         ["config.yaml:25: KubeSchedulerConfiguration: profiles[0].percentageOfNodesToScore: must be at most 100, got 101"]),
        ([_with(samples.SCHEDULER_CONFIG, _set(("apiVersion",), "kubescheduler.config.k8s.io/v1beta3"))],
         ['config.yaml:1: KubeSchedulerConfiguration: apiVersion: unsupported apiVersion '
          '"kubescheduler.config.k8s.io/v1beta3" for KubeSchedulerConfiguration; supported: kubescheduler.config.k8s.io/v1']),
    ],
    ids=["wrong kind", "empty", "schema", "old version"],
)
def test_load_scheduler_config_problems(manifests, objs, expected):
    manifests.write("config.yaml", dump(*objs) if objs else "# nothing\n")
    with pytest.raises(InputError) as err:
        load_scheduler_config("config.yaml")
    assert [str(p) for p in err.value.problems] == expected


def test_summarize(manifests):
    running = sample(samples.POD)
    running["metadata"]["name"] = "running"
    running["spec"]["nodeName"] = "n1"
    v1alpha1 = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "m", "namespace": "team-a"},
                "spec": {"containers": [{"name": "c"}], "workloadRef": {"name": "w1", "podGroup": "workers"}}}
    manifests.write("in.yaml", dump(
        samples.NODE, samples.PRIORITY_CLASS, samples.POD, running, v1alpha1, samples.WORKLOAD_V1ALPHA1,
        samples.WORKLOAD_V1BETA1, PG, samples.SERVICE, samples.SCHEDULER_CONFIG,
        {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {"name": "d"}},
        {"apiVersion": "kueue.x-k8s.io/v1beta1", "kind": "Workload", "metadata": {"name": "k"}},
    ))
    assert summarize(load_input(["in.yaml"])) == [
        "Node: 1",
        "Pod: 3 (1 running, 2 pending)",
        "PriorityClass: 1",
        "Workload: 2",
        "PodGroup: 2 (1 implied by v1alpha1 workloadRef)",
        "Service: 1",
        "KubeSchedulerConfiguration: 1",
        "input kinds not planned (ignored): Ingress (1), Workload.kueue.x-k8s.io (1)",
    ]


def test_pods_written_alike_each_report_their_problems(manifests):
    bad = _with(samples.POD, _set(("spec", "containers", 0, "resources", "requests", "cpu"), "1.2.3"))
    other = _with(bad, _set(("metadata", "name"), "trainer-1"))
    manifests.write("in.yaml", dump(samples.PRIORITY_CLASS, bad, other))
    assert manifests.problems("in.yaml") == [
        'in.yaml:121: Pod team-a/trainer-0: spec.containers[0].resources.requests.cpu: invalid quantity "1.2.3"',
        'in.yaml:250: Pod team-a/trainer-1: spec.containers[0].resources.requests.cpu: invalid quantity "1.2.3"',
    ]


def test_problems_in_a_streamed_json_dump(manifests):
    import orjson

    pods = [sample(samples.POD) for _ in range(3)]
    for i, p in enumerate(pods):
        p["metadata"]["name"] = f"p{i}"
    pods[2]["metadata"]["name"] = "p0"  # a duplicate
    pods[1]["spec"]["priorityClassName"] = "missing"
    text = orjson.dumps({"apiVersion": "v1", "items": [samples.PRIORITY_CLASS] + pods, "kind": "List"},
                        option=orjson.OPT_INDENT_2).decode()
    manifests.write("dump.json", text)
    lines = text.splitlines()
    starts = [i for i, t in enumerate(lines, 1) if t == "    {"]
    missing = next(i for i, t in enumerate(lines, 1) if '"missing"' in t)
    assert manifests.problems("dump.json") == [
        f"dump.json:{starts[1]}: Pod team-a/p0: defined more than once; also at dump.json:{starts[3]}",
        f'dump.json:{missing}: Pod team-a/p1: spec.priorityClassName: no PriorityClass with name missing was found',
        f"dump.json:{starts[3]}: Pod team-a/p0: defined more than once; also at dump.json:{starts[1]}",
    ]


# --- issue 26: every problem of an object, metadata times, a Job's gang ---------------------------

def test_every_problem_of_one_object_at_once(manifests):
    """A value the schema refuses no longer hides the API server's rules about the same object
    (its validation errors come together)."""
    manifests.write("p.yaml", dump({
        "apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "a"},
        "spec": {"tolerations": [{"key": "gpu", "operator": "Exists", "value": "x"}],
                 "topologySpreadConstraints": [
                     {"maxSkew": 0, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"},
                     {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"}],
                 "containers": [{"name": "c", "image": "x"}]}}))
    problems = manifests.problems("p.yaml")
    assert [p.split(": ", 2)[2] for p in problems] == [
        "spec.tolerations[0].operator: Invalid value: \"x\": value must be empty when `operator` is 'Exists'",
        "spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero",
        'spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}: Duplicate value: "{zone, DoNotSchedule}"',
    ]


def test_spread_constraints_and_taints_get_the_api_servers_texts(manifests):
    """validateTopologySpreadConstraints and validateTaintEffect (pkg/apis/core/validation),
    where the schema once answered in its own words."""
    manifests.write("m.yaml", dump(
        {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"},
         "spec": {"taints": [{"key": "a", "effect": "Sometimes"}, {"key": "b", "effect": ""}]},
         "status": {"allocatable": {"cpu": "1", "pods": "10"}}},
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "a"},
         "spec": {"topologySpreadConstraints": [
             {"maxSkew": -1, "topologyKey": "", "whenUnsatisfiable": "Maybe"},
             {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule", "minDomains": 0}],
             "containers": [{"name": "c", "image": "x"}]}}))
    assert [p.split(": ", 2)[2] for p in manifests.problems("m.yaml")] == [
        'metadata.taints[0].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", '
        '"PreferNoSchedule", "NoExecute"',
        "metadata.taints[1].effect: Required value",
        "spec.topologySpreadConstraints[0].maxSkew: Invalid value: -1: must be greater than zero",
        "spec.topologySpreadConstraints[0].topologyKey: Required value: can not be empty",
        'spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: "Maybe": supported values: '
        '"DoNotSchedule", "ScheduleAnyway"',
        "spec.topologySpreadConstraints[1].minDomains: Invalid value: 0: must be greater than zero",
    ]


def test_a_wrong_type_still_stops_the_rules_that_read_typed_fields(manifests):
    """A shape the API server cannot decode (a list where a map goes) is reported alone: the
    rules after it read typed fields."""
    manifests.write("p.yaml", dump({
        "apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "a"},
        "spec": {"nodeSelector": ["zone"], "tolerations": [{"key": "a b", "operator": "Exists"}],
                 "containers": [{"name": "c", "image": "x"}]}}))
    problems = manifests.problems("p.yaml")
    assert len(problems) == 1 and "spec.nodeSelector: must be" in problems[0], problems


@pytest.mark.parametrize("kind, obj", [
    ("Node", {"apiVersion": "v1", "kind": "Node",
              "status": {"allocatable": {"cpu": "1", "pods": "10"}}}),
    ("PodDisruptionBudget", {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
                             "spec": {"minAvailable": 1, "selector": {}}}),
])
@pytest.mark.parametrize("stamp", ["2026-13-45T99:99:99Z", "2026-02-30T10:00:00Z", "20260601T070000Z",
                                   "2026-06-01T07:00:00+25:00"])
def test_metadata_times_are_checked_in_every_kind(manifests, kind, obj, stamp):
    """A Node's creationTimestamp is never read by the planner, but the API server cannot decode
    the object: the impossible date was accepted."""
    node = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n0"},
            "status": {"allocatable": {"cpu": "1", "pods": "10"}}}
    obj = dict(obj, metadata={"name": "x", "namespace": "a", "creationTimestamp": stamp})
    if kind == "Node":
        obj["metadata"].pop("namespace")
    manifests.write("m.yaml", dump(node, obj))
    problems = manifests.problems("m.yaml")
    assert any(p.endswith(f'metadata.creationTimestamp: invalid timestamp "{stamp}"; expected RFC 3339, '
                          "e.g. 2025-01-01T00:00:00Z") for p in problems), problems


def _job(parallelism, min_count):
    spec = {"scheduling": {"schedulingPolicy": {"gang": {"minCount": min_count}}},
            "template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "x"}]}}}
    if parallelism is not None:
        spec["parallelism"] = parallelism
    return spec


@pytest.mark.parametrize("parallelism, min_count, bad", [(4, 6, True), (4, 4, False), (None, 2, True),
                                                         (None, 1, False)])
def test_a_gang_min_count_above_parallelism_is_refused_as_batch_validation_does(manifests, parallelism,
                                                                                min_count, bad):
    """v1.37.0 pkg/apis/batch/validation validateGangMinCount: `minCount: 6, parallelism: 4`
    could never start (parallelism defaults to 1); also in a CronJob's jobTemplate."""
    node = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n0"},
            "status": {"allocatable": {"cpu": "1", "pods": "10"}}}
    job = {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j", "namespace": "a"},
           "spec": _job(parallelism, min_count)}
    cron = {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": {"name": "c", "namespace": "a"},
            "spec": {"schedule": "0 * * * *", "jobTemplate": {"spec": _job(parallelism, min_count)}}}
    manifests.write("m.yaml", dump(node, job, cron))
    text = f"Invalid value: {min_count}: must not be greater than parallelism ({parallelism or 1})"
    if not bad:
        manifests.load("m.yaml")
        return
    problems = manifests.problems("m.yaml")
    assert [p.split(": ", 2)[2] for p in problems] == [
        f"spec.scheduling.schedulingPolicy.gang.minCount: {text}",
        f"spec.jobTemplate.spec.scheduling.schedulingPolicy.gang.minCount: {text}",
    ]


@pytest.mark.parametrize("toleration, expected", [
    ({"key": "gpu", "operator": "Exists", "value": "x"},
     ["spec.tolerations[0].operator: Invalid value: \"x\": value must be empty when `operator` is 'Exists'"]),
    ({"operator": "Equal", "value": "x"},
     ['spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, '
      'which means "match all values and all keys"']),
    ({"key": "gpu", "operator": "Like"},
     ['spec.tolerations[0].operator: Unsupported value: "Like": supported values: "Equal", "Exists"']),
    ({"key": "gpu", "operator": "Exists", "effect": "NoExec"},
     ['spec.tolerations[0].effect: Unsupported value: "NoExec": supported values: "NoSchedule", '
      '"PreferNoSchedule", "NoExecute"']),
    ({"key": "gpu", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 5}, []),
    ({"operator": "Exists"}, []),
])
def test_tolerations_get_validate_tolerations_texts(manifests, toleration, expected):
    """ValidateTolerations (v1.37.0 pkg/apis/core/validation): its paths and texts, where the
    schema once answered in its own words."""
    manifests.write("p.yaml", dump(
        {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"},
         "status": {"allocatable": {"cpu": "1", "pods": "10"}}},
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "a"},
         "spec": {"tolerations": [toleration], "containers": [{"name": "c", "image": "x"}]}}))
    if not expected:
        manifests.load("p.yaml")
        return
    assert [p.split(": ", 2)[2] for p in manifests.problems("p.yaml")] == expected


def test_the_problems_of_one_field_keep_the_order_they_were_found_in():
    """Problems are sorted by place (file, line, document, path), stably: several of one field
    stay in the order the checks found them, which is the API server's order
    (validatePodAffinityTerm: Required, then ValidateLabelName's)."""
    found = [Problem("f", "Required value", line=3, path="k"), Problem("f", "Invalid value: 2", line=3, path="k"),
             Problem("f", "Invalid value: 1", line=3, path="k"), Problem("f", "z", line=1, path="k"),
             Problem("a", "y", line=9, path="b"), Problem("f", "x", line=3, path="a")]
    assert [(p.file, p.path, p.message) for p in InputError(found).problems] == [
        ("a", "b", "y"), ("f", "k", "z"), ("f", "a", "x"),
        ("f", "k", "Required value"), ("f", "k", "Invalid value: 2"), ("f", "k", "Invalid value: 1")]


def test_map_problems_are_shown_where_the_api_server_says_and_found_at_their_key(manifests):
    """Upstream reports a label map's problems at the map (`metadata.labels`,
    `spec.nodeSelector`, a selector's `matchLabels`: ValidateLabels) and a Node's taints under
    `metadata.taints` (validateNodeTaints is passed the metadata's path): the tool prints those
    paths, and still gives the line of the key or taint that holds the problem."""
    manifests.write("m.yaml", """\
apiVersion: v1
kind: Node
metadata:
  name: n
  labels:
    good: x
    bad key: x
spec:
  taints:
  - {key: a, effect: NoSchedule}
  - {key: -b, effect: NoSchedule}
status: {allocatable: {cpu: "1", pods: "10"}}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: a}
spec:
  nodeSelector:
    zone: a
    disk: "ssd!"
  containers: [{name: c, image: x}]
""")
    shown = [(p.split(": ")[0], p.split(": ", 3)[2]) for p in manifests.problems("m.yaml")]
    assert shown == [
        ("m.yaml:7", "metadata.labels"),
        ("m.yaml:11", "metadata.taints[1].key"),
        ("m.yaml:20", "spec.nodeSelector"),
    ]


def test_resource_problems_are_shown_at_the_api_servers_paths_and_found_at_their_amounts(manifests):
    """validateResourceRequirements' paths (field.Path.Key: `limits[cpu]`; the requirements'
    own `requests` and `limits`), validateOverhead's (`spec.overhead.limits[...]`, the overhead
    checked as a container's limits) and ValidateNodeResources' (`status.capacity.NAME`), each
    located at the amount concerned; a Pod's limit without a request is its request too
    (SetDefaults_Pod), and says so twice, at the limit's line."""
    manifests.write("m.yaml", """\
apiVersion: v1
kind: Node
metadata: {name: n}
status:
  capacity:
    cpu: "4"
    example.com/gpu: "0.5"
  allocatable: {cpu: "1", pods: "10"}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: a}
spec:
  overhead:
    cpu: 250m
    memory: -1Mi
  containers:
  - name: c
    image: x
    resources:
      requests:
        example.com/gpu: "1"
      limits:
        cpu: -1
---
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: kata}
handler: kata
overhead:
  podFixed:
    cpu: -0.5
""")
    shown = [(p.split(": ")[0], p.split(": ", 2)[2]) for p in manifests.problems("m.yaml")]
    assert shown == [
        ("m.yaml:7", 'status.capacity.example.com/gpu: Invalid value: "500m": must be an integer'),
        ("m.yaml:16", 'spec.overhead.limits[memory]: Invalid value: "-1Mi": must be greater than or equal to 0'),
        ("m.yaml:22", "spec.containers[0].resources.limits: Required value: Limit must be set for non "
                      "overcommitable resources"),
        ("m.yaml:24", 'spec.containers[0].resources.limits[cpu]: Invalid value: "-1": must be greater than or '
                      "equal to 0"),
        ("m.yaml:24", 'spec.containers[0].resources.requests[cpu]: Invalid value: "-1": must be greater than or '
                      "equal to 0"),
        ("m.yaml:32", 'overhead.limits[cpu]: Invalid value: "-500m": must be greater than or equal to 0'),
    ]


def test_a_pod_templates_limit_is_not_its_request(manifests):
    """SetDefaults_Pod copies limits into requests for Pods, not for pod templates: a
    Deployment's template says it once."""
    manifests.write("m.yaml", dump(
        {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d", "namespace": "a"},
         "spec": {"selector": {"matchLabels": {"app": "d"}}, "template": {
             "metadata": {"labels": {"app": "d"}},
             "spec": {"containers": [{"name": "c", "image": "x", "resources": {"limits": {"cpu": "-1"}}}]}}}}))
    assert [p.split(": ", 2)[2] for p in manifests.problems("m.yaml")] == [
        'spec.template.spec.containers[0].resources.limits[cpu]: Invalid value: "-1": must be greater than or '
        "equal to 0"]
