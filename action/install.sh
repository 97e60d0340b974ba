#!/usr/bin/env bash
# action.yml, step 1: install podgroup-plan from the action's own checkout ($GITHUB_ACTION_PATH)
# into a virtual environment under $RUNNER_TEMP (runners' system Pythons refuse a plain pip
# install, PEP 668), and put its bin/ first on the PATH of the later steps.
set -euo pipefail
venv="${RUNNER_TEMP:?}/podgroup-plan-venv"
"${INPUT_PYTHON:-python3}" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${GITHUB_ACTION_PATH:?}"
echo "$venv/bin" >> "${GITHUB_PATH:?}"
echo "PODGROUP_PLAN_VENV=$venv" >> "${GITHUB_ENV:?}"
"$venv/bin/podgroup-plan" --version
