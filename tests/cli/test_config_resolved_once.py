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


CONFIG_B = CONFIG.replace("ImageLocality", "NodeResourcesBalancedAllocation")


def _input(tmp_path, scheduler="other-scheduler"):
    """A node and a pod of `scheduler` in tmp_path/m, and two configurations of that profile."""
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "node.yaml").write_text(NODE)
    (tmp_path / "m" / "pod.yaml").write_text(POD % scheduler)
    (tmp_path / "a.yaml").write_text(CONFIG)
    (tmp_path / "b.yaml").write_text(CONFIG_B)
    return str(tmp_path / "m"), str(tmp_path / "a.yaml"), str(tmp_path / "b.yaml")


def run(*args, exit_code=0):
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == exit_code, result.stderr
    return result.stdout


@pytest.mark.parametrize("where", ["flag", "none"])
def test_explain_resolves_the_configuration_once(tmp_path, resolutions, where):
    """explain's plan gets the configuration `inputs.load` resolved (none: the default, resolved
    once by the CLI)."""
    manifests, config_a, _ = _input(tmp_path, "other-scheduler" if where == "flag" else "default-scheduler")
    args = ["--scheduler-config", config_a] if where == "flag" else []
    doc = json.loads(run("explain", manifests, "--pod", "default/p", *args, "-o", "json"))
    assert len(resolutions) == 1, resolutions
    assert doc["target"] == {"kind": "Pod", "namespace": "default", "name": "p"}


def test_explain_of_an_owner_plans_twice_but_resolves_once(tmp_path, resolutions):
    """`--job` plans once to find the Job's PodGroup and again to explain it: both plans share
    the one resolved configuration."""
    manifests, config_a, _ = _input(tmp_path)
    (tmp_path / "m" / "job.yaml").write_text("""apiVersion: batch/v1
kind: Job
metadata: {name: train, namespace: default}
spec:
  parallelism: 1
  template:
    spec:
      schedulerName: other-scheduler
      restartPolicy: Never
      containers: [{name: c, resources: {requests: {cpu: "1"}}}]
""")
    result = CliRunner().invoke(app, ["explain", manifests, "--job", "default/train",
                                      "--scheduler-config", config_a, "-o", "json"])
    assert result.exit_code == 0, result.stderr
    assert len(resolutions) == 1, resolutions
    assert json.loads(result.stdout)["owner"]["name"] == "train"


def test_diff_resolves_each_configuration_once(tmp_path, resolutions):
    manifests, config_a, config_b = _input(tmp_path)
    doc = json.loads(run("diff", manifests, "--config-a", config_a, "--config-b", config_b, "-o", "json"))
    assert sorted(resolutions) == sorted([config_a, config_b]), resolutions
    assert doc["identical"] is True


def test_diff_against_the_default_profile_resolves_each_once(tmp_path, resolutions):
    """No --config-a: A is the default profile, resolved by its plan, once."""
    manifests, _, config_b = _input(tmp_path, "default-scheduler")
    (tmp_path / "b.yaml").write_text(CONFIG_B.replace("other-scheduler", "default-scheduler"))
    run("diff", manifests, "--config-b", config_b, "-o", "json")
    assert len(resolutions) == 2, resolutions
    assert resolutions.count(config_b) == 1, resolutions


def test_what_if_resolves_each_distinct_configuration_once(tmp_path, resolutions):
    """The base configuration and each --config scenario: one resolution each, not one more
    per Planner built for them."""
    manifests, config_a, config_b = _input(tmp_path)
    doc = json.loads(run("what-if", manifests, "--scheduler-config", config_a, "--config", config_b,
                         "--each", "node", "-o", "json"))
    assert sorted(resolutions) == sorted([config_a, config_b]), resolutions
    assert [s["name"] for s in doc["scenarios"]] == ["node-1", config_b]


def test_what_if_gate_scenarios_resolve_their_own_once(tmp_path, resolutions):
    """A --gates scenario is a configuration of its own (other gates): resolved once, by its
    Planner; the base is not resolved again."""
    manifests, config_a, _ = _input(tmp_path)
    run("what-if", manifests, "--scheduler-config", config_a, "--gates", "CompositePodGroup=false", "-o", "json")
    assert resolutions == [config_a, config_a], resolutions  # the base, then the gates' scenario


@pytest.mark.parametrize("config_b", [False, True])
def test_replay_resolves_each_configuration_once(tmp_path, resolutions, config_b):
    manifests, config_a, b = _input(tmp_path)
    args = ["--config-b", b] if config_b else []
    doc = json.loads(run("replay", manifests, "--scheduler-config", config_a, *args, "-o", "json"))
    assert sorted(resolutions) == sorted([config_a, *([b] if config_b else [])]), resolutions
    assert doc


@pytest.mark.parametrize("where", ["flag", "manifests", "none"])
def test_validate_resolves_the_configuration_once(tmp_path, resolutions, where):
    manifests, config_a, _ = _input(tmp_path, "default-scheduler" if where == "none" else "other-scheduler")
    args = ["--scheduler-config", config_a] if where == "flag" else []
    if where == "manifests":
        (tmp_path / "m" / "sched.yaml").write_text(CONFIG)
    assert run("validate", manifests, *args).endswith("Input is valid.\n")
    assert len(resolutions) == 1, resolutions
