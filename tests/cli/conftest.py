"""CLI tests drive `podgroup-plan` through typer's CliRunner. Most replace the engine with
hand-built PlanResults (tests/render/sample_plans.py) at the CLI's two seams, `inputs.load`
and `planning.run_plan`, so that they test the command line itself: flags, exit codes, streams, files."""
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from typer.testing import CliRunner

sys.path.insert(0, str(Path(__file__).parent.parent / "render"))

from podgroup_plan.cli import inputs, planning  # noqa: E402


@pytest.fixture
def runner():
    return CliRunner()


@dataclass
class FakeEngine:
    """Stands in for loading + plan(): returns `results` in turn (the last one repeatedly)."""

    results: list = field(default_factory=list)
    calls: list = field(default_factory=list)
    error: Exception | None = None
    manifest_config: dict | None = field(default_factory=lambda: {"kind": "KubeSchedulerConfiguration"})

    def load(self, paths, config_files, feature_gates, manifest_config_used=True, validate="strict",
             resolved=None):
        from podgroup_plan.model.cluster_input import ClusterInput

        # `resolved` is left empty: the fake resolves no configuration, so plan() gets none
        self.calls.append(("load", list(paths), list(config_files), feature_gates))
        cluster = ClusterInput(scheduler_config=self.manifest_config)
        return cluster, [{"from": str(f)} if f else None for f in config_files], None

    def plan(self, cluster, config, gates, label="Planning", config_file=None, configuration=None):
        self.calls.append(("plan", cluster, config, gates, label))
        if self.error is not None:
            raise self.error
        n = sum(1 for c in self.calls if c[0] == "plan")
        return self.results[min(n, len(self.results)) - 1]


@pytest.fixture
def engine(monkeypatch):
    import sample_plans

    fake = FakeEngine(results=[sample_plans.mixed()])
    monkeypatch.setattr(inputs, "load", fake.load)
    monkeypatch.setattr(planning, "run_plan", fake.plan)
    return fake
