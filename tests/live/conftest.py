"""A real API server for the live-cluster tests (live_build.py builds it once, live_server.py
runs it): skipped with the reason where Go, its modules or the `kubernetes` client are missing."""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest
from live_build import LiveUnavailable, binaries
from live_server import GATES, ApiServer, Etcd


@pytest.fixture(scope="session")
def live_binaries() -> dict[str, Path]:
    try:
        import kubernetes  # noqa: F401 - the extra podgroup-plan[live], in the test extra
    except ImportError:
        pytest.skip("the kubernetes Python client is not installed (python3 -m pip install '.[live]')")
    try:
        return binaries()
    except LiveUnavailable as exc:
        pytest.skip(f"no kube-apiserver for the live tests: {exc}")


@pytest.fixture(scope="session")
def etcd(live_binaries: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Etcd]:
    server = Etcd.start(live_binaries["etcd"], tmp_path_factory.mktemp("etcd"))
    yield server
    server.stop()


@pytest.fixture(scope="session")
def apiserver(live_binaries: dict[str, Path], etcd: Etcd, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ApiServer]:
    """The demo's cluster lives here (created once, by the first test that needs it)."""
    server = ApiServer.start(live_binaries["kube-apiserver"], etcd, tmp_path_factory.mktemp("apiserver"), "/demo")
    yield server
    server.stop()


@pytest.fixture(scope="session")
def validation_server(live_binaries: dict[str, Path], etcd: Etcd,
                      tmp_path_factory: pytest.TempPathFactory) -> Iterator[ApiServer]:
    """A cluster of its own (an etcd prefix of its own) for the validation comparison, so that
    what it creates and deletes never meets the demo's objects."""
    # WorkloadWithJob as the planner's defaults have it (README: the Job's gang fields are
    # validated only with it)
    server = ApiServer.start(live_binaries["kube-apiserver"], etcd, tmp_path_factory.mktemp("validation"),
                             "/validation", gates=GATES + ",WorkloadWithJob=true")
    yield server
    server.stop()
