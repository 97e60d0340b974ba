"""Random clusters and workloads as Kubernetes manifests (hypothesis strategies).

The same documents feed the planner and the oracle, so everything here is plain API objects:
nodes of a few shapes with labels, taints, images, `unschedulable`; bound pods; pending pods
with requests (also limits-only, init and sidecar containers, none at all), host ports, node
selectors and node affinity, tolerations, topology spreading, pod (anti-)affinity, priorities;
PodGroups (gang / basic) with topology constraints; and a scheduler configuration drawn from
the settings the planner reads. Clusters stay under 100 nodes, so every node is evaluated
(percentageOfNodesToScore has nothing to sample).

Names and label values come from small vocabularies so that selectors, affinities and spreading
actually meet each other; shrinking moves towards fewer objects and the first vocabulary item.
"""
from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

ZONE = "topology.kubernetes.io/zone"
HOSTNAME = "kubernetes.io/hostname"
GPU = "example.com/gpu"
APPS = ["web", "db", "cache"]
NAMESPACES = ["default", "team-a"]
TAINTS = [("dedicated", "gpu"), ("maintenance", "true"), ("spot", "yes")]
EFFECTS = ["NoSchedule", "PreferNoSchedule", "NoExecute"]
IMAGES = ["registry.example/app:1", "registry.example/base:2", "nginx:1.27", "busybox"]
IMAGE_SIZES = [10 << 20, 200 << 20, 900 << 20, 2000 << 20]
HOST_PORTS = [8080, 9090]
NODE_LABELS = {"disk": ["ssd", "hdd"], "tier": ["1", "2", "3"]}


def _normalised(image: str) -> str:
    name = image if "/" in image.split(":")[0] and "." in image.split("/")[0] else "docker.io/library/" + image
    return name if ":" in name.rsplit("/", 1)[-1] else name + ":latest"


def _name(prefix: str, i: int) -> str:
    return f"{prefix}-{i}"


@st.composite
def nodes(draw, count: int) -> list[dict]:
    out = []
    for i in range(count):
        name = _name("node", i)
        labels = {HOSTNAME: name, ZONE: draw(st.sampled_from(["zone-a", "zone-b"]))}
        for key, values in NODE_LABELS.items():
            if draw(st.booleans()):
                labels[key] = draw(st.sampled_from(values))
        allocatable = {
            "cpu": draw(st.sampled_from(["2", "4", "8", "3500m"])),
            "memory": draw(st.sampled_from(["4Gi", "8Gi", "16Gi"])),
            "pods": draw(st.sampled_from(["110", "110", "3"])),
        }
        gpus = draw(st.sampled_from([0, 0, 2, 4]))
        if gpus:
            allocatable[GPU] = str(gpus)
        spec: dict[str, Any] = {}
        taints = draw(st.lists(st.tuples(st.sampled_from(TAINTS), st.sampled_from(EFFECTS)), max_size=2,
                               unique_by=lambda t: (t[0][0], t[1])))
        if taints:
            spec["taints"] = [{"key": k, "value": v, "effect": e} for (k, v), e in taints]
        if draw(st.integers(0, 9)) == 0:
            spec["unschedulable"] = True
        if draw(st.integers(0, 3)) == 0:
            allocatable["ephemeral-storage"] = draw(st.sampled_from(["10Gi", "100Gi"]))
        status: dict[str, Any] = {"allocatable": allocatable, "capacity": dict(allocatable)}
        images = draw(st.lists(st.sampled_from(range(len(IMAGES))), max_size=3, unique=True))
        if images:
            # kubelets report normalised names (docker.io/library/busybox:latest for busybox)
            status["images"] = [{"names": [_normalised(IMAGES[j])], "sizeBytes": IMAGE_SIZES[j]} for j in images]
        out.append({"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": labels},
                    "spec": spec, "status": status})
    return out


