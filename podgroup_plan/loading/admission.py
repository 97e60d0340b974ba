"""What the apiserver does to a pod before kube-scheduler ever sees it, for manifests that were
never admitted (a pod without metadata.uid and without spec.nodeName: written by hand or
rendered, not read from a cluster, where all of this already happened), and for every pod
expanded from a controller's template (decode_controllers.decode_template: the controller
creates its pods through the apiserver).

Mirrors, in the order the apiserver applies them:
* defaulting, `pkg/apis/core/v1/defaults.go` (defaultHostNetworkPorts): a hostNetwork pod's
  container ports without a hostPort get hostPort = containerPort (done for every pod, in
  decode_pods.host_ports, since it is idempotent);
* the RuntimeClass admission plugin (`plugin/pkg/admission/runtimeclass/admission.go`): the
  class must exist (`pod rejected: RuntimeClass "x" not found`); its `overhead.podFixed` becomes
  the pod's overhead (a different overhead already set is refused: `pod rejected: Pod's Overhead
  doesn't match RuntimeClass's defined Overhead`); its `scheduling.nodeSelector` is merged into
  the pod's (a different value for a key is refused: `conflict:
  runtimeClass.scheduling.nodeSelector[k] = v; pod.spec.nodeSelector[k] = w`) and its
  `scheduling.tolerations` are added (MergeTolerations; the planner drops exact duplicates);
* the LimitRanger admission plugin (`plugin/pkg/admission/limitranger/admission.go`,
  defaultContainerResourceRequirements, mergeContainerResources) with LimitRange's own
  defaulting (SetDefaults_LimitRangeItem: `default` from `max`, `defaultRequest` from `default`,
  then from `min`): every Container item of every LimitRange of the pod's namespace (in name
  order; a later item of one LimitRange overrides an earlier one, the first LimitRange to set a
  resource wins) gives a container that sets neither a request nor a limit for a resource its
  default request. Limits play no part in a plan; LimitRange's validation (`min`, `max`,
  `maxLimitRequestRatio`, which refuse a pod) is not applied: the result's notes name each
  LimitRange that has such a constraint where the planner admitted pods (README).
"""
from __future__ import annotations

import copy
from typing import Any, Mapping

from podgroup_plan.loading.decode_meta import Report
from podgroup_plan.loading.decode_quantities import quantities


def admitted(obj: Mapping) -> bool:
    """A pod read from a cluster (it has a uid) or already bound went through admission."""
    meta = obj.get("metadata") or {}
    return bool(meta.get("uid")) or bool((obj.get("spec") or {}).get("nodeName"))


class Admission:
    """The RuntimeClasses of the input, and the LimitRanges by namespace."""

    def __init__(self, runtime_classes: Mapping[str, Mapping], limit_ranges: Mapping[str, list[Mapping]]):
        self.runtime_classes = runtime_classes
        # namespace -> resource -> default request, the first LimitRange (by name) to set it wins
        self.default_requests: dict[str, dict[str, Any]] = {}
        for namespace, ranges in limit_ranges.items():
            merged: dict[str, Any] = {}
            for lr in sorted(ranges, key=lambda o: o["metadata"]["name"]):
                own: dict[str, Any] = {}
                for item in lr["spec"].get("limits") or ():
                    if item.get("type") == "Container":
                        own.update(_default_requests(item))
                for name, q in own.items():
                    merged.setdefault(name, q)
            if merged:
                self.default_requests[namespace] = merged

    def admit(self, obj: dict, report: Report) -> dict | None:
        """The pod object as admission leaves it, or None when admission changes nothing
        (cheap for a pod with no RuntimeClass in a namespace without LimitRange defaults).
        Refusals are reported on the pod."""
        spec = obj["spec"]
        namespace = (obj.get("metadata") or {}).get("namespace") or "default"
        defaults = self.default_requests.get(namespace)
        class_name = spec.get("runtimeClassName")
        if not defaults and not class_name:
            return None
        out = copy.deepcopy(obj)
        new_spec = out["spec"]
        if class_name:
            self._runtime_class(new_spec, class_name, report)
        if defaults:
            for field_name in ("initContainers", "containers"):
                for container in new_spec.get(field_name) or ():
                    _default_container(container, defaults)
        return out if out != obj else None

    def _runtime_class(self, spec: dict, name: str, report: Report) -> None:
        rc = self.runtime_classes.get(name)
        if rc is None:
            report(("spec", "runtimeClassName"), f'pod rejected: RuntimeClass "{name}" not found')
            return
        pod_fixed = (rc.get("overhead") or {}).get("podFixed")
        if pod_fixed is not None:
            if spec.get("overhead") and _amounts(spec["overhead"]) != _amounts(pod_fixed):
                report(("spec", "overhead"), "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead")
            else:
                spec["overhead"] = dict(pod_fixed)
        scheduling = rc.get("scheduling") or {}
        selector = dict(spec.get("nodeSelector") or {})
        for key, want in (scheduling.get("nodeSelector") or {}).items():
            have = selector.get(key)
            if have is not None and have != want:
                report(("spec", "nodeSelector", key),
                       f"conflict: runtimeClass.scheduling.nodeSelector[{key}] = {want}; "
                       f"pod.spec.nodeSelector[{key}] = {have}")
                return
            selector[key] = want
        if selector:
            spec["nodeSelector"] = selector
        tolerations = list(spec.get("tolerations") or ())
        for t in scheduling.get("tolerations") or ():
            if t not in tolerations:
                tolerations.append(dict(t))
        if tolerations:
            spec["tolerations"] = tolerations


def _default_requests(item: Mapping) -> dict[str, Any]:
    """SetDefaults_LimitRangeItem for a Container item: the default request of each resource."""
    maximum = item.get("max") or {}
    default = {**maximum, **(item.get("default") or {})}
    return {**(item.get("min") or {}), **default, **(item.get("defaultRequest") or {})}


def _default_container(container: dict, defaults: Mapping[str, Any]) -> None:
    resources = container.setdefault("resources", {}) or {}
    container["resources"] = resources
    requests = dict(resources.get("requests") or {})
    limits = resources.get("limits") or {}
    for name, q in defaults.items():
        # A resource with a limit already requests it (apiserver defaulting, before admission).
        if name not in requests and name not in limits:
            requests[name] = q
    if requests:
        resources["requests"] = requests


def _amounts(values: Mapping) -> dict:
    """Quantities compared by amount, as apiequality.Semantic compares them (1000m == 1)."""
    return quantities(values, ("spec", "overhead"), lambda path, message: None)


_VALIDATING_FIELDS = ("min", "max", "maxLimitRequestRatio")


def unchecked_limit_notes(limit_ranges: Mapping[str, list[Mapping]], namespaces: set[str]) -> list[str]:
    """A note for each LimitRange of a namespace in `namespaces` (where the planner admitted
    pods) with a constraint LimitRanger would check and the planner does not."""
    notes = []
    for namespace in sorted(namespaces & limit_ranges.keys()):
        for lr in limit_ranges[namespace]:
            items = lr["spec"].get("limits") or ()
            if any(item.get(f) for item in items if item.get("type") in ("Container", "Pod")
                   for f in _VALIDATING_FIELDS):
                notes.append(f"LimitRange {namespace}/{lr['metadata']['name']}: min, max and "
                             "maxLimitRequestRatio were not checked (the apiserver refuses a new pod "
                             "that breaks them); only its default requests were applied")
    return notes
