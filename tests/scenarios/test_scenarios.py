"""Scenario tests: each folder here is one case, collected without any Python per case.

A case is `<name>/manifests/*.yaml` (the input, read like `podgroup-plan simulate`) and
`<name>/expected.yaml`, which holds:

* `description`: one line saying what the case shows (required);
* `featureGates`: optional `{NAME: bool}` given to `plan()` as `--feature-gates` would;
* `expand`: optional, `false` plans as `--no-expand` does (Jobs and other controllers are not
  expanded into pods);
* `gang`: optional, `true` plans as `--gang` does (operator objects as Workload + PodGroups);
* `disagreement`: optional; the planner is believed wrong here, for the reason given. The case
  runs as a strict xfail, so it starts failing (XPASS) the day the planner is fixed: then
  remove the key;
* any keys of the result document (docs/contract.md), as a *subset*: a mapping lists only the
  fields that matter, a list of objects with `name` lists only the entries that matter (matched
  by namespace and name), any other list must match element by element.

Every case also runs with its documents shuffled into other files and folders: the JSON must
not change by a single byte (README, "Deviations from kube-scheduler").
"""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Iterator

import pytest
import yaml

from podgroup_plan.controllers import with_gangs
from podgroup_plan.loading import load_input
from podgroup_plan.planner import plan

HERE = Path(__file__).parent
FIXTURES = HERE.parent.parent / "fixtures"
CASES = sorted(p.name for p in HERE.iterdir() if (p / "expected.yaml").is_file())
CONTROL_KEYS = {"description", "featureGates", "disagreement", "expand", "gang"}
RESULT_KEYS = {"apiVersion", "kind", "feasible", "summary", "pods", "podGroups", "compositePodGroups", "victims",
               "unplanned", "notes"}
SHUFFLE_SEEDS = (1, 2, 3)


_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_SafeDumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


class _TextTimestamps(_SafeLoader):  # type: ignore[misc,valid-type]
    """Keeps `2026-05-01T10:00:00Z` as written, as the planner's own loader does, so that
    documents written back by the shuffle test are the same documents."""


_TextTimestamps.add_constructor("tag:yaml.org,2002:timestamp", yaml.SafeLoader.construct_yaml_str)


def _expected(case: str) -> dict:
    with open(HERE / case / "expected.yaml", encoding="utf-8") as fh:
        return yaml.load(fh, Loader=_TextTimestamps)


def _run(paths: list[str], feature_gates: dict | None, expand: bool = True, gang: bool = False) -> dict:
    cluster = load_input(paths, feature_gates=feature_gates)  # (Gt/Lt tolerations need their gate)
    if gang:  # as `--gang` does
        cluster = with_gangs(cluster)
    return plan(cluster, feature_gates=feature_gates, expand=expand).to_dict()


def _dumps(result: dict) -> str:
    # Key order as produced (no sort_keys): the document's own order is part of the output.
    return json.dumps(result, indent=1, ensure_ascii=False)


# ----- subset matching -------------------------------------------------------------------


def _key(entry: Any) -> tuple | None:
    if isinstance(entry, dict) and "name" in entry:
        return (entry.get("namespace"), entry["name"])
    return None


def _mismatches(expected: Any, actual: Any, path: str) -> Iterator[str]:
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            yield f"{path}: expected an object, got {actual!r}"
            return
        for k, v in expected.items():
            if k not in actual:
                yield f"{path}.{k}: missing (expected {v!r})"
            else:
                yield from _mismatches(v, actual[k], f"{path}.{k}")
    elif isinstance(expected, list):
        if not isinstance(actual, list):
            yield f"{path}: expected a list, got {actual!r}"
            return
        keyed = bool(expected) and all(_key(e) is not None for e in expected)
        if keyed:
            index = {_key(a): a for a in actual}
            for e in expected:
                k = _key(e)
                where = f"{path}[{k[0]}/{k[1]}]" if k[0] else f"{path}[{k[1]}]"
                if k not in index:
                    yield f"{where}: no such entry (have: {sorted(map(str, index))})"
                else:
                    yield from _mismatches(e, index[k], where)
        elif len(expected) != len(actual):
            yield f"{path}: expected {len(expected)} item(s) {expected!r}, got {len(actual)}: {actual!r}"
        else:
            for i, (e, a) in enumerate(zip(expected, actual)):
                yield from _mismatches(e, a, f"{path}[{i}]")
    elif expected != actual or isinstance(expected, bool) != isinstance(actual, bool):
        # `true` must not match `1` (bool is an int in Python).
        yield f"{path}: expected {expected!r}, got {actual!r}"


