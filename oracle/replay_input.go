package main

// Replay mode's input: the part of `podgroup-plan replay`'s model (docs/replay.md) that the
// oracle runs, read as the planner reads it (podgroup_plan/loading/timing.py for the
// annotations, podgroup_plan/analyses/replay/facts.py and run.py for what they mean):
//
//   - nodes, PriorityClasses, PodGroups (v1beta1 or v1alpha3), a KubeSchedulerConfiguration;
//   - bare pods (no controlling owner). A pod bound in the input (spec.nodeName) runs from the
//     start; a pending one arrives at its `podgroup-plan.io/arrival` annotation (RFC 3339),
//     else its metadata.creationTimestamp, else at the start;
//   - `podgroup-plan.io/duration` on a pod (a Go duration or a number of seconds): it ends that
//     long after it started (a running pod at its status.startTime plus the duration, at the
//     start if that is past); without one it runs for ever;
//   - terminationGracePeriodSeconds (the API's default 30 s): how long a preempted pod keeps
//     its resources.
//
// Controllers (Jobs, ReplicaSets, ...: the planner's next pods and replacements),
// CompositePodGroups, annotations on anything but pods and --default-duration are outside the
// subset: such input is refused rather than half-modelled.

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/kubernetes/pkg/features"
)

const (
	arrivalAnnotation  = "podgroup-plan.io/arrival"
	durationAnnotation = "podgroup-plan.io/duration"
)

// replayPod is one pod's life in the replay.
type replayPod struct {
	pod      *v1.Pod
	key      string
	entity   string // its queue entity: "pod/NS/NAME", or "podgroup/NS/GROUP" for a PodGroup's member
	arrival  time.Time
	duration *time.Duration // nil: runs for ever
	grace    time.Duration
	running  bool // bound in the input
	created  bool // pending: created in the fake API server
	start    *time.Time
	node     string
	end      *time.Time
	endedBy  string // "completed" or "preempted"
	attempts int    // scheduling cycles it was part of
}

// replayPlan is the input as the replay runs it.
type replayPlan struct {
	start time.Time
	pods  []*replayPod // by namespace/name
	byKey map[string]*replayPod
	spy   *queueSpy
	gate  *cycleGate // closed while a cycle runs (replay_client.go)
}

// controllerKinds are refused when found among the manifests (the oracle's scheme ignores
// them otherwise): the planner would create their pods.
var controllerKinds = map[string]bool{"Job": true, "CronJob": true, "Deployment": true, "DaemonSet": true,
	"ReplicaSet": true, "StatefulSet": true, "ReplicationController": true, "JobSet": true, "LeaderWorkerSet": true}

