"""Jobs, JobSets, Deployments, ReplicaSets, StatefulSets -> model/controllers.py objects.

Mirrors the apiserver's defaulting of these kinds (`pkg/apis/batch/v1/defaults.go`,
`pkg/apis/apps/v1/defaults.go`: parallelism 1, replicas 1, completionMode NonIndexed,
podManagementPolicy OrderedReady) and JobSet's webhook defaults
(`kubernetes-sigs/jobset` `pkg/webhooks/jobset_webhook.go`: Indexed completion, DNS hostnames
on, replicas 1, groupName `default`). Each pod template is decoded as a Pod (decode_pods) and
its problems are reported at the template's own path in the controller's document.
"""
from __future__ import annotations

from typing import Mapping

import orjson

from podgroup_plan.controllers.names import fnv32a, safe_encode
from podgroup_plan.errors import shorten
from podgroup_plan.loading.admission import Admission
from podgroup_plan.loading.decode_groups import _disruption_mode, _topology_key
from podgroup_plan.loading.decode_meta import Report, namespace_of, source_of, timestamp
from podgroup_plan.loading.decode_pods import Memo, decode_pod
from podgroup_plan.loading.decode_priorities import PriorityTable
from podgroup_plan.loading.decode_scheduling import label_selector
from podgroup_plan.loading.documents import Document
from podgroup_plan.model.controllers import (
    Deployment,
    IndexIntervals,
    Job,
    JobScheduling,
    JobSet,
    ReplicaSet,
    ReplicatedJob,
    StatefulSet,
)
from podgroup_plan.model.objects import BASIC, GANG, OwnerReference, Pod
from podgroup_plan.model.operators import GANG_ANNOTATION, NO_GANG, TOPOLOGY_ANNOTATION, GangRequest

GROUP_TEMPLATE_ANNOTATION = "scheduling.k8s.io/group-template-name"
REVISION_ANNOTATION = "deployment.kubernetes.io/revision"
JOBSET_DEFAULT_GROUP = "default"


def decode_template(doc: Document, template: Mapping, namespace: str, path: tuple,
                    priorities: PriorityTable, report: Report, memo: Memo,
                    admission: Admission | None = None) -> Pod:
    """A PodTemplateSpec as a Pod named "" (expansion names it); problems at `path`. The pods a
    controller creates go through the apiserver's admission like any new pod (admission.py), so
    the template is admitted as such a pod would be; a refusal (the controller could create no
    pod from it) is reported at the template's field."""
    meta = dict(template.get("metadata") or {})
    meta["name"] = ""
    meta["namespace"] = namespace
    for field in ("ownerReferences", "uid", "creationTimestamp"):  # not a template's to set
        meta.pop(field, None)
    spec = template["spec"]
    refused = priorities.refusal(spec) if spec.get("priority") is None else None
    if refused is not None:  # Priority admission refuses every pod the controller would create from it
        report(path + ("spec",) + refused[0], refused[1])
    obj = {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec}
    if admission is not None:
        obj = admission.admit(obj, lambda p, m: report(path + p, m)) or obj
    pod_doc = Document(obj, doc.file, doc.document, doc.line, doc.items, doc.span)
    return decode_pod(pod_doc, priorities, lambda p, m: report(path + p, m), memo)


GANG_VALUES = ("true", "single", "false")


def gang_request(meta: Mapping, report: Report) -> GangRequest:
    """The `podgroup-plan.io/gang` and `podgroup-plan.io/topology` annotations."""
    annotations = meta.get("annotations") or {}
    mode = annotations.get(GANG_ANNOTATION)
    topology = annotations.get(TOPOLOGY_ANNOTATION) or None
    if mode is None and topology is None:
        return NO_GANG
    if mode is not None and mode not in GANG_VALUES:
        report(("metadata", "annotations", GANG_ANNOTATION),
               f'unsupported value "{mode}"; supported values: "true", "single", "false"')
        mode = None
    return GangRequest(mode, topology)


def controller_owner(meta: Mapping) -> OwnerReference | None:
    for ref in meta.get("ownerReferences") or ():
        if ref.get("controller"):
            return OwnerReference(ref["kind"], ref["name"], True)
    return None


def _scheduling(raw: Mapping | None) -> JobScheduling | None:
    if raw is None:
        return None
    policy = raw.get("schedulingPolicy") or {}
    gang = policy.get("gang")
    return JobScheduling(
        policy=GANG if gang is not None else BASIC,
        min_count=(gang or {}).get("minCount"),
        topology_key=_topology_key(raw),
        disruption_mode=_disruption_mode(raw),
    )


def completed_indexes(text: str | None, path: tuple, report: Report) -> IndexIntervals:
    """`status.completedIndexes`: "1,3-5,7" (indexed_job_utils.go's interval text), kept as
    intervals (a range is never expanded: "0-1999999999" must not build two billion ints)."""
    out: list[tuple[int, int]] = []
    for part in (text or "").split(","):
        if not part:
            continue
        first, sep, last = part.partition("-")
        try:
            if len(first) > 10 or len(last) > 10:  # past int32, and past int()'s digit limit
                raise ValueError
            lo, hi = int(first), int(last) if sep else int(first)
        except ValueError:
            report(path, f'invalid completed indexes "{shorten(text or "")}"; expected e.g. "1,3-5"')
            return IndexIntervals()
        out.append((lo, hi))
    return IndexIntervals(out)


def job_from_spec(doc: Document, meta: Mapping, spec: Mapping, status: Mapping, path: tuple,
                  priorities: PriorityTable, report: Report, memo: Memo,
                  namespace: str, name: str, admission: Admission | None = None) -> Job:
    """A Job from its spec at `path` (`("spec",)`, or a JobSet's replicated job template)."""
    if spec.get("completions") is None and spec.get("parallelism") is None:
        # SetDefaults_Job (pkg/apis/batch/v1/defaults.go): both unset -> both 1, before validation
        spec = {**spec, "completions": 1, "parallelism": 1}
    completions = spec.get("completions")
    indexed = spec.get("completionMode") == "Indexed"
    conditions = status.get("conditions") or ()
    suspended = any(c.get("type") == "Suspended" and c.get("status") == "True" for c in conditions)
    annotations = meta.get("annotations") or {}
    parallelism = spec.get("parallelism")
    return Job(
        namespace=namespace,
        name=name,
        uid=meta.get("uid") or "",
        template=decode_template(doc, spec["template"], namespace, path + ("template",),
                                 priorities, report, memo, admission),
        parallelism=1 if parallelism is None else parallelism,
        completions=completions,
        indexed=indexed,
        suspend=bool(spec.get("suspend")),
        manual_selector=bool(spec.get("manualSelector")),
        scheduling=_scheduling(spec.get("scheduling")),
        owner=controller_owner(meta),
        delegated_template=annotations.get(GROUP_TEMPLATE_ANNOTATION),
        succeeded=status.get("succeeded") or 0,
        failed=status.get("failed") or 0,
        completed_indexes=completed_indexes(status.get("completedIndexes"),
                                            ("status", "completedIndexes"), report),
        started=bool(status.get("startTime")) or suspended,
        finished=any(c.get("type") in ("Complete", "Failed") and c.get("status") == "True"
                     for c in conditions),
        creation_timestamp=timestamp(meta.get("creationTimestamp"), ("metadata", "creationTimestamp"), report),
        source=source_of(doc),
    )


def decode_job(doc: Document, priorities: PriorityTable, report: Report, memo: Memo,
               admission: Admission | None = None) -> Job:
    obj = doc.obj
    meta = obj["metadata"]
    return job_from_spec(doc, meta, obj["spec"], obj.get("status") or {}, ("spec",), priorities,
                         report, memo, namespace_of(meta), meta["name"], admission)


def _replicas(spec: Mapping) -> int:
    replicas = spec.get("replicas")
    return 1 if replicas is None else replicas


def decode_replica_set(doc: Document, priorities: PriorityTable, report: Report, memo: Memo,
                       admission: Admission | None = None
                       ) -> ReplicaSet | None:
    obj = doc.obj
    meta, spec = obj["metadata"], obj["spec"]
    if not spec.get("template"):
        return None  # read for its selector only
    namespace = namespace_of(meta)
    try:
        revision = int((meta.get("annotations") or {}).get(REVISION_ANNOTATION, 0))
    except ValueError:
        revision = 0
    return ReplicaSet(
        namespace=namespace,
        name=meta["name"],
        uid=meta.get("uid") or "",
        template=decode_template(doc, spec["template"], namespace, ("spec", "template"),
                                 priorities, report, memo, admission),
        replicas=_replicas(spec),
        owner=controller_owner(meta),
        revision=revision,
        creation_timestamp=timestamp(meta.get("creationTimestamp"), ("metadata", "creationTimestamp"), report),
        source=source_of(doc),
    )


