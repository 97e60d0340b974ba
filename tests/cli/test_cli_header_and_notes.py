"""What a person reads first, end to end: the header names the configuration used, the notes
name ignored kinds, `validate` counts Namespaces."""
from typer.testing import CliRunner

from podgroup_plan.cli import app

NODE = """apiVersion: v1
kind: Node
metadata: {name: node-1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
"""
POD = """apiVersion: v1
kind: Pod
metadata: {name: web, namespace: team-a}
spec:
  containers: [{name: c, resources: {requests: {cpu: "1"}}}]
"""
NAMESPACES = """apiVersion: v1
kind: Namespace
metadata: {name: team-a, labels: {team: a}}
---
apiVersion: v1
kind: Namespace
metadata: {name: team-b}
"""
CONFIG = """apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: NodeResourcesFit
    args: {scoringStrategy: {type: MostAllocated}}
"""
OTHER = """apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: team-a}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: more, namespace: team-a}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: web, namespace: team-a}
"""


def run(*args):
    return CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": "400"})


def write(tmp_path, **files):
    for name, text in files.items():
        (tmp_path / f"{name}.yaml").write_text(text)
    return tmp_path


def test_header_names_the_configuration_found_among_the_manifests(tmp_path):
    write(tmp_path, node=NODE, pod=POD, scheduler=CONFIG)
    out = run("simulate", tmp_path).stdout
    assert f"configuration: {tmp_path / 'scheduler.yaml'} (found among the manifests) " \
           "(profile default-scheduler)" in out


def test_header_names_the_flag_over_the_manifests(tmp_path):
    (tmp_path / "m").mkdir()
    manifests = write(tmp_path / "m", node=NODE, pod=POD, scheduler=CONFIG.replace("MostAllocated", "LeastAllocated"))
    config = tmp_path / "flag.yaml"
    config.write_text(CONFIG)
    out = run("simulate", manifests, "--scheduler-config", config).stdout
    assert f"configuration: {config} (profile default-scheduler)" in out
    md = run("simulate", manifests, "--scheduler-config", config, "-o", "markdown").stdout
    assert f"configuration: {config} (profile(s): default-scheduler)" in md


def test_header_says_built_in_default(tmp_path):
    write(tmp_path, node=NODE, pod=POD)
    assert "configuration: built-in default (profile default-scheduler)" in run("simulate", tmp_path).stdout


def test_notes_name_ignored_kinds(tmp_path):
    write(tmp_path, node=NODE, pod=POD, other=OTHER)
    result = run("simulate", tmp_path, "-o", "json")
    assert "input kinds not planned (ignored): ConfigMap (2), Ingress (1)" in \
        result.stdout
    table = " ".join(run("simulate", tmp_path).stdout.split())
    assert "• input kinds not planned (ignored): ConfigMap (2), Ingress (1)" in table


def test_validate_counts_namespaces(tmp_path):
    write(tmp_path, node=NODE, pod=POD, namespaces=NAMESPACES)
    out = run("validate", tmp_path).stdout.splitlines()
    assert "Namespace: 2" in out
    write(tmp_path, namespaces="")
    assert not any(line.startswith("Namespace:") for line in run("validate", tmp_path).stdout.splitlines())


def test_width_is_columns_else_80(tmp_path, monkeypatch):
    """COLUMNS when set, also when the output is redirected (CliRunner's is); else 80 (no
    terminal here)."""
    long_name = "a-pod-with-a-name-long-enough-to-need-more-than-eighty-columns-" + "x" * 40
    write(tmp_path, node=NODE, pod=POD.replace("name: web", f"name: {long_name}").replace(
        'cpu: "1"', 'cpu: "64"'))
    monkeypatch.delenv("COLUMNS", raising=False)
    import os

    def no_terminal(*args):
        raise OSError("not a terminal")

    monkeypatch.setattr(os, "get_terminal_size", no_terminal)  # as in CI, whatever runs pytest
    default = CliRunner().invoke(app, ["simulate", str(tmp_path)]).stdout.splitlines()
    assert max(map(len, default)) == 80
    wide = CliRunner().invoke(app, ["simulate", str(tmp_path)], env={"COLUMNS": "200"}).stdout
    assert f"team-a/{long_name}" in wide and max(map(len, wide.splitlines())) <= 200
    narrow = CliRunner().invoke(app, ["simulate", str(tmp_path)], env={"COLUMNS": "60"}).stdout
    assert max(map(len, narrow.splitlines())) <= 60 and "…" in narrow
