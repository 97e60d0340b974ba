"""Expansion (podgroup_plan/controllers): what the 1.37 controllers create for Jobs, JobSets,
Deployments, ReplicaSets and StatefulSets, and only what the input lacks (docs/controllers.md)."""
import textwrap

import pytest

from podgroup_plan.controllers import expand, without_expansion
from podgroup_plan.controllers.names import job_pod_group_name, job_template_name, job_workload_name
from podgroup_plan.errors import InputError
from podgroup_plan.config.feature_gates import FEATURE_GATES_DEFAULTS
from podgroup_plan.loading import load_input

GATES = dict(FEATURE_GATES_DEFAULTS)

CONTAINERS = "containers: [{name: c, image: busybox, resources: {requests: {cpu: '1'}}}]"


def load(tmp_path, text):
    path = tmp_path / "in.yaml"
    path.write_text(textwrap.dedent(text))
    return load_input([str(path)])


def job(name="train", spec="", meta="", status="", template_meta="", template_spec=""):
    return f"""
---
apiVersion: batch/v1
kind: Job
metadata: {{name: {name}, namespace: ml, uid: 0000-uid-{name}{meta}}}
spec:
  {spec}
  template:
    metadata: {{labels: {{app: {name}}}{template_meta}}}
    spec:
      restartPolicy: Never
      {CONTAINERS}
      {template_spec}
{status}"""


def pods_of(cluster, owner_kind, owner_name):
    return [p for p in cluster.pods
            if any(r.controller and r.kind == owner_kind and r.name == owner_name for r in p.owner_references)]


def test_gang_job_gets_workload_pod_group_and_indexed_pods(tmp_path):
    ci = expand(load(tmp_path, job(spec="""parallelism: 3
  completions: 3
  completionMode: Indexed
  scheduling: {schedulingPolicy: {gang: {}}, schedulingConstraints: {topology: [{key: zone}]}}""")), GATES)
    workload = job_workload_name("train", "0000-uid-train")
    group_name = job_pod_group_name(workload, job_template_name("train"))
    [group] = ci.pod_groups
    assert (group.name, group.policy, group.min_count, group.topology_key) == (group_name, "Gang", 3, "zone")
    assert (group.workload_name, group.template_name) == (workload, "train-pgt-0")
    assert [w.name for w in ci.workloads] == [workload]
    pods = pods_of(ci, "Job", "train")
    assert [p.name.rsplit("-", 1)[0] for p in pods] == ["train-0", "train-1", "train-2"]
    assert all(len(p.name.rsplit("-", 1)[1]) == 5 for p in pods)
    assert {p.pod_group for p in pods} == {group_name}
    assert pods[2].labels == {
        "app": "train", "batch.kubernetes.io/job-completion-index": "2",
        "batch.kubernetes.io/job-name": "train", "job-name": "train",
        "batch.kubernetes.io/controller-uid": "0000-uid-train", "controller-uid": "0000-uid-train"}
    assert pods[0].requests == {"cpu": 1000}
    assert ("Job", "train") == ci.owner_parents[("ml", "PodGroup", group_name)]


def test_gang_min_count_as_written_wins_over_parallelism(tmp_path):
    ci = expand(load(tmp_path, job(spec="""parallelism: 4
  scheduling: {schedulingPolicy: {gang: {minCount: 2}}}""")), GATES)
    assert [(g.policy, g.min_count) for g in ci.pod_groups] == [("Gang", 2)]
    assert len(pods_of(ci, "Job", "train")) == 4  # NonIndexed, no completions: parallelism pods


def test_job_without_scheduling_gets_a_basic_pod_group(tmp_path):
    # 1.37 defaults an absent spec.scheduling to Basic (not the 1.36 shape-based gang)
    ci = expand(load(tmp_path, job(spec="parallelism: 2\n  completions: 2\n  completionMode: Indexed")), GATES)
    assert [(g.policy, g.min_count) for g in ci.pod_groups] == [("Basic", 1)]


def test_gate_off_gives_plain_pods_and_says_so(tmp_path):
    ci = expand(load(tmp_path, job(spec="parallelism: 2\n  scheduling: {schedulingPolicy: {gang: {}}}")),
                {**GATES, "WorkloadWithJob": False})
    assert ci.pod_groups == () and ci.workloads == ()
    assert [p.pod_group for p in pods_of(ci, "Job", "train")] == [None, None]
    assert any("spec.scheduling not applied (WorkloadWithJob=false)" in n for n in ci.expansion_notes)


