"""A what-if sweep: one scenario per rack (or zone, node, configuration), each planned as
`simulate` plans it, compared with the plan of the unchanged input.

Every scenario is a task on one shared, read-only input (`Sweep`): the executors
(`executors.py`) hand the same `Sweep` to each worker once and then only scenario numbers, and
collect rows in scenario order, so the result is the same byte for byte whatever runs it. A
scenario that fails (a value that names nothing, an internal error) is reported in its row and
the sweep goes on.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from podgroup_plan.analyses.what_if.changes import (
    Applied,
    ChangeError,
    NodeChange,
    apply_changes,
)
from podgroup_plan.analyses.what_if.fates import damage, gpus_of, workload_fates
from podgroup_plan.errors import InputError
from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import Node
from podgroup_plan.natural import natural_key
from podgroup_plan.result import API_VERSION, PlanResult

if TYPE_CHECKING:
    from podgroup_plan.config.configuration import Configuration

KIND = "WhatIfResult"


@dataclass(frozen=True)
class Scenario:
    """One what-if: node changes, nodes to add, or another scheduler configuration / gates."""

    name: str
    changes: tuple[NodeChange, ...] = ()
    added_nodes: tuple[Node, ...] = ()
    # None: the sweep's own configuration; a dict: this KubeSchedulerConfiguration
    scheduler_config: Mapping | None = None
    config_source: str | None = None
    feature_gates: Mapping[str, bool] | None = None  # None: the sweep's own gates
    # `scheduler_config` with the gates this scenario plans under, already resolved (the CLI
    # resolves each --config file while reading its input); None: the Planner resolves them
    configuration: Configuration | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Sweep:
    """The shared input of every scenario and the plan of the unchanged input it is compared
    with (only the pods of that plan are kept: that is all a comparison reads)."""

    cluster: ClusterInput
    scenarios: tuple[Scenario, ...]
    scheduler_config: Mapping | None = None
    config_source: str = "<config>"
    feature_gates: Mapping[str, bool] | None = None
    base: PlanResult | None = field(default=None, compare=False)
    # the sweep's configuration and gates already resolved (None: the Planner resolves them)
    configuration: Configuration | None = field(default=None, compare=False)


# (cluster, scheduler config, gates, config source, the three already resolved or None)
PlanFn = Callable[[ClusterInput, Mapping | None, Mapping[str, bool] | None, str, "Configuration | None"],
                  PlanResult]


@dataclass(frozen=True)
class PlanEach:
    """Builds a worker's plan function (picklable: it travels to process-pool and Ray workers).

    The function keeps one `Planner` per configuration and gates: the first scenario under them
    resolves the configuration (or takes it resolved already) and builds the frameworks; every
    later one is planned by
    `Planner.derive` (the same resolved configuration, a new cluster state for its changed
    input: a failed node is gone, so the state is built for the nodes that remain)."""

    expand: bool = True

    def __call__(self) -> PlanFn:
        from podgroup_plan.planner import Planner

        planners: dict[tuple, Planner] = {}

        def plan_fn(cluster: ClusterInput, config: Mapping | None, gates: Mapping[str, bool] | None,
                    source: str, configuration: Configuration | None) -> PlanResult:
            key = (id(config), tuple(sorted((gates or {}).items())), source)
            known = planners.get(key)
            if known is None:
                planners[key] = known = Planner(cluster, config, gates, config_source=source, expand=self.expand,
                                                configuration=configuration)
                return known.plan()
            return known.derive(cluster).plan()

        return plan_fn




def each_value(cluster: ClusterInput, label: str, action: str) -> list[Scenario]:
    """One scenario per value of `label` among the nodes (natural order), or per node when
    `label` is `node` (or `kubernetes.io/hostname` on nodes without that label)."""
    if label in ("node", "nodes"):
        return [Scenario(n.name, (NodeChange(action, n.name),))
                for n in sorted(cluster.nodes, key=lambda n: natural_key(n.name))]
    values = sorted({n.labels[label] for n in cluster.nodes if label in n.labels}, key=natural_key)
    if not values:
        raise ChangeError(f"--each {label}: no node has the label {label}")
    return [Scenario(f"{label}={v}", (NodeChange(action, f"{label}={v}"),)) for v in values]


def with_base(sweep: Sweep, plan_fn: PlanFn) -> Sweep:
    """`sweep` with the plan of the unchanged input (pods only) attached."""
    base = plan_fn(sweep.cluster, sweep.scheduler_config, sweep.feature_gates, sweep.config_source,
                   sweep.configuration)
    return replace(sweep, base=base)


def run_scenario(sweep: Sweep, index: int, plan_fn: PlanFn) -> dict[str, Any]:
    """The row of scenario `index`: never raises for a bad scenario (the error is its row's)."""
    scenario = sweep.scenarios[index]
    assert sweep.base is not None, "with_base() first"
    row: dict[str, Any] = {"name": scenario.name, "error": None}
    try:
        applied: Applied | None = None
        cluster = sweep.cluster
        if scenario.changes or scenario.added_nodes:
            applied = apply_changes(cluster, scenario.changes, scenario.added_nodes)
            cluster = applied.cluster
        config = sweep.scheduler_config if scenario.scheduler_config is None else scenario.scheduler_config
        source = sweep.config_source if scenario.config_source is None else scenario.config_source
        gates = sweep.feature_gates if scenario.feature_gates is None else scenario.feature_gates
        # a scenario of its own configuration or gates brings them resolved (or None); the
        # others plan under the sweep's
        own = scenario.scheduler_config is not None or scenario.feature_gates is not None
        result = plan_fn(cluster, config, gates, source, scenario.configuration if own else sweep.configuration)
    except (ChangeError, InputError) as err:
        row["error"] = _one_line(err)
        return row
    except Exception as err:  # noqa: BLE001 - one broken scenario must not end the sweep
        row["error"] = f"internal error (a bug): {type(err).__name__}: {_one_line(err)}"
        return row
    row.update(_describe(sweep.base, result, applied, cluster))
    return row


def _describe(base: PlanResult, result: PlanResult, applied: Applied | None, cluster: ClusterInput) -> dict[str, Any]:
    workloads = workload_fates(base, result, applied, cluster)
    out: dict[str, Any] = {
        "nodes": list(applied.nodes) if applied else [],
        "cordoned": list(applied.cordoned) if applied else [],
        "drained": list(applied.drained) if applied else [],
        "failed": list(applied.failed) if applied else [],
        "added": list(applied.added) if applied else [],
        "pods": len(applied.displaced) if applied else 0,
        "gpus": sum(gpus_of(d.pod) for d in applied.displaced) if applied else 0,
        "lostPods": [f"{d.pod.namespace}/{d.pod.name}" for d in applied.displaced if d.fate == "lost"] if applied else [],
        "refusedEvictions": [
            {"namespace": r.pod.namespace, "name": r.pod.name, "node": r.node,
             "budgets": list(r.budgets), "message": r.message}
            for r in (applied.refused if applied else ())],
        "workloads": workloads,
        "feasible": result.feasible,
        "summary": result.summary.to_dict(),
    }
    return out


def _one_line(err: BaseException) -> str:
    if isinstance(err, InputError):
        return "; ".join(str(p) for p in err.problems) or str(err)
    return " ".join(str(err).split())


def assemble(sweep: Sweep, rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The `what-if -o json` document (schemas/WhatIf.json)."""
    assert sweep.base is not None
    ranked = sorted((i for i, r in enumerate(rows) if r.get("error") is None),
                    key=lambda i: tuple(-x for x in damage(rows[i])) + (i,))
    return {
        "apiVersion": API_VERSION,
        "kind": KIND,
        "base": {"feasible": sweep.base.feasible, "summary": sweep.base.summary.to_dict()},
        "scenarios": list(rows),
        "ranking": [{"name": rows[i]["name"], "workloadsDown": damage(rows[i])[0],
                     "gpus": damage(rows[i])[1], "pods": damage(rows[i])[2]} for i in ranked],
    }
