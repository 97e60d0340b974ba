"""Bad manifests beyond docs/problems.md's cases, for the comparison with the API server
(test_validation_oracle.py): each family of a rule in several variations, where one example
per family (the catalogue's) would not show that every variation is worded as the server
words it. Each entry: (title, YAML of one or more objects)."""
from __future__ import annotations

WL = """\
apiVersion: scheduling.k8s.io/{version}
kind: Workload
metadata: {{name: train, namespace: ml}}
spec:
{spec}"""

PG = """\
apiVersion: scheduling.k8s.io/{version}
kind: PodGroup
metadata: {{name: train-workers, namespace: ml}}
spec:
{spec}"""

CPG = """\
apiVersion: scheduling.k8s.io/{version}
kind: CompositePodGroup
metadata: {{name: train-all, namespace: ml}}
spec:
{spec}"""

POD = """\
apiVersion: v1
kind: Pod
metadata: {{name: worker-0, namespace: ml}}
spec:
  containers: [{{name: c, image: busybox}}]
{spec}"""

GANG = "schedulingPolicy: {gang: {minCount: 2}}"


def workload(spec: str, version: str = "v1beta1") -> str:
    return WL.format(version=version, spec=spec)


def pod_group(spec: str, version: str = "v1beta1") -> str:
    return PG.format(version=version, spec=spec)


def composite(spec: str, version: str = "v1beta1") -> str:
    return CPG.format(version=version, spec=spec)


def pod(spec: str) -> str:
    return POD.format(spec=spec)


