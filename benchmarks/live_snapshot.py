"""`podgroup-plan snapshot`'s peak memory against a real API server as the cluster grows (issue
32: "paged so 5,000 nodes and 150,000 pods come in bounded memory"). A figure, not a test.

    python -m benchmarks.live_snapshot                       # 5,000 nodes; 0, 20k, 60k, 100k, 150k pods
    python -m benchmarks.live_snapshot --stages 2000,10000   # smaller

Starts etcd and kube-apiserver v1.37.2 as tests/live does (the binaries tests/live/live_build.py
built and cached; Go is needed the first time), creates the nodes (and their status), ten
namespaces and, stage by stage, bound pods (one container with requests, limits and env, three
labels, a ReplicaSet owner, a toleration: about 1.5 KB of YAML each), each POSTed once over
keep-alive connections from 12 threads; after each stage it runs the installed
`podgroup-plan snapshot` under `/usr/bin/time -v` and prints its peak RSS, CPU and wall time and
the load average. Everything lives in a temporary folder removed at the end."""
from __future__ import annotations

import argparse
import http.client
import json
import shutil
import ssl
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

LIVE = Path(__file__).resolve().parents[1] / "tests" / "live"
sys.path.insert(0, str(LIVE))
from live_build import binaries  # noqa: E402 - the test harness, by path
from live_server import ADMIN_TOKEN, ApiServer, Etcd  # noqa: E402

NAMESPACES = 10


class Poster:
    """POSTs over one keep-alive TLS connection per thread (a new connection per request costs
    a handshake, which is most of a create's time)."""

    def __init__(self, server: ApiServer, ca: Path) -> None:
        host, port = server.url.removeprefix("https://").rsplit(":", 1)
        self.host, self.port, self.ca = host, int(port), str(ca)
        self.local = threading.local()

    def _connection(self, fresh: bool = False) -> http.client.HTTPSConnection:
        if fresh or getattr(self.local, "conn", None) is None:
            context = ssl.create_default_context(cafile=self.ca)
            self.local.conn = http.client.HTTPSConnection(self.host, self.port, context=context, timeout=120)
        return self.local.conn

    def post(self, path: str, body: dict) -> None:
        data = json.dumps(body).encode()
        headers = {"Authorization": f"Bearer {ADMIN_TOKEN}", "Content-Type": "application/json"}
        for _ in range(5):
            conn = self._connection()
            try:
                conn.request("POST", path, data, headers)
                answer = conn.getresponse()
                text = answer.read()
            except (OSError, http.client.HTTPException):
                self._connection(fresh=True)
                continue
            if answer.status in (200, 201, 409):  # 409: already there (a retried create)
                return
            if answer.status == 429 or answer.status >= 500:
                time.sleep(1)
                continue
            raise RuntimeError(f"POST {path}: {answer.status} {text[:300]!r}")
        raise RuntimeError(f"POST {path}: no answer after five tries")


def node(i: int) -> dict:
    name = f"node-{i:05d}"
    return {"apiVersion": "v1", "kind": "Node",
            "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name,
                                                  "topology.kubernetes.io/zone": f"zone-{i % 4}"}},
            "spec": {},
            "status": {"capacity": {"cpu": "32", "memory": "128Gi", "pods": "110"},
                       "allocatable": {"cpu": "32", "memory": "128Gi", "pods": "110"},
                       "conditions": [{"type": "Ready", "status": "True", "reason": "KubeletReady",
                                       "lastHeartbeatTime": "2026-06-01T00:00:00Z",
                                       "lastTransitionTime": "2026-06-01T00:00:00Z"}]}}


def pod(i: int, nodes: int) -> dict:
    namespace, app = f"team-{i % NAMESPACES}", f"app-{i // 30:05d}"
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {
        "name": f"{app}-{i:06d}", "namespace": namespace,
        "labels": {"app": app, "team": namespace, "pod-template-hash": "5d8f7c9b4"},
        "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": f"{app}-5d8f7c9b4",
                             "uid": f"00000000-0000-0000-0000-{i // 30:012d}", "controller": True}]},
        "spec": {"nodeName": f"node-{i % nodes:05d}",
                 "containers": [{"name": "main", "image": f"registry.example.com/{app}:v1.2.3",
                                 "resources": {"requests": {"cpu": "100m", "memory": "256Mi"},
                                               "limits": {"memory": "512Mi"}},
                                 "env": [{"name": "MODE", "value": "production"},
                                         {"name": "SHARD", "value": str(i % 16)}]}],
                 "tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists",
                                  "effect": "NoExecute", "tolerationSeconds": 300}]}}


def measure(kubeconfig: Path, out: Path, pods: int) -> None:
    started = time.monotonic()
    done = subprocess.run(["/usr/bin/time", "-v", shutil.which("podgroup-plan") or "podgroup-plan", "snapshot",
                           "--kubeconfig", str(kubeconfig), "-o", str(out)], capture_output=True, text=True)
    wall = time.monotonic() - started
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-2000:])
    fields = {}
    for line in done.stderr.splitlines():
        key, _, value = line.strip().partition(": ")
        fields[key] = value
    rss_mib = int(fields["Maximum resident set size (kbytes)"]) / 1024
    cpu = float(fields["User time (seconds)"]) + float(fields["System time (seconds)"])
    size = sum(p.stat().st_size for p in out.iterdir()) / 2**20
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    print(f"| {pods:,} | {rss_mib:.0f} | {cpu:.1f} | {wall:.0f} | {size:.0f} | {load} |", flush=True)
    shutil.rmtree(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=5000)
    parser.add_argument("--stages", default="20000,60000,100000,150000", help="pod totals to measure at")
    args = parser.parse_args()
    found = binaries()
    with tempfile.TemporaryDirectory(prefix="podgroup-plan-live-bench-") as scratch:
        root = Path(scratch)
        etcd = Etcd.start(found["etcd"], root)
        try:
            server = ApiServer.start(found["kube-apiserver"], etcd, root / "api", "/bench")
            try:
                poster = Poster(server, root / "api" / "certs" / "apiserver.crt")
                for n in range(NAMESPACES):
                    poster.post("/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace",
                                                       "metadata": {"name": f"team-{n}"}})
                with ThreadPoolExecutor(8) as pool:  # a node's status goes through the subresource
                    list(pool.map(lambda i: server.create([node(i)]), range(args.nodes)))
                print(f"{args.nodes:,} nodes\n\n| pods | peak RSS MiB | CPU s | wall s | snapshot MiB | load |\n"
                      "| --- | --- | --- | --- | --- | --- |", flush=True)
                measure(server.kubeconfig, root / "snap", 0)
                made = 0
                for total in (int(s) for s in args.stages.split(",")):
                    with ThreadPoolExecutor(12) as pool:
                        list(pool.map(lambda i: poster.post(f"/api/v1/namespaces/team-{i % NAMESPACES}/pods",
                                                            pod(i, args.nodes)), range(made, total)))
                    made = total
                    measure(server.kubeconfig, root / "snap", made)
            finally:
                server.stop()
        finally:
            etcd.stop()


if __name__ == "__main__":
    main()
