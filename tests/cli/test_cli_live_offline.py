"""The live-cluster commands where no API server is needed (tests/live/ has those that need one):
anonymisation of the demo planned name for name, deanonymize, the one-line errors for a bad
kubeconfig, a missing context and an unreachable server, the message naming the extra when the
`kubernetes` client is missing, and the snapshot's target checks."""
from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from podgroup_plan.live.anonymize import TOKEN, KeyFile, deanonymize

REPO = Path(__file__).resolve().parents[2]
DEMO = [REPO / "fixtures" / "cluster", REPO / "fixtures" / "workloads"]


def run(*args: str, env_extra: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    import os

    env = {k: v for k, v in os.environ.items() if k != "KUBECONFIG"} | (env_extra or {})
    return subprocess.run([sys.executable, "-m", "podgroup_plan", *args], capture_output=True, text=True,
                          env=env, timeout=600)


def one_line_exit_2(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr
    lines = [x for x in done.stderr.splitlines() if x.strip()]
    assert len(lines) == 1, lines
    return lines[0]


def placements(result: dict) -> dict:
    pods = {f"{p['namespace']}/{p['name']}": (p.get("node"), p.get("status"), p.get("message")) for p in result["pods"]}
    groups = {f"{g['namespace']}/{g['name']}": (g.get("status"), g.get("message")) for g in result.get("podGroups", ())}
    return {"pods": pods, "podGroups": groups, "summary": result["summary"]}


def anonymised_copy(folders: list[Path], out: Path, keys: KeyFile) -> None:
    """Each manifest of `folders` as `snapshot --anonymize` would write it (two passes: every
    value is seen before the first token is given)."""
    anonymizer = keys.anonymizer()
    files = [(folder, path, [d for d in yaml.safe_load_all(path.read_text()) if d])
             for folder in folders for path in sorted(folder.glob("*.yaml"))]

    def objects(docs: list[dict]) -> list[dict]:
        return [i for d in docs for i in (d["items"] if d.get("kind") == "List" else [d])
                if d.get("kind") != "KubeSchedulerConfiguration"]
    for _, _, docs in files:
        for obj in objects(docs):
            anonymizer.collect(obj)
    anonymizer.assign()
    for folder, path, docs in files:
        written = []
        for doc in docs:
            if doc.get("kind") == "List":
                doc = {**doc, "items": [anonymizer.anonymize(i) for i in doc["items"]]}
            elif doc.get("kind") != "KubeSchedulerConfiguration":
                doc = anonymizer.anonymize(doc)
            written.append(doc)
        (out / f"{folder.name}-{path.name}").write_text(yaml.safe_dump_all(written, sort_keys=False))


def test_the_anonymised_demo_plans_as_the_demo_name_for_name(tmp_path: Path) -> None:
    keys = KeyFile.create(str(tmp_path / "key.json"))
    (tmp_path / "anon").mkdir()
    anonymised_copy(DEMO, tmp_path / "anon", keys)
    keys.save()
    text = "\n".join(p.read_text() for p in (tmp_path / "anon").glob("*.yaml"))
    for secret in ("ml-research", "llm-pretrain", "training-high", "NVIDIA-A100", "gpu-a100-"):
        assert secret not in text
    for kept in ("topology.kubernetes.io/zone", "nvidia.com/gpu", "kube-system", "system-node-critical"):
        assert kept in text
    plain = run("simulate", *map(str, DEMO), "-o", "json")
    anon = run("simulate", str(tmp_path / "anon"), "-o", "json", "--output-file", str(tmp_path / "anon.json"))
    assert plain.returncode == anon.returncode, anon.stderr
    anonymous = json.loads((tmp_path / "anon.json").read_text())
    assert "ml-research" not in json.dumps(anonymous)
    back = run("deanonymize", str(tmp_path / "anon.json"), "--key-file", str(tmp_path / "key.json"))
    assert back.returncode == 0, back.stderr
    assert placements(json.loads(back.stdout)) == placements(json.loads(plain.stdout))
    scheduled = [p for p in json.loads(plain.stdout)["pods"] if p.get("status") == "Scheduled"]
    assert scheduled  # the comparison is about real placements


def test_a_key_file_is_never_overwritten(tmp_path: Path) -> None:
    from podgroup_plan.live import LiveError

    keys = KeyFile.create(str(tmp_path / "key.json"))
    keys.assign({"ml-research"})
    keys.save()
    with pytest.raises(LiveError, match="exists"):
        KeyFile.create(str(tmp_path / "key.json"))
    assert list(KeyFile.read(str(tmp_path / "key.json")).names.values()) == ["ml-research"]


@given(st.sets(st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-./:", min_size=1, max_size=40), max_size=30))
def test_tokens_keep_the_order_of_names_and_map_back_wherever_they_stand(values: set[str]) -> None:
    keys = KeyFile("unused", b"k" * 32, {})
    tokens = keys.assign(values)
    ordered = sorted(values)
    assert [tokens[v] for v in ordered] == sorted(tokens.values())  # the scheduler's name order holds
    assert len(set(tokens.values())) == len(values) and all(TOKEN.fullmatch(t) for t in tokens.values())
    doc = {"pods": [{"name": tokens[v], "message": f"bound to {tokens[v]}: ok", tokens[v]: [tokens[v]]}
                    for v in ordered], "n": 3}
    assert deanonymize(doc, keys.names) == {"pods": [{"name": v, "message": f"bound to {v}: ok", v: [v]}
                                                    for v in ordered], "n": 3}


def test_labels_keep_their_keys_whole_numbers_and_kubernetes_names() -> None:
    anonymizer = KeyFile("unused", b"k" * 32, {}).anonymizer()
    node = {"status": {"images": [{"names": ["nginx:latest"], "sizeBytes": 1}]}}
    pod = {"apiVersion": "v1", "kind": "Pod",
           "metadata": {"name": "web-0", "namespace": "kube-system", "labels": {"app": "web", "index": "3"},
                        "annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{secret}",
                                        "podgroup-plan.io/gang": "true"}},
           "spec": {"nodeName": "node-1", "containers": [{"name": "c", "image": "nginx", "env": [{"name": "PW", "value": "x"}],
                                                           "resources": {"requests": {"nvidia.com/gpu": "8"}}}],
                    "nodeSelector": {"topology.kubernetes.io/zone": "zone-a"},
                    "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                        {"matchExpressions": [{"key": "topology.kubernetes.io/zone", "operator": "In",
                                               "values": ["zone-a"]}]}]}}}}}
    anonymizer.collect(pod)
    anonymizer.collect(node)
    anonymizer.assign()
    out = anonymizer.anonymize(pod)
    assert out["metadata"]["namespace"] == "kube-system"
    assert out["metadata"]["labels"]["index"] == "3" and set(out["metadata"]["labels"]) == {"app", "index"}
    assert out["metadata"]["annotations"] == {"podgroup-plan.io/gang": "true"}
    container = out["spec"]["containers"][0]
    assert "env" not in container and container["resources"] == {"requests": {"nvidia.com/gpu": "8"}}
    zone = out["spec"]["nodeSelector"]["topology.kubernetes.io/zone"]
    term = out["spec"]["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"][0]
    assert term["matchExpressions"][0]["values"] == [zone] and zone != "zone-a"
    node_image = anonymizer.anonymize(node)
    assert node_image["status"]["images"][0]["names"] == [container["image"]]  # ImageLocality still matches


