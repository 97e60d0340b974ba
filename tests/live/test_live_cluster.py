"""`podgroup-plan snapshot`, `--from-cluster`, `--anonymize` and the kubectl plugin against a REAL
kube-apiserver v1.37.2 on etcd (conftest.py; built once from the Go module proxy, skipped with
the reason where Go is absent): the demo's objects are created through the API, read back, and
planned; paging, kinds not served, RBAC refusals, bad credentials and a server that goes away
mid-read are the server's own behaviour, not a mock's."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from live_server import ApiServer, environment_without_kubeconfig

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "fixtures"
# The demo's files a 1.37 server can take: it serves neither v1alpha1 nor v1alpha2 of
# scheduling.k8s.io, so the two workloads written in those versions stay out.
SERVED_WORKLOADS = sorted(p for p in (FIXTURES / "workloads").glob("*.yaml")
                          if "v1alpha1" not in p.name and "v1alpha2" not in p.name)
DEMO_FILES = sorted((FIXTURES / "cluster").glob("*.yaml")) + SERVED_WORKLOADS
ORDER = {"Namespace": 0, "PriorityClass": 1, "Node": 2}
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "podgroup_plan", *args], capture_output=True, text=True,
                          env=env or environment_without_kubeconfig(), timeout=600)


def demo_objects() -> list[dict]:
    """The demo's objects, one by one (Lists opened): namespaces, priority classes and nodes
    first, then by the files' creationTimestamp."""
    out = []
    for path in DEMO_FILES:
        for doc in yaml.load_all(path.read_text(), Loader=LOADER):
            if not doc:
                continue
            out += doc["items"] if doc.get("kind") == "List" else [doc]
    return sorted(out, key=lambda o: (ORDER.get(o["kind"], 3), str(o["metadata"].get("creationTimestamp", ""))))


@pytest.fixture(scope="session")
def demo(apiserver: ApiServer) -> ApiServer:
    """The demo's cluster, created through the API once (Namespaces the server made itself,
    `default` and `kube-system`, and its two system PriorityClasses are kept as it made them)."""
    existing = {(o["kind"], o["metadata"]["name"]) for o in demo_objects() if o["kind"] in ("Namespace", "PriorityClass")
                and (o["metadata"]["name"] in ("default", "kube-system") or o["metadata"]["name"].startswith("system-"))}
    from concurrent.futures import ThreadPoolExecutor

    todo = [o for o in demo_objects() if (o["kind"], o["metadata"]["name"]) not in existing]
    first = [o for o in todo if o["kind"] in ("Namespace", "PriorityClass")]  # pods need them at admission
    apiserver.create(first)
    with ThreadPoolExecutor(8) as pool:  # the order does not matter: the server's times are compared
        list(pool.map(lambda o: apiserver.create([o]), [o for o in todo if o not in first]))
    return apiserver


@pytest.fixture(scope="session")
def demo_snapshot(demo: ApiServer, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess]:
    """One snapshot of the demo's cluster (a folder), read by the tests that only look at it."""
    target = tmp_path_factory.mktemp("demo-snapshot") / "snap"
    done = snapshot(demo, target)
    assert done.returncode == 0, done.stderr
    return target, done


def snapshot(server: ApiServer, target: Path, *extra: str, context: str = "admin") -> subprocess.CompletedProcess:
    return run("snapshot", "--kubeconfig", str(server.kubeconfig), "--context", context, "-o", str(target), *extra)


def plan(*paths: Path | str, extra: tuple[str, ...] = ()) -> dict:
    done = run("simulate", *map(str, paths), "-o", "json", *extra)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


def read_lists(folder: Path) -> dict[str, list[dict]]:
    """kind -> items of every List in the snapshot folder."""
    out: dict[str, list[dict]] = {}
    for path in sorted(folder.glob("*.yaml")):
        doc = yaml.load(path.read_text(), Loader=LOADER)
        assert doc["apiVersion"] == "v1" and doc["kind"] == "List", path
        for item in doc["items"]:
            out.setdefault(item["kind"], []).append(item)
    return out


