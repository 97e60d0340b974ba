package main

// Reading the planner's input: the same files, folders and standard input, the same YAML/JSON
// documents and `kind: List` dumps. Objects are decoded by Kubernetes' own scheme and given the
// API server's defaults (a pod without schedulerName gets `default-scheduler`, a port without
// protocol gets TCP, limits-only containers get requests), since the planner models a cluster
// whose objects went through the API server.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	schedulingv1alpha3 "k8s.io/api/scheduling/v1alpha3"
	schedulingv1beta1 "k8s.io/api/scheduling/v1beta1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	_ "k8s.io/kubernetes/pkg/apis/policy/install"
	"k8s.io/kubernetes/pkg/apis/scheduling"
	_ "k8s.io/kubernetes/pkg/apis/scheduling/install"
	"k8s.io/kubernetes/pkg/features"
)

// Input is everything the oracle read, in a fixed order (kind, namespace, name).
type Input struct {
	Nodes              []*v1.Node
	Pods               []*v1.Pod // every live pod (not Succeeded/Failed)
	PriorityClasses    []*schedulingv1.PriorityClass
	PDBs               []*policyv1.PodDisruptionBudget
	Namespaces         []*v1.Namespace
	Services           []*v1.Service
	ReplicaSets        []*appsv1.ReplicaSet
	StatefulSets       []*appsv1.StatefulSet
	RCs                []*v1.ReplicationController
	Workloads          []runtime.Object              // v1beta1 or v1alpha3 Workloads
	PodGroups          []*schedulingv1beta1.PodGroup // v1alpha3 ones converted, as the API server serves them
	CompositePodGroups []*schedulingv1alpha3.CompositePodGroup
	SchedulerConfig    []byte // a KubeSchedulerConfiguration found among the manifests
	Ignored            map[string]int
}

const schedulerConfigGroup = "kubescheduler.config.k8s.io"

func readInput(paths []string) (*Input, error) {
	in := &Input{Ignored: map[string]int{}}
	for _, p := range paths {
		files, err := expand(p)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			var data []byte
			if f == "-" {
				data, err = io.ReadAll(os.Stdin)
			} else {
				data, err = os.ReadFile(f)
			}
			if err != nil {
				return nil, err
			}
			if err := in.addFile(f, data); err != nil {
				return nil, err
			}
		}
	}
	in.sort()
	return in, nil
}

// expand lists a folder's .yaml/.yml/.json files recursively, in sorted order.
func expand(p string) ([]string, error) {
	if p == "-" {
		return []string{p}, nil
	}
	st, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return []string{p}, nil
	}
	var out []string
	err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		ext := strings.ToLower(filepath.Ext(path))
		if !d.IsDir() && (ext == ".yaml" || ext == ".yml" || ext == ".json") {
			out = append(out, path)
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

func (in *Input) addFile(name string, data []byte) error {
	dec := utilyaml.NewYAMLOrJSONDecoder(bufio.NewReader(bytes.NewReader(data)), 4096)
	for i := 0; ; i++ {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			if err == io.EOF {
				return nil
			}
			return fmt.Errorf("%s: document %d: %w", name, i+1, err)
		}
		if len(bytes.TrimSpace(raw)) == 0 || string(raw) == "null" {
			continue
		}
		if err := in.addDocument(name, raw); err != nil {
			return err
		}
	}
}

