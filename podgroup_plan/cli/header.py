"""What the output's header says about the run, beside the plan itself."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from podgroup_plan.model.cluster_input import ClusterInput


def configuration_label(config_file: Path | None, cluster: ClusterInput) -> str:
    """How the table's header names the configuration the plan used (the flag wins over one
    found among the manifests; neither: upstream's default profile)."""
    if config_file is not None:
        return str(config_file)
    if cluster.scheduler_config is not None:
        return f"{cluster.scheduler_config_source or 'a KubeSchedulerConfiguration'} " \
               "(found among the manifests)"
    return "built-in default"