def _scheduling(version: str) -> list[tuple[str, str]]:
    v = version
    return [
        (f"{v} Workload: two templates with one name", workload(f"""\
  podGroupTemplates:
  - {{name: a, {GANG}}}
  - {{name: a, {GANG}}}
""", v)),
        (f"{v} Workload: an empty template name", workload(f"""\
  podGroupTemplates:
  - {{name: "", {GANG}}}
""", v)),
        (f"{v} Workload: a template name that is not a DNS label", workload(f"""\
  podGroupTemplates:
  - {{name: Bad_Name, {GANG}}}
""", v)),
        (f"{v} Workload: basic and gang both", workload("""\
  podGroupTemplates:
  - {name: a, schedulingPolicy: {basic: {}, gang: {minCount: 1}}}
""", v)),
        (f"{v} Workload: neither basic nor gang", workload("""\
  podGroupTemplates:
  - {name: a, schedulingPolicy: {}}
""", v)),
        (f"{v} Workload: no scheduling policy", workload("""\
  podGroupTemplates:
  - {name: a}
""", v)),
        (f"{v} Workload: a gang of zero and of minus one", workload("""\
  podGroupTemplates:
  - {name: a, schedulingPolicy: {gang: {minCount: 0}}}
  - {name: b, schedulingPolicy: {gang: {minCount: -1}}}
""", v)),
        (f"{v} Workload: no templates at all", workload("  {}\n", v).replace("spec:\n  {}", "spec: {}")),
        (f"{v} Workload: both template lists", workload(f"""\
  podGroupTemplates:
  - {{name: a, {GANG}}}
  compositePodGroupTemplates:
  - name: c
    schedulingPolicy: {{basic: {{}}}}
    podGroupTemplates: [{{name: b, {GANG}}}]
""", v)),
        (f"{v} Workload: a composite template without children", workload("""\
  compositePodGroupTemplates:
  - name: c
    schedulingPolicy: {basic: {}}
    compositePodGroupTemplates:
    - {name: d, schedulingPolicy: {basic: {}}}
""", v)),
        (f"{v} Workload: composite templates five deep", workload(f"""\
  compositePodGroupTemplates:
  - name: c1
    schedulingPolicy: {{basic: {{}}}}
    compositePodGroupTemplates:
    - name: c2
      schedulingPolicy: {{basic: {{}}}}
      compositePodGroupTemplates:
      - name: c3
        schedulingPolicy: {{basic: {{}}}}
        compositePodGroupTemplates:
        - name: c4
          schedulingPolicy: {{basic: {{}}}}
          compositePodGroupTemplates:
          - name: c5
            schedulingPolicy: {{basic: {{}}}}
            podGroupTemplates: [{{name: w, {GANG}}}]
""", v)),
        (f"{v} Workload: templates with different priority classes", workload(f"""\
  podGroupTemplates:
  - {{name: a, {GANG}, priorityClassName: high}}
  - {{name: b, {GANG}, priorityClassName: low}}
""", v)),
        (f"{v} Workload: a composite's children with different priority classes", workload(f"""\
  compositePodGroupTemplates:
  - name: c
    schedulingPolicy: {{basic: {{}}}}
    priorityClassName: high
    podGroupTemplates: [{{name: b, {GANG}, priorityClassName: low}}]
""", v)),
        (f"{v} Workload: one name for a template and a composite template", workload(f"""\
  compositePodGroupTemplates:
  - name: c
    schedulingPolicy: {{basic: {{}}}}
    podGroupTemplates: [{{name: c, {GANG}}}]
""", v)),
        (f"{v} Workload: templates without names in the tree", workload(f"""\
  podGroupTemplates:
  - {{{GANG}}}
  compositePodGroupTemplates:
  - schedulingPolicy: {{basic: {{}}}}
    podGroupTemplates: [{{{GANG}}}]
""", v)),
        (f"{v} Workload: a controllerRef without kind or name", workload(f"""\
  controllerRef: {{apiGroup: "batch", kind: "", name: ""}}
  podGroupTemplates:
  - {{name: a, {GANG}}}
""", v)),
        (f"{v} Workload: a controllerRef with bad names", workload(f"""\
  controllerRef: {{apiGroup: "Not_A.Group", kind: "a/b", name: ".."}}
  podGroupTemplates:
  - {{name: a, {GANG}}}
""", v)),
        (f"{v} Workload: nine templates", workload("  podGroupTemplates:\n" + "".join(
            f"  - {{name: t{i}, {GANG}}}\n" for i in range(9)), v)),
        (f"{v} Workload: all-or-nothing disruption on a basic template", workload("""\
  podGroupTemplates:
  - {name: a, schedulingPolicy: {basic: {}}, disruptionMode: {all: {}}}
""", v)),
        (f"{v} Workload: topology constraints with bad keys", workload(f"""\
  podGroupTemplates:
  - name: a
    {GANG}
    schedulingConstraints:
      topology: [{{key: ""}}]
  - name: b
    {GANG}
    schedulingConstraints:
      topology: [{{key: "not a key"}}]
  - name: c
    {GANG}
    schedulingConstraints:
      topology: [{{key: rack}}, {{key: zone}}]
""", v)),
        (f"{v} PodGroup: a parent without a workloadRef", pod_group(f"""\
  parentCompositePodGroupName: train-all
  {GANG}
""", v)),
        (f"{v} PodGroup: empty names in its workloadRef", pod_group(f"""\
  workloadRef: {{workloadName: "", templateName: ""}}
  {GANG}
""", v)),
        (f"{v} PodGroup: bad names in its workloadRef", pod_group(f"""\
  workloadRef: {{workloadName: "Train", templateName: "a.b"}}
  {GANG}
""", v)),
        (f"{v} PodGroup: an empty scheduling policy", pod_group("  schedulingPolicy: {}\n", v)),
        (f"{v} PodGroup: no spec fields", pod_group("  {}\n", v).replace("spec:\n  {}", "spec: {}")),
        (f"{v} PodGroup: a name that is not a DNS subdomain", pod_group(f"  {GANG}\n", v).replace(
            "name: train-workers", "name: Train_Workers")),
        (f"{v} PodGroup: a Workload that does not exist", pod_group(f"""\
  workloadRef: {{workloadName: missing, templateName: workers}}
  {GANG}
""", v)),
        (f"{v} PodGroup: a template its Workload does not have", workload(f"""\
  podGroupTemplates:
  - {{name: workers, {GANG}}}
""", v) + "---\n" + pod_group(f"""\
  workloadRef: {{workloadName: train, templateName: other}}
  {GANG}
""", v)),
        (f"{v} PodGroup: all-or-nothing disruption with a basic policy", pod_group("""\
  schedulingPolicy: {basic: {}}
  disruptionMode: {all: {}}
""", v)),
    ] + ([] if v != "v1alpha3" else [  # CompositePodGroup is served in v1alpha3 only
        (f"{v} CompositePodGroup: an empty scheduling policy", composite("  schedulingPolicy: {}\n", v)),
        (f"{v} CompositePodGroup: a parent without a workloadRef", composite("""\
  parentCompositePodGroupName: top
  schedulingPolicy: {basic: {}}
""", v)),
    ])