@st.composite
def containers(draw, with_gpu: bool) -> dict:
    """The `spec` fields that carry requests: containers, initContainers, overhead."""
    def resources() -> dict:
        kind = draw(st.sampled_from(["requests", "requests", "limits-only", "none"]))
        if kind == "none":
            return {}
        amounts = {"cpu": draw(st.sampled_from(["100m", "500m", "1", "1500m", "3"])),
                   "memory": draw(st.sampled_from(["128Mi", "1Gi", "3Gi"]))}
        if with_gpu:
            amounts[GPU] = draw(st.sampled_from(["1", "2"]))
        if draw(st.integers(0, 5)) == 0:
            amounts["ephemeral-storage"] = draw(st.sampled_from(["1Gi", "20Gi"]))
        if draw(st.integers(0, 3)) == 0:
            amounts.pop(draw(st.sampled_from(["cpu", "memory"])))
        if kind == "limits-only":
            return {"limits": amounts}
        # an extended resource needs a limit equal to its request (the API server's
        # validateResourceRequirements: not overcommitable); no draw, so cases stay the same
        return {"requests": amounts, **({"limits": {GPU: amounts[GPU]}} if GPU in amounts else {})}

    main = []
    for j in range(draw(st.integers(1, 2))):
        c: dict[str, Any] = {"name": f"c{j}", "image": IMAGES[draw(st.integers(0, len(IMAGES) - 1))]}
        r = resources()
        if r:
            c["resources"] = r
        if j == 0 and draw(st.integers(0, 3)) == 0:
            port = {"containerPort": 80, "hostPort": draw(st.sampled_from(HOST_PORTS))}
            if draw(st.booleans()):
                port["protocol"] = draw(st.sampled_from(["TCP", "UDP"]))
            if draw(st.integers(0, 3)) == 0:
                port["hostIP"] = draw(st.sampled_from(["10.0.0.1", "0.0.0.0"]))
            c["ports"] = [port]
        main.append(c)
    spec: dict[str, Any] = {"containers": main}
    if draw(st.integers(0, 4)) == 0:
        init = {"name": "init", "image": IMAGES[0], "resources": {"requests": {"cpu": draw(st.sampled_from(["2", "200m"]))}}}
        if draw(st.booleans()):
            init["restartPolicy"] = "Always"  # a sidecar
        spec["initContainers"] = [init]
    if draw(st.integers(0, 6)) == 0:
        spec["overhead"] = {"cpu": "250m", "memory": "64Mi"}
    return spec


def _selector(draw) -> dict:
    return {"matchLabels": {"app": draw(st.sampled_from(APPS))}}


@st.composite
def node_affinity(draw) -> dict:
    def expression() -> dict:
        key = draw(st.sampled_from(["disk", "tier", ZONE]))
        op = draw(st.sampled_from(["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"]))
        if op in ("Exists", "DoesNotExist"):
            return {"key": key, "operator": op}
        if op in ("Gt", "Lt"):
            return {"key": "tier", "operator": op, "values": [draw(st.sampled_from(["1", "2"]))]}
        values = {"disk": NODE_LABELS["disk"], "tier": NODE_LABELS["tier"], ZONE: ["zone-a", "zone-b"]}[key]
        return {"key": key, "operator": op, "values": draw(st.lists(st.sampled_from(values), min_size=1, max_size=2, unique=True))}

    out: dict[str, Any] = {}
    if draw(st.booleans()):
        terms = [{"matchExpressions": [expression() for _ in range(draw(st.integers(1, 2)))]}
                 for _ in range(draw(st.integers(1, 2)))]
        if draw(st.integers(0, 3)) == 0:
            # matchFields on metadata.name: NodeAffinity's PreFilter narrows the node set
            field = {"key": "metadata.name", "operator": draw(st.sampled_from(["In", "NotIn"])),
                     "values": [draw(st.sampled_from(["node-0", "node-1", "node-2", "node-9"]))]}  # API validation: exactly one
            if draw(st.booleans()):
                terms[0]["matchFields"] = [field]
            else:
                terms = [{"matchFields": [field]}]
        out["requiredDuringSchedulingIgnoredDuringExecution"] = {"nodeSelectorTerms": terms}
    if draw(st.booleans()):
        out["preferredDuringSchedulingIgnoredDuringExecution"] = [
            {"weight": draw(st.sampled_from([1, 10, 100])), "preference": {"matchExpressions": [expression()]}}
            for _ in range(draw(st.integers(1, 2)))]
    return out


