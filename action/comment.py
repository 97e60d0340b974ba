"""action.yml, step 3: post the Markdown report as one pull-request comment, or update the one an
earlier run posted (found by a hidden marker), when the input `comment` is true and the workflow
runs for a pull request. Standard library only; the REST API at $GITHUB_API_URL with the token
the workflow gives (`pull-requests: write`). A failure to comment is reported and does not hide
the gate's verdict (the next step decides the step's outcome)."""
from __future__ import annotations

import json
import os
import sys
import urllib.error
import urllib.request

MARKER = "<!-- podgroup-plan -->"
# GitHub refuses comment bodies over 65,536 characters.
LIMIT = 65_000


def pull_request_number() -> int | None:
    path = os.environ.get("GITHUB_EVENT_PATH")
    if not path or not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        event = json.load(f)
    number = (event.get("pull_request") or {}).get("number")
    return number if isinstance(number, int) else None


def call(method: str, url: str, token: str, body: dict | None = None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method, headers={
        "Authorization": f"Bearer {token}", "Accept": "application/vnd.github+json",
        "X-GitHub-Api-Version": "2022-11-28", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"null")


def existing_comment(api: str, repo: str, number: int, token: str) -> int | None:
    page = 1
    while True:
        comments = call("GET", f"{api}/repos/{repo}/issues/{number}/comments?per_page=100&page={page}", token)
        for c in comments:
            if MARKER in (c.get("body") or ""):
                return int(c["id"])
        if len(comments) < 100:
            return None
        page += 1


def main() -> int:
    if os.environ.get("INPUT_COMMENT", "false").strip().lower() != "true":
        return 0
    number = pull_request_number()
    if number is None:
        print("podgroup-plan: comment: not a pull_request event; no comment posted")
        return 0
    token = os.environ.get("INPUT_GITHUB_TOKEN", "")
    api = os.environ.get("GITHUB_API_URL", "https://api.github.com").rstrip("/")
    repo = os.environ["GITHUB_REPOSITORY"]
    with open(os.environ["PLAN_MARKDOWN"], encoding="utf-8") as f:
        report = f.read()
    if len(report) > LIMIT:
        report = report[:LIMIT] + "\n\n_(cut: the full report is in the job summary)_\n"
    body = {"body": f"{MARKER}\n{report}"}
    try:
        found = existing_comment(api, repo, number, token)
        if found is None:
            call("POST", f"{api}/repos/{repo}/issues/{number}/comments", token, body)
            print(f"podgroup-plan: comment posted on #{number}")
        else:
            call("PATCH", f"{api}/repos/{repo}/issues/comments/{found}", token, body)
            print(f"podgroup-plan: comment {found} on #{number} updated")
    except (urllib.error.URLError, OSError, ValueError) as e:
        print(f"podgroup-plan: comment: {e} (is the workflow's permission pull-requests: write?)",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
