"""Planning for a command: `plan()` with a progress bar on a terminal (`run_plan`), and the
configuration resolved as `plan()` resolves it, without planning (`check_config`, for
`validate`). The two seams the CLI tests replace with hand-built results."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Mapping

from podgroup_plan.cli.inputs import config_source
from podgroup_plan.cli.output import is_terminal
from podgroup_plan.cli.progress import ProgressBar

if TYPE_CHECKING:
    from podgroup_plan.config.configuration import Configuration
    from podgroup_plan.model.cluster_input import ClusterInput
    from podgroup_plan.result import PlanResult

def check_config(cluster: ClusterInput, config: Mapping | None,
                  gates: Mapping[str, bool] | None, config_file: Path | None = None) -> Configuration:
    """Resolve gates and profiles as `plan()` does, so that `validate` rejects what `simulate`
    would; the Configuration, for `plan(configuration=...)`."""
    from podgroup_plan.config.configuration import resolve_configuration

    return resolve_configuration(config, gates, cluster.scheduler_config, cluster.scheduler_config_source,
                          config_source(config_file))



def run_plan(cluster: ClusterInput, config: Mapping | None, gates: Mapping[str, bool] | None,
          label: str = "Planning", config_file: Path | None = None,
          configuration: Configuration | None = None) -> PlanResult:
    """`plan()`; `configuration` is `config` and `gates` as `inputs.load` resolved them (its
    `resolved`), handed on so that they are not resolved a second time."""
    from podgroup_plan.planner import plan

    bar = ProgressBar(label) if is_terminal(sys.stderr) else None
    try:
        return plan(cluster, config, gates, progress=bar, config_source=config_source(config_file),
                    configuration=configuration)
    finally:
        if bar is not None:
            bar.close()
