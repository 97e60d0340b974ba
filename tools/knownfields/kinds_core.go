package main

import (
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
)

// The GA kinds podgroup-plan reads, in every k8s.io/api version generated (v0.35.0, v0.36.0,
// v0.37.2): a dump from a 1.35 or 1.36 cluster may carry a field 1.37 dropped (a Pod's 1.35
// spec.workloadRef), so the known fields are the union (podgroup_plan/loading/known_fields_gen.py).
var coreKinds = map[string]any{
	"v1/Pod":                             corev1.Pod{},
	"v1/Node":                            corev1.Node{},
	"v1/Namespace":                       corev1.Namespace{},
	"v1/Service":                         corev1.Service{},
	"v1/ReplicationController":           corev1.ReplicationController{},
	"v1/LimitRange":                      corev1.LimitRange{},
	"apps/v1/Deployment":                 appsv1.Deployment{},
	"apps/v1/ReplicaSet":                 appsv1.ReplicaSet{},
	"apps/v1/StatefulSet":                appsv1.StatefulSet{},
	"apps/v1/DaemonSet":                  appsv1.DaemonSet{},
	"batch/v1/Job":                       batchv1.Job{},
	"batch/v1/CronJob":                   batchv1.CronJob{},
	"batch/v1/JobTemplateSpec":           batchv1.JobTemplateSpec{},
	"node.k8s.io/v1/RuntimeClass":        nodev1.RuntimeClass{},
	"policy/v1/PodDisruptionBudget":      policyv1.PodDisruptionBudget{},
	"scheduling.k8s.io/v1/PriorityClass": schedulingv1.PriorityClass{},
}