def _core() -> list[tuple[str, str]]:
    """The built-in kinds' fields the planner reads (core/validation, apps, batch, policy,
    scheduling/v1), each rule family in several variations."""
    return [*_node_affinity(), *_tolerations(), *_spread(), *_pod_fields(),
            *_controllers(), *_jobs(), *_budgets(), *_priority_classes(), *_nodes()]


REQUIRED = ("  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n"
            "        nodeSelectorTerms:\n")
PREFERRED = "  affinity:\n    nodeAffinity:\n      preferredDuringSchedulingIgnoredDuringExecution:\n"


def _node_affinity() -> list[tuple[str, str]]:
    return [
        ("Pod: required node affinity, each operator with the wrong values", pod(REQUIRED + """\
        - matchExpressions:
          - {key: a, operator: In}
          - {key: b, operator: NotIn, values: []}
          - {key: c, operator: Exists, values: [x]}
          - {key: d, operator: DoesNotExist, values: [x, y]}
          - {key: e, operator: Gt}
          - {key: f, operator: Gt, values: ['1', '2']}
          - {key: g, operator: Lt, values: []}
          - {key: i, operator: Bad}
          - {key: j, operator: ""}
""")),
        ("Pod: required node affinity, Gt and Lt with values that are not integers", pod(REQUIRED + """\
        - matchExpressions:
          - {key: a, operator: Gt, values: [abc]}
          - {key: b, operator: Lt, values: ['0x10']}
          - {key: c, operator: Gt, values: ['1.5']}
          - {key: d, operator: Lt, values: ['99999999999999999999']}
          - {key: e, operator: Gt, values: ['']}
""")),
        ("Pod: required node affinity, bad keys and values", pod(REQUIRED + """\
        - matchExpressions:
          - {key: "", operator: Exists}
          - {key: "a/b/c", operator: Exists}
          - {key: "Bad_Prefix/x", operator: Exists}
          - {key: zone, operator: In, values: ["not a value", "-x", ok]}
          - {key: zone, operator: Gt, values: ["-"]}
""")),
        ("Pod: required node affinity, matchFields", pod(REQUIRED + """\
        - matchFields:
          - {key: metadata.labels, operator: In, values: [a]}
          - {key: metadata.name, operator: In, values: [a, b]}
          - {key: metadata.name, operator: NotIn, values: []}
          - {key: metadata.name, operator: In}
          - {key: metadata.name, operator: In, values: [Bad_Node]}
          - {key: metadata.name, operator: Exists}
          - {key: metadata.name, operator: Gt, values: ['1']}
          - {key: spec.unschedulable, operator: DoesNotExist}
          - {key: "", operator: ""}
""")),
        ("Pod: required node affinity, matchFields with a bad name and two values", pod(REQUIRED + """\
        - matchFields:
          - {key: metadata.name, operator: NotIn, values: [Bad_Node, "a..b"]}
""")),
        ("Pod: required node affinity without terms", pod(REQUIRED.replace(
            "nodeSelectorTerms:\n", "nodeSelectorTerms: []\n"))),
        ("Pod: required node affinity with a null term list", pod(REQUIRED.replace(
            "nodeSelectorTerms:\n", "nodeSelectorTerms: null\n"))),
        ("Pod: preferred node affinity, weights out of range", pod(PREFERRED + """\
      - weight: 0
        preference: {matchExpressions: [{key: a, operator: Exists}]}
      - weight: 101
        preference: {}
      - weight: -1
        preference: {matchFields: [{key: metadata.name, operator: In, values: [n]}]}
""")),
        ("Pod: preferred node affinity, each operator with the wrong values", pod(PREFERRED + """\
      - weight: 5
        preference:
          matchExpressions:
          - {key: a, operator: In}
          - {key: c, operator: Exists, values: [x]}
          - {key: e, operator: Lt, values: ['1', '2']}
          - {key: g, operator: Gt, values: [abc]}
          - {key: h, operator: In, values: ['not a value']}
          - {key: "", operator: Nope}
          matchFields:
          - {key: metadata.uid, operator: In, values: [a, b]}
""")),
        ("Deployment: node affinity in a pod template", deployment(REQUIRED.replace("\n  ", "\n      ").replace(
            "  affinity", "      affinity", 1) + """\
            - matchExpressions: [{key: a, operator: In}]
              matchFields: [{key: metadata.name, operator: In, values: [a, b]}]
""")),
    ]