def test_bring_your_own_pod_group_is_kept_and_nothing_is_created(tmp_path):
    ci = expand(load(tmp_path, job(spec="parallelism: 2", template_spec="schedulingGroup: {podGroupName: mine}")), GATES)
    assert ci.pod_groups == () and ci.workloads == ()
    assert [p.pod_group for p in pods_of(ci, "Job", "train")] == ["mine", "mine"]


def test_job_with_a_controller_owner_gets_no_pod_group(tmp_path):
    ci = expand(load(tmp_path, job(spec="parallelism: 1", meta=", ownerReferences: [{kind: CronJob, name: nightly, controller: true}]")), GATES)
    assert ci.pod_groups == ()
    assert ci.owner_parents[("ml", "Job", "train")] == ("CronJob", "nightly")


RUNNING = """
---
apiVersion: v1
kind: Pod
metadata:
  name: train-{i}-abcde
  namespace: ml
  labels: {{batch.kubernetes.io/job-completion-index: "{i}"}}
  ownerReferences: [{{kind: Job, name: train, controller: true}}]
spec:
  nodeName: n1
  schedulingGroup: {{podGroupName: {group}}}
  containers: [{{name: c}}]
"""


def test_partly_running_indexed_job_creates_only_missing_indexes_in_its_group(tmp_path):
    group = job_pod_group_name(job_workload_name("train", "0000-uid-train"), "train-pgt-0")
    pg = f"""
---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {{name: {group}, namespace: ml}}
spec: {{schedulingPolicy: {{gang: {{minCount: 4}}}}}}
"""
    text = job(spec="parallelism: 4\n  completions: 4\n  completionMode: Indexed\n  scheduling: {schedulingPolicy: {gang: {}}}",
               status="status: {startTime: '2026-01-01T00:00:00Z'}")
    text += "".join(RUNNING.format(i=i, group=group) for i in (0, 2)) + pg
    ci = expand(load(tmp_path, text), GATES)
    new = [p for p in pods_of(ci, "Job", "train") if not p.is_running]
    assert [p.labels["batch.kubernetes.io/job-completion-index"] for p in new] == ["1", "3"]
    assert {p.pod_group for p in new} == {group}
    assert [g.name for g in ci.pod_groups] == [group]  # discovered, not created again


@pytest.mark.parametrize("spec, status, created", [
    pytest.param("completions: 5\n  parallelism: 2", "", 2, id="parallelism-bounds"),
    pytest.param("completions: 5\n  parallelism: 2", "status: {succeeded: 4}", 1, id="one-left"),
    pytest.param("parallelism: 3", "status: {succeeded: 1}", 0, id="no-completions-one-succeeded"),
    pytest.param("parallelism: 3\n  suspend: true", "", 0, id="suspended"),
    pytest.param("parallelism: 3", "status: {conditions: [{type: Complete, status: 'True'}]}", 0, id="complete"),
    pytest.param("completions: 4\n  parallelism: 4\n  completionMode: Indexed",
                 "status: {completedIndexes: '0,2-3'}", 1, id="completed-indexes"),
])
def test_how_many_pods_a_job_creates(tmp_path, spec, status, created):
    ci = expand(load(tmp_path, job(spec=spec, status=status)), GATES)
    assert len(pods_of(ci, "Job", "train")) == created


JOBSET = """
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: js, namespace: ml}
spec:
  replicatedJobs:
  - name: driver
    template:
      spec:
        parallelism: 1
        completions: 1
        template:
          spec: {containers: [{name: c}]}
  - name: workers
    replicas: 2
    template:
      spec:
        parallelism: 2
        completions: 2
        template:
          metadata: {labels: {role: worker}}
          spec: {containers: [{name: c}]}
"""


