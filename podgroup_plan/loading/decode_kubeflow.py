"""The Kubeflow Training Operator v1's jobs (`kubeflow.org/v1` PyTorchJob, TFJob) ->
model/operators.py `KubeflowJob`s.

Both share the replica-spec shape (`<kind>ReplicaSpecs: {<type>: {replicas, template}}` and
`runPolicy`), and one controller library (`pkg/controller.v1/common`) makes their pods; they
differ in their replica types, their webhooks' rules and PyTorch's init container. Read in
kubeflow/trainer v1.9.4 (branch release-1.9 of kubeflow/training-operator):

* PyTorchJob: `pkg/apis/kubeflow.org/v1/pytorch_defaults.go` (replicas 1), the webhook
  `pkg/webhooks/pytorch/pytorchjob_webhook.go` (`validatePyTorchReplicaSpecs`) and
  `pkg/controller.v1/pytorch/initcontainer.go` (workers of a job with a Master get the
  `init-pytorch` init container, 50m cpu / 10Mi requested);
* TFJob: `pkg/apis/kubeflow.org/v1/tensorflow_defaults.go` (replicas 1; the replica types' keys
  camel-cased, `setTensorflowTypeNamesToCamelCase`: `ps` is `PS`, `worker` is `Worker`) and the
  webhook `pkg/webhooks/tensorflow/tfjob_webhook.go` (`validateTFReplicaSpecs`: a container named
  `tensorflow` in each template, an image in each container, at most one Chief or Master; the
  replica types themselves are not checked). No init container.
"""
from __future__ import annotations

from typing import Any, Mapping

from podgroup_plan.loading.admission import Admission
from podgroup_plan.loading.decode_controllers import decode_template, gang_request
from podgroup_plan.loading.decode_meta import Report, namespace_of, source_of, timestamp
from podgroup_plan.loading.decode_pods import Memo
from podgroup_plan.loading.decode_priorities import PriorityTable
from podgroup_plan.loading.documents import Document
from podgroup_plan.model.operators import KubeflowJob, ReplicaSpec

PYTORCH_INIT_CONTAINER = {  # initcontainer.go's default template (image: alpine:3.10)
    "name": "init-pytorch", "image": "alpine:3.10",
    "resources": {"limits": {"cpu": "100m", "memory": "20Mi"},
                  "requests": {"cpu": "50m", "memory": "10Mi"}},
}
TF_TYPES = ("PS", "Worker", "Chief", "Master", "Evaluator")  # tensorflow_types.go, TFJobReplicaType*


def _finished(conditions: Any) -> bool:
    return any(c.get("type") in ("Succeeded", "Failed", "Complete") and c.get("status") == "True"
               for c in conditions or ())


def _job(doc: Document, kind: str, specs: list[ReplicaSpec], report: Report) -> KubeflowJob:
    obj = doc.obj
    meta, spec = obj["metadata"], obj["spec"]
    run_policy = spec.get("runPolicy") or {}
    scheduling = run_policy.get("schedulingPolicy") or {}
    return KubeflowJob(
        kind=kind,
        namespace=namespace_of(meta),
        name=meta["name"],
        uid=meta.get("uid") or "",
        replica_specs=tuple(specs),
        min_available=scheduling.get("minAvailable"),
        suspend=bool(run_policy.get("suspend")),
        finished=_finished((obj.get("status") or {}).get("conditions")),
        gang=gang_request(meta, report),
        creation_timestamp=timestamp(meta.get("creationTimestamp"), ("metadata", "creationTimestamp"), report),
        source=source_of(doc),
    )