@st.composite
def pod_affinity(draw, anti: bool) -> dict:
    def term() -> dict:
        t: dict[str, Any] = {"labelSelector": _selector(draw), "topologyKey": draw(st.sampled_from([HOSTNAME, ZONE]))}
        choice = draw(st.integers(0, 7))
        if choice == 0:
            t["namespaces"] = [draw(st.sampled_from(NAMESPACES))]
        elif choice == 1:
            t["namespaceSelector"] = draw(st.sampled_from([{}, {"matchLabels": {"team": "a"}}]))
        elif choice == 2:
            # merged into the selector by the API server (oracle/input.go), by the planner itself
            t[draw(st.sampled_from(["matchLabelKeys", "mismatchLabelKeys"]))] = ["tier"]
        elif choice == 3:
            t["labelSelector"] = {"matchExpressions": [{"key": "app", "operator": draw(st.sampled_from(["In", "NotIn"])),
                                                         "values": [draw(st.sampled_from(APPS))]}]}
        return t

    out: dict[str, Any] = {}
    if draw(st.booleans()):
        out["requiredDuringSchedulingIgnoredDuringExecution"] = [term()]
    if draw(st.booleans()):
        out["preferredDuringSchedulingIgnoredDuringExecution"] = [
            {"weight": draw(st.sampled_from([1, 50, 100])), "podAffinityTerm": term()}]
    return out


@st.composite
def spread_constraints(draw, app: str) -> list[dict]:
    out = []
    for key in draw(st.lists(st.sampled_from([ZONE, HOSTNAME]), min_size=1, max_size=2, unique=True)):
        c: dict[str, Any] = {"maxSkew": draw(st.sampled_from([1, 2])), "topologyKey": key,
                             "whenUnsatisfiable": draw(st.sampled_from(["DoNotSchedule", "ScheduleAnyway"])),
                             "labelSelector": {"matchLabels": {"app": app}}}
        if draw(st.integers(0, 4)) == 0:
            c["nodeTaintsPolicy"] = "Honor"
        if draw(st.integers(0, 4)) == 0:
            c["nodeAffinityPolicy"] = "Ignore"
        if c["whenUnsatisfiable"] == "DoNotSchedule" and draw(st.integers(0, 4)) == 0:
            c["minDomains"] = draw(st.sampled_from([2, 3]))
        if draw(st.integers(0, 5)) == 0:
            c["matchLabelKeys"] = ["tier"]
        out.append(c)
    return out