def _tolerations() -> list[tuple[str, str]]:
    return [
        ("Pod: tolerations, operators and values", pod("""\
  tolerations:
  - {key: a, operator: Exists, value: x}
  - {key: "", operator: Equal, value: x}
  - {operator: ""}
  - {key: a, operator: Equal, value: "not a value"}
  - {key: a, value: "-bad-"}
  - {key: a, operator: In, value: x}
  - {key: a, operator: equal}
  - {key: "Bad Key", operator: Exists}
  - {key: a/b/c, operator: Exists}
""")),
        ("Pod: tolerations, effects and seconds", pod("""\
  tolerations:
  - {key: a, operator: Exists, effect: NoSchedule, tolerationSeconds: 10}
  - {key: a, operator: Exists, tolerationSeconds: 10}
  - {key: a, operator: Exists, effect: NoExecute, tolerationSeconds: -5}
  - {key: a, operator: Exists, effect: Sometimes}
  - {key: a, operator: Exists, effect: noschedule, tolerationSeconds: 0}
  - {operator: Exists, effect: PreferNoSchedule}
""")),
        ("Pod: tolerations with Gt and Lt", pod("""\
  tolerations:
  - {key: a, operator: Gt, value: "10", effect: NoSchedule}
  - {key: b, operator: Lt, value: abc}
  - {key: c, operator: Gt}
""")),
        ("DaemonSet: tolerations in a pod template", daemon_set("""\
      tolerations:
      - {key: a, operator: Exists, value: x}
      - {operator: Equal}
""")),
    ]


def _spread() -> list[tuple[str, str]]:
    spread = "  topologySpreadConstraints:\n"
    sel = "labelSelector: {matchLabels: {app: x}}"
    return [
        ("Pod: spread constraints, maxSkew and minDomains", pod(spread + f"""\
  - {{maxSkew: 0, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, {sel}}}
  - {{maxSkew: -1, topologyKey: rack, whenUnsatisfiable: ScheduleAnyway, minDomains: 2, {sel}}}
  - {{maxSkew: 1, topologyKey: host, whenUnsatisfiable: DoNotSchedule, minDomains: 0, {sel}}}
  - {{maxSkew: 1, topologyKey: row, whenUnsatisfiable: DoNotSchedule, minDomains: -3, {sel}}}
""")),
        ("Pod: spread constraints, keys, actions and repeats", pod(spread + f"""\
  - {{maxSkew: 1, topologyKey: "", whenUnsatisfiable: DoNotSchedule, {sel}}}
  - {{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: Maybe, {sel}}}
  - {{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, {sel}}}
  - {{maxSkew: 2, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, {sel}}}
  - {{maxSkew: 1, topologyKey: "not a key", whenUnsatisfiable: ScheduleAnyway, {sel}}}
""")),
        ("Pod: spread constraints, node policies", pod(spread + f"""\
  - {{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, nodeAffinityPolicy: Always, {sel}}}
  - {{maxSkew: 1, topologyKey: rack, whenUnsatisfiable: DoNotSchedule, nodeTaintsPolicy: honor, {sel}}}
  - {{maxSkew: 1, topologyKey: host, whenUnsatisfiable: DoNotSchedule, nodeAffinityPolicy: "", nodeTaintsPolicy: "", {sel}}}
""")),
        ("Pod: spread constraints, matchLabelKeys", pod(spread + """\
  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, matchLabelKeys: [app]}
  - {maxSkew: 1, topologyKey: rack, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: x}}, matchLabelKeys: [app, "", "Bad Key"]}
  - {maxSkew: 1, topologyKey: host, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchExpressions: [{key: tier, operator: Exists}]}, matchLabelKeys: [tier, pod-template-hash, pod-template-hash]}
""")),
        ("Pod: spread constraints, bad label selectors", pod(spread + """\
  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchExpressions: [{key: a, operator: In}, {key: b, operator: Gt, values: ['1']}]}}
  - {maxSkew: 1, topologyKey: rack, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {"bad key": "bad value"}}}
""")),
        ("Pod: matchLabelKeys merged from the pod's labels, then validated", pod("""\
  topologySpreadConstraints:
  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: x}}, matchLabelKeys: [app]}
  - {maxSkew: 1, topologyKey: rack, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchExpressions: [{key: tier, operator: Exists}]}, matchLabelKeys: [other, tier]}
  - {maxSkew: 1, topologyKey: host, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {zone: z}}, matchLabelKeys: [tier, tier]}
  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - topologyKey: zone
        labelSelector: {matchLabels: {app: x}}
        matchLabelKeys: [app]
        mismatchLabelKeys: [zone]
      - topologyKey: zone
        labelSelector: {matchLabels: {zone: z}}
        mismatchLabelKeys: [zone, tier]
        matchLabelKeys: [tier]
""").replace("namespace: ml}", "namespace: ml, labels: {app: x, tier: y, zone: z}}")),
        ("Deployment: matchLabelKeys in a template, not merged", deployment("""\
      topologySpreadConstraints:
      - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}, matchLabelKeys: [app, "bad key"]}
      - {maxSkew: 1, topologyKey: rack, whenUnsatisfiable: DoNotSchedule, matchLabelKeys: [app]}
      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - topologyKey: zone
            labelSelector: {matchLabels: {app: web}}
            matchLabelKeys: [app]
            mismatchLabelKeys: [app]
""")),
        ("Pod: pod affinity, namespaces and label keys", pod("""\
  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - topologyKey: zone
        labelSelector: {matchLabels: {app: x}}
        namespaces: [Bad_NS, ok, "a.b"]
        matchLabelKeys: [app, "bad key"]
        mismatchLabelKeys: [app]
      - topologyKey: zone
        matchLabelKeys: [app]
    podAntiAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 0
        podAffinityTerm: {topologyKey: zone, labelSelector: {matchExpressions: [{key: app, operator: Exists}]}, mismatchLabelKeys: [app]}
      - weight: 101
        podAffinityTerm: {topologyKey: zone, mismatchLabelKeys: [app]}
""")),
    ]


