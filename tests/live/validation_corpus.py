"""Bad manifests beyond docs/problems.md's cases, for the comparison with the API server
(test_validation_oracle.py): each family of a rule in several variations, where one example
per family (the catalogue's) would not show that every variation is worded as the server
words it. Each entry: (title, YAML of one or more objects)."""
from __future__ import annotations

WL = """\
apiVersion: scheduling.k8s.io/{version}
kind: Workload
metadata: {{name: train, namespace: ml}}
spec:
{spec}"""

PG = """\
apiVersion: scheduling.k8s.io/{version}
kind: PodGroup
metadata: {{name: train-workers, namespace: ml}}
spec:
{spec}"""

CPG = """\
apiVersion: scheduling.k8s.io/{version}
kind: CompositePodGroup
metadata: {{name: train-all, namespace: ml}}
spec:
{spec}"""

POD = """\
apiVersion: v1
kind: Pod
metadata: {{name: worker-0, namespace: ml}}
spec:
  containers: [{{name: c, image: busybox}}]
{spec}"""

GANG = "schedulingPolicy: {gang: {minCount: 2}}"


def workload(spec: str, version: str = "v1beta1") -> str:
    return WL.format(version=version, spec=spec)


def pod_group(spec: str, version: str = "v1beta1") -> str:
    return PG.format(version=version, spec=spec)


def composite(spec: str, version: str = "v1beta1") -> str:
    return CPG.format(version=version, spec=spec)


def pod(spec: str) -> str:
    return POD.format(spec=spec)


