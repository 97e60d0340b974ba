"""A scheduling profile after KubeSchedulerConfiguration defaulting and merging.

`config/configuration.py` builds these from a configuration (or the defaults); `framework/runtime.py`
instantiates the plugins they name. Extension point names are upstream's `Plugins` field names.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

EXTENSION_POINTS = (
    "preEnqueue", "queueSort", "preFilter", "filter", "postFilter", "preScore", "score",
    "reserve", "permit", "preBind", "bind", "postBind",
    "placementGenerate", "placementFeasible", "placementScore", "podGroupPostFilter",
)


@dataclass(frozen=True, slots=True)
class PluginRef:
    name: str
    weight: int = 0  # meaningful for score and placementScore (0 means "use the default": 1)


@dataclass(frozen=True)
class Profile:
    scheduler_name: str
    # extension point -> enabled plugins in execution order, after the multiPoint and
    # per-extension-point merge rules.
    plugins: Mapping[str, tuple[PluginRef, ...]]
    # plugin name -> decoded args dataclass (config/args.py), defaults filled in.
    plugin_args: Mapping[str, Any] = field(default_factory=dict)
    # None: score every node (documented deviation); else upstream's numFeasibleNodesToFind.
    percentage_of_nodes_to_score: int | None = None
    # (v1.37.0 evaluates and scores every placement: percentageOfPlacementsToScore is 1.38-dev.)

    def enabled(self, extension_point: str) -> tuple[PluginRef, ...]:
        return self.plugins.get(extension_point, ())
