"""podgroup-plan: an offline what-if planner for Kubernetes gang (PodGroup) scheduling."""

__version__ = "0.2.0"

# The kube-scheduler whose decisions the planner mirrors (README: it mirrors v1.37.0 exactly).
KUBERNETES_VERSION = "v1.37.0"
