package main

// Preemption's API calls in replay mode. DefaultPreemption deletes its victims from a goroutine
// (SchedulerAsyncPreemption) while the cycle that preempted goes on to put the preemptor back
// in the queue, whose PreEnqueue check (IsPodRunningPreemption / IsPodGroupRunningPreemption)
// holds the preemptor back while the deletions are under way. Against an API server the
// deletions take round trips and the requeue comes first; against the fake clientset they are
// all but instant, and which comes first would be a race. The Scheduler's client therefore
// holds pod deletions until the cycle that asked for them has returned: the requeue sees the
// preemption running, as it would on a cluster. Everything else passes straight through.

import (
	"context"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
)

// cycleGate is closed while a scheduling cycle runs.
type cycleGate struct {
	mu      sync.Mutex
	cond    *sync.Cond
	inCycle bool
}

func newCycleGate() *cycleGate {
	g := &cycleGate{}
	g.cond = sync.NewCond(&g.mu)
	return g
}

func (g *cycleGate) set(inCycle bool) {
	g.mu.Lock()
	g.inCycle = inCycle
	g.mu.Unlock()
	g.cond.Broadcast()
}

func (g *cycleGate) wait() {
	g.mu.Lock()
	for g.inCycle {
		g.cond.Wait()
	}
	g.mu.Unlock()
}

type gatedClient struct {
	kubernetes.Interface
	gate *cycleGate
}

func (c gatedClient) CoreV1() corev1client.CoreV1Interface {
	return gatedCore{CoreV1Interface: c.Interface.CoreV1(), gate: c.gate}
}

type gatedCore struct {
	corev1client.CoreV1Interface
	gate *cycleGate
}

func (c gatedCore) Pods(namespace string) corev1client.PodInterface {
	return gatedPods{PodInterface: c.CoreV1Interface.Pods(namespace), gate: c.gate}
}

type gatedPods struct {
	corev1client.PodInterface
	gate *cycleGate
}

func (p gatedPods) Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error {
	p.gate.wait()
	return p.PodInterface.Delete(ctx, name, opts)
}