# ----- the cases -------------------------------------------------------------------------


def test_cases_were_collected():
    assert len(CASES) >= 10, CASES


@pytest.mark.parametrize("case", CASES)
def test_expected_file_is_well_formed(case):
    expected = _expected(case)
    description = expected.get("description")
    assert isinstance(description, str) and description.strip(), "a one-line `description` is required"
    assert "\n" not in description.strip(), "the description is one line"
    unknown = set(expected) - CONTROL_KEYS - RESULT_KEYS
    assert not unknown, f"unknown keys in expected.yaml: {sorted(unknown)}"
    assert sorted((HERE / case / "manifests").glob("*.y*ml")), "no manifests/*.yaml"


def _with_disagreements(cases: list[str]) -> list:
    out = []
    for case in cases:
        reason = _expected(case).get("disagreement")
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        out.append(pytest.param(case, marks=marks, id=case))
    return out


@pytest.mark.parametrize("case", _with_disagreements(CASES))
def test_scenario(case):
    expected = _expected(case)
    result = _run([str(HERE / case / "manifests")], expected.get("featureGates"), expected.get("expand", True),
                  expected.get("gang", False))
    wanted = {k: v for k, v in expected.items() if k not in CONTROL_KEYS}
    problems = list(_mismatches(wanted, result, "result"))
    assert not problems, (
        f"{case}: {expected['description']}\n  " + "\n  ".join(problems) + "\n\nfull result:\n" + _dumps(result)
    )


# ----- order independence ----------------------------------------------------------------


def _documents(folder: Path) -> list[dict]:
    """Every object under `folder`, with `List` envelopes unpacked into their items."""
    docs: list[dict] = []
    for path in sorted(folder.rglob("*")):
        if path.suffix not in (".yaml", ".yml", ".json") or not path.is_file():
            continue
        with open(path, encoding="utf-8") as fh:
            for doc in yaml.load_all(fh, Loader=_TextTimestamps):
                if isinstance(doc, dict) and str(doc.get("kind", "")).endswith("List") and isinstance(doc.get("items"), list):
                    docs.extend(doc["items"])
                elif doc is not None:
                    docs.append(doc)
    return docs


def _write_shuffled(docs: list[dict], seed: int, root: Path) -> Path:
    """The same documents in another order, split into 1-5 files (some in a subfolder, some
    wrapped in a `kind: List` envelope, some JSON)."""
    rng = random.Random(seed)
    docs = list(docs)
    rng.shuffle(docs)
    n_files = rng.randint(1, min(5, len(docs)))
    buckets: list[list[dict]] = [[] for _ in range(n_files)]
    for doc in docs:
        buckets[rng.randrange(n_files)].append(doc)
    out = root / f"shuffled-{seed}"
    for i, bucket in enumerate(buckets):
        if not bucket:
            continue
        folder = out / ("nested" if rng.random() < 0.3 else "")
        folder.mkdir(parents=True, exist_ok=True)
        stem = f"{rng.randrange(10**6):06d}-{i}"
        style = rng.choice(("stream", "list", "json"))
        if style == "json":
            (folder / f"{stem}.json").write_text(
                json.dumps({"apiVersion": "v1", "kind": "List", "items": bucket}), encoding="utf-8"
            )
        elif style == "list":
            (folder / f"{stem}.yaml").write_text(
                yaml.dump({"apiVersion": "v1", "kind": "List", "items": bucket}, Dumper=_SafeDumper, sort_keys=False), encoding="utf-8"
            )
        else:
            (folder / f"{stem}.yaml").write_text(yaml.dump_all(bucket, Dumper=_SafeDumper, sort_keys=False), encoding="utf-8")
    return out


