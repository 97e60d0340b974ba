"""Names controllers give the objects they create, made deterministic.

Mirrors apimachinery's `util/rand.SafeEncodeString` (digits and letters to a vowel-free
alphabet), `storage/names.SimpleNameGenerator` (generateName + five random characters, the
prefix cut to 58 characters) and the fnv32a hashes the Job controller names its Workload and
PodGroup with (`pkg/controller/job/job_scheduling_manager.go`, `computeWorkloadName`,
`computePodGroupName`). Where upstream draws random characters, we draw them from a hash of what
identifies the object, so the same input gives the same names on every run.
"""
from __future__ import annotations

import hashlib

# util/rand: "bcdfghjklmnpqrstvwxz2456789" (no vowels, no 0/1/3 that read like letters)
ALPHANUMS = "bcdfghjklmnpqrstvwxz2456789"
RANDOM_LENGTH = 5  # names.randomLength
MAX_NAME_LENGTH = 63  # validation.DNS1123LabelMaxLength, as SimpleNameGenerator uses it
MAX_GENERATED_NAME_LENGTH = MAX_NAME_LENGTH - RANDOM_LENGTH  # 58
DNS1123_SUBDOMAIN_MAX_LENGTH = 253


def fnv32a(data: bytes) -> int:
    """Go's hash/fnv New32a Sum32."""
    h = 0x811C9DC5
    for b in data:
        h ^= b
        h = (h * 0x01000193) & 0xFFFFFFFF
    return h


def safe_encode(text: str) -> str:
    """util/rand.SafeEncodeString: each character c -> ALPHANUMS[ord(c) % 27]."""
    return "".join(ALPHANUMS[ord(c) % len(ALPHANUMS)] for c in text)


def random_suffix(seed: str) -> str:
    """Five characters of ALPHANUMS standing in for the apiserver's random ones."""
    digest = hashlib.sha256(seed.encode("utf-8")).digest()
    return "".join(ALPHANUMS[b % len(ALPHANUMS)] for b in digest[:RANDOM_LENGTH])


def generate_name(prefix: str, seed: str) -> str:
    """SimpleNameGenerator.GenerateName: the prefix cut to 58 characters, then five characters."""
    if len(prefix) > MAX_GENERATED_NAME_LENGTH:
        prefix = prefix[:MAX_GENERATED_NAME_LENGTH]
    return prefix + random_suffix(seed)


def stand_in_uid(kind: str, namespace: str, name: str) -> str:
    """A UID for an object the manifest gives none (not yet applied): UUID-shaped, derived from
    what names the object, so names hashed from it are the same on every run."""
    h = hashlib.sha256(f"{kind}/{namespace}/{name}".encode("utf-8")).hexdigest()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


def uid_hash(uid: str) -> str:
    """`SafeEncodeString(fmt.Sprint(fnv32a(DeepHashObject(uid))))`: DeepHashObject writes the
    value as spew's `%#v` prints a types.UID, i.e. `(types.UID)"<uid>"`."""
    return safe_encode(str(fnv32a(f'(types.UID)"{uid}"'.encode("utf-8"))))


def job_workload_name(job_name: str, uid: str) -> str:
    """computeWorkloadName: `<job name cut to fit>-<hash of the Job's UID>`."""
    suffix = uid_hash(uid)
    prefix = job_name[: DNS1123_SUBDOMAIN_MAX_LENGTH - len(suffix) - 1]
    return f"{prefix}-{suffix}"


def job_template_name(job_name: str) -> str:
    """podGroupTemplateName: the Job's single template, `<job>-pgt-0`."""
    return f"{job_name}-pgt-0"


def job_pod_group_name(workload: str, template: str) -> str:
    """computePodGroupName: `<workload>-<template>-<hash>`, both names cut to fit 253 characters
    (each its fair half first), the hash over both full names."""
    suffix = safe_encode(str(fnv32a((workload + template).encode("utf-8"))))
    available = DNS1123_SUBDOMAIN_MAX_LENGTH - len(suffix) - 2
    wl, tpl = workload, template
    if len(wl) + len(tpl) > available:
        half = available // 2
        if len(wl) <= half:
            tpl = tpl[: available - len(wl)]
        elif len(tpl) <= half:
            wl = wl[: available - len(tpl)]
        else:
            wl, tpl = wl[: available - half], tpl[:half]
    return f"{wl}-{tpl}-{suffix}"


def indexed_job_prefix(job_name: str, index: int) -> str:
    """podGenerateNameWithIndex: `<job>-<index>-`, the job name cut so the whole fits 58."""
    append = f"-{index}-"
    prefix = job_name + append
    if len(prefix) > MAX_GENERATED_NAME_LENGTH:
        prefix = prefix[: MAX_GENERATED_NAME_LENGTH - len(append)] + append
    return prefix