@st.composite
def pod(draw, name: str, node: str | None, pending: bool) -> dict:
    ns = draw(st.sampled_from(NAMESPACES))
    app = draw(st.sampled_from(APPS))
    spec = draw(containers(with_gpu=draw(st.integers(0, 4)) == 0))
    spec["priority"] = draw(st.sampled_from([0, 0, 100, 1000]))
    if node is not None:
        spec["nodeName"] = node
    if pending:
        if draw(st.integers(0, 3)) == 0:
            spec["nodeSelector"] = {"disk": draw(st.sampled_from(NODE_LABELS["disk"]))}
        affinity: dict[str, Any] = {}
        if draw(st.integers(0, 2)) == 0:
            affinity["nodeAffinity"] = draw(node_affinity())
        if draw(st.integers(0, 3)) == 0:
            affinity["podAffinity"] = draw(pod_affinity(anti=False))
        if draw(st.integers(0, 3)) == 0:
            affinity["podAntiAffinity"] = draw(pod_affinity(anti=True))
        affinity = {k: v for k, v in affinity.items() if v}
        if affinity:
            spec["affinity"] = affinity
        tolerations = []
        for (key, value), effect in draw(st.lists(st.tuples(st.sampled_from(TAINTS), st.sampled_from(EFFECTS + [""])), max_size=2)):
            t: dict[str, Any] = {"key": key}
            if draw(st.booleans()):
                t.update(operator="Equal", value=value)
            else:
                t["operator"] = "Exists"
            if effect:
                t["effect"] = effect
            if effect == "NoExecute" and draw(st.booleans()):
                t["tolerationSeconds"] = 60
            tolerations.append(t)
        if tolerations:
            spec["tolerations"] = tolerations
        if draw(st.integers(0, 3)) == 0:
            spec["topologySpreadConstraints"] = draw(spread_constraints(app))
    elif draw(st.integers(0, 3)) == 0:
        # running pods with (anti-)affinity: InterPodAffinity's "existing pods" rules and scores
        kind = draw(st.sampled_from(["podAntiAffinity", "podAffinity"]))
        spec["affinity"] = {kind: draw(pod_affinity(anti=kind == "podAntiAffinity"))}
        if not spec["affinity"][kind]:
            del spec["affinity"]
    labels = {"app": app}
    if draw(st.booleans()):
        labels["tier"] = draw(st.sampled_from(["front", "back"]))
    meta = {"name": name, "namespace": ns, "labels": labels}
    doc: dict[str, Any] = {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec}
    if node is not None:
        doc["status"] = {"phase": "Running"}
    return doc


SCORING = [
    None,
    {"type": "MostAllocated"},
    {"type": "LeastAllocated", "resources": [{"name": "cpu", "weight": 2}, {"name": "memory", "weight": 1},
                                              {"name": GPU, "weight": 3}]},
    {"type": "RequestedToCapacityRatio", "resources": [{"name": "cpu", "weight": 1}, {"name": "memory", "weight": 1}],
     "requestedToCapacityRatio": {"shape": [{"utilization": 0, "score": 0}, {"utilization": 100, "score": 10}]}},
    {"type": "RequestedToCapacityRatio", "resources": [{"name": "cpu", "weight": 1}],
     "requestedToCapacityRatio": {"shape": [{"utilization": 0, "score": 10}, {"utilization": 60, "score": 3},
                                            {"utilization": 100, "score": 0}]}},
]


