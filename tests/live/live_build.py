"""Building kube-apiserver v1.37.2 and etcd v3.7 once, for the live-cluster tests, and keeping them.

Both are built from the Go module proxy by the two tiny modules beside this file
(`apiserver/`, `etcd/`: a go.mod pinning upstream and a main.go that calls upstream's own
command; no upstream code is copied). Without `-ldflags -X k8s.io/component-base/version...` the
server would report `v0.0.0-master+$Format:%H$`, which clients refuse to parse.

The binaries are cached outside the repository, keyed by a hash of the two modules and of
`go version`: `$PODGROUP_PLAN_LIVE_CACHE`, else `~/.cache/podgroup-plan-live/<hash>/`. A second
run finds them and builds nothing (a cold build takes 8-20 minutes on a loaded 2-core machine;
etcd alone about a minute). Without `go` on PATH the live tests are skipped with that reason;
`PODGROUP_PLAN_LIVE=off` skips them on purpose. A build that cannot download the modules is a
skip too; one that downloads but does not compile is a failure.
"""
from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
MODULES = {"kube-apiserver": HERE / "apiserver", "etcd": HERE / "etcd"}
VERSION = "v1.37.2"
LDFLAGS = " ".join(f"-X k8s.io/component-base/version.{k}={v}" for k, v in (
    ("gitVersion", VERSION), ("gitMajor", "1"), ("gitMinor", "37"), ("gitTreeState", "clean")))


class LiveUnavailable(Exception):
    """The live tests cannot run here; the message says why (a skip reason)."""


def cache_root() -> Path:
    env = os.environ.get("PODGROUP_PLAN_LIVE_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "podgroup-plan-live"


def source_hash(go: str) -> str:
    digest = hashlib.sha256()
    for name, folder in sorted(MODULES.items()):
        for path in sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in (".go", ".mod", ".sum")):
            digest.update(f"{name}/{path.relative_to(folder)}".encode() + b"\0" + path.read_bytes() + b"\0")
    digest.update(LDFLAGS.encode())
    version = subprocess.run([go, "version"], capture_output=True, text=True, check=False).stdout
    digest.update(version.encode())
    return digest.hexdigest()[:16]


def binaries() -> dict[str, Path]:
    """{'kube-apiserver': path, 'etcd': path}, built on first use. Raises LiveUnavailable."""
    if os.environ.get("PODGROUP_PLAN_LIVE", "").lower() in ("off", "0", "false", "skip"):
        raise LiveUnavailable("PODGROUP_PLAN_LIVE=off")
    go = shutil.which("go")
    if go is None:
        raise LiveUnavailable("the live-cluster tests build kube-apiserver and etcd and need Go "
                              "(`go` is not on PATH); see tests/live/README.md")
    folder = cache_root() / source_hash(go)
    targets = {name: folder / name for name in MODULES}
    if all(t.is_file() for t in targets.values()):
        return targets
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one build at a time; the others wait and reuse it
        for name, target in targets.items():
            if not target.is_file():
                _build(go, name, MODULES[name], target)
    return targets


def _build(go: str, name: str, source: Path, target: Path) -> None:
    env = dict(os.environ)
    env.setdefault("GOFLAGS", "-mod=readonly")
    start = time.monotonic()
    download = subprocess.run([go, "mod", "download"], cwd=source, env=env, capture_output=True, text=True)
    if download.returncode != 0:
        raise LiveUnavailable(f"cannot download {name}'s Go modules (`go mod download` in {source}): "
                              f"{download.stderr.strip()[-600:]}")
    tmp = target.with_name(f"{name}.tmp{os.getpid()}")
    command = [go, "build", "-trimpath", "-o", str(tmp)]
    if name == "kube-apiserver":
        command += ["-ldflags", LDFLAGS]
    build = subprocess.run([*command, "."], cwd=source, env=env, capture_output=True, text=True)
    if build.returncode != 0:
        raise RuntimeError(f"building {source} failed:\n{build.stderr[-4000:]}")
    tmp.replace(target)
    (target.parent / f"{name}.build-seconds").write_text(f"{time.monotonic() - start:.1f}\n")
