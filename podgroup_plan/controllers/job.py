"""A Job -> its pods, and the Workload and PodGroup the 1.37 Job controller creates.

Mirrors `pkg/controller/job/job_controller.go` (how many pods, `manageJob`),
`indexed_job_utils.go` (which indexes, `podGenerateNameWithIndex`, the completion-index label and
annotation), the apiserver's `generateSelector` (job-name and controller-uid labels) and, behind
the gate `WorkloadWithJob`, `job_scheduling_manager.go` (`shouldManageWorkloadForJob`,
`ensureWorkloadAndPodGroup`, `isNewJob`, `generateWorkload`, `createPodGroup`). What each does,
with sources: docs/controllers.md.
"""
from __future__ import annotations

from podgroup_plan.controllers.context import Creation
from podgroup_plan.controllers.names import (
    indexed_job_prefix,
    job_pod_group_name,
    job_template_name,
    job_workload_name,
    stand_in_uid,
)
from podgroup_plan.model.controllers import IndexIntervals, Job
from podgroup_plan.model.objects import (
    BASIC,
    GANG,
    PREEMPT_LOWER_PRIORITY,
    OwnerReference,
    PodGroup,
    PodGroupTemplate,
    Workload,
)

WORKLOAD_WITH_JOB = "WorkloadWithJob"
POD_GROUP_PREEMPTION_POLICY = "PodGroupPreemptionPolicy"
REFUSED = ""  # _pod_group_for: the apiserver refuses the PodGroup, so the Job creates nothing
WORKLOAD_API_VERSION = "scheduling.k8s.io/v1alpha3"  # what the 1.37 controller writes

# staging/src/k8s.io/api/batch/v1/types.go
JOB_NAME_LABEL = "batch.kubernetes.io/job-name"
CONTROLLER_UID_LABEL = "batch.kubernetes.io/controller-uid"
LEGACY_JOB_NAME_LABEL = "job-name"
LEGACY_CONTROLLER_UID_LABEL = "controller-uid"
COMPLETION_INDEX = "batch.kubernetes.io/job-completion-index"  # label and annotation


def expand_job(job: Job, ctx: Creation) -> None:
    """Add the pods `job` still lacks (and its Workload and PodGroup when 1.37 creates them)."""
    if job.finished:
        return
    uid = job.uid or stand_in_uid("Job", job.namespace, job.name)
    existing = ctx.owned_pods(job.namespace, "Job", job.name)
    group = _pod_group_for(job, uid, existing, ctx)
    if group == REFUSED:
        return
    if job.suspend:
        # Kueue creates every Job suspended; --admit-suspended plans them as if admitted
        ctx.notes.add(f"Job {job.namespace}/{job.name} is suspended: its controller creates no pods "
                      "(--admit-suspended plans it as if admitted)")
        if group is not None and not existing:
            ctx.suspended_groups.add((job.namespace, group))
        return
    labels = dict(job.template.labels)
    if not job.manual_selector:  # the apiserver's generateSelector
        labels.update({
            CONTROLLER_UID_LABEL: uid, LEGACY_CONTROLLER_UID_LABEL: uid,
            JOB_NAME_LABEL: job.name, LEGACY_JOB_NAME_LABEL: job.name,
        })
    owner = OwnerReference("Job", job.name, True)
    extra = (OwnerReference("PodGroup", group, False),) if group and group != job.template.pod_group else ()

    def create(prefix: str, seed: str, pod_labels: dict[str, str]) -> None:
        ctx.add_pod(job.template, job.namespace, ctx.free_name(job.namespace, prefix, seed),
                    pod_labels, owner, group, extra, job.creation_timestamp, job.source)

    if job.indexed:
        for index in _indexes_to_create(job, existing):
            create(indexed_job_prefix(job.name, index), str(index),
                   {**labels, COMPLETION_INDEX: str(index)})
    else:
        for n in range(_pods_to_create(job, len(existing))):
            create(f"{job.name}-", str(n), labels)
    if not existing and group is not None and _nothing_to_run(job):
        ctx.notes.add(f"Job {job.namespace}/{job.name} has nothing to run (parallelism "
                      f"{job.parallelism}, completions {job.completions}): its controller creates no pods")
        ctx.suspended_groups.add((job.namespace, group))


def _nothing_to_run(job: Job) -> bool:
    """`parallelism: 0` or `completions: 0`: manageJob wants no active pod."""
    return job.parallelism <= 0 or job.completions == 0


def _pods_to_create(job: Job, active: int) -> int:
    """NonIndexed: `completions - succeeded` wanted, at most `parallelism` at once; without
    completions, `parallelism` until one succeeds."""
    if job.completions is None:
        wanted = 0 if job.succeeded > 0 else job.parallelism
    else:
        wanted = min(job.completions - job.succeeded, job.parallelism)
    return max(0, wanted - active)