def test_job_set_makes_its_jobs_and_they_make_plain_indexed_pods(tmp_path):
    ci = expand(load(tmp_path, JOBSET), GATES)
    assert ci.pod_groups == ()  # JobSet creates none, and its Jobs have a controller owner
    assert {k: v for k, v in ci.owner_parents.items() if k[1] == "Job"} == {
        ("ml", "Job", "js-driver-0"): ("JobSet", "js"),
        ("ml", "Job", "js-workers-0"): ("JobSet", "js"),
        ("ml", "Job", "js-workers-1"): ("JobSet", "js")}
    workers1 = pods_of(ci, "Job", "js-workers-1")
    assert [p.name.rsplit("-", 1)[0] for p in workers1] == ["js-workers-1-0", "js-workers-1-1"]
    labels = workers1[0].labels
    assert labels["role"] == "worker" and labels["jobset.sigs.k8s.io/job-global-index"] == "2"
    assert labels["jobset.sigs.k8s.io/replicatedjob-name"] == "workers"
    assert labels["jobset.sigs.k8s.io/global-replicas"] == "3"
    assert labels["jobset.sigs.k8s.io/group-name"] == "default"
    assert labels["batch.kubernetes.io/job-completion-index"] == "0"  # Indexed by default
    assert any("JobSet ml/js: JobSet's controller creates no Workload" in n for n in ci.expansion_notes)


def test_a_job_set_job_already_in_the_input_is_not_made_again(tmp_path):
    existing = job(name="js-driver-0", spec="parallelism: 1", meta=", ownerReferences: [{kind: JobSet, name: js, controller: true}]")
    ci = expand(load(tmp_path, JOBSET + existing), GATES)
    driver = pods_of(ci, "Job", "js-driver-0")
    assert len(driver) == 1 and driver[0].labels["app"] == "js-driver-0"  # the input Job's template


DEPLOYMENT = """
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: ml}
spec:
  replicas: 4
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c}]}
"""

OWNED_RS = """
---
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web-abc
  namespace: ml
  annotations: {deployment.kubernetes.io/revision: "2"}
  ownerReferences: [{kind: Deployment, name: web, controller: true}]
spec:
  replicas: 2
  selector: {matchLabels: {app: web, pod-template-hash: abc}}
  template:
    metadata: {labels: {app: web, pod-template-hash: abc}}
    spec: {containers: [{name: c}]}
---
apiVersion: v1
kind: Pod
metadata:
  name: web-abc-{i}
  namespace: ml
  labels: {app: web, pod-template-hash: abc}
  ownerReferences: [{kind: ReplicaSet, name: web-abc, controller: true}]
spec: {nodeName: n1, containers: [{name: c}]}
"""


def test_deployment_without_replica_set_makes_one_with_the_template_hash(tmp_path):
    ci = expand(load(tmp_path, DEPLOYMENT), GATES)
    pods = sorted(ci.pods, key=lambda p: p.name)
    rs = pods[0].owner_references[0].name
    assert rs.startswith("web-") and len(pods) == 4
    hash_ = rs[len("web-"):]
    assert all(p.labels == {"app": "web", "pod-template-hash": hash_} for p in pods)
    assert all(p.name.startswith(rs + "-") for p in pods)
    assert ci.owner_parents[("ml", "ReplicaSet", rs)] == ("Deployment", "web")
    assert [(s.kind, s.name) for s in ci.spread_selectors] == [("ReplicaSet", rs)]


def test_deployment_scaled_up_fills_its_replica_set(tmp_path):
    text = DEPLOYMENT + OWNED_RS.replace("{i}", "1") + OWNED_RS.split("---")[2].replace("{i}", "2").join(["---", ""])
    ci = expand(load(tmp_path, text), GATES)
    new = [p for p in ci.pods if not p.is_running]
    assert len(new) == 2 and all(p.owner_references[0].name == "web-abc" for p in new)
    assert all(p.labels["pod-template-hash"] == "abc" for p in new)


STATEFUL_SET = """
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: ml}
spec:
  replicas: 3
  ordinals: {start: 5}
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: c}]}
---
apiVersion: v1
kind: Pod
metadata:
  name: db-5
  namespace: ml
  ownerReferences: [{kind: StatefulSet, name: db, controller: true}]
spec: {nodeName: n1, containers: [{name: c}]}
"""


def test_stateful_set_creates_the_ordinals_it_lacks(tmp_path):
    ci = expand(load(tmp_path, STATEFUL_SET), GATES)
    new = [p for p in ci.pods if not p.is_running]
    assert [p.name for p in new] == ["db-6", "db-7"]
    assert new[1].labels == {"app": "db", "statefulset.kubernetes.io/pod-name": "db-7",
                             "apps.kubernetes.io/pod-index": "7"}


