package main

// `framework` mode: every pending pod, on its own, against the cluster as given (bound pods
// only; no pending pod is assumed anywhere). For each pod the profile's real framework runs
// PreFilter, then Filter on every node (each node's status: code, plugin, reasons), then
// PreScore and Score (with NormalizeScore and the weights) on every feasible node; and the
// scheduler's own SchedulePod gives the pod's outcome: its FitError text, or the node it would
// pick and the nodes that tied for the best total.

import (
	"context"
	"errors"
	"sort"

	v1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

type statusJSON struct {
	Code    string   `json:"code"`
	Plugin  string   `json:"plugin"`
	Reasons []string `json:"reasons"`
}

type pluginScoreJSON struct {
	Raw        int64 `json:"raw"`
	Normalized int64 `json:"normalized"`
	Weight     int32 `json:"weight"`
	Weighted   int64 `json:"weighted"`
}

type nodeScoreJSON struct {
	Total   int64                      `json:"total"`
	Plugins map[string]pluginScoreJSON `json:"plugins"`
}

type scheduleJSON struct {
	Node           *string `json:"node"`
	FeasibleNodes  int     `json:"feasibleNodes"`
	EvaluatedNodes int     `json:"evaluatedNodes"`
	FitError       *string `json:"fitError"`
	Error          *string `json:"error"`
}

type podFrameworkJSON struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	Profile   string `json:"profile"`
	// Ignored: no profile has the pod's schedulerName (kube-scheduler never queues it).
	Ignored bool `json:"ignored"`
	// PreFilter: the rejecting PreFilter status, null when PreFilter passed.
	PreFilter *statusJSON `json:"preFilter"`
	// PreFilterNodeNames: the only nodes PreFilter lets Filter see (sorted), null for all.
	PreFilterNodeNames   []string `json:"preFilterNodeNames"`
	UnschedulablePlugins []string `json:"unschedulablePlugins"`
	// Filter: every node's status ("Success" for a feasible node); nodes PreFilter excluded
	// are absent.
	Filter map[string]statusJSON `json:"filter"`
	// PreScore: a non-success, non-skip PreScore status (then there are no scores).
	PreScore *statusJSON `json:"preScore"`
	// Scores: every feasible node's per-plugin scores (scored whenever a node is feasible,
	// also when SchedulePod would not need to score a single node).
	Scores map[string]nodeScoreJSON `json:"scores"`
	// BestNodes: the feasible nodes with the highest total, sorted; upstream picks one at random.
	BestNodes []string     `json:"bestNodes"`
	Schedule  scheduleJSON `json:"schedule"`
}

type frameworkReport struct {
	Mode       string             `json:"mode"`
	Kubernetes string             `json:"kubernetes"`
	Nodes      int                `json:"nodes"`
	Pods       []podFrameworkJSON `json:"pods"`
}

func toStatus(s *fwk.Status) statusJSON {
	if s == nil { // a nil status is Success
		return statusJSON{Code: fwk.Success.String(), Reasons: []string{}}
	}
	reasons := s.Reasons()
	if reasons == nil {
		reasons = []string{}
	}
	return statusJSON{Code: s.Code().String(), Plugin: s.Plugin(), Reasons: reasons}
}

func runFramework(ctx context.Context, c *Cluster) (*frameworkReport, error) {
	if err := c.refreshSnapshot(ctx); err != nil {
		return nil, err
	}
	nodeInfos, err := c.Snapshot.NodeInfos().List()
	if err != nil {
		return nil, err
	}
	report := &frameworkReport{Mode: "framework", Kubernetes: kubernetesVersion, Nodes: len(nodeInfos), Pods: []podFrameworkJSON{}}
	for _, pod := range c.Input.Pods {
		if pod.Spec.NodeName != "" {
			continue
		}
		entry, err := evaluatePod(ctx, c, pod, nodeInfos)
		if err != nil {
			return nil, err
		}
		report.Pods = append(report.Pods, entry)
	}
	return report, nil
}

