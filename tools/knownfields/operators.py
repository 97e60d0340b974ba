"""Writes podgroup_plan/loading/known_fields_operators.py: the JSON field names of the kinds of
JobSet and of the operators (Training Operator v1, Trainer v2, LeaderWorkerSet, KubeRay), read
from their Go API types.

Their Go modules are not on the module proxy this project's generator (main.go) can use, so the
field names are read from a checkout of each repository: the struct definitions of the API
package, each field's `json:"name"` tag, embedded structs with `json:",inline"` merged, and each
field's type mapped to a type of the generated tables (`core/v1.PodTemplateSpec`,
`meta/v1.ObjectMeta`, a struct of the same package, or of a package read before it: Trainer's
`jobsetv1alpha2.JobSetSpec`) or to '' (a scalar, a map of scalars, or a type whose fields are not
checked). Nothing of their code is kept: only the field names.

JobSet is kubernetes-sigs/jobset's newest release, v0.12.0 (api/jobset/v1alpha2); its field
names are those of 08dfbdfd682714a9ab929633eca8dc95315187e7 (2026-08-18, the snapshot the rest of
the project read: jobset_types.go differs only by a validation comment).

    python3 tools/knownfields/operators.py TRAINER_REPO LWS_REPO KUBERAY_REPO JOBSET_REPO \
        > podgroup_plan/loading/known_fields_operators.py
    python3 -m podgroup_plan.loading.known_fields_gen --checks > podgroup_plan/loading/known_fields_checks_v1_37.py

(each REPO a git directory holding the tags below; tools/knownfields/generate.sh runs both, after
the Go generator), then run tests/loading/test_known_fields.py.
The tool then walks each kind's CRD (the same tag's manifest) beside the tables and prints to
standard error every CRD property the tables lack (a field the planner would refuse that the
API server accepts); it exits 1 if there is one.
"""
from __future__ import annotations

import pprint
import re
import subprocess
import sys

# (repository argument, tag, API package folder, our type prefix, API version, {kind: Go type});
# JobSet first: Trainer's types refer to its JobSetSpec.
SOURCES = [
    (3, "v0.12.0", "api/jobset/v1alpha2", "jobsetv1alpha2", "jobset.x-k8s.io/v1alpha2", {"JobSet": "JobSet"}),
    (0, "v1.9.4", "pkg/apis/kubeflow.org/v1", "kubeflowv1", "kubeflow.org/v1",
     {"PyTorchJob": "PyTorchJob", "TFJob": "TFJob"}),
    (0, "v2.3.0", "pkg/apis/trainer/v1alpha1", "trainerv1alpha1", "trainer.kubeflow.org/v1alpha1",
     {"TrainJob": "TrainJob", "TrainingRuntime": "TrainingRuntime", "ClusterTrainingRuntime": "ClusterTrainingRuntime"}),
    (1, "v0.10.0", "api/leaderworkerset/v1", "lwsv1", "leaderworkerset.x-k8s.io/v1",
     {"LeaderWorkerSet": "LeaderWorkerSet"}),
    (2, "v1.7.0", "ray-operator/apis/ray/v1", "rayv1", "ray.io/v1",
     {"RayCluster": "RayCluster", "RayJob": "RayJob"}),
]
# Go import paths -> the generated tables' type prefixes (known_fields_v1_37.py)
KNOWN_PACKAGES = {
    "k8s.io/api/core/v1": "core/v1", "k8s.io/api/batch/v1": "batch/v1",
    "k8s.io/apimachinery/pkg/apis/meta/v1": "meta/v1",
    "sigs.k8s.io/jobset/api/jobset/v1alpha2": "jobsetv1alpha2",
}
# kind -> (repository argument, tag, its CRD manifest)
CRDS = {
    "jobset.x-k8s.io/v1alpha2/JobSet": (3, "v0.12.0", "config/components/crd/bases/jobset.x-k8s.io_jobsets.yaml"),
    "kubeflow.org/v1/PyTorchJob": (0, "v1.9.4", "manifests/base/crds/kubeflow.org_pytorchjobs.yaml"),
    "kubeflow.org/v1/TFJob": (0, "v1.9.4", "manifests/base/crds/kubeflow.org_tfjobs.yaml"),
    "trainer.kubeflow.org/v1alpha1/TrainJob": (0, "v2.3.0", "manifests/base/crds/trainer.kubeflow.org_trainjobs.yaml"),
    "trainer.kubeflow.org/v1alpha1/TrainingRuntime":
        (0, "v2.3.0", "manifests/base/crds/trainer.kubeflow.org_trainingruntimes.yaml"),
    "trainer.kubeflow.org/v1alpha1/ClusterTrainingRuntime":
        (0, "v2.3.0", "manifests/base/crds/trainer.kubeflow.org_clustertrainingruntimes.yaml"),
    "leaderworkerset.x-k8s.io/v1/LeaderWorkerSet":
        (1, "v0.10.0", "config/crd/bases/leaderworkerset.x-k8s.io_leaderworkersets.yaml"),
    "ray.io/v1/RayCluster": (2, "v1.7.0", "ray-operator/config/crd/bases/ray.io_rayclusters.yaml"),
    "ray.io/v1/RayJob": (2, "v1.7.0", "ray-operator/config/crd/bases/ray.io_rayjobs.yaml"),
}
STRUCT = re.compile(r"^type (\w+) struct \{\n(.*?)^\}", re.S | re.M)
FIELD = re.compile(r'^\s*(?:(\w+)\s+)?([\w.\[\]*]+(?:\[[\w.]+\][\w.*\[\]]+)?)\s+`[^`]*json:"([^"]*)"', re.M)
IMPORT = re.compile(r'^\s*(\w+)?\s*"([^"]+)"\s*$', re.M)


