"""`snapshot --anonymize` and `deanonymize`: names replaced by a keyed hash, consistently, so that
the plan of an anonymised snapshot is the plan of the original with the names mapped.

What is replaced, wherever it appears (object names, namespaces and every reference to them:
`nodeName`, `priorityClassName`, `schedulingGroup`, owner references, `namespaces` of affinity
terms, ...): every name, every namespace, every label value (in labels, node selectors, label
selectors, taints and tolerations) and every image (ImageLocality's normalised name, so that a
pod's `nginx` and a node's `nginx:latest` stay equal). What is kept, because the scheduler
reads it as it is: label keys (they name topology keys and selectors), resource names,
quantities, taint keys and effects, the scheduler name, label values that are whole numbers
(node affinity's Gt and Lt compare them as numbers), empty values, and Kubernetes' own names
(`default`, `kube-system`, `system-node-critical`, ...). Free text the scheduler never reads is
dropped: annotations (but the few the planner reads), environment variables, commands and
arguments, addresses, condition messages, container and image IDs.

The tokens keep the names' order: the scheduler's last tie-breaks and the planner's queue order
by name (pods of equal priority and creation time, nodes of equal score), so a mapping that
reordered names would change the plan. A token is `x` and 12 letters: the values of the whole
snapshot sorted, each placed after the previous one by a gap drawn from HMAC-SHA256(key, value)
(hence two passes: every value is known before the first token is given). The key file (JSON,
mode 0600, one per snapshot) holds the key and every token with its value, so that `deanonymize`
maps a result back: every token found in any string of it is replaced by its value.
"""
from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
from typing import Any

from podgroup_plan.live import LiveError

TOKEN_WIDTH = 12
TOKEN = re.compile(r"x[a-z]{12}")
KEY_FILE_FORMAT = "podgroup-plan-key/v1"
KEPT_NAMES = frozenset({"default", "kube-system", "kube-public", "kube-node-lease", "system-node-critical",
                        "system-cluster-critical", "default-scheduler"})
# Keys whose string value (or list of strings) is a name or a reference to one: these, and every
# key ending in `Name` (podGroupTemplateName, storageClassName, ...) but those in NOT_NAMES.
NAME_KEYS = frozenset({
    "name", "namespace", "podGroup", "nodeName", "nominatedNodeName", "podGroupName", "workloadName", "templateName",
    "priorityClassName", "runtimeClassName", "serviceAccountName", "serviceAccount", "hostname", "subdomain",
    "claimName", "secretName", "parentCompositePodGroupName", "compositePodGroupName", "namespaces",
    "resourceClaimName", "resourceClaimTemplateName", "clusterName",
})
# The scheduler name selects a profile of the configuration, which is not anonymised.
NOT_NAMES = frozenset({"schedulerName", "resourceName"})
# Keys whose value is a map of label key -> label value.
LABEL_MAPS = frozenset({"labels", "matchLabels", "nodeSelector"})
# Keys dropped outright: free text the scheduler never reads.
DROPPED = frozenset({"env", "envFrom", "command", "args", "addresses", "podIP", "podIPs", "hostIP", "hostIPs",
                     "imageID", "containerID", "message", "generateName", "selfLink", "machineID", "systemUUID",
                     "bootID", "lastAppliedConfiguration", "startupProbe", "livenessProbe", "readinessProbe",
                     "lifecycle", "workingDir"})
# Annotations the planner reads (value: how it is treated); every other annotation is dropped.
ANNOTATIONS = {"podgroup-plan.io/gang": "keep", "podgroup-plan.io/topology": "keep",
               "scheduling.k8s.io/group-template-name": "name", "deployment.kubernetes.io/revision": "keep"}
WHOLE_NUMBER = re.compile(r"-?[0-9]+")


class KeyFile:
    """The secret of one anonymised snapshot: its key and every token with the value it stands
    for. A new one for each snapshot (tokens depend on every name of the snapshot)."""

    def __init__(self, path: str, key: bytes, names: dict[str, str]):
        self.path = path
        self.key = key
        self.names = names  # token -> value

    @classmethod
    def create(cls, path: str) -> KeyFile:
        if os.path.lexists(path):
            raise LiveError(f"key file {path} exists: each anonymised snapshot has a key file of its own "
                            "(the earlier one maps the earlier snapshot back); give a new one")
        return cls(path, secrets.token_bytes(32), {})

    @classmethod
    def read(cls, path: str) -> KeyFile:
        import orjson

        try:
            with open(path, "rb") as f:
                doc = orjson.loads(f.read())
            if not isinstance(doc, dict) or doc.get("format") != KEY_FILE_FORMAT:
                raise ValueError(f"not a podgroup-plan key file (no format: {KEY_FILE_FORMAT})")
            key = bytes.fromhex(str(doc["key"]))
            names = doc.get("names") or {}
            if len(key) < 16 or not isinstance(names, dict):
                raise ValueError("its key or names are malformed")
        except (OSError, ValueError, KeyError, orjson.JSONDecodeError) as err:
            raise LiveError(f"key file {path}: {err}") from None
        return cls(path, key, {str(k): str(v) for k, v in names.items()})

    def save(self) -> None:
        import orjson

        doc = {"format": KEY_FILE_FORMAT, "key": self.key.hex(), "names": dict(sorted(self.names.items()))}
        tmp = f"{self.path}.partial-{os.getpid()}"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(orjson.dumps(doc, option=orjson.OPT_INDENT_2) + b"\n")
            os.replace(tmp, self.path)
        except OSError as err:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise LiveError(f"key file {self.path}: cannot write it ({err.strerror or err})") from None

    def assign(self, values: set[str]) -> dict[str, str]:
        """value -> token for every value, in the values' order: tokens are `x` and TOKEN_WIDTH
        letters, spaced by gaps drawn from HMAC-SHA256(key, value)."""
        ordered = sorted(values)
        room = 26 ** TOKEN_WIDTH // (len(ordered) + 1)
        position = 0
        out: dict[str, str] = {}
        for value in ordered:
            digest = hmac.new(self.key, value.encode("utf-8"), hashlib.sha256).digest()
            position += 1 + int.from_bytes(digest[:8], "big") % max(1, room - 1)
            token = "x" + _letters(position)
            out[value] = token
            self.names[token] = value
        return out

    def anonymizer(self) -> Anonymizer:
        return Anonymizer(self)


