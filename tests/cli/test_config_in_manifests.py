"""A KubeSchedulerConfiguration that comes with the manifests: used, and named in its errors."""
from typer.testing import CliRunner

from podgroup_plan.cli import app

NODE = """apiVersion: v1
kind: Node
metadata: {name: node-1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
"""
BAD_CONFIG = """apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    score:
      enabled: [{name: Bogus}]
"""


def test_bad_configuration_among_manifests_is_named_by_its_file(tmp_path):
    (tmp_path / "node.yaml").write_text(NODE)
    (tmp_path / "scheduler.yaml").write_text(BAD_CONFIG)
    for command in ("simulate", "validate"):
        result = CliRunner().invoke(app, [command, str(tmp_path)])
        assert result.exit_code == 2, command
        first = result.stderr.splitlines()[0]
        # profile problems carry the line of their field, like every other problem
        assert first.startswith(f"{tmp_path / 'scheduler.yaml'}:7: KubeSchedulerConfiguration: ")
        assert 'unknown plugin "Bogus"' in first
