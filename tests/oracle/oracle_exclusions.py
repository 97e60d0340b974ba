"""Where the planner may differ from kube-scheduler v1.37.2, and why. Every rule here cites the
README section that declares the deviation; anything not covered here is a mismatch.

1. Ties (README, "Deviations from kube-scheduler": "Ties between the best nodes go to the node
   whose name sorts first (upstream: random)"). The oracle reports the set of best nodes; the
   planner's node must be the first of them by name (`planner_node_for_tie`).

2. Out-of-scope plugins (README, "Out of scope by design: volumes and volume-topology plugins,
   DRA / resource claims"). kube-scheduler's default profile scores with VolumeBinding and
   DynamicResources (and filters with the volume plugins); the planner has none of them. The
   generator writes no volumes and no claims, so these plugins must pass every node and score 0:
   a non-zero score or a rejection from them is still a mismatch (`OUT_OF_SCOPE_SCORE_PLUGINS`).

3. Every node is scored (README: "Every node is scored unless the configuration sets
   percentageOfNodesToScore"). The generator stays under 100 nodes, where upstream evaluates
   every node too, and never sets percentageOfNodesToScore.

4. Feature gates (README, "Deviations": the planner turns GenericWorkload,
   TopologyAwareWorkloadScheduling, CompositePodGroup and PodGroupPreemptionPolicy on by
   default, v1.37 ships them off; `WorkloadAwarePreemption` is the planner's own switch, not a
   kube-scheduler gate). The driver always passes the gates explicitly to both sides
   (`oracle_gates`); a planner `WorkloadAwarePreemption=false` becomes, for the oracle, a
   configuration without DefaultPreemption (`oracle_config`).

5. Admission (oracle/README.md): the oracle applies the API server's defaults and the Priority
   admission plugin itself; the generator writes `spec.priority` explicitly anyway.

6. v1.37.2 against v1.37.0 (the planner mirrors v1.37.0). The patch releases' CHANGELOG entries
   for kube-scheduler between v1.37.0 and v1.37.2 are listed in `PATCH_RELEASE_CHANGES`; a case
   that reaches one of them is excluded by the rule named there. None is known to touch the
   per-pod framework (see oracle/README.md).
"""
from __future__ import annotations

import copy
from typing import Mapping, Sequence

# Score plugins of the default profile the planner does not model (rule 2).
OUT_OF_SCOPE_SCORE_PLUGINS = frozenset({"VolumeBinding", "DynamicResources"})

# kube-scheduler v1.37.2 changes over v1.37.0 that touch scheduling decisions (rule 6):
# CHANGELOG entry -> what the driver does about it. Empty: none found (oracle/README.md).
PATCH_RELEASE_CHANGES: dict[str, str] = {}

PLANNER_ONLY_GATES = frozenset({"WorkloadAwarePreemption"})


def planner_node_for_tie(best_nodes: Sequence[str]) -> str:
    """Rule 1: among tied nodes the planner takes the one whose name sorts first."""
    return sorted(best_nodes)[0]


def oracle_gates(planner_gates: Mapping[str, bool]) -> str:
    """Rule 4: the `--feature-gates` value for the oracle, from the planner's resolved gates."""
    return ",".join(f"{name}={'true' if value else 'false'}" for name, value in sorted(planner_gates.items())
                    if name not in PLANNER_ONLY_GATES)


def oracle_config(config: Mapping | None, planner_gates: Mapping[str, bool]) -> dict | None:
    """Rule 4: `WorkloadAwarePreemption=false` is DefaultPreemption disabled, for the oracle."""
    if planner_gates.get("WorkloadAwarePreemption", True):
        return None if config is None else copy.deepcopy(dict(config))
    cfg = copy.deepcopy(dict(config)) if config else {
        "apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
        "profiles": [{"schedulerName": "default-scheduler"}]}
    for profile in cfg.setdefault("profiles", [{"schedulerName": "default-scheduler"}]):
        multi = profile.setdefault("plugins", {}).setdefault("multiPoint", {})
        multi.setdefault("disabled", []).append({"name": "DefaultPreemption"})
    return cfg


def scheduler_gates() -> dict[str, bool]:
    """The gates scheduler-mode cases run with (rule 4: the planner's defaults, explicitly)."""
    from podgroup_plan.framework.config import resolve_feature_gates
    return dict(resolve_feature_gates(None))