def test_names_do_not_depend_on_document_order(tmp_path):
    a = expand(load(tmp_path, DEPLOYMENT + "---\n" + JOBSET), GATES)
    b = expand(load(tmp_path, JOBSET + "---\n" + DEPLOYMENT), GATES)
    assert [p.name for p in a.pods] == [p.name for p in b.pods]


def test_without_expansion_adds_nothing_and_names_what_it_skipped(tmp_path):
    ci = without_expansion(load(tmp_path, DEPLOYMENT + "---\n" + JOBSET))
    assert ci.pods == () and ci.controllers is None
    assert ci.expansion_notes == ("expansion off (--no-expand): JobSet (1), Deployment (1) not expanded "
                                  "into the pods their controllers would create",)
    assert expand(ci, GATES).pods == ()


@pytest.mark.parametrize("spec, line, message", [
    pytest.param("parallelism: -1", 7, "spec.parallelism: Invalid value: -1: must be greater than or equal to 0", id="negative"),
    # completions and parallelism both unset default to 1 (SetDefaults_Job): only parallelism alone fails
    pytest.param("completionMode: Indexed\n  parallelism: 2", 6, "spec.completions: Required value: when completion mode is Indexed",
                 id="indexed-without-completions"),
    pytest.param("scheduling: {schedulingPolicy: {gang: {minCount: 0}}}", 7,
                 "spec.scheduling.schedulingPolicy.gang.minCount", id="min-count-zero"),
    pytest.param("scheduling: {schedulingPolicy: {basic: {}, gang: {}}}", 7,
                 # validate.Union (Validate_WorkloadPodGroupSchedulingPolicy)
                     'spec.scheduling.schedulingPolicy: Invalid value: "{basic, gang}": must specify exactly one of: '
                     "`basic`, `gang`",
                 id="basic-and-gang"),
    pytest.param("completionMode: Indexed\n  completions: 2\n  parallelism: 100001", 9,
                 "spec.parallelism: Invalid value: 100001: must be less than or equal to 100000 when completion mode is "
                 "Indexed",
                 id="indexed-parallelism-limit"),
    pytest.param("scheduling: {disruptionMode: {}}", 7,
                 "spec.scheduling.disruptionMode: Invalid value: \"\": must specify one of: `single`, `all`",
                     id="disruption-empty"),
])
def test_bad_jobs_are_bad_input_with_their_line(tmp_path, spec, line, message):
    with pytest.raises(InputError) as err:
        load(tmp_path, job(spec=spec))
    [problem] = [str(p) for p in err.value.problems]
    assert f"in.yaml:{line}: Job ml/train: " in problem and message in problem


def test_suspended_job_is_named_in_a_note(tmp_path):
    ci = expand(load(tmp_path, job(spec="parallelism: 2\n  suspend: true")), GATES)
    assert ("Job ml/train is suspended: its controller creates no pods (--admit-suspended plans it "
            "as if admitted)") in ci.expansion_notes


def test_template_naming_a_missing_priority_class_is_bad_input(tmp_path):
    with pytest.raises(InputError) as err:
        load(tmp_path, job(spec="parallelism: 1", template_spec="priorityClassName: nope"))
    [problem] = [str(p) for p in err.value.problems]
    assert "Job ml/train: spec.template.spec.priorityClassName: no PriorityClass with name nope was found" in problem


def test_template_priority_class_resolves(tmp_path):
    pc = "\n---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\n"
    ci = expand(load(tmp_path, job(spec="parallelism: 1", template_spec="priorityClassName: high") + pc), GATES)
    assert [p.priority for p in ci.pods] == [1000]


REPLICA_SET = """
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: cache, namespace: ml}
spec:
  replicas: 3
  selector: {matchLabels: {app: cache}}
  template:
    metadata: {labels: {app: cache}}
    spec: {containers: [{name: c}]}
---
apiVersion: v1
kind: Pod
metadata:
  name: cache-pending
  namespace: ml
  ownerReferences: [{kind: ReplicaSet, name: cache, controller: true}]
spec: {containers: [{name: c}]}
---
apiVersion: v1
kind: Pod
metadata:
  name: cache-done
  namespace: ml
  ownerReferences: [{kind: ReplicaSet, name: cache, controller: true}]
spec: {nodeName: n1, containers: [{name: c}]}
status: {phase: Failed}
"""


