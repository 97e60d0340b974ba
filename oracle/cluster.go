package main

// The real kube-scheduler (scheduler.New, the in-tree registry, the configured profiles) over a
// fake clientset holding the input's objects. Informers fill the scheduler's cache and queue
// exactly as against an API server; bindings and evictions go back into the fake clientset.

import (
	"context"
	"fmt"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/events"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	internalcache "k8s.io/kubernetes/pkg/scheduler/backend/cache"
	"k8s.io/kubernetes/pkg/scheduler/profile"
	testingclock "k8s.io/utils/clock/testing"
)

// Cluster is one scheduler instance over one fake API server.
type Cluster struct {
	Client    *fake.Clientset
	Informers informers.SharedInformerFactory
	Sched     *scheduler.Scheduler
	Snapshot  *internalcache.Snapshot
	Clock     *testingclock.FakeClock
	Input     *Input
	Config    *config.KubeSchedulerConfiguration
}

var podsResource = v1.SchemeGroupVersion.WithResource("pods")

// newCluster starts the scheduler over a fake API server holding the input; with
// withPending false the pending pods are left out (scheduler mode creates them itself, in
// queue order).
func newCluster(ctx context.Context, in *Input, cfg *config.KubeSchedulerConfiguration, withPending bool) (*Cluster, error) {
	var objects []runtime.Object
	for _, o := range in.objects() {
		if pod, ok := o.(*v1.Pod); ok && pod.Spec.NodeName == "" && !withPending {
			continue
		}
		objects = append(objects, o)
	}
	client := fake.NewSimpleClientset(objects...)
	// The fake object tracker does not know the binding subresource: a Binding sets the pod's
	// nodeName, as the API server's binding storage does.
	client.PrependReactor("create", "pods", func(action clienttesting.Action) (bool, runtime.Object, error) {
		create, ok := action.(clienttesting.CreateAction)
		if !ok || action.GetSubresource() != "binding" {
			return false, nil, nil
		}
		binding := create.GetObject().(*v1.Binding)
		obj, err := client.Tracker().Get(podsResource, binding.Namespace, binding.Name)
		if err != nil {
			return true, nil, err
		}
		pod := obj.(*v1.Pod).DeepCopy()
		if pod.Spec.NodeName != "" {
			return true, nil, apierrors.NewConflict(podsResource.GroupResource(), pod.Name, fmt.Errorf("pod %s is already assigned to node %q", pod.Name, pod.Spec.NodeName))
		}
		pod.Spec.NodeName = binding.Target.Name
		return true, binding, client.Tracker().Update(podsResource, pod, pod.Namespace)
	})

	factory := scheduler.NewInformerFactory(client, 0, nil)
	snapshot := internalcache.NewEmptySnapshot()
	clock := testingclock.NewFakeClock(time.Unix(1_800_000_000, 0))
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
	sched, err := scheduler.New(ctx, client, factory, nil, recorders, opts...)
	if err != nil {
		return nil, fmt.Errorf("scheduler.New: %w", err)
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
	c := &Cluster{Client: client, Informers: factory, Sched: sched, Snapshot: snapshot, Clock: clock, Input: in, Config: cfg}
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
