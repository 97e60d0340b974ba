"""What-if scenarios and headroom copies as manifests, for the oracle (test_what_if_oracle.py).

A what-if scenario is a plan of a changed input; headroom's count is a plan of the input with
that many copies added. Both are written back as the documents kube-scheduler is given: the
change applied by the planner's own `apply_changes` (podgroup_plan/analyses/what_if/changes.py)
and the copies made by its own `copy_of` (analyses/headroom/workload.py), translated to the
generated documents they came from.
"""
from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st
from oracle_generate import NAMESPACES, ZONE, json_copy, pod, scheduler_cases

from podgroup_plan.analyses.what_if.changes import CORDON, DRAIN, FAIL, Applied

# controllers not in the input: what the change itself recreates (a kubectl dump of pods)
OWNERS = [None, None, ("apps/v1", "ReplicaSet"), ("apps/v1", "StatefulSet"), ("batch/v1", "Job")]
RUNNING_GANG = "running-gang"


def _key(doc: dict) -> tuple[str, str]:
    meta = doc["metadata"]
    return meta.get("namespace") or "default", meta["name"]


@st.composite
def what_if_cases(draw) -> dict:
    """A scheduler-mode case whose running pods now and then belong to a controller that is not
    in the input, or to a running gang (a PodGroup whose members run, written as 1.37 leaves it:
    PodGroupInitiallyScheduled True), and one change: fail, drain or cordon a node or a zone."""
    case = draw(scheduler_cases())
    docs = case["documents"]
    running = [d for d in docs if d["kind"] == "Pod" and d["spec"].get("nodeName")]
    for d in running:
        owner = draw(st.sampled_from(OWNERS))
        if owner is not None:
            name = f"owner-{draw(st.integers(0, 1))}"
            d["metadata"]["ownerReferences"] = [{"apiVersion": owner[0], "kind": owner[1], "name": name,
                                                 "uid": f"uid-{owner[1]}-{name}", "controller": True}]
    if running and draw(st.booleans()):
        ns = running[0]["metadata"]["namespace"]
        members = [d for d in running if d["metadata"]["namespace"] == ns][:3]
        docs.append({"apiVersion": "scheduling.k8s.io/v1beta1", "kind": "PodGroup",
                     "metadata": {"name": RUNNING_GANG, "namespace": ns, "creationTimestamp": "2026-05-01T09:00:00Z"},
                     "spec": {"schedulingPolicy": {"gang": {"minCount": len(members)}}, "priority": 0},
                     "status": {"conditions": [{"type": "PodGroupInitiallyScheduled", "status": "True",
                                                "reason": "Scheduled", "message": "",
                                                "lastTransitionTime": "2026-05-01T09:00:00Z"}]}})
        for d in members:
            d["spec"]["schedulingGroup"] = {"podGroupName": RUNNING_GANG}
            d["spec"]["priority"] = 0
            for c in d["spec"]["containers"]:  # no host ports on bound pods (oracle_exclusions rule 14)
                c.pop("ports", None)
    nodes = [d for d in docs if d["kind"] == "Node"]
    busy = {d["spec"]["nodeName"] for d in running}
    action = draw(st.sampled_from([FAIL, FAIL, DRAIN, CORDON]))
    # mostly a node that runs something: a change that moves nothing tells little
    pick = draw(st.sampled_from([n for n in nodes if n["metadata"]["name"] in busy] if busy and draw(st.integers(0, 3))
                                else nodes))
    target = pick["metadata"]["name"] if draw(st.booleans()) else f"{ZONE}={pick['metadata']['labels'][ZONE]}"
    return {**case, "action": action, "target": target}


def changed_documents(documents: list[dict], applied: Applied) -> list[dict]:
    """`documents` as the change left them: failed nodes and every pod they took gone, cordoned
    and drained nodes `spec.unschedulable: true`, evicted or lost pods gone, and each pod the
    change recreated written as the pending pod it made (its new name, its creation time, a
    uid: a controller's new pod is admitted, its spec taken as it is)."""
    failed = set(applied.failed)
    fenced = set(applied.cordoned) | set(applied.drained)
    kept = {p.key for p in applied.cluster.pods}
    displaced = {d.pod.key for d in applied.displaced}
    by_key = {_key(d): d for d in documents if d["kind"] == "Pod"}
    out: list[dict] = []
    for doc in documents:
        if doc["kind"] == "Node":
            name = doc["metadata"]["name"]
            if name in failed:
                continue
            if name in fenced:
                doc = copy.deepcopy(doc)
                doc.setdefault("spec", {})["unschedulable"] = True
        elif doc["kind"] == "Pod" and (_key(doc) in displaced or _key(doc) not in kept):
            continue
        out.append(doc)
    pods = {p.key: p for p in applied.cluster.pods}
    for d in applied.displaced:
        if d.replacement is None:
            continue
        new = pods[(d.pod.namespace, d.replacement)]
        doc = json_copy(by_key[d.pod.key])
        doc["metadata"].update(name=new.name, creationTimestamp=new.creation_timestamp, uid=new.uid)
        doc["spec"].pop("nodeName", None)
        doc.pop("status", None)
        out.append(doc)
    return out


@st.composite
def headroom_cases(draw) -> dict:
    """A scheduler-mode case and a gang to add copies of: a PodGroup (gang, minCount = its
    size, now and then a zone constraint) and its 1-3 pods of one shape, priority 0 so that
    the queue takes the copies after the input's own pending work, as headroom plans them."""
    case = draw(scheduler_cases())
    size = draw(st.integers(1, 3))
    ns = draw(st.sampled_from(NAMESPACES))
    spec: dict[str, Any] = {"schedulingPolicy": {"gang": {"minCount": size}}, "priority": 0}
    if draw(st.integers(0, 2)) == 0:
        spec["schedulingConstraints"] = {"topology": [{"key": ZONE}]}
    template = [{"apiVersion": "scheduling.k8s.io/v1beta1", "kind": "PodGroup",
                 "metadata": {"name": "extra", "namespace": ns}, "spec": spec}]
    shape = draw(pod("extra", None, pending=True))
    for j in range(size):
        p = json_copy(shape)
        p["metadata"].update(name=f"extra-{j}", namespace=ns)
        p["spec"]["priority"] = 0
        p["spec"]["schedulingGroup"] = {"podGroupName": "extra"}
        template.append(p)
    return {**case, "template": template}


def copy_documents(template: list[dict], copies: list[Any]) -> list[dict]:
    """The documents of headroom's copies (`copy_of` results), from the template's documents:
    each object renamed, its PodGroup reference and creation time as the copy has them."""
    by_name = {(d["kind"], d["metadata"]["name"]): d for d in template}
    out: list[dict] = []
    for work, k in copies:
        suffix = f"-h{k}"
        for g in work.pod_groups:
            doc = json_copy(by_name[("PodGroup", g.name.removesuffix(suffix))])
            doc["metadata"].update(name=g.name, creationTimestamp=g.creation_timestamp)
            out.append(doc)
        for p in work.pods:
            doc = json_copy(by_name[("Pod", p.name.removesuffix(suffix))])
            doc["metadata"].update(name=p.name, creationTimestamp=p.creation_timestamp)
            doc["spec"]["schedulingGroup"] = {"podGroupName": p.pod_group}
            out.append(doc)
    return out
