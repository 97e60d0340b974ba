"""One valid object of every (apiVersion, kind) the planner reads, using most fields."""
from __future__ import annotations

import copy

POD = {
    "apiVersion": "v1",
    "kind": "Pod",
    "metadata": {
        "name": "trainer-0", "namespace": "team-a", "labels": {"app": "trainer"},
        "creationTimestamp": "2025-01-01T00:00:00Z", "uid": "u-1",
        "ownerReferences": [{"kind": "Job", "name": "j", "controller": True}],
    },
    "spec": {
        "schedulerName": "default-scheduler",
        "priorityClassName": "high",
        "preemptionPolicy": "Never",
        "nodeSelector": {"pool": "gpu"},
        "schedulingGroup": {"podGroupName": "pg"},
        "tolerations": [
            {"key": "gpu", "operator": "Exists", "effect": "NoSchedule"},
            {"key": "k", "operator": "Equal", "value": "v"},
            {"operator": "Exists"},
        ],
        "affinity": {
            "nodeAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                    {"matchExpressions": [
                        {"key": "zone", "operator": "In", "values": ["a", "b"]},
                        {"key": "gen", "operator": "Gt", "values": ["3"]},
                        {"key": "spot", "operator": "DoesNotExist"},
                    ]},
                    {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n1"]}]},
                ]},
                "preferredDuringSchedulingIgnoredDuringExecution": [
                    {"weight": 10, "preference": {"matchExpressions": [{"key": "ssd", "operator": "Exists"}]}},
                ],
            },
            "podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                {"labelSelector": {"matchLabels": {"app": "db"}}, "topologyKey": "zone",
                 "namespaces": ["x"], "matchLabelKeys": ["job"]},
            ]},
            "podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 5, "podAffinityTerm": {
                    "labelSelector": {"matchExpressions": [{"key": "app", "operator": "NotIn", "values": ["x"]}]},
                    "namespaceSelector": {}, "topologyKey": "kubernetes.io/hostname"}},
            ]},
        },
        "topologySpreadConstraints": [
            {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule",
             "labelSelector": {"matchLabels": {"app": "trainer"}}, "minDomains": 2,
             "nodeAffinityPolicy": "Ignore", "nodeTaintsPolicy": "Honor", "matchLabelKeys": ["job"]},
        ],
        "initContainers": [
            {"name": "setup", "image": "busybox", "resources": {"requests": {"cpu": "2", "memory": "1Gi"}}},
            {"name": "proxy", "image": "envoy:1.0", "restartPolicy": "Always",
             "resources": {"requests": {"cpu": "100m"}},
             "ports": [{"containerPort": 15000, "hostPort": 15000}]},
        ],
        "containers": [
            {"name": "main", "image": "registry.example.com/trainer",
             "resources": {"requests": {"cpu": "500m", "memory": "2Gi"},
                           "limits": {"nvidia.com/gpu": 1, "memory": "4Gi"}},
             "ports": [{"containerPort": 8080, "hostPort": 80, "protocol": "TCP", "hostIP": "10.0.0.1"},
                       {"containerPort": 9090}]},
        ],
        "overhead": {"cpu": "10m"},
    },
    "status": {"phase": "Pending", "nominatedNodeName": "n1", "startTime": None},
}

NODE = {
    "apiVersion": "v1",
    "kind": "Node",
    "metadata": {"name": "n1", "labels": {"zone": "a"}},
    "spec": {"unschedulable": False, "taints": [{"key": "gpu", "value": "true", "effect": "NoSchedule"}]},
    "status": {
        "capacity": {"cpu": "8", "memory": "32Gi", "pods": "110"},
        "allocatable": {"cpu": "7500m", "memory": "30Gi", "nvidia.com/gpu": "8", "pods": 100},
        "images": [{"names": ["nginx", "docker.io/library/nginx@sha256:abc"], "sizeBytes": 123}],
    },
}

PRIORITY_CLASS = {
    "apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
    "metadata": {"name": "high"}, "value": 1000, "globalDefault": False,
    "preemptionPolicy": "PreemptLowerPriority", "description": "high",
}

PDB = {
    "apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
    "metadata": {"name": "pdb", "namespace": "team-a"},
    "spec": {"minAvailable": "50%", "selector": {"matchLabels": {"app": "trainer"}}},
    "status": {"disruptionsAllowed": 1, "disruptedPods": {"p1": "2025-01-01T00:00:00Z"}},
}

WORKLOAD_V1ALPHA1 = {
    "apiVersion": "scheduling.k8s.io/v1alpha1", "kind": "Workload",
    "metadata": {"name": "w1", "namespace": "team-a"},
    "spec": {"controllerRef": {"apiGroup": "batch", "kind": "Job", "name": "j"},
             "podGroups": [{"name": "workers", "policy": {"gang": {"minCount": 4}}},
                           {"name": "driver", "policy": {"basic": {}}}]},
}

