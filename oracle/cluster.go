package main

// The real kube-scheduler (scheduler.New, the in-tree registry, the configured profiles) over a
// fake clientset holding the input's objects. Informers fill the scheduler's cache and queue
// exactly as against an API server; bindings and evictions go back into the fake clientset.

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	clientscheme "k8s.io/client-go/kubernetes/scheme"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/events"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	internalcache "k8s.io/kubernetes/pkg/scheduler/backend/cache"
	internalqueue "k8s.io/kubernetes/pkg/scheduler/backend/queue"
	"k8s.io/kubernetes/pkg/scheduler/profile"
	testingclock "k8s.io/utils/clock/testing"
)

// Cluster is one scheduler instance over one fake API server.
type Cluster struct {
	Client    *fake.Clientset
	Tracker   clienttesting.ObjectTracker
	Informers informers.SharedInformerFactory
	Sched     *scheduler.Scheduler
	Snapshot  *internalcache.Snapshot
	Clock     *testingclock.FakeClock
	Input     *Input
	Config    *config.KubeSchedulerConfiguration
}

var podsResource = v1.SchemeGroupVersion.WithResource("pods")

// versionedTracker is client-go's fake object tracker with one API-server behaviour added:
// every write gives the object a new metadata.resourceVersion. kube-scheduler's event handlers
// ignore an update whose resourceVersion did not change (a resync), so without it a PodGroup's
// new condition would never reach the scheduler's cache.
type versionedTracker struct {
	clienttesting.ObjectTracker
	mu      sync.Mutex
	version int64
}

func (t *versionedTracker) bump(obj runtime.Object) {
	if acc, err := meta.Accessor(obj); err == nil {
		t.mu.Lock()
		t.version++
		acc.SetResourceVersion(strconv.FormatInt(t.version, 10))
		t.mu.Unlock()
	}
}

func (t *versionedTracker) Add(obj runtime.Object) error {
	t.bump(obj)
	return t.ObjectTracker.Add(obj)
}

func (t *versionedTracker) Create(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.CreateOptions) error {
	t.bump(obj)
	return t.ObjectTracker.Create(gvr, obj, ns, opts...)
}

func (t *versionedTracker) Update(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.UpdateOptions) error {
	t.bump(obj)
	return t.ObjectTracker.Update(gvr, obj, ns, opts...)
}

func (t *versionedTracker) Patch(gvr schema.GroupVersionResource, obj runtime.Object, ns string, opts ...metav1.PatchOptions) error {
	t.bump(obj)
	return t.ObjectTracker.Patch(gvr, obj, ns, opts...)
}

// clusterOptions: what differs between the modes' clusters.
type clusterOptions struct {
	withPending    bool // false: the pending pods are left out (scheduler and replay modes create them)
	sortPlacements bool // --tie-break=name: TopologyPlacement's candidates sorted by name
	// start: the fake clock's time at start-up (zero: a fixed time, 2027-01-15T08:00:00Z)
	start time.Time
	// wrapQueue, when set, replaces the Scheduler's SchedulingQueue before the informers start
	// (the event handlers read the field on every event; replay mode watches them through it).
	wrapQueue func(internalqueue.SchedulingQueue) internalqueue.SchedulingQueue
	// wrapClient, when set, is the client the Scheduler is given (the informers keep the fake one)
	wrapClient func(kubernetes.Interface) kubernetes.Interface
}

