"""podgroup-plan: an offline what-if planner for Kubernetes gang (PodGroup) scheduling."""

__version__ = "0.1.0"

# The kube-scheduler whose decisions the planner mirrors (see spec/planner.md, "Which kube-scheduler").
KUBERNETES_VERSION = "v1.37.0"