# --- errors a user meets before any server answers --------------------------------------------------

def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def kubeconfig(tmp_path: Path, server: str) -> Path:
    path = tmp_path / "kubeconfig"
    path.write_text(json.dumps({
        "apiVersion": "v1", "kind": "Config", "current-context": "dev",
        "clusters": [{"name": "c", "cluster": {"server": server, "insecure-skip-tls-verify": True}}],
        "users": [{"name": "u", "user": {"token": "t"}}],
        "contexts": [{"name": "dev", "context": {"cluster": "c", "user": "u"}}]}))
    return path


def test_an_unreachable_server_is_one_line_and_leaves_nothing(tmp_path: Path) -> None:
    server = f"https://127.0.0.1:{closed_port()}"
    config = kubeconfig(tmp_path, server)
    line = one_line_exit_2(run("snapshot", "--kubeconfig", str(config), "-o", str(tmp_path / "snap")))
    assert line == f"podgroup-plan: cannot read from the API server {server}: connection refused"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kubeconfig"]
    line = one_line_exit_2(run("simulate", "--from-cluster", "--kubeconfig", str(config), str(DEMO[1])))
    assert server in line and "connection refused" in line


def test_a_missing_context_names_those_there_are(tmp_path: Path) -> None:
    config = kubeconfig(tmp_path, "https://127.0.0.1:1")
    line = one_line_exit_2(run("snapshot", "--kubeconfig", str(config), "--context", "prod", "-o", str(tmp_path / "s")))
    assert line == f"podgroup-plan: kubeconfig {config}: no context named 'prod' (it has: dev)"


