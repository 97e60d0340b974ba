"""Building the oracle (`oracle/`, Go) once and keeping the binary.

The binary is cached outside the repository, keyed by a hash of every file of `oracle/` and of
`go version`: `$PODGROUP_PLAN_ORACLE_CACHE`, else `~/.cache/podgroup-plan-oracle/<hash>/oracle`.
A second run (or a second pytest worker) finds it and builds nothing. Without `go` on PATH the
oracle tests are skipped with that reason; `PODGROUP_PLAN_ORACLE=off` skips them on purpose.
A build that cannot download kube-scheduler's modules (no network, no proxy) is a skip too; a
build that downloads but does not compile is a failure (a bug in oracle/).
"""
from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ORACLE_SRC = REPO / "oracle"


class OracleUnavailable(Exception):
    """The oracle cannot run here; the message says why (a skip reason)."""


def cache_root() -> Path:
    env = os.environ.get("PODGROUP_PLAN_ORACLE_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "podgroup-plan-oracle"


def source_hash(go: str) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in ORACLE_SRC.rglob("*") if p.is_file() and p.suffix in (".go", ".mod", ".sum")):
        digest.update(str(path.relative_to(ORACLE_SRC)).encode() + b"\0" + path.read_bytes() + b"\0")
    version = subprocess.run([go, "version"], capture_output=True, text=True, check=False).stdout
    digest.update(version.encode())
    return digest.hexdigest()[:16]


def oracle_binary() -> Path:
    """The built oracle, building it on first use. Raises OracleUnavailable."""
    if os.environ.get("PODGROUP_PLAN_ORACLE", "").lower() in ("off", "0", "false", "skip"):
        raise OracleUnavailable("PODGROUP_PLAN_ORACLE=off")
    go = shutil.which("go")
    if go is None:
        raise OracleUnavailable("the kube-scheduler oracle needs Go (`go` is not on PATH); "
                                "see oracle/README.md")
    target = cache_root() / source_hash(go) / "oracle"
    if target.is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target.parent / "build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one build at a time; the others wait and reuse it
        if not target.is_file():
            _build(go, target)
    return target


def _build(go: str, target: Path) -> None:
    env = dict(os.environ)
    env.setdefault("GOFLAGS", "-mod=readonly")
    start = time.monotonic()
    download = subprocess.run([go, "mod", "download"], cwd=ORACLE_SRC, env=env, capture_output=True, text=True)
    if download.returncode != 0:
        raise OracleUnavailable(f"cannot download kube-scheduler's Go modules (`go mod download` in oracle/): "
                                f"{download.stderr.strip()[-600:]}")
    tmp = target.with_name(f"oracle.tmp{os.getpid()}")
    build = subprocess.run([go, "build", "-trimpath", "-o", str(tmp), "."], cwd=ORACLE_SRC, env=env,
                           capture_output=True, text=True)
    if build.returncode != 0:
        raise RuntimeError(f"building oracle/ failed:\n{build.stderr[-4000:]}")
    tmp.replace(target)
    (target.parent / "build-seconds").write_text(f"{time.monotonic() - start:.1f}\n")
