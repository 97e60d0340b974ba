"""Helpers for the loading tests: write manifests into tmp_path, load them, read problems."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from podgroup_plan.errors import InputError
from podgroup_plan.loading import load_input


class Manifests:
    """Writes files under a temporary folder; paths in problems are shown relative to it."""

    def __init__(self, root: Path, monkeypatch: pytest.MonkeyPatch):
        self.root = root
        monkeypatch.chdir(root)  # problems then name files as the tests wrote them

    def write(self, name: str, text: str) -> str:
        path = self.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"))
        return name

    def load(self, *paths: str, stdin_text: str | None = None):
        return load_input(list(paths) or ["."], stdin_text)

    def problems(self, *paths: str, stdin_text: str | None = None) -> list[str]:
        """The problems load_input raises, as the CLI prints them."""
        with pytest.raises(InputError) as err:
            self.load(*paths, stdin_text=stdin_text)
        return [str(p) for p in err.value.problems]


@pytest.fixture
def manifests(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Manifests:
    return Manifests(tmp_path, monkeypatch)


NODE = """
apiVersion: v1
kind: Node
metadata:
  name: node-1
  labels: {zone: a}
status:
  allocatable: {cpu: "4", memory: 16Gi, pods: "110"}
"""


def pod(name: str = "p", namespace: str = "team-a", spec_extra: str = "", containers: str | None = None) -> str:
    """A pending pod manifest; `spec_extra` is YAML indented by two spaces under spec."""
    containers = containers or """
      - name: main
        image: trainer
        resources:
          requests: {cpu: 500m, memory: 1Gi}
    """
    return f"""
apiVersion: v1
kind: Pod
metadata:
  name: {name}
  namespace: {namespace}
spec:
{textwrap.indent(textwrap.dedent(spec_extra).strip(), "  ") if spec_extra.strip() else ""}
  containers:
{textwrap.indent(textwrap.dedent(containers).strip(), "  ")}
"""
