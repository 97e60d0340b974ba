"""Every class of problem the tool reports, each with a small input that shows it.

`test_catalogue.py` runs each case through the command line, checks what it must show, and
renders docs/problems.md from the real output: the document cannot say what the tool does not.
A new kind of problem gets a case here (and the document is regenerated, see test_catalogue.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field

NODE = """\
apiVersion: v1
kind: Node
metadata:
  name: node-1
  labels: {topology.kubernetes.io/zone: zone-a}
status:
  allocatable: {cpu: "8", memory: 32Gi, pods: "110"}
"""

POD = """\
apiVersion: v1
kind: Pod
metadata:
  name: web-0
  namespace: shop
spec:
  containers:
  - name: web
    image: nginx:1.27
    resources:
      requests: {cpu: 500m, memory: 1Gi}
"""

WORKLOAD = """\
apiVersion: scheduling.k8s.io/v1beta1
kind: Workload
metadata: {name: train, namespace: ml}
spec:
  podGroupTemplates:
  - name: workers
    schedulingPolicy: {gang: {minCount: 2}}
"""

POD_GROUP = """\
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: train-workers, namespace: ml}
spec:
  workloadRef: {workloadName: train, templateName: workers}
  schedulingPolicy: {gang: {minCount: 2}}
"""

CONFIG = """\
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
"""


def doc(*parts: str) -> str:
    return "---\n".join(parts)


@dataclass(frozen=True)
class Case:
    """One problem class: `files` (name -> text, or bytes) written to an empty folder, then
    `args` run there (`{}` stands for every manifest file, in name order). `shows` must be in
    what the tool prints on stderr; `code` is the exit code (contract.md)."""

    section: str
    title: str
    files: dict
    shows: str
    args: tuple = ("validate", "{}")
    code: int = 2
    note: str = ""
    extra: dict = field(default_factory=dict)
    env: dict = field(default_factory=dict)  # environment variables of the run
    stdin: bytes | None = None  # what standard input holds


def pod(**edits: str) -> str:
    """POD with texts replaced: pod(**{"cpu: 500m": "cpu: -1"})."""
    text = POD
    for old, new in edits.items():
        text = text.replace(old, new)
    return text


CASES: list[Case] = [
    # --- reading the input ------------------------------------------------------------------
    Case("Reading files", "A path that does not exist",
         {}, "no such file or folder", args=("validate", "missing.yaml")),
    Case("Reading files", "A folder without manifests",
         {"notes/readme.txt": "nothing here\n"}, "folder holds no .yaml, .yml or .json files",
         args=("validate", "notes")),
    Case("Reading files", "Bytes that are not UTF-8",
         {"latin1.yaml": b"apiVersion: v1\nkind: Node\nmetadata: {name: n\xe9}\n"},
         "not UTF-8 text"),
    Case("Reading files", "A YAML syntax error",
         {"bad.yaml": "apiVersion: v1\nkind: Node\nmetadata: {name: node-1\n"}, "invalid YAML:"),
    Case("Reading files", "A character YAML does not allow",
         {"nul.yaml": "apiVersion: v1\nkind: Node\x00\n"}, "unacceptable character #x0000"),
    Case("Reading files", "A truncated JSON dump",
         {"dump.json": '{\n  "apiVersion": "v1",\n  "kind": "List",\n  "items": [\n    {\n'
                       '      "apiVersion": "v1",\n      "kind": "Node",\n'},
         "invalid JSON: unexpected end of data"),
    Case("Reading files", "An alias bomb (excessive aliasing)",
         {"bomb.yaml": "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
             f"{n}: &{n} [{', '.join(['*' + p] * 9)}]\n" for p, n in zip("abcdefgh", "bcdefghi"))},
         "document contains excessive aliasing",
         note="The limit is kubectl's: go-yaml's alias budget (see loading/aliases.py)."),
    Case("Reading files", "An anchor containing itself",
         {"loop.yaml": "a: &x [1, *x]\n"}, "an anchor's value contains an alias to itself"),
    Case("Reading files", "An anchor defined twice",
         {"twice.yaml": "apiVersion: v1\nkind: Node\nmetadata:\n  name: &n node-1\n"
                        "  labels: {zone: &n a, name: *n}\n"},
         "anchor defined twice in one document (first at line 4)",
         note="kubectl's go-yaml lets the last definition win; this tool refuses the document, as "
              "PyYAML does, whichever way it reads it."),
    Case("Reading files", "Collections nested too deeply",
         {"deep.yaml": "a: " + "[" * 600 + "]" * 600 + "\n"}, "nested more than 500 levels deep",
         note="kubectl's decoder allows 10,000 levels; this tool's YAML reader cannot follow so "
              "far, and real manifests use a few dozen."),
    Case("Reading files", "A document that is not an object",
         {"list.yaml": "- apiVersion: v1\n  kind: Node\n"}, "expected a Kubernetes object"),
    Case("Reading files", "No apiVersion or kind",
         {"m.yaml": "metadata: {name: x}\n"}, "required field is missing"),
    Case("Reading files", "A file larger than the input limit",
         {"m.yaml": doc(NODE, POD)}, "larger than the input limit of 100 bytes per file",
         env={"PODGROUP_PLAN_MAX_INPUT": "100"},
         note="Checked from the file's size before anything is read; the limit is 2 GiB unless "
              "PODGROUP_PLAN_MAX_INPUT says (here 100 bytes)."),
    Case("Reading files", "Standard input longer than the input limit",
         {"m.yaml": NODE}, "<stdin>: larger than the input limit of 500 bytes per file; the rest was "
                           "not read", args=("validate", "m.yaml", "-"), stdin=b"# padding\n" * 60,
         env={"PODGROUP_PLAN_MAX_INPUT": "500"},
         note="A pipe or standard input is read in chunks and refused as soon as it passes the "
              "limit: `yes | podgroup-plan simulate -` ends."),
    Case("Reading files", "An input limit that is not an amount",
         {"m.yaml": NODE, "n.yaml": NODE}, "PODGROUP_PLAN_MAX_INPUT: 'lots' is not an amount of bytes",
         env={"PODGROUP_PLAN_MAX_INPUT": "lots"}),
    Case("Reading files", "A file that starts with NUL bytes",
         {"m.yaml": NODE, "zeros.yaml": b"\x00" * 4096}, "starts with a NUL byte",
         note="A sparse file or a disk image: refused from its first bytes, unread."),
    Case("Reading files", "A device named as input",
         {"m.yaml": NODE}, "/dev/zero: a character device, not a file of manifests; not read",
         args=("validate", "m.yaml", "/dev/zero")),
    Case("Reading files", "UTF-16 text with a byte-order mark that is not UTF-16",
         {"m.yaml": "\ufeffkind: Node\n".encode("utf-16-le") + b"\x00\xd8"}, "not UTF-16 text (byte",
         note="UTF-16 and UTF-32 with a byte-order mark (what Windows PowerShell writes for "
              "`kubectl get ... > f.yaml`) are read as kubectl reads them; broken ones are named "
              "so."),
    Case("Reading files", "A stream of JSON objects with a broken one",
         {"watch.json": '{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}}\n'
                        '{"apiVersion": "v1", "kind": "Pod",\n "metadata": {"name": "p",}}\n'},
         "watch.json:3: invalid JSON: trailing comma is not allowed",
         note="A stream of JSON objects (`kubectl get -o json -w`) is read object by object."),
    Case("Reading files", "No Node and no Pod in the whole input",
         {"empty.yaml": "# nothing yet\n"}, "no Node and no Pod found in the input",
         note="Empty files, empty standard input, or only kinds the planner ignores: a CI "
              "gate fed a failed snapshot must not pass."),

    # --- kinds and fields --------------------------------------------------------------------
    Case("Kinds and fields", "A known kind in an API version the planner does not read",
         {"m.yaml": NODE.replace("apiVersion: v1", "apiVersion: v2")}, "unsupported apiVersion"),
    Case("Kinds and fields", "A field of the wrong type",
         {"m.yaml": doc(NODE, pod(**{"name: web-0": "name: [web-0]"}))}, "must be a string"),
    Case("Kinds and fields", "A required field missing",
         {"m.yaml": doc(NODE, POD.replace("  - name: web\n    image", "  - image"))},
         "spec.containers[0].name: Required value"),
    Case("Kinds and fields", "An unsupported value",
         {"m.yaml": doc(NODE, "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
                              "metadata: {name: batch}\nvalue: 10\npreemptionPolicy: Sometimes\n")},
         'Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"',
         note="The supported values in the validator's order (ValidatePreemptionPolicy lists them "
              "unsorted; most validators sort theirs). A new Pod's preemptionPolicy meets Priority "
              "admission first (References and groups)."),
    Case("Kinds and fields", "A name that is not a DNS name",
         {"m.yaml": doc(NODE, pod(**{"name: web-0": "name: Web_0"}))},
         'metadata.name: Invalid value: "Web_0": a lowercase RFC 1123 subdomain must consist of'),
    Case("Kinds and fields", "A Namespace name too long",
         {"m.yaml": doc(NODE, "apiVersion: v1\nkind: Namespace\nmetadata: {name: " + "team-" * 13 + "x}\n")},
         "must be no more than 63 characters",
         note="Names are counted in bytes but worded as util/validation words them (`characters`); a "
              "Namespace's name is also its `kubernetes.io/metadata.name` label (SetDefaults_Namespace), "
              "whose value is worded in bytes."),
    Case("Kinds and fields", "A Service or StatefulSet name with dots",
         {"m.yaml": doc(NODE, POD, "apiVersion: v1\nkind: Service\nmetadata:\n  name: web.shop\n  namespace: shop\n"
                                   "spec:\n  selector: {app: web}\n  ports: [{port: 80}]\n")},
         'metadata.name: Invalid value: "web.shop": must not contain dots',
         note="A Service's and a StatefulSet's name is a DNS label (NameIsDNSLabel), a Namespace's too; "
              "other kinds' names are DNS subdomains."),
    Case("Kinds and fields", "A Service without ports",
         {"m.yaml": doc(NODE, POD, "apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: shop}\n"
                                   "spec:\n  selector: {app: web}\n")},
         "spec.ports: Required value",
         note="validateService: every Service but a headless one (`clusterIP: None`) or an ExternalName "
              "has ports; its selector is a label map (ValidateLabels). The planner reads only the "
              "selector, for default topology spreading."),
    Case("Kinds and fields", "A label value that is not valid",
         {"m.yaml": doc(NODE.replace("zone-a", "zone a!"), POD)},
         'Invalid value: "zone a!": a valid label must be an empty string or consist of alphanumeric characters'),
    Case("Kinds and fields", "A label key that is not valid",
         {"m.yaml": doc(NODE.replace("topology.kubernetes.io/zone", "Topology_/zone"), POD)},
         'Invalid value: "Topology_/zone": prefix part a lowercase RFC 1123 subdomain must consist of'),
    Case("Kinds and fields", "An annotation key that is not valid",
         {"m.yaml": doc(NODE, POD.replace("  namespace: shop\n", "  namespace: shop\n"
                                          "  annotations: {team/owner/x: a, Example.COM/Note: b}\n"))},
         'metadata.annotations: Invalid value: "team/owner/x"',
         note="ValidateAnnotations: every object's annotation keys, and a pod template's (at "
              "`template.annotations`), are qualified names, upper case allowed, and all annotations "
              "together hold at most 256 KiB."),
    Case("Kinds and fields", "A pod template's labels that a pod could not carry",
         {"m.yaml": doc(NODE, """\