def _scheduling(version: str) -> list[tuple[str, str]]:
    v = version
    return [
        (f"{v} Workload: two templates with one name", workload(f"""\
  podGroupTemplates:
  - {{name: a, {GANG}}}
  - {{name: a, {GANG}}}
""", v)),
        (f"{v} Workload: an empty template name", workload(f"""\
  podGroupTemplates:
  - {{name: "", {GANG}}}
""", v)),
        (f"{v} Workload: a template name that is not a DNS label", workload(f"""\
  podGroupTemplates:
  - {{name: Bad_Name, {GANG}}}
""", v)),
        (f"{v} Workload: basic and gang both", workload("""\
  podGroupTemplates:
  - {name: a, schedulingPolicy: {basic: {}, gang: {minCount: 1}}}
""", v)),
        (f"{v} Workload: neither basic nor gang", workload("""\
  podGroupTemplates:
  - {name: a, schedulingPolicy: {}}
""", v)),
        (f"{v} Workload: no scheduling policy", workload("""\
  podGroupTemplates:
  - {name: a}
""", v)),
        (f"{v} Workload: a gang of zero and of minus one", workload("""\
  podGroupTemplates:
  - {name: a, schedulingPolicy: {gang: {minCount: 0}}}
  - {name: b, schedulingPolicy: {gang: {minCount: -1}}}
""", v)),
        (f"{v} Workload: no templates at all", workload("  {}\n", v).replace("spec:\n  {}", "spec: {}")),
        (f"{v} Workload: both template lists", workload(f"""\
  podGroupTemplates:
  - {{name: a, {GANG}}}
  compositePodGroupTemplates:
  - name: c
    schedulingPolicy: {{basic: {{}}}}
    podGroupTemplates: [{{name: b, {GANG}}}]
""", v)),
        (f"{v} Workload: a composite template without children", workload("""\
  compositePodGroupTemplates:
  - name: c
    schedulingPolicy: {basic: {}}
    compositePodGroupTemplates:
    - {name: d, schedulingPolicy: {basic: {}}}
""", v)),
        (f"{v} Workload: composite templates five deep", workload(f"""\
  compositePodGroupTemplates:
  - name: c1
    schedulingPolicy: {{basic: {{}}}}
    compositePodGroupTemplates:
    - name: c2
      schedulingPolicy: {{basic: {{}}}}
      compositePodGroupTemplates:
      - name: c3
        schedulingPolicy: {{basic: {{}}}}
        compositePodGroupTemplates:
        - name: c4
          schedulingPolicy: {{basic: {{}}}}
          compositePodGroupTemplates:
          - name: c5
            schedulingPolicy: {{basic: {{}}}}
            podGroupTemplates: [{{name: w, {GANG}}}]
""", v)),
        (f"{v} Workload: templates with different priority classes", workload(f"""\
  podGroupTemplates:
  - {{name: a, {GANG}, priorityClassName: high}}
  - {{name: b, {GANG}, priorityClassName: low}}
""", v)),
        (f"{v} Workload: a composite's children with different priority classes", workload(f"""\
  compositePodGroupTemplates:
  - name: c
    schedulingPolicy: {{basic: {{}}}}
    priorityClassName: high
    podGroupTemplates: [{{name: b, {GANG}, priorityClassName: low}}]
""", v)),
        (f"{v} Workload: one name for a template and a composite template", workload(f"""\
  compositePodGroupTemplates:
  - name: c
    schedulingPolicy: {{basic: {{}}}}
    podGroupTemplates: [{{name: c, {GANG}}}]
""", v)),
        (f"{v} Workload: a controllerRef without kind or name", workload(f"""\
  controllerRef: {{apiGroup: "batch", kind: "", name: ""}}
  podGroupTemplates:
  - {{name: a, {GANG}}}
""", v)),
        (f"{v} Workload: a controllerRef with bad names", workload(f"""\
  controllerRef: {{apiGroup: "Not_A.Group", kind: "a/b", name: ".."}}
  podGroupTemplates:
  - {{name: a, {GANG}}}
""", v)),
        (f"{v} Workload: nine templates", workload("  podGroupTemplates:\n" + "".join(
            f"  - {{name: t{i}, {GANG}}}\n" for i in range(9)), v)),
        (f"{v} Workload: all-or-nothing disruption on a basic template", workload("""\
  podGroupTemplates:
  - {name: a, schedulingPolicy: {basic: {}}, disruptionMode: {all: {}}}
""", v)),
        (f"{v} Workload: topology constraints with bad keys", workload(f"""\
  podGroupTemplates:
  - name: a
    {GANG}
    schedulingConstraints:
      topology: [{{key: ""}}]
  - name: b
    {GANG}
    schedulingConstraints:
      topology: [{{key: "not a key"}}]
  - name: c
    {GANG}
    schedulingConstraints:
      topology: [{{key: rack}}, {{key: zone}}]
""", v)),
        (f"{v} PodGroup: a parent without a workloadRef", pod_group(f"""\
  parentCompositePodGroupName: train-all
  {GANG}
""", v)),
        (f"{v} PodGroup: empty names in its workloadRef", pod_group(f"""\
  workloadRef: {{workloadName: "", templateName: ""}}
  {GANG}
""", v)),
        (f"{v} PodGroup: bad names in its workloadRef", pod_group(f"""\
  workloadRef: {{workloadName: "Train", templateName: "a.b"}}
  {GANG}
""", v)),
        (f"{v} PodGroup: an empty scheduling policy", pod_group("  schedulingPolicy: {}\n", v)),
        (f"{v} PodGroup: no spec fields", pod_group("  {}\n", v).replace("spec:\n  {}", "spec: {}")),
        (f"{v} PodGroup: a name that is not a DNS subdomain", pod_group(f"  {GANG}\n", v).replace(
            "name: train-workers", "name: Train_Workers")),
        (f"{v} PodGroup: a Workload that does not exist", pod_group(f"""\
  workloadRef: {{workloadName: missing, templateName: workers}}
  {GANG}
""", v)),
        (f"{v} PodGroup: a template its Workload does not have", workload(f"""\
  podGroupTemplates:
  - {{name: workers, {GANG}}}
""", v) + "---\n" + pod_group(f"""\
  workloadRef: {{workloadName: train, templateName: other}}
  {GANG}
""", v)),
        (f"{v} PodGroup: all-or-nothing disruption with a basic policy", pod_group("""\
  schedulingPolicy: {basic: {}}
  disruptionMode: {all: {}}
""", v)),
    ] + ([] if v != "v1alpha3" else [  # CompositePodGroup is served in v1alpha3 only
        (f"{v} CompositePodGroup: an empty scheduling policy", composite("  schedulingPolicy: {}\n", v)),
        (f"{v} CompositePodGroup: a parent without a workloadRef", composite("""\
  parentCompositePodGroupName: top
  schedulingPolicy: {basic: {}}
""", v)),
    ])


CORPUS: list[tuple[str, str]] = [
    *_scheduling("v1beta1"),
    *_scheduling("v1alpha3"),
    ("Pod: an empty schedulingGroup", pod("  schedulingGroup: {}\n")),
    ("Pod: an empty podGroupName", pod('  schedulingGroup: {podGroupName: ""}\n')),
    ("Pod: a podGroupName that is not a DNS subdomain", pod("  schedulingGroup: {podGroupName: Bad_Name}\n")),
    ("Pod: a PodGroup that does not exist", pod("  schedulingGroup: {podGroupName: missing}\n")),
    # values quoted as strconv.Quote quotes them: non-ASCII letters as they are, the rest escaped
    ("Quoting: non-ASCII and control characters in values", pod('  schedulingGroup: {podGroupName: "gr\u00fcn"}\n')
     .replace("name: worker-0", 'name: worker-0, labels: {a: "caf\u00e9", b: "tab\\there", c: "\u00a0x", '
                                'd: "x\\u200ey", e: "\\x1b[31m"}')),
]