def with_server_times(files: list[Path], snapshot_dir: Path, out: Path) -> list[Path]:
    """The demo's files with each object's creationTimestamp the one the API server gave it
    (the server owns it: an object cannot be created with its own). Everything else as written."""
    times = {(i["kind"], i["metadata"].get("namespace", ""), i["metadata"]["name"]): i["metadata"]["creationTimestamp"]
             for items in read_lists(snapshot_dir).values() for i in items}
    written = []
    for path in files:
        docs = [d for d in yaml.load_all(path.read_text(), Loader=LOADER) if d]
        for doc in docs:
            for obj in doc["items"] if doc.get("kind") == "List" else [doc]:
                key = (obj["kind"], obj["metadata"].get("namespace", ""), obj["metadata"]["name"])
                if key in times:
                    obj["metadata"]["creationTimestamp"] = times[key]
        target = out / f"{path.parent.name}-{path.name}"
        target.write_text(yaml.safe_dump_all(docs, sort_keys=False))
        written.append(target)
    return written


def placements(result: dict) -> dict[str, Any]:
    """What a plan decided: each pod's node, status and message, each group's status."""
    pods = {f"{p['namespace']}/{p['name']}": (p.get("node"), p.get("status"), p.get("message")) for p in result["pods"]}
    groups = {f"{g['namespace']}/{g['name']}": (g.get("status"), g.get("message")) for g in result.get("podGroups", ())}
    return {"pods": pods, "podGroups": groups, "summary": result["summary"]}


# --- the demo, read back --------------------------------------------------------------------------

def test_snapshot_of_the_demo_plans_as_the_demo_files(demo_snapshot: tuple, tmp_path: Path) -> None:
    snap, done = demo_snapshot
    assert "wrote" in done.stderr and "pods" in done.stderr
    expected = with_server_times(DEMO_FILES, snap, tmp_path)
    got, want = plan(snap), plan(*expected)
    assert placements(got) == placements(want)
    assert sum(1 for p in got["pods"] if p.get("status") == "Scheduled") > 0


def test_snapshot_is_a_list_per_kind_without_managed_fields(demo_snapshot: tuple) -> None:
    snap, _ = demo_snapshot
    lists = read_lists(snap)
    names = {p.name for p in snap.glob("*.yaml")}
    assert {"nodes.yaml", "pods.yaml", "priorityclasses.scheduling.k8s.io.yaml",
            "podgroups.scheduling.k8s.io.yaml", "workloads.scheduling.k8s.io.yaml",
            "compositepodgroups.scheduling.k8s.io.yaml"} <= names
    demo_pods = [o for o in demo_objects() if o["kind"] == "Pod"]
    assert len(lists["Pod"]) == len(demo_pods)
    for items in lists.values():
        for item in items:
            assert "managedFields" not in item["metadata"]
            assert item["apiVersion"] and item["kind"]
    bound = [p for p in lists["Pod"] if p["spec"].get("nodeName")]
    assert bound and all(p["status"].get("phase") for p in bound)  # status written and read back
    grouped = [p for p in lists["Pod"] if p["spec"].get("schedulingGroup")]
    assert grouped  # the GenericWorkload gate keeps pod.spec.schedulingGroup
    # PodGroups come in the version the server prefers among those the planner reads
    assert {i["apiVersion"] for i in lists["PodGroup"]} == {"scheduling.k8s.io/v1beta1"}
    assert {i["apiVersion"] for i in lists["CompositePodGroup"]} == {"scheduling.k8s.io/v1alpha3"}


def test_snapshot_to_one_file_reads_back_the_same(demo: ApiServer, demo_snapshot: tuple, tmp_path: Path) -> None:
    done = snapshot(demo, tmp_path / "cluster.yaml")
    assert done.returncode == 0, done.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["cluster.yaml"]  # no staging file left
    assert placements(plan(tmp_path / "cluster.yaml")) == placements(plan(demo_snapshot[0]))