apiVersion: batch/v1
kind: Job
metadata: {name: train, namespace: ml}
spec:
  template:
    metadata: {labels: {app: train, "team name": ml}}
    spec:
      restartPolicy: Never
      containers: [{name: c, image: busybox}]
""")},
         'spec.template.labels: Invalid value: "team name"',
         note="Upstream reports a template's labels at `template.labels` (ValidatePodTemplateSpec is "
              "handed the template's path); a Job without labels of its own takes its template's "
              "(batch/v1 defaulting), so they are reported as the Job's too."),
    Case("Kinds and fields", "The same object twice",
         {"a.yaml": doc(NODE, POD), "b.yaml": POD}, "also at"),
    Case("Kinds and fields", "A timestamp that is not RFC 3339",
         {"m.yaml": doc(NODE, POD.replace("  namespace: shop\n",
                                          "  namespace: shop\n  creationTimestamp: yesterday\n"))},
         "invalid timestamp"),

    Case("Kinds and fields", "An impossible date in a timestamp",
         {"m.yaml": doc(NODE, POD.replace("  namespace: shop\n",
                                          "  namespace: shop\n  creationTimestamp: 2026-13-45T99:99:99Z\n"))},
         "invalid timestamp",
         note="Read as Go's `time.RFC3339` reads it (metav1.Time): `20260601T070000Z` and a lower-case "
              "`t` or `z` are refused too."),
    Case("Kinds and fields", "An impossible timestamp in a field the planner does not read",
         {"m.yaml": doc(NODE.replace("  name: node-1\n", "  name: node-1\n  creationTimestamp: 2026-02-30T10:00:00Z\n"),
                        POD)},
         "invalid timestamp",
         note="metadata's times are checked in every kind read (a Node's `creationTimestamp` too): the "
              "API server cannot decode an object holding one."),

    # --- unknown fields (kubectl's --validate=strict) ----------------------------------------
    Case("Unknown fields", "A misspelled field",
         {"m.yaml": doc(NODE, pod(**{"requests: {cpu": "request: {cpu"}))}, 'unknown field "request"',
         note="Every field of every kind read is checked against the API's types (also fields the "
              "planner does not read: `volumes`, `env`, `status`), as the API server's strict "
              "decoding does; kubectl's message quotes the whole path (`unknown field "
              "\"spec.containers[0].resources.request\"`), which is our `JSON.PATH`. A known field "
              "close to the unknown one is suggested. `--validate=warn` plans and lists them as "
              "notes; `--validate=ignore` drops them (kubectl's values; `true` and `false` too)."),
    Case("Unknown fields", "A field in the wrong case",
         {"m.yaml": doc(NODE, POD.replace("spec:\n", "spec:\n  nodeselector: {disk: ssd}\n"))},
         'did you mean "nodeSelector"'),

    # --- the API server's rules ---------------------------------------------------------------
    Case("The API server's rules", "A fractional extended resource",
         {"m.yaml": doc(NODE, pod(**{"requests: {cpu: 500m, memory: 1Gi}":
                                     "requests: {example.com/gpu: 500m}\n      limits: {example.com/gpu: 500m}"}))},
         "must be an integer",
         note="Messages are the API server's (`pkg/apis/core/validation`), as `field.Error` words them."),
    Case("The API server's rules", "An extended resource without an equal limit",
         {"m.yaml": doc(NODE, pod(**{"requests: {cpu: 500m, memory: 1Gi}": "requests: {example.com/gpu: 1}"}))},
         "Limit must be set for non overcommitable resources"),
    Case("The API server's rules", "An invalid resource name",
         {"m.yaml": doc(NODE, pod(**{"requests: {cpu: 500m, memory: 1Gi}":
                                     "requests: {Example.COM/gpu: 1, gpus: 1}"}))},
         "must be a standard resource type or fully qualified"),
    Case("The API server's rules", "An invalid nodeSelector key or value",
         {"m.yaml": doc(NODE, POD.replace("spec:\n", "spec:\n  nodeSelector: {disk type: ssd!}\n"))},
         "name part must consist of alphanumeric characters"),
    Case("The API server's rules", "A label selector the API server refuses",
         {"m.yaml": doc(NODE, """\
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 2
  selector:
    matchExpressions: [{key: "", operator: Exists}]
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx}]
""", POD.replace("spec:\n", """spec:
  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - topologyKey: kubernetes.io/hostname
        labelSelector: {matchLabels: {app: web}, matchExpressions: [{key: tier, operator: In, values: [front end]}]}