def git_show(repo: str, tag: str, path: str) -> str:
    return subprocess.run(["git", "-C", repo, "show", f"{tag}:{path}"], check=True, capture_output=True,
                          text=True).stdout


def package_sources(repo: str, tag: str, folder: str) -> list[str]:
    names = subprocess.run(["git", "-C", repo, "ls-tree", "--name-only", f"{tag}:{folder}"], check=True,
                           capture_output=True, text=True).stdout.split()
    return [git_show(repo, tag, f"{folder}/{n}") for n in names
            if n.endswith(".go") and not n.endswith("_test.go") and not n.startswith("zz_generated")]


def read_package(sources: list[str]) -> tuple[dict[str, list[tuple[str | None, str, str]]], dict[str, str]]:
    """{struct: [(Go field name or None if embedded, Go type, json tag)]}, {import alias: path}."""
    structs: dict[str, list] = {}
    aliases: dict[str, str] = {}
    for text in sources:
        block = re.search(r"^import \((.*?)^\)", text, re.S | re.M)
        for alias, path in IMPORT.findall(block.group(1) if block else ""):
            aliases[alias or path.rsplit("/", 1)[-1]] = path
        for name, body in STRUCT.findall(text):
            body = re.sub(r"//.*", "", body)
            structs[name] = [(f or None, t, tag) for f, t, tag in FIELD.findall(body)]
    return structs, aliases


