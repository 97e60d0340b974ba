package main

// The scheduler's configuration and feature gates, read the way kube-scheduler reads them:
// `--feature-gates` into the process-wide gate (before anything is defaulted: the default
// plugin set depends on the gates), and a KubeSchedulerConfiguration through the scheduler's
// own strict, defaulting decoder and validation.

import (
	"fmt"
	"os"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	logsapi "k8s.io/component-base/logs/api/v1"
	metricsfeatures "k8s.io/component-base/metrics/features"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/latest"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/scheme"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/validation"
)

// kube-scheduler's command adds the logging and metrics gates (and, through pkg/features, the
// zpages gates) to the process-wide gate before parsing --feature-gates; so does the oracle.
func init() {
	utilruntime.Must(logsapi.AddFeatureGates(utilfeature.DefaultMutableFeatureGate))
	utilruntime.Must(metricsfeatures.AddFeatureGates(utilfeature.DefaultMutableFeatureGate))
}

func setFeatureGates(spec string) error {
	if spec == "" {
		return nil
	}
	return utilfeature.DefaultMutableFeatureGate.Set(spec)
}

// loadConfig decodes the file (or, without one, the configuration found among the manifests;
// else the defaults) and validates it as kube-scheduler does at start-up.
func loadConfig(file string, fromManifests []byte) (*config.KubeSchedulerConfiguration, error) {
	data := fromManifests
	if file != "" {
		var err error
		if data, err = os.ReadFile(file); err != nil {
			return nil, err
		}
	}
	var cfg *config.KubeSchedulerConfiguration
	if data == nil {
		var err error
		if cfg, err = latest.Default(); err != nil {
			return nil, err
		}
	} else {
		obj, gvk, err := scheme.Codecs.UniversalDecoder().Decode(data, nil, nil)
		if err != nil {
			return nil, fmt.Errorf("KubeSchedulerConfiguration: %w", err)
		}
		var ok bool
		if cfg, ok = obj.(*config.KubeSchedulerConfiguration); !ok {
			return nil, fmt.Errorf("not a KubeSchedulerConfiguration: %s", gvk)
		}
		cfg.TypeMeta.APIVersion = gvk.GroupVersion().String()
	}
	if err := validation.ValidateKubeSchedulerConfiguration(cfg); err != nil {
		return nil, fmt.Errorf("KubeSchedulerConfiguration: %w", err)
	}
	return cfg, nil
}
