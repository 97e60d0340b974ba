"""The connection to an API server: the kubeconfig and its context read by the official
`kubernetes` client (so exec plugins, client certificates and tokens work as they do for kubectl),
and one GET at a time, its JSON parsed. Every failure becomes one LiveError line naming the
server or the kubeconfig and what failed: unreachable, refused credentials (an expired token),
forbidden (the verb and the resource), a bad kubeconfig or context.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Sequence
from urllib.parse import quote

from podgroup_plan.live import EXTRA_MISSING, LiveError

# (connect, read) seconds: a server that accepts and then says nothing must not hang the tool.
TIMEOUT = (10.0, 120.0)
# How much of the server's own reason a refusal quotes.
SERVER_REASON = 400
# Connection attempts per request: a refused connection is answered at once, not after a minute.
RETRIES = 1


def _client_module() -> Any:
    try:
        import kubernetes  # noqa: F401 - the optional extra
    except ImportError:
        raise LiveError(EXTRA_MISSING) from None
    import kubernetes.client
    import kubernetes.config

    return kubernetes


def default_kubeconfig() -> str:
    """kubectl's: the first file of $KUBECONFIG, else ~/.kube/config."""
    env = os.environ.get("KUBECONFIG")
    if env:
        first = next((p for p in env.split(os.pathsep) if p), None)
        if first:
            return first
    return os.path.join(os.path.expanduser("~"), ".kube", "config")


@dataclass
class Cluster:
    """A connection to one API server, as a kubeconfig context describes it."""

    api: Any  # kubernetes.client.ApiClient
    server: str
    context: str

    def get(self, path: str, query: Sequence[tuple[str, str]] = (), *, verb: str = "get",
            resource: str | None = None) -> dict:
        """GET `path` (with `query`), its JSON as a dict. `verb` and `resource` name the request
        in a refusal (`list pods`)."""
        import orjson

        url = self.server.rstrip("/") + path
        if query:
            url += "?" + "&".join(f"{k}={quote(v, safe='')}" for k, v in query)
        headers = {"Accept": "application/json"}
        self.api.update_params_for_auth(headers, [], self.api.configuration.auth_settings().keys(),
                                        path, "GET", None)
        try:
            response = self.api.rest_client.request("GET", url, headers=headers, _request_timeout=TIMEOUT)
            response.read()
        except Exception as err:  # noqa: BLE001 - urllib3's and the client's errors alike, one line
            raise LiveError(f"cannot read from the API server {self.server}: {_reason(err)}") from None
        status = response.status
        body = response.data or b""
        if status == 404:
            raise NotServed(path)
        if status >= 300:
            raise LiveError(refusal(self.server, status, body, verb, resource or path))
        try:
            doc = orjson.loads(body)
        except orjson.JSONDecodeError:
            raise LiveError(f"the API server {self.server} answered {path} with something that is not "
                            "JSON (is this an API server?)") from None
        if not isinstance(doc, dict):
            raise LiveError(f"the API server {self.server} answered {path} with JSON that is not an object")
        return doc


class NotServed(Exception):
    """The server answered 404: it does not serve this path (a kind not installed, a version gone)."""


def connect(kubeconfig: str | None, context: str | None) -> Cluster:
    """The connection the kubeconfig (default: $KUBECONFIG, ~/.kube/config) describes for
    `context` (default: its current context). Raises LiveError."""
    k8s = _client_module()
    from kubernetes.config.config_exception import ConfigException

    path = kubeconfig or default_kubeconfig()
    if not os.path.isfile(path):
        raise LiveError(f"kubeconfig {path}: no such file (give --kubeconfig FILE or set KUBECONFIG)")
    try:
        contexts, current = k8s.config.list_kube_config_contexts(config_file=path)
    except (ConfigException, OSError, ValueError, TypeError, AttributeError) as err:
        raise LiveError(f"kubeconfig {path}: {_one_line(err)}") from None
    except Exception as err:  # noqa: BLE001 - a YAML error and the like: still a bad kubeconfig
        raise LiveError(f"kubeconfig {path}: not a kubeconfig ({_one_line(err)})") from None
    names = sorted(str(c.get("name")) for c in contexts or () if isinstance(c, dict))
    name = context if context is not None else (current or {}).get("name")
    if name is None:
        raise LiveError(f"kubeconfig {path}: no current context; give --context (one of: {', '.join(names) or 'none'})")
    if name not in names:
        raise LiveError(f"kubeconfig {path}: no context named {name!r} (it has: {', '.join(names) or 'none'})")
    configuration = k8s.client.Configuration()
    try:
        k8s.config.load_kube_config(config_file=path, context=name, client_configuration=configuration,
                                    persist_config=False)
    except Exception as err:  # noqa: BLE001 - exec plugins, missing certificate files, bad fields
        raise LiveError(f"kubeconfig {path}, context {name}: {_one_line(err)}") from None
    configuration.retries = RETRIES
    return Cluster(k8s.client.ApiClient(configuration), configuration.host, name)


def refusal(server: str, status: int, body: bytes, verb: str, resource: str) -> str:
    """One line for an HTTP error answer: the verb and the resource, and the server's reason."""
    import orjson

    message = ""
    try:
        doc = orjson.loads(body)
        if isinstance(doc, dict):
            message = str(doc.get("message") or "")
    except orjson.JSONDecodeError:
        message = body[:200].decode("utf-8", "replace")
    message = _one_line(message, SERVER_REASON)  # whole: RBAC's names the user, verb and resource
    if status == 401:
        return (f"the API server {server} refused the credentials (401 Unauthorized: the token may have "
                f"expired, or the certificate is not accepted) when asked to {verb} {resource}")
    if status == 403:
        return f"the API server {server} forbids to {verb} {resource} (403 Forbidden: {message or 'RBAC'})"
    if status == 410:
        return (f"the API server {server}: the list of {resource} changed too much while it was read "
                f"(410 Gone: {message or 'continue token expired'}); run again")
    return f"the API server {server} answered {status} when asked to {verb} {resource}: {message}"


def _reason(err: BaseException) -> str:
    """The root cause of a failed request, without urllib3's object dumps."""
    seen: set[int] = set()
    chain: list[BaseException] = []
    cause: BaseException | None = err
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        chain.append(cause)
        reason = getattr(cause, "reason", None)
        cause = reason if isinstance(reason, BaseException) else cause.__cause__ or cause.__context__
    last = chain[-1]
    text = " ".join(_one_line(c) for c in chain)
    for known, said in (("Connection refused", "connection refused"), ("Name or service not known", "unknown host"),
                        ("timed out", "timed out"), ("CERTIFICATE_VERIFY_FAILED", "its certificate is not trusted"),
                        ("Connection reset", "the connection was reset"),
                        ("Connection broken", "the connection broke off"),
                        ("RemoteDisconnected", "the server closed the connection"),
                        ("No route to host", "no route to host")):
        if known in text:
            return said
    text = _one_line(last)
    return text or type(last).__name__


def _one_line(err: object, limit: int | None = None) -> str:
    from podgroup_plan.errors import escape_controls, shorten

    text = escape_controls(" ".join(str(err).split()))
    return shorten(text) if limit is None else shorten(text, limit)