def build(prefix: str, structs: dict, aliases: dict, known: dict):
    """(the types found so far, visit(struct): add a struct and every struct it refers to)."""
    types: dict[str, dict[str, str]] = {}

    def shape(go: str) -> str:
        go = go.lstrip("*")
        if go.startswith("[]"):
            inner = shape(go[2:])
            return "[]" + inner if inner else ""
        if go.startswith("map["):
            inner = shape(go[go.index("]") + 1:])
            return "{}" + inner if inner else ""
        if "." in go:
            alias, name = go.split(".", 1)
            target = KNOWN_PACKAGES.get(aliases.get(alias, ""))
            full = f"{target}.{name}" if target else None
            return full if full in known else ""
        if go in structs:
            visit(go)
            return f"{prefix}.{go}"
        return ""

    def fields_of(name: str) -> dict[str, str]:
        out: dict[str, str] = {}
        for field, go, tag in structs[name]:
            json_name = tag.split(",")[0]
            if json_name == "-":
                continue
            if field is None and json_name:  # embedded under its own name (metav1.ObjectMeta)
                out[json_name] = shape(go)
                continue
            if field is None or (not json_name and ",inline" in tag):  # embedded, inline
                base = go.lstrip("*")
                if base in structs:
                    out.update(fields_of(base))
                elif base.endswith("TypeMeta"):
                    out.update({"apiVersion": "", "kind": ""})
                continue
            out[json_name or field] = shape(go)
        return out

    def visit(name: str) -> None:
        full = f"{prefix}.{name}"
        if full in types:
            return
        types[full] = {}  # a struct that refers to itself stops here
        types[full] = fields_of(name)

    return types, visit


def missing_from(schema: dict | None, type_name: str, types: dict, path: str) -> list[str]:
    """The CRD schema's properties that the tables lack, as paths (walked where both have a type)."""
    if not type_name or not isinstance(schema, dict):
        return []
    if type_name.startswith("[]"):
        return missing_from(schema.get("items"), type_name[2:], types, path + "[]")
    if type_name.startswith("{}"):
        extra = schema.get("additionalProperties")
        return missing_from(extra if isinstance(extra, dict) else None, type_name[2:], types, path + "{}")
    fields = types[type_name]
    out = []
    for key, sub in (schema.get("properties") or {}).items():
        if key not in fields:
            out.append(f"{path}.{key}")
        else:
            out += missing_from(sub, fields[key], types, f"{path}.{key}")
    return out


def check_crds(repos: list[str], kinds: dict[str, str], types: dict) -> int:
    import yaml

    missing = []
    for kind, (index, tag, path) in sorted(CRDS.items()):
        crd = yaml.safe_load(git_show(repos[index], tag, path))
        for version in crd["spec"]["versions"]:
            if f"{crd['spec']['group']}/{version['name']}/{crd['spec']['names']['kind']}" == kind:
                missing += missing_from(version["schema"]["openAPIV3Schema"], kinds[kind], types, kind)
    for line in missing:
        print(f"the CRD has {line}, the tables do not", file=sys.stderr)
    return 1 if missing else 0


def main(repos: list[str]) -> int:
    from podgroup_plan.loading.known_fields_v1_37 import TYPES as known

    kinds: dict[str, str] = {}
    types: dict[str, dict[str, str]] = {}
    for index, tag, folder, prefix, api_version, wanted in SOURCES:
        structs, aliases = read_package(package_sources(repos[index], tag, folder))
        found, visit = build(prefix, structs, aliases, {**known, **types})
        for kind, go in wanted.items():
            visit(go)
            kinds[f"{api_version}/{kind}"] = f"{prefix}.{go}"
        types.update(found)
    print('"""Generated by tools/knownfields/operators.py from the Go API types of JobSet and the operators')
    print("(kubernetes-sigs/jobset v0.12.0 api/jobset/v1alpha2, kubeflow/trainer v1.9.4 pkg/apis/kubeflow.org/v1")
    print("and v2.3.0 pkg/apis/trainer/v1alpha1, kubernetes-sigs/lws v0.10.0 api/leaderworkerset/v1,")
    print("ray-project/kuberay v1.7.0 ray-operator/apis/ray/v1); do not edit.")
    print("Same shapes as known_fields_v1_37.py, whose types these refer to.")
    print('"""')
    print("# flake8: noqa")
    print("KINDS = " + pprint.pformat(dict(sorted(kinds.items())), width=110, sort_dicts=True))
    print("TYPES = " + pprint.pformat(dict(sorted(types.items())), width=110, sort_dicts=True))
    return check_crds(repos, kinds, {**known, **types})


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
