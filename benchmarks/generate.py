"""Generate scheduler_perf-shaped inputs for a `Case`: manifests on disk, or model objects.

    python -m benchmarks.generate basic-5k-10k --out /tmp/bench [--format json|yaml] [--style kubectl|minimal]

writes one file per kind into `OUT/CASE.STYLE.FORMAT.vN/`: `nodes`, `pods-running`,
`pods-pending`, `podgroups`. `json` files are `kind: List` documents laid out as
`kubectl get -o json` writes them (four-space indent); `json-compact` is the same List on one
line (`jq -c`, raw API responses); `yaml` files are multi-document streams (`---`), as people
write manifests.

Two document styles:

* `kubectl` (default): what the API server returns for upstream's templates, i.e. the fields
  admission and defaulting add (default tolerations, dnsPolicy, terminationMessagePath, ...) and,
  for running pods, a status with conditions and a container status. This is what a user feeds
  the planner after `kubectl get pods -A -o json`, so load figures are for this style.
* `minimal`: only the fields the planner reads. For comparing, not for the headline figures.

`cluster_input(case)` builds the same cluster directly as `podgroup_plan.model.objects`, as the
decoder would, so that plan time can be measured without the loader (and before it exists).

Everything is deterministic: names are zero-padded so that name order is index order, and
creation timestamps increase with the index (running pods first, then plain pods, then gangs).
"""
from __future__ import annotations

import argparse
import os
import re
import sys
from datetime import datetime, timedelta, timezone
from typing import Iterator

import orjson

from benchmarks import mixed, users
from benchmarks.cases import ALL, Case, Mi

NAMESPACE = "default"
PAUSE_IMAGE = "registry.k8s.io/pause:3.10.1"
PODGROUP_API_VERSION = "scheduling.k8s.io/v1beta1"
HOSTNAME_LABEL = "kubernetes.io/hostname"
ZONE_LABEL = "topology.kubernetes.io/zone"
RACK_LABEL = "topology.kubernetes.io/rack"
STYLES = ("kubectl", "minimal")
FORMATS = ("json", "json-compact", "yaml")
FILES = ("nodes", "pods-running", "pods-pending", "podgroups")
# Bump when the documents change, so cached inputs are regenerated.
GENERATOR_VERSION = 3

_EPOCH = datetime(2025, 1, 1, tzinfo=timezone.utc)
# kube-scheduler's non-zero defaults apply only to containers without requests; ours have them.
_DEFAULT_TOLERATIONS = [
    {"effect": "NoExecute", "key": "node.kubernetes.io/not-ready", "operator": "Exists", "tolerationSeconds": 300},
    {"effect": "NoExecute", "key": "node.kubernetes.io/unreachable", "operator": "Exists", "tolerationSeconds": 300},
]


# ----- names, labels, quantities ----------------------------------------------------------------


def node_name(i: int) -> str:
    return f"node-{i:05d}"


def gang_name(g: int) -> str:
    return f"gang-{g:05d}"


def node_labels(case: Case, i: int) -> dict[str, str]:
    """upstream tas-node.yaml: hostname, rack (index // 100), zone (index // 1000)."""
    return {
        HOSTNAME_LABEL: node_name(i),
        RACK_LABEL: f"rack-{i // case.nodes_per_rack}",
        ZONE_LABEL: f"zone-{i // case.nodes_per_zone}",
    }