def template_hash(template: Mapping) -> str:
    """`pod-template-hash`: upstream's `controller.ComputeHash` hashes the Go template object
    (fnv32a, SafeEncodeString); we hash its JSON text with sorted keys the same way, so the
    value is stable from run to run but not the one a live cluster shows (docs/controllers.md)."""
    return safe_encode(str(fnv32a(orjson.dumps(template, option=orjson.OPT_SORT_KEYS))))


def decode_deployment(doc: Document, priorities: PriorityTable, report: Report, memo: Memo,
                      admission: Admission | None = None) -> Deployment:
    obj = doc.obj
    meta, spec = obj["metadata"], obj["spec"]
    namespace = namespace_of(meta)
    return Deployment(
        namespace=namespace,
        name=meta["name"],
        uid=meta.get("uid") or "",
        template=decode_template(doc, spec["template"], namespace, ("spec", "template"),
                                 priorities, report, memo, admission),
        template_hash=template_hash(spec["template"]),
        replicas=_replicas(spec),
        selector=label_selector(spec.get("selector")),
        creation_timestamp=timestamp(meta.get("creationTimestamp"), ("metadata", "creationTimestamp"), report),
        source=source_of(doc),
        paused=bool(spec.get("paused")),
    )


def decode_stateful_set(doc: Document, priorities: PriorityTable, report: Report, memo: Memo,
                        admission: Admission | None = None
                        ) -> StatefulSet | None:
    obj = doc.obj
    meta, spec = obj["metadata"], obj["spec"]
    if not spec.get("template"):
        return None
    namespace = namespace_of(meta)
    return StatefulSet(
        namespace=namespace,
        name=meta["name"],
        uid=meta.get("uid") or "",
        template=decode_template(doc, spec["template"], namespace, ("spec", "template"),
                                 priorities, report, memo, admission),
        replicas=_replicas(spec),
        ordinals_start=((spec.get("ordinals") or {}).get("start")) or 0,
        ordered_ready=(spec.get("podManagementPolicy") or "OrderedReady") == "OrderedReady",
        creation_timestamp=timestamp(meta.get("creationTimestamp"), ("metadata", "creationTimestamp"), report),
        source=source_of(doc),
    )


def decode_job_set(doc: Document, priorities: PriorityTable, report: Report, memo: Memo,
                   admission: Admission | None = None) -> JobSet:
    obj = doc.obj
    meta, spec = obj["metadata"], obj["spec"]
    namespace = namespace_of(meta)
    network = spec.get("network") or {}
    replicated = []
    for i, rj in enumerate(spec["replicatedJobs"]):
        template = rj["template"]
        job_spec = dict(template["spec"])
        if job_spec.get("completionMode") is None:  # the webhook's defaults
            job_spec["completionMode"] = "Indexed"
        pod_spec = job_spec["template"]["spec"]
        if not pod_spec.get("restartPolicy"):
            job_spec["template"] = {**job_spec["template"], "spec": {**pod_spec, "restartPolicy": "OnFailure"}}
        job_meta = template.get("metadata") or {}
        job = job_from_spec(doc, job_meta, job_spec, {}, ("spec", "replicatedJobs", i, "template", "spec"),
                            priorities, report, memo, namespace, "", admission)
        replicated.append(ReplicatedJob(
            name=rj["name"],
            replicas=_replicas(rj),
            group_name=rj.get("groupName") or JOBSET_DEFAULT_GROUP,
            job=job,
            job_labels=job_meta.get("labels") or {},
        ))
    dns = network.get("enableDNSHostnames")
    return JobSet(
        namespace=namespace,
        name=meta["name"],
        uid=meta.get("uid") or "",
        replicated_jobs=tuple(replicated),
        suspend=bool(spec.get("suspend")),
        dns_hostnames=True if dns is None else dns,
        in_order_startup=((spec.get("startupPolicy") or {}).get("startupPolicyOrder") == "InOrder"),
        gang=gang_request(meta, report),
        creation_timestamp=timestamp(meta.get("creationTimestamp"), ("metadata", "creationTimestamp"), report),
        source=source_of(doc),
    )


# Each controller kind's decoder, for `decode.Decoder.finish` (which imports this module only
# for an input that has controllers).
DECODERS = {"Job": decode_job, "JobSet": decode_job_set, "Deployment": decode_deployment,
            "ReplicaSet": decode_replica_set, "StatefulSet": decode_stateful_set}
