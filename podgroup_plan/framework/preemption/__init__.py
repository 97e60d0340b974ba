"""Preemption: DefaultPreemption's PostFilter for single pods and workload-aware preemption
(PodGroupPostFilter) for groups.

Mirrors `pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go` and
`pkg/scheduler/framework/preemption/` (preemption.go, podgrouppreemption.go, the victim units
and their ordering) of kube-scheduler v1.37.0. Modules:

* `victims`: victim units, their priority and importance order, PodDisruptionBudget budgets;
* `usage`: per-priority node usage kept current as pods come and go (the vectorised removal of
  every potential victim at once);
* `default_preemption`: the per-node search for a single pod;
* `pod_group_preemption`: the whole-cluster search for a PodGroup.
"""
