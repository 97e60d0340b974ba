"""Feature gates: v1.37.0's list and defaults, component-base's `--feature-gates` rules, the
planner's own defaults, and what the result reports (contract.md `featureGates`, `notes`).

Upstream sources (found with the code search): the scheduler's versioned gate specs of v1.37.0
(`defaultVersionedKubernetesFeatureGates`, e.g. `GenericWorkload` Beta default false at 1.37,
`NodeDeclaredFeatures` GA locked on at 1.37, `DRAWorkloadResourceClaims` Beta default false),
component-base `featuregate` (`unrecognized feature gate: %s`, `cannot set feature gate %v to %v,
feature is locked to %v`, AllAlpha / AllBeta) and component-base logging's gates.
"""
import pytest

from podgroup_plan.errors import InputError
from podgroup_plan.config.feature_gates import (
    FEATURE_GATES_DEFAULTS,
    V1_37_GATES,
    FeatureGates,
    parse_feature_gates,
    resolve_feature_gates,
)

# Flags of a running v1.37.0 scheduler, pasted as they are (locked gates at their value).
PASTED = ("DRAWorkloadResourceClaims=true,NodeDeclaredFeatures=true,GenericWorkload=true,"
          "InPlacePodVerticalScaling=true,ContextualLogging=false,SchedulerAsyncAPICalls=true,"
          "MatchLabelKeysInPodTopologySpread=true,DynamicResourceAllocation=true")


def test_a_pasted_flag_line_of_a_running_scheduler_is_accepted():
    gates = resolve_feature_gates(parse_feature_gates(PASTED))
    assert gates["DRAWorkloadResourceClaims"] is True and gates["ContextualLogging"] is False
    # set, but changing nothing in a plan: named (once) in the notes
    assert gates.not_modelled() == {
        "ContextualLogging": False, "DRAWorkloadResourceClaims": True, "DynamicResourceAllocation": True,
        "NodeDeclaredFeatures": True, "SchedulerAsyncAPICalls": True}


@pytest.mark.parametrize("name, stage, default, locked", [
    ("GenericWorkload", "Beta", False, False),
    ("TopologyAwareWorkloadScheduling", "Alpha", False, False),
    ("CompositePodGroup", "Alpha", False, False),
    ("PodGroupPreemptionPolicy", "Alpha", False, False),
    ("DRAWorkloadResourceClaims", "Beta", False, False),
    ("NodeDeclaredFeatures", "GA", True, True),
    ("TaintTolerationComparisonOperators", "Alpha", False, False),
    ("MatchLabelKeysInPodTopologySpread", "Beta", True, False),
    ("DRADeviceTaints", "GA", True, False),  # LockToDefault only from 1.38
    ("ComponentFlagz", "Beta", True, False),  # zpages, registered through pkg/features
    # two 1.37 specs: the default-on one only with a 1.37 minimum compatibility version
    ("DRAFractionalCapacityRange", "Beta", False, False),
    ("ContextualLogging", "Beta", True, False),  # component-base logging
    ("WatchList", "Beta", True, False),  # re-listed from the apiserver's gates
])

def test_v1_37_specs(name, stage, default, locked):
    spec = V1_37_GATES[name]
    assert (spec.stage, spec.default, spec.locked) == (stage, default, locked)


def test_the_whole_v1_37_list():
    # 251 gates (AllAlpha and AllBeta aside), as a v1.37.0 kube-scheduler registers them
    assert len(V1_37_GATES) == 251
    assert all(resolve_feature_gates({name: spec.default}) for name, spec in V1_37_GATES.items())


@pytest.mark.parametrize("gone", ["GangScheduling", "WorkloadAwarePreemptionX", "SchedulerQueueingHintsX"])
def test_gates_v1_37_does_not_have_are_unrecognized(gone):
    with pytest.raises(InputError) as exc:
        parse_feature_gates(f"{gone}=true")
    assert [p.message for p in exc.value.problems] == [f"unrecognized feature gate: {gone}"]


def test_a_locked_gate_cannot_leave_its_default():
    with pytest.raises(InputError) as exc:
        parse_feature_gates("NodeDeclaredFeatures=false,DynamicResourceAllocation=false,InPlacePodVerticalScaling=true")
    assert sorted(p.message for p in exc.value.problems) == [
        "cannot set feature gate DynamicResourceAllocation to false, feature is locked to true",
        "cannot set feature gate NodeDeclaredFeatures to false, feature is locked to true",
    ]


def test_resolve_checks_locked_gates_too():
    with pytest.raises(InputError) as exc:
        resolve_feature_gates({"VolumeAttributesClass": False})
    assert exc.value.problems[0].message == (
        "cannot set feature gate VolumeAttributesClass to false, feature is locked to true")


def test_planner_defaults_are_reported_as_differing_from_upstream():
    gates = resolve_feature_gates(None)
    assert gates.differing_from_upstream() == {
        "CompositePodGroup": True, "GenericWorkload": True, "PodGroupPreemptionPolicy": True,
        "TopologyAwareWorkloadScheduling": True, "WorkloadWithJob": True}
    assert gates.not_modelled() == {}


def test_a_gate_set_to_upstreams_default_is_not_listed():
    gates = resolve_feature_gates({"CompositePodGroup": False, "MatchLabelKeysInPodTopologySpread": True})
    assert "CompositePodGroup" not in gates.differing_from_upstream()
    assert "MatchLabelKeysInPodTopologySpread" not in gates.differing_from_upstream()


def test_the_planner_switch_differs_only_when_off():
    assert "WorkloadAwarePreemption" not in resolve_feature_gates({"WorkloadAwarePreemption": True}).differing_from_upstream()
    assert resolve_feature_gates({"WorkloadAwarePreemption": False}).differing_from_upstream()["WorkloadAwarePreemption"] is False


def test_all_alpha_and_all_beta_set_the_gates_of_their_stage_not_named():
    gates = resolve_feature_gates(parse_feature_gates("AllAlpha=false,CompositePodGroup=true,AllBeta=false"))
    assert gates["CompositePodGroup"] is True  # named explicitly: wins
    assert gates["TopologyAwareWorkloadScheduling"] is False and gates["PodGroupPreemptionPolicy"] is False
    assert gates["GenericWorkload"] is False and gates["MatchLabelKeysInPodTopologySpread"] is False
    assert gates["NodeDeclaredFeatures"] is True  # GA: untouched
    assert gates["WorkloadAwarePreemption"] is True  # the planner's switch is no alpha gate


def test_dependencies_on_generic_workload():
    gates = resolve_feature_gates({"GenericWorkload": False})
    assert gates["TopologyAwareWorkloadScheduling"] is True and not gates.enabled("TopologyAwareWorkloadScheduling")


def test_resolved_once_and_passed_through():
    gates = resolve_feature_gates({"GenericWorkload": False})
    assert resolve_feature_gates(gates) is gates
    assert isinstance(gates, FeatureGates) and set(gates) == set(FEATURE_GATES_DEFAULTS)