def _pod_fields() -> list[tuple[str, str]]:
    return [
        ("Pod: scheduling gates, empty, bad and repeated", pod("""\
  schedulingGates: [{name: ""}, {name: "a b"}, {name: example.com/gate}, {name: example.com/gate}, {name: x/y/z}]
""")),
        ("Pod: a nodeName that is not a DNS subdomain", pod("  nodeName: Bad_Node\n")),
        ("Pod: a schedulerName that is empty", pod('  schedulerName: ""\n')),
        ("Pod: container names: repeated, across init containers, not DNS labels", pod("""\
  initContainers:
  - {name: c, image: busybox}
  - {name: Init_1, image: busybox}
  - {name: side, image: busybox, restartPolicy: Always}
  - {name: side, image: busybox}
""").replace("containers: [{name: c, image: busybox}]", "containers: [{name: c, image: busybox}, {name: c, image: busybox}]")),
        ("Pod: init containers and sidecars with bad resources", pod("""\
  initContainers:
  - {name: init, image: busybox, resources: {requests: {cpu: '2'}, limits: {cpu: '1'}}}
  - {name: sidecar, image: busybox, restartPolicy: Always, resources: {requests: {example.com/gpu: '1'}}}
  - {name: other, image: busybox, restartPolicy: OnFailure}
""")),
    ]


def deployment(template_spec: str, kind: str = "Deployment", extra: str = "  replicas: 2\n",
               api: str = "apps/v1", name: str = "web") -> str:
    return f"""\
apiVersion: {api}
kind: {kind}
metadata: {{name: {name}, namespace: ml}}
spec:
{extra}  selector: {{matchLabels: {{app: web}}}}
  template:
    metadata: {{labels: {{app: web}}}}
    spec:
      containers: [{{name: c, image: busybox}}]
{template_spec}"""


def daemon_set(template_spec: str) -> str:
    return deployment(template_spec, "DaemonSet", extra="")


def job(spec: str, template_spec: str = "      restartPolicy: Never\n") -> str:
    return f"""\
apiVersion: batch/v1
kind: Job
metadata: {{name: train, namespace: ml}}
spec:
{spec}  template:
    spec:
      containers: [{{name: c, image: busybox}}]
{template_spec}"""


