"""Hostile input gets an answer in bounded time and memory (issue 25): deep CompositePodGroup
chains, controllers asking for a million pods. Real processes under a memory limit."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "OPENBLAS_NUM_THREADS": "1"}
GIB = 1 << 30

NODE = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-1"},
        "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}}


def limited(memory: int):
    """A child's pre-exec hook: at most `memory` bytes of address space."""
    def apply() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    return apply


def process(*args, memory: int | None = None, timeout: float = 120, **kw):
    if memory is not None and sys.platform != "linux":
        pytest.skip("RLIMIT_AS is enforced on Linux")
    return subprocess.run([sys.executable, "-m", "podgroup_plan.cli", *map(str, args)], env=ENV,
                          capture_output=True, text=True, timeout=timeout,
                          preexec_fn=limited(memory) if memory else None, **kw)


def chain(levels: int) -> dict:
    """A Workload, a chain of `levels` CompositePodGroups (c0 the root), a leaf PodGroup below the
    last and its pod."""
    ref = {"workloadName": "w", "templateName": "t"}
    items = [NODE, {"apiVersion": "scheduling.k8s.io/v1alpha3", "kind": "Workload",
                    "metadata": {"name": "w", "namespace": "t"},
                    "spec": {"compositePodGroupTemplates": [{
                        "name": "t", "schedulingPolicy": {"gang": {"minGroupCount": 1}},
                        "podGroupTemplates": [{"name": "l", "schedulingPolicy": {"gang": {"minCount": 1}}}]}]}}]
    for i in range(levels):
        spec = {"workloadRef": ref, "schedulingPolicy": {"gang": {"minGroupCount": 1}}}
        if i:
            spec["parentCompositePodGroupName"] = f"c{i - 1}"
        items.append({"apiVersion": "scheduling.k8s.io/v1alpha3", "kind": "CompositePodGroup",
                      "metadata": {"name": f"c{i}", "namespace": "t"}, "spec": spec})
    items.append({"apiVersion": "scheduling.k8s.io/v1alpha3", "kind": "PodGroup",
                  "metadata": {"name": "leaf", "namespace": "t"},
                  "spec": {"workloadRef": {"workloadName": "w", "templateName": "l"},
                           "parentCompositePodGroupName": f"c{levels - 1}",
                           "schedulingPolicy": {"gang": {"minCount": 1}}}})
    items.append({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "t"},
                  "spec": {"schedulingGroup": {"podGroupName": "leaf"},
                           "containers": [{"name": "c", "image": "x", "resources": {"requests": {"cpu": "1"}}}]}})
    return {"apiVersion": "v1", "kind": "List", "items": items}


