"""Bad manifests of the core kinds (not the scheduling ones: validation_corpus.py) for the
comparison with the API server (test_validation_oracle.py): the variations of a rule that one
catalogue case cannot show. Each entry: (title, YAML of one or more objects)."""
from __future__ import annotations

POD = """\
apiVersion: v1
kind: Pod
metadata: {{name: web-0, namespace: shop}}
spec:
{spec}"""


def pod(spec: str) -> str:
    return POD.format(spec=spec)


def container(resources: str) -> str:
    return pod(f"  containers:\n  - name: c\n    image: busybox\n    resources: {resources}\n")


CORE_CORPUS: list[tuple[str, str]] = [
    # validateResourceRequirements: names, amounts, requests against limits
    ("Resources: negative amounts, as written and canonical",
     container("{requests: {cpu: '-1', memory: -0.5Gi}, limits: {cpu: '-500m', ephemeral-storage: -1.5}}")),
    ("Resources: fractional extended resources and pods",
     container("{requests: {example.com/gpu: '0.5'}, limits: {example.com/gpu: 500m}}")),
    ("Resources: an extended resource request different from its limit",
     container("{requests: {example.com/gpu: '1'}, limits: {example.com/gpu: '2'}}")),
    ("Resources: an extended resource without a limit",
     container("{requests: {example.com/gpu: '1', example.org/fpga: 2}}")),
    ("Resources: a request above its limit",
     container("{requests: {cpu: '2', memory: 3Gi}, limits: {cpu: 1500m, memory: 2048Mi}}")),
    ("Resources: names of every kind",
     container("{requests: {gpus: '1', Example.COM/gpu: '1', kubernetes.io/x: '1', requests.cpu: '1', "
               "a/b/c: '1', pods: '1'}}")),
    ("Resources: huge pages without cpu or memory, not a multiple of the page",
     container("{requests: {hugepages-2Mi: 3Mi}, limits: {hugepages-2Mi: 3Mi}}")),
    ("Resources: pod-level resources",
     pod("  resources: {requests: {cpu: '-1', ephemeral-storage: 1Gi, example.com/gpu: '1'}, limits: {cpu: '1'}}\n"
         "  containers: [{name: c, image: busybox}]\n")),
    ("Resources: a pod-level limit without a request",
     pod("  resources: {limits: {memory: -1Gi, cpu: '-2'}}\n"
         "  containers: [{name: c, image: busybox, resources: {requests: {cpu: 100m}}}]\n")),
    ("Resources: a pod overhead",
     pod("  overhead: {cpu: '-1', gpus: '1', example.com/gpu: 500m}\n  containers: [{name: c, image: busybox}]\n")),
    ("Resources: a RuntimeClass overhead", """\
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: kata}
handler: kata
overhead: {podFixed: {cpu: '-1', memory: -0.5Gi, example.com/gpu: 1500m}}
"""),
    ("Resources: a Node's capacity and allocatable", """\
apiVersion: v1
kind: Node
metadata: {name: node-2}
status:
  capacity: {cpu: '-1', pods: '1.5', example.com/gpu: '0.5'}
  allocatable: {cpu: '1', memory: -1Gi, pods: '10'}
"""),
    ("Resources: a Deployment's template",
     """\
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: c
        image: busybox
        resources: {requests: {cpu: '-2', example.com/gpu: 1}}
"""),
    # scheduling ValidatePriorityClass, the Priority admission plugin
    ("PriorityClass: a system- name that is no system class", """\
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: system-mine}
value: 2000000000
"""),
    ("PriorityClass: a system class's name with another value", """\
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: system-cluster-critical}
value: 5
"""),
    ("Priority admission: a missing class, and other problems of the pod",
     pod("  priorityClassName: nope\n  nodeSelector: {bad key: x}\n  containers: [{name: c, image: busybox}]\n")),
    ("Priority admission: a policy that is no policy", pod("  preemptionPolicy: Sometimes\n"
                                                         "  containers: [{name: c, image: busybox}]\n")),
    ("Priority admission: a policy other than the class's", """\
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: batch-never}
value: 10
preemptionPolicy: Never
---
""" + pod("  priorityClassName: batch-never\n  preemptionPolicy: PreemptLowerPriority\n"
          "  containers: [{name: c, image: busybox}]\n")),
    ("Priority admission: the global default class's policy", """\
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: default-never}
value: 10
globalDefault: true
preemptionPolicy: Never
---
""" + pod("  preemptionPolicy: PreemptLowerPriority\n  containers: [{name: c, image: busybox}]\n")),
    ("Priority admission: the class's own policy is fine", """\
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: batch-never}
value: 10
preemptionPolicy: Never
---
""" + pod("  priorityClassName: batch-never\n  preemptionPolicy: Never\n  nodeSelector: {a: b c}\n"
          "  containers: [{name: c, image: busybox}]\n")),
    # policy ValidatePodDisruptionBudgetSpec
    ("PodDisruptionBudget: both set, percentages, no selector", """\
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web, namespace: shop}
spec: {minAvailable: 50%, maxUnavailable: 10%, unhealthyPodEvictionPolicy: AlwaysAllow}
"""),
    ("PodDisruptionBudget: negative, over 100% and not a percentage", """\
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: a, namespace: shop}
spec: {minAvailable: -1, selector: {}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: b, namespace: shop}
spec: {maxUnavailable: 150%, selector: {matchLabels: {app: web}}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: c, namespace: shop}
spec: {minAvailable: "5", selector: {matchExpressions: [{key: app, operator: Exists}]}}
"""),
    # batch validateJobSpec, validateNameAllowsCompletions
    ("Job: Indexed, too parallel, a name too long for its pods", """\
apiVersion: batch/v1
kind: Job
metadata: {name: a-job-whose-name-is-long-enough-that-its-last-pod-is-no-label, namespace: ml}
spec:
  completionMode: Indexed
  completions: 200
  parallelism: 100001
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: busybox}]
"""),
    # core validateService
    ("Service: headless without ports, with a bad selector", """\
apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec:
  clusterIP: None
  selector: {app: web server, Bad_Key/x: y}
"""),
    ("Service: ExternalName without ports, with a bad or no name", """\
apiVersion: v1
kind: Service
metadata: {name: a, namespace: shop}
spec: {type: ExternalName, externalName: Example.COM.}
---
apiVersion: v1
kind: Service
metadata: {name: b, namespace: shop}
spec: {type: ExternalName}
---
apiVersion: v1
kind: Service
metadata: {name: c, namespace: shop}
spec: {type: ExternalName, externalName: db.example.com.}
"""),
    # ValidatePodTemplateSpec and the controllers' template rules
    ("Deployment: template labels and annotations, restartPolicy, replicas", """\
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: -1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web, bad key: x}, annotations: {"x y": z}}
    spec:
      restartPolicy: Never
      containers: [{name: c, image: busybox}]
"""),
    ("StatefulSet, DaemonSet, ReplicaSet: restartPolicy and template labels", """\
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: shop}
spec:
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      restartPolicy: OnFailure
      containers: [{name: c, image: busybox}]
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: ds, namespace: shop}
spec:
  selector: {matchLabels: {app: ds}}
  template:
    metadata: {labels: {app: ds}}
    spec:
      restartPolicy: Never
      containers: [{name: c, image: busybox}]
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: rs, namespace: shop}
spec:
  selector: {matchLabels: {app: rs}}
  template:
    metadata: {labels: {app: other}}
    spec: {containers: [{name: c, image: busybox}]}
"""),
    ("ReplicationController: a selector its template does not match", """\
apiVersion: v1
kind: ReplicationController
metadata: {name: rc, namespace: shop}
spec:
  replicas: 1
  selector: {app: other}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: busybox}]}
"""),
    ("Job: negative counts, restartPolicy left to Always or written so; a CronJob's too", """\
apiVersion: batch/v1
kind: Job
metadata: {name: j, namespace: ml}
spec:
  parallelism: -1
  completions: -2
  template:
    spec:
      containers: [{name: c, image: busybox}]
---
apiVersion: batch/v1
kind: Job
metadata: {name: k, namespace: ml}
spec:
  template:
    spec:
      restartPolicy: Always
      containers: [{name: c, image: busybox}]
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: cj, namespace: ml}
spec:
  schedule: "* * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          containers: [{name: c, image: busybox}]
"""),
    # checkHostPortConflicts, ValidateAnnotations, ValidateNodeName
    ("Pod: a host port claimed twice, in containers and in init containers", """\
apiVersion: v1
kind: Pod
metadata: {name: web-0, namespace: shop}
spec:
  initContainers:
  - {name: i0, image: x, ports: [{containerPort: 80, hostPort: 9090}]}
  - {name: i1, image: x, ports: [{containerPort: 80, hostPort: 9090}, {containerPort: 81, hostPort: 9090}]}
  containers:
  - {name: a, image: x, ports: [{containerPort: 80, hostPort: 8080}]}
  - {name: b, image: x, ports: [{containerPort: 81, hostPort: 8080}, {containerPort: 82, hostPort: 8080, protocol: UDP}]}
"""),
    ("Pod: annotations and a nodeName that are no names", """\
apiVersion: v1
kind: Pod
metadata: {name: web-0, namespace: shop, annotations: {"a b": c, Example.COM/Key: ok}}
spec:
  nodeName: Bad_Node
  containers: [{name: c, image: x}]
"""),
    # ValidateNode: taints, resources, annotations
    ("Node: a taint value, a taint without effect, capacity only", """\
apiVersion: v1
kind: Node
metadata: {name: node-3, annotations: {"a/b/c": x}}
spec:
  taints: [{key: a, value: "b c", effect: NoSchedule}, {key: b}, {effect: NoExecute}]
status:
  capacity: {hugepages-2Mi: 3Mi, cpu: "1.5", pods: "-5"}
"""),
    ("PriorityClass: a preemptionPolicy that is no policy", """\
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: pc}
value: 5
preemptionPolicy: Sometimes
"""),
]
