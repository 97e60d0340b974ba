package main

// `scheduler` mode: the real Scheduler (queue, PreEnqueue gates, single-pod and PodGroup
// cycles, placement, CompositePodGroup, preemption and workload-aware preemption, binding)
// over the fake API server, driven one scheduling cycle (ScheduleOne) at a time.
//
// Time is a fake clock. Pending pods are created one by one in the planner's queue order
// (priority, creationTimestamp, namespace, name), the clock stepping 1 ms between them, so
// that the queue's "first seen" times follow that order. When the active queue is empty, a
// round ends: the clock jumps past every backoff and what the round's cluster events moved to
// the backoff queue (upstream's queueing hints) is activated for the next round. Entities in
// the unschedulable pool stay there (the 5-minute flush is not modelled: the planner's passes
// do not retry them either). The run ends after a round in which nothing was bound,
// nominated or evicted.
//
// Ties: every SchedulePod call that scored several feasible nodes is re-evaluated on the
// same snapshot to find every node with the best total; the decision's tie set is reported.
// With --tie-break=name the scheduler takes the first of them by name (the planner's
// documented deviation) instead of upstream's random pick, which makes whole runs comparable.

import (
	"context"
	"fmt"
	"os"
	"sort"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clienttesting "k8s.io/client-go/testing"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

type conditionJSON struct {
	Type    string `json:"type"`
	Status  string `json:"status"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

type podOutcomeJSON struct {
	Namespace     string         `json:"namespace"`
	Name          string         `json:"name"`
	Node          *string        `json:"node"`
	NominatedNode *string        `json:"nominatedNode"`
	Deleted       bool           `json:"deleted"`
	Condition     *conditionJSON `json:"condition"` // PodScheduled, when the scheduler wrote one
	// Ties: the best-scored nodes of the SchedulePod call that chose this pod's node, when
	// there were several (sorted); the decision was random among them (or by name).
	Ties []string `json:"ties"`
}

type groupOutcomeJSON struct {
	Namespace  string          `json:"namespace"`
	Name       string          `json:"name"`
	Conditions []conditionJSON `json:"conditions"`
}

// compositeOutcomeJSON: a CompositePodGroup's status conditions as the fake API server holds
// them at the end. v1.37 writes none (its cycle patches PodGroups only), so a non-empty list
// would be news the planner's own CompositePodGroup status does not model.
type compositeOutcomeJSON struct {
	Namespace  string          `json:"namespace"`
	Name       string          `json:"name"`
	Conditions []conditionJSON `json:"conditions"`
}

type victimJSON struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	Node      string `json:"node"`
}

type schedulerReport struct {
	Mode       string `json:"mode"`
	Kubernetes string `json:"kubernetes"`
	Nodes      int    `json:"nodes"`
	TieBreak   string `json:"tieBreak"`
	Rounds     int    `json:"rounds"`
	Cycles     int    `json:"cycles"`
	// SchedulingSeconds: wall time from the first cycle to the end of the last (pod creation
	// and informer start-up excluded).
	SchedulingSeconds float64            `json:"schedulingSeconds"`
	Pods              []podOutcomeJSON   `json:"pods"`
	PodGroups         []groupOutcomeJSON `json:"podGroups"`
	// CompositePodGroups: every one the input holds, with its conditions (none in v1.37).
	CompositePodGroups []compositeOutcomeJSON `json:"compositePodGroups"`
	Victims            []victimJSON           `json:"victims"`
}

type schedulerOptions struct {
	maxRounds int
	tieBreak  string // "random" (upstream) or "name"
	ties      bool   // compute tie sets (costs a second evaluation per scored decision)
	start     string // replay mode: --start
}

// tieRecorder wraps Scheduler.SchedulePod.
type tieRecorder struct {
	mu    sync.Mutex
	ties  map[string][]string // pod key -> best nodes of its last scored decision
	moved map[string]string   // pod key -> node of its last successful decision
}

func (t *tieRecorder) wrap(c *Cluster, opts schedulerOptions) {
	orig := c.Sched.SchedulePod
	c.Sched.SchedulePod = func(ctx context.Context, f framework.Framework, state fwk.CycleState, podInfo *framework.QueuedPodInfo) (scheduler.ScheduleResult, error) {
		res, err := orig(ctx, f, state, podInfo)
		if err != nil {
			return res, err
		}
		k := key(podInfo.Pod.Namespace, podInfo.Pod.Name)
		var best []string
		if opts.ties && res.FeasibleNodes > 1 {
			best = bestNodes(ctx, c, f, podInfo.Pod)
			if opts.tieBreak == "name" && len(best) > 1 {
				res.SuggestedHost = best[0]
			}
		}
		t.mu.Lock()
		t.ties[k] = best
		t.moved[k] = res.SuggestedHost
		t.mu.Unlock()
		return res, err
	}
}

// bestNodes evaluates the pod again on the scheduler's current snapshot (within the current
// placement, for a PodGroup trial) and returns every feasible node with the best total.
func bestNodes(ctx context.Context, c *Cluster, f framework.Framework, pod *v1.Pod) []string {
	nodes, err := c.Snapshot.ListNodesInPlacement()
	if err != nil {
		return nil
	}
	state := framework.NewCycleState()
	preRes, status, _ := f.RunPreFilterPlugins(ctx, state, pod)
	if !status.IsSuccess() {
		return nil
	}
	var feasible []fwk.NodeInfo
	for _, ni := range nodes {
		if !preRes.AllNodes() && !preRes.NodeNames.Has(ni.Node().Name) {
			continue
		}
		if f.RunFilterPluginsWithNominatedPods(ctx, state, pod, ni).IsSuccess() {
			feasible = append(feasible, ni)
		}
	}
	if len(feasible) == 0 {
		return nil
	}
	if s := f.RunPreScorePlugins(ctx, state, pod, feasible); !s.IsSuccess() && !s.IsSkip() {
		return nil
	}
	scores, s := f.RunScorePlugins(ctx, state, pod, feasible)
	if !s.IsSuccess() {
		return nil
	}
	var top int64
	for i, ns := range scores {
		if i == 0 || ns.TotalScore > top {
			top = ns.TotalScore
		}
	}
	var best []string
	for _, ns := range scores {
		if ns.TotalScore == top {
			best = append(best, ns.Name)
		}
	}
	sort.Strings(best)
	return best
}

// queueOrder is the planner's queue order for pending pods: priority (higher first),
// creationTimestamp (earlier first, none last), namespace, name.
func queueOrder(pods []*v1.Pod) []*v1.Pod {
	out := append([]*v1.Pod(nil), pods...)
	prio := func(p *v1.Pod) int32 {
		if p.Spec.Priority != nil {
			return *p.Spec.Priority
		}
		return 0
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if prio(a) != prio(b) {
			return prio(a) > prio(b)
		}
		ta, tb := a.CreationTimestamp, b.CreationTimestamp
		if ta.IsZero() != tb.IsZero() {
			return !ta.IsZero()
		}
		if !ta.Equal(&tb) {
			return ta.Before(&tb)
		}
		return key(a.Namespace, a.Name) < key(b.Namespace, b.Name)
	})
	return out
}

func runScheduler(ctx context.Context, c *Cluster, opts schedulerOptions) (*schedulerReport, error) {
	logger := klogFrom(ctx)
	queue := c.Sched.SchedulingQueue
	var deletedMu sync.Mutex
	deleted := map[string]string{} // pod key -> node it was deleted from
	c.Client.PrependReactor("delete", "pods", func(action clienttesting.Action) (bool, runtime.Object, error) {
		del := action.(clienttesting.DeleteAction)
		if obj, err := c.Tracker.Get(podsResource, del.GetNamespace(), del.GetName()); err == nil {
			deletedMu.Lock()
			deleted[key(del.GetNamespace(), del.GetName())] = obj.(*v1.Pod).Spec.NodeName
			deletedMu.Unlock()
		}
		return false, nil, nil
	})
	if os.Getenv("ORACLE_DEBUG") != "" {
		c.Client.PrependReactor("*", "*", func(action clienttesting.Action) (bool, runtime.Object, error) {
			if p, ok := action.(clienttesting.PatchAction); ok {
				fmt.Fprintf(os.Stderr, "patch %s %s/%s %s\n", action.GetResource().Resource, p.GetNamespace(), p.GetName(), p.GetPatch())
			} else if action.GetVerb() != "get" && action.GetVerb() != "list" && action.GetVerb() != "watch" {
				fmt.Fprintf(os.Stderr, "%s %s %s\n", action.GetVerb(), action.GetResource().Resource, action.GetSubresource())
			}
			return false, nil, nil
		})
	}
	rec := &tieRecorder{ties: map[string][]string{}, moved: map[string]string{}}
	rec.wrap(c, opts)

	// Pending pods enter the queue in the planner's order, 1 ms apart on the fake clock.
	var pending []*v1.Pod
	for _, p := range c.Input.Pods {
		if p.Spec.NodeName == "" {
			pending = append(pending, p)
		}
	}
	for _, p := range queueOrder(pending) {
		if _, err := c.Client.CoreV1().Pods(p.Namespace).Create(ctx, p, metav1.CreateOptions{}); err != nil {
			return nil, fmt.Errorf("creating pod %s/%s: %w", p.Namespace, p.Name, err)
		}
		waitFor(100*time.Millisecond, func() bool {
			_, ok := queue.GetPod(p.Name, p.Namespace, p.Spec.SchedulingGroup)
			return ok
		})
		c.Clock.Step(time.Millisecond)
	}

	report := &schedulerReport{Mode: "scheduler", Kubernetes: kubernetesVersion, Nodes: len(c.Input.Nodes), TieBreak: opts.tieBreak}
	start := time.Now()
	lastChange := c.changeMark(&deletedMu, deleted)
	for report.Rounds < opts.maxRounds {
		report.Rounds++
		for len(queue.PodsInActiveQ()) > 0 {
			report.Cycles++
			c.Sched.ScheduleOne(ctx)
			if opts.ties {
				// Comparison runs: each cycle sees everything the last one wrote.
				c.waitForBindings(rec)
				c.settle(ctx)
			}
		}
		// Benchmark runs (--no-ties): bindings overlap the next cycles, as in a live
		// scheduler; the round waits for them at its end.
		c.waitForBindings(rec)
		// Preemption's API calls (victim deletions, nominations) run asynchronously
		// (SchedulerAsyncPreemption); the round ends only once nothing moves any more.
		if c.quiesce(ctx, opts, &deletedMu, deleted) {
			continue
		}
		mark := c.changeMark(&deletedMu, deleted)
		if report.Rounds > 1 && mark == lastChange {
			break
		}
		lastChange = mark
		// Every backoff expires; what the cluster events of the round moved to the backoff
		// queue (queueing hints) is retried. Entities in the unschedulable pool stay there:
		// upstream would flush them after podMaxInUnschedulablePodsDuration (5 minutes), the
		// planner does not retry them until something is evicted (README, "Passes, not time").
		c.Clock.Step(time.Minute)
		backoff := map[string]*v1.Pod{}
		for _, p := range queue.PodsInBackoffQ() {
			backoff[key(p.Namespace, p.Name)] = p
		}
		// A preemptor is activated by the preemption goroutine once its victims are gone; when
		// that lands while its group is still in flight the activation can be lost and the group
		// waits in the unschedulable pool for the 5-minute flush (about 8 runs in 10 on a tree
		// whose running member is joined by a pending one). A pod still nominated and unbound
		// at the end of a round is therefore activated, as the flush would do in the end.
		podLister := c.Informers.Core().V1().Pods().Lister()
		stranded := map[string]*v1.Pod{}
		for _, p := range queue.UnschedulablePods() {
			if live, err := podLister.Pods(p.Namespace).Get(p.Name); err == nil && live.Spec.NodeName == "" && live.Status.NominatedNodeName != "" {
				stranded[key(p.Namespace, p.Name)] = p
			}
		}
		if len(stranded) > 0 {
			queue.Activate(logger, stranded)
		}
		if len(backoff) > 0 {
			queue.Activate(logger, backoff)
		}
		if os.Getenv("ORACLE_DEBUG") != "" {
			fmt.Fprintf(os.Stderr, "round %d end: active %d backoff %d unschedulable %d mark %s\n", report.Rounds,
				len(queue.PodsInActiveQ()), len(queue.PodsInBackoffQ()), len(queue.UnschedulablePods()), mark)
		}
		if len(queue.PodsInActiveQ()) == 0 {
			break
		}
	}
	report.SchedulingSeconds = time.Since(start).Seconds()
	return report, c.collect(ctx, report, pending, rec, deleted)
}

// quiesce waits until the fake API server and the queue stop changing (three quiet checks
// 20 ms apart); it reports whether the active queue received work meanwhile.
func (c *Cluster) quiesce(ctx context.Context, opts schedulerOptions, mu *sync.Mutex, deleted map[string]string) bool {
	last, quiet := "", 0
	for quiet < 3 {
		time.Sleep(20 * time.Millisecond)
		if opts.ties {
			c.settle(ctx)
		}
		if len(c.Sched.SchedulingQueue.PodsInActiveQ()) > 0 {
			return true
		}
		mark := c.changeMark(mu, deleted)
		if mark == last {
			quiet++
		} else {
			last, quiet = mark, 0
		}
	}
	return false
}

func waitFor(limit time.Duration, done func() bool) bool {
	deadline := time.Now().Add(limit)
	for !done() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(50 * time.Microsecond)
	}
	return true
}

// waitForBindings waits until every pod the last cycle placed is bound and its binding
// seen by the scheduler's cache (the binding cycle runs in its own goroutine).
func (c *Cluster) waitForBindings(rec *tieRecorder) {
	rec.mu.Lock()
	var placed []string
	for k := range rec.moved {
		placed = append(placed, k)
	}
	rec.moved = map[string]string{}
	rec.mu.Unlock()
	lister := c.Informers.Core().V1().Pods().Lister()
	for _, k := range placed {
		ns, name := splitKey(k)
		waitFor(5*time.Second, func() bool {
			pod, err := lister.Pods(ns).Get(name)
			if err != nil {
				return true // deleted
			}
			if assumed, _ := c.Sched.Cache.IsAssumedPod(pod); assumed {
				return false
			}
			return true
		})
	}
}

// settle waits until the informers show every pod's and PodGroup's current state (binding,
// nomination, conditions), so that the next cycle sees what the last one wrote, as it would
// after the API server's watch caught up. Without it the result would depend on goroutine
// timing (e.g. whether a PodGroup's True condition arrived before its next cycle).
func (c *Cluster) settle(ctx context.Context) {
	podLister := c.Informers.Core().V1().Pods().Lister()
	waitFor(5*time.Second, func() bool {
		objs, err := c.Tracker.List(podsResource, v1.SchemeGroupVersion.WithKind("Pod"), "")
		if err != nil {
			return true
		}
		for _, o := range objs.(*v1.PodList).Items {
			seen, err := podLister.Pods(o.Namespace).Get(o.Name)
			if err != nil || seen.Spec.NodeName != o.Spec.NodeName || seen.Status.NominatedNodeName != o.Status.NominatedNodeName ||
				!equality.Semantic.DeepEqual(seen.Status.Conditions, o.Status.Conditions) {
				return false
			}
		}
		groups, err := c.Client.SchedulingV1beta1().PodGroups("").List(ctx, metav1.ListOptions{})
		if err != nil {
			return true
		}
		groupLister := c.Informers.Scheduling().V1beta1().PodGroups().Lister()
		cached := c.Sched.Cache.PodGroups()
		for _, g := range groups.Items {
			seen, err := groupLister.PodGroups(g.Namespace).Get(g.Name)
			if err != nil || !equality.Semantic.DeepEqual(seen.Status.Conditions, g.Status.Conditions) {
				return false
			}
			// The informer's store is written before its event handlers run; the cycle reads
			// the PodGroup from the scheduler's cache (reconcilePodGroupWithSnapshot), which
			// only the handler updates. Without this wait a cycle could still see a group's
			// old False condition and overwrite a True one that was just written. (A group
			// the cache does not hold, e.g. with GenericWorkload off, has nothing to wait for.)
			if inCache, err := cached.Get(g.Namespace, g.Name); err == nil && inCache.ResourceVersion != g.ResourceVersion {
				return false
			}
		}
		return true
	})
}

func splitKey(k string) (string, string) {
	for i := 0; i < len(k); i++ {
		if k[i] == '/' {
			return k[:i], k[i+1:]
		}
	}
	return "", k
}

// changeMark summarises what a round can change: bound pods, nominations, deletions.
func (c *Cluster) changeMark(mu *sync.Mutex, deleted map[string]string) string {
	pods, _ := c.Informers.Core().V1().Pods().Lister().List(everything)
	bound, nominated := 0, 0
	for _, p := range pods {
		if p.Spec.NodeName != "" {
			bound++
		}
		if p.Status.NominatedNodeName != "" {
			nominated++
		}
	}
	mu.Lock()
	defer mu.Unlock()
	return fmt.Sprintf("%d/%d/%d", bound, nominated, len(deleted))
}

func (c *Cluster) collect(ctx context.Context, report *schedulerReport, pending []*v1.Pod, rec *tieRecorder, deleted map[string]string) error {
	report.Pods = []podOutcomeJSON{}
	report.PodGroups = []groupOutcomeJSON{}
	report.Victims = []victimJSON{}
	for _, p := range pending {
		out := podOutcomeJSON{Namespace: p.Namespace, Name: p.Name}
		obj, err := c.Tracker.Get(podsResource, p.Namespace, p.Name)
		if err != nil {
			out.Deleted = true
		} else {
			live := obj.(*v1.Pod)
			if live.Spec.NodeName != "" {
				node := live.Spec.NodeName
				out.Node = &node
				out.Ties = rec.ties[key(p.Namespace, p.Name)]
			}
			if live.Status.NominatedNodeName != "" {
				nn := live.Status.NominatedNodeName
				out.NominatedNode = &nn
			}
			for _, cond := range live.Status.Conditions {
				if cond.Type == v1.PodScheduled {
					out.Condition = &conditionJSON{Type: string(cond.Type), Status: string(cond.Status), Reason: cond.Reason, Message: cond.Message}
				}
			}
		}
		report.Pods = append(report.Pods, out)
	}
	sort.Slice(report.Pods, func(i, j int) bool {
		return key(report.Pods[i].Namespace, report.Pods[i].Name) < key(report.Pods[j].Namespace, report.Pods[j].Name)
	})
	for k, node := range deleted {
		ns, name := splitKey(k)
		report.Victims = append(report.Victims, victimJSON{Namespace: ns, Name: name, Node: node})
	}
	sort.Slice(report.Victims, func(i, j int) bool {
		return key(report.Victims[i].Namespace, report.Victims[i].Name) < key(report.Victims[j].Namespace, report.Victims[j].Name)
	})
	groups, err := c.Client.SchedulingV1beta1().PodGroups("").List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	for _, g := range groups.Items {
		out := groupOutcomeJSON{Namespace: g.Namespace, Name: g.Name, Conditions: conditionsJSON(g.Status.Conditions)}
		report.PodGroups = append(report.PodGroups, out)
	}
	sort.Slice(report.PodGroups, func(i, j int) bool {
		return key(report.PodGroups[i].Namespace, report.PodGroups[i].Name) < key(report.PodGroups[j].Namespace, report.PodGroups[j].Name)
	})
	report.CompositePodGroups = []compositeOutcomeJSON{}
	composites, err := c.Client.SchedulingV1alpha3().CompositePodGroups("").List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	for _, g := range composites.Items {
		out := compositeOutcomeJSON{Namespace: g.Namespace, Name: g.Name, Conditions: conditionsJSON(g.Status.Conditions)}
		report.CompositePodGroups = append(report.CompositePodGroups, out)
	}
	sort.Slice(report.CompositePodGroups, func(i, j int) bool {
		a, b := report.CompositePodGroups[i], report.CompositePodGroups[j]
		return key(a.Namespace, a.Name) < key(b.Namespace, b.Name)
	})
	return nil
}

// conditionsJSON reports a PodGroup's or CompositePodGroup's conditions as the planner's result
// words them (an empty list, never null).
func conditionsJSON(conds []metav1.Condition) []conditionJSON {
	out := []conditionJSON{}
	for _, cond := range conds {
		out = append(out, conditionJSON{Type: cond.Type, Status: string(cond.Status), Reason: cond.Reason, Message: cond.Message})
	}
	return out
}