def decode_pytorch_job(doc: Document, priorities: PriorityTable, report: Report, memo: Memo,
                       admission: Admission | None = None) -> KubeflowJob:
    spec = doc.obj["spec"]
    namespace = namespace_of(doc.obj["metadata"])
    raw_specs = spec["pytorchReplicaSpecs"]
    if not raw_specs:
        report(("spec", "pytorchReplicaSpecs"), "must be required")
    has_master = "Master" in raw_specs
    specs = []
    for rtype in sorted(raw_specs):  # Master before Worker; any order gives the same pods
        rspec = raw_specs[rtype] or {}
        path = ("spec", "pytorchReplicaSpecs", rtype)
        if not _pytorch_replica_rules(rtype, rspec, path, report):
            continue
        template = rspec["template"]
        if has_master and rtype == "Worker":  # setInitContainer: workers wait for the master
            pod_spec = dict(template["spec"])
            pod_spec["initContainers"] = list(pod_spec.get("initContainers") or ()) + [PYTORCH_INIT_CONTAINER]
            template = {**template, "spec": pod_spec}
        replicas = rspec.get("replicas")
        specs.append(ReplicaSpec(
            type=rtype,
            replicas=1 if replicas is None else replicas,
            template=decode_template(doc, template, namespace, path + ("template",),
                                     priorities, report, memo, admission),
        ))
    return _job(doc, "PyTorchJob", specs, report)


def _pytorch_replica_rules(rtype: str, rspec: Mapping, path: tuple, report: Report) -> bool:
    """The PyTorchJob webhook's replica rules (pkg/webhooks/pytorch/pytorchjob_webhook.go,
    `validatePyTorchReplicaSpecs`, after defaulting replicas to 1); False: no pods from it."""
    ok = True
    if rtype not in ("Master", "Worker"):
        report(path, f'unsupported value "{rtype}"; supported values: "Master", "Worker"')
        ok = False
    template = rspec.get("template")
    if template is None:
        report(path + ("template",), "required")
        return False
    containers = template["spec"]["containers"]
    if not any(c.get("name") == "pytorch" for c in containers):
        report(path + ("template", "spec", "containers"), "must have at least one container with name pytorch")
    replicas = rspec.get("replicas")
    if rtype == "Master" and replicas is not None and replicas != 1:
        report(path + ("replicas",), "must be 1")
    elif rtype != "Master" and replicas is not None and replicas < 1:
        report(path + ("replicas",), "must be at least 1")
    return ok


def decode_tf_job(doc: Document, priorities: PriorityTable, report: Report, memo: Memo,
                  admission: Admission | None = None) -> KubeflowJob:
    spec = doc.obj["spec"]
    namespace = namespace_of(doc.obj["metadata"])
    raw_specs = spec["tfReplicaSpecs"]
    if not raw_specs:
        report(("spec", "tfReplicaSpecs"), "must be required")
    specs = []
    chief_or_master = 0
    for written in sorted(raw_specs):
        rspec = raw_specs[written] or {}
        path = ("spec", "tfReplicaSpecs", written)
        # setTypeNameToCamelCase: a key equal to a known type but for case takes the type's name
        rtype = next((t for t in TF_TYPES if t.lower() == written.lower()), written)
        chief_or_master += rtype in ("Chief", "Master")
        template = rspec.get("template")
        if template is None:
            report(path + ("template",), "required")
            continue
        containers = template["spec"].get("containers") or ()
        if not containers:
            report(path + ("template", "spec", "containers"), "must be specified")
        for i, c in enumerate(containers):
            if not c.get("image"):
                report(path + ("template", "spec", "containers", i, "image"), "must be required")
        if not any(c.get("name") == "tensorflow" for c in containers):
            report(path + ("template", "spec", "containers"), "must have at least one container with name tensorflow")
        # no webhook or CRD rule on replicas: a negative count is accepted and makes no pods
        replicas = rspec.get("replicas")
        specs.append(ReplicaSpec(
            type=rtype,
            replicas=1 if replicas is None else replicas,
            template=decode_template(doc, template, namespace, path + ("template",),
                                     priorities, report, memo, admission),
        ))
    if chief_or_master > 1:
        report(("spec", "tfReplicaSpecs"), "must not have more than 1 Chief or Master role")
    return _job(doc, "TFJob", specs, report)