@st.composite
def scheduler_config(draw) -> dict | None:
    """A KubeSchedulerConfiguration (or None: the default profile)."""
    if draw(st.integers(0, 2)) == 0:
        return None
    plugin_config: list[dict] = []
    scoring = draw(st.sampled_from(SCORING))
    if scoring is not None:
        plugin_config.append({"name": "NodeResourcesFit", "args": {"scoringStrategy": scoring}})
    if draw(st.integers(0, 3)) == 0:
        plugin_config.append({"name": "NodeResourcesBalancedAllocation",
                              "args": {"resources": [{"name": "cpu", "weight": 1}, {"name": GPU, "weight": 1}]}})
    if draw(st.integers(0, 3)) == 0:
        plugin_config.append({"name": "PodTopologySpread", "args": {
            "defaultingType": "List",
            "defaultConstraints": [{"maxSkew": 1, "topologyKey": ZONE, "whenUnsatisfiable": "ScheduleAnyway"}]}})
    if draw(st.integers(0, 3)) == 0:
        plugin_config.append({"name": "InterPodAffinity", "args": {"hardPodAffinityWeight": draw(st.sampled_from([0, 5])),
                                                                   "ignorePreferredTermsOfExistingPods": draw(st.booleans())}})
    profile: dict[str, Any] = {"schedulerName": "default-scheduler"}
    if plugin_config:
        profile["pluginConfig"] = plugin_config
    if draw(st.integers(0, 2)) == 0:
        weights = [{"name": name, "weight": draw(st.sampled_from([1, 2, 5]))}
                   for name in draw(st.lists(st.sampled_from(["NodeResourcesFit", "TaintToleration", "NodeAffinity",
                                                              "InterPodAffinity", "PodTopologySpread", "ImageLocality"]),
                                             min_size=1, max_size=3, unique=True))]
        profile["plugins"] = {"score": {"enabled": weights}}
    if draw(st.integers(0, 4)) == 0:
        disabled = draw(st.sampled_from(["ImageLocality", "NodeResourcesBalancedAllocation", "TaintToleration"]))
        profile.setdefault("plugins", {}).setdefault("score", {})["disabled"] = [{"name": disabled}]
    return {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration", "profiles": [profile]}


@st.composite
def framework_cases(draw) -> dict:
    """A cluster and a few pending pods, for framework mode (each pod on its own)."""
    n_nodes = draw(st.integers(1, 6))
    node_docs = draw(nodes(n_nodes))
    names = [n["metadata"]["name"] for n in node_docs]
    docs = list(node_docs)
    for i in range(draw(st.integers(0, 6))):
        docs.append(draw(pod(_name("run", i), draw(st.sampled_from(names)), pending=False)))
    for i in range(draw(st.integers(1, 3))):
        docs.append(draw(pod(_name("pending", i), None, pending=True)))
    docs += draw(extras())
    return {"documents": docs, "config": draw(scheduler_config())}


@st.composite
def extras(draw) -> list[dict]:
    """Namespaces with labels (for namespaceSelector) and Services (their selectors feed
    PodTopologySpread's system default constraints)."""
    docs: list[dict] = []
    if draw(st.booleans()):
        docs.append({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "team-a", "labels": {"team": "a"}}})
    for app in draw(st.lists(st.sampled_from(APPS), max_size=2, unique=True)):
        docs.append({"apiVersion": "v1", "kind": "Service", "metadata": {"name": f"svc-{app}", "namespace": draw(st.sampled_from(NAMESPACES))},
                     "spec": {"selector": {"app": app}, "ports": [{"port": 80}]}})
    return docs


def _timestamp(i: int) -> str:
    return f"2026-05-01T10:{i // 60:02d}:{i % 60:02d}Z"


def _lone_pods(draw, docs: list, names: list[str], running: int, pending: int) -> int:
    """Up to `running` running pods on random nodes, then up to `pending` lone pending pods,
    each created a second after the last, appended to `docs`. Returns the next free second."""
    for i in range(draw(st.integers(0, running))):
        docs.append(draw(pod(_name("run", i), draw(st.sampled_from(names)), pending=False)))
    clock = 0
    for i in range(draw(st.integers(0, pending))):
        p = draw(pod(_name("single", i), None, pending=True))
        p["metadata"]["creationTimestamp"] = _timestamp(clock)
        clock += 1
        docs.append(p)
    return clock