def cpu_text(milli: int) -> str:
    return str(milli // 1000) if milli % 1000 == 0 else f"{milli}m"


def memory_text(amount: int) -> str:
    for suffix, unit in (("Gi", 2**30), ("Mi", Mi), ("Ki", 2**10)):
        if amount % unit == 0:
            return f"{amount // unit}{suffix}"
    return str(amount)


def timestamp(seconds: int) -> str:
    return (_EPOCH + timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%SZ")


def _uid(kind: int, i: int) -> str:
    return f"{kind:08x}-0000-4000-8000-{i:012x}"


# ----- the pods of a case, as plain tuples ------------------------------------------------------
# (name, cpu_m, memory, priority, node index or None, pod group or None, limits?, creation second,
#  shape or None: the heterogeneous shape of benchmarks/mixed.py)


def _pod_specs(case: Case) -> Iterator[tuple]:
    yield from _running_specs(case)
    yield from _pending_specs(case)


def _running_specs(case: Case) -> Iterator[tuple]:
    for j in range(case.running_pods):
        yield (f"running-{j:06d}", case.running_cpu_m, case.running_memory, case.running_priority,
               j % case.nodes, None, True, j, None)


def _pending_specs(case: Case) -> Iterator[tuple]:
    t = case.running_pods
    for j in range(case.pending_pods):
        if case.pod_shapes:
            shape = j % case.pod_shapes
            cpu_m, memory = mixed.shape_requests(shape)
            yield (f"pod-{j:06d}", cpu_m, memory, case.pending_priority, None, None, True, t + j, shape)
            continue
        yield (f"pod-{j:06d}", case.pod_cpu_m, case.pod_memory, case.pending_priority, None, None, True, t + j, None)
    t += case.pending_pods
    for g in range(case.gangs):
        for k in range(case.gang_size):
            # gang-pod.yaml sets requests only (no limits)
            yield (f"{gang_name(g)}-{k:04d}", case.gang_cpu_m, case.gang_memory, case.gang_priority, None,
                   gang_name(g), False, t + g, None)


# ----- documents --------------------------------------------------------------------------------


def node_doc(case: Case, i: int, style: str = "kubectl") -> dict:
    resources = {"cpu": cpu_text(case.node_cpu_m), "memory": memory_text(case.node_memory), "pods": str(case.node_pods)}
    labels = node_labels(case, i)
    spec: dict = {}
    if case.pod_shapes:
        extra, allocatable, taints = mixed.node_spec(case, i)
        labels.update(extra)
        labels[mixed.OS_LABEL] = "linux"
        resources = {"cpu": cpu_text(allocatable["cpu"]), "memory": memory_text(allocatable["memory"]),
                     "pods": str(allocatable["pods"])}
        if taints:
            spec["taints"] = taints
    doc = {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": node_name(i), "labels": labels},
        "spec": spec,
        "status": {"capacity": dict(resources), "allocatable": resources},
    }
    if style == "kubectl":
        doc["metadata"].update(
            uid=_uid(1, i), resourceVersion=str(1000 + i), creationTimestamp=timestamp(0)
        )
        doc["metadata"]["labels"].update({"kubernetes.io/arch": "amd64", "kubernetes.io/os": "linux"})
        doc["status"].update(
            conditions=[{
                "type": "Ready", "status": "True", "reason": "KubeletReady",
                "message": "kubelet is posting ready status",
                "lastHeartbeatTime": timestamp(0), "lastTransitionTime": timestamp(0),
            }],
            phase="Running",
            nodeInfo={
                "architecture": "amd64", "operatingSystem": "linux", "kubeletVersion": "v1.37.0",
                "containerRuntimeVersion": "containerd://2.1.0", "kernelVersion": "6.8.0",
                "osImage": "Ubuntu 24.04 LTS", "kubeProxyVersion": "", "bootID": "", "machineID": "",
                "systemUUID": "",
            },
        )
    return doc


def pod_doc(case: Case, spec: tuple, style: str = "kubectl", uid_index: int = 0) -> dict:
    name, cpu_m, memory, priority, node, group, limits, created, shape = spec
    resources: dict = {"requests": {"cpu": cpu_text(cpu_m), "memory": memory_text(memory)}}
    if limits:
        resources["limits"] = dict(resources["requests"])
    container: dict = {"name": "pause", "image": PAUSE_IMAGE, "resources": resources}
    doc: dict = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": NAMESPACE, "creationTimestamp": timestamp(created)},
        "spec": {"containers": [container]},
        "status": {"phase": "Pending" if node is None else "Running"},
    }
    spec_ = doc["spec"]
    if priority:
        spec_["priority"] = priority
    if node is not None:
        spec_["nodeName"] = node_name(node)
    if group is not None:
        spec_["schedulingGroup"] = {"podGroupName": group}
    if shape is not None:
        doc["metadata"]["labels"] = mixed.pod_labels(shape)
        spec_.update(mixed.pod_spec_fields(case, shape))
    if style == "kubectl":
        doc["metadata"].update(uid=_uid(2, uid_index), resourceVersion=str(10_000 + uid_index))
        doc["metadata"].setdefault("labels", {"app": "scheduler-perf"})
        container.update(
            imagePullPolicy="IfNotPresent",
            ports=[{"containerPort": 80, "protocol": "TCP"}],
            terminationMessagePath="/dev/termination-log",
            terminationMessagePolicy="File",
        )
        spec_.update(
            dnsPolicy="ClusterFirst", enableServiceLinks=True, preemptionPolicy="PreemptLowerPriority",
            priority=priority, restartPolicy="Always", schedulerName="default-scheduler",
            securityContext={}, serviceAccount="default", serviceAccountName="default",
            terminationGracePeriodSeconds=30,
            tolerations=spec_.get("tolerations", []) + [dict(t) for t in _DEFAULT_TOLERATIONS],
        )
        status = doc["status"]
        status["qosClass"] = "Guaranteed" if limits else "Burstable"
        if node is not None:
            started = timestamp(created + 5)
            status.update(
                conditions=[
                    {"type": t, "status": "True", "lastProbeTime": None, "lastTransitionTime": started}
                    for t in ("PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady", "PodScheduled")
                ],
                hostIP=f"10.0.{node // 250}.{node % 250 + 1}",
                podIP=f"10.{64 + uid_index // 65536}.{uid_index // 256 % 256}.{uid_index % 256}",
                startTime=started,
                containerStatuses=[{
                    "name": "pause", "image": PAUSE_IMAGE, "imageID": PAUSE_IMAGE + "@sha256:" + "0" * 64,
                    "containerID": f"containerd://{uid_index:064x}", "ready": True, "restartCount": 0,
                    "started": True, "lastState": {}, "state": {"running": {"startedAt": started}},
                }],
            )
    return doc


def podgroup_doc(case: Case, g: int, style: str = "kubectl") -> dict:
    spec: dict = {"schedulingPolicy": {"gang": {"minCount": case.min_count or case.gang_size}}}
    if case.gang_topology_key:
        spec["schedulingConstraints"] = {"topology": [{"key": case.gang_topology_key}]}
    if case.gang_priority:
        spec["priority"] = case.gang_priority
    doc = {
        "apiVersion": PODGROUP_API_VERSION,
        "kind": "PodGroup",
        "metadata": {
            "name": gang_name(g), "namespace": NAMESPACE,
            "creationTimestamp": timestamp(case.running_pods + case.pending_pods + g),
        },
        "spec": spec,
    }
    if style == "kubectl":
        doc["metadata"].update(uid=_uid(3, g), resourceVersion=str(5000 + g))
        spec["disruptionMode"] = {"single": {}}
        spec["preemptionPolicy"] = "PreemptLowerPriority"
    return doc


def documents(case: Case, style: str = "kubectl") -> dict[str, Iterator[dict]]:
    """file stem -> its documents (generated lazily), for the files the case has."""
    if case.generator:
        return users.documents(case)
    out: dict[str, Iterator[dict]] = {"nodes": (node_doc(case, i, style) for i in range(case.nodes))}
    if case.running_pods:
        out["pods-running"] = (pod_doc(case, s, style, n) for n, s in enumerate(_running_specs(case)))
    if case.pending_total:
        base = case.running_pods
        out["pods-pending"] = (pod_doc(case, s, style, base + n) for n, s in enumerate(_pending_specs(case)))
    if case.gangs:
        out["podgroups"] = (podgroup_doc(case, g, style) for g in range(case.gangs))
    return out


# ----- writing ----------------------------------------------------------------------------------


def case_dir(root: str, case: Case, fmt: str = "json", style: str = "kubectl") -> str:
    return os.path.join(root, f"{case.name}.{style}.{fmt}.v{GENERATOR_VERSION}")


def write_case(case: Case, root: str, fmt: str = "json", style: str = "kubectl") -> str:
    """Write the case's manifests (if not already there) and return their folder."""
    if fmt not in FORMATS or style not in STYLES:
        raise ValueError(f"format {fmt!r} / style {style!r}")
    folder = case_dir(root, case, fmt, style)
    done = os.path.join(folder, ".complete")
    if os.path.exists(done):
        return folder
    os.makedirs(folder, exist_ok=True)
    writer = {"json": _write_json_list, "json-compact": _write_json_compact, "yaml": _write_yaml_stream}[fmt]
    for stem, docs in documents(case, style).items():
        path = os.path.join(folder, f"{stem}.{'yaml' if fmt == 'yaml' else 'json'}")
        with open(path + ".tmp", "wb") as fh:
            writer(fh, docs)
        os.replace(path + ".tmp", path)
    with open(done, "w") as fh:
        fh.write(f"{case}\n")
    return folder


def _write_json_list(fh, docs) -> None:
    """A `kind: List` laid out as `kubectl get -o json` writes it (Go's MarshalIndent, four
    spaces; items at depth two)."""
    fh.write(b'{\n    "apiVersion": "v1",\n    "items": [\n')
    first = True
    for doc in docs:
        if not first:
            fh.write(b",\n")
        first = False
        text = orjson.dumps(doc, option=orjson.OPT_INDENT_2)
        fh.write(_KUBECTL_INDENT.sub(_double_indent, text))
    fh.write(b'\n    ],\n    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    }\n}\n')


_KUBECTL_INDENT = re.compile(rb"^( *)", re.MULTILINE)


def _double_indent(m: re.Match) -> bytes:
    return b"        " + m.group(1) * 2


def _write_json_compact(fh, docs) -> None:
    """The same List on one line (`jq -c`, API responses): no line structure to split on."""
    fh.write(b'{"apiVersion":"v1","items":[')
    first = True
    for doc in docs:
        if not first:
            fh.write(b",")
        first = False
        fh.write(orjson.dumps(doc))
    fh.write(b'],"kind":"List","metadata":{"resourceVersion":""}}\n')


def _write_yaml_stream(fh, docs) -> None:
    import yaml

    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    first = True
    for doc in docs:
        if not first:
            fh.write(b"---\n")
        first = False
        fh.write(yaml.dump(doc, Dumper=dumper, sort_keys=False, default_flow_style=False).encode())


# ----- model objects, as the decoder would build them -------------------------------------------


def cluster_input(case: Case):
    """The case as a `ClusterInput`, built without reading any file."""
    if case.pod_shapes or case.generator:
        return _decoded_input(case)
    from podgroup_plan.model.cluster_input import ClusterInput
    from podgroup_plan.model.objects import GANG, Node, Pod, PodGroup, Toleration

    nodes = tuple(
        Node(
            name=node_name(i),
            labels={**node_labels(case, i), "kubernetes.io/arch": "amd64", "kubernetes.io/os": "linux"},
            allocatable={"cpu": case.node_cpu_m, "memory": case.node_memory, "pods": case.node_pods},
        )
        for i in range(case.nodes)
    )
    tolerations = tuple(Toleration(t["key"], t["operator"], "", t["effect"]) for t in _DEFAULT_TOLERATIONS)
    images = (PAUSE_IMAGE,)
    labels = {"app": "scheduler-perf"}
    request_cache: dict[tuple[int, int], dict] = {}
    pods = []
    for n, (name, cpu_m, memory, priority, node, group, _limits, created, _shape) in enumerate(_pod_specs(case)):
        requests = request_cache.setdefault((cpu_m, memory), {"cpu": cpu_m, "memory": memory})
        pods.append(Pod(
            namespace=NAMESPACE, name=name, labels=labels,
            node_name=None if node is None else node_name(node),
            priority=priority, requests=requests, non_zero_cpu=cpu_m, non_zero_memory=memory,
            tolerations=tolerations, images=images, pod_group=group,
            creation_timestamp=timestamp(created), phase="Pending" if node is None else "Running",
            uid=_uid(2, n),
        ))
    pods.sort(key=lambda p: (p.namespace, p.name))
    groups = tuple(
        PodGroup(
            namespace=NAMESPACE, name=gang_name(g), api_version=PODGROUP_API_VERSION, policy=GANG,
            min_count=case.min_count or case.gang_size, topology_key=case.gang_topology_key,
            priority=case.gang_priority or None,
            creation_timestamp=timestamp(case.running_pods + case.pending_pods + g),
        )
        for g in range(case.gangs)
    )
    return ClusterInput(nodes=nodes, pods=tuple(pods), pod_groups=groups)


def _decoded_input(case: Case):
    """A heterogeneous case: its documents (minimal style) through the loader's own checks and
    decoders, in memory (affinity and spreading objects are the decoder's to build)."""
    from podgroup_plan.loading import check_and_decode
    from podgroup_plan.loading.documents import Document

    docs = (Document(doc, f"<{stem}>", n + 1, None)
            for stem, stream in documents(case, "minimal").items() for n, doc in enumerate(stream))
    decoded, ignored, issues = check_and_decode(docs)
    if issues:
        raise ValueError("; ".join(f"{i.doc.file} document {i.doc.document}: {i.message}" for i in issues[:5]))
    return decoded.cluster_input(ignored)


# ----- command line -----------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.generate", description=__doc__.split("\n\n")[0])
    ap.add_argument("cases", nargs="+", metavar="CASE", help=f"one of: {', '.join(ALL)}")
    ap.add_argument("--out", required=True, help="root folder; each case goes to OUT/CASE.STYLE.FORMAT.vN/")
    ap.add_argument("--format", choices=FORMATS, default="json")
    ap.add_argument("--style", choices=STYLES, default="kubectl")
    args = ap.parse_args(argv)
    for name in args.cases:
        if name not in ALL:
            ap.error(f"unknown case {name!r}; known: {', '.join(ALL)}")
        print(write_case(ALL[name], args.out, args.format, args.style))
    return 0


if __name__ == "__main__":
    sys.exit(main())