// newCluster starts the scheduler over a fake API server holding the input.
func newCluster(ctx context.Context, in *Input, cfg *config.KubeSchedulerConfiguration, copts clusterOptions) (*Cluster, error) {
	withPending, sortPlacements := copts.withPending, copts.sortPlacements
	var objects []runtime.Object
	for _, o := range in.objects() {
		if pod, ok := o.(*v1.Pod); ok && pod.Spec.NodeName == "" && !withPending {
			continue
		}
		objects = append(objects, o)
	}
	tracker := &versionedTracker{ObjectTracker: clienttesting.NewObjectTracker(clientscheme.Scheme, clientscheme.Codecs.UniversalDecoder())}
	for _, o := range objects {
		if err := tracker.Add(o); err != nil {
			return nil, err
		}
	}
	client := &fake.Clientset{}
	client.AddReactor("*", "*", clienttesting.ObjectReaction(tracker))
	client.AddWatchReactor("*", func(action clienttesting.Action) (bool, watch.Interface, error) {
		var opts metav1.ListOptions
		if w, ok := action.(clienttesting.WatchActionImpl); ok {
			opts = w.ListOptions
		}
		w, err := tracker.Watch(action.GetResource(), action.GetNamespace(), opts)
		return err == nil, w, err
	})
	// The fake object tracker does not know the binding subresource: a Binding sets the pod's
	// nodeName, as the API server's binding storage does.
	client.PrependReactor("create", "pods", func(action clienttesting.Action) (bool, runtime.Object, error) {
		create, ok := action.(clienttesting.CreateAction)
		if !ok || action.GetSubresource() != "binding" {
			return false, nil, nil
		}
		binding := create.GetObject().(*v1.Binding)
		obj, err := tracker.Get(podsResource, binding.Namespace, binding.Name)
		if err != nil {
			return true, nil, err
		}
		pod := obj.(*v1.Pod).DeepCopy()
		if pod.Spec.NodeName != "" {
			return true, nil, apierrors.NewConflict(podsResource.GroupResource(), pod.Name, fmt.Errorf("pod %s is already assigned to node %q", pod.Name, pod.Spec.NodeName))
		}
		pod.Spec.NodeName = binding.Target.Name
		return true, binding, tracker.Update(podsResource, pod, pod.Namespace)
	})

	factory := scheduler.NewInformerFactory(client, 0, nil)
	snapshot := internalcache.NewEmptySnapshot()
	startTime := copts.start
	if startTime.IsZero() {
		startTime = time.Unix(1_800_000_000, 0)
	}
	clock := testingclock.NewFakeClock(startTime)
	recorders := profile.RecorderFactory(func(string) events.EventRecorderLogger { return &events.FakeRecorder{} })
	opts := []scheduler.Option{
		scheduler.WithProfiles(cfg.Profiles...),
		scheduler.WithPercentageOfNodesToScore(cfg.PercentageOfNodesToScore),
		scheduler.WithParallelism(cfg.Parallelism),
		scheduler.WithPodInitialBackoffSeconds(cfg.PodInitialBackoffSeconds),
		scheduler.WithPodMaxBackoffSeconds(cfg.PodMaxBackoffSeconds),
		scheduler.WithNodeInfoSnapshot(snapshot),
		scheduler.WithClock(clock),
	}
	if sortPlacements {
		useSortedPlacement(cfg.Profiles)
		opts = append(opts, scheduler.WithFrameworkOutOfTreeRegistry(sortedPlacementRegistry()))
	}
	var schedClient kubernetes.Interface = client
	if copts.wrapClient != nil {
		schedClient = copts.wrapClient(client)
	}
	sched, err := scheduler.New(ctx, schedClient, factory, nil, recorders, opts...)
	if err != nil {
		return nil, fmt.Errorf("scheduler.New: %w", err)
	}
	if copts.wrapQueue != nil {
		sched.SchedulingQueue = copts.wrapQueue(sched.SchedulingQueue)
	}
	factory.Start(ctx.Done())
	for typ, ok := range factory.WaitForCacheSync(ctx.Done()) {
		if !ok {
			return nil, fmt.Errorf("informer for %v did not sync", typ)
		}
	}
	if err := sched.WaitForHandlersSync(ctx); err != nil {
		return nil, err
	}
	c := &Cluster{Client: client, Tracker: tracker, Informers: factory, Sched: sched, Snapshot: snapshot, Clock: clock, Input: in, Config: cfg}
	if err := c.waitForCache(ctx); err != nil {
		return nil, err
	}
	return c, nil
}

// waitForCache waits until the scheduler's cache holds every node and every bound pod of the
// fake API server (the informers deliver them asynchronously).
func (c *Cluster) waitForCache(ctx context.Context) error {
	var last string
	err := wait.PollUntilContextTimeout(ctx, 5*time.Millisecond, 10*time.Second, true, func(ctx context.Context) (bool, error) {
		nodes, err := c.Informers.Core().V1().Nodes().Lister().List(everything)
		if err != nil {
			return false, err
		}
		pods, err := c.Informers.Core().V1().Pods().Lister().List(everything)
		if err != nil {
			return false, err
		}
		bound := 0
		for _, p := range pods {
			if p.Spec.NodeName != "" {
				bound++
			}
		}
		dump := c.Sched.Cache.Dump()
		cached := 0
		for _, ni := range dump.Nodes {
			cached += len(ni.GetPods())
		}
		last = fmt.Sprintf("nodes %d/%d, bound pods %d/%d, assumed %d", len(dump.Nodes), len(nodes), cached, bound, len(dump.AssumedPods))
		return len(dump.Nodes) >= len(nodes) && cached >= bound && len(dump.AssumedPods) == 0, nil
	})
	if err != nil {
		return fmt.Errorf("waiting for the scheduler's cache (%s): %w", last, err)
	}
	return nil
}

// refreshSnapshot copies the scheduler's cache into the snapshot the framework reads.
func (c *Cluster) refreshSnapshot(ctx context.Context) error {
	return c.Sched.Cache.UpdateSnapshot(klogFrom(ctx), c.Snapshot)
}
