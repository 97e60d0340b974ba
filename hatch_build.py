"""Wheel build hook: the bundled schemas' checks, compiled into `podgroup_plan/loading/
_schema_checks.py` (podgroup_plan/loading/schema_precompiled.py says why and when it is used).

Runs in pip's isolated build environment, where the package's dependencies are not installed:
the generator runs in a child interpreter that imports only the three modules it needs (stub
parent packages instead of the package's own `__init__`s, which import numpy and friends). Any
failure leaves the module out of the wheel with a warning: the checks are then compiled at run
time, as from a checkout.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

TARGET = "podgroup_plan/loading/_schema_checks.py"

GENERATE = """
import sys, types
from pathlib import Path
root = Path(sys.argv[1])
for name, folder in (("podgroup_plan", "podgroup_plan"), ("podgroup_plan.loading", "podgroup_plan/loading")):
    stub = types.ModuleType(name)
    stub.__path__ = [str(root / folder)]
    sys.modules[name] = stub
from podgroup_plan.loading import schema_precompiled
from podgroup_plan.loading.schema import SchemaSet
schema_precompiled.write(Path(sys.argv[2]), SchemaSet(root / "schemas", precompiled=False))
"""


class CustomBuildHook(BuildHookInterface):
    def initialize(self, version: str, build_data: dict) -> None:
        if self.target_name != "wheel":
            return
        self._folder = tempfile.mkdtemp(prefix="podgroup-plan-build-")
        target = Path(self._folder) / "_schema_checks.py"
        done = subprocess.run([sys.executable, "-c", GENERATE, self.root, str(target)],
                              capture_output=True, text=True)
        if done.returncode != 0 or not target.exists():
            tail = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
            self.app.display_warning(f"schema checks not precompiled ({tail}); "
                                     "they will be compiled at run time")
            return
        build_data["force_include"][str(target)] = TARGET

    def finalize(self, version: str, build_data: dict, artifact_path: str) -> None:
        folder = getattr(self, "_folder", None)
        if folder:
            shutil.rmtree(folder, ignore_errors=True)