def test_replica_set_counts_its_pending_pods_not_its_finished_ones(tmp_path):
    ci = expand(load(tmp_path, REPLICA_SET), GATES)
    new = [p for p in ci.pods if p.name not in ("cache-pending",)]
    assert len(new) == 2  # 3 replicas - 1 pending (the Failed pod does not count, nor is it planned)
    assert all(p.name.startswith("cache-") and p.labels == {"app": "cache"} for p in new)


def test_pending_pod_of_a_job_counts_as_active(tmp_path):
    pending = """
---
apiVersion: v1
kind: Pod
metadata:
  name: train-x
  namespace: ml
  ownerReferences: [{kind: Job, name: train, controller: true}]
spec: {containers: [{name: c}]}
"""
    ci = expand(load(tmp_path, job(spec="parallelism: 3", status="status: {startTime: '2026-01-01T00:00:00Z'}") + pending), GATES)
    assert len(pods_of(ci, "Job", "train")) == 3  # the pending one and 2 new
    assert ci.pod_groups == ()  # a started Job whose pods name no group gets none


def test_job_template_restart_policy_is_checked_as_the_apiserver_does(tmp_path):
    text = job(spec="parallelism: 1").replace("restartPolicy: Never", "restartPolicy: Always")
    with pytest.raises(InputError) as err:
        load(tmp_path, text)
    assert 'spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"' \
        in str(err.value.problems[0])


def test_indexed_job_whose_last_pod_name_is_no_dns_label_is_bad_input(tmp_path):
    with pytest.raises(InputError) as err:
        load(tmp_path, job(name="j" * 62, spec="completionMode: Indexed\n  completions: 10"))
    problem = str(err.value.problems[0])
    assert "metadata.name: Invalid value: " in problem  # batch validateNameAllowsCompletions
    assert problem.endswith(f": will not able to create pod with invalid DNS label: {'j' * 62}-9")


def test_job_set_templates_default_their_restart_policy(tmp_path):
    # JobSet's webhook defaults restartPolicy OnFailure; the template in JOBSET sets none
    assert len(expand(load(tmp_path, JOBSET), GATES).pods) == 5


def test_an_input_without_controllers_loads_with_none_as_one_built_directly(tmp_path):
    """Loading leaves `controllers` None when nothing is to be expanded (ClusterInput's default,
    so loaded and directly built inputs agree); the controllers' code is then never imported.
    A ReplicaSet without a template is only a spreading selector, not a controller."""
    plain = load(tmp_path, """
        apiVersion: v1
        kind: Pod
        metadata: {name: web, namespace: ml}
        spec:
          containers: [{name: c, image: busybox}]
        """)
    assert plain.controllers is None and expand(plain, GATES) is plain
    selector_only = load(tmp_path, """
        apiVersion: apps/v1
        kind: ReplicaSet
        metadata: {name: web, namespace: ml}
        spec:
          replicas: 2
          selector: {matchLabels: {app: web}}
        """)
    assert selector_only.controllers is None and selector_only.spread_selectors
    with_job = load(tmp_path, job())
    assert with_job.controllers and len(with_job.controllers.jobs) == 1


def test_expansion_refuses_more_pods_than_the_limit_before_building_any(tmp_path):
    """The limit holds for a ClusterInput that did not come through loading's check (the API):
    one object over it, named with its field, and nothing built."""
    import dataclasses

    from podgroup_plan.controllers.limits import MAX_CONTROLLER_PODS

    cluster = load(tmp_path, job(spec="parallelism: 4\n  completions: 4"))
    big = dataclasses.replace(cluster.controllers.jobs[0], parallelism=MAX_CONTROLLER_PODS + 1,
                              completions=None)
    huge = dataclasses.replace(cluster, controllers=dataclasses.replace(cluster.controllers, jobs=(big,)))
    with pytest.raises(InputError) as err:
        expand(huge, GATES)
    assert [str(p) for p in err.value.problems] == [
        "<input>: Job ml/train: spec.parallelism: asks for 200,001 pods; podgroup-plan creates at "
        "most 200,000 pods for the controllers of one input (200,001 asked in all)"]
    assert len(expand(cluster, GATES).pods) == 4
