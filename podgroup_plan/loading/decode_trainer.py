"""TrainJobs (`trainer.kubeflow.org/v1alpha1`) -> the JobSet their runtime makes.

Mirrors kubeflow/trainer v2.3.0 (`pkg/runtime/core/trainingruntime.go`: `newRuntimeInfo`,
`RuntimeInfo`; `pkg/runtime/framework/plugins/jobset/jobset.go`: `syncParallelCount`, `Build`;
`builder.go`: `Trainer`, `Initializer`; the ML policy plugins `torch`, `mpi`, `jax`, `xgboost`,
`plainml` `EnforceMLPolicy`):

* the runtime is `spec.runtimeRef` (kind ClusterTrainingRuntime by default, or a
  TrainingRuntime in the TrainJob's namespace); one that is not in the input is bad input;
* the JobSet is named as the TrainJob, in its namespace, with the runtime template's labels and
  annotations and a controller ownerReference to the TrainJob; `suspend` is the TrainJob's;
* each replicated job is one PodSet: its count is the Job template's `parallelism` (default 1),
  for the one labelled `trainer.kubeflow.org/trainjob-ancestor-step: trainer` the runtime's
  `mlPolicy.numNodes` (default 1), overridden by the TrainJob's `trainer.numNodes` (for MPI the
  `node` job gets `numNodes - 1` when `runLauncherAsNode`); `parallelism` and `completions` are
  set to the count and `replicas` to 1 for the trainer and the initializers;
* `trainer.resourcesPerNode` is merged (per resource, strategic merge) into the container named
  `node` of the trainer job (and of MPI's `node` job when `runLauncherAsNode`).

The resulting JobSet is decoded as any JobSet (decode_controllers), its problems reported at the
runtime's own fields.
"""
from __future__ import annotations

import copy
from dataclasses import replace
from typing import Callable, Mapping

from podgroup_plan.loading.admission import Admission
from podgroup_plan.loading.decode_controllers import decode_job_set, gang_request
from podgroup_plan.loading.decode_meta import Report, namespace_of, source_of
from podgroup_plan.loading.decode_pods import Memo
from podgroup_plan.loading.decode_priorities import PriorityTable
from podgroup_plan.loading.documents import Document
from podgroup_plan.model.controllers import JobSet
from podgroup_plan.model.objects import OwnerReference

ANCESTOR_LABEL = "trainer.kubeflow.org/trainjob-ancestor-step"
TRAINER, NODE = "trainer", "node"
INITIALIZERS = ("dataset-initializer", "model-initializer")
TRAINER_GROUP = "trainer.kubeflow.org"


class Runtimes:
    """The TrainingRuntimes (by namespace and name) and ClusterTrainingRuntimes (by name) of
    the input, and a reporter for each runtime's document."""

    def __init__(self, namespaced: list[Document], cluster: list[Document],
                 reporter: Callable[[Document], Report]):
        self.namespaced = {(namespace_of(d.obj["metadata"]), d.obj["metadata"]["name"]): d for d in namespaced}
        self.cluster = {d.obj["metadata"]["name"]: d for d in cluster}
        self.reporter = reporter
        self._reported: set = set()

    def report_once(self, doc: Document) -> Report:
        """Problems of a runtime's template, once however many TrainJobs use it."""
        inner = self.reporter(doc)

        def report(path: tuple, message: str) -> None:
            key = (id(doc), path, message)
            if key not in self._reported:
                self._reported.add(key)
                inner(path, message)
        return report


def train_job_decoder(runtimes: Runtimes):
    def decode(doc: Document, priorities: PriorityTable, report: Report, memo: Memo,
               admission: Admission | None = None) -> JobSet | None:
        return decode_train_job(doc, runtimes, priorities, report, memo, admission)
    return decode