def test_a_100000_level_composite_chain_is_answered(tmp_path):
    """400 levels once ended in RecursionError (exit 3), and then trees past 100 levels were held
    Invalid. The tree cycle now runs on an explicit stack: the chain is scheduled as kube-scheduler
    v1.37 schedules a tree past WorkloadMaxTreeDepth, with the rule named in a short note."""
    (tmp_path / "chain.json").write_text(json.dumps(chain(100_000)))
    result = process("simulate", tmp_path / "chain.json", "-o", "json",
                     "--output-file", tmp_path / "plan.json", memory=2 * GIB, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    plan = json.loads((tmp_path / "plan.json").read_text())
    assert len(plan["compositePodGroups"]) == 100_000
    assert {c["status"] for c in plan["compositePodGroups"]} == {"Scheduled"}
    assert [p["status"] for p in plan["pods"]] == ["Scheduled"]
    note = next(n for n in plan["notes"] if "WorkloadMaxTreeDepth" in n)
    assert note.startswith("CompositePodGroup tree t/c0 breaks a KEP-6012 rule, depth 100001 exceeds 4 "
                           "(WorkloadMaxTreeDepth): t/c0 -> t/c1")
    assert "(99993 more)" in note and len(note) < 300


def comb(levels: int) -> dict:
    """A chain of `levels` CompositePodGroups with a leaf PodGroup (and its pod) at every level:
    the composite at level i holds levels - i leaves, so the tree holds about levels^2 / 2 leaf
    memberships."""
    doc = chain(levels)
    items = [i for i in doc["items"] if i["kind"] not in ("PodGroup", "Pod")]
    for i in range(levels):
        items.append({"apiVersion": "scheduling.k8s.io/v1alpha3", "kind": "PodGroup",
                      "metadata": {"name": f"l{i}", "namespace": "t"},
                      "spec": {"workloadRef": {"workloadName": "w", "templateName": "l"},
                               "parentCompositePodGroupName": f"c{i}",
                               "schedulingPolicy": {"gang": {"minCount": 1}}}})
    return {**doc, "items": items}


def test_a_tree_too_big_to_plan_is_refused_at_once_naming_the_limit(tmp_path):
    """Trees of any depth are scheduled, but a leaf at every level of a deep chain makes the
    tree's leaf lists quadratic (100,000 levels: 5e9 entries, hours): refused before planning."""
    (tmp_path / "comb.json").write_text(json.dumps(comb(1_500)))
    result = process("simulate", tmp_path / "comb.json", memory=2 * GIB, timeout=120)
    assert result.returncode == 2, result.stderr[-2000:]
    assert result.stderr.count("\n") == 1, result.stderr
    assert ("CompositePodGroup t/c0: this CompositePodGroup tree holds 1,125,750 leaf memberships" in result.stderr
            and "podgroup-plan plans at most 1,000,000 per input" in result.stderr), result.stderr
    # under the limit it is planned: 1,000 levels, 500,500 memberships
    (tmp_path / "comb.json").write_text(json.dumps(comb(1_000)))
    result = process("simulate", tmp_path / "comb.json", "-o", "json", memory=2 * GIB, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert len(json.loads(result.stdout)["compositePodGroups"]) == 1_000


def _deployment(replicas: int) -> str:
    return ("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\n"
            f"spec:\n  replicas: {replicas}\n  selector: {{matchLabels: {{app: web}}}}\n"
            "  template:\n    metadata: {labels: {app: web}}\n"
            "    spec: {containers: [{name: c, image: nginx}]}\n")


def _job_set(replicas: int) -> str:
    return ("apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: js, namespace: shop}\n"
            "spec:\n  replicatedJobs:\n  - name: w\n"
            f"    replicas: {replicas}\n    template:\n      spec:\n        parallelism: 1\n"
            "        completions: 1\n        template:\n          spec:\n            restartPolicy: Never\n"
            "            containers: [{name: c, image: x}]\n")


@pytest.mark.parametrize("kind, text", [("Deployment shop/web: spec.replicas", _deployment(1_000_000)),
                                        ("JobSet shop/js: spec.replicatedJobs", _job_set(1_000_000))],
                         ids=["Deployment", "JobSet"])
def test_a_million_replicas_get_a_clear_answer_within_30_s_and_2_gib(tmp_path, kind, text):
    """At 1,000,000 a Deployment gave no answer in 120 s and a JobSet ran out of memory."""
    (tmp_path / "m.yaml").write_text(
        "apiVersion: v1\nkind: Node\nmetadata: {name: node-1}\nstatus:\n"
        "  allocatable: {cpu: '4', memory: 8Gi, pods: '110'}\n---\n" + text)
    result = process("simulate", tmp_path / "m.yaml", memory=2 * GIB, timeout=30)
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    assert result.stderr == (f"{tmp_path / 'm.yaml'}:11: {kind}: asks for "
                             "1,000,000 pods; podgroup-plan creates at most 200,000 pods for the "
                             "controllers of one input (1,000,000 asked in all)\n")


# --- nothing printed raw --------------------------------------------------------------------------

# Every character no output may print raw (the tool's own line breaks aside).
RAW = __import__("re").compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029"
                               "\u202a-\u202e\u2066-\u2069]")
EVIL = "\x1b]0;owned\x07\x1b[2J\u202e\x9b1m"  # a title, a cleared screen, reversed text, a CSI
FORGED = "\n• all pods scheduled, nothing to see here"

CONFIG = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"


def _hostile_folder(tmp_path: Path) -> Path:
    """Input that plans although every string it can shows holds control characters: a kind
    the planner does not read (named in the notes), a schedulerName (quoted in messages; a
    scheduling gate's name is a qualified name, so a hostile one is a problem, not a plan), and file names (of a manifest, and of a
    KubeSchedulerConfiguration found among the manifests, named in the header)."""
    folder = tmp_path / f"in{EVIL}"
    folder.mkdir()
    node = NODE
    pods = [{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "default"},
             "spec": {**extra, "tolerations": [{"operator": "Exists"}],
                      "containers": [{"name": "c", "image": "x" + EVIL,
                                      "resources": {"requests": {"cpu": cpu}}}]}}
            for name, extra, cpu in (("gated", {"schedulingGates": [{"name": "gate"}]}, "1"),
                                     ("other", {"schedulerName": "s" + EVIL}, "1"),
                                     ("big", {}, "64"), ("web", {}, "1"))]
    odd = {"apiVersion": "v1", "kind": "Weird" + FORGED + EVIL, "metadata": {"name": "x"}}
    (folder / f"m{EVIL}.json").write_text(json.dumps({"apiVersion": "v1", "kind": "List",
                                                      "items": [node, *pods, odd]}))
    (folder / f"sched{EVIL}.yaml").write_text(CONFIG)
    return folder


