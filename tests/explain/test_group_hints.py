"""explain's hints for a gang are computed over the gang (how many of its pods are left and what
room the nodes that pass every other plugin have, now and emptied), never suggest tolerating the
node lifecycle taints (node.kubernetes.io/*), and say why there is no hint when there is none."""
import json
import textwrap

from typer.testing import CliRunner

from podgroup_plan.cli import app


def node(name: str, gpus: int, taint: str | None = None, labels: str = "{}") -> str:
    taints = f"spec: {{taints: [{{key: {taint}, effect: NoSchedule}}]}}\n" if taint else ""
    return (f"---\napiVersion: v1\nkind: Node\nmetadata: {{name: {name}, labels: {labels}}}\n{taints}"
            f'status: {{allocatable: {{cpu: "64", memory: 512Gi, pods: "110", nvidia.com/gpu: "{gpus}"}}}}\n')


def job(n: int, gpus: int, selector: str = "") -> str:
    return textwrap.dedent(f"""\
        ---
        apiVersion: batch/v1
        kind: Job
        metadata: {{name: big, namespace: ml, uid: 11111111-2222-3333-4444-555555555555}}
        spec:
          parallelism: {n}
          completions: {n}
          completionMode: Indexed
          scheduling: {{schedulingPolicy: {{gang: {{}}}}}}
          template:
            spec:
              restartPolicy: Never{selector}
              containers: [{{name: c, image: c, resources: {{requests: {{cpu: "1", nvidia.com/gpu: "{gpus}"}},
                            limits: {{nvidia.com/gpu: "{gpus}"}}}}}}]
        """)


def hints(tmp_path, text: str, *target: str) -> list[str]:
    (tmp_path / "in.yaml").write_text(text)
    out = CliRunner().invoke(app, ["explain", str(tmp_path / "in.yaml"), *target, "-o", "json"])
    assert out.exit_code == 0, out.output
    return [h["text"] for h in json.loads(out.stdout)["wouldFit"] or []]


def test_a_gang_larger_than_the_cluster_is_told_so_not_one_pods_shortfall(tmp_path):
    # 40 pods of 8 GPUs on 6 nodes of 8: no amount of freeing makes it fit
    text = "".join(node(f"gpu-{i}", 8) for i in range(6)) + job(40, 8)
    found = hints(tmp_path, text, "--job", "ml/big")
    gang = [h for h in found if h.startswith("the gang has")]
    assert gang == ["the gang has 40 pod(s) left to place, each asking 1 cpu and 8 nvidia.com/gpu: even empty, "
                    "the 6 node(s) that pass every other filter could hold only 6 such pod(s) (6 node(s) large "
                    "enough); the gang needs more or larger nodes (or a smaller gang)"]
    assert not any("more;" in h and "free" in h for h in found)  # no per-pod "needs 2 more on node X"


def test_a_gang_that_fits_an_emptied_cluster_is_told_how_much_to_free(tmp_path):
    running = "".join(textwrap.dedent(f"""\
        ---
        apiVersion: v1
        kind: Pod
        metadata: {{name: busy-{i}, namespace: other}}
        spec:
          nodeName: gpu-{i}
          containers: [{{name: c, image: c, resources: {{requests: {{nvidia.com/gpu: "6"}}, limits: {{nvidia.com/gpu: "6"}}}}}}]
        status: {{phase: Running}}
        """) for i in range(4))
    text = "".join(node(f"gpu-{i}", 8) for i in range(6)) + running + job(5, 8)
    (gang,) = [h for h in hints(tmp_path, text, "--job", "ml/big") if h.startswith("the gang has")]
    assert "the 6 node(s) that pass every other filter have room for" in gang
    assert "and 6 if emptied" in gang and "must be freed on them" in gang


def test_lifecycle_taints_are_never_suggested_for_toleration(tmp_path):
    text = node("ready", 1) + node("gone", 8, taint="node.kubernetes.io/unreachable") + \
        node("tainted", 8, taint="dedicated") + textwrap.dedent("""\
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: p, namespace: ml}
        spec:
          containers: [{name: c, image: c, resources: {requests: {nvidia.com/gpu: "8"}, limits: {nvidia.com/gpu: "8"}}}]
        """)
    (taint,) = [h for h in hints(tmp_path, text, "--pod", "ml/p") if "taint" in h]
    assert "would pass if the pod tolerated dedicated:NoSchedule (1 node(s))" in taint
    assert "node.kubernetes.io/unreachable:NoSchedule (1 node(s))): the node must recover" in taint
    assert "tolerated node.kubernetes.io" not in taint


def test_when_every_node_fails_two_filters_it_says_why_there_is_no_hint(tmp_path):
    text = "".join(node(f"n{i}", 1, labels="{pool: cpu}") for i in range(3)) + textwrap.dedent("""\
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: p, namespace: ml}
        spec:
          nodeSelector: {pool: gpu}
          containers: [{name: c, image: c, resources: {requests: {nvidia.com/gpu: "8"}, limits: {nvidia.com/gpu: "8"}}}]
        """)
    assert hints(tmp_path, text, "--pod", "ml/p") == [
        "no hint: no node fails only one filter plugin, so no single change makes one pass "
        "(3 node(s): NodeAffinity and NodeResourcesFit)"]