WORKLOAD_V1ALPHA2 = {
    "apiVersion": "scheduling.k8s.io/v1alpha2", "kind": "Workload",
    "metadata": {"name": "w2", "namespace": "team-a"},
    "spec": {"podGroupTemplates": [
        {"name": "workers", "schedulingPolicy": {"gang": {"minCount": 4}},
         "schedulingConstraints": {"topology": [{"key": "rack"}]},
         "disruptionMode": "PodGroup", "priorityClassName": "high", "priority": 7},
    ]},
}

WORKLOAD_V1BETA1 = {
    "apiVersion": "scheduling.k8s.io/v1beta1", "kind": "Workload",
    "metadata": {"name": "w3", "namespace": "team-a"},
    "spec": {"podGroupTemplates": [
        {"name": "workers", "schedulingPolicy": {"gang": {"minCount": 2}},
         "disruptionMode": {"all": {}}, "preemptionPolicy": "Never"},
    ]},
}

WORKLOAD_V1ALPHA3 = {
    "apiVersion": "scheduling.k8s.io/v1alpha3", "kind": "Workload",
    "metadata": {"name": "w4", "namespace": "team-a"},
    "spec": {"compositePodGroupTemplates": [
        {"name": "block", "schedulingPolicy": {"gang": {"minGroupCount": 2}},
         "schedulingConstraints": {"topology": [{"key": "block"}]},
         "compositePodGroupTemplates": [
             {"name": "rack", "schedulingPolicy": {"basic": {}},
              "podGroupTemplates": [{"name": "workers", "schedulingPolicy": {"gang": {"minCount": 2}}}]},
         ]},
    ]},
}

POD_GROUP_V1ALPHA2 = {
    "apiVersion": "scheduling.k8s.io/v1alpha2", "kind": "PodGroup",
    "metadata": {"name": "pg2", "namespace": "team-a", "creationTimestamp": "2025-01-01T00:00:00Z"},
    "spec": {
        "podGroupTemplateRef": {"workload": {"workloadName": "w2", "podGroupTemplateName": "workers"}},
        "schedulingPolicy": {"gang": {"minCount": 4}},
        "schedulingConstraints": {"topology": [{"key": "rack"}]},
        "disruptionMode": "PodGroup", "priorityClassName": "high",
    },
    "status": {"conditions": [{"type": "PodGroupScheduled", "status": "False", "reason": "Unschedulable", "message": "m"}]},
}

POD_GROUP_V1BETA1 = {
    "apiVersion": "scheduling.k8s.io/v1beta1", "kind": "PodGroup",
    "metadata": {"name": "pg3", "namespace": "team-a"},
    "spec": {
        "workloadRef": {"workloadName": "w3", "templateName": "workers"},
        "schedulingPolicy": {"gang": {"minCount": 2}},
        "disruptionMode": {"all": {}}, "priority": 50, "preemptionPolicy": "Never",
    },
    "status": {"conditions": [{"type": "PodGroupInitiallyScheduled", "status": "True", "reason": "Scheduled"}]},
}

POD_GROUP_V1ALPHA3 = {
    "apiVersion": "scheduling.k8s.io/v1alpha3", "kind": "PodGroup",
    "metadata": {"name": "rack-0-workers", "namespace": "team-a"},
    "spec": {
        "parentCompositePodGroupName": "rack-0",
        "workloadRef": {"workloadName": "w4", "templateName": "workers"},
        "schedulingPolicy": {"gang": {"minCount": 2}},
        "disruptionMode": {"single": {}},
    },
}

COMPOSITE_POD_GROUP = {
    "apiVersion": "scheduling.k8s.io/v1alpha3", "kind": "CompositePodGroup",
    "metadata": {"name": "rack-0", "namespace": "team-a"},
    "spec": {
        "parentCompositePodGroupName": "block-0",
        "workloadRef": {"workloadName": "w4", "templateName": "rack"},
        "schedulingPolicy": {"gang": {"minGroupCount": 1}},
        "schedulingConstraints": {"topology": [{"key": "rack"}]},
        "priority": 10,
    },
}

SCHEDULER_CONFIG = {
    "apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
    "percentageOfNodesToScore": 50,
    "profiles": [{
        "schedulerName": "default-scheduler",
        "plugins": {"score": {"enabled": [{"name": "NodeResourcesFit", "weight": 2}], "disabled": [{"name": "*"}]},
                    "placementScore": {"enabled": [{"name": "PodGroupPodsCount", "weight": 5}]}},
        "pluginConfig": [{"name": "NodeResourcesFit", "args": {"scoringStrategy": {
            "type": "MostAllocated", "resources": [{"name": "cpu", "weight": 1}]}}}],
    }],
}

SERVICE = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "svc", "namespace": "team-a"},
           "spec": {"selector": {"app": "trainer"}, "ports": [{"port": 80}]}}
REPLICA_SET = {"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "rs", "namespace": "team-a"},
               "spec": {"selector": {"matchLabels": {"app": "web"}}}}
