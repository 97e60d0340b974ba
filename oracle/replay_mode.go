package main

// `replay` mode: `podgroup-plan replay`'s question -- when does each pod start, and where --
// answered by the real Scheduler on a fake clock. The cluster and the queue are kube-scheduler's
// own (scheduler mode's set-up: the fake API server, the informers, ScheduleOne); what the
// replay adds is time:
//
//   - an event loop over instants: pods that end (their duration after their start) or whose
//     grace period after a preemption is over are deleted; then the queue's timers fire (below);
//     then the pods that arrive are created; then ScheduleOne runs until nothing is left to do at
//     that instant. A pod bound during an instant starts at that instant.
//   - the queue's timers are driven at the times kube-scheduler's own goroutines would run them
//     (PriorityQueue.Run is not started: one of its loops runs on the wall clock):
//     flushBackoffQCompleted every whole second, emulated by Activate on the entities whose
//     backoff expiry is before the second (what popAllBackoffCompleted pops; Activate moves them
//     from the backoff queue as flushBackoffQCompleted does), and
//     flushUnschedulableEntitiesLeftover every 30 s from the start, emulated by
//     MoveAllToActiveOrBackoffQueue(UnschedulableTimeout) on the entities that waited more than
//     5 minutes since their last attempt or flush.
//   - SchedulerPopFromBackoffQ: when the active queue is empty the scheduler pops the backoff
//     queue. Cycles take no time on the fake clock, so an entity rejected at this instant would
//     be popped again and again with the same answer (upstream: as often as cycles take); the
//     oracle, as the planner, retries a backoff-queue entity only when a pod was bound or gone
//     since its last attempt, the first such in the backoff queue's order (expiry, then
//     PrioritySort), moved to the active queue with Activate.
//   - a deleted pod (preemption's victim) keeps its node for its terminationGracePeriodSeconds:
//     the delete call sets deletionTimestamp, as the API server does for a pod with a grace
//     period, and the pod is removed when the grace period is over (a kubelet's part).
//   - the clock steps 1 ms after each pod created and each cycle, so that queue timestamps
//     follow the order things happened in (arrivals at one instant in the planner's order:
//     lone pods before PodGroups, then namespace and name).
//   - the run ends when no pod is left to arrive, end or terminate and no entity waiting in the
//     backoff queue or the unschedulable pool saw a binding or a pod go since its last attempt.

