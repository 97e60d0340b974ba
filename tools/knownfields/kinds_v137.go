//go:build !v135 && !v136

package main

import (
	schedulingv1alpha3 "k8s.io/api/scheduling/v1alpha3"
	schedulingv1beta1 "k8s.io/api/scheduling/v1beta1"
)

// The scheduling.k8s.io kinds of k8s.io/api v0.37.2 (Kubernetes v1.37) that podgroup-plan reads.
var versionKinds = map[string]any{
	"scheduling.k8s.io/v1alpha3/Workload":          schedulingv1alpha3.Workload{},
	"scheduling.k8s.io/v1alpha3/PodGroup":          schedulingv1alpha3.PodGroup{},
	"scheduling.k8s.io/v1alpha3/CompositePodGroup": schedulingv1alpha3.CompositePodGroup{},
	"scheduling.k8s.io/v1beta1/Workload":           schedulingv1beta1.Workload{},
	"scheduling.k8s.io/v1beta1/PodGroup":           schedulingv1beta1.PodGroup{},
}
