package main

// Replay mode watches the scheduling queue through the Scheduler's own field: kube-scheduler's
// informer event handlers call sched.SchedulingQueue on every event (eventhandlers.go), and the
// queue's last call for an event tells that the handler is done with it. The replay needs that
// to know when an instant is over: a pod that ended has moved what waited for it (its
// AssignedPod/Delete event's queueing hints), an arrival is in the active queue, a binding has
// moved what its AssignedPod/Add event moves. Nothing is changed: every call is passed on.

import (
	"context"
	"strconv"
	"sync"

	v1 "k8s.io/api/core/v1"
	schedulingv1beta1 "k8s.io/api/scheduling/v1beta1"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/features"
	internalqueue "k8s.io/kubernetes/pkg/scheduler/backend/queue"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

type queueSpy struct {
	internalqueue.SchedulingQueue
	mu sync.Mutex
	// seen: pod or PodGroup key -> the highest resourceVersion whose event the handler finished
	seen map[string]int64
	// gone: pod key -> its deletion's handler finished
	gone map[string]bool
	// nominationMoves: pod key -> resourceVersion of an update whose handler still owes the
	// MoveAll of a changed nomination (updatePodInSchedulingQueue)
	nominationMoves map[string]int64
	genericWorkload bool
}

func newQueueSpy(q internalqueue.SchedulingQueue) *queueSpy {
	return &queueSpy{SchedulingQueue: q, seen: map[string]int64{}, gone: map[string]bool{},
		nominationMoves: map[string]int64{}, genericWorkload: utilfeature.DefaultFeatureGate.Enabled(features.GenericWorkload)}
}

func resourceVersion(rv string) int64 {
	n, _ := strconv.ParseInt(rv, 10, 64)
	return n
}

func (s *queueSpy) note(k string, rv string) {
	s.mu.Lock()
	if v := resourceVersion(rv); v > s.seen[k] {
		s.seen[k] = v
	}
	s.mu.Unlock()
}

// Add: an unscheduled pod's creation (addPodToSchedulingQueue). With GenericWorkload the
// handler goes on with a MoveAll(UnscheduledPodAdd), which is then its last call.
func (s *queueSpy) Add(ctx context.Context, pod *v1.Pod) {
	s.SchedulingQueue.Add(ctx, pod)
	if !s.genericWorkload {
		s.note("pod/"+key(pod.Namespace, pod.Name), pod.ResourceVersion)
	}
}

// Update: an unscheduled pod's update (updatePodInSchedulingQueue); a changed nomination is
// followed by a MoveAll(AssignedPodDelete) for the old one.
func (s *queueSpy) Update(ctx context.Context, oldPod, newPod *v1.Pod) {
	s.SchedulingQueue.Update(ctx, oldPod, newPod)
	k := "pod/" + key(newPod.Namespace, newPod.Name)
	if oldPod.Status.NominatedNodeName != "" && oldPod.Status.NominatedNodeName != newPod.Status.NominatedNodeName {
		s.mu.Lock()
		s.nominationMoves[k] = resourceVersion(newPod.ResourceVersion)
		s.mu.Unlock()
		return
	}
	s.note(k, newPod.ResourceVersion)
}

func (s *queueSpy) MoveAllToActiveOrBackoffQueue(logger klog.Logger, event fwk.ClusterEvent, oldObj, newObj interface{}, preCheck internalqueue.PreEnqueueCheck) {
	s.SchedulingQueue.MoveAllToActiveOrBackoffQueue(logger, event, oldObj, newObj, preCheck)
	switch o := newObj.(type) {
	case *v1.Pod:
		s.note("pod/"+key(o.Namespace, o.Name), o.ResourceVersion)
		return
	case *schedulingv1beta1.PodGroup:
		s.note("podgroup/"+key(o.Namespace, o.Name), o.ResourceVersion)
		return
	}
	if pod, ok := oldObj.(*v1.Pod); ok && newObj == nil && event.Label() == framework.EventAssignedPodDelete.Label() {
		k := "pod/" + key(pod.Namespace, pod.Name)
		s.mu.Lock()
		if rv, pending := s.nominationMoves[k]; pending {
			delete(s.nominationMoves, k)
			if rv > s.seen[k] {
				s.seen[k] = rv
			}
		} else if pod.Spec.NodeName != "" {
			s.gone[k] = true
		}
		s.mu.Unlock()
	}
}

// caughtUp: the handlers have finished the event of this resourceVersion of the object.
func (s *queueSpy) caughtUp(k string, rv string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seen[k] >= resourceVersion(rv)
}

func (s *queueSpy) deleted(k string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gone["pod/"+k]
}
