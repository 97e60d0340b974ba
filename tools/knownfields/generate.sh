#!/usr/bin/env bash
# Regenerates the known-field tables: podgroup_plan/loading/known_fields_v1_37.py from the
# Kubernetes API types (k8s.io/api v0.35.0, v0.36.0 and v0.37.2; needs Go and the module cache or
# proxy), known_fields_operators.py from the field names of JobSet's and the operators' Go API
# types (operators.py: checkouts of their repositories, git directories holding the tags it
# names), then the compiled checks known_fields_checks_v1_37.py from both.
#   tools/knownfields/generate.sh TRAINER_REPO LWS_REPO KUBERAY_REPO JOBSET_REPO
set -euo pipefail
if [ $# -ne 4 ]; then
  echo "usage: $0 TRAINER_REPO LWS_REPO KUBERAY_REPO JOBSET_REPO" >&2
  exit 2
fi
repos=()
for r in "$@"; do repos+=("$(cd "$r" && pwd)"); done
cd "$(dirname "$0")"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
go run . >"$out/v137.json"
go run -modfile=go136.mod -tags v136 . >"$out/v136.json"
go run -modfile=go135.mod -tags v135 . >"$out/v135.json"
cd ../..
python3 -m podgroup_plan.loading.known_fields_gen "$out"/v135.json "$out"/v136.json "$out"/v137.json \
  >"$out/known_fields_v1_37.py"
mv "$out/known_fields_v1_37.py" podgroup_plan/loading/known_fields_v1_37.py
python3 tools/knownfields/operators.py "${repos[@]}" >"$out/known_fields_operators.py"
mv "$out/known_fields_operators.py" podgroup_plan/loading/known_fields_operators.py
python3 -m podgroup_plan.loading.known_fields_gen --checks >"$out/known_fields_checks_v1_37.py"
mv "$out/known_fields_checks_v1_37.py" podgroup_plan/loading/known_fields_checks_v1_37.py