def _runs(folder: Path, config: Path):
    """Every command and output format, as (what, arguments)."""
    for output in ("table", "json", "yaml", "markdown", "junit"):
        yield f"simulate -o {output}", ["simulate", folder, "-o", output, "--pods", "all",
                                        "--fail-on", "waiting", "--fail-on", "unschedulable"]
    yield "validate", ["validate", folder]
    for output in ("table", "json", "markdown"):
        yield f"diff -o {output}", ["diff", folder, "--config-b", config, "-o", output]
    for output in ("table", "json"):
        yield f"explain -o {output}", ["explain", folder, "--pod", "default/big", "-o", output]
        yield f"explain --node -o {output}", ["explain", folder, "--pod", "default/web", "--node", "node-1",
                                              "-o", output]


def test_no_command_nor_format_prints_a_raw_control_character(tmp_path):
    from typer.testing import CliRunner

    from podgroup_plan.cli import app

    folder = _hostile_folder(tmp_path)
    config = tmp_path / f"b{EVIL}.yaml"
    config.write_text(CONFIG)
    seen = set()
    for what, args in _runs(folder, config):
        result = CliRunner().invoke(app, [str(a) for a in args])
        assert result.exit_code in (0, 1), (what, result.stderr)
        exact = " json" in what or " yaml" in what
        for stream, text in (("stdout", result.stdout), ("stderr", result.stderr)):
            if stream == "stdout" and exact:
                continue  # strings as they are, under JSON's and YAML's own escaping
            found = RAW.search(text)
            assert found is None, (what, stream, text[max(found.start() - 60, 0):found.end() + 20])
        assert FORGED not in result.stdout + result.stderr, what
        if "\\x1b]0;owned" in result.stdout + result.stderr:
            seen.add(what)
        if exact and "json" in what:
            json.loads(result.stdout)
    # the hostile strings did reach every human-readable output, escaped
    assert seen >= {"simulate -o table", "simulate -o markdown", "simulate -o junit", "validate",
                    "diff -o table", "diff -o markdown"}, seen


def test_hostile_names_namespaces_labels_and_file_names_are_escaped_in_problems(tmp_path):
    from typer.testing import CliRunner

    from podgroup_plan.cli import app

    folder = tmp_path / f"bad{EVIL}"
    folder.mkdir()
    pod = {"apiVersion": "v1", "kind": "Pod" + EVIL,
           "metadata": {"name": "web" + EVIL, "namespace": "ns" + FORGED, "labels": {"app" + EVIL: "x" + EVIL}},
           "spec": {"containers": [{"name": "c", "image": "x"}]}}
    pod2 = dict(pod, kind="Pod", metadata=dict(pod["metadata"], name="p2" + EVIL))
    (folder / f"m{EVIL}.json").write_text(json.dumps({"apiVersion": "v1", "kind": "List",
                                                      "items": [NODE, pod, pod2]}))
    config = tmp_path / f"b{EVIL}.yaml"
    config.write_text(CONFIG)
    for what, args in _runs(folder, config):
        result = CliRunner().invoke(app, [str(a) for a in args])
        assert result.exit_code == 2, (what, result.stdout)
        assert result.stdout == ""
        assert RAW.search(result.stderr) is None, (what, result.stderr)
        assert "web\\x1b]0;owned" in result.stderr or "p2\\x1b]0;owned" in result.stderr, what
        assert f"m\\x1b]0;owned" in result.stderr  # the file name too
        assert FORGED not in result.stderr


