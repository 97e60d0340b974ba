"""The CI recipes as a user runs them: the composite action (action.yml), the pre-commit hooks
(.pre-commit-hooks.yaml) and every command snippet of README.md, extracted from the README and
run as written.

The action's steps run under `bash -e` (as GitHub's `shell: bash` runs them: `bash --noprofile
--norc -eo pipefail`) with fake GITHUB_STEP_SUMMARY / GITHUB_OUTPUT / GITHUB_ENV / GITHUB_PATH
files, `${{ inputs.* }}` and `${{ steps.*.outputs.* }}` filled in as the runner fills them, and a
stub of GitHub's REST API on 127.0.0.1 for the comment. The install step (a venv and `pip
install` of this checkout, a minute or more) runs once per module, for real; later runs of the
action take its GITHUB_PATH and GITHUB_ENV lines instead of installing again. The GitLab recipe
installs once more, as written.
"""
from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import threading
import xml.etree.ElementTree as ET
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
EXPR = re.compile(r"\$\{\{\s*([^}]+?)\s*\}\}")


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """(language, body) of every fenced block."""
    return [(m.group(1), m.group(2)) for m in re.finditer(r"```(\w*)\n(.*?)```", text, re.S)]


def ci_section() -> str:
    return README.split("### A capacity gate in CI")[1].split("\n### ")[0]


# --- a small runner for action.yml's steps ---------------------------------------------------

class Runner:
    def __init__(self, workspace: Path, env: dict[str, str], action_path: Path = ROOT):
        self.workspace = workspace
        self.action_path = action_path
        self.base = dict(env)
        self.temp = workspace / "_runner_temp"
        self.temp.mkdir(exist_ok=True)
        self.summary = workspace / "_step_summary.md"
        self.extra_env: dict[str, str] = {}
        self.extra_path: list[str] = []
        self.steps: dict[str, dict[str, str]] = {}

    def evaluate(self, text: str, inputs: dict[str, str]) -> str:
        def one(m: re.Match) -> str:
            expr = m.group(1)
            if expr.startswith("inputs."):
                return inputs[expr[len("inputs."):]]
            if expr == "github.token":
                return "token-from-the-workflow"
            if expr.startswith("steps."):
                step, _, name = expr[len("steps."):].partition(".outputs.")
                return self.steps.get(step, {}).get(name, "")
            raise AssertionError(f"expression the test runner does not know: {expr}")
        return EXPR.sub(one, str(text))

    def run_step(self, step: dict, inputs: dict[str, str]) -> subprocess.CompletedProcess:
        output = self.temp / "_output"
        output.write_text("")
        env_file, path_file = self.temp / "_env", self.temp / "_path"
        env_file.write_text("")
        path_file.write_text("")
        env = dict(self.base, **self.extra_env)
        env["PATH"] = os.pathsep.join(self.extra_path + [env["PATH"]])
        env.update(GITHUB_ACTION_PATH=str(self.action_path), GITHUB_WORKSPACE=str(self.workspace),
                   RUNNER_TEMP=str(self.temp), GITHUB_STEP_SUMMARY=str(self.summary),
                   GITHUB_OUTPUT=str(output), GITHUB_ENV=str(env_file), GITHUB_PATH=str(path_file))
        env.update({k: self.evaluate(v, inputs) for k, v in (step.get("env") or {}).items()})
        assert step["shell"] == "bash"
        done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
                              cwd=self.workspace, env=env, capture_output=True, text=True, timeout=900)
        if "id" in step:
            self.steps[step["id"]] = dict(line.split("=", 1) for line in output.read_text().splitlines() if line)
        self.apply(env_file.read_text(), path_file.read_text())
        return done

    def apply(self, env_lines: str, path_lines: str) -> None:
        self.extra_env.update(dict(line.split("=", 1) for line in env_lines.splitlines() if line))
        self.extra_path = [line for line in path_lines.splitlines() if line] + self.extra_path

    def run(self, with_: dict[str, object], installed: tuple[str, str] | None) -> list:
        """Every step in order, stopping at the first that fails (as the runner does: no step
        has an `if:`). `installed`: the install step's GITHUB_ENV and GITHUB_PATH lines."""
        inputs = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()}
        inputs.update({k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in with_.items()})
        inputs = {k: self.evaluate(v, inputs) for k, v in inputs.items()}
        missing = [k for k, spec in ACTION["inputs"].items() if spec.get("required") and not inputs.get(k)]
        assert not missing, missing
        results = []
        for i, step in enumerate(ACTION["runs"]["steps"]):
            if i == 0 and installed is not None:
                self.apply(*installed)
                continue
            done = self.run_step(step, inputs)
            results.append((step["name"], done))
            if done.returncode != 0:
                break
        return results

    def outputs(self, inputs: dict[str, str] | None = None) -> dict[str, str]:
        return {name: self.evaluate(spec["value"], inputs or {}) for name, spec in ACTION["outputs"].items()}


