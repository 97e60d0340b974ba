"""A Job's spec as the API server validates it, beyond its selector, gang and pod template
(validate_pods.py): what the batch validation states that the schema cannot.

Mirrors Kubernetes v1.37.0 `pkg/apis/batch/validation/validation.go`, after SetDefaults_Job
(completions and parallelism both unset are both 1): validateJobSpec's Indexed rules
(`completions` required, `parallelism` at most 100,000) and its pod template's restartPolicy
(OnFailure or Never; Always, which SetDefaults_PodSpec gives an unset one, is `Required
value`), and ValidateJob's validateNameAllowsCompletions (an Indexed Job's last pod is named
`<job>-<completions-1>`, which must be a DNS label). A JobSet's replicated Jobs get its
webhook's defaults first (Indexed, restartPolicy OnFailure).
"""
from __future__ import annotations

from podgroup_plan.loading.documents import Document, Issue
from podgroup_plan.loading.field_errors import invalid, is_dns1123_label, not_supported, required

Path = tuple
MAX_PARALLELISM_FOR_INDEXED_JOB = 100_000  # maxParallelismForIndexedJob


def job_rules(doc: Document, at: Path, spec: dict, name: str = "", job_set: bool = False) -> list[Issue]:
    """The rules above for the Job spec at `at`; `name`: a Job's own (not a template's), for
    validateNameAllowsCompletions; `job_set`: a JobSet's replicated Job."""
    issues: list[Issue] = []
    completions, parallelism = spec.get("completions"), spec.get("parallelism")
    if completions is None and parallelism is None:  # SetDefaults_Job
        completions = parallelism = 1
    mode = spec.get("completionMode") or ("Indexed" if job_set else None)
    if mode == "Indexed":
        if completions is None:
            issues.append(Issue(doc, at + ("completions",), required("when completion mode is Indexed")))
        if type(parallelism) is int and parallelism > MAX_PARALLELISM_FOR_INDEXED_JOB:
            issues.append(Issue(doc, at + ("parallelism",), invalid(
                parallelism, f"must be less than or equal to {MAX_PARALLELISM_FOR_INDEXED_JOB} when completion mode is Indexed")))
        if name and type(completions) is int and completions > 0:
            longest = f"{name}-{completions - 1}"
            if is_dns1123_label(longest):
                issues.append(Issue(doc, ("metadata", "name"), invalid(
                    name, f"will not able to create pod with invalid DNS label: {longest}")))
    template = spec.get("template")
    pod_spec = template.get("spec") if isinstance(template, dict) else None
    if isinstance(pod_spec, dict):
        restart = pod_spec.get("restartPolicy") or ("OnFailure" if job_set else "Always")
        where = at + ("template", "spec", "restartPolicy")
        if restart == "Always":  # field.Required, then field.NotSupported
            issues.append(Issue(doc, where, required('valid values: "OnFailure", "Never"')))
        elif restart not in ("OnFailure", "Never"):
            issues.append(Issue(doc, where, not_supported(restart, ["OnFailure", "Never"])))
    return issues