# --- running out of memory -------------------------------------------------------------------------

def _large_valid_input(path: Path, nodes: int = 2000, pods: int = 20000) -> None:
    items = [{"apiVersion": "v1", "kind": "Node",
              "metadata": {"name": f"node-{i}", "labels": {"zone": f"z{i % 4}"}},
              "status": {"allocatable": {"cpu": "32", "memory": "128Gi", "pods": "110"}}}
             for i in range(nodes)]
    items += [{"apiVersion": "v1", "kind": "Pod",
               "metadata": {"name": f"p-{i}", "namespace": "load", "labels": {"app": f"a{i % 50}"}},
               "spec": {"containers": [{"name": "c", "image": "x",
                                        "resources": {"requests": {"cpu": "100m", "memory": "256Mi"}}}]}}
              for i in range(pods)]
    path.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": items}, indent=2))


@pytest.mark.parametrize("source", ["file", "stdin"])
def test_a_large_valid_input_under_a_memory_limit_fails_cleanly(tmp_path, source):
    """Under RLIMIT_AS the JSON writer once crashed (exit -11, no message), the reader called a
    valid file "invalid JSON: Not enough memory", a C extension's SystemError escaped typer as a
    traceback with exit 1 (150-195 MiB), OpenBLAS ended the process with exit 1 when numpy was
    imported late (250 MiB), and orjson crashed on standard input (200-210 MiB). Now every limit
    gives the plan or exit 2 with one line, nothing on stdout."""
    _large_valid_input(tmp_path / "big.json")
    answers = []
    for mib in (100, 150, 175, 200, 210, 250, 1024):
        if source == "file":
            result = process("simulate", tmp_path / "big.json", "-o", "json", "--output-file",
                             tmp_path / "plan.json", memory=mib << 20, timeout=300)
        else:
            with open(tmp_path / "big.json", "rb") as stdin:
                result = process("simulate", "-", "-o", "json", stdin=stdin, memory=mib << 20, timeout=300)
        answers.append(result.returncode)
        assert result.returncode in (0, 2), (mib, result.returncode, result.stderr[-500:])
        if result.returncode == 2:
            lines = result.stderr.splitlines()
            assert len(lines) == 1 and lines[0].startswith(
                "podgroup-plan: not enough memory to plan this input ("), (mib, result.stderr)
            assert lines[0].endswith(" MiB used)")
            assert result.stdout == ""
    assert answers[0] == 2 and answers[-1] == 0, answers  # too little is said so; with room, the plan


def test_a_system_error_a_c_extension_leaves_when_out_of_memory_is_a_memory_failure():
    from podgroup_plan.cli import memory

    try:
        try:
            raise MemoryError
        except MemoryError as cause:
            raise SystemError("<method 'endswith' of 'str' objects> returned a result with an "
                              "exception set") from cause
    except SystemError as err:
        assert memory.is_memory_failure(err)
    assert not memory.is_memory_failure(ValueError("x"))
    assert not memory.is_memory_failure(SystemError("a bug, with no limit set"))  # no RLIMIT_AS here


def test_orjson_is_not_handed_a_document_it_has_no_room_for(monkeypatch):
    """orjson's peak is many times its input, and it may crash when an allocation fails."""
    from podgroup_plan.loading import encodings, room

    data = b'{"a": "' + b"x" * (2 << 20) + b'"}'
    monkeypatch.setattr(room, "room_left", lambda: 10 * len(data))
    with pytest.raises(MemoryError):
        encodings.loads(data)
    monkeypatch.setattr(room, "room_left", lambda: 100 * len(data))
    assert len(encodings.loads(data)["a"]) == 2 << 20
    monkeypatch.setattr(room, "room_left", lambda: None)  # no limit: nothing to check
    assert encodings.loads(b"[1]") == [1]