def decode_train_job(doc: Document, runtimes: Runtimes, priorities: PriorityTable, report: Report,
                     memo: Memo, admission: Admission | None = None) -> JobSet | None:
    obj = doc.obj
    meta, spec = obj["metadata"], obj["spec"]
    namespace, name = namespace_of(meta), meta["name"]
    ref = spec["runtimeRef"]
    kind = ref.get("kind") or "ClusterTrainingRuntime"
    group = ref.get("apiGroup") or TRAINER_GROUP
    if group != TRAINER_GROUP or kind not in ("ClusterTrainingRuntime", "TrainingRuntime"):
        report(("spec", "runtimeRef"), f'unsupported runtime {kind} of API group "{group}"; '
                                       f'supported: TrainingRuntime, ClusterTrainingRuntime of "{TRAINER_GROUP}"')
        return None
    if kind == "TrainingRuntime":
        runtime = runtimes.namespaced.get((namespace, ref["name"]))
        missing = f'TrainingRuntime "{ref["name"]}" specified in TrainJob is not in the input (namespace {namespace})'
    else:
        runtime = runtimes.cluster.get(ref["name"])
        missing = f'ClusterTrainingRuntime "{ref["name"]}" specified in TrainJob is not in the input'
    if runtime is None:
        report(("spec", "runtimeRef", "name"), missing)
        return None
    trainer = spec.get("trainer") or {}
    job_set = runtime_job_set(runtime.obj["spec"], trainer)
    job_set["metadata"] = {**job_set["metadata"], "name": name, "namespace": namespace,
                           "creationTimestamp": meta.get("creationTimestamp")}
    if spec.get("suspend") is not None:
        job_set["spec"]["suspend"] = spec["suspend"]
    # The JobSet's problems are the runtime's: report them at its `spec.template` fields.
    runtime_report = runtimes.report_once(runtime)

    def at_runtime(path: tuple, message: str) -> None:
        if path[:1] == ("spec",):
            runtime_report(("spec", "template") + path, message)
        else:
            report(path, message)
    js_doc = Document(job_set, runtime.file, runtime.document, runtime.line, runtime.items, runtime.span)
    decoded = decode_job_set(js_doc, priorities, at_runtime, memo, admission)
    return replace(decoded, uid="", owner=OwnerReference("TrainJob", name, True),
                   gang=gang_request(meta, report), source=source_of(doc))


def runtime_job_set(runtime_spec: Mapping, trainer: Mapping) -> dict:
    """The JobSet document (metadata, spec) a runtime's template and the TrainJob's `trainer`
    make, before the JobSet webhook's defaults."""
    template = copy.deepcopy(runtime_spec.get("template") or {})
    ml = runtime_spec.get("mlPolicy")
    mpi = (ml or {}).get("mpi")
    launcher_as_node = bool((mpi or {}).get("runLauncherAsNode"))
    num_nodes = trainer.get("numNodes")
    resources = trainer.get("resourcesPerNode")
    tmeta = template.get("metadata") or {}
    spec = template.get("spec") or {}
    for rj in spec.get("replicatedJobs") or ():
        job = rj.setdefault("template", {})
        labels = (job.get("metadata") or {}).get("labels") or {}
        ancestor = labels.get(ANCESTOR_LABEL)
        job_spec = job.setdefault("spec", {})
        count = job_spec.get("parallelism")
        count = 1 if count is None else count
        if ancestor == TRAINER and ml is not None:
            count = 1 if ml.get("numNodes") is None else ml["numNodes"]
        if num_nodes is not None:
            if mpi is not None:
                if rj.get("name") == NODE:
                    count = max(num_nodes - 1, 1) if launcher_as_node else num_nodes
            elif ancestor == TRAINER:  # torch, jax, xgboost, plainml
                count = num_nodes
        if resources is not None and ((ancestor == TRAINER and ml is not None)
                                      or (launcher_as_node and rj.get("name") == NODE)):
            _merge_resources(job_spec, resources)
        job_spec["parallelism"] = job_spec["completions"] = count
        if ancestor == TRAINER or ancestor in INITIALIZERS:
            rj["replicas"] = 1
    return {"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet",
            "metadata": {"labels": dict(tmeta.get("labels") or {}),
                         "annotations": dict(tmeta.get("annotations") or {})},
            "spec": spec}


def _merge_resources(job_spec: dict, resources: Mapping) -> None:
    """MergeResourceRequirements into the `node` container: per resource name, the TrainJob's
    value wins (strategic merge of two maps)."""
    pod = (job_spec.get("template") or {}).get("spec") or {}
    for container in pod.get("containers") or ():
        if container.get("name") != NODE:
            continue
        base = dict(container.get("resources") or {})
        for part in ("requests", "limits"):
            if resources.get(part) is not None:
                base[part] = {**(base.get(part) or {}), **resources[part]}
        container["resources"] = base
        break
