package main

// With --tie-break=name, replay mode also fixes DefaultPreemption's last tie. Among candidate
// nodes that tie on every criterion, pickOneNodeForPreemption (pkg/scheduler/framework/preemption)
// takes "the first Node in the list", a list built by ranging over a map: random. The planner
// takes the node whose name sorts first (its README, "Preemption, made deterministic"). The
// plugin's Evaluator asks its Interface for OrderedScoreFuncs (nil: the five defaults); the
// wrapper below answers with those five, as upstream writes them, and one more: the node's rank
// by name. Nothing else of the plugin changes.

import (
	"context"
	"math"
	"sort"

	corev1helpers "k8s.io/component-helpers/scheduling/corev1"
	extenderv1 "k8s.io/kube-scheduler/extender/v1"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultpreemption"
	"k8s.io/kubernetes/pkg/scheduler/util"
)

type preemptionByName struct {
	*defaultpreemption.DefaultPreemption
}

func (p preemptionByName) OrderedScoreFuncs(ctx context.Context, nodesToVictims map[string]*extenderv1.Victims) []func(node string) int64 {
	funcs := p.DefaultPreemption.OrderedScoreFuncs(ctx, nodesToVictims)
	if len(funcs) == 0 {
		funcs = defaultPreemptionScoreFuncs(nodesToVictims)
	}
	names := make([]string, 0, len(nodesToVictims))
	for node := range nodesToVictims {
		names = append(names, node)
	}
	sort.Strings(names)
	rank := make(map[string]int64, len(names))
	for i, node := range names {
		rank[node] = int64(i)
	}
	return append(funcs, func(node string) int64 { return -rank[node] })
}

// defaultPreemptionScoreFuncs: pickOneNodeForPreemption's defaults (v1.37.2), in its order: the
// fewest PDB violations, the lowest highest-priority victim, the smallest sum of priorities, the
// fewest victims, the latest earliest start of the victims.
func defaultPreemptionScoreFuncs(nodesToVictims map[string]*extenderv1.Victims) []func(node string) int64 {
	return []func(string) int64{
		func(node string) int64 { return -nodesToVictims[node].NumPDBViolations },
		func(node string) int64 { return -int64(corev1helpers.PodPriority(nodesToVictims[node].Pods[0])) },
		func(node string) int64 {
			var sum int64
			for _, pod := range nodesToVictims[node].Pods {
				sum += int64(corev1helpers.PodPriority(pod)) + int64(math.MaxInt32+1)
			}
			return -sum
		},
		func(node string) int64 { return -int64(len(nodesToVictims[node].Pods)) },
		func(node string) int64 {
			earliest := util.GetEarliestPodStartTime(nodesToVictims[node])
			if earliest == nil {
				return int64(math.MinInt64)
			}
			return earliest.UnixNano()
		},
	}
}

// usePreemptionByName puts the wrapper in every profile's DefaultPreemption (found among the
// PreEnqueue plugins, which it is one of with SchedulerAsyncPreemption).
func usePreemptionByName(sched *scheduler.Scheduler) {
	for _, f := range sched.Profiles {
		for _, pl := range f.PreEnqueuePlugins() {
			if dp, ok := pl.(*defaultpreemption.DefaultPreemption); ok && dp.Evaluator != nil {
				dp.Evaluator.Interface = preemptionByName{DefaultPreemption: dp}
			}
		}
	}
}