def _letters(number: int) -> str:
    out = []
    for _ in range(TOKEN_WIDTH):
        number, digit = divmod(number, 26)
        out.append(chr(ord("a") + digit))
    return "".join(reversed(out))


class Anonymizer:
    """Two passes over the same objects: `collect(item)` for each (every value to replace is
    noted), `assign()` once, then `anonymize(item)` for each gives it with its values replaced."""

    def __init__(self, keys: KeyFile):
        self.keys = keys
        self.seen: set[str] = set()
        self.tokens: dict[str, str] | None = None

    def collect(self, item: dict) -> None:
        self._dict(item, "")

    def assign(self) -> None:
        self.tokens = self.keys.assign(self.seen)

    def anonymize(self, item: dict) -> dict:
        assert self.tokens is not None, "assign() first"
        return self._dict(item, "")

    def _map(self, value: str) -> str:
        if self.tokens is None:
            self.seen.add(value)
            return value
        return self.tokens[value]

    def name(self, value: str) -> str:
        if not value or value in KEPT_NAMES:
            return value
        return self._map(value)

    def label_value(self, value: Any) -> Any:
        if not isinstance(value, str) or not value or WHOLE_NUMBER.fullmatch(value) or value in KEPT_NAMES:
            return value
        return self._map(value)

    def image(self, value: Any) -> Any:
        if not isinstance(value, str) or not value:
            return value
        return self._map(value + ":latest" if value.rfind(":") <= value.rfind("/") else value)

    def _value(self, key: str, value: Any, parent: str) -> Any:
        if isinstance(value, dict):
            if key in LABEL_MAPS or (key == "selector" and parent == "spec" and not _is_label_selector(value)):
                return {k: self.label_value(v) for k, v in value.items()}
            if key == "annotations":
                return self._annotations(value)
            return self._dict(value, key)
        if isinstance(value, list):
            if key == "values":  # a selector requirement's values: label values (or node names)
                return [self.label_value(v) for v in value]
            if key == "names" and parent == "images":
                return [self.image(v) for v in value]
            if key == "namespaces":
                return [self.name(v) if isinstance(v, str) else v for v in value]
            # a list's objects are read with the list's key as their parent (taints[].value)
            return [self._dict(v, key) if isinstance(v, dict) else self._value("", v, key) if isinstance(v, list)
                    else v for v in value]
        if isinstance(value, str):
            if key in NAME_KEYS or (key.endswith("Name") and key not in NOT_NAMES):
                return self.name(value)
            if key == "image":
                return self.image(value)
            if key == "value" and parent in ("taints", "tolerations"):
                return self.label_value(value)
        return value

    def _dict(self, obj: dict, key: str) -> dict:
        return {k: self._value(k, v, key) for k, v in obj.items() if k not in DROPPED}

    def _annotations(self, annotations: dict) -> dict:
        out = {}
        for k, v in annotations.items():
            how = ANNOTATIONS.get(k)
            if how == "keep":
                out[k] = v
            elif how == "name" and isinstance(v, str):
                out[k] = self.name(v)
        return out


def _is_label_selector(value: dict) -> bool:
    return bool(value) and set(value) <= {"matchLabels", "matchExpressions"}


def deanonymize(data: Any, names: dict[str, str]) -> Any:
    """`data` (a decoded JSON document) with every token of `names` found in its strings, keys
    included, replaced by its value; strings without one are kept as they are."""
    def text(s: str) -> str:
        return TOKEN.sub(lambda m: names.get(m.group(0), m.group(0)), s) if "x" in s else s

    if isinstance(data, dict):
        return {text(k) if isinstance(k, str) else k: deanonymize(v, names) for k, v in data.items()}
    if isinstance(data, list):
        return [deanonymize(v, names) for v in data]
    if isinstance(data, str):
        return text(data)
    return data