func evaluatePod(ctx context.Context, c *Cluster, pod *v1.Pod, nodeInfos []fwk.NodeInfo) (podFrameworkJSON, error) {
	out := podFrameworkJSON{Namespace: pod.Namespace, Name: pod.Name, Profile: pod.Spec.SchedulerName,
		Filter: map[string]statusJSON{}, Scores: map[string]nodeScoreJSON{}, BestNodes: []string{}, UnschedulablePlugins: []string{}}
	schedFwk, ok := c.Sched.Profiles[pod.Spec.SchedulerName]
	if !ok {
		out.Ignored = true
		return out, nil
	}
	podInfo, err := framework.NewPodInfo(pod)
	if err != nil {
		return out, err
	}
	queued := &framework.QueuedPodInfo{PodInfo: podInfo}

	// The scheduler's own algorithm for the outcome and its text.
	result, err := c.Sched.SchedulePod(ctx, schedFwk, framework.NewCycleState(), queued)
	var fitErr *framework.FitError
	switch {
	case err == nil:
		host := result.SuggestedHost
		out.Schedule = scheduleJSON{Node: &host, FeasibleNodes: result.FeasibleNodes, EvaluatedNodes: result.EvaluatedNodes}
	case errors.As(err, &fitErr):
		msg := fitErr.Error()
		out.Schedule = scheduleJSON{FitError: &msg}
	default:
		msg := err.Error()
		out.Schedule = scheduleJSON{Error: &msg}
	}

	// The framework's extension points, node by node.
	state := framework.NewCycleState()
	preRes, status, unschedulable := schedFwk.RunPreFilterPlugins(ctx, state, pod)
	out.UnschedulablePlugins = sortedSet(unschedulable)
	if !status.IsSuccess() {
		s := toStatus(status)
		out.PreFilter = &s
		return out, nil
	}
	candidates := nodeInfos
	if !preRes.AllNodes() {
		out.PreFilterNodeNames = sortedSet(preRes.NodeNames)
		candidates = nil
		for _, ni := range nodeInfos {
			if preRes.NodeNames.Has(ni.Node().Name) {
				candidates = append(candidates, ni)
			}
		}
	}
	var feasible []fwk.NodeInfo
	for _, ni := range candidates {
		s := schedFwk.RunFilterPluginsWithNominatedPods(ctx, state, pod, ni)
		out.Filter[ni.Node().Name] = toStatus(s)
		if s.IsSuccess() {
			feasible = append(feasible, ni)
		}
	}
	if len(feasible) == 0 {
		return out, nil
	}
	if s := schedFwk.RunPreScorePlugins(ctx, state, pod, feasible); !s.IsSuccess() && !s.IsSkip() {
		st := toStatus(s)
		out.PreScore = &st
		return out, nil
	}
	scores, s := schedFwk.RunScorePlugins(ctx, state, pod, feasible)
	if !s.IsSuccess() {
		st := toStatus(s)
		out.PreScore = &st
		return out, nil
	}
	weights := map[string]int32{}
	for _, p := range schedFwk.ListPlugins().Score.Enabled {
		weights[p.Name] = p.Weight
	}
	var best int64
	for i, ns := range scores {
		plugins := map[string]pluginScoreJSON{}
		for j, ps := range ns.Scores {
			w := weights[ps.Name]
			if w == 0 {
				w = 1
			}
			plugins[ps.Name] = pluginScoreJSON{Raw: ns.RawScores[j].Score, Normalized: ps.Score / int64(w), Weight: w, Weighted: ps.Score}
		}
		out.Scores[ns.Name] = nodeScoreJSON{Total: ns.TotalScore, Plugins: plugins}
		if i == 0 || ns.TotalScore > best {
			best = ns.TotalScore
		}
	}
	for _, ns := range scores {
		if ns.TotalScore == best {
			out.BestNodes = append(out.BestNodes, ns.Name)
		}
	}
	sort.Strings(out.BestNodes)
	return out, nil
}