import (
	"context"
	"fmt"
	"os"
	"sort"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/kubernetes"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/features"
	internalqueue "k8s.io/kubernetes/pkg/scheduler/backend/queue"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

const (
	flushPeriod        = 30 * time.Second
	maxInUnschedulable = 5 * time.Minute // podMaxInUnschedulablePodsDuration's default
	maxInstants        = 100_000
	settleLimit        = 10 * time.Second
)

var debug = os.Getenv("ORACLE_DEBUG") != ""

type replayPodJSON struct {
	Namespace string  `json:"namespace"`
	Name      string  `json:"name"`
	PodGroup  *string `json:"podGroup"`
	Arrival   string  `json:"arrival"`
	Start     *string `json:"start"`
	Node      *string `json:"node"`
	End       *string `json:"end"`
	EndedBy   *string `json:"endedBy"` // completed, preempted
	// Attempts: the scheduling cycles the pod was part of (its PodGroup's, for a member).
	Attempts  int            `json:"attempts"`
	Condition *conditionJSON `json:"condition"` // PodScheduled at the end, when written
	Ties      []string       `json:"ties"`      // the best nodes of the decision that placed it
}

type replayReport struct {
	Mode       string `json:"mode"`
	Kubernetes string `json:"kubernetes"`
	TieBreak   string `json:"tieBreak"`
	Start      string `json:"start"`
	End        string `json:"end"` // the last instant
	Instants   int    `json:"instants"`
	Cycles     int    `json:"cycles"`
	// Unsettled: instants at which the informers' handlers did not catch up within 10 s (the
	// run is then not to be trusted; the tests require 0).
	Unsettled         int             `json:"unsettled"`
	SchedulingSeconds float64         `json:"schedulingSeconds"`
	Pods              []replayPodJSON `json:"pods"`
}

func (p *replayPlan) watchQueue(q internalqueue.SchedulingQueue) internalqueue.SchedulingQueue {
	p.spy = newQueueSpy(q)
	return p.spy
}

func (p *replayPlan) gateClient(c kubernetes.Interface) kubernetes.Interface {
	return gatedClient{Interface: c, gate: p.gate}
}

type replayRun struct {
	c      *Cluster
	plan   *replayPlan
	spy    *queueSpy
	logger klog.Logger
	popBQ  bool // SchedulerPopFromBackoffQ

	mu           sync.Mutex // now, terminations, ended-by (the preemption goroutine writes them)
	now          time.Time
	ends         map[string]time.Time // pod key -> when it completes
	terminations map[string]time.Time // pod key -> when its graceful deletion is over

	arrivals []*replayPod // pending pods, in creation order
	created  int
	removed  []string // pod keys deleted from the API server
	mark     int      // pods bound or gone so far
	lastMark map[string]int
	popped   []string
	nominees []*v1.Pod // preemptors of the last cycle
	report   *replayReport
	rec      *tieRecorder
}

func runReplay(ctx context.Context, c *Cluster, plan *replayPlan, opts schedulerOptions) (*replayReport, error) {
	r := &replayRun{c: c, plan: plan, spy: plan.spy, logger: klogFrom(ctx), now: plan.start,
		popBQ: utilfeature.DefaultFeatureGate.Enabled(features.SchedulerPopFromBackoffQ),
		ends:  map[string]time.Time{}, terminations: map[string]time.Time{}, lastMark: map[string]int{},
		report: &replayReport{Mode: "replay", Kubernetes: kubernetesVersion, TieBreak: opts.tieBreak, Start: rfc3339(plan.start)}}
	r.hook(opts)
	if opts.tieBreak == "name" {
		usePreemptionByName(c.Sched)
	}
	for _, rp := range plan.pods {
		if rp.running {
			if rp.duration != nil {
				end := rp.start.Add(*rp.duration)
				if end.Before(plan.start) {
					end = plan.start
				}
				r.ends[rp.key] = end
			}
		} else {
			r.arrivals = append(r.arrivals, rp)
		}
	}
	// Arrivals at one instant enter the queue in the planner's order for equal queue
	// timestamps (its unit key: "Pod" before "PodGroup", then namespace, then name; a group's
	// members one after another).
	sort.SliceStable(r.arrivals, func(i, j int) bool {
		a, b := r.arrivals[i], r.arrivals[j]
		if !a.arrival.Equal(b.arrival) {
			return a.arrival.Before(b.arrival)
		}
		if a.entity != b.entity {
			return a.entity < b.entity // "pod/..." < "podgroup/..."
		}
		return a.key < b.key
	})
	began := time.Now()
	for r.report.Instants < maxInstants {
		t, ok := r.nextInstant()
		if !ok {
			break
		}
		r.report.Instants++
		r.advance(t)
		r.removeDue(t)
		r.settle()
		r.flushUnschedulable(t)
		r.flushBackoff(t)
		r.createDue(ctx, t)
		r.settle()
		r.drain(ctx, t)
		r.report.End = rfc3339(t)
	}
	if r.report.Instants >= maxInstants {
		return nil, fmt.Errorf("replay did not end within %d instants", maxInstants)
	}
	r.report.SchedulingSeconds = time.Since(began).Seconds()
	return r.report, r.collect()
}

// hook wraps the Scheduler's exported functions to see what each cycle did, and the pod
// deletions of preemption.
func (r *replayRun) hook(opts schedulerOptions) {
	c := r.c
	r.rec = &tieRecorder{ties: map[string][]string{}, moved: map[string]string{}}
	r.rec.wrap(c, schedulerOptions{tieBreak: opts.tieBreak, ties: opts.tieBreak == "name"})
	next := c.Sched.NextEntity
	c.Sched.NextEntity = func(logger klog.Logger) (framework.QueuedEntityInfo, error) {
		entity, err := next(logger)
		if entity != nil {
			if debug {
				fmt.Fprintf(os.Stderr, "%s pop %s\n", rfc3339(r.now), entityKey(entity))
			}
			r.popped = append(r.popped, entityKey(entity))
			entity.ForEachPodInfo(func(pi *framework.QueuedPodInfo) bool {
				if rp := r.plan.byKey[key(pi.Pod.Namespace, pi.Pod.Name)]; rp != nil {
					rp.attempts++
				}
				return true
			})
		}
		return entity, err
	}
	failed := c.Sched.FailureHandler
	c.Sched.FailureHandler = func(ctx context.Context, f framework.Framework, podInfo *framework.QueuedPodInfo, status *fwk.Status, nominating *fwk.NominatingInfo, start time.Time) {
		failed(ctx, f, podInfo, status, nominating, start)
		if nominating != nil && nominating.NominatedNodeName != "" {
			r.nominees = append(r.nominees, podInfo.Pod)
		}
	}
	if debug {
		c.Client.PrependReactor("patch", "pods", func(action clienttesting.Action) (bool, runtime.Object, error) {
			p := action.(clienttesting.PatchAction)
			fmt.Fprintf(os.Stderr, "%s patch pod %s/%s %s\n", rfc3339(r.now), p.GetNamespace(), p.GetName(), p.GetPatch())
			return false, nil, nil
		})
	}
	// The API server's graceful deletion: a bound pod with a grace period gets
	// deletionTimestamp and stays (its node's kubelet would stop it); it is removed when the
	// period is over. Only preemption deletes pods here; the replay removes ended pods itself.
	c.Client.PrependReactor("delete", "pods", func(action clienttesting.Action) (bool, runtime.Object, error) {
		del := action.(clienttesting.DeleteAction)
		k := key(del.GetNamespace(), del.GetName())
		obj, err := c.Tracker.Get(podsResource, del.GetNamespace(), del.GetName())
		if err != nil {
			return false, nil, nil
		}
		pod := obj.(*v1.Pod)
		r.mu.Lock()
		defer r.mu.Unlock()
		if pod.DeletionTimestamp != nil {
			return true, pod, nil
		}
		grace := 30 * time.Second
		if rp := r.plan.byKey[k]; rp != nil {
			grace = rp.grace
			if rp.endedBy == "" {
				rp.endedBy = "preempted"
			}
		}
		terminating := pod.DeepCopy()
		stamp := metav1.NewTime(c.Clock.Now())
		seconds := int64(grace / time.Second)
		terminating.DeletionTimestamp, terminating.DeletionGracePeriodSeconds = &stamp, &seconds
		if err := c.Tracker.Update(podsResource, terminating, terminating.Namespace); err != nil {
			return true, nil, err
		}
		r.terminations[k] = r.now.Add(grace)
		return true, terminating, nil
	})
}

func entityKey(e framework.QueuedEntityInfo) string {
	if e.Type() == fwk.PodKeyType {
		return "pod/" + key(e.GetNamespace(), e.GetName())
	}
	return string(e.Type()) + "/" + key(e.GetNamespace(), e.GetName())
}

func (r *replayRun) advance(t time.Time) {
	r.mu.Lock()
	r.now = t
	r.mu.Unlock()
	if t.After(r.c.Clock.Now()) {
		r.c.Clock.SetTime(t)
	}
}

// nextInstant: the earliest arrival, end, termination or queue timer; false when the replay
// is over (see the file's comment).
func (r *replayRun) nextInstant() (time.Time, bool) {
	var next time.Time
	consider := func(t time.Time) {
		if next.IsZero() || t.Before(next) {
			next = t
		}
	}
	if r.created < len(r.arrivals) {
		consider(maxTime(r.arrivals[r.created].arrival, r.plan.start))
	}
	r.mu.Lock()
	for _, t := range r.ends {
		consider(t)
	}
	for _, t := range r.terminations {
		consider(t)
	}
	r.mu.Unlock()
	realLeft := !next.IsZero()
	for _, w := range r.waiting() {
		// A timer due by now has fired at this instant already (and left the entity where it is,
		// e.g. gated again); its next run is computed afresh once the entity moves.
		if (realLeft || w.changed) && w.due.After(r.now) {
			consider(w.due)
		}
	}
	if next.IsZero() {
		return next, false
	}
	return maxTime(next, r.now), true
}

// waitingEntity: an entity in the backoff queue or the unschedulable pool, and when a timer
// next moves it.
type waitingEntity struct {
	key     string
	info    framework.QueuedEntityInfo
	pods    map[string]*v1.Pod
	backoff bool
	due     time.Time
	changed bool // a pod was bound or gone since its last attempt
}

func (r *replayRun) waiting() []*waitingEntity {
	queue := r.c.Sched.SchedulingQueue
	byKey := map[string]*waitingEntity{}
	var out []*waitingEntity
	add := func(p *v1.Pod, backoff bool) {
		k := entityOfPod(p)
		if w := byKey[k]; w != nil {
			w.pods[key(p.Namespace, p.Name)] = p
			return
		}
		info := r.entityInfo(p)
		if info == nil {
			return
		}
		last, seen := r.lastMark[k]
		w := &waitingEntity{key: k, info: info, pods: map[string]*v1.Pod{key(p.Namespace, p.Name): p}, backoff: backoff,
			changed: !seen || last != r.mark}
		if backoff {
			// flushBackoffQCompleted's first whole-second tick after the expiry
			w.due = info.GetBackoffExpiration().Truncate(time.Second).Add(time.Second)
		} else {
			stamp := info.GetTimestamp()
			if f := info.GetFlushTimestamp(); f.After(stamp) {
				stamp = f
			}
			ticks := stamp.Add(maxInUnschedulable).Sub(r.plan.start) / flushPeriod
			w.due = r.plan.start.Add((ticks + 1) * flushPeriod)
		}
		byKey[k] = w
		out = append(out, w)
	}
	for _, p := range queue.PodsInBackoffQ() {
		add(p, true)
	}
	for _, p := range queue.UnschedulablePods() {
		add(p, false)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out
}

// entityInfo: the queue's record of the entity a pod is scheduled in (its timestamp, backoff,
// priority).
func (r *replayRun) entityInfo(p *v1.Pod) framework.QueuedEntityInfo {
	queue := r.c.Sched.SchedulingQueue
	if r.spy.genericWorkload && p.Spec.SchedulingGroup != nil && p.Spec.SchedulingGroup.PodGroupName != nil {
		if info, ok := queue.GetPodGroup(*p.Spec.SchedulingGroup.PodGroupName, p.Namespace, fwk.PodGroupKeyType); ok {
			return info
		}
		return nil
	}
	if info, ok := queue.GetPod(p.Name, p.Namespace, nil); ok {
		return info
	}
	return nil
}

// removeDue deletes the pods that complete or finish terminating at t.
func (r *replayRun) removeDue(t time.Time) {
	r.mu.Lock()
	var due []string
	for k, when := range r.ends {
		if !when.After(t) {
			due = append(due, k)
		}
	}
	for k, when := range r.terminations {
		if !when.After(t) {
			due = append(due, k)
		}
	}
	r.mu.Unlock()
	sort.Strings(due)
	for i, k := range due {
		if i > 0 && due[i-1] == k {
			continue
		}
		r.mu.Lock()
		delete(r.ends, k)
		delete(r.terminations, k)
		rp := r.plan.byKey[k]
		if rp.endedBy == "" {
			rp.endedBy = "completed"
		}
		r.mu.Unlock()
		end := t
		rp.end = &end
		ns, name := splitKey(k)
		if err := r.c.Tracker.Delete(podsResource, ns, name); err == nil {
			r.removed = append(r.removed, k)
			r.mark++
		}
	}
}

// flushUnschedulable: flushUnschedulableEntitiesLeftover's tick (every 30 s from the start).
func (r *replayRun) flushUnschedulable(t time.Time) {
	if t.Sub(r.plan.start)%flushPeriod != 0 {
		return
	}
	due := map[string]bool{}
	for _, w := range r.waiting() {
		if w.backoff {
			continue
		}
		stamp := w.info.GetTimestamp()
		if f := w.info.GetFlushTimestamp(); f.After(stamp) {
			stamp = f
		}
		if t.Sub(stamp) > maxInUnschedulable {
			// as flushUnschedulableEntitiesLeftover marks what it moves
			w.info.SetWasFlushedFromUnschedulable(true)
			w.info.SetFlushTimestamp(t)
			r.lastMark[w.key] = r.mark // a retry, whatever it answers (a gated entity stays)
			for k := range w.pods {
				due[k] = true
			}
		}
	}
	if len(due) > 0 {
		r.c.Sched.SchedulingQueue.MoveAllToActiveOrBackoffQueue(r.logger, framework.EventUnschedulableTimeout, nil, nil,
			func(pod *v1.Pod) bool { return due[key(pod.Namespace, pod.Name)] })
	}
}

// flushBackoff: flushBackoffQCompleted's tick (every whole second): what completed its backoff
// moves to the active queue.
func (r *replayRun) flushBackoff(t time.Time) {
	if t.Truncate(time.Second) != t {
		return
	}
	due := map[string]*v1.Pod{}
	for _, w := range r.waiting() {
		if w.backoff && w.info.GetBackoffExpiration().Before(t) {
			for k, p := range w.pods {
				due[k] = p
			}
		}
	}
	if len(due) > 0 {
		r.c.Sched.SchedulingQueue.Activate(r.logger, due)
	}
}

// createDue creates the pods that arrive by t, one by one, 1 ms apart, each seen by the queue
// before the next.
func (r *replayRun) createDue(ctx context.Context, t time.Time) {
	for r.created < len(r.arrivals) && !r.arrivals[r.created].arrival.After(t) {
		rp := r.arrivals[r.created]
		r.created++
		if _, err := r.c.Client.CoreV1().Pods(rp.pod.Namespace).Create(ctx, rp.pod.DeepCopy(), metav1.CreateOptions{}); err != nil {
			fmt.Fprintf(os.Stderr, "oracle: creating pod %s: %v\n", rp.key, err)
			continue
		}
		rp.created = true
		if obj, err := r.c.Tracker.Get(podsResource, rp.pod.Namespace, rp.pod.Name); err == nil {
			rv := obj.(*v1.Pod).ResourceVersion
			waitFor(settleLimit, func() bool { return r.spy.caughtUp("pod/"+rp.key, rv) })
		}
		r.c.Clock.Step(time.Millisecond)
	}
}

// drain runs cycles until nothing is left to do at this instant.
func (r *replayRun) drain(ctx context.Context, t time.Time) {
	queue := r.c.Sched.SchedulingQueue
	for {
		if len(queue.PodsInActiveQ()) == 0 && !(r.popBQ && r.activateChangedBackoff()) {
			return
		}
		r.popped, r.nominees = nil, nil
		r.report.Cycles++
		if debug {
			for _, n := range r.c.Input.Nodes {
				for _, pi := range queue.NominatedPodsForNode(n.Name) {
					fmt.Fprintf(os.Stderr, "%s nominated %s on %s\n", rfc3339(t), pi.GetPod().Name, n.Name)
				}
			}
		}
		r.plan.gate.set(true)
		r.c.Sched.ScheduleOne(ctx)
		r.plan.gate.set(false)
		r.afterCycle(ctx, t)
		r.c.Clock.Step(time.Millisecond)
	}
}

// activateChangedBackoff: SchedulerPopFromBackoffQ's pop of an idle scheduler, limited to the
// entities that saw a binding or a pod go since their last attempt (the file's comment): the
// first of them in the backoff queue's order is moved to the active queue.
func (r *replayRun) activateChangedBackoff() bool {
	var best *waitingEntity
	for _, w := range r.waiting() {
		if !w.backoff || !w.changed {
			continue
		}
		if best == nil || backoffBefore(w, best) {
			best = w
		}
	}
	if best == nil {
		return false
	}
	r.c.Sched.SchedulingQueue.Activate(r.logger, best.pods)
	r.settle()
	return len(r.c.Sched.SchedulingQueue.PodsInActiveQ()) > 0
}

// backoffBefore is the backoff queue's order with SchedulerPopFromBackoffQ
// (lessBackoffCompletedWithPriority: expiry, then PrioritySort), the entity key last.
func backoffBefore(a, b *waitingEntity) bool {
	ea, eb := a.info.GetBackoffExpiration(), b.info.GetBackoffExpiration()
	if !ea.Equal(eb) {
		return ea.Before(eb)
	}
	if pa, pb := a.info.GetPriority(), b.info.GetPriority(); pa != pb {
		return pa > pb
	}
	if ta, tb := a.info.GetTimestamp(), b.info.GetTimestamp(); !ta.Equal(tb) {
		return ta.Before(tb)
	}
	return a.key < b.key
}

// afterCycle waits for what the cycle started (bindings, an asynchronous preemption) and
// records the pods it bound.
func (r *replayRun) afterCycle(ctx context.Context, t time.Time) {
	for _, pod := range r.nominees {
		r.waitForPreemption(ctx, pod)
	}
	r.settle()
	started := false
	defer func() {
		if started {
			r.settle()
		}
	}()
	for _, rp := range r.plan.pods {
		if !rp.created || rp.start != nil {
			continue
		}
		obj, err := r.c.Tracker.Get(podsResource, rp.pod.Namespace, rp.pod.Name)
		if err != nil || obj.(*v1.Pod).Spec.NodeName == "" {
			continue
		}
		start := t
		rp.start, rp.node = &start, obj.(*v1.Pod).Spec.NodeName
		r.mark++
		// The kubelet's part: the pod runs from now (status.startTime, phase Running).
		// Preemption orders equal-priority victims by the start time (MoreImportantPod); without
		// one it takes the wall clock's "now" for each pod it compares.
		running := obj.(*v1.Pod).DeepCopy()
		stamp := metav1.NewTime(t)
		running.Status.StartTime, running.Status.Phase = &stamp, v1.PodRunning
		if err := r.c.Tracker.Update(podsResource, running, running.Namespace); err != nil {
			fmt.Fprintf(os.Stderr, "oracle: starting pod %s: %v\n", rp.key, err)
		}
		started = true
		if rp.duration != nil {
			r.mu.Lock()
			r.ends[rp.key] = t.Add(*rp.duration)
			r.mu.Unlock()
		}
	}
	for _, e := range r.popped {
		r.lastMark[e] = r.mark
	}
}

// waitForPreemption: DefaultPreemption's asynchronous victim deletion for this preemptor is
// over once its PreEnqueue lets the pod through again (IsPodRunningPreemption).
func (r *replayRun) waitForPreemption(ctx context.Context, pod *v1.Pod) {
	f, ok := r.c.Sched.Profiles[pod.Spec.SchedulerName]
	if !ok {
		return
	}
	for _, pl := range f.PreEnqueuePlugins() {
		if pl.Name() != "DefaultPreemption" {
			continue
		}
		waitFor(settleLimit, func() bool { return pl.PreEnqueue(ctx, pod).IsSuccess() })
	}
}

// settle waits until kube-scheduler has taken in everything the fake API server holds: no
// binding in flight (no assumed pod), and the informers' handlers done with the latest version
// of every pod and PodGroup and with every deletion.
func (r *replayRun) settle() {
	c := r.c
	ok := waitFor(settleLimit, func() bool {
		if len(c.Sched.Cache.Dump().AssumedPods) > 0 {
			return false
		}
		objs, err := c.Tracker.List(podsResource, v1.SchemeGroupVersion.WithKind("Pod"), "")
		if err != nil {
			return false
		}
		for _, o := range objs.(*v1.PodList).Items {
			if !r.spy.caughtUp("pod/"+key(o.Namespace, o.Name), o.ResourceVersion) {
				return false
			}
		}
		for _, k := range r.removed {
			if !r.spy.deleted(k) {
				return false
			}
		}
		if r.spy.genericWorkload {
			groups, err := c.Client.SchedulingV1beta1().PodGroups("").List(context.Background(), metav1.ListOptions{})
			if err != nil {
				return false
			}
			for _, g := range groups.Items {
				if !r.spy.caughtUp("podgroup/"+key(g.Namespace, g.Name), g.ResourceVersion) {
					return false
				}
			}
		}
		return true
	})
	if !ok {
		r.report.Unsettled++
	}
}

func (r *replayRun) collect() error {
	r.report.Pods = []replayPodJSON{}
	for _, rp := range r.plan.pods {
		out := replayPodJSON{Namespace: rp.pod.Namespace, Name: rp.pod.Name, Arrival: rfc3339(rp.arrival), Attempts: rp.attempts}
		if g := rp.pod.Spec.SchedulingGroup; g != nil && g.PodGroupName != nil {
			name := *g.PodGroupName
			out.PodGroup = &name
		}
		if rp.start != nil {
			s, n := rfc3339(*rp.start), rp.node
			out.Start, out.Node = &s, &n
			if !rp.running {
				out.Ties = r.rec.ties[rp.key]
			}
		}
		if rp.end != nil {
			e, by := rfc3339(*rp.end), rp.endedBy
			out.End, out.EndedBy = &e, &by
		}
		if obj, err := r.c.Tracker.Get(podsResource, rp.pod.Namespace, rp.pod.Name); err == nil {
			for _, cond := range obj.(*v1.Pod).Status.Conditions {
				if cond.Type == v1.PodScheduled {
					out.Condition = &conditionJSON{Type: string(cond.Type), Status: string(cond.Status), Reason: cond.Reason, Message: cond.Message}
				}
			}
		}
		r.report.Pods = append(r.report.Pods, out)
	}
	return nil
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
