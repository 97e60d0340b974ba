//go:build v135

package main

import (
	schedulingv1alpha1 "k8s.io/api/scheduling/v1alpha1"
)

// The kinds of k8s.io/api v0.35.0 (Kubernetes v1.35) that podgroup-plan reads and v1.37 dropped.
var versionKinds = map[string]any{
	"scheduling.k8s.io/v1alpha1/Workload": schedulingv1alpha1.Workload{},
}