def _controllers() -> list[tuple[str, str]]:
    out = []
    for kind in ("Deployment", "ReplicaSet", "StatefulSet"):
        out += [
            (f"{kind}: negative replicas", deployment("", kind, "  replicas: -1\n")),
            (f"{kind}: an empty selector", deployment("", kind).replace("selector: {matchLabels: {app: web}}",
                                                                         "selector: {}")),
            (f"{kind}: a selector that does not match the template", deployment("", kind).replace(
                "matchLabels: {app: web}}", "matchLabels: {app: other}}")),
            (f"{kind}: no selector", deployment("", kind).replace("  selector: {matchLabels: {app: web}}\n", "")),
        ]
    out += [
        ("DaemonSet: a selector that does not match the template", daemon_set("").replace(
            "matchLabels: {app: web}}", "matchLabels: {app: other}}")),
        ("DaemonSet: no selector", daemon_set("").replace("  selector: {matchLabels: {app: web}}\n", "")),
        ("StatefulSet: a bad pod management policy", deployment("", "StatefulSet",
                                                                 "  replicas: 1\n  podManagementPolicy: Sometimes\n")),
        ("Deployment: a template whose pods never restart", deployment("      restartPolicy: Never\n")),
        ("StatefulSet: an empty pod management policy, defaulted", deployment("", "StatefulSet",
                                                                          '  replicas: 1\n  podManagementPolicy: ""\n')),
        ("StatefulSet: a selector that does not parse and pods that never restart", deployment(
            "      restartPolicy: OnFailure\n", "StatefulSet").replace(
            "selector: {matchLabels: {app: web}}", "selector: {matchExpressions: [{key: app, operator: In}]}")),
        ("Deployment: a selector that does not parse and pods that never restart", deployment(
            "      restartPolicy: Never\n").replace(
            "selector: {matchLabels: {app: web}}", "selector: {matchExpressions: [{key: app, operator: In}]}")),
        ("DaemonSet: pods that restart on failure", daemon_set("      restartPolicy: OnFailure\n")),
        ("Deployment: template labels that are not labels", deployment("").replace(
            "metadata: {labels: {app: web}}", 'metadata: {labels: {app: web, "bad key": "bad value"}}')),
        ("Job: template labels that become its own", job("").replace(
            "  template:\n    spec:", '  template:\n    metadata: {labels: {"bad key": x}}\n    spec:')),
        ("Job: template labels, its own labels given", job("").replace(
            "  template:\n    spec:", '  template:\n    metadata: {labels: {"bad key": x}}\n    spec:').replace(
            "namespace: ml}", "namespace: ml, labels: {app: train}}", 1)),
        ("ReplicationController: a selector defaulted from the template, or empty", """\
apiVersion: v1
kind: ReplicationController
metadata: {name: rc, namespace: ml}
spec:
  template:
    metadata: {labels: {app: rc}}
    spec:
      containers: [{name: c, image: busybox}]
---
apiVersion: v1
kind: ReplicationController
metadata: {name: rc2, namespace: ml}
spec:
  selector: {app: other, "x y": z}
  template:
    metadata: {labels: {app: rc, "bad key": v}}
    spec:
      restartPolicy: Never
      containers: [{name: c, image: busybox}]
---
apiVersion: v1
kind: ReplicationController
metadata: {name: rc3, namespace: ml}
spec:
  selector: {}
  template:
    spec:
      containers: [{name: c, image: busybox}]
"""),
        ("ReplicationController: negative replicas and no template labels", """\
apiVersion: v1
kind: ReplicationController
metadata: {name: rc, namespace: ml}
spec:
  replicas: -1
  selector: {app: rc}
  template:
    metadata: {labels: {app: other}}
    spec:
      containers: [{name: c, image: busybox}]
"""),
    ]
    return out


