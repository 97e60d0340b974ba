"""A real kube-apiserver v1.37.2 on etcd, on 127.0.0.1 only, for the live-cluster tests.

`Etcd.start(folder)` runs etcd; `ApiServer.start(...)` runs kube-apiserver on it (its own etcd
prefix: two servers on one etcd are two clusters) with:

* a serving certificate it generates itself (`--cert-dir`; the kubeconfig trusts that file);
* static tokens (`--token-auth-file`): `admin` (system:masters), `viewer` (no role bound but
  the one a test binds), and a kubeconfig user whose token the server does not know (what an
  expired token looks like to a client: 401);
* RBAC (`--authorization-mode=RBAC`), so that a refusal is the real one;
* `scheduling.k8s.io` v1beta1 and v1alpha3 on (`--runtime-config`) with the workload feature
  gates: without `GenericWorkload` the server serves no Workload or PodGroup and silently drops
  `pod.spec.schedulingGroup`; without `CompositePodGroup` it drops a Workload's
  `compositePodGroupTemplates` (and that gate needs `TopologyAwareWorkloadScheduling`); without
  `PodGroupPreemptionPolicy` it drops `preemptionPolicy`;
* no ServiceAccount admission (no controller-manager creates the `default` service account)
  and no TaintNodesByCondition (nothing would remove a new Node's `not-ready` taint);
* `--endpoint-reconciler-type=none` (no `kubernetes` Service endpoints to keep).

`create(objects)` creates manifests through the API as kubectl would, then writes what only a
subresource takes: a Node's and a Pod's `status` (a Pod's `status.qosClass` is immutable there,
so it is left to the server).
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import ssl
import subprocess
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

ADMIN_TOKEN = "admin-token-for-tests"
VIEWER_TOKEN = "viewer-token-for-tests"
UNKNOWN_TOKEN = "a-token-the-server-does-not-know"
GATES = ("GenericWorkload=true,TopologyAwareWorkloadScheduling=true,CompositePodGroup=true,"
         "PodGroupPreemptionPolicy=true")
RUNTIME_CONFIG = "scheduling.k8s.io/v1beta1=true,scheduling.k8s.io/v1alpha3=true"
READY_SECONDS = 180  # a loaded 2-core machine can take long to start an API server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@dataclass
class Etcd:
    process: subprocess.Popen
    url: str

    @classmethod
    def start(cls, binary: Path, folder: Path) -> Etcd:
        client, peer = free_port(), free_port()
        url = f"http://127.0.0.1:{client}"
        log = open(folder / "etcd.log", "w")
        process = subprocess.Popen(
            [str(binary), "--name", "live-test", "--data-dir", str(folder / "etcd-data"),
             "--listen-client-urls", url, "--advertise-client-urls", url,
             "--listen-peer-urls", f"http://127.0.0.1:{peer}",
             "--initial-advertise-peer-urls", f"http://127.0.0.1:{peer}",
             "--initial-cluster", f"live-test=http://127.0.0.1:{peer}",
             "--unsafe-no-fsync", "--log-level", "warn"],
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        etcd = cls(process, url)
        deadline = time.monotonic() + READY_SECONDS
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(f"etcd exited: {(folder / 'etcd.log').read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(f"{url}/health", timeout=2) as answer:
                    if b"true" in answer.read():
                        return etcd
            except OSError:
                pass
            time.sleep(0.3)
        etcd.stop()
        raise RuntimeError("etcd did not become healthy")

    def stop(self) -> None:
        _stop(self.process)


@dataclass
class ApiServer:
    process: subprocess.Popen
    url: str
    folder: Path
    kubeconfig: Path
    log: Path
    _context: ssl.SSLContext = field(repr=False, default_factory=ssl.create_default_context)

    @classmethod
    def start(cls, binary: Path, etcd: Etcd, folder: Path, prefix: str,
              runtime_config: str = RUNTIME_CONFIG, gates: str = GATES) -> ApiServer:
        folder.mkdir(parents=True, exist_ok=True)
        openssl = shutil.which("openssl")
        if openssl is None:
            raise RuntimeError("openssl is needed to make the service-account key")
        key = folder / "sa.key"
        subprocess.run([openssl, "genrsa", "-out", str(key), "2048"], check=True, capture_output=True)
        tokens = folder / "tokens.csv"
        tokens.write_text(f'{ADMIN_TOKEN},admin,admin-uid,"system:masters"\n{VIEWER_TOKEN},viewer,viewer-uid\n')
        port = free_port()
        log = folder / "kube-apiserver.log"
        process = subprocess.Popen(
            [str(binary), f"--etcd-servers={etcd.url}", f"--etcd-prefix={prefix}",
             "--bind-address=127.0.0.1", "--advertise-address=127.0.0.1", f"--secure-port={port}",
             f"--cert-dir={folder / 'certs'}", f"--token-auth-file={tokens}",
             f"--service-account-key-file={key}", f"--service-account-signing-key-file={key}",
             "--service-account-issuer=https://kubernetes.default.svc",
             "--service-cluster-ip-range=10.0.0.0/24", "--authorization-mode=RBAC",
             "--endpoint-reconciler-type=none", f"--runtime-config={runtime_config}",
             f"--feature-gates={gates}",
             "--disable-admission-plugins=ServiceAccount,TaintNodesByCondition",
             "--enable-priority-and-fairness=false", "--v=0"],
            stdout=open(log, "w"), stderr=subprocess.STDOUT, start_new_session=True)
        url = f"https://127.0.0.1:{port}"
        server = cls(process, url, folder, folder / "kubeconfig", log)
        try:
            server._wait_ready()
        except BaseException:
            server.stop()
            raise
        ca = folder / "certs" / "apiserver.crt"
        server._context = ssl.create_default_context(cafile=str(ca))
        server.kubeconfig.write_text(kubeconfig(url, ca))
        return server

    def _wait_ready(self) -> None:
        unverified = ssl._create_unverified_context()
        deadline = time.monotonic() + READY_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"kube-apiserver exited: {self.log.read_text()[-3000:]}")
            request = urllib.request.Request(f"{self.url}/readyz", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
            try:
                with urllib.request.urlopen(request, timeout=5, context=unverified) as answer:
                    if answer.status == 200:
                        return
            except (OSError, urllib.error.HTTPError):
                pass
            time.sleep(0.5)
        raise RuntimeError(f"kube-apiserver not ready after {READY_SECONDS}s: {self.log.read_text()[-3000:]}")

    def stop(self) -> None:
        _stop(self.process)

    # --- requests, as the admin -------------------------------------------------------------
    def request(self, method: str, path: str, body: Any = None, token: str = ADMIN_TOKEN,
                content_type: str = "application/json") -> Any:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, method=method, headers={
            "Authorization": f"Bearer {token}", "Content-Type": content_type, "Accept": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60, context=self._context) as answer:
                return json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as err:
            raise RuntimeError(f"{method} {path}: {err.code} {err.read()[:800]!r}") from None

    def create(self, objects: Iterable[dict]) -> None:
        """Create each object through the API (as kubectl create would), then its status
        through the status subresource (Nodes, Pods)."""
        for obj in objects:
            path = self.collection(obj)
            body = {k: v for k, v in obj.items() if k != "status"}
            body["metadata"] = {k: v for k, v in obj["metadata"].items()
                                if k not in ("creationTimestamp", "uid", "resourceVersion")}
            created = self.request("POST", path, body)
            status = obj.get("status")
            if status and obj["kind"] in ("Node", "Pod"):
                status = {k: v for k, v in status.items() if k != "qosClass"}
                name = created["metadata"]["name"]
                self.request("PATCH", f"{path}/{name}/status", {"status": status},
                             content_type="application/merge-patch+json")

    def collection(self, obj: dict) -> str:
        api_version, kind = obj["apiVersion"], obj["kind"]
        plural = PLURALS[kind]
        base = f"/apis/{api_version}" if "/" in api_version else f"/api/{api_version}"
        namespace = obj.get("metadata", {}).get("namespace")
        if kind in CLUSTER_SCOPED:
            return f"{base}/{plural}"
        return f"{base}/namespaces/{namespace or 'default'}/{plural}"


PLURALS = {"Node": "nodes", "Pod": "pods", "Namespace": "namespaces", "PriorityClass": "priorityclasses",
           "PodDisruptionBudget": "poddisruptionbudgets", "Service": "services", "Workload": "workloads",
           "PodGroup": "podgroups", "CompositePodGroup": "compositepodgroups", "ClusterRole": "clusterroles",
           "ClusterRoleBinding": "clusterrolebindings", "ReplicaSet": "replicasets", "Job": "jobs"}
CLUSTER_SCOPED = {"Node", "Namespace", "PriorityClass", "ClusterRole", "ClusterRoleBinding"}


def kubeconfig(url: str, ca: Path) -> str:
    users = (("admin", ADMIN_TOKEN), ("viewer", VIEWER_TOKEN), ("expired", UNKNOWN_TOKEN))
    return json.dumps({
        "apiVersion": "v1", "kind": "Config", "current-context": "admin",
        "clusters": [{"name": "live-test", "cluster": {"server": url, "certificate-authority": str(ca)}}],
        "users": [{"name": n, "user": {"token": t}} for n, t in users],
        "contexts": [{"name": n, "context": {"cluster": "live-test", "user": n}} for n, _ in users],
    }, indent=2)


def environment_without_kubeconfig() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("KUBECONFIG", None)
    return env
