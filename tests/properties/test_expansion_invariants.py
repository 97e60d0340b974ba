"""Invariants of Job expansion (podgroup_plan/controllers/job.py), over generated Jobs and the
pods they already have (hypothesis):

* never more active pods than `parallelism`, and never more than the completions still wanted;
* Indexed: every new pod has an index in [0, completions) that no active pod holds and that has
  not succeeded; no index twice;
* names are new, unique, valid DNS labels (at most 63 characters), `<job>-<index>-<5>` for
  Indexed Jobs;
* the result does not depend on the order of the input pods.
"""
from __future__ import annotations

import re

from hypothesis import given, settings, strategies as st

from podgroup_plan.controllers import expand
from podgroup_plan.controllers.job import COMPLETION_INDEX
from podgroup_plan.config.feature_gates import FEATURE_GATES_DEFAULTS
from podgroup_plan.model.controllers import Controllers, Job
from podgroup_plan.model.cluster_input import ClusterInput
from podgroup_plan.model.objects import OwnerReference, Pod

DNS_LABEL = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?")
TEMPLATE = Pod("ns", "", requests={"cpu": 100})


@st.composite
def jobs_with_pods(draw):
    name = draw(st.sampled_from(["j", "train", "a" * 60]))
    indexed = draw(st.booleans())
    parallelism = draw(st.integers(0, 8))
    completions = draw(st.integers(0, 10)) if indexed else draw(st.none() | st.integers(0, 10))
    # status.completedIndexes only ever holds indexes below completions
    done = frozenset(draw(st.sets(st.integers(0, completions - 1), max_size=4))) \
        if indexed and completions else frozenset()
    succeeded = len(done) if indexed else draw(st.integers(0, 3))
    owner = OwnerReference("Job", name, True)
    existing = []
    for i, index in enumerate(draw(st.lists(st.integers(0, 9), max_size=4))):
        labels = {COMPLETION_INDEX: str(index)} if indexed else {}
        existing.append(Pod("ns", f"{name[:40]}-old-{i}", labels=labels, node_name="n1", owner_references=(owner,)))
    job = Job("ns", name, "uid", TEMPLATE, parallelism=parallelism, completions=completions, indexed=indexed,
              succeeded=succeeded, completed_indexes=done, started=bool(existing))
    return job, existing


def _new_pods(job, existing):
    cluster = ClusterInput(pods=tuple(existing), controllers=Controllers(jobs=(job,)))
    names = {p.name for p in existing}
    return [p for p in expand(cluster, FEATURE_GATES_DEFAULTS).pods if p.name not in names]


@settings(max_examples=200, deadline=None)
@given(jobs_with_pods())
def test_job_expansion_invariants(case):
    job, existing = case
    new = _new_pods(job, existing)
    active = len(existing) + len(new)
    if new:
        assert active <= job.parallelism
        if job.completions is not None:
            assert len(new) <= job.completions - (len(job.completed_indexes) if job.indexed else job.succeeded)
    names = [p.name for p in new]
    assert len(set(names)) == len(names)
    assert all(len(n) <= 63 and DNS_LABEL.fullmatch(n) for n in names)
    if job.indexed:
        held = {int(p.labels[COMPLETION_INDEX]) for p in existing}
        indexes = [int(p.labels[COMPLETION_INDEX]) for p in new]
        assert len(set(indexes)) == len(indexes)
        for pod, index in zip(new, indexes):
            assert 0 <= index < job.completions and index not in held and index not in job.completed_indexes
            assert pod.name[:-6].endswith(f"-{index}") and pod.name[-6] == "-"
    assert _new_pods(job, list(reversed(existing))) == new
