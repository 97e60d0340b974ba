"""`-o html` and `--capacity` on the command line: the real engine on the demo (the page's
content is tested in tests/render/test_html*.py)."""
from __future__ import annotations

import json

import pytest

pytest.importorskip("jinja2", reason="Jinja2, a dependency of -o html, is not installed (pip install -e .)")

from podgroup_plan.cli import app

DEMO = ["fixtures/cluster", "fixtures/workloads"]
MOST_ALLOCATED = "fixtures/scheduler-config/most-allocated.yaml"


def test_simulate_html_to_a_file_and_to_stdout_are_the_same_page(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(__import__("pathlib").Path(__file__).resolve().parents[2])
    target = tmp_path / "plan.html"
    result = runner.invoke(app, ["simulate", *DEMO, "-o", "html", "--output-file", str(target)])
    assert result.exit_code == 0 and result.stdout == ""
    page = target.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and page.count('<g class="cell"') == 67
    again = runner.invoke(app, ["simulate", *DEMO, "-o", "html"])
    assert again.exit_code == 0 and again.stdout == page
    # --fail-on keeps its exit code with html too
    failing = runner.invoke(app, ["simulate", *DEMO, "-o", "html", "--output-file", str(target),
                                  "--fail-on", "unschedulable"])
    assert failing.exit_code == 1


def test_diff_html_draws_both_plans(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(__import__("pathlib").Path(__file__).resolve().parents[2])
    target = tmp_path / "diff.html"
    result = runner.invoke(app, ["diff", *DEMO, "--config-b", MOST_ALLOCATED, "-o", "html",
                                 "--output-file", str(target)])
    assert result.exit_code == 1  # the two configurations differ
    page = target.read_text(encoding="utf-8")
    assert page.count('<g class="cell"') == 2 * 67 and MOST_ALLOCATED in page


def test_capacity_adds_the_fragmentation_section_to_the_table(runner, monkeypatch):
    monkeypatch.chdir(__import__("pathlib").Path(__file__).resolve().parents[2])
    monkeypatch.setenv("COLUMNS", "100")
    plain = runner.invoke(app, ["simulate", *DEMO])
    with_capacity = runner.invoke(app, ["simulate", *DEMO, "--capacity"])
    assert plain.exit_code == with_capacity.exit_code == 0
    assert "GPU fragmentation" not in plain.stdout
    section = with_capacity.stdout.split("GPU fragmentation", 1)[1]
    assert with_capacity.stdout.startswith(plain.stdout.rstrip("\n"))
    cap = json.loads(runner.invoke(app, ["simulate", *DEMO, "-o", "json"]).stdout)["capacity"]
    cluster = next(line for line in section.splitlines() if line.startswith("cluster "))
    before, after = cap["cluster"]["before"], cap["cluster"]["after"]
    cells = cluster.split()
    assert cells[1] == str(cap["cluster"]["gpuNodes"]) and cells[2] == f"{before['free']}→{after['free']}"
    assert cells[3:7] == [f"{b['count']}→{a['count']}" for b, a in zip(before["slots"], after["slots"], strict=True)]
    for rack in cap["racks"]:
        if rack["name"]:
            assert any(line.split()[:1] == [rack["name"]] for line in section.splitlines()), rack["name"]