"""))}, "invalid label selector",
         note="apimachinery's ValidateLabelSelector, wherever a selector is read: pod affinity terms' "
              "`labelSelector` and `namespaceSelector`, spread constraints' `labelSelector`, the "
              "controllers' and PodDisruptionBudgets' `spec.selector`. Keys are label names (an empty "
              "one too), values label values (checked on create, as every caller does); a Deployment "
              "or ReplicaSet adds `invalid label selector` (a StatefulSet the bare `Invalid value`) "
              "and, as the API server does, leaves its pod template unchecked until the selector "
              "is fixed; a CronJob's `jobTemplate` takes no selector at all (`selector` will be "
              "auto-generated). A label map's problem is shown at the map, as the API server says "
              "it, and points at the key's line."),
    Case("The API server's rules", "A pod affinity term without a topologyKey",
         {"m.yaml": doc(NODE, POD.replace("spec:\n", "spec:\n  affinity:\n    podAntiAffinity:\n"
                                          "      requiredDuringSchedulingIgnoredDuringExecution:\n"
                                          "      - labelSelector: {matchLabels: {app: web}}\n"))},
         "topologyKey: Required value: can not be empty",
         note="validatePodAffinityTerm: a missing or empty key is `Required value`, and then "
              "ValidateLabelName judges the empty text too; the problems of one field are listed in "
              "the order the API server lists them."),
    Case("The API server's rules", "A pod affinity term naming a namespace that cannot exist",
         {"m.yaml": doc(NODE, POD.replace("spec:\n", "spec:\n  affinity:\n    podAffinity:\n"
                                          "      requiredDuringSchedulingIgnoredDuringExecution:\n"
                                          "      - topologyKey: kubernetes.io/hostname\n"
                                          "        namespaces: [team_a]\n"
                                          "        labelSelector: {matchLabels: {app: db}}\n"))},
         "namespace: Invalid value: \"team_a\"",
         note="validatePodAffinityTerm checks each of `namespaces` as a namespace name (a DNS label) "
              "and reports it at the term's `namespace`, as the API server words the path."),
    Case("The API server's rules", "An operator's pod template the API server would refuse",
         {"m.yaml": doc(NODE, """\
apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: {name: vllm, namespace: serve}
spec:
  leaderWorkerTemplate:
    size: 2
    workerTemplate:
      spec:
        nodeSelector: {gpu type: h100}
        containers: [{name: vllm, image: vllm}]
""")}, "spec.leaderWorkerTemplate.workerTemplate.spec.nodeSelector: Invalid value: \"gpu type\"",
         note="The pods an operator's controller creates from its templates are validated as pods: "
              "LeaderWorkerSets, RayClusters, RayJobs, PyTorchJobs, TFJobs, JobSets and training "
              "runtimes get the pod-spec rules above, at the template's path."),
    Case("The API server's rules", "A node affinity with no terms",
         {"m.yaml": doc(NODE, POD.replace("spec:\n", "spec:\n  affinity: {nodeAffinity: "
                                          "{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: []}}}\n"))},
         "must have at least one node selector term"),
    Case("The API server's rules", "A node affinity requirement the API server refuses",
         {"m.yaml": doc(NODE, POD.replace("spec:\n", """spec:
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchExpressions:
          - {key: gpu, operator: In}
          - {key: cores, operator: Gt, values: ['8', '16']}
          matchFields:
          - {key: metadata.labels, operator: In, values: [node-1]}
          - {key: metadata.name, operator: In, values: [node-1, node-2]}
"""))}, "not a valid field selector key",
         note="ValidateNodeSelectorRequirement and ValidateNodeFieldSelectorRequirement: In and NotIn "
              "need values, Exists and DoesNotExist take none, Gt and Lt exactly one; a field "
              "selector names `metadata.name` with one node name. A Gt or Lt value that is not an "
              "integer is accepted, as the API server accepts it: kube-scheduler then skips such a "
              "required term (it matches no node), and a preferred one fails the pod's scheduling "
              "cycle whenever nodes are scored (`running PreScore plugin \"NodeAffinity\"`, a "
              "SchedulerError), as does a preferred term's value that is not a label value."),
    Case("The API server's rules", "matchLabelKeys the API server refuses",
         {"m.yaml": doc(NODE, POD.replace("  namespace: shop\n", "  namespace: shop\n  labels: {app: web}\n").replace(
             "spec:\n", """spec:
  topologySpreadConstraints:
  - maxSkew: 1
    topologyKey: topology.kubernetes.io/zone
    whenUnsatisfiable: DoNotSchedule
    labelSelector: {matchLabels: {app: web}}
    matchLabelKeys: [app]
  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - topologyKey: kubernetes.io/hostname
        matchLabelKeys: [app]
