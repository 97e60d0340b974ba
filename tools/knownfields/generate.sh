#!/usr/bin/env bash
# Regenerates podgroup_plan/loading/known_fields_v1_37.py from the Kubernetes API types
# (k8s.io/api v0.35.0, v0.36.0 and v0.37.2; needs Go and the module cache or proxy).
set -euo pipefail
cd "$(dirname "$0")"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
go run . >"$out/v137.json"
go run -modfile=go136.mod -tags v136 . >"$out/v136.json"
go run -modfile=go135.mod -tags v135 . >"$out/v135.json"
cd ../..
python3 -m podgroup_plan.loading.known_fields_gen "$out"/v135.json "$out"/v136.json "$out"/v137.json \
  >podgroup_plan/loading/known_fields_v1_37.py
python3 -m podgroup_plan.loading.known_fields_gen --checks >podgroup_plan/loading/known_fields_checks_v1_37.py.new
mv podgroup_plan/loading/known_fields_checks_v1_37.py.new podgroup_plan/loading/known_fields_checks_v1_37.py