def test_kinds_not_served_are_skipped_and_named(demo_snapshot: tuple) -> None:
    _, done = demo_snapshot
    line = next(x for x in done.stderr.splitlines() if "not served" in x)
    for kind in ("JobSet (jobset.x-k8s.io)", "RayCluster (ray.io)", "LeaderWorkerSet"):
        assert kind in line
    assert "PodGroup (scheduling.k8s.io)" not in line


def test_namespaces_limit_the_namespaced_kinds_but_not_the_pods_on_nodes(demo: ApiServer, tmp_path: Path) -> None:
    done = snapshot(demo, tmp_path / "snap", "-n", "ml-research")
    assert done.returncode == 0, done.stderr
    lists = read_lists(tmp_path / "snap")
    pending_elsewhere = [p for p in lists["Pod"] if p["metadata"]["namespace"] != "ml-research"
                         and not p["spec"].get("nodeName")]
    assert pending_elsewhere == []
    assert any(p["metadata"]["namespace"] == "kube-system" for p in lists["Pod"])  # bound: they take room
    assert {g["metadata"]["namespace"] for g in lists.get("PodGroup", [])} <= {"ml-research"}


# --- --from-cluster, the kubectl plugin -------------------------------------------------------------

def test_from_cluster_plans_local_files_against_the_cluster(demo: ApiServer, demo_snapshot: tuple) -> None:
    local = FIXTURES / "workloads" / "recsys-ctr.v1alpha1.yaml"  # a version the server does not serve
    env = environment_without_kubeconfig() | {"KUBECONFIG": str(demo.kubeconfig)}
    done = run("simulate", "--from-cluster", str(local), "-o", "json", env=env)
    assert done.returncode in (0, 1), done.stderr
    live = json.loads(done.stdout)
    assert placements(live) == placements(plan(demo_snapshot[0], local))
    note = next(n for n in live["notes"] if n.startswith("cluster: "))
    assert "context admin" in note and demo.url in note
    assert not list(Path(os.environ.get("TMPDIR", "/tmp")).glob("podgroup-plan-cluster-*/cluster"))


def test_from_cluster_on_headroom_and_what_if(demo: ApiServer, tmp_path: Path) -> None:
    common = ("--from-cluster", "--kubeconfig", str(demo.kubeconfig), "--context", "admin", "-o", "json")
    workload = FIXTURES / "workloads" / "data-prep.yaml"
    done = run("headroom", str(FIXTURES / "scheduler-config"), "--workload", str(workload), "--max", "3", *common)
    assert done.returncode == 0, done.stderr
    assert any(n.startswith("cluster: read from context admin") for n in json.loads(done.stdout)["notes"])
    done = run("what-if", str(FIXTURES / "scheduler-config"), "--each", "topology.kubernetes.io/zone", *common)
    assert done.returncode in (0, 1), done.stderr
    assert json.loads(done.stdout)["notes"][0].startswith("cluster: read from context admin")



def test_replay_from_cluster_names_the_cluster_in_its_header(demo: ApiServer, demo_snapshot: tuple) -> None:
    """replay --from-cluster replays as replay on the snapshot does, and its result's `notes`
    (JSON) and first table line name the cluster and when it was read."""
    local = FIXTURES / "workloads" / "recsys-ctr.v1alpha1.yaml"  # not in the cluster: the server does not serve it
    common = ("--from-cluster", "--kubeconfig", str(demo.kubeconfig), "--context", "admin")
    done = run("replay", str(local), *common, "-o", "json")
    assert done.returncode == 0, done.stderr
    live = json.loads(done.stdout)
    [note] = live.pop("notes")
    assert note.startswith(f"cluster: read from context admin ({demo.url}) at 20") and note not in done.stderr
    offline = run("replay", str(demo_snapshot[0]), str(local), "-o", "json")
    assert offline.returncode == 0, offline.stderr
    assert live == json.loads(offline.stdout)
    table = run("replay", str(local), *common)
    assert table.returncode == 0, table.stderr
    assert table.stdout.splitlines()[0].startswith(f"cluster: read from context admin ({demo.url}) at 20")