def _assert_order_independent(folder: Path, feature_gates: dict | None, tmp_path: Path, gang: bool = False) -> None:
    baseline = _dumps(_run([str(folder)], feature_gates, gang=gang))
    docs = _documents(folder)
    for seed in SHUFFLE_SEEDS:
        shuffled = _write_shuffled(docs, seed, tmp_path)
        again = _dumps(_run([str(shuffled)], feature_gates, gang=gang))
        assert again == baseline, f"seed {seed}: the result changed with the order of documents and files"


@pytest.mark.parametrize("case", CASES)
def test_scenario_is_independent_of_document_order(case, tmp_path):
    expected = _expected(case)
    _assert_order_independent(HERE / case / "manifests", expected.get("featureGates"), tmp_path,
                              expected.get("gang", False))


def test_demo_fixtures_are_independent_of_document_order(tmp_path):
    _assert_order_independent(FIXTURES, None, tmp_path)


# ----- the demo's story (fixtures/README.md) ---------------------------------------------


def test_demo_tells_its_story():
    result = _run([str(FIXTURES / "cluster"), str(FIXTURES / "workloads")], None)
    assert result["summary"] == {
        "nodes": 67,
        "podsScheduled": 49,
        "podsUnschedulable": 32,
        "podsWaiting": 8,
        "podsPreempted": 0,
        "podGroupsScheduled": 10,
        "podGroupsUnschedulable": 1,
        "podGroupsWaiting": 1,
    }
    groups = {g["name"]: g for g in result["podGroups"]}
    assert {name: (g["status"], g["scheduledPods"], g["pendingPods"]) for name, g in groups.items()} == {
        "llm-pretrain-trainers": ("Scheduled", 16, 0),  # already running
        "llm-finetune-trainers": ("Scheduled", 16, 0),
        "rl-rollout-rollout": ("Scheduled", 8, 0),
        "vision-pretrain-trainers": ("Unschedulable", 0, 32),
        "speech-asr-encoder": ("Scheduled", 4, 0),
        "recsys-ctr/workers/0": ("Scheduled", 2, 0),
        "recsys-ctr/workers/1": ("Scheduled", 2, 0),
        "eval-sweep-evaluators": ("Scheduled", 12, 0),
        "llm-distill-students": ("Waiting", 0, 6),
        "mm-pretrain-vision-encoder": ("Scheduled", 2, 0),
        "mm-pretrain-text-decoder": ("Scheduled", 2, 0),
        "mm-pretrain-param-server": ("Scheduled", 1, 0),
    }
    assert [c["type"] for c in groups["speech-asr-encoder"]["conditions"]] == ["PodGroupScheduled"]
    assert groups["rl-rollout-rollout"]["topologyKey"] == "topology.example.com/rack"
    # rl-rollout's rack constraint: racks z1-r1, z1-r2 (llm-pretrain), z1-r3 and z2-r1
    # (llm-finetune, placed just before) are full, so their trials place nothing; the four empty
    # racks all fit and score alike, and the tie goes to the name that sorts first.
    rl = groups["rl-rollout-rollout"]
    assert rl["placement"] == "z1-r4"
    assert [(p["name"], p["feasible"], p["score"], p["chosen"]) for p in rl["placements"]] == [
        ("z1-r1", False, None, False), ("z1-r2", False, None, False), ("z1-r3", False, None, False),
        ("z1-r4", True, 139, True), ("z2-r1", False, None, False), ("z2-r2", True, 139, False),
        ("z2-r3", True, 139, False), ("z2-r4", True, 139, False)]
    assert rl["placements"][0]["message"] == "minCount (8) cannot be satisfied: 0 scheduled, 7 remaining"

    # 48 free GPU nodes; the training-high gangs take 24 of them, which leaves 24 for a gang of
    # 32: its first cycle fits 24 and fails. Nothing below training-low runs yet, so preemption
    # finds no victims then. A rejected group goes back to the backoff queue (never to the
    # unschedulable pool; v1.37.0 AddAttemptedPodGroupIfNeeded), so the next pass tries it again,
    # once the lower-priority gangs and sweeps have taken a GPU on every node: no pod fits at all,
    # and workload-aware preemption's re-run without those lower-priority pods still fits only
    # 16 (later pods of its own priority took the rest), so nothing is evicted.
    vision = groups["vision-pretrain-trainers"]["conditions"]
    assert [(c["type"], c["status"], c["reason"]) for c in vision] == [("PodGroupInitiallyScheduled", "False", "Unschedulable")]
    # The placement algorithm runs for every group (default gates): vision has no topology
    # constraint, so its one candidate is every node, and its failure is wrapped.
    wrapped = "pod group is unschedulable, 0/1 placements are available, first placement status: "
    assert vision[0]["message"] == (
        wrapped + "minCount (32) cannot be satisfied: 0 scheduled, 31 remaining, pod group preemption: "
        + wrapped + "minCount (32) cannot be satisfied: 16 scheduled, 15 remaining")
    assert [(p["name"], p["nodes"], p["feasible"], p["scheduledPods"], p["message"]) for p in groups["vision-pretrain-trainers"]["placements"]] == [
        (None, 67, False, 0, "minCount (32) cannot be satisfied: 0 scheduled, 31 remaining")]
    pods = {p["name"]: p for p in result["pods"]}
    assert pods["vision-pretrain-0"]["message"] == (
        "0/67 nodes are available: 3 node(s) didn't match Pod's node affinity/selector, 64 Insufficient nvidia.com/gpu."
    )
    # Pod 0 did not fit, which left 0 + 31 < 32: pods 1-31 were never evaluated and carry a
    # copy of the group text as it was (v1.37.0 completePodGroupAlgorithmResult).
    for i in range(1, 32):
        assert pods[f"vision-pretrain-{i}"]["message"] == wrapped + "minCount (32) cannot be satisfied: 0 scheduled, 31 remaining", i
    for i in range(2):
        assert pods[f"data-prep-{i}"]["status"] == "Waiting"
        assert pods[f"data-prep-{i}"]["message"] == 'waiting for pods\'s pod group "data-prep-shards" to appear in scheduling queue'
    for i in range(6):
        assert pods[f"llm-distill-{i}"]["message"] == "waiting for minCount pods from a gang to appear in scheduling queue"
    # The multi-role job, a CompositePodGroup tree (zone over rack), planned last: us-east-1a
    # has no rack with two free nodes left, so its first role fails there and minGroupCount 3
    # is out of reach at once; in us-east-1b both gangs share rack z2-r4.
    (tree,) = result["compositePodGroups"]
    assert (tree["name"], tree["status"], tree["placement"], tree["minGroupCount"]) == (
        "mm-pretrain", "Scheduled", "us-east-1b", 3)
    assert [(p["name"], p["feasible"], p["scheduledPods"], p["message"], p["chosen"]) for p in tree["placements"]] == [
        ("us-east-1a", False, 0, "minCount (3) cannot be satisfied: 0 scheduled, 2 remaining", False),
        ("us-east-1b", True, 5, None, True)]
    assert groups["mm-pretrain-vision-encoder"]["placement"] == groups["mm-pretrain-text-decoder"]["placement"] == "z2-r4"
    assert {pods[f"mm-pretrain-{r}-{i}"]["node"].split("-")[1] for r in ("vision-encoder", "text-decoder") for i in range(2)} == {"z2"}
    # No node holds more GPUs than it has, running pods included.
    one_gpu = {"eval-sweep-evaluators", "mm-pretrain-param-server"}
    gpu_pods = [p for p in result["pods"] if p["node"] and p["podGroup"] not in one_gpu]
    per_node: dict[str, int] = {}
    for p in gpu_pods:
        per_node[p["node"]] = per_node.get(p["node"], 0) + (4 if p["podGroup"].startswith("recsys") else 8)
    for p in result["pods"]:
        if p["podGroup"] in one_gpu:
            per_node[p["node"]] = per_node.get(p["node"], 0) + 1
    assert not ({"gpu-z1-r1-n1", "gpu-z1-r2-n8"} & set(per_node)), "nodes of the running job are full"
    assert max(per_node.values()) <= 8
