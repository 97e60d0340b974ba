"""`simulate` resolves its configuration once: `inputs.load` builds the profiles to report their
problems with the input's, and hands them to the Planner, which does not build them again."""
import json

import pytest
from typer.testing import CliRunner

from podgroup_plan.cli import app
from podgroup_plan.config import configuration

NODE = """apiVersion: v1
kind: Node
metadata: {name: node-1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
"""
POD = """apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  schedulerName: %s
  containers: [{name: c, resources: {requests: {cpu: "1"}}}]
"""
CONFIG = """apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: other-scheduler
  plugins:
    score:
      disabled: [{name: ImageLocality}]
"""


@pytest.fixture
def resolutions(monkeypatch):
    """Every call of build_profiles, the function each resolution of a configuration runs
    (config.configuration.resolve_configuration calls it; so does `inputs.load`'s check)."""
    calls = []
    real = configuration.build_profiles

    def counted(config, feature_gates, file="<config>"):
        calls.append(file)
        return real(config, feature_gates, file=file)

    monkeypatch.setattr(configuration, "build_profiles", counted)
    return calls


def simulate(*args):
    result = CliRunner().invoke(app, ["simulate", *args, "-o", "json"])
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize("where", ["flag", "manifests", "none"])
def test_simulate_resolves_the_configuration_once(tmp_path, resolutions, where):
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "node.yaml").write_text(NODE)
    name = "default-scheduler" if where == "none" else "other-scheduler"
    (tmp_path / "m" / "pod.yaml").write_text(POD % name)
    args = [str(tmp_path / "m"), "--feature-gates", "CompositePodGroup=false"]
    if where == "flag":
        (tmp_path / "sched.yaml").write_text(CONFIG)
        args += ["--scheduler-config", str(tmp_path / "sched.yaml")]
    elif where == "manifests":
        (tmp_path / "m" / "sched.yaml").write_text(CONFIG)
    result = simulate(*args)
    assert len(resolutions) == 1, resolutions
    # ...and the profile resolved is the one the pod was planned under
    assert [p["node"] for p in result["pods"]] == ["node-1"]


def test_the_api_still_resolves_what_it_is_given(resolutions):
    """Planner(cluster, scheduler_config, feature_gates) without a resolved configuration
    resolves one itself, once."""
    from podgroup_plan import Planner, load_input

    del load_input  # the API's names are importable side by side
    from podgroup_plan.model.cluster_input import ClusterInput

    planner = Planner(ClusterInput(), {"kind": "KubeSchedulerConfiguration"}, {"CompositePodGroup": False})
    assert len(resolutions) == 1
    assert sorted(planner.frameworks) == ["default-scheduler"]


def test_headroom_resolves_the_configuration_once(tmp_path, resolutions):
    """headroom builds its Planner with the configuration `inputs.load` resolved."""
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "node.yaml").write_text(NODE)
    (tmp_path / "sched.yaml").write_text(CONFIG)
    (tmp_path / "pod.yaml").write_text(POD % "other-scheduler")
    result = CliRunner().invoke(app, ["headroom", str(tmp_path / "m"), "--workload", str(tmp_path / "pod.yaml"),
                                      "--scheduler-config", str(tmp_path / "sched.yaml"), "-o", "json"])
    assert result.exit_code == 0, result.stderr
    assert len(resolutions) == 1, resolutions
    assert json.loads(result.stdout)  # a headroom document came out
