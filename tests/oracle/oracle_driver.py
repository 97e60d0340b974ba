"""Running one generated case through the oracle and the planner, and writing a mismatch down as
a scenario folder (tests/scenarios/README.md) that a developer can copy into tests/scenarios.

Mismatch folders go to `$PODGROUP_PLAN_ORACLE_OUT`, else `<tmp>/podgroup-plan-oracle-mismatches`
(never into the repository while tests run); the test's failure message names the folder.
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import tempfile
from pathlib import Path
from typing import Any, Mapping

import yaml

from oracle_exclusions import oracle_config, oracle_gates, planner_node_for_tie

ORACLE_TIMEOUT = 120


def out_root() -> Path:
    env = os.environ.get("PODGROUP_PLAN_ORACLE_OUT")
    return Path(env) if env else Path(tempfile.gettempdir()) / "podgroup-plan-oracle-mismatches"


def write_manifests(folder: Path, documents: list[dict], config: Mapping | None) -> Path:
    manifests = folder / "manifests"
    manifests.mkdir(parents=True, exist_ok=True)
    with open(manifests / "cluster.yaml", "w", encoding="utf-8") as fh:
        yaml.safe_dump_all(documents, fh, sort_keys=False)
    if config is not None:
        with open(manifests / "scheduler-config.yaml", "w", encoding="utf-8") as fh:
            yaml.safe_dump(dict(config), fh, sort_keys=False)
    return manifests


def run_oracle(binary: Path, mode: str, manifests: Path, gates: Mapping[str, bool], config: Mapping | None,
               extra: tuple[str, ...] = ()) -> dict[str, Any]:
    """The oracle's report. The planner's configuration (if any) sits among the manifests; the
    oracle gets the rule-4 translation of it as --scheduler-config."""
    args = [str(binary), mode, "--feature-gates", oracle_gates(gates), *extra]
    translated = oracle_config(config, gates)
    with tempfile.TemporaryDirectory(prefix="oracle-cfg-") as tmp:
        if translated is not None:
            cfg_file = Path(tmp) / "config.yaml"
            cfg_file.write_text(yaml.safe_dump(translated, sort_keys=False), encoding="utf-8")
            args += ["--scheduler-config", str(cfg_file)]
        done = subprocess.run(args + [str(manifests)], capture_output=True, text=True, timeout=ORACLE_TIMEOUT)
    if done.returncode != 0:
        raise RuntimeError(f"oracle {mode} failed on {manifests}: {done.stderr.strip()}")
    return json.loads(done.stdout)


def case_id(documents: list[dict], config: Mapping | None, gates: Mapping[str, bool]) -> str:
    blob = json.dumps([documents, config, sorted(gates.items())], sort_keys=True).encode()
    return hashlib.sha256(blob).hexdigest()[:10]


def write_framework_mismatch(documents: list[dict], config: Mapping | None, gates: Mapping[str, bool],
                             oracle: dict, problems: list[str], planner_defaults: Mapping[str, bool]) -> Path:
    """The shrunk case as a scenario folder. Its `expected.yaml` holds what kube-scheduler
    decided for each pending pod (framework mode: each pod alone against the cluster, which is
    the plan's result when there is one pending pod; with several, only the first is listed),
    and `disagreement` so that the case runs as a strict xfail until the planner is fixed.
    The configuration written disables DefaultPreemption, so that kube-scheduler's message is
    the FitError alone, as framework mode reports it."""
    folder = out_root() / f"oracle-framework-{case_id(documents, config, gates)}"
    config_doc = _without_preemption(config)
    write_manifests(folder, documents, config_doc)
    pods = []
    for entry in oracle["pods"][:1]:
        sched = entry["schedule"]
        if entry["ignored"]:
            continue
        if sched["node"] is not None:
            node = planner_node_for_tie(entry["bestNodes"] or [sched["node"]])
            pods.append({"namespace": entry["namespace"], "name": entry["name"], "status": "Scheduled", "node": node})
        elif sched["fitError"] is not None:
            pods.append({"namespace": entry["namespace"], "name": entry["name"], "status": "Unschedulable",
                         "node": None, "reason": "Unschedulable", "message": sched["fitError"]})
    expected: dict[str, Any] = {
        "description": "Found by the kube-scheduler v1.37.2 oracle (framework mode): " + problems[0][:200],
        "disagreement": "; ".join(problems)[:2000],
    }
    differing = {k: v for k, v in gates.items() if planner_defaults.get(k) != v}
    if differing:
        expected["featureGates"] = differing
    expected["pods"] = pods
    with open(folder / "expected.yaml", "w", encoding="utf-8") as fh:
        yaml.safe_dump(expected, fh, sort_keys=False, width=120)
    (folder / "oracle-framework.json").write_text(json.dumps(oracle, indent=1), encoding="utf-8")
    return folder


def _without_preemption(config: Mapping | None) -> dict:
    cfg = json.loads(json.dumps(config)) if config else {
        "apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
        "profiles": [{"schedulerName": "default-scheduler"}]}
    for profile in cfg.setdefault("profiles", [{"schedulerName": "default-scheduler"}]):
        post = profile.setdefault("plugins", {}).setdefault("postFilter", {})
        post.setdefault("disabled", []).append({"name": "DefaultPreemption"})
    return cfg


def write_scheduler_mismatch(documents: list[dict], config: Mapping | None, gates: Mapping[str, bool],
                             oracle: dict, problems: list[str]) -> Path:
    """The shrunk case as a scenario folder whose `expected.yaml` holds kube-scheduler's
    outcome (node ties broken by name, as the planner does) and `disagreement`."""
    from podgroup_plan.config.configuration import resolve_feature_gates

    folder = out_root() / f"oracle-scheduler-{case_id(documents, config, gates)}"
    write_manifests(folder, documents, config)
    pods = []
    for o in oracle["pods"]:
        entry: dict[str, Any] = {"namespace": o["namespace"], "name": o["name"]}
        if o["deleted"]:
            entry["status"] = "Preempted"
        elif o["node"] is not None:
            entry.update(status="Scheduled", node=o["node"])
        elif o["condition"] is not None and o["condition"]["reason"] != "SchedulingGated":
            entry.update(status="Unschedulable", node=None, reason=o["condition"]["reason"],
                         message=o["condition"]["message"])
        else:
            entry["status"] = "Waiting"
        pods.append(entry)
    expected: dict[str, Any] = {
        "description": "Found by the kube-scheduler v1.37.2 oracle (scheduler mode): " + problems[0][:200],
        "disagreement": "; ".join(problems)[:2000],
    }
    defaults = resolve_feature_gates(None)
    differing = {k: v for k, v in gates.items() if defaults.get(k) != v}
    if differing:
        expected["featureGates"] = differing
    expected["pods"] = pods
    expected["podGroups"] = [{"namespace": g["namespace"], "name": g["name"], "conditions": g["conditions"]}
                             for g in oracle["podGroups"]]
    expected["victims"] = [{"namespace": v["namespace"], "name": v["name"]} for v in oracle["victims"]]
    with open(folder / "expected.yaml", "w", encoding="utf-8") as fh:
        yaml.safe_dump(expected, fh, sort_keys=False, width=120)
    (folder / "oracle-scheduler.json").write_text(json.dumps(oracle, indent=1), encoding="utf-8")
    return folder