@st.composite
def scheduler_cases(draw, topology: bool = True) -> dict:
    """A cluster, lone pending pods and PodGroups (gang or basic, optionally with a topology
    constraint), for scheduler mode: the whole queue, one cycle after another. Every object
    gets a distinct creationTimestamp, so the queue order is fixed by the input."""
    n_nodes = draw(st.integers(1, 5))
    node_docs = draw(nodes(n_nodes))
    names = [n["metadata"]["name"] for n in node_docs]
    docs = list(node_docs)
    clock = _lone_pods(draw, docs, names, running=4, pending=3)
    for g in range(draw(st.integers(0, 2))):
        size = draw(st.integers(1, 4))
        ns = draw(st.sampled_from(NAMESPACES))
        name = f"group-{g}"
        policy = draw(st.sampled_from(["gang", "gang", "basic"]))
        spec: dict[str, Any] = {"schedulingPolicy": {"gang": {"minCount": draw(st.integers(1, size))}} if policy == "gang"
                                else {"basic": {}}}
        if topology and draw(st.integers(0, 2)) == 0:
            spec["schedulingConstraints"] = {"topology": [{"key": draw(st.sampled_from([ZONE, "disk"]))}]}
        priority = draw(st.sampled_from([0, 100]))
        # an explicit priority (oracle_exclusions rule 8); now and then one its pods do not share
        spec["priority"] = priority if draw(st.integers(0, 5)) else 1000
        docs.append({"apiVersion": "scheduling.k8s.io/v1beta1", "kind": "PodGroup",
                     "metadata": {"name": name, "namespace": ns, "creationTimestamp": _timestamp(clock)}, "spec": spec})
        template = draw(pod("template", None, pending=True))
        for j in range(size):
            p = json_copy(template)
            p["metadata"].update(name=f"{name}-{j}", namespace=ns, creationTimestamp=_timestamp(clock))
            p["spec"]["priority"] = priority
            p["spec"]["schedulingGroup"] = {"podGroupName": name}
            clock += 1
            docs.append(p)
    docs += draw(extras())
    docs += draw(disruption_budgets(docs))
    config = draw(scheduler_config())
    if draw(st.integers(0, 5)) == 0:
        # no PostFilter nor PodGroupPostFilter plugin: v1.37.0 still appends the latter's empty
        # text to a failed group's status (a trailing `, `)
        config = config or {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
                            "profiles": [{"schedulerName": "default-scheduler"}]}
        multi = config["profiles"][0].setdefault("plugins", {}).setdefault("multiPoint", {})
        multi.setdefault("disabled", []).append({"name": "DefaultPreemption"})
    return {"documents": docs, "config": config}


@st.composite
def disruption_budgets(draw, docs: list[dict] | None = None) -> list[dict]:
    """PodDisruptionBudgets with `status.disruptionsAllowed` written as a `kubectl get` dump has
    it (the oracle runs no disruption controller). Most select the app of a running pod of
    `docs`, in its namespace, so that preemption meets them when it picks victims (a budget of
    a random app and namespace missed every victim in 200 generated cases); others an app of
    the vocabulary in a random namespace."""
    running = [d for d in docs or [] if d.get("kind") == "Pod" and d["spec"].get("nodeName")]
    out: dict[tuple[str, str], dict] = {}
    for _ in range(draw(st.integers(0, 2))):
        if running and draw(st.integers(0, 3)):
            pod = draw(st.sampled_from(running))
            ns, app = pod["metadata"]["namespace"], pod["metadata"]["labels"]["app"]
        else:
            ns, app = draw(st.sampled_from(NAMESPACES)), draw(st.sampled_from(APPS))
        spec: dict[str, Any] = {"selector": {"matchLabels": {"app": app}}}
        if draw(st.booleans()):
            spec["minAvailable"] = 1
        else:
            spec["maxUnavailable"] = draw(st.sampled_from([0, 1]))
        out[(ns, app)] = {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
                          "metadata": {"name": f"pdb-{app}", "namespace": ns}, "spec": spec,
                          "status": {"disruptionsAllowed": draw(st.integers(0, 1)), "currentHealthy": 1,
                                     "desiredHealthy": 1, "expectedPods": 1}}
    return [out[k] for k in sorted(out)]


def json_copy(doc: dict) -> dict:
    import json
    return json.loads(json.dumps(doc))


RACK = "example.com/rack"
SCHEDULING_API = "scheduling.k8s.io/v1alpha3"  # the one CompositePodGroup version v1.37.2 serves