"""))}, "exists in both matchLabelKeys and labelSelector",
         note="ValidateMatchLabelKeysAndMismatchLabelKeys, after the API server has merged a new Pod's "
              "own labels into the selector (`app In (web)` for `matchLabelKeys: [app]`; not for a "
              "controller's template): a key the selector already names, keys without a selector, a "
              "key in both lists, keys that are not label names. The path of the first is the API "
              "server's (the constraint's or term's own, indexed)."),
    Case("The API server's rules", "Two containers with one name",
         {"m.yaml": doc(NODE, POD.replace("spec:\n", "spec:\n  initContainers: [{name: web, image: busybox}]\n"))},
         'spec.initContainers[0].name: Duplicate value: "web"',
         note="validateContainers and validateInitContainers: container names are DNS labels, unique "
              "among a pod's containers and init containers together."),
    Case("The API server's rules", "A pod bound to a name no node can have",
         {"m.yaml": doc(NODE, POD.replace("spec:\n", "spec:\n  nodeName: Node_1\n"))},
         "spec.nodeName: Invalid value: \"Node_1\"",
         note="ValidatePodSpec: `nodeName` is a node name (a DNS subdomain)."),
    Case("The API server's rules", "A toleration the API refuses",
         {"m.yaml": doc(NODE, POD.replace("spec:\n", "spec:\n  tolerations: [{key: gpu, operator: Equal, "
                                          "value: x, effect: NoSchedule, tolerationSeconds: 60}]\n"))},
         "effect must be 'NoExecute' when `tolerationSeconds` is set"),
    Case("The API server's rules", "A Gt or Lt toleration without its feature gate",
         {"m.yaml": doc(NODE, POD.replace("spec:\n", "spec:\n  tolerations: [{key: example.com/driver-gen, "
                                          "operator: Gt, value: '3', effect: NoSchedule}]\n"))},
         'Unsupported value: "Gt": supported values: "Equal", "Exists", "Lt", "Gt"',
         note="The comparison operators need the gate TaintTolerationComparisonOperators (alpha, off in "
              "v1.37.0) in the API server as in kube-scheduler: with `--feature-gates "
              "TaintTolerationComparisonOperators=true` they are taken, and their value must be a "
              "decimal integer in canonical form (`must be a valid decimal integer in canonical form`, "
              "strconv.ParseInt's errors). A RuntimeClass's tolerations never take them."),
    Case("The API server's rules", "Two taints with one key and effect",
         {"m.yaml": doc(NODE.replace("status:\n", "spec:\n  taints: [{key: gpu, effect: NoSchedule}, "
                                     "{key: gpu, value: x, effect: NoSchedule}]\nstatus:\n"), POD)},
         "taints must be unique by key and effect pair"),
    Case("The API server's rules", "A taint with an invalid key",
         {"m.yaml": doc(NODE.replace("status:\n", "spec:\n  taints: [{key: -gpu, effect: NoSchedule}]\nstatus:\n"), POD)},
         "Invalid value: \"-gpu\""),
    Case("The API server's rules", "A spread constraint repeated, or minDomains with ScheduleAnyway",
         {"m.yaml": doc(NODE, POD.replace("spec:\n", "spec:\n  topologySpreadConstraints:\n"
                                          "  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway, minDomains: 2}\n"
                                          "  - {maxSkew: 2, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway}\n"))},
         "can only use minDomains if whenUnsatisfiable=DoNotSchedule"),
    Case("The API server's rules", "A Job whose gang minCount exceeds its parallelism",
         {"m.yaml": doc(NODE, """\
apiVersion: batch/v1
kind: Job
metadata: {name: train, namespace: ml}
spec:
  parallelism: 4
  scheduling: {schedulingPolicy: {gang: {minCount: 6}}}
  template:
    spec:
      restartPolicy: Never
      containers: [{name: trainer, image: trainer}]
""")}, "must not be greater than parallelism (4)",
         note="batch validateGangMinCount: such a gang could never start (the controller never runs more "
              "than `parallelism` pods at once); also in a CronJob's `jobTemplate` and a JobSet's Jobs."),
    Case("The API server's rules", "A CronJob schedule or time zone the API server refuses",
         {"m.yaml": doc(NODE, """\
apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly, namespace: ml}
spec:
  schedule: "0 2 * * 1-7"
  timeZone: Europe/Pariss
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: trainer, image: trainer}]
""")}, "end of range (7) above maximum (6): 1-7",
         note="batch validateCronJobSpec: an empty schedule is `Required value`; one that does not "
              "parse gets the parser's own words (robfig/cron's, as the API server quotes them); "
              "\"TZ\" anywhere in it is refused (`spec.timeZone` says the zone), and so is a time "
              "zone that is empty, `Local` or unknown."),
    Case("The API server's rules", "A RuntimeClass or LimitRange the API server refuses",
         {"m.yaml": doc(NODE, """\
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: gvisor}
handler: runsc_v2
scheduling:
  nodeSelector: {sandbox: gvisor}
---
apiVersion: v1
kind: LimitRange
metadata: {name: defaults, namespace: shop}
spec:
  limits:
  - type: Containers
    defaultRequest: {cpu: 100m}
  - type: ""
""")}, "must be a standard limit type or fully qualified",
         note="The objects admission reads for new pods are validated as the API server validates "
              "them (node ValidateRuntimeClass, core ValidateLimitRange): a RuntimeClass's `handler` "
              "is required and a DNS label (its scheduling's node selector and tolerations are checked "
              "as a pod's, and its tolerations must be unique); a LimitRange item's `type` is "
              "`Pod`, `Container`, `PersistentVolumeClaim` or a prefixed name, once per LimitRange."),
    Case("The API server's rules", "Several problems in one object",
         {"m.yaml": doc(NODE, POD.replace("spec:\n", "spec:\n  tolerations: [{key: gpu, operator: Exists, value: x}]\n"
                                          "  topologySpreadConstraints:\n"
                                          "  - {maxSkew: 0, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}\n"
                                          "  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}\n"))},
         "Duplicate value",
         note="Every problem of an object is listed in one run: the values the schema refuses "
              "(`maxSkew: 0`, an unknown `whenUnsatisfiable` or taint effect) beside the API server's "
              "own rules (a repeated constraint, an `Exists` toleration with a value), as the API server "
              "lists its validation errors together."),
    Case("The API server's rules", "A controller whose selector misses its template",
         {"m.yaml": doc(NODE, """\
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: website}}
    spec:
      containers: [{name: web, image: nginx}]
