// Command oracle runs kube-scheduler v1.37.2 itself on podgroup-plan's input, so that the
// planner can be compared with the real thing (tests/oracle/). It imports kube-scheduler as a
// library (k8s.io/kubernetes from the Go module proxy) and copies none of its code.
//
//	oracle framework [--scheduler-config FILE] [--feature-gates A=true,B=false] PATH...
//	oracle scheduler [--scheduler-config FILE] [--feature-gates ...] [--max-rounds N]
//	                 [--tie-break random|name] [--no-ties] PATH...
//	oracle replay [--scheduler-config FILE] [--feature-gates ...] [--start TIME]
//	              [--tie-break random|name] PATH...
//
// Every mode prints one JSON document on standard output; see README.md.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"

	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/klog/v2"
)

const kubernetesVersion = "v1.37.2"

var everything = labels.Everything()

func klogFrom(ctx context.Context) klog.Logger { return klog.FromContext(ctx) }

func sortedSet(s sets.Set[string]) []string {
	out := make([]string, 0, len(s))
	for k := range s {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: oracle framework|scheduler|replay [--scheduler-config FILE] [--feature-gates SPEC] [--max-rounds N] [--tie-break random|name] [--no-ties] [--start TIME] PATH...")
	os.Exit(2)
}

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	mode := os.Args[1]
	if mode != "framework" && mode != "scheduler" && mode != "replay" {
		usage()
	}
	flags := flag.NewFlagSet(mode, flag.ExitOnError)
	configFile := flags.String("scheduler-config", "", "KubeSchedulerConfiguration file")
	gates := flags.String("feature-gates", "", "feature gates, NAME=BOOL,...")
	maxRounds := flags.Int("max-rounds", 1000, "scheduler mode: stop after this many retry rounds")
	tieBreak := flags.String("tie-break", "random", "scheduler mode: random (upstream) or name (the first best node by name)")
	noTies := flags.Bool("no-ties", false, "scheduler mode: do not compute tie sets (faster; implies --tie-break=random)")
	startFlag := flags.String("start", "", "replay mode: the clock's start (RFC 3339); default as podgroup-plan replay's")
	_ = flags.Parse(os.Args[2:])
	if flags.NArg() == 0 {
		usage()
	}
	// Silence klog: the JSON on stdout is the only output; errors go to stderr.
	klogFlags := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(klogFlags)
	_ = klogFlags.Set("logtostderr", "false")
	_ = klogFlags.Set("alsologtostderr", "false")
	_ = klogFlags.Set("stderrthreshold", "FATAL")
	klog.SetOutput(devNull{})

	if *tieBreak != "random" && *tieBreak != "name" {
		usage()
	}
	opts := schedulerOptions{maxRounds: *maxRounds, tieBreak: *tieBreak, ties: !*noTies, start: *startFlag}
	if *noTies {
		opts.tieBreak = "random"
	}
	if err := run(mode, *configFile, *gates, opts, flags.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "oracle:", err)
		os.Exit(1)
	}
}

type devNull struct{}

func (devNull) Write(p []byte) (int, error) { return len(p), nil }

func run(mode, configFile, gates string, opts schedulerOptions, paths []string) error {
	if err := setFeatureGates(gates); err != nil {
		return fmt.Errorf("--feature-gates: %w", err)
	}
	if mode == "framework" {
		// Opportunistic batching reuses one pod's result for the next pod with the same
		// signature; framework mode evaluates every pod on its own.
		if err := setFeatureGates("OpportunisticBatching=false"); err != nil {
			return err
		}
	}
	in, err := readInput(paths)
	if err != nil {
		return err
	}
	if err := in.admit(); err != nil {
		return err
	}
	cfg, err := loadConfig(configFile, in.SchedulerConfig)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	copts := clusterOptions{withPending: mode == "framework", sortPlacements: mode != "framework" && opts.tieBreak == "name"}
	var replay *replayPlan
	if mode == "replay" {
		if replay, err = planReplay(in, opts.start); err != nil {
			return err
		}
		copts.start = replay.start
		copts.wrapQueue = replay.watchQueue
		copts.wrapClient = replay.gateClient
	}
	cluster, err := newCluster(ctx, in, cfg, copts)
	if err != nil {
		return err
	}
	var report any
	switch mode {
	case "framework":
		report, err = runFramework(ctx, cluster)
	case "scheduler":
		report, err = runScheduler(ctx, cluster, opts)
	default:
		report, err = runReplay(ctx, cluster, replay, opts)
	}
	if err != nil {
		return err
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	return enc.Encode(report)
}