def test_kubectl_plugin_executable(demo: ApiServer, tmp_path: Path) -> None:
    plugin = shutil.which("kubectl-podgroup_plan", path=str(Path(sys.executable).parent))
    assert plugin is not None, "the console script kubectl-podgroup_plan is installed beside python"
    done = subprocess.run([plugin, "simulate", "--from-cluster", "--kubeconfig", str(demo.kubeconfig),
                           str(FIXTURES / "scheduler-config"), "-o", "json"],
                          capture_output=True, text=True, env=environment_without_kubeconfig(), timeout=600)
    assert done.returncode in (0, 1), done.stderr
    assert json.loads(done.stdout)["pods"]
    usage = subprocess.run([plugin, "--help"], capture_output=True, text=True, timeout=120)
    assert usage.stdout.startswith("Usage: kubectl podgroup-plan ")


# --- anonymised -----------------------------------------------------------------------------------

def test_anonymised_snapshot_plans_the_same_name_for_name(demo: ApiServer, demo_snapshot: tuple, tmp_path: Path) -> None:
    key = tmp_path / "key.json"
    done = snapshot(demo, tmp_path / "anon", "--anonymize", "--key-file", str(key))
    assert done.returncode == 0, done.stderr
    text = "\n".join(p.read_text() for p in (tmp_path / "anon").glob("*.yaml"))
    for secret in ("ml-research", "llm-pretrain", "training-high", "gpu-a100-"):
        assert secret not in text
    assert "topology.kubernetes.io/zone" in text and "nvidia.com/gpu" in text  # keys and resources kept
    assert oct(key.stat().st_mode & 0o777) == "0o600"
    anonymous = tmp_path / "anon-plan.json"
    anonymous.write_text(json.dumps(plan(tmp_path / "anon")))
    back = run("deanonymize", str(anonymous), "--key-file", str(key))
    assert back.returncode == 0, back.stderr
    assert placements(json.loads(back.stdout)) == placements(plan(demo_snapshot[0]))


# --- what a user gets wrong, and what the server refuses -------------------------------------------