""")}, "`selector` does not match template `labels`",
         note="Deployments, ReplicaSets, StatefulSets, Jobs with `manualSelector` and JobSets' Jobs "
              "(apps and batch validation). v1.37.0 does not validate `spec.schedulerName` "
              "(\"field corev1.PodSpec.SchedulerName has no validation\"): any text is a profile "
              "name that matches nothing, and the pod is `Ignored`."),
    Case("The API server's rules", "A controller without a selector, or whose pods do not restart",
         {"m.yaml": doc(NODE, """\
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 2
  template:
    metadata: {labels: {app: web}}
    spec:
      restartPolicy: OnFailure
      containers: [{name: web, image: nginx}]
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: shop}
spec:
  podManagementPolicy: InOrder
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: postgres}]
""")}, "spec.selector: Required value",
         note="apps validation: a Deployment, ReplicaSet or StatefulSet needs a selector, and a missing "
              "one selects nothing (`selector` does not match template `labels`; a DaemonSet gets only "
              "that line); their pods and a ReplicationController's restart always; a StatefulSet's "
              "podManagementPolicy is OrderedReady or Parallel (an empty one is defaulted). A "
              "ReplicationController's selector is its template's labels when left out, and must not "
              "be empty."),
    Case("The API server's rules", "A host port claimed twice",
         {"m.yaml": doc(NODE, POD.replace("    image: nginx:1.27\n",
                                          "    image: nginx:1.27\n    ports: [{containerPort: 80, hostPort: 8080},"
                                          " {containerPort: 81, hostPort: 8080}]\n"))},
         'hostPort: Duplicate value: "TCP//8080"',
         note="checkHostPortConflicts: a host port once per protocol and host IP among the containers "
              "(each init container on its own, which upstream's path numbers [0])."),
    Case("The API server's rules", "A Job's scheduling the API server refuses",
         {"m.yaml": doc(NODE, """\
apiVersion: batch/v1
kind: Job
metadata: {name: train, namespace: ml}
spec:
  parallelism: 4
  scheduling:
    schedulingPolicy: {basic: {}, gang: {minCount: 4}}
    disruptionMode: {all: {}}
  template:
    spec:
      restartPolicy: Never
      containers: [{name: trainer, image: trainer}]
""")}, "must specify exactly one of: `basic`, `gang`",
         note="The declarative rules of `spec.scheduling` (one of basic and gang, one of single and all, "
              "a gang's minCount at least 1, one topology constraint), then the Job controller's "
              "policy checks on what the Job resolves to: a policy left out, or basic and gang both, "
              "is Basic, and Basic takes no `all` disruption."),
    Case("The API server's rules", "A Job selector the API server would generate",
         {"m.yaml": doc(NODE, """\
apiVersion: batch/v1
kind: Job
metadata: {name: train, namespace: ml}
spec:
  selector: {matchLabels: {app: train}}
  template:
    metadata: {labels: {app: train}}
    spec:
      restartPolicy: Never
      containers: [{name: trainer, image: trainer}]
""")}, "`selector` not auto-generated",
         note="Without `manualSelector: true` the API server makes the selector from the Job's new uid "
              "(validateGeneratedSelector): a selector of one's own must select exactly the labels it "
              "generates. The uid does not exist before the Job is created: the message shows `<uid>`."),

    # --- quantities --------------------------------------------------------------------------
    Case("Quantities", "Not a quantity",
         {"m.yaml": doc(NODE, pod(**{"cpu: 500m": "cpu: 1.2.3"}))}, "invalid quantity"),
    Case("Quantities", "A negative request",
         {"m.yaml": doc(NODE, pod(**{"cpu: 500m": "cpu: -1"}))},
         "must be greater than or equal to 0"),
    Case("Quantities", "A negative amount in an overhead or a Node's capacity",
         {"m.yaml": doc(NODE.replace('cpu: "8"', 'cpu: "-8"'), POD.replace("spec:\n", "spec:\n  overhead: {memory: -0.5Gi}\n"))},
         'spec.overhead.limits[memory]: Invalid value: "-512Mi"',
         note="ValidateResourceQuantityValue wherever the API server checks amounts: containers' and "
              "pod-level resources, a pod's or RuntimeClass's overhead (which upstream names `limits`, as "
              "validateOverhead checks it as a container's limits) and a Node's capacity and "
              "allocatable. The amount is shown as the API server holds it (`Quantity.String()` after "
              "defaulting: `-0.5Gi` is `-512Mi`); the line is the amount's."),
    Case("Quantities", "An amount past kube-scheduler's 64-bit integers",
         {"m.yaml": doc(NODE.replace('cpu: "8"', 'cpu: "1e18"'), POD)}, "is too large",
         note="A binarySI amount (`Ki` ... `Ei`) past 2^63-1 is capped silently, as "
              "upstream's ParseQuantity caps it; a decimal one past what MilliValue() (cpu) or "
              "Value() (everything else) holds is refused."),
    Case("Quantities", "A pod whose summed requests overflow",
         {"m.yaml": doc(NODE, POD.replace(
             "  - name: web\n    image: nginx:1.27\n    resources:\n      requests: {cpu: 500m, memory: 1Gi}\n",
             "  - {name: a, image: x, resources: {requests: {memory: 8Ei}}}\n"
             "  - {name: b, image: x, resources: {requests: {memory: 8Ei}}}\n"))},
         "the pod's total memory request"),
    Case("Quantities", "A huge value (cut in the message)",
         {"m.yaml": doc(NODE, pod(**{"cpu: 500m": "cpu: " + "9" * 5000 + "x"}))},
         "characters cut"),

    # --- references and group rules ---------------------------------------------------------
    # (a PodGroup naming a Workload or template that is not there is not a problem: kube-apiserver
    # v1.37 accepts it and kube-scheduler never reads it; the result says so in a note)
    Case("References and groups", "minCount 0 (unset) or below 1",
         {"m.yaml": doc(NODE, WORKLOAD, POD_GROUP.replace("minCount: 2}}\n", "minCount: 0}}\n"),
                        POD_GROUP.replace("minCount: 2}}\n", "minCount: -1}}\n").replace("train-workers", "b"))},
         "minCount: Required value",
         note="The declarative validation's RequiredValue takes an int32's 0 as unset."),
    Case("References and groups", "A scheduling policy that is neither or both of basic and gang",
         {"m.yaml": doc(NODE, POD_GROUP.replace("{gang: {minCount: 2}}", "{}"),
                        POD_GROUP.replace("{gang: {minCount: 2}}", "{basic: {}, gang: {minCount: 2}}")
                        .replace("train-workers", "both"))},
         "must specify exactly one of: `basic`, `gang`"),
    Case("References and groups", "A Workload's templates: names, depth, priorities, children",
         {"m.yaml": doc(NODE, """\