func planReplay(in *Input, startFlag string) (*replayPlan, error) {
	var refused []string
	for gvk := range in.Ignored {
		if controllerKinds[gvk[strings.LastIndex(gvk, "/")+1:]] {
			refused = append(refused, gvk)
		}
	}
	if len(in.ReplicaSets)+len(in.StatefulSets)+len(in.RCs) > 0 {
		refused = append(refused, "ReplicaSet/StatefulSet/ReplicationController")
	}
	if len(in.CompositePodGroups) > 0 {
		refused = append(refused, "CompositePodGroup")
	}
	if len(refused) > 0 {
		sort.Strings(refused)
		return nil, fmt.Errorf("replay mode runs bare pods and PodGroups only; the input has %s", strings.Join(refused, ", "))
	}
	plan := &replayPlan{byKey: map[string]*replayPod{}, gate: newCycleGate()}
	var problems []string
	for _, p := range in.Pods {
		k := key(p.Namespace, p.Name)
		for _, ref := range p.OwnerReferences {
			if ref.Controller != nil && *ref.Controller {
				problems = append(problems, fmt.Sprintf("pod %s: owned by %s %s (controllers are outside replay mode)", k, ref.Kind, ref.Name))
			}
		}
		rp := &replayPod{pod: p, key: k, entity: entityOfPod(p), running: p.Spec.NodeName != ""}
		if text, ok := p.Annotations[durationAnnotation]; ok {
			d, err := parseReplayDuration(text)
			if err != nil {
				problems = append(problems, fmt.Sprintf("pod %s: %s: %v", k, durationAnnotation, err))
			}
			rp.duration = &d
		}
		if text, ok := p.Annotations[arrivalAnnotation]; ok {
			t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(text))
			if err != nil {
				problems = append(problems, fmt.Sprintf("pod %s: %s: %v", k, arrivalAnnotation, err))
			}
			rp.arrival = t
		} else if !p.CreationTimestamp.IsZero() {
			rp.arrival = p.CreationTimestamp.Time
		}
		rp.grace = 30 * time.Second
		if g := p.Spec.TerminationGracePeriodSeconds; g != nil {
			rp.grace = time.Duration(*g) * time.Second
		}
		plan.pods = append(plan.pods, rp)
		plan.byKey[k] = rp
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(problems, "; "))
	}
	start, err := replayStart(plan.pods, startFlag)
	if err != nil {
		return nil, err
	}
	plan.start = start
	for _, rp := range plan.pods {
		if rp.arrival.IsZero() {
			rp.arrival = start
		}
		if rp.running {
			started := start
			if st := rp.pod.Status.StartTime; st != nil {
				started = st.Time
			}
			rp.start, rp.node = &started, rp.pod.Spec.NodeName
		}
	}
	return plan, nil
}

// replayStart: --start, else (run.py) the latest status.startTime of a running pod, else the
// earliest arrival of a pending pod that has one, else the epoch.
func replayStart(pods []*replayPod, flagValue string) (time.Time, error) {
	if flagValue != "" {
		t, err := time.Parse(time.RFC3339Nano, flagValue)
		if err != nil {
			return t, fmt.Errorf("--start: %w", err)
		}
		return t, nil
	}
	var latest, earliest time.Time
	for _, rp := range pods {
		if rp.running {
			if st := rp.pod.Status.StartTime; st != nil && st.Time.After(latest) {
				latest = st.Time
			}
		} else if !rp.arrival.IsZero() && (earliest.IsZero() || rp.arrival.Before(earliest)) {
			earliest = rp.arrival
		}
	}
	if !latest.IsZero() {
		return latest, nil
	}
	if !earliest.IsZero() {
		return earliest, nil
	}
	return time.Unix(0, 0), nil
}

var plainSeconds = regexp.MustCompile(`^\d+(\.\d+)?$`)

// parseReplayDuration reads a duration as model/timing.py's parse_duration does: a Go
// duration (`90s`, `1h30m`, `2.5h`) or a plain number of seconds, never negative.
func parseReplayDuration(text string) (time.Duration, error) {
	value := strings.TrimSpace(text)
	if strings.HasPrefix(value, "-") {
		return 0, fmt.Errorf("duration %q is negative", value)
	}
	if plainSeconds.MatchString(value) {
		seconds, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return 0, err
		}
		return time.Duration(math.Round(seconds * float64(time.Second))), nil
	}
	return time.ParseDuration(value)
}

// entityOfPod names the queue entity a pod is scheduled in (a PodGroup's member alone when
// GenericWorkload is off).
func entityOfPod(p *v1.Pod) string {
	if g := p.Spec.SchedulingGroup; g != nil && g.PodGroupName != nil && utilfeature.DefaultFeatureGate.Enabled(features.GenericWorkload) {
		return "podgroup/" + key(p.Namespace, *g.PodGroupName)
	}
	return "pod/" + key(p.Namespace, p.Name)
}

// rfc3339 writes a time as the planner's format_time does: UTC, milliseconds only when there
// are some.
func rfc3339(t time.Time) string {
	t = t.UTC().Round(time.Millisecond)
	if t.Nanosecond() == 0 {
		return t.Format("2006-01-02T15:04:05Z")
	}
	return t.Format("2006-01-02T15:04:05.000Z")
}
