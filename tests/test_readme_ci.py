"""The README's set-up lines are what CI runs, and the repository points nowhere outside itself."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The project's shared folder beside the repository (spelled in two parts so this file does not
# name it itself).
NEEDLES = ("../" + "shared", "shared/" + "spec")


def setup_lines() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```\n(.*?)```", readme, re.S).group(1)
    return [line for line in block.splitlines() if line.strip()]


def test_ci_runs_exactly_the_readme_set_up():
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = [line for line in script.splitlines()
                if line.strip() and not line.startswith("#") and not line.startswith(("set ", "cd "))]
    assert commands == setup_lines()


def test_set_up_names_a_venv_and_the_python_version():
    lines = setup_lines()
    assert lines[0].startswith("python3 -m venv .venv")
    assert "podgroup-plan simulate fixtures/cluster fixtures/workloads" in lines[1]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "Python 3.11 or newer" in readme
    assert 'requires-python = ">=3.11"' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")


def test_the_demo_keeps_its_folders():
    assert (ROOT / "fixtures" / "cluster").is_dir()
    prep = (ROOT / "fixtures" / "workloads" / "data-prep.yaml").read_text(encoding="utf-8")
    assert "podGroupName: data-prep-shards" in prep and "kind: PodGroup" not in prep


def test_nothing_points_outside_the_repository():
    offenders = []
    for path in ROOT.rglob("*"):
        if not path.is_file() or any(part.startswith(".") and part not in (".ci",)
                                     for part in path.relative_to(ROOT).parts):
            continue
        if path.suffix not in (".py", ".md", ".toml", ".yaml", ".yml", ".json", ".txt", "") or \
                "snapshots" in path.parts:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if any(needle in text for needle in NEEDLES):
            offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []
