//go:build v136

package main

import (
	schedulingv1alpha2 "k8s.io/api/scheduling/v1alpha2"
)

// The kinds of k8s.io/api v0.36.0 (Kubernetes v1.36) that podgroup-plan reads and v1.37 dropped.
var versionKinds = map[string]any{
	"scheduling.k8s.io/v1alpha2/Workload": schedulingv1alpha2.Workload{},
	"scheduling.k8s.io/v1alpha2/PodGroup": schedulingv1alpha2.PodGroup{},
}