class StubGitHub:
    """GitHub's issue-comment API, enough for action/comment.py: lists, creates, updates."""

    def __init__(self, comments: list[dict] | None = None):
        self.comments = list(comments or [])
        self.requests: list[tuple[str, str, dict | None, str]] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _reply(self, code: int, body) -> None:
                data = json.dumps(body).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _body(self):
                n = int(self.headers.get("Content-Length") or 0)
                return json.loads(self.rfile.read(n)) if n else None

            def do_GET(self):
                stub.requests.append(("GET", self.path, None, self.headers.get("Authorization", "")))
                self._reply(200, stub.comments)

            def do_POST(self):
                body = self._body()
                stub.requests.append(("POST", self.path, body, self.headers.get("Authorization", "")))
                stub.comments.append({"id": 1000 + len(stub.comments), "body": body["body"]})
                self._reply(201, stub.comments[-1])

            def do_PATCH(self):
                body = self._body()
                stub.requests.append(("PATCH", self.path, body, self.headers.get("Authorization", "")))
                self._reply(200, {"id": int(self.path.rsplit("/", 1)[1]), "body": body["body"]})

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def base_env(tmp: Path, api: str | None = None, pr: int | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "INPUT_", "RUNNER_"))}
    env.update(PODGROUP_PLAN_ORACLE="off", GITHUB_REPOSITORY="acme/cluster-config",
               GITHUB_EVENT_NAME="pull_request" if pr else "push", COLUMNS="80")
    event = tmp / "_event.json"
    event.write_text(json.dumps({"pull_request": {"number": pr}} if pr else {"ref": "refs/heads/main"}))
    env["GITHUB_EVENT_PATH"] = str(event)
    if api:
        env["GITHUB_API_URL"] = api
    return env


