"""The oracle binary for the differential tests (built once, cached outside the repository;
skipped with the reason when Go or its modules are not available: oracle_build.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

from oracle_build import OracleUnavailable, oracle_binary


@pytest.fixture(scope="session")
def oracle_bin() -> Path:
    try:
        return oracle_binary()
    except OracleUnavailable as exc:
        pytest.skip(f"kube-scheduler oracle not available: {exc}")
