"""Pieces several plugins share, as upstream keeps them in `pkg/scheduler/framework/plugins/helper/`:
`taint` (tolerations against taints), `node_affinity` (node selectors over all nodes) and
`state_cache` (per-ClusterState results of the static plugins)."""