@st.composite
def tree_cases(draw) -> dict:
    """CompositePodGroup trees (KEP-6012) beside a few lone pods, for scheduler mode: one or
    two trees of depth 2 or 3 (root = 1, leaf PodGroups included: a root CompositePodGroup over
    leaf PodGroups, and now and then a middle CompositePodGroup with leaves of its own), gang
    or basic at every level (minGroupCount, minCount; now and then one the tree cannot meet,
    so the quorum gate holds it), topology constraints at any level (zone, rack, disk, hostname;
    racks inside zones, some nodes without a rack label). CompositePodGroups are
    `scheduling.k8s.io/v1alpha3`, the only version both the planner and v1.37.2 read; leaf
    PodGroups v1beta1 or v1alpha3. Siblings' creationTimestamps may tie or run against their
    names, since that order (time, then name) decides which child the cycle tries first.
    Every tree is valid (one Workload, depth within WorkloadMaxTreeDepth, no cycle): the
    planner's `Invalid` trees are its own deviation (README) and not generated."""
    n_nodes = draw(st.integers(1, 6))
    node_docs = draw(nodes(n_nodes))
    for n in node_docs:
        zone = n["metadata"]["labels"][ZONE]
        if draw(st.integers(0, 5)):
            n["metadata"]["labels"][RACK] = f"{zone}-r{draw(st.integers(0, 1))}"
    names = [n["metadata"]["name"] for n in node_docs]
    docs = list(node_docs)
    clock = _lone_pods(draw, docs, names, running=3, pending=2)
    for t in range(draw(st.integers(1, 2))):
        tree, clock = draw(composite_tree(t, clock, names))
        docs += tree
    docs += draw(extras())
    docs += draw(disruption_budgets(docs))
    return {"documents": docs, "config": draw(scheduler_config())}


def _topology(draw, keys: list[str]) -> dict:
    if draw(st.integers(0, 2)) == 0:
        return {"schedulingConstraints": {"topology": [{"key": draw(st.sampled_from(keys))}]}}
    return {}