def _jobs() -> list[tuple[str, str]]:
    return [
        ("Job: negative parallelism and completions", job(
            "  parallelism: -1\n  completions: -2\n")),
        ("Job: an unknown completion mode", job("  completionMode: Sometimes\n")),
        ("Job: a template that restarts always", job("", "      restartPolicy: Always\n")),
        ("Job: a template without a restart policy", job("", "")),
        ("Job: a manual selector that does not match", job(
            "  manualSelector: true\n  selector: {matchLabels: {app: a}}\n").replace(
            "  template:\n    spec:", "  template:\n    metadata: {labels: {app: b}}\n    spec:")),
        ("Job: a selector without manualSelector", job("  selector: {matchLabels: {app: a}}\n")),
        ("Job: generated labels set otherwise in the template; a selector on the name only", job("").replace(
            "  template:\n    spec:", "  template:\n    metadata: {labels: {job-name: other, controller-uid: x}}\n"
            "    spec:") + "---\n" + job("  selector: {matchLabels: {job-name: train2}}\n").replace(
            "name: train,", "name: train2,")),
        ("Job: scheduling with basic and gang", job(
            "  scheduling: {schedulingPolicy: {basic: {}, gang: {minCount: 1}}}\n")),
        ("Job: scheduling with an empty policy", job("  scheduling: {schedulingPolicy: {}}\n")),
        ("Job: scheduling without a policy", job("  scheduling: {}\n")),
        ("Job: a gang of zero and a gang above parallelism", job(
            "  parallelism: 2\n  scheduling: {schedulingPolicy: {gang: {minCount: 0}}}\n")),
        ("Job: a gang above parallelism", job(
            "  parallelism: 2\n  completions: 4\n  scheduling: {schedulingPolicy: {gang: {minCount: 3}}}\n")),
        ("Job: scheduling constraints and disruption", job(
            "  parallelism: 2\n  scheduling:\n    schedulingPolicy: {basic: {}}\n"
            "    disruptionMode: {all: {}}\n    schedulingConstraints: {topology: [{key: ''}, {key: zone}]}\n")),
        ("Job: a gang policy with all disruption, and an empty disruption mode", job(
            "  parallelism: 2\n  scheduling:\n    schedulingPolicy: {gang: {}}\n    disruptionMode: {all: {}}\n")
            + "---\n" + job("  scheduling: {disruptionMode: {}, schedulingConstraints: {topology: [{}]}}\n").replace(
                "name: train,", "name: train2,")),
        ("Job: all disruption with no policy, which is Basic", job("  scheduling: {disruptionMode: {all: {}}}\n")),
        ("Job: both disruption modes and a bad topology key", job(
            "  scheduling: {disruptionMode: {single: {}, all: {}}, schedulingConstraints: {topology: [{key: 'a b'}]}}\n")),
        ("CronJob: a jobTemplate with negative parallelism", """\
apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly, namespace: ml}
spec:
  schedule: "0 1 * * *"
  jobTemplate:
    spec:
      parallelism: -1
      completions: -1
      template:
        spec:
          restartPolicy: Never
          containers: [{name: c, image: busybox}]
"""),
    ]


def budget(spec: str) -> str:
    return f"""\
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {{name: pdb, namespace: ml}}
spec:
{spec}"""


def _budgets() -> list[tuple[str, str]]:
    return [
        ("PodDisruptionBudget: a negative minAvailable", budget("  minAvailable: -1\n")),
        ("PodDisruptionBudget: a negative maxUnavailable", budget("  maxUnavailable: -2\n")),
        ("PodDisruptionBudget: percentages above 100", budget("  minAvailable: 150%\n")),
        ("PodDisruptionBudget: a negative percentage", budget("  maxUnavailable: '-10%'\n")),
        ("PodDisruptionBudget: a string that is not a percentage", budget("  minAvailable: half\n")),
        ("PodDisruptionBudget: a number as a string", budget("  maxUnavailable: '3'\n")),
        ("PodDisruptionBudget: a percentage without a number", budget("  minAvailable: '%'\n")),
        ("PodDisruptionBudget: a bad selector", budget(
            "  minAvailable: 1\n  selector: {matchExpressions: [{key: a, operator: In}]}\n")),
    ]


def priority_class(body: str, name: str = "high") -> str:
    return f"""\
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {{name: {name}}}
{body}"""


def _priority_classes() -> list[tuple[str, str]]:
    return [
        ("PriorityClass: an unknown preemption policy", priority_class("value: 10\npreemptionPolicy: Sometimes\n")),
        ("PriorityClass: an empty preemption policy", priority_class('value: 10\npreemptionPolicy: ""\n')),
        ("PriorityClass: a system- name", priority_class("value: 10\n", "system-mine")),
        ("PriorityClass: a built-in name with another value", priority_class("value: 10\n", "system-node-critical")),
        ("PriorityClass: a name that is not a DNS subdomain", priority_class("value: 10\n", "High_Class")),
        ("PriorityClass: a negative value", priority_class("value: -2147483648\n")),
    ]


def node(spec: str = "", status: str = "", name: str = "n1") -> str:
    return f"""\
apiVersion: v1
kind: Node
metadata: {{name: {name}}}
{spec}{status}"""


