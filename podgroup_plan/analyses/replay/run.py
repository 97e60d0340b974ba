"""`replay(...)`: set up the engine on one Planner, run it, and build the document."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping

from podgroup_plan.analyses.replay.backoff import Backoff
from podgroup_plan.analyses.replay.engine import Engine
from podgroup_plan.analyses.replay.facts import Facts
from podgroup_plan.analyses.replay.report import build_document
from podgroup_plan.config.defaults import gate_enabled
from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.timing import Timing, TimingKey, parse_time
from podgroup_plan.planner import Planner

if TYPE_CHECKING:
    from podgroup_plan.config.configuration import Configuration


@dataclass(frozen=True, slots=True)
class Settings:
    start: float | None = None  # None: the latest running pod's start, else the first arrival
    until: float | None = None  # absolute; None: until nothing is left to happen
    until_after: float | None = None  # a duration after the start (`--until 2h`)
    default_duration: float | None = None  # None: pods without a duration run forever
    focus: str | None = None


def backoff_of(config: Mapping | None, windows: bool) -> Backoff:
    """podInitialBackoffSeconds / podMaxBackoffSeconds of the configuration, 1 s and 10 s unset."""
    config = config or {}
    initial = config.get("podInitialBackoffSeconds")
    maximum = config.get("podMaxBackoffSeconds")
    return Backoff(float(initial) if isinstance(initial, int) else 1.0,
                   float(maximum) if isinstance(maximum, int) else 10.0, windows)


def replay(cluster: ClusterInput, timing: Mapping[TimingKey, Timing], settings: Settings,
           scheduler_config: Mapping | None = None, feature_gates: Mapping[str, bool] | None = None,
           *, config_source: str = "<config>", planner: Planner | None = None,
           configuration: Configuration | None = None) -> dict[str, Any]:
    """The replay of `cluster` as a document (schemas/Replay.json). `configuration`: the
    configuration already resolved (the CLI resolves it while reading its input), for the
    Planner to use as it is (see `Planner`)."""
    if planner is None:
        planner = Planner(cluster, scheduler_config, feature_gates, config_source=config_source,
                          configuration=configuration)
    config = scheduler_config if scheduler_config is not None else cluster.scheduler_config
    pop = gate_enabled(planner.gates, "SchedulerPopFromBackoffQ")
    facts = Facts(planner.cluster, dict(timing), settings.default_duration, 0.0)
    live = [p for p in planner.cluster.pods if p.phase not in ("Succeeded", "Failed")]
    running = [p for p in live if p.is_running]
    start = settings.start
    if start is None:
        starts = [parse_time(p.start_time) for p in running if p.start_time]
        if starts:
            start = max(starts)
        else:
            arrivals = [facts.arrival(p) for p in live if not p.is_running and _has_arrival(facts, p)]
            start = min(arrivals) if arrivals else 0.0
    facts.default_arrival = start
    until = settings.until
    if settings.until_after is not None:
        until = start + settings.until_after
    engine = Engine(planner, facts, start, until, backoff_of(config, pop), pop)
    for pod in sorted(running, key=lambda p: p.key):
        engine.add_running(pod, parse_time(pod.start_time) if pod.start_time else start)
    engine.adopt_queue()
    held = [p for p in live if not p.is_running and p.key not in engine.runs]
    if held:
        # Pods the queue never takes (PreEnqueue: scheduling gates, a gang short of members):
        # they wait the whole replay, with the plan's message.
        messages = {(r.namespace, r.name): r.message for r in planner.result().pods}
        for pod in held:
            engine.hold(pod, messages.get(pod.key) or "not queued")
    end = engine.run()
    engine.settle(end)
    engine.timeline.close(end)
    return build_document(engine, end, settings.focus)


def _has_arrival(facts: Facts, pod) -> bool:
    saved = facts.default_arrival
    facts.default_arrival = float("nan")
    try:
        value = facts.arrival(pod)
        return value == value
    finally:
        facts.default_arrival = saved
