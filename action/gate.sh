#!/usr/bin/env bash
# action.yml, last step: fail the step with podgroup-plan's exit code, after the summary, the
# outputs and the comment are written.
set -euo pipefail
code="${PLAN_EXIT_CODE:-2}"
if [ "$code" != "0" ]; then
  echo "podgroup-plan: exit $code (1: a --fail-on condition holds; 2: bad input). The report is in the job summary." >&2
fi
exit "$code"