def _indexes_to_create(job: Job, existing: list) -> list[int]:
    """Indexed: the lowest indexes neither succeeded nor held by an active pod, until
    `parallelism` pods are active."""
    held = {int(v) for p in existing if (v := p.labels.get(COMPLETION_INDEX, "")).isdigit()}
    room = job.parallelism - len(existing)
    out: list[int] = []
    done = job.completed_indexes
    index, end = 0, job.completions or 0
    while index < end and len(out) < room:
        if index in done:  # jump over a whole completed interval ("0-1999999990")
            after = done.end_of(index) if isinstance(done, IndexIntervals) else None
            index = after if after is not None else index + 1
            continue
        if index not in held:
            out.append(index)
        index += 1
    return out


def _pod_group_for(job: Job, uid: str, existing: list, ctx: Creation) -> str | None:
    """The PodGroup the Job's new pods name (creating the Workload and PodGroup when 1.37's
    controller would), or None for plain pods."""
    if job.template.pod_group is not None:
        return job.template.pod_group  # bring-your-own: the controller manages nothing
    if not ctx.gate(WORKLOAD_WITH_JOB):
        if job.scheduling is not None:
            ctx.notes.add(f"Job {job.namespace}/{job.name}: spec.scheduling not applied "
                          f"({WORKLOAD_WITH_JOB}=false): its pods are scheduled on their own")
        return None
    if job.owner is not None:
        if job.delegated_template is not None:
            ctx.notes.add(
                f"Job {job.namespace}/{job.name}: the PodGroup delegated by its {job.owner.kind} "
                f"(annotation scheduling.k8s.io/group-template-name) is not modelled; its pods "
                "are scheduled on their own")
        return None  # a parent controller (JobSet, CronJob) owns the Workload
    workload = job_workload_name(job.name, uid)
    template = job_template_name(job.name)
    name = job_pod_group_name(workload, template)
    new_job = not existing and not job.started and job.succeeded == 0 and job.failed == 0
    if not new_job:
        # a started Job only discovers: the group its pods already name, if it exists
        found = {p.pod_group for p in existing}
        if len(found) == 1 and (g := found.pop()) is not None and ctx.pod_group(job.namespace, g):
            return g
        return name if ctx.pod_group(job.namespace, name) else None
    if ctx.pod_group(job.namespace, name) is None:
        if ctx.gate(POD_GROUP_PREEMPTION_POLICY) and job.template.preemption_policy != PREEMPT_LOWER_PRIORITY:
            # The controller's PodGroup names the pods' PriorityClass (workloadbuilder) and no
            # preemptionPolicy; the apiserver defaults it to PreemptLowerPriority
            # (scheduling/v1beta1 SetDefaults_PodGroup, behind PodGroupPreemptionPolicy) before
            # the Priority admission plugin computes the class's policy and refuses the mismatch
            # (plugin/pkg/admission/priority admitPodGroup). syncJob then returns the error
            # before managing pods (job_controller.go): the Job creates nothing.
            ctx.notes.add(
                f"Job {job.namespace}/{job.name}: the apiserver refuses its PodGroup {name} (the string "
                f"value of PreemptionPolicy ({PREEMPT_LOWER_PRIORITY}) must not be provided in pod group "
                f"spec; priority admission controller computed {job.template.preemption_policy} from the "
                "given PriorityClass name): its controller creates no pods")
            return REFUSED
        _create_workload_and_pod_group(job, workload, template, name, ctx)
    return name


def _create_workload_and_pod_group(job: Job, workload: str, template: str, name: str,
                                   ctx: Creation) -> None:
    sched = job.scheduling
    policy = sched.policy if sched is not None else BASIC
    min_count = 1
    if policy == GANG:
        min_count = sched.min_count if sched is not None and sched.min_count is not None else max(1, job.parallelism)
    topology_key = sched.topology_key if sched is not None else None
    disruption = sched.disruption_mode if sched is not None else "single"
    if not ctx.has_workload(job.namespace, workload):
        ctx.add_workload(Workload(
            namespace=job.namespace, name=workload, api_version=WORKLOAD_API_VERSION,
            pod_group_templates=(PodGroupTemplate(template, policy, min_count, topology_key, disruption),),
            source=job.source,
        ))
    ctx.add_pod_group(PodGroup(
        namespace=job.namespace, name=name, api_version=WORKLOAD_API_VERSION, policy=policy,
        min_count=min_count, topology_key=topology_key, disruption_mode=disruption,
        # workloadbuilder copies the pod template's priorityClassName; the Priority admission
        # plugin resolves it as it does for the pods (the pods' priority), and sets the class's
        # preemption policy only behind PodGroupPreemptionPolicy (which must then agree, above)
        priority=job.template.priority, preemption_policy=job.template.preemption_policy,
        workload_name=workload, template_name=template,
        creation_timestamp=job.creation_timestamp, source=job.source,
    ))
    ctx.parent(job.namespace, "PodGroup", name, OwnerReference("Job", job.name, True))