STATEFUL_SET = {"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "ss", "namespace": "team-a"},
                "spec": {"selector": {"matchExpressions": [{"key": "app", "operator": "Exists"}]}}}
REPLICATION_CONTROLLER = {"apiVersion": "v1", "kind": "ReplicationController",
                          "metadata": {"name": "rc", "namespace": "team-a"},
                          "spec": {"template": {"metadata": {"labels": {"app": "old"}}}}}
NAMESPACE = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "team-a", "labels": {"tier": "gold"}}}
_TEMPLATE = {"metadata": {"labels": {"app": "t"}},
             "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}}
JOB = {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "train", "namespace": "team-a"},
       "spec": {"parallelism": 2, "completions": 2, "completionMode": "Indexed",
                "scheduling": {"schedulingPolicy": {"gang": {"minCount": 2}},
                               "schedulingConstraints": {"topology": [{"key": "zone"}]},
                               "disruptionMode": {"all": {}}},
                "template": _TEMPLATE},
       "status": {"succeeded": 0, "completedIndexes": ""}}
JOB_SET = {"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet", "metadata": {"name": "js", "namespace": "team-a"},
           "spec": {"network": {"enableDNSHostnames": True},
                    "replicatedJobs": [{"name": "w", "replicas": 2,
                                        "template": {"spec": {"parallelism": 1, "template": _TEMPLATE}}}]}}
DEPLOYMENT = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "team-a"},
              "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "t"}}, "template": _TEMPLATE}}

# A running pod as `kubectl get -o json` writes it (the layout of benchmarks' load cases), with
# the status fields the schema covers: conditions, container statuses mid-resize.
RUNNING_POD = {
    "apiVersion": "v1",
    "kind": "Pod",
    "metadata": {
        "name": "running-000001", "namespace": "default", "creationTimestamp": "2025-01-01T00:00:00Z",
        "uid": "00000002-0000-4000-8000-000000000001", "resourceVersion": "10000",
        "labels": {"app": "scheduler-perf"}, "annotations": {"note": "x"},
    },
    "spec": {
        "containers": [{
            "name": "pause", "image": "registry.k8s.io/pause:3.10.1",
            "resources": {"requests": {"cpu": "100m", "memory": "500Mi"},
                          "limits": {"cpu": "100m", "memory": "500Mi"}},
            "imagePullPolicy": "IfNotPresent", "ports": [{"containerPort": 80, "protocol": "TCP"}],
            "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File",
        }],
        "nodeName": "node-00000", "dnsPolicy": "ClusterFirst", "enableServiceLinks": True,
        "preemptionPolicy": "PreemptLowerPriority", "priority": 0, "restartPolicy": "Always",
        "schedulerName": "default-scheduler", "securityContext": {}, "serviceAccountName": "default",
        "terminationGracePeriodSeconds": 30, "hostNetwork": False,
        "workloadRef": {"name": "w", "podGroup": "workers", "podGroupReplicaKey": "0"},
        "schedulingGates": [{"name": "example.com/gate"}],
        "tolerations": [
            {"effect": "NoExecute", "key": "node.kubernetes.io/not-ready", "operator": "Exists",
             "tolerationSeconds": 300},
            {"effect": "NoExecute", "key": "node.kubernetes.io/unreachable", "operator": "Exists",
             "tolerationSeconds": 300},
        ],
    },
    "status": {
        "phase": "Running", "qosClass": "Guaranteed", "hostIP": "10.0.0.1", "startTime": "2025-01-01T00:00:05Z",
        "conditions": [
            {"type": "Ready", "status": "True", "lastProbeTime": None, "lastTransitionTime": "2025-01-01T00:00:05Z"},
            {"type": "PodResizePending", "status": "True", "reason": "Deferred"},
        ],
        "containerStatuses": [{
            "name": "pause", "image": "registry.k8s.io/pause:3.10.1", "ready": True, "restartCount": 0,
            "state": {"running": {"startedAt": "2025-01-01T00:00:05Z"}},
            "resources": {"requests": {"cpu": "200m"}}, "allocatedResources": {"cpu": "200m", "memory": "500Mi"},
        }],
        "initContainerStatuses": [],
    },
}


ALL = [POD, RUNNING_POD, NODE, PRIORITY_CLASS, PDB, WORKLOAD_V1ALPHA1, WORKLOAD_V1ALPHA2, WORKLOAD_V1BETA1,
       WORKLOAD_V1ALPHA3, POD_GROUP_V1ALPHA2, POD_GROUP_V1BETA1, POD_GROUP_V1ALPHA3,
       COMPOSITE_POD_GROUP, SCHEDULER_CONFIG, SERVICE, REPLICA_SET, STATEFUL_SET,
       REPLICATION_CONTROLLER, NAMESPACE, JOB, JOB_SET, DEPLOYMENT]


def sample(obj: dict) -> dict:
    """A deep copy, to change freely."""
    return copy.deepcopy(obj)
