"""The API server as the oracle of input validation: the same manifests given to the tool's
`validate` and created through a real kube-apiserver v1.37.2, the problems of each object
compared.

`server_problems(server, objects)` creates each object as `kubectl create` would (strict field
validation), in order, so that later objects see earlier ones (a PodGroup its Workload, a Pod
its PriorityClass); what the server refuses becomes one line per `field.Error` it gave
(`KIND NS/NAME: PATH: MESSAGE`, its Status causes), or one line with the HTTP code for a
refusal that is not a field error (a decoding error, an admission plugin's Forbidden). What it
created is deleted afterwards (not the namespaces: no namespace controller runs to finish
deleting them, and they are harmless to keep).

`tool_problems(folder)` runs `podgroup-plan validate` on the files and gives its lines in the
same shape (without `FILE:LINE: `).
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Iterable

from live_server import ADMIN_TOKEN, CLUSTER_SCOPED, ApiServer

# Every kind the tool validates as the API server does, with the resource the server serves it
# under (the tool's CRD kinds are left out: the server has no CRDs installed).
PLURALS = {
    "Node": "nodes", "Pod": "pods", "Namespace": "namespaces", "PriorityClass": "priorityclasses",
    "PodDisruptionBudget": "poddisruptionbudgets", "Service": "services", "Workload": "workloads",
    "PodGroup": "podgroups", "CompositePodGroup": "compositepodgroups", "ReplicaSet": "replicasets",
    "Job": "jobs", "CronJob": "cronjobs", "Deployment": "deployments", "StatefulSet": "statefulsets",
    "DaemonSet": "daemonsets", "ReplicationController": "replicationcontrollers",
    "LimitRange": "limitranges", "RuntimeClass": "runtimeclasses",
}
CLUSTER = CLUSTER_SCOPED | {"RuntimeClass"}
SERVED_VERSIONS = {"scheduling.k8s.io/v1beta1", "scheduling.k8s.io/v1alpha3", "scheduling.k8s.io/v1",
                   "v1", "apps/v1", "batch/v1", "policy/v1", "node.k8s.io/v1"}

_LINE = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+): (?P<rest>.*)$")


def served(obj: Any) -> bool:
    """Whether the test server can take this object at all (a kind and version it serves)."""
    return (isinstance(obj, dict) and obj.get("kind") in PLURALS
            and obj.get("apiVersion") in SERVED_VERSIONS and isinstance(obj.get("metadata"), dict)
            and isinstance(obj["metadata"].get("name"), str))


def identity(obj: dict) -> str:
    meta = obj.get("metadata") or {}
    name = meta.get("name", "")
    if obj["kind"] in CLUSTER:
        return f"{obj['kind']} {name}"
    return f"{obj['kind']} {meta.get('namespace') or 'default'}/{name}"


def _path(obj: dict, name: str | None = None) -> str:
    api_version, kind = obj["apiVersion"], obj["kind"]
    base = f"/apis/{api_version}" if "/" in api_version else f"/api/{api_version}"
    meta = obj.get("metadata") or {}
    collection = (f"{base}/{PLURALS[kind]}" if kind in CLUSTER
                  else f"{base}/namespaces/{meta.get('namespace') or 'default'}/{PLURALS[kind]}")
    return collection if name is None else f"{collection}/{name}"


def _call(server: ApiServer, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(server.url + path, data=data, method=method, headers={
        "Authorization": f"Bearer {ADMIN_TOKEN}", "Content-Type": "application/json",
        "Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60, context=server._context) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as err:
        raw = err.read()
        try:
            return err.code, json.loads(raw)
        except ValueError:
            return err.code, {"message": raw.decode(errors="replace")}


def server_problems(server: ApiServer, objects: Iterable[dict]) -> list[str]:
    """What the server refuses, one line per field error, created in order and then deleted."""
    objects = [o for o in objects if served(o)]
    namespaces = sorted({(o.get("metadata") or {}).get("namespace") or "default"
                         for o in objects if o["kind"] not in CLUSTER})
    for namespace in namespaces:
        if isinstance(namespace, str):
            _call(server, "POST", "/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace",
                                                         "metadata": {"name": namespace}})
    lines: list[str] = []
    created: list[dict] = []
    for obj in objects:
        code, answer = _call(server, "POST", _path(obj) + "?fieldValidation=Strict", obj)
        if code < 300:
            created.append(answer)
            continue
        who = identity(obj)
        causes = ((answer or {}).get("details") or {}).get("causes") or []
        if code == 422 and causes:
            for cause in causes:
                field = cause.get("field", "")
                lines.append(f"{who}: {field}: {cause.get('message', '')}" if field
                             else f"{who}: {cause.get('message', '')}")
        else:
            lines.append(f"{who}: HTTP {code}: {(answer or {}).get('message', '')}")
    for obj in reversed(created):
        if obj.get("kind") != "Namespace":
            _delete(server, obj)
    return lines


def _delete(server: ApiServer, obj: dict) -> None:
    """Delete an object and wait until it is gone: no controller runs here to finish what a
    finalizer waits for (a PodGroup's), so the finalizers are cleared by hand."""
    path = _path(obj, obj["metadata"]["name"])
    _call(server, "DELETE", path + "?gracePeriodSeconds=0")
    for _ in range(100):
        code, answer = _call(server, "GET", path)
        if code == 404:
            return
        if (answer or {}).get("metadata", {}).get("finalizers"):
            _patch(server, path, {"metadata": {"finalizers": None}})
        time.sleep(0.05)
    raise RuntimeError(f"{path} was not deleted")


def _patch(server: ApiServer, path: str, body: Any) -> None:
    request = urllib.request.Request(server.url + path, data=json.dumps(body).encode(), method="PATCH", headers={
        "Authorization": f"Bearer {ADMIN_TOKEN}", "Content-Type": "application/merge-patch+json"})
    try:
        urllib.request.urlopen(request, timeout=60, context=server._context).read()
    except urllib.error.HTTPError:
        pass  # gone meanwhile


def tool_problems(files: list[Path]) -> list[str]:
    """`podgroup-plan validate` on the files: its problem lines without the `FILE:LINE: `."""
    done = subprocess.run([sys.executable, "-m", "podgroup_plan", "validate", *map(str, files)],
                          capture_output=True, text=True, check=False)
    lines = []
    for line in done.stderr.splitlines():
        match = _LINE.match(line)
        if match:
            lines.append(match.group("rest"))
    return lines
