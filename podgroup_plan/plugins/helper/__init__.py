"""Pieces several plugins share, as upstream keeps them in `pkg/scheduler/framework/plugins/helper/`:
`taint` (tolerations against taints, the taint table), `node_affinity` (node selectors over all
nodes) and `pod_match_counts` (placed pods matching label selectors per node, and the selector
helpers PodTopologySpread and InterPodAffinity share). Caches are not here: everything derived
from the cluster state lives on it (state/derived.py)."""