@pytest.mark.parametrize("text", ["clusters: [\n", "just a string\n", "{}\n"])
def test_a_bad_kubeconfig_is_one_line(tmp_path: Path, text: str) -> None:
    config = tmp_path / "kubeconfig"
    config.write_text(text)
    line = one_line_exit_2(run("snapshot", "--kubeconfig", str(config), "-o", str(tmp_path / "s")))
    assert line.startswith(f"podgroup-plan: kubeconfig {config}")


def test_no_kubeconfig_at_all(tmp_path: Path) -> None:
    line = one_line_exit_2(run("snapshot", "-o", str(tmp_path / "s"), env_extra={"HOME": str(tmp_path)}))
    assert "no such file" in line and "--kubeconfig" in line


def test_a_folder_that_is_not_empty_is_refused(tmp_path: Path) -> None:
    (tmp_path / "snap").mkdir()
    (tmp_path / "snap" / "mine.txt").write_text("keep me")
    line = one_line_exit_2(run("snapshot", "--kubeconfig", str(kubeconfig(tmp_path, "https://127.0.0.1:1")),
                               "-o", str(tmp_path / "snap")))
    assert "not empty" in line
    assert (tmp_path / "snap" / "mine.txt").read_text() == "keep me"


def test_without_the_kubernetes_client_the_extra_is_named(tmp_path: Path) -> None:
    code = ("import sys; sys.modules['kubernetes'] = None; sys.argv = ['podgroup-plan', 'snapshot', '-o', "
            f"{str(tmp_path / 's')!r}]; from podgroup_plan.cli import main; main()")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    line = one_line_exit_2(done)
    assert "python3 -m pip install '.[live]' in the podgroup-plan checkout" in line


def test_context_without_from_cluster_is_a_usage_error(tmp_path: Path) -> None:
    done = run("simulate", str(DEMO[0]), "--context", "dev")
    assert done.returncode == 2 and "--from-cluster" in done.stderr


def test_the_cluster_note_is_in_the_header_not_among_the_notes() -> None:
    """--from-cluster's note (cli/live_input.py) names the cluster where the table and the
    Markdown name the input; the JSON keeps it in `notes`."""
    import dataclasses

    from podgroup_plan.loading import load_input
    from podgroup_plan.planner import plan
    from podgroup_plan.render.markdown import render_markdown
    from podgroup_plan.render.table import render_table

    result = plan(load_input([str(p) for p in DEMO]))
    note = "cluster: read from context prod (https://10.0.0.1:6443) at 2026-12-06T04:00:00Z, 330 object(s)"
    result = dataclasses.replace(result, notes=tuple(sorted({*result.notes, note})))
    table = render_table(result, width=200)
    head, _, rest = table.partition("Notes")
    assert note in head and note not in rest
    markdown = render_markdown(result)
    assert note in markdown.split("###")[0]
    assert markdown.count(note) == 1
    assert note in result.to_dict()["notes"]


