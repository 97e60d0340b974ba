"""`explain --job NS/NAME` and `--owner KIND/NS/NAME`: a gang named by the Job a user wrote, not
its generated PodGroup name; errors from the command line (`command line: ...`, not `-:`) with
the nearest names offered (tests/render/realistic.py's cluster)."""
import json

import pytest
from typer.testing import CliRunner

import realistic
from podgroup_plan.cli import app


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    return str(realistic.write(tmp_path_factory.mktemp("realistic")))


def run(*args):
    return CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": "100"})


def test_job_names_the_gang_the_job_controller_made(cluster):
    out = run("explain", cluster, "--job", "research-infrastructure/giant-pretrain", "-o", "json")
    assert out.exit_code == 0, out.output
    target = json.loads(out.stdout)["target"]
    assert target["kind"] == "PodGroup" and target["name"].startswith("giant-pretrain-")
    same = run("explain", cluster, "--owner", "Job/research-infrastructure/giant-pretrain", "-o", "json")
    by_name = run("explain", cluster, "--pod-group", f"research-infrastructure/{target['name']}", "-o", "json")
    assert same.stdout == out.stdout == by_name.stdout


def test_the_generated_name_is_not_needed_and_the_error_says_what_to_type(cluster):
    out = run("explain", cluster, "--pod-group", "research-infrastructure/giant-pretrain")
    assert out.exit_code == 2
    assert out.stderr == ("command line: --pod-group research-infrastructure/giant-pretrain: no such PodGroup "
                          "in the input; did you mean --job research-infrastructure/giant-pretrain?\n")


def test_a_typo_gets_the_nearest_names(cluster):
    out = run("explain", cluster, "--job", "research-infrastructure/giant-pretrian")
    assert out.exit_code == 2
    assert out.stderr.startswith("command line: --job research-infrastructure/giant-pretrian: no such owner")
    assert "did you mean --job research-infrastructure/giant-pretrain" in out.stderr
    out = run("explain", cluster, "--pod", "research-infrastructure/giant-pretrain-0")
    assert "did you mean" in out.stderr and "--pod research-infrastructure/giant-pretrain-0-zp975" in out.stderr


def test_an_owner_without_a_podgroup_points_to_its_pods(cluster):
    out = run("explain", cluster, "--owner", "Deployment/search-ranking-online/embedding-inference")
    assert out.exit_code == 2
    assert "it has no PodGroup; its 60 pods are planned one by one: explain one with --pod " \
           "search-ranking-online/embedding-inference-" in out.stderr


@pytest.mark.parametrize("args, message", [
    (["--job", "a/b/c"], "command line: --job 'a/b/c': expected NAMESPACE/NAME\n"),
    (["--owner", "Job"], "command line: --owner 'Job': expected KIND/NAMESPACE/NAME (e.g. Job/ml/train)\n"),
    (["--job", "x/y", "--pod", "x/z"], "command line: explain needs exactly one of --pod, --pod-group, "
                                       "--composite-pod-group, --job and --owner\n"),
    (["--pod", "research-infrastructure/giant-pretrain-0-zp975", "--node", "nope"],
     "command line: --node nope: no such Node in the input\n"),
])
def test_usage_errors_name_the_command_line(cluster, args, message):
    out = run("explain", cluster, *args)
    assert out.exit_code == 2 and out.stderr == message
