"""Configuration: KubeSchedulerConfiguration (defaults, plugin sets, plugin args, profiles) and
feature gates.

Mirrors `pkg/scheduler/apis/config` (and its `v1` defaults and `validation`) of kube-scheduler
v1.37.0, plus `k8s.io/component-base/featuregate` for the gates. Depends on plugin names only
(`plugins/names.py`), never on plugin classes.
"""
