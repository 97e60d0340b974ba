"""Schema-checked documents -> the planner's model: one shape whatever the API version.

What the apiserver and kube-scheduler derive from an object is derived once, at decoding:
defaulting, quantities in the scheduler's integer units, effective pod requests, priorities as
the `Priority` admission plugin resolves them, and pod-group links per API version. This module
is the orchestration (`Decoder`: which kind is decoded when, in the order dependencies need);
each kind's decoding lives beside it:

* `decode_meta`        ObjectMeta defaulting and metav1.Time, shared by every kind;
* `decode_quantities`  resource.Quantity -> scheduler units;
* `decode_scheduling`  selectors, affinity, tolerations, spread constraints, spread selectors;
* `decode_priorities`  PriorityClasses and the `Priority` admission plugin's resolution;
* `decode_pods`        containers, effective requests, host ports, images -> Pod;
* `decode_nodes`       allocatable, taints, images -> Node;
* `decode_pdbs`        PodDisruptionBudgets;
* `decode_groups`      Workloads, templates, (Composite)PodGroups, v1alpha1 implied groups.

Problems found while decoding (bad quantities, timestamps, percentages) are collected as Issues
with their JSON path; cross-object rules live in `validate.py`.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace
from operator import attrgetter
from typing import Any, Mapping, Sequence

from podgroup_plan.loading.admission import Admission, admitted, unchecked_limit_notes
from podgroup_plan.loading.decode_groups import (
    decode_composite_pod_group,
    decode_pod_group,
    decode_workload,
    implied_pod_groups,
)
from podgroup_plan.loading.decode_meta import Report, labels_of
from podgroup_plan.loading.decode_nodes import decode_node
from podgroup_plan.loading.decode_pdbs import decode_pdb
from podgroup_plan.loading.decode_pods import Memo, decode_pod
from podgroup_plan.loading.decode_priorities import PriorityTable, decode_priority_class
from podgroup_plan.loading.decode_scheduling import decode_spread_selector
from podgroup_plan.loading.documents import Document, Issue
from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import (
    CompositePodGroup,
    Node,
    Pod,
    PodDisruptionBudget,
    PodGroup,
    PriorityClass,
    SpreadSelector,
    Workload,
)

NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name"  # set on every namespace by the apiserver
# Kinds whose controllers create pods (model/controllers.py). Their decoding and model load only
# for an input that has one: importing them is start-up time of every run (issue 16).
CONTROLLER_KINDS = ("Job", "JobSet", "Deployment", "ReplicaSet", "StatefulSet", "TrainJob", "PyTorchJob",
                    "TFJob", "LeaderWorkerSet", "RayCluster", "RayJob", "CronJob", "DaemonSet")
_NAMESPACE, _NAME = attrgetter("namespace"), attrgetter("name")  # sort keys: no lambda


@dataclass
class Decoded:
    """Every decoded object beside the document it came from (validate.py reports there)."""

    nodes: list[tuple[Document, Node]] = field(default_factory=list)
    pods: list[tuple[Document, Pod]] = field(default_factory=list)
    finished_pods: list[tuple[Document, Pod]] = field(default_factory=list)  # Succeeded/Failed
    priority_classes: list[tuple[Document, PriorityClass]] = field(default_factory=list)
    pdbs: list[tuple[Document, PodDisruptionBudget]] = field(default_factory=list)
    workloads: list[tuple[Document, Workload]] = field(default_factory=list)
    pod_groups: list[tuple[Document, PodGroup]] = field(default_factory=list)
    implied_groups: list[PodGroup] = field(default_factory=list)
    composite_pod_groups: list[tuple[Document, CompositePodGroup]] = field(default_factory=list)
    spread_selectors: list[tuple[Document, SpreadSelector]] = field(default_factory=list)
    namespaces: list[tuple[Document, str, dict[str, str]]] = field(default_factory=list)
    scheduler_configs: list[Document] = field(default_factory=list)
    # for validation: the priorityClassName and preemptionPolicy of pods Priority admission
    # has yet to see (no spec.priority), that it may refuse (PriorityTable.refusal)
    new_pod_priorities: list[tuple[Document, dict, bool]] = field(default_factory=list)  # (.., admitted)
    # Jobs, JobSets, Deployments, ReplicaSets (with a template), StatefulSets (with a template)
    controllers: dict[str, list] = field(default_factory=lambda: defaultdict(list))
    admission_notes: list[str] = field(default_factory=list)
    # (kind, namespace, name) of objects that create pods the planner does not expand (unplanned.py)
    unplanned: list[tuple[str, str, str]] = field(default_factory=list)

    def cluster_input(self, ignored_kinds: Mapping[str, int]) -> ClusterInput:
        """The ClusterInput, every list sorted by (namespace, name) or name."""
        namespaces: dict[str, dict[str, str]] = {}
        # Every namespace an object lives in exists on a live cluster and carries its name label.
        lists: tuple[Sequence[tuple[Document, Any]], ...] = (
            self.pods, self.pdbs, self.workloads, self.pod_groups, self.composite_pod_groups,
            self.spread_selectors, *self.controllers.values())
        for objs in lists:
            for _, obj in objs:
                if obj.namespace not in namespaces:  # (not setdefault: a dict per pod)
                    namespaces[obj.namespace] = {NAMESPACE_NAME_LABEL: obj.namespace}
        for _, name, labels in self.namespaces:
            namespaces[name] = {**labels, NAMESPACE_NAME_LABEL: name}
        scheduler_config = self.scheduler_configs[0].obj if self.scheduler_configs else None

        def by_key(pairs: list) -> tuple:
            # by (namespace, name): by name, then stably by namespace (one string comparison
            # at a time is about twice as fast as comparing tuples, for 150,000 pods)
            objs = [o for _, o in pairs]
            objs.sort(key=_NAME)
            objs.sort(key=_NAMESPACE)
            return tuple(objs)

        controllers = None  # as for an input built without any (ClusterInput's default)
        if any(self.controllers.values()):
            from podgroup_plan.model.controllers import Controllers

            controllers = Controllers(
                jobs=by_key(self.controllers["Job"]),
                job_sets=by_key(self.controllers["JobSet"]),
                deployments=by_key(self.controllers["Deployment"]),
                replica_sets=by_key(self.controllers["ReplicaSet"]),
                stateful_sets=by_key(self.controllers["StatefulSet"]),
                train_jobs=by_key(self.controllers["TrainJob"]),
                pytorch_jobs=by_key(self.controllers["PyTorchJob"]),
                tf_jobs=by_key(self.controllers["TFJob"]),
                leader_worker_sets=by_key(self.controllers["LeaderWorkerSet"]),
                ray_clusters=by_key(self.controllers["RayCluster"]),
                ray_jobs=by_key(self.controllers["RayJob"]),
                cron_jobs=by_key(self.controllers["CronJob"]),
                daemon_sets=by_key(self.controllers["DaemonSet"]),
            )
        return ClusterInput(
            nodes=tuple(sorted((n for _, n in self.nodes), key=_NAME)),
            pods=by_key(self.pods),
            priority_classes=tuple(sorted((c for _, c in self.priority_classes), key=lambda c: c.name)),
            pod_disruption_budgets=by_key(self.pdbs),
            workloads=by_key(self.workloads),
            pod_groups=tuple(sorted(
                [g for _, g in self.pod_groups] + self.implied_groups,
                key=lambda g: (g.namespace, g.name),
            )),
            composite_pod_groups=by_key(self.composite_pod_groups),
            spread_selectors=tuple(sorted(
                (s for _, s in self.spread_selectors), key=lambda s: (s.namespace, s.name, s.kind)
            )),
            namespaces={k: namespaces[k] for k in sorted(namespaces)},
            namespace_objects=len({name for _, name, _ in self.namespaces}),
            scheduler_config=scheduler_config,
            scheduler_config_source=self.scheduler_configs[0].file if self.scheduler_configs else None,
            ignored_kinds={k: ignored_kinds[k] for k in sorted(ignored_kinds)},
            admission_notes=tuple(sorted(self.admission_notes)),
            unplanned=tuple(sorted(set(self.unplanned))),
            controllers=controllers,
            finished_pods=dict(sorted(Counter(p.phase for _, p in self.finished_pods).items())),
        )


class Decoder:
    """Decodes documents as they are read (`add`), then what depends on the whole input
    (`finish`).

    Pods and Nodes, the bulk of a cluster dump, are decoded on arrival and their documents
    slimmed to what a problem report needs, so that a 150,000-pod dump never holds all its raw
    objects at once. A pod's priority may come from a PriorityClass read later: it is settled
    in `finish` (a kubectl dump carries spec.priority, so this is rare). The other kinds are few;
    they are kept whole and decoded in `finish`, in the order their dependencies need.
    """

    def __init__(self, issues: list[Issue]):
        self.issues = issues
        self.out = Decoded()
        self._kept: dict[str, list[Document]] = defaultdict(list)
        self._memo = Memo()
        self._no_classes = PriorityTable([])  # until every PriorityClass is read
        # (list, index, spec) of pods whose priority may depend on a PriorityClass
        self._unsettled: list[tuple[list, int, dict]] = []
        self._implied: dict[tuple[str, str], tuple[str, str, str]] = {}
        # (list, index) of pods never admitted (admission.py): kept whole until `finish`
        self._unadmitted: list[tuple[list, int]] = []
        self._admission: Admission | None = None  # built in `finish`; controllers' templates use it too

    def add(self, doc: Document) -> None:
        """Decode (or keep) one schema-checked document."""
        if doc.kind == "Pod":
            self._pod(doc)
        elif doc.kind == "Node":
            self.out.nodes.append((doc, decode_node(doc, _reporter(doc, self.issues))))
            slim(doc)
        else:
            self._kept[doc.kind].append(doc)

    def _pod(self, doc: Document) -> None:
        spec = doc.obj["spec"]
        pod = decode_pod(doc, self._no_classes, _reporter(doc, self.issues), self._memo)
        # kube-scheduler's informer never sees finished pods; nor does the plan.
        target = self.out.finished_pods if pod.phase in ("Succeeded", "Failed") else self.out.pods
        # Only a pod without spec.priority needs its class: the scheduler reads spec.priority
        # and never looks the class up (corev1helpers.PodPriority), so an admitted pod whose
        # class is absent from the input is planned with its own priority.
        self.admission_fields(doc)
        if spec.get("priority") is None or spec.get("preemptionPolicy") is None:
            fields = ("priorityClassName", "priority", "preemptionPolicy")
            self._unsettled.append((target, len(target), {k: spec.get(k) for k in fields}))
        ref = spec.get("workloadRef") if not spec.get("schedulingGroup") else None
        if (ref and target is self.out.pods and pod.pod_group is not None
                and (pod.namespace, pod.pod_group) not in self._implied):
            self._implied[(pod.namespace, pod.pod_group)] = (
                ref["name"], ref["podGroup"], ref.get("podGroupReplicaKey") or ""
            )
        if admitted(doc.obj):
            slim(doc)
        else:  # admission may change it once every RuntimeClass and LimitRange is read
            self._unadmitted.append((target, len(target)))
        target.append((doc, pod))

    def admission_fields(self, doc: Document) -> None:
        """Keep what Priority admission reads of a new pod (no spec.priority), for validation;
        also asked for a pod that failed its schema, which is not decoded."""
        spec = doc.obj.get("spec")
        if not isinstance(spec, dict) or spec.get("priority") is not None:
            return
        fields = {k: spec.get(k) for k in ("priorityClassName", "preemptionPolicy")}
        if fields["priorityClassName"] or fields["preemptionPolicy"] is not None:
            self.out.new_pod_priorities.append((doc, fields, admitted(doc.obj)))

    def _admit(self) -> None:
        """Apply admission (admission.py) to the pods that never went through it: re-decode the
        ones it changes, keeping the priority already resolved."""
        limit_ranges: dict[str, list] = defaultdict(list)
        for doc in self._kept["LimitRange"]:
            limit_ranges[doc.obj["metadata"].get("namespace") or "default"].append(doc.obj)
        runtime_classes = {doc.obj["metadata"]["name"]: doc.obj for doc in self._kept["RuntimeClass"]}
        admission = self._admission = Admission(runtime_classes, limit_ranges)
        # Namespaces where the planner admits pods: pod manifests never admitted, and the pods
        # controllers create from their templates.
        admitting = {target[i][1].namespace for target, i in self._unadmitted}
        admitting.update(doc.obj["metadata"].get("namespace") or "default"
                         for kind in CONTROLLER_KINDS for doc in self._kept[kind])
        self.out.admission_notes.extend(unchecked_limit_notes(limit_ranges, admitting))
        for target, i in self._unadmitted:
            doc, pod = target[i]
            mutated = admission.admit(doc.obj, _reporter(doc, self.issues))
            if mutated is not None:
                doc.obj = mutated
                new = decode_pod(doc, self._no_classes, lambda path, message: None, self._memo)
                target[i] = (doc, replace(new, priority=pod.priority, preemption_policy=pod.preemption_policy))
            slim(doc)

    def finish(self) -> Decoded:
        out, kept = self.out, self._kept
        self._admit()
        for doc in kept["PriorityClass"]:
            out.priority_classes.append((doc, decode_priority_class(doc)))
        priorities = PriorityTable([c for _, c in out.priority_classes])
        for target, i, spec in self._unsettled:
            doc, pod = target[i]
            priority, policy = priorities.pod(spec)
            if (priority, policy) != (pod.priority, pod.preemption_policy):
                target[i] = (doc, replace(pod, priority=priority, preemption_policy=policy))

        for doc in kept["PodDisruptionBudget"]:
            out.pdbs.append((doc, decode_pdb(doc)))
        for doc in kept["Namespace"]:
            out.namespaces.append((doc, doc.obj["metadata"]["name"], dict(labels_of(doc.obj["metadata"]))))
        for doc in kept["ReplicationController"]:  # read for its selector; its pods are not made
            if (doc.obj.get("spec") or {}).get("template"):
                meta = doc.obj["metadata"]
                out.unplanned.append(("ReplicationController", meta.get("namespace") or "default", meta["name"]))
        for kind in ("Service", "ReplicationController", "ReplicaSet", "StatefulSet"):
            for doc in kept[kind]:
                selector = decode_spread_selector(doc)
                if selector is not None:
                    out.spread_selectors.append((doc, selector))
        if any(kept[kind] for kind in CONTROLLER_KINDS):
            from podgroup_plan.loading.decode_controllers import DECODERS
            from podgroup_plan.loading.decode_operators import operator_decoders

            decoders = {**DECODERS, **operator_decoders(
                kept, lambda doc: _reporter(doc, self.issues))}
            for kind in CONTROLLER_KINDS:
                for doc in kept[kind]:
                    obj = decoders[kind](doc, priorities, _reporter(doc, self.issues), self._memo,
                                         self._admission)
                    if obj is not None:
                        out.controllers[kind].append((doc, obj))
        out.scheduler_configs.extend(kept["KubeSchedulerConfiguration"])
        for doc in kept["Workload"]:
            out.workloads.append((doc, decode_workload(doc)))
        for doc in kept["PodGroup"]:
            out.pod_groups.append((doc, decode_pod_group(doc, priorities, _reporter(doc, self.issues))))
        for doc in kept["CompositePodGroup"]:
            cpg = decode_composite_pod_group(doc, priorities, _reporter(doc, self.issues))
            out.composite_pod_groups.append((doc, cpg))
        out.implied_groups = implied_pod_groups(self._implied, out.workloads, priorities)
        return out


def slim(doc: Document) -> None:
    """Drop a decoded document's raw object but what names it in a problem report."""
    meta = doc.metadata
    doc.obj = {
        "apiVersion": doc.api_version,
        "kind": doc.kind,
        "metadata": {"name": meta.get("name"), "namespace": meta.get("namespace")},
    }


def _reporter(doc: Document, issues: list[Issue]) -> Report:
    return lambda path, message: issues.append(Issue(doc, path, message))
