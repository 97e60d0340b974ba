"""An installed copy of the working tree, for timing the CLI as a user runs it (`demo-startup`).

A user follows the README: `pip install .` in a virtual environment, then `podgroup-plan ...`.
pip compiles every module to bytecode as it installs (also with PYTHONDONTWRITEBYTECODE=1 set,
as on the reference machine: checked with pip 23.2), so the user's process reads `.pyc` files. A
run from the checkout under PYTHONDONTWRITEBYTECODE=1 compiles all ~110 project modules from
source every time (about 0.1 s), which no user pays.

`installed_script` builds, once per content of the files that go into the wheel, a virtual
environment under the benchmark data folder, as the README's `python3 -m venv .venv` makes it,
with this tree installed into it by this interpreter's pip (`--python`, pip 22.3 or later;
`--no-deps`); it returns the path of its `podgroup-plan` script. The dependencies (numpy,
typer, ... as installed for this interpreter, so nothing is downloaded and the versions are
those of the other cases) are made visible by a path file naming this interpreter's
site-packages: their modules and bytecode are used, but not that folder's own `.pth` files,
which a user's venv would not run either (on the reference machine one imports certifi for the
sandbox's proxy, about 0.015 s of every start; `--system-site-packages` would run it). A user's
venv made by `venv` with pip also runs setuptools' `distutils-precedence.pth` (about 2 ms),
which this one has not. Building needs pip's build backend (hatchling), which pip fetches once
into its cache.
"""
from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# What the wheel is built from (pyproject.toml: the package, the schemas, the metadata).
WHEEL_INPUTS = ("podgroup_plan", "schemas", "pyproject.toml", "README.md", "hatch_build.py")
COMPLETE = "podgroup-plan-installed"  # written last: a venv without it is rebuilt
LAYOUT = "v2"  # how the venv is made; in its folder's name, so that a change makes new ones


def tree_digest(repo: str = REPO) -> str:
    """A digest of every file the wheel is built from (work in progress included)."""
    digest = hashlib.sha256()
    for entry in WHEEL_INPUTS:
        path = os.path.join(repo, entry)
        files = [path] if os.path.isfile(path) else sorted(
            os.path.join(folder, name)
            for folder, dirs, names in os.walk(path)
            if "__pycache__" not in folder.split(os.sep)
            for name in names if not name.endswith((".pyc", ".pyo")))
        for name in files:
            digest.update(os.path.relpath(name, repo).encode() + b"\0")
            with open(name, "rb") as fh:
                digest.update(hashlib.sha256(fh.read()).digest())
    return digest.hexdigest()[:12]


def installed_script(data_dir: str, repo: str = REPO) -> str:
    """The `podgroup-plan` script of an installed copy of `repo` (built on first use). Raises
    RuntimeError with pip's last words when it cannot be built."""
    version = "py" + "".join(map(str, sys.version_info[:2]))
    venv = os.path.join(data_dir, f"installed-{LAYOUT}-{version}-{tree_digest(repo)}")
    script = os.path.join(venv, "bin", "podgroup-plan")
    os.makedirs(data_dir, exist_ok=True)
    with open(os.path.join(data_dir, ".installed.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another runner may be building the same copy
        if os.path.exists(os.path.join(venv, COMPLETE)):
            return script
        shutil.rmtree(venv, ignore_errors=True)
        # without a pip of its own (29 MiB a copy): this interpreter's pip installs into it
        python = os.path.join(venv, "bin", "python")
        steps = [[sys.executable, "-m", "venv", "--without-pip", venv],
                 [python, "-c", "import sys, sysconfig\n"
                  "open(sysconfig.get_paths()['purelib'] + '/_benchmark_dependencies.pth', 'w')"
                  ".write(''.join(p + '\\n' for p in sys.argv[1:]))", *dependency_paths()],
                 [sys.executable, "-m", "pip", "--python", python,
                  "install", "--quiet", "--no-deps", "--disable-pip-version-check", repo]]
        for step in steps:
            done = subprocess.run(step, capture_output=True, text=True, cwd=repo)
            if done.returncode != 0:
                shutil.rmtree(venv, ignore_errors=True)
                tail = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
                raise RuntimeError(f"{' '.join(step[:4])}... exited {done.returncode}: {tail}")
        with open(os.path.join(venv, COMPLETE), "w") as fh:
            fh.write(repo + "\n")
    return script


def dependency_paths() -> list[str]:
    """Where this interpreter finds the project's dependencies (its site-packages)."""
    import sysconfig

    paths = sysconfig.get_paths()
    return list(dict.fromkeys([paths["purelib"], paths["platlib"]]))


def bytecode_files(script: str) -> int:
    """How many of the installed package's modules have bytecode beside them."""
    venv = os.path.dirname(os.path.dirname(script))
    count = 0
    for folder, _, names in os.walk(venv):
        if os.path.basename(folder) == "__pycache__" and f"{os.sep}podgroup_plan" in folder:
            count += sum(name.endswith(".pyc") for name in names)
    return count
