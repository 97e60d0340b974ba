"""The `podgroup-plan` command line (docs/contract.md: commands, flags and exit codes are fixed).

    podgroup-plan simulate PATH... [--scheduler-config FILE] [--feature-gates G=BOOL,...]
                                   [-o table|json|yaml|markdown|junit] [--output-file FILE]
                                   [--fail-on unschedulable|waiting|preemption]...
    podgroup-plan validate PATH... [--scheduler-config FILE] [--feature-gates ...]
    podgroup-plan diff PATH... [--config-a FILE] --config-b FILE [-o table|json|markdown]
    podgroup-plan explain PATH... (--pod | --pod-group | --composite-pod-group) NS/NAME ...

This package is an edge (design.md): it reads files and flags, calls `plan()`, and hands the
result to a renderer (render/registry.py). It decides nothing about scheduling.

    app.py        the typer app, exit codes, option parsing without pydantic
    options.py    options shared by the commands, choice and count callbacks
    simulate.py, validate.py, diff.py, explain.py, headroom.py, what_if.py, snapshot.py,
    deanonymize.py   one command each (COMMAND_MODULES)
    live_input.py --from-cluster, --context, --kubeconfig; a live cluster's errors (podgroup_plan/live/)
    changes.py    --cordon / --drain / --fail / --add-node, shared by the commands that plan
    inputs.py     manifests, configuration files and gates read, every problem at once
    planning.py   plan() with progress; the configuration checked without planning
    emit.py       a document rendered by the registry's renderer for `-o`, and written
    output.py     standard output / --output-file, write errors, width
    guard.py      bad input (exit 2) and internal errors (exit 3)
    fail_on.py    --fail-on;  header.py  what the header says;  progress.py  bar and spinner
    process.py    `main`, the console-script entry point, and how the process ends
"""
from __future__ import annotations

import importlib

from podgroup_plan.cli.app import app

# One module per command, each registering its command on `app` when imported, in the order
# the help lists them. A new subcommand is one module here plus its name in this tuple.
COMMAND_MODULES = ("simulate", "validate", "diff", "explain", "headroom", "what_if", "replay", "snapshot",
                   "deanonymize")

for _module in COMMAND_MODULES:
    importlib.import_module(f"{__name__}.{_module}")

from podgroup_plan.cli.process import kubectl_main, main  # noqa: E402

__all__ = ["COMMAND_MODULES", "app", "kubectl_main", "main"]