def demo_workspace(tmp: Path) -> Path:
    shutil.copytree(ROOT / "fixtures" / "cluster", tmp / "cluster-snapshot")
    shutil.copytree(ROOT / "fixtures" / "workloads", tmp / "jobs")
    return tmp


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[str, str]:
    """The action's install step, run for real: (its GITHUB_ENV lines, its GITHUB_PATH lines)."""
    tmp = tmp_path_factory.mktemp("install")
    runner = Runner(tmp, base_env(tmp))
    done = runner.run_step(ACTION["runs"]["steps"][0], {"python": "python3"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "podgroup-plan" in done.stdout  # --version printed from the new venv
    venv = runner.extra_env["PODGROUP_PLAN_VENV"]
    assert runner.extra_path == [f"{venv}/bin"] and Path(venv, "bin", "podgroup-plan").exists()
    # installed from the checkout, not from an index: the package's files are this tree's
    code = "import podgroup_plan, sys; print(podgroup_plan.__version__)"
    version = subprocess.run([f"{venv}/bin/python", "-c", code], capture_output=True, text=True)
    from podgroup_plan import __version__
    assert version.stdout.strip() == __version__
    return f"PODGROUP_PLAN_VENV={venv}\n", f"{venv}/bin\n"


# --- the action ----------------------------------------------------------------------------

def test_a_failing_gate_still_writes_the_summary_and_the_outputs_then_fails(tmp_path, installed):
    runner = Runner(demo_workspace(tmp_path), base_env(tmp_path))
    steps = runner.run({"paths": "cluster-snapshot/\njobs/", "fail-on": "unschedulable, waiting"}, installed)
    names = [name for name, _ in steps]
    assert names == ["Plan", "Pull-request comment", "Gate"]
    assert [done.returncode for _, done in steps] == [0, 0, 1]  # only the gate fails
    assert "podgroup-plan: exit 1" in steps[-1][1].stderr
    summary = runner.summary.read_text(encoding="utf-8")
    assert summary.startswith("## ❌ podgroup-plan: not feasible")
    out = runner.outputs()
    assert out["exit-code"] == "1"
    doc = json.loads(Path(out["plan-json"]).read_text())
    assert doc["apiVersion"] == "podgroup-plan/v1" and doc["summary"]["podsWaiting"] > 0
    junit = ET.parse(out["plan-junit"]).getroot()
    assert int(junit.get("failures")) > 0
    assert Path(out["plan-markdown"]).read_text(encoding="utf-8") == summary
    # the --fail-on line names what fails, in the step's log
    assert "--fail-on unschedulable: 32 pods and 1 group not placed" in steps[0][1].stderr


def test_no_fail_on_reports_without_failing_and_config_and_gates_reach_the_plan(tmp_path, installed):
    runner = Runner(demo_workspace(tmp_path), base_env(tmp_path))
    config = ROOT / "fixtures" / "scheduler-config" / "most-allocated.yaml"
    steps = runner.run({"paths": "cluster-snapshot/ jobs/", "fail-on": "", "config": str(config),
                        "feature-gates": "CompositePodGroup=false"}, installed)
    assert [done.returncode for _, done in steps] == [0, 0, 0]
    doc = json.loads(Path(runner.outputs()["plan-json"]).read_text())
    # off, as upstream ships it: no longer listed as differing, and the trees are Ignored
    assert "CompositePodGroup" not in doc["featureGates"] and doc["compositePodGroups"]
    assert all(c["status"] == "Ignored" for c in doc["compositePodGroups"])
    assert str(config) in runner.summary.read_text(encoding="utf-8")  # the header names it


def test_bad_input_fails_the_gate_with_the_problems_in_the_summary(tmp_path, installed):
    (tmp_path / "bad.yaml").write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: 3}\n")
    runner = Runner(tmp_path, base_env(tmp_path))
    steps = runner.run({"paths": "bad.yaml"}, installed)
    assert [done.returncode for _, done in steps] == [0, 0, 2]
    summary = runner.summary.read_text(encoding="utf-8")
    assert "the input was not planned (exit 2)" in summary and "bad.yaml:4: Pod default/p: spec.containers" in summary


def test_the_comment_is_posted_once_then_updated(tmp_path, installed):
    stub = StubGitHub()
    try:
        env = base_env(tmp_path, api=stub.url, pr=42)
        workspace = demo_workspace(tmp_path)
        first = Runner(workspace, env).run({"paths": "cluster-snapshot/ jobs/", "comment": True}, installed)
        assert [d.returncode for _, d in first] == [0, 0, 1]
        assert [(m, p) for m, p, _, _ in stub.requests] == [
            ("GET", "/repos/acme/cluster-config/issues/42/comments?per_page=100&page=1"),
            ("POST", "/repos/acme/cluster-config/issues/42/comments")]
        assert all(auth == "Bearer token-from-the-workflow" for *_, auth in stub.requests)
        body = stub.requests[1][2]["body"]
        assert body.startswith("<!-- podgroup-plan -->\n## ❌ podgroup-plan: not feasible")
        stub.requests.clear()
        Runner(workspace, env).run({"paths": "cluster-snapshot/ jobs/", "comment": "true",
                                    "github-token": "another"}, installed)
        assert [(m, p) for m, p, _, _ in stub.requests][1:] == [
            ("PATCH", "/repos/acme/cluster-config/issues/comments/1000")]
        assert stub.requests[1][3] == "Bearer another" and len(stub.comments) == 1
    finally:
        stub.close()


def test_no_comment_outside_a_pull_request_or_when_not_asked(tmp_path, installed):
    stub = StubGitHub()
    try:
        workspace = demo_workspace(tmp_path)
        Runner(workspace, base_env(tmp_path, api=stub.url)).run(
            {"paths": "cluster-snapshot/ jobs/", "comment": True}, installed)
        Runner(workspace, base_env(tmp_path, api=stub.url, pr=7)).run(
            {"paths": "cluster-snapshot/ jobs/"}, installed)
        assert stub.requests == []
    finally:
        stub.close()


# --- the README's recipes, as written --------------------------------------------------------

def test_readme_github_workflow_runs_as_written(tmp_path, installed):
    blocks = [body for lang, body in fenced_blocks(ci_section()) if lang == "yaml" and "uses: ./" in body]
    assert len(blocks) == 1
    workflow = yaml.safe_load(blocks[0])
    assert workflow["permissions"]["pull-requests"] == "write"
    checkout = workflow["steps"][1]
    assert checkout["uses"].startswith("actions/checkout@")
    step = next(s for s in workflow["steps"] if str(s.get("uses", "")).startswith("./"))
    assert step["uses"] == "./" + checkout["with"]["path"]
    workspace = demo_workspace(tmp_path)
    (workspace / checkout["with"]["path"]).symlink_to(ROOT)  # what the second checkout puts there
    stub = StubGitHub()
    try:
        runner = Runner(workspace, base_env(tmp_path, api=stub.url, pr=5),
                        action_path=workspace / checkout["with"]["path"])
        steps = runner.run(step["with"], installed)
    finally:
        stub.close()
    assert [d.returncode for _, d in steps] == [0, 0, 1]  # the demo has a waiting group
    assert [m for m, *_ in stub.requests] == ["GET", "POST"]
    artifact = workflow["steps"][-1]
    assert artifact["if"] == "always()"
    path = EXPR.sub(lambda m: runner.steps["plan"][m.group(1).split(".outputs.")[1]], artifact["with"]["path"])
    assert json.loads(Path(path).read_text())["apiVersion"] == "podgroup-plan/v1"


def test_readme_gitlab_job_runs_as_written(tmp_path):
    blocks = [body for lang, body in fenced_blocks(ci_section()) if "capacity-check:" in body]
    assert len(blocks) == 1
    job = yaml.safe_load(blocks[0])["capacity-check"]
    workspace = demo_workspace(tmp_path)
    (workspace / "tools").mkdir()
    (workspace / "tools" / "podgroup-plan").symlink_to(ROOT)
    env = base_env(tmp_path)
    script = "\n".join(job["script"])
    done = subprocess.run(["bash", "-e", "-c", script], cwd=workspace, env=env, capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 1, done.stderr  # the demo does not fit: the job fails...
    report = ET.parse(workspace / job["artifacts"]["reports"]["junit"]).getroot()  # ...with its report
    assert job["artifacts"]["when"] == "always" and int(report.get("failures")) > 0
    failed = {c.get("classname") + "/" + c.get("name") for c in report.iter("testcase") if c.find("failure") is not None}
    assert "PodGroup.ml-research/vision-pretrain-trainers" in failed  # the demo gang that does not fit
    assert "--fail-on unschedulable" in done.stderr


def test_readme_pre_commit_hook_runs_as_written(tmp_path, installed):
    blocks = [body for lang, body in fenced_blocks(ci_section()) if lang == "yaml" and "repos:" in body]
    assert len(blocks) == 1
    config = yaml.safe_load(blocks[0])
    hooks = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    env = base_env(tmp_path)
    env["PATH"] = installed[1].strip() + os.pathsep + env["PATH"]
    workspace = demo_workspace(tmp_path)
    for wanted in config["repos"][0]["hooks"]:
        hook = hooks[wanted["id"]]
        assert hook["language"] == "python" and hook["pass_filenames"] is False
        assert re.search(hook["files"], "jobs/train.yaml") and not re.search(hook["files"], "README.md")
        command = shlex.split(hook["entry"]) + wanted.get("args", [])
        done = subprocess.run(command, cwd=workspace, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        # a typo is caught with its file and line
        train = workspace / "jobs" / "typo.yaml"
        train.write_text("apiVersion: batch/v1\nkind: Job\nmetadata: {name: t, namespace: ml}\nspec:\n"
                         "  paralelism: 2\n  template: {spec: {restartPolicy: Never, containers: [{name: c, image: c}]}}\n")
        done = subprocess.run(command, cwd=workspace, env=env, capture_output=True, text=True)
        train.unlink()
        assert done.returncode == 2 and "jobs/typo.yaml:5: Job ml/t: spec.paralelism" in done.stderr


JOB = """apiVersion: batch/v1
kind: Job
metadata: {name: my-training-job, namespace: ml}
spec:
  parallelism: 8
  completions: 8
  completionMode: Indexed
  scheduling: {schedulingPolicy: {gang: {}}}
  template:
    spec:
      restartPolicy: Never
      containers: [{name: t, image: t, resources: {requests: {nvidia.com/gpu: "8"}, limits: {nvidia.com/gpu: "8"}}}]
"""


def test_readme_job_check_runs_as_written_and_says_what_it_says(tmp_path, installed):
    section = ci_section()
    command = next(body.strip() for lang, body in fenced_blocks(section)
                   if body.strip().startswith("podgroup-plan simulate snapshot.json"))
    nodes = [yaml.safe_load(d) for d in [(ROOT / "fixtures" / "cluster" / "nodes.yaml").read_text()]][0]
    (tmp_path / "snapshot.json").write_text(json.dumps(nodes))
    (tmp_path / "my-training-job.yaml").write_text(JOB)
    env = base_env(tmp_path)
    env["PATH"] = installed[1].strip() + os.pathsep + env["PATH"]
    done = subprocess.run(["bash", "-e", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 1
    quoted = re.search(r"fails with `(--fail-on unschedulable: [^`]+)`", " ".join(section.split())).group(1)
    assert quoted in done.stderr


def readme_commands() -> list[str]:
    """Every `podgroup-plan ...` line of the README's plain fenced blocks that names real files
    (not the synopsis with PATH... or a placeholder file)."""
    out = []
    for lang, body in fenced_blocks(README):
        if lang:
            continue
        for line in body.splitlines():
            if line.startswith("podgroup-plan ") and not re.search(r"PATH|\[|my-job|snapshot\.json", line):
                command = line.split("  #")[0].strip()
                words = shlex.split(command)
                if all(_exists_or_written(words, i) for i in range(len(words))):
                    out.append(command)
    return out


def _exists_or_written(words: list[str], i: int) -> bool:
    """A file argument names a file of the checkout (an example with placeholder files, such as
    `cluster/ jobs/`, is left out), unless the command writes it."""
    word = words[i]
    if not re.search(r"/|\.(ya?ml|json|csv|html)$", word) or word.startswith("-") or "=" in word:
        return True
    if i and words[i - 1] in ("--output-file", ">"):
        return True
    if i and words[i - 1].startswith("-") and words[i - 1] not in ("--config-a", "--config-b", "--scheduler-config",
                                                                    "--workload", "--add-node", "--config"):
        return True  # a flag's value that is not a file (--pod NS/NAME, --each LABEL)
    return (ROOT / word).exists()


@pytest.mark.parametrize("command", readme_commands())
def test_readme_command_runs_as_written(tmp_path, command):
    workspace = tmp_path
    (workspace / "fixtures").symlink_to(ROOT / "fixtures")
    from typer.testing import CliRunner

    from podgroup_plan.cli import app

    cwd = os.getcwd()
    os.chdir(workspace)
    try:
        result = CliRunner().invoke(app, shlex.split(command)[1:])
    finally:
        os.chdir(cwd)
    assert result.exit_code in (0, 1), result.output
    assert "Traceback" not in result.output