apiVersion: scheduling.k8s.io/v1beta1
kind: Workload
metadata: {name: train, namespace: ml}
spec:
  compositePodGroupTemplates:
  - name: racks
    schedulingPolicy: {basic: {}}
    priorityClassName: high
    podGroupTemplates:
    - {name: racks, schedulingPolicy: {gang: {minCount: 2}}, priorityClassName: low}
    - {name: "", schedulingPolicy: {gang: {minCount: 2}}}
  - name: empty
    schedulingPolicy: {basic: {}}
  - name: deep
    schedulingPolicy: {basic: {}}
    compositePodGroupTemplates:
    - name: d2
      schedulingPolicy: {basic: {}}
      compositePodGroupTemplates:
      - name: d3
        schedulingPolicy: {basic: {}}
        compositePodGroupTemplates:
        - name: d4
          schedulingPolicy: {basic: {}}
          compositePodGroupTemplates:
          - name: d5
            schedulingPolicy: {basic: {}}
            podGroupTemplates: [{name: w, schedulingPolicy: {gang: {minCount: 2}}}]
""")},
         "maximum template hierarchy depth is 4",
         note="The handwritten rules of scheduling/validation ValidateWorkloadSpec come first, then "
              "the declarative ones, as the API server lists them; the depth error shows the "
              "templates as the API server's internal type prints them."),
    Case("References and groups", "A pod naming its group two ways",
         {"m.yaml": doc(NODE, POD.replace("spec:\n", "spec:\n  schedulingGroup: {podGroupName: g}\n"
                                          "  workloadRef: {name: w, podGroup: g}\n"))},
         "cannot be set together with spec.workloadRef"),
    Case("References and groups", "A priorityClassName that is not in the input",
         {"m.yaml": doc(NODE, POD.replace("spec:\n", "spec:\n  priorityClassName: urgent\n"))},
         "spec.priorityClassName: no PriorityClass with name urgent was found",
         note="The Priority admission plugin's refusal (`pods \"web-0\" is forbidden: ...`, HTTP 403), "
              "which comes before validation: the API server says nothing else about the object, the "
              "tool names the field and lists the object's other problems too. A pod read from a "
              "cluster (with spec.priority) was admitted: its class need not be in the input."),
    Case("References and groups", "A new pod's own preemptionPolicy",
         {"m.yaml": doc(NODE, POD.replace("spec:\n", "spec:\n  preemptionPolicy: Never\n"))},
         "must not be provided in pod spec",
         note="Priority admission computes a new pod's preemptionPolicy from its PriorityClass (the "
              "global default class, else PreemptLowerPriority) and refuses any other written in the "
              "spec; a pod read from a cluster (a uid, or bound) keeps its own."),
    Case("References and groups", "A PriorityClass value above the user-definable range",
         {"m.yaml": doc(NODE, "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
                              "metadata: {name: urgent}\nvalue: 2000000000\n")},
         "maximum allowed value of a user defined priority is 1000000000"),

    Case("References and groups", "Controllers asking for more pods than the planner creates",
         {"m.yaml": doc(NODE, "apiVersion: apps/v1\nkind: Deployment\n"
                              "metadata: {name: web, namespace: shop}\nspec:\n"
                              "  replicas: 2000000000\n  selector: {matchLabels: {app: web}}\n"
                              "  template:\n    metadata: {labels: {app: web}}\n"
                              "    spec: {containers: [{name: web, image: nginx}]}\n")},
         "podgroup-plan creates at most 200,000 pods",
         note="A planner limit (upstream's replicas are int32), one the planner answers within "
              "its speed goals: a typo must get an answer at once, not minutes of expansion."),

    Case("References and groups", "A PodDisruptionBudget with both minAvailable and maxUnavailable",
         {"m.yaml": doc(NODE, "apiVersion: policy/v1\nkind: PodDisruptionBudget\n"
                              "metadata: {name: web, namespace: shop}\n"
                              "spec: {minAvailable: 1, maxUnavailable: 1, "
                              "selector: {matchLabels: {app: web}}}\n")},
         "cannot be both set"),
    Case("References and groups", "A Workload with no templates",
         {"m.yaml": doc(NODE, "apiVersion: scheduling.k8s.io/v1beta1\nkind: Workload\n"
                              "metadata: {name: train, namespace: ml}\nspec: {}\n")},
         "Workload ml/train"),
    Case("References and groups", "An Indexed Job without completions",
         {"m.yaml": doc(NODE, "apiVersion: batch/v1\nkind: Job\n"
                              "metadata: {name: train, namespace: ml}\nspec:\n"
                              "  completionMode: Indexed\n  parallelism: 4\n  template:\n    spec:\n"
                              "      restartPolicy: Never\n"
                              "      containers: [{name: c, image: trainer}]\n")},
         "spec.completions: Required value: when completion mode is Indexed"),
    Case("References and groups", "A TrainJob whose runtime is not in the input",
         {"m.yaml": doc(NODE, "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\n"
                              "metadata: {name: llm, namespace: ml}\nspec:\n"
                              "  runtimeRef: {name: torch-distributed}\n  trainer: {numNodes: 4}\n")},
         'ClusterTrainingRuntime "torch-distributed" specified in TrainJob is not in the input'),
    Case("References and groups", "A LeaderWorkerSet of size 0",
         {"m.yaml": doc(NODE, "apiVersion: leaderworkerset.x-k8s.io/v1\nkind: LeaderWorkerSet\n"
                              "metadata: {name: vllm, namespace: serve}\nspec:\n  replicas: 2\n"
                              "  leaderWorkerTemplate:\n    size: 0\n    workerTemplate:\n"
                              "      spec: {containers: [{name: c, image: vllm}]}\n")},
         "size must be equal or greater than 1"),
    Case("References and groups", "A RayCluster worker group with negative replicas",
         {"m.yaml": doc(NODE, "apiVersion: ray.io/v1\nkind: RayCluster\n"
                              "metadata: {name: rc, namespace: ray}\nspec:\n  headGroupSpec:\n"
                              "    template: {spec: {containers: [{name: h, image: ray}]}}\n"
                              "  workerGroupSpecs:\n  - groupName: gpu\n    replicas: -1\n"
                              "    template: {spec: {containers: [{name: w, image: ray}]}}\n")},
         "worker group gpu has negative replicas -1"),
    Case("References and groups", "Two KubeSchedulerConfigurations among the manifests",
         {"a.yaml": doc(NODE, CONFIG), "b.yaml": CONFIG}, "more than one KubeSchedulerConfiguration"),

    # --- the scheduler's configuration -------------------------------------------------------
    Case("Scheduler configuration", "An unknown plugin",
         {"m.yaml": NODE, "sched.cfg": CONFIG + "  plugins:\n    score:\n      enabled:\n"
                                                 "      - {name: NoSuchPlugin}\n"},
         'unknown plugin "NoSuchPlugin"', args=("validate", "{}", "--scheduler-config", "sched.cfg")),
    Case("Scheduler configuration", "Two profiles with one schedulerName",
         {"m.yaml": NODE, "sched.cfg": CONFIG + "- schedulerName: default-scheduler\n"},
         "Duplicate value", args=("validate", "{}", "--scheduler-config", "sched.cfg")),
    Case("Scheduler configuration", "An unknown field",
         {"m.yaml": NODE, "sched.cfg": CONFIG + "  bogusField: 50\n"},
         "unknown field", args=("validate", "{}", "--scheduler-config", "sched.cfg")),
    Case("Scheduler configuration", "A bad plugin argument",
         {"m.yaml": NODE, "sched.cfg": CONFIG + "  pluginConfig:\n  - name: NodeResourcesFit\n"
                                                 "    args: {scoringStrategy: {type: Bogus}}\n"},
         'Unsupported value: "Bogus": supported values:', args=("validate", "{}", "--scheduler-config", "sched.cfg")),
    Case("Scheduler configuration", "A configuration among the manifests, with a problem",
         {"m.yaml": NODE, "sched.yaml": CONFIG + "  plugins:\n    score:\n      enabled:\n"
                                                  "      - {name: NoSuchPlugin}\n"},
         'unknown plugin "NoSuchPlugin"'),
    Case("Scheduler configuration", "A --scheduler-config file of another kind",
         {"m.yaml": NODE, "sched.cfg": NODE}, "expected a KubeSchedulerConfiguration",
         args=("validate", "{}", "--scheduler-config", "sched.cfg")),
    Case("Scheduler configuration", "A feature gate value that is not a boolean",
         {"m.yaml": NODE}, "strconv.ParseBool",
         args=("validate", "{}", "--feature-gates", "GenericWorkload=maybe")),
    Case("Scheduler configuration", "An unknown feature gate",
         {"m.yaml": NODE}, "unrecognized feature gate",
         args=("validate", "{}", "--feature-gates", "NoSuchGate=true")),

    # --- the command line and its output ----------------------------------------------------
    Case("Command line and output", "--output-file naming an input",
         {"m.yaml": doc(NODE, POD)}, "--output-file names an input",
         args=("simulate", "{}", "--output-file", "m.yaml")),
    Case("Command line and output", "--output-file inside an input folder",
         {"m.yaml": doc(NODE, POD)}, "--output-file is inside the input folder",
         args=("simulate", ".", "-o", "json", "--output-file", "plan.json")),
    Case("Command line and output", "A named pipe in an input folder",
         {"m.yaml": NODE, "pipe.yaml": "<fifo>"}, "not a regular file (a named pipe)",
         args=("validate", ".")),
    Case("Command line and output", "explain: a target that is not in the input",
         {"m.yaml": doc(NODE, POD)}, "no such pending Pod in the input",
         args=("explain", "{}", "--pod", "shop/nope")),
]