REPLAY_NODE = """apiVersion: v1
kind: Node
metadata: {name: gpu-1}
status:
  allocatable: {cpu: "64", memory: 512Gi, pods: "110", nvidia.com/gpu: "8"}
"""
REPLAY_POD = """apiVersion: v1
kind: Pod
metadata:
  name: train
  creationTimestamp: "2026-01-01T00:00:00Z"
  annotations: {podgroup-plan.io/duration: 100s}
spec:
  containers:
  - name: c
    image: x
    resources:
      requests: {cpu: "1", nvidia.com/gpu: "8"}
      limits: {nvidia.com/gpu: "8"}
"""


def test_replay_from_cluster_names_the_cluster_in_its_header(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`replay --from-cluster`: the cluster's note is the result's `notes` (JSON, by the schema)
    and the first line of the table, the line under the Markdown heading, a paragraph of the
    HTML; with --config-b, the comparison's. The cluster read is faked where the CLI calls it
    (live.client.connect, live.snapshot.take): the snapshot is a node file the fake writes."""
    import jsonschema
    from typer.testing import CliRunner

    from podgroup_plan.cli import app
    from podgroup_plan.live import client, snapshot

    reads: list[str] = []

    def take(cluster: object, target: str, **_: object) -> snapshot.Report:
        Path(target).mkdir()
        (Path(target) / "nodes.yaml").write_text(REPLAY_NODE)
        reads.append(target)
        return snapshot.Report("https://10.0.0.1:6443", "prod|eu", "2026-12-06T04:00:00Z")
    monkeypatch.setattr(client, "connect", lambda kubeconfig, context: object())
    monkeypatch.setattr(snapshot, "take", take)
    (tmp_path / "pod.yaml").write_text(REPLAY_POD)
    config = tmp_path / "b.yaml"
    config.write_text("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n")
    note = "cluster: read from context prod|eu (https://10.0.0.1:6443) at 2026-12-06T04:00:00Z, 0 object(s)"

    def replay(*args: str) -> str:
        done = CliRunner().invoke(app, ["replay", str(tmp_path / "pod.yaml"), "--from-cluster", *args])
        assert done.exit_code == 0, done.output
        assert note not in done.stderr  # said in the result now, not beside it
        return done.stdout
    doc = json.loads(replay("-o", "json"))
    jsonschema.validate(doc, json.loads((REPO / "schemas" / "Replay.json").read_text()))
    assert doc["notes"] == [note]
    assert doc["summary"]["podsCompleted"] == 1 and doc["workloads"][0]["nodes"] == ["gpu-1"]  # on the cluster's node
    assert replay().splitlines()[0] == note
    assert replay("-o", "markdown").splitlines()[:3] == ["## Replay", "", "_" + note.replace("|", "\\|") + "_"]
    assert f"<p>{note}</p>" in replay("-o", "html")
    compared = json.loads(replay("--config-b", str(config), "-o", "json"))
    jsonschema.validate(compared, json.loads((REPO / "schemas" / "Replay.json").read_text()))
    assert compared["notes"] == [note] and "notes" not in compared["a"]
    assert replay("--config-b", str(config)).splitlines()[0] == note
    assert len(reads) == 6 and not any(Path(r).exists() for r in reads)  # each run's snapshot removed


def test_replay_without_from_cluster_has_no_notes(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from podgroup_plan.cli import app

    (tmp_path / "in.yaml").write_text(REPLAY_NODE + "---\n" + REPLAY_POD)
    done = CliRunner().invoke(app, ["replay", str(tmp_path / "in.yaml"), "-o", "json"])
    assert done.exit_code == 0, done.output
    assert "notes" not in json.loads(done.stdout)
    assert CliRunner().invoke(app, ["replay", str(tmp_path / "in.yaml")]).stdout.startswith("Replay from ")