def _long_names() -> str:
    """NameIsDNSLabel and NameIsDNSSubdomain (util/validation) count a name's length in
    characters, the declarative formats (content) and IsLabelValue in bytes."""
    label, subdomain = "a" * 64, ".".join(["a" * 60] * 5)[:254]
    return (pod(f"""\
  nodeName: {subdomain}
  schedulingGroup: {{podGroupName: {subdomain}}}
  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - {{topologyKey: zone, namespaces: [{label}], labelSelector: {{}}}}
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms: [{{matchFields: [{{key: metadata.name, operator: In, values: [{subdomain}]}}]}}]
""").replace("name: worker-0", f"name: {subdomain}") + f"""\
---
apiVersion: scheduling.k8s.io/v1beta1
kind: Workload
metadata: {{name: {subdomain}, namespace: ml}}
spec:
  podGroupTemplates: [{{name: {label}, schedulingPolicy: {{basic: {{}}}}}}]
---
apiVersion: v1
kind: Service
metadata: {{name: {label}, namespace: ml}}
spec: {{type: ExternalName, externalName: {subdomain}}}
---
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {{name: {subdomain}}}
handler: {label}
---
apiVersion: v1
kind: Namespace
metadata: {{name: {label}}}
""")


def _nodes() -> list[tuple[str, str]]:
    return [
        ("Node: taints, keys, values and effects", node("""\
spec:
  taints:
  - {key: "", effect: NoSchedule}
  - {key: "bad key", value: "bad value", effect: NoSchedule}
  - {key: a, effect: Sometimes}
  - {key: b, effect: ""}
  - {key: c, value: "1", effect: NoExecute}
  - {key: c, value: "2", effect: NoExecute}
""")),
        ("Node: a name that is not a DNS subdomain", node(name="Bad_Node")),
        ("Names too long, counted in characters or bytes", _long_names()),
        ("Namespace: names", """\
apiVersion: v1
kind: Namespace
metadata: {name: Bad.NS}
---
apiVersion: v1
kind: Namespace
metadata: {name: a.b}
---
apiVersion: v1
kind: Namespace
metadata: {name: 123456789012345678901234567890123456789012345678901234567890abcd}
"""),
    ]


CORPUS: list[tuple[str, str]] = [
    *_scheduling("v1beta1"),
    *_scheduling("v1alpha3"),
    ("Pod: an empty schedulingGroup", pod("  schedulingGroup: {}\n")),
    ("Pod: an empty podGroupName", pod('  schedulingGroup: {podGroupName: ""}\n')),
    ("Pod: a podGroupName that is not a DNS subdomain", pod("  schedulingGroup: {podGroupName: Bad_Name}\n")),
    ("Pod: a PodGroup that does not exist", pod("  schedulingGroup: {podGroupName: missing}\n")),
    # ValidateLabelSelectorRequirement: the operator and its values, with the object's other problems
    ("Selectors: operators without values, values without operators", pod("""\
  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector: {matchExpressions: [{key: a, operator: In}, {key: b, operator: Exists, values: [x]},
                                           {operator: Foo}, {key: c}]}
        topologyKey: zone
""").replace("name: worker-0", 'name: worker-0, labels: {"bad key": x}')),
    ("Selectors: a Deployment's and a budget's requirements", """\
apiVersion: apps/v1
kind: Deployment
metadata: {name: d, namespace: ml}
spec:
  replicas: 1
  selector: {matchLabels: {app: a}, matchExpressions: [{key: app, operator: In}]}
  template:
    metadata: {labels: {app: a}}
    spec:
      containers: [{name: c, image: x}]
      topologySpreadConstraints:
      - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchExpressions: [{operator: Exists}]}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: b, namespace: ml}
spec:
  minAvailable: 1
  selector: {matchExpressions: [{key: app}]}
"""),
    # ValidatePodTemplateSpec: the template's labels (ValidateTemplateObjectMeta)
    ("Templates: labels a pod could not carry", """\
apiVersion: apps/v1
kind: Deployment
metadata: {name: d, namespace: ml}
spec:
  replicas: 1
  selector: {matchLabels: {app: a}}
  template:
    metadata: {labels: {app: a, "bad key": x, tier: "no spaces"}}
    spec:
      containers: [{name: c, image: x}]
---
apiVersion: batch/v1
kind: Job
metadata: {name: j, namespace: ml}
spec:
  template:
    metadata: {labels: {"-x": y}}
    spec:
      restartPolicy: Never
      containers: [{name: c, image: x}]
"""),
    # values quoted as strconv.Quote quotes them: non-ASCII letters as they are, the rest escaped
    ("Quoting: non-ASCII and control characters in values", pod('  schedulingGroup: {podGroupName: "gr\u00fcn"}\n')
     .replace("name: worker-0", 'name: worker-0, labels: {a: "caf\u00e9", b: "tab\\there", c: "\u00a0x", '
                                'd: "x\\u200ey", e: "\\x1b[31m"}')),
    *_core(),
]
