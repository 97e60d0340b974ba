package main

// With --tie-break=name the scheduler mode also fixes the order of candidate placements.
// TopologyPlacement generates them by iterating a Go map, so their order, and with it which
// placement a failed PodGroup reports as the "first placement status", is random upstream.
// The planner evaluates them sorted by name (its documented deviation). This wrapper runs the
// real TopologyPlacement and sorts its result by name; the profiles use it in TopologyPlacement's
// place. Placement score ties stay random (findBestPlacement draws a random tie-breaker).

import (
	"context"
	"sort"

	"k8s.io/apimachinery/pkg/runtime"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/feature"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/names"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/topologyaware"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
)

const sortedPlacementName = "TopologyPlacementSortedByName"

type sortedPlacement struct {
	inner *topologyaware.TopologyPlacement
}

func (p *sortedPlacement) Name() string { return sortedPlacementName }

func (p *sortedPlacement) GeneratePlacements(ctx context.Context, state fwk.PodGroupCycleState, podGroup fwk.PodGroupInfo, parent *fwk.Placement) (*fwk.GeneratePlacementsResult, *fwk.Status) {
	res, status := p.inner.GeneratePlacements(ctx, state, podGroup, parent)
	if res != nil {
		sort.SliceStable(res.Placements, func(i, j int) bool { return res.Placements[i].Name < res.Placements[j].Name })
	}
	return res, status
}

func sortedPlacementRegistry() frameworkruntime.Registry {
	return frameworkruntime.Registry{
		sortedPlacementName: func(ctx context.Context, obj runtime.Object, h fwk.Handle) (fwk.Plugin, error) {
			inner, err := topologyaware.New(ctx, obj, h, feature.NewSchedulerFeaturesFromGates(utilfeature.DefaultFeatureGate))
			if err != nil {
				return nil, err
			}
			return &sortedPlacement{inner: inner}, nil
		},
	}
}

// useSortedPlacement puts the wrapper wherever a profile enables TopologyPlacement.
func useSortedPlacement(profiles []config.KubeSchedulerProfile) {
	for i := range profiles {
		plugins := profiles[i].Plugins
		if plugins == nil {
			continue
		}
		for _, set := range []*config.PluginSet{&plugins.MultiPoint, &plugins.PlacementGenerate} {
			for j := range set.Enabled {
				if set.Enabled[j].Name == names.TopologyPlacementGenerator {
					set.Enabled[j].Name = sortedPlacementName
				}
			}
		}
	}
}
