#!/usr/bin/env bash
# action.yml, step 2: plan, and keep what the plan says whatever its exit code. Writes plan.json,
# plan.md and plan.xml under $RUNNER_TEMP/podgroup-plan, the Markdown to the job summary, their
# paths and the exit code to $GITHUB_OUTPUT, and always exits 0: the gate step fails the job
# afterwards, so the summary and the outputs are there exactly when the gate fails.
set -euo pipefail
out="${RUNNER_TEMP:?}/podgroup-plan"
mkdir -p "$out"
read -r -a paths <<< "$(echo "${INPUT_PATHS:-}" | tr '\n' ' ')"
if [ "${#paths[@]}" -eq 0 ]; then
  echo "podgroup-plan action: the input 'paths' is empty" >&2
  exit 2
fi
args=()
for condition in $(echo "${INPUT_FAIL_ON:-}" | tr ',' ' '); do
  args+=(--fail-on "$condition")
done
if [ -n "${INPUT_CONFIG:-}" ]; then args+=(--scheduler-config "$INPUT_CONFIG"); fi
if [ -n "${INPUT_FEATURE_GATES:-}" ]; then args+=(--feature-gates "$INPUT_FEATURE_GATES"); fi

status=0
podgroup-plan simulate "${paths[@]}" "${args[@]}" -o json --output-file "$out/plan.json" \
  2> "$out/stderr.txt" || status=$?
if [ "$status" -le 1 ]; then
  # the same plan again for the two other formats (same input, same result)
  podgroup-plan simulate "${paths[@]}" "${args[@]}" -o markdown --output-file "$out/plan.md" 2>/dev/null || true
  podgroup-plan simulate "${paths[@]}" "${args[@]}" -o junit --output-file "$out/plan.xml" 2>/dev/null || true
else
  # bad input or usage: the problems are the report
  { echo "## ❌ podgroup-plan: the input was not planned (exit $status)"; echo; echo '```';
    cat "$out/stderr.txt"; echo '```'; } > "$out/plan.md"
fi
cat "$out/stderr.txt" >&2
cat "$out/plan.md" >> "${GITHUB_STEP_SUMMARY:?}"
{
  echo "plan-json=$out/plan.json"
  echo "plan-junit=$out/plan.xml"
  echo "plan-markdown=$out/plan.md"
  echo "exit-code=$status"
} >> "${GITHUB_OUTPUT:?}"