func (in *Input) addDocument(name string, raw []byte) error {
	var head struct {
		APIVersion string            `json:"apiVersion"`
		Kind       string            `json:"kind"`
		Items      []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if strings.HasSuffix(head.Kind, "List") && head.Items != nil {
		for _, item := range head.Items {
			if err := in.addDocument(name, item); err != nil {
				return err
			}
		}
		return nil
	}
	gv, _ := schema.ParseGroupVersion(head.APIVersion)
	if gv.Group == schedulerConfigGroup {
		in.SchedulerConfig = append([]byte(nil), raw...)
		return nil
	}
	obj, _, err := legacyscheme.Codecs.UniversalDeserializer().Decode(raw, nil, nil)
	if err != nil {
		if runtime.IsNotRegisteredError(err) {
			in.Ignored[head.APIVersion+"/"+head.Kind]++
			return nil
		}
		return fmt.Errorf("%s: %s %s: %w", name, head.APIVersion, head.Kind, err)
	}
	// The API server's defaulting (registered by the install packages above).
	legacyscheme.Scheme.Default(obj)
	// A namespaced object without a namespace lands in "default", as `kubectl apply` puts it
	// (and as the planner reads it).
	if acc, err := meta.Accessor(obj); err == nil && acc.GetNamespace() == "" && !clusterScoped[head.Kind] {
		acc.SetNamespace(metav1.NamespaceDefault)
	}
	switch o := obj.(type) {
	case *v1.Node:
		in.Nodes = append(in.Nodes, o)
	case *v1.Pod:
		if o.Status.Phase != v1.PodSucceeded && o.Status.Phase != v1.PodFailed {
			in.Pods = append(in.Pods, o)
		}
	case *schedulingv1.PriorityClass:
		in.PriorityClasses = append(in.PriorityClasses, o)
	case *policyv1.PodDisruptionBudget:
		in.PDBs = append(in.PDBs, o)
	case *v1.Namespace:
		in.Namespaces = append(in.Namespaces, o)
	case *v1.Service:
		in.Services = append(in.Services, o)
	case *appsv1.ReplicaSet:
		in.ReplicaSets = append(in.ReplicaSets, o)
	case *appsv1.StatefulSet:
		in.StatefulSets = append(in.StatefulSets, o)
	case *v1.ReplicationController:
		in.RCs = append(in.RCs, o)
	case *schedulingv1beta1.Workload, *schedulingv1alpha3.Workload:
		in.Workloads = append(in.Workloads, o)
	case *schedulingv1beta1.PodGroup:
		in.PodGroups = append(in.PodGroups, o)
	case *schedulingv1alpha3.PodGroup:
		// kube-scheduler watches v1beta1 PodGroups; the API server would serve this one so,
		// converting through the internal version (the scheme has no direct
		// v1alpha3 -> v1beta1 conversion, only each version to and from the internal one).
		var internal scheduling.PodGroup
		beta := &schedulingv1beta1.PodGroup{}
		if err := legacyscheme.Scheme.Convert(o, &internal, nil); err != nil {
			return fmt.Errorf("%s: PodGroup %s/%s: %w", name, o.Namespace, o.Name, err)
		}
		if err := legacyscheme.Scheme.Convert(&internal, beta, nil); err != nil {
			return fmt.Errorf("%s: PodGroup %s/%s: %w", name, o.Namespace, o.Name, err)
		}
		beta.APIVersion, beta.Kind = schedulingv1beta1.SchemeGroupVersion.String(), "PodGroup"
		in.PodGroups = append(in.PodGroups, beta)
	case *schedulingv1alpha3.CompositePodGroup:
		in.CompositePodGroups = append(in.CompositePodGroups, o)
	default:
		in.Ignored[head.APIVersion+"/"+head.Kind]++
	}
	return nil
}

func key(ns, name string) string { return ns + "/" + name }

// clusterScoped: the kinds read here that live outside namespaces.
var clusterScoped = map[string]bool{"Node": true, "Namespace": true, "PriorityClass": true}

func (in *Input) sort() {
	sort.Slice(in.Nodes, func(i, j int) bool { return in.Nodes[i].Name < in.Nodes[j].Name })
	sort.Slice(in.Pods, func(i, j int) bool {
		return key(in.Pods[i].Namespace, in.Pods[i].Name) < key(in.Pods[j].Namespace, in.Pods[j].Name)
	})
}

// admit gives pods what the API server's admission would: the Priority admission plugin
// resolves spec.priority (and preemptionPolicy) from the PriorityClass (or the global
// default); a namespace every namespaced object lives in exists. The oracle runs no
// admission chain, so this is done here, in the plugin's documented terms.
func (in *Input) admit() error {
	// The API server gives every object a UID; the scheduler's cache keys pods by it.
	for _, o := range in.objects() {
		if acc, err := meta.Accessor(o); err == nil && acc.GetUID() == "" {
			acc.SetUID(types.UID(fmt.Sprintf("%T/%s/%s", o, acc.GetNamespace(), acc.GetName())))
		}
	}
	// The API server's pod strategy on create (pkg/registry/core/pod, PrepareForCreate ->
	// mutatePodAffinity, with MatchLabelKeysInPodAffinity on): each pod (anti-)affinity term's
	// matchLabelKeys / mismatchLabelKeys become `key In (value)` / `key NotIn (value)`
	// requirements of its labelSelector, for keys the pod has; kube-scheduler reads the merged
	// selector only. Done here in those terms (the registry package would pull the API server's
	// storage stack into this module).
	if utilfeature.DefaultFeatureGate.Enabled(features.MatchLabelKeysInPodAffinity) {
		for _, pod := range in.Pods {
			mergeAffinityLabelKeys(pod)
		}
	}
	// The same strategy's mutateTopologySpreadConstraints (MatchLabelKeysInPodTopologySpread
	// and MatchLabelKeysInPodTopologySpreadSelectorMerge, both beta and on in v1.37): a spread
	// constraint's matchLabelKeys become `key In (value)` requirements of its labelSelector.
	// kube-scheduler v1.37 still merges them itself too (podtopologyspread, under the first
	// gate), ANDing the same requirement again, so this changes no decision; it is done so the
	// scheduler sees the pods a cluster stores.
	if utilfeature.DefaultFeatureGate.Enabled(features.MatchLabelKeysInPodTopologySpread) &&
		utilfeature.DefaultFeatureGate.Enabled(features.MatchLabelKeysInPodTopologySpreadSelectorMerge) {
		for _, pod := range in.Pods {
			mergeSpreadLabelKeys(pod)
		}
	}
	classes := map[string]*schedulingv1.PriorityClass{}
	var global *schedulingv1.PriorityClass
	for _, pc := range in.PriorityClasses {
		classes[pc.Name] = pc
		// Two global defaults (a race the plugin tolerates): the lowest value wins.
		if pc.GlobalDefault && (global == nil || pc.Value < global.Value) {
			global = pc
		}
	}
	for _, pod := range in.Pods {
		if pod.Spec.Priority != nil {
			continue
		}
		var pc *schedulingv1.PriorityClass
		if pod.Spec.PriorityClassName != "" {
			pc = classes[pod.Spec.PriorityClassName]
		} else {
			pc = global
		}
		if pc == nil {
			zero := int32(0)
			pod.Spec.Priority = &zero
			continue
		}
		value := pc.Value
		pod.Spec.Priority = &value
		if pod.Spec.PreemptionPolicy == nil && pc.PreemptionPolicy != nil {
			policy := *pc.PreemptionPolicy
			pod.Spec.PreemptionPolicy = &policy
		}
	}
	// PodGroups likewise (the plugin's admitPodGroup, with GenericWorkload on): no priority
	// means the named class's, else the global default's, else 0.
	for _, pg := range in.PodGroups {
		if pg.Spec.Priority != nil {
			continue
		}
		var pc *schedulingv1.PriorityClass
		if pg.Spec.PriorityClassName != "" {
			pc = classes[pg.Spec.PriorityClassName]
		} else {
			pc = global
		}
		value := int32(0)
		if pc != nil {
			value = pc.Value
		}
		pg.Spec.Priority = &value
	}
	seen := map[string]bool{}
	for _, ns := range in.Namespaces {
		seen[ns.Name] = true
	}
	for _, pod := range in.Pods {
		if !seen[pod.Namespace] {
			seen[pod.Namespace] = true
			in.Namespaces = append(in.Namespaces, &v1.Namespace{})
			in.Namespaces[len(in.Namespaces)-1].Name = pod.Namespace
		}
	}
	return nil
}

// objects lists everything for the fake clientset.
func (in *Input) objects() []runtime.Object {
	var out []runtime.Object
	for _, o := range in.Namespaces {
		out = append(out, o)
	}
	for _, o := range in.Nodes {
		out = append(out, o)
	}
	for _, o := range in.Pods {
		out = append(out, o)
	}
	for _, o := range in.PriorityClasses {
		out = append(out, o)
	}
	for _, o := range in.PDBs {
		out = append(out, o)
	}
	for _, o := range in.Services {
		out = append(out, o)
	}
	for _, o := range in.ReplicaSets {
		out = append(out, o)
	}
	for _, o := range in.StatefulSets {
		out = append(out, o)
	}
	for _, o := range in.RCs {
		out = append(out, o)
	}
	out = append(out, in.Workloads...)
	for _, o := range in.PodGroups {
		out = append(out, o)
	}
	for _, o := range in.CompositePodGroups {
		out = append(out, o)
	}
	return out
}

func mergeAffinityLabelKeys(pod *v1.Pod) {
	a := pod.Spec.Affinity
	if a == nil {
		return
	}
	var terms []*v1.PodAffinityTerm
	if a.PodAffinity != nil {
		for i := range a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution {
			terms = append(terms, &a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution[i])
		}
		for i := range a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution {
			terms = append(terms, &a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution[i].PodAffinityTerm)
		}
	}
	if a.PodAntiAffinity != nil {
		for i := range a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution {
			terms = append(terms, &a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution[i])
		}
		for i := range a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution {
			terms = append(terms, &a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution[i].PodAffinityTerm)
		}
	}
	for _, term := range terms {
		if term.LabelSelector == nil { // a nil selector matches nothing; left alone
			continue
		}
		for _, keys := range []struct {
			names []string
			op    metav1.LabelSelectorOperator
		}{{term.MatchLabelKeys, metav1.LabelSelectorOpIn}, {term.MismatchLabelKeys, metav1.LabelSelectorOpNotIn}} {
			for _, k := range keys.names {
				if value, ok := pod.Labels[k]; ok {
					term.LabelSelector.MatchExpressions = append(term.LabelSelector.MatchExpressions,
						metav1.LabelSelectorRequirement{Key: k, Operator: keys.op, Values: []string{value}})
				}
			}
		}
	}
}

func mergeSpreadLabelKeys(pod *v1.Pod) {
	for i := range pod.Spec.TopologySpreadConstraints {
		c := &pod.Spec.TopologySpreadConstraints[i]
		if c.LabelSelector == nil { // a nil selector matches nothing; left alone
			continue
		}
		for _, k := range c.MatchLabelKeys {
			if value, ok := pod.Labels[k]; ok {
				c.LabelSelector.MatchExpressions = append(c.LabelSelector.MatchExpressions,
					metav1.LabelSelectorRequirement{Key: k, Operator: metav1.LabelSelectorOpIn, Values: []string{value}})
			}
		}
	}
}