@st.composite
def composite_tree(draw, t: int, clock: int, nodes: list[str]) -> tuple[list[dict], int]:
    """One tree `tree-<t>`: its CompositePodGroups, leaf PodGroups and their pods; returns the
    documents and the next free clock tick. Every object of the tree and its pods share one
    priority (v1.37's validatePodGroup checks the pods against the root), except now and then
    one root whose pods do not (the validation error). Now and then a leaf's first pod already
    runs on one of `nodes`: it holds every level with a topology constraint above it to its
    domain (TopologyPlacement), or fails it when two such members sit in different domains."""
    ns = draw(st.sampled_from(NAMESPACES))
    priority = draw(st.sampled_from([0, 100]))
    root_priority = priority if draw(st.integers(0, 9)) else 1000
    docs: list[dict] = []
    template = draw(pod("template", None, pending=True))

    def composite(name: str, parent: str | None, children: int, keys: list[str], stamp: int) -> None:
        if draw(st.integers(0, 3)) == 0:
            policy: dict = {"basic": {}}
        else:
            # one more than the children now and then: the quorum is never met
            policy = {"gang": {"minGroupCount": draw(st.integers(1, children + (draw(st.integers(0, 7)) == 0)))}}
        spec: dict[str, Any] = {"workloadRef": {"workloadName": f"tree-{t}", "templateName": name},
                                "schedulingPolicy": policy, **_topology(draw, keys)}
        if parent is not None:
            spec["parentCompositePodGroupName"] = parent
        spec["priority"] = root_priority if parent is None else priority
        docs.append({"apiVersion": SCHEDULING_API, "kind": "CompositePodGroup",
                     "metadata": {"name": name, "namespace": ns, "creationTimestamp": _timestamp(stamp)},
                     "spec": spec})

    def leaf(name: str, parent: str, stamp: int) -> None:
        nonlocal clock
        size = draw(st.integers(1, 3))
        if draw(st.integers(0, 3)) == 0:
            policy: dict = {"basic": {}}
        else:
            policy = {"gang": {"minCount": draw(st.integers(1, size + (draw(st.integers(0, 7)) == 0)))}}
        spec: dict[str, Any] = {"workloadRef": {"workloadName": f"tree-{t}", "templateName": name},
                                "parentCompositePodGroupName": parent, "schedulingPolicy": policy,
                                **_topology(draw, [RACK, HOSTNAME, ZONE, "disk"]), "priority": priority}
        api = draw(st.sampled_from(["scheduling.k8s.io/v1beta1", "scheduling.k8s.io/v1beta1", SCHEDULING_API]))
        docs.append({"apiVersion": api, "kind": "PodGroup",
                     "metadata": {"name": name, "namespace": ns, "creationTimestamp": _timestamp(stamp)},
                     "spec": spec})
        running = draw(st.integers(0, 4)) == 0
        for j in range(size):
            p = json_copy(template)
            p["metadata"].update(name=f"{name}-{j}", namespace=ns, creationTimestamp=_timestamp(clock))
            p["spec"]["priority"] = priority
            p["spec"]["schedulingGroup"] = {"podGroupName": name}
            if running and j == 0:
                p["spec"]["nodeName"] = draw(st.sampled_from(nodes))
                p["status"] = {"phase": "Running"}
                # no host ports: two bound pods on one port are a state no cluster reaches, and
                # v1.37 forgets a shared port when one of them goes (scenario
                # oracle-shared-host-port-freed-by-eviction)
                for c in p["spec"]["containers"]:
                    c.pop("ports", None)
            clock += 1
            docs.append(p)

    def sibling_stamps(n: int) -> list[int]:
        # siblings' timestamps from a small window: ties (then the name decides) and orders
        # against the names both happen
        nonlocal clock
        base = clock
        clock += 3
        return [base + draw(st.integers(0, 2)) for _ in range(n)]

    root = f"tree-{t}"
    n_children = draw(st.integers(1, 3))
    composite(root, None, n_children, [ZONE, RACK], clock)
    clock += 1
    kinds = [draw(st.sampled_from(["leaf", "leaf", "composite"])) for _ in range(n_children)]
    for c, (kind, stamp) in enumerate(zip(kinds, sibling_stamps(n_children))):
        name = f"{root}-{'abc'[c]}"
        if kind == "leaf":
            leaf(name, root, stamp)
            continue
        n_leaves = draw(st.integers(1, 2))
        composite(name, root, n_leaves, [RACK, ZONE, HOSTNAME], stamp)
        for k, leaf_stamp in enumerate(sibling_stamps(n_leaves)):
            leaf(f"{name}{k}", name, leaf_stamp)
    return [_workload_of(root, ns, docs)] + docs, clock


def _workload_of(root: str, ns: str, docs: list[dict]) -> dict:
    """The tree's Workload (v1alpha3): one template per object, nested as the objects are, each
    named after its object and carrying its policy and constraints (every object's workloadRef
    must resolve, as the API server checks)."""
    children: dict[str, list[dict]] = {}
    for d in docs:
        if d["kind"] in ("PodGroup", "CompositePodGroup"):
            children.setdefault(d["spec"].get("parentCompositePodGroupName"), []).append(d)

    def template(d: dict) -> dict:
        t = {"name": d["metadata"]["name"], "schedulingPolicy": d["spec"]["schedulingPolicy"]}
        if "schedulingConstraints" in d["spec"]:
            t["schedulingConstraints"] = d["spec"]["schedulingConstraints"]
        if d["kind"] == "CompositePodGroup":
            below = children.get(d["metadata"]["name"], [])
            pgs = [template(c) for c in below if c["kind"] == "PodGroup"]
            cpgs = [template(c) for c in below if c["kind"] == "CompositePodGroup"]
            if pgs:
                t["podGroupTemplates"] = pgs
            if cpgs:
                t["compositePodGroupTemplates"] = cpgs
        return t

    (top,) = children[None]
    return {"apiVersion": SCHEDULING_API, "kind": "Workload", "metadata": {"name": root, "namespace": ns},
            "spec": {"compositePodGroupTemplates": [template(top)]}}