def one_line_exit_2(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr
    lines = [x for x in done.stderr.splitlines() if x.strip()]
    assert len(lines) == 1, lines
    return lines[0]


def test_rbac_refusal_names_the_verb_and_the_resource(demo: ApiServer, tmp_path: Path) -> None:
    demo.create([
        {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": {"name": "nodes-only"},
         "rules": [{"apiGroups": [""], "resources": ["nodes", "namespaces"], "verbs": ["list"]}]},
        {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding", "metadata": {"name": "viewer-nodes"},
         "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "nodes-only"},
         "subjects": [{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": "viewer"}]},
    ])
    line = one_line_exit_2(snapshot(demo, tmp_path / "snap", context="viewer"))
    assert "forbids to list" in line and "403" in line and demo.url in line
    assert 'User "viewer" cannot list resource' in line  # the server's own reason
    assert not (tmp_path / "snap").exists() and list(tmp_path.iterdir()) == []  # nothing left behind


def test_an_unknown_or_expired_token_is_one_line(demo: ApiServer, tmp_path: Path) -> None:
    line = one_line_exit_2(snapshot(demo, tmp_path / "snap", context="expired"))
    assert "refused the credentials (401 Unauthorized" in line and demo.url in line
    assert list(tmp_path.iterdir()) == []


def test_bad_kubeconfig_and_context_are_one_line(demo: ApiServer, tmp_path: Path) -> None:
    line = one_line_exit_2(snapshot(demo, tmp_path / "snap", context="nope"))
    assert "no context named 'nope'" in line and "admin, expired, viewer" in line
    broken = tmp_path / "broken-kubeconfig"
    broken.write_text("clusters: [\n")
    line = one_line_exit_2(run("snapshot", "--kubeconfig", str(broken), "-o", str(tmp_path / "snap")))
    assert str(broken) in line
    line = one_line_exit_2(run("simulate", "--from-cluster", "--kubeconfig", str(tmp_path / "missing"), "x.yaml"))
    assert "no such file" in line
    assert not (tmp_path / "snap").exists()


def test_an_unreachable_server_is_one_line(demo: ApiServer, tmp_path: Path) -> None:
    from live_server import free_port

    config = json.loads(demo.kubeconfig.read_text())
    gone = f"https://127.0.0.1:{free_port()}"
    config["clusters"][0]["cluster"]["server"] = gone
    kubeconfig = tmp_path / "kubeconfig"
    kubeconfig.write_text(json.dumps(config))
    line = one_line_exit_2(run("snapshot", "--kubeconfig", str(kubeconfig), "-o", str(tmp_path / "snap")))
    assert gone in line and "connection refused" in line
    assert [p.name for p in tmp_path.iterdir()] == ["kubeconfig"]


# --- a second cluster: 2,000 nodes, no v1alpha3, and a server that goes away -------------------------

@pytest.fixture(scope="module")
def second(live_binaries: dict[str, Path], etcd: Any, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Another API server on the same etcd under its own prefix (another cluster), serving
    scheduling.k8s.io v1beta1 only (so no CompositePodGroup), with 2,000 nodes."""
    from concurrent.futures import ThreadPoolExecutor

    server = ApiServer.start(live_binaries["kube-apiserver"], etcd, tmp_path_factory.mktemp("second"), "/second",
                             runtime_config="scheduling.k8s.io/v1beta1=true")
    node = yaml.safe_load((REPO / "tests" / "live" / "node.yaml").read_text())

    def make(i: int) -> None:
        name = f"node-{i:04d}"
        labels = {**node["metadata"]["labels"], "kubernetes.io/hostname": name}
        server.create([{**node, "metadata": {**node["metadata"], "name": name, "labels": labels}}])
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(make, range(2000)))
    yield server
    server.stop()


def test_paging_reads_2000_nodes_in_pages(second: ApiServer, tmp_path: Path) -> None:
    from podgroup_plan.live.client import connect
    from podgroup_plan.live.snapshot import take

    pages: list[tuple[str, int, int | None]] = []
    report = take(connect(str(second.kubeconfig), "admin"), str(tmp_path / "snap"),
                  progress=lambda label, done, total: pages.append((label, done, total)), page_size=300)
    node_pages = [p for p in pages if p[0] == "Reading nodes"]
    assert [done for _, done, _ in node_pages] == [300, 600, 900, 1200, 1500, 1800, 2000]
    assert node_pages[0][2] == 2000  # remainingItemCount: the bar knows the total from the first page
    assert dict((k.kind, n) for k, n in report.counts)["Node"] == 2000
    names = [n["metadata"]["name"] for n in read_lists(tmp_path / "snap")["Node"]]
    assert names == sorted(names) and len(set(names)) == 2000
    assert "CompositePodGroup (scheduling.k8s.io)" in (report.not_served_line() or "")


def test_a_server_that_goes_away_mid_read_leaves_nothing(second: ApiServer, tmp_path: Path) -> None:
    """Runs last in this module: it stops the second server between two pages of nodes."""
    from podgroup_plan.live import LiveError
    from podgroup_plan.live.client import connect
    from podgroup_plan.live.snapshot import take

    def stop_after_the_first_page(label: str, done: int, total: int | None) -> None:
        if label == "Reading nodes" and done == 500:
            second.stop()

    cluster = connect(str(second.kubeconfig), "admin")
    with pytest.raises(LiveError) as failed:
        take(cluster, str(tmp_path / "snap"), progress=stop_after_the_first_page)
    assert second.url in str(failed.value) and "\n" not in str(failed.value)
    assert list(tmp_path.iterdir()) == []
