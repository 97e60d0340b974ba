"""KubeSchedulerConfiguration -> Profile: defaults, merging, multiPoint expansion, args, gates.

Expected default lists follow upstream's `default_plugins_test.go` (MultiPoint order and weights)
expanded per extension point as `framework.go expandMultiPointPlugins` does; see
podgroup_plan/config/defaults.py for what is verified and what is chosen.
"""
from __future__ import annotations

import pytest

from podgroup_plan.errors import InputError
from podgroup_plan.config import defaults
from podgroup_plan.config.args import (
    DEFAULT_RESOURCES,
    DefaultPreemptionArgs,
    InterPodAffinityArgs,
    NodeAffinityArgs,
    NodeResourcesBalancedAllocationArgs,
    NodeResourcesFitArgs,
    PodTopologySpreadArgs,
    ResourceSpec,
    ScoringStrategy,
    UtilizationShapePoint,
)
from podgroup_plan.config.configuration import build_profiles, describe_not_applied
from podgroup_plan.config.feature_gates import (
    FEATURE_GATES_DEFAULTS,
    parse_feature_gates,
    resolve_feature_gates,
)
from podgroup_plan.config.profile import EXTENSION_POINTS, PluginRef
from podgroup_plan.plugins.names import KNOWN_PLUGINS
from podgroup_plan.model.objects import PreferredSchedulingTerm, TopologySpreadConstraint
from podgroup_plan.model.selectors import NodeSelector, NodeSelectorRequirement, NodeSelectorTerm

ALL_ON = dict(FEATURE_GATES_DEFAULTS)
KNOWN = ", ".join(sorted(KNOWN_PLUGINS))


def refs(*items) -> tuple[PluginRef, ...]:
    """"Name" or ("Name", weight)."""
    return tuple(PluginRef(i) if isinstance(i, str) else PluginRef(*i) for i in items)


def profile(config=None, gates=None, name="default-scheduler"):
    return build_profiles(config, gates or {}, file="sched.yaml")[name]


def one(plugins=None, **fields):
    """A configuration with one profile."""
    prof = dict(fields)
    if plugins is not None:
        prof["plugins"] = plugins
    return {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration", "profiles": [prof]}


def problems(config, gates=None) -> list[tuple[str | None, str]]:
    with pytest.raises(InputError) as exc:
        build_profiles(config, gates or {}, file="sched.yaml")
    for p in exc.value.problems:
        assert p.file == "sched.yaml" and p.kind == "KubeSchedulerConfiguration"
    return [(p.path, p.message) for p in exc.value.problems]


# ------------------------------------------------------------------------------------------------
# The default profile
# ------------------------------------------------------------------------------------------------

DEFAULT_MULTIPOINT = refs(
    "SchedulingGates", "PrioritySort", "NodeUnschedulable", "NodeName", ("TaintToleration", 3),
    ("NodeAffinity", 2), "NodePorts", ("NodeResourcesFit", 1), "VolumeRestrictions",
    "NodeVolumeLimits", "VolumeBinding", "VolumeZone", ("PodTopologySpread", 2),
    ("InterPodAffinity", 2), ("DynamicResources", 2), "DefaultPreemption",
    ("NodeResourcesBalancedAllocation", 1), ("ImageLocality", 1), "DefaultBinder",
    "NodeDeclaredFeatures", "GangScheduling", "TopologyPlacementGenerator", ("PodGroupPodsCount", 1),
)

FILTERS = (
    "NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity", "NodePorts",
    "NodeResourcesFit", "VolumeRestrictions", "NodeVolumeLimits", "VolumeBinding", "VolumeZone",
    "PodTopologySpread", "InterPodAffinity", "DynamicResources", "NodeDeclaredFeatures",
)
SCORES = (
    ("TaintToleration", 3), ("NodeAffinity", 2), ("NodeResourcesFit", 1), ("VolumeBinding", 1),
    ("PodTopologySpread", 2), ("InterPodAffinity", 2), ("DynamicResources", 2),
    ("NodeResourcesBalancedAllocation", 1), ("ImageLocality", 1),
)

EXPECTED_DEFAULT = {
    "preEnqueue": refs("SchedulingGates", "DynamicResources", "DefaultPreemption", "GangScheduling"),
    "queueSort": refs("PrioritySort"),
    "preFilter": refs(
        "NodeAffinity", "NodePorts", "NodeResourcesFit", "VolumeRestrictions", "NodeVolumeLimits",
        "VolumeBinding", "VolumeZone", "PodTopologySpread", "InterPodAffinity", "DynamicResources",
        "NodeDeclaredFeatures",
    ),
    "filter": refs(*FILTERS),
    "postFilter": refs("DynamicResources", "DefaultPreemption"),
    "preScore": refs(
        "TaintToleration", "NodeAffinity", "NodeResourcesFit", "VolumeBinding", "PodTopologySpread",
        "InterPodAffinity", "NodeResourcesBalancedAllocation",
    ),
    "score": refs(*SCORES),
    "reserve": refs("VolumeBinding", "DynamicResources"),
    "permit": refs("GangScheduling"),  # v1.37.0's GangScheduling still implements Permit
    "preBind": refs("VolumeBinding", "DynamicResources"),
    "bind": refs("DefaultBinder"),
    "postBind": (),
    "placementGenerate": refs("TopologyPlacementGenerator"),
    "placementFeasible": refs("GangScheduling"),
    "placementScore": refs(("NodeResourcesFit", 1), ("PodGroupPodsCount", 1)),
    "podGroupPostFilter": refs("DefaultPreemption"),
}


def test_default_multipoint_matches_upstream_order_and_weights():
    assert defaults.default_multipoint(ALL_ON) == DEFAULT_MULTIPOINT


@pytest.mark.parametrize("point", EXTENSION_POINTS, ids=EXTENSION_POINTS)
def test_default_profile_extension_point(point):
    assert profile().enabled(point) == EXPECTED_DEFAULT[point]


def test_default_profile_shape():
    profiles = build_profiles(None, {})
    assert list(profiles) == ["default-scheduler"]
    p = profiles["default-scheduler"]
    assert p.scheduler_name == "default-scheduler"
    assert set(p.plugins) == set(EXTENSION_POINTS)
    assert p.percentage_of_nodes_to_score is None


def test_empty_configuration_is_the_default_profile():
    assert build_profiles({}, {}) == build_profiles(None, {})
    assert build_profiles({"profiles": None}, {}) == build_profiles(None, {})
    assert build_profiles(one(), {}) == build_profiles(None, {})


def test_every_known_plugin_has_an_extension_point_entry():
    assert set(defaults.PLUGIN_EXTENSION_POINTS) == set(KNOWN_PLUGINS)


# ------------------------------------------------------------------------------------------------
# Feature gates
# ------------------------------------------------------------------------------------------------

GATE_CASES = [
    pytest.param({"TopologyAwareWorkloadScheduling": False}, {
        "placementGenerate": (), "placementScore": (),
        "placementFeasible": refs("GangScheduling"),
        "podGroupPostFilter": refs("DefaultPreemption"),
        "preEnqueue": EXPECTED_DEFAULT["preEnqueue"],
    }, ("TopologyPlacementGenerator", "PodGroupPodsCount"), id="TAS-off"),
    pytest.param({"WorkloadAwarePreemption": False}, {
        "podGroupPostFilter": (),
        "postFilter": refs("DynamicResources", "DefaultPreemption"),
        "placementGenerate": refs("TopologyPlacementGenerator"),
        "placementScore": EXPECTED_DEFAULT["placementScore"],
    }, (), id="WAP-off"),
    pytest.param({"GenericWorkload": False}, {
        "preEnqueue": refs("SchedulingGates", "DynamicResources", "DefaultPreemption"),
        "placementGenerate": (), "placementScore": (), "placementFeasible": (),
        "podGroupPostFilter": (),
        "postFilter": refs("DynamicResources", "DefaultPreemption"),
        "score": EXPECTED_DEFAULT["score"],
    }, ("GangScheduling", "TopologyPlacementGenerator", "PodGroupPodsCount"), id="GenericWorkload-off"),
    pytest.param({"GenericWorkload": False, "TopologyAwareWorkloadScheduling": True}, {
        "placementGenerate": (), "placementScore": (),
    }, ("GangScheduling", "TopologyPlacementGenerator", "PodGroupPodsCount"), id="TAS-needs-GenericWorkload"),
    pytest.param({"CompositePodGroup": False, "PodGroupPreemptionPolicy": False},
                 EXPECTED_DEFAULT, (), id="CPG-and-PGPP-change-no-plugin"),
]


@pytest.mark.parametrize("gates, expected, missing", GATE_CASES)
def test_feature_gates_shape_the_default_profile(gates, expected, missing):
    p = profile(gates=gates)
    for point, want in expected.items():
        assert p.enabled(point) == want, point
    multipoint_names = [r.name for r in defaults.default_multipoint(resolve_feature_gates(gates))]
    for name in missing:
        assert name not in multipoint_names
        assert all(name not in [r.name for r in p.enabled(pt)] for pt in EXTENSION_POINTS)


@pytest.mark.parametrize("text, expected", [
    pytest.param("", {}, id="empty"),
    pytest.param("GenericWorkload=false", {"GenericWorkload": False}, id="one"),
    pytest.param("TopologyAwareWorkloadScheduling=false,WorkloadAwarePreemption=true",
                 {"TopologyAwareWorkloadScheduling": False, "WorkloadAwarePreemption": True}, id="two"),
    pytest.param(" CompositePodGroup = F , PodGroupPreemptionPolicy=1,", {
        "CompositePodGroup": False, "PodGroupPreemptionPolicy": True}, id="spaces-go-bools-trailing-comma"),
    pytest.param("GenericWorkload=false,GenericWorkload=TRUE", {"GenericWorkload": True}, id="last-wins"),
])
def test_parse_feature_gates(text, expected):
    assert parse_feature_gates(text) == expected


@pytest.mark.parametrize("text, messages", [
    pytest.param("Foo=true", ["unrecognized feature gate: Foo"], id="unknown"),
    pytest.param("GenericWorkload", ["missing bool value for GenericWorkload"], id="no-value"),
    pytest.param("GenericWorkload=yes", [
        'invalid value of GenericWorkload=yes, err: strconv.ParseBool: parsing "yes": invalid syntax'],
        id="bad-bool"),
    pytest.param("GangScheduling=true,GenericWorkload=maybe", [
        'invalid value of GenericWorkload=maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax',
        # GangScheduling was folded into GenericWorkload in 1.37: no longer a gate
        "unrecognized feature gate: GangScheduling"], id="every-problem"),
])
def test_parse_feature_gates_errors(text, messages):
    with pytest.raises(InputError) as exc:
        parse_feature_gates(text)
    assert sorted(p.message for p in exc.value.problems) == sorted(messages)
    assert all(p.file == "--feature-gates" for p in exc.value.problems)


def test_build_profiles_rejects_unknown_gate():
    with pytest.raises(InputError) as exc:
        build_profiles(None, {"GangScheduling": True})
    assert exc.value.problems[0].message.startswith("unrecognized feature gate: GangScheduling")


# ------------------------------------------------------------------------------------------------
# Merging: multiPoint, specific points, "*", in-place replacement, append order
# ------------------------------------------------------------------------------------------------

NO_NODEPORTS = tuple(f for f in FILTERS if f != "NodePorts")
MERGE_CASES = [
    pytest.param({"multiPoint": {"enabled": [{"name": "TaintToleration", "weight": 5}]}},
                 "score", refs(("TaintToleration", 5), *SCORES[1:]), id="multiPoint-weight-replaced-in-place"),
    pytest.param({"multiPoint": {"enabled": [{"name": "NodeResourcesFit", "weight": 3}]}},
                 "placementScore", refs(("NodeResourcesFit", 3), ("PodGroupPodsCount", 1)),
                 id="multiPoint-weight-also-placementScore"),
    pytest.param({"score": {"enabled": [{"name": "ImageLocality", "weight": 5}]}},
                 "score", refs(("ImageLocality", 5), *SCORES[:-1]),
                 id="specific-weight-overrides-multiPoint-and-runs-first"),
    pytest.param({"score": {"enabled": [{"name": "TaintToleration", "weight": 0}]}},
                 "score", refs(("TaintToleration", 1), *SCORES[1:]), id="weight-0-means-1"),
    pytest.param({"score": {"enabled": [{"name": "NodeAffinity", "weight": 7}]},
                  "multiPoint": {"enabled": [{"name": "NodeAffinity", "weight": 4}]}},
                 "score", refs(("NodeAffinity", 7), SCORES[0], *SCORES[2:]), id="specific-weight-beats-multiPoint-weight"),
    pytest.param({"score": {"enabled": [{"name": "NodeAffinity", "weight": 7}]}},
                 "preScore", EXPECTED_DEFAULT["preScore"], id="score-override-leaves-preScore"),
    pytest.param({"score": {"disabled": [{"name": "ImageLocality"}]}},
                 "score", refs(*SCORES[:-1]), id="disabled-at-point"),
    pytest.param({"score": {"disabled": [{"name": "NodeAffinity"}]}},
                 "filter", refs(*FILTERS), id="disabled-at-point-keeps-other-points"),
    pytest.param({"score": {"disabled": [{"name": "*"}],
                            "enabled": [{"name": "NodeResourcesFit", "weight": 4}, {"name": "ImageLocality"}]}},
                 "score", refs(("NodeResourcesFit", 4), ("ImageLocality", 1)), id="star-then-enabled"),
    pytest.param({"score": {"disabled": [{"name": "*"}]}}, "preScore", EXPECTED_DEFAULT["preScore"],
                 id="star-only-that-point"),
    pytest.param({"multiPoint": {"disabled": [{"name": "NodeAffinity"}]}},
                 "preFilter", tuple(r for r in EXPECTED_DEFAULT["preFilter"] if r.name != "NodeAffinity"),
                 id="multiPoint-disabled-everywhere"),
    pytest.param({"multiPoint": {"disabled": [{"name": "*"}],
                                 "enabled": [{"name": "PrioritySort"}, {"name": "DefaultBinder"},
                                             {"name": "NodeResourcesFit", "weight": 2}]}},
                 "placementScore", refs(("NodeResourcesFit", 2)), id="multiPoint-star"),
    pytest.param({"multiPoint": {"disabled": [{"name": "*"}],
                                 "enabled": [{"name": "PrioritySort"}, {"name": "DefaultBinder"},
                                             {"name": "NodeResourcesFit", "weight": 2}]}},
                 "filter", refs("NodeResourcesFit"), id="multiPoint-star-filter"),
    pytest.param({"multiPoint": {"disabled": [{"name": "NodeName"}]}, "filter": {"enabled": [{"name": "NodeName"}]}},
                 "filter", refs(*[f for f in FILTERS if f != "NodeName"], "NodeName"), id="appended-after-defaults"),
    pytest.param({"filter": {"enabled": [{"name": "NodePorts"}]}},
                 "filter", refs("NodePorts", *NO_NODEPORTS), id="relisted-default-at-point-runs-first"),
    pytest.param({"filter": {"enabled": [{"name": "NodePorts"}], "disabled": [{"name": "NodePorts"}]}},
                 "filter", refs(*NO_NODEPORTS, "NodePorts"), id="enabled-and-disabled-at-point-goes-last"),
    pytest.param({"filter": {"disabled": [{"name": "*"}],
                             "enabled": [{"name": "NodeName"}, {"name": "NodeUnschedulable"}]}},
                 "filter", refs("NodeName", "NodeUnschedulable"), id="star-reorders"),
    pytest.param({"placementScore": {"enabled": [{"name": "PodGroupPodsCount", "weight": 5},
                                                 {"name": "NodeResourcesFit", "weight": 2}]}},
                 "placementScore", refs(("PodGroupPodsCount", 5), ("NodeResourcesFit", 2)),
                 id="placementScore-weights-doc-example"),
    pytest.param({"placementScore": {"enabled": [{"name": "NodeResourcesFit", "weight": 2}]}},
                 "score", refs(*SCORES), id="placementScore-weight-not-score"),
    pytest.param({"podGroupPostFilter": {"disabled": [{"name": "DefaultPreemption"}]}},
                 "postFilter", refs("DynamicResources", "DefaultPreemption"), id="disable-WAP-keep-pod-preemption"),
    pytest.param({"postFilter": {"disabled": [{"name": "DefaultPreemption"}]}},
                 "podGroupPostFilter", refs("DefaultPreemption"), id="disable-pod-preemption-keep-WAP"),
]


@pytest.mark.parametrize("plugins, point, expected", MERGE_CASES)
def test_merge(plugins, point, expected):
    assert profile(one(plugins)).enabled(point) == expected


def test_multiPoint_custom_order_after_defaults():
    # A plugin re-enabled through multiPoint after being removed by "*" lands where it is listed.
    p = profile(one({"multiPoint": {"disabled": [{"name": "*"}], "enabled": [
        {"name": "DefaultBinder"}, {"name": "ImageLocality"}, {"name": "PrioritySort"},
        {"name": "TaintToleration"}]}}))
    assert p.enabled("score") == refs(("ImageLocality", 1), ("TaintToleration", 1))
    assert p.enabled("filter") == refs("TaintToleration")
    assert p.enabled("preEnqueue") == ()


# ------------------------------------------------------------------------------------------------
# Several profiles
# ------------------------------------------------------------------------------------------------


def test_several_profiles_in_configuration_order():
    config = {"profiles": [
        {"schedulerName": "b-sched", "plugins": {"score": {"disabled": [{"name": "*"}]}}},
        {"schedulerName": "a-sched"},
    ]}
    profiles = build_profiles(config, {})
    assert list(profiles) == ["b-sched", "a-sched"]
    assert profiles["b-sched"].enabled("score") == ()
    assert profiles["a-sched"].enabled("score") == refs(*SCORES)
    assert profiles["a-sched"].enabled("queueSort") == refs("PrioritySort")


def test_same_explicit_queue_sort_is_accepted():
    qs = {"queueSort": {"enabled": [{"name": "PrioritySort"}], "disabled": [{"name": "*"}]}}
    config = {"profiles": [{"schedulerName": "a", "plugins": qs}, {"schedulerName": "b", "plugins": qs}]}
    assert build_profiles(config, {})["b"].enabled("queueSort") == refs("PrioritySort")


PROFILE_ERRORS = [
    pytest.param({"profiles": [{"schedulerName": "a"}, {}]},
                 [("profiles[1].schedulerName", "Required value")], id="name-required-with-several"),
    pytest.param({"profiles": [{"schedulerName": ""}]},
                 [("profiles[0].schedulerName", "Required value")], id="empty-name-not-defaulted"),
    pytest.param({"profiles": [{"schedulerName": "a"}, {"schedulerName": "b"}, {"schedulerName": "a"}]},
                 [("profiles[2].schedulerName", 'Duplicate value: "a": already used by profiles[0].schedulerName')],
                 id="duplicate-name"),
    pytest.param({"profiles": [
        {"schedulerName": "a"},
        {"schedulerName": "b", "plugins": {"queueSort": {"enabled": [{"name": "PrioritySort"}],
                                                         "disabled": [{"name": "*"}]}}}]},
        [("profiles[1].plugins.queueSort",
          'Invalid value: {"disabled":[{"name":"*"}],"enabled":[{"name":"PrioritySort"}]}: '
          "queueSort must be the same for all profiles")], id="queueSort-mismatch"),
    pytest.param(one({"queueSort": {"disabled": [{"name": "*"}]}}, schedulerName="x"),
                 [("profiles[0].plugins.queueSort",
                   'only one queue sort plugin required for profile with scheduler name "x", but got 0')],
                 id="no-queue-sort"),
    pytest.param(one({"multiPoint": {"disabled": [{"name": "DefaultBinder"}]}}),
                 [("profiles[0].plugins.bind",
                   'at least one bind plugin is needed for profile with scheduler name "default-scheduler"')],
                 id="no-bind"),
]


@pytest.mark.parametrize("config, expected", PROFILE_ERRORS)
def test_profile_errors(config, expected):
    assert problems(config) == expected


def test_queue_sort_args_must_match():
    config = {"profiles": [
        {"schedulerName": "a"},
        {"schedulerName": "b", "pluginConfig": [{"name": "PrioritySort", "args": {}}]},
    ]}
    assert problems(config) == [("profiles[1].pluginConfig", 'different queue sort plugin args for profile "b"')]


# ------------------------------------------------------------------------------------------------
# Plugin-set errors
# ------------------------------------------------------------------------------------------------

PLUGIN_ERRORS = [
    pytest.param({"score": {"enabled": [{"name": "ImageLocality"}, {"name": "Foo"}]}},
                 [("profiles[0].plugins.score.enabled[1].name", f'unknown plugin "Foo"; known plugins: {KNOWN}')],
                 id="unknown-enabled"),
    pytest.param({"filter": {"disabled": [{"name": "Bar"}]}},
                 [("profiles[0].plugins.filter.disabled[0].name", f'unknown plugin "Bar"; known plugins: {KNOWN}')],
                 id="unknown-disabled"),
    pytest.param({"score": {"enabled": [{"name": "*"}]}},
                 [("profiles[0].plugins.score.enabled[0].name", f'unknown plugin "*"; known plugins: {KNOWN}')],
                 id="star-not-enableable"),
    pytest.param({"filter": {"enabled": [{"name": "ImageLocality"}]}},
                 [("profiles[0].plugins.filter.enabled[0]", 'plugin "ImageLocality" does not extend FilterPlugin plugin')],
                 id="does-not-extend"),
    pytest.param({"placementGenerate": {"enabled": [{"name": "NodeResourcesFit"}]}},
                 [("profiles[0].plugins.placementGenerate.enabled[0]",
                   'plugin "NodeResourcesFit" does not extend PlacementGeneratePlugin plugin')],
                 id="does-not-extend-placement"),
    pytest.param({"filter": {"enabled": [{"name": "NodeName"}, {"name": "NodeName"}]}},
                 [("profiles[0].plugins.filter.enabled[1]", 'plugin "NodeName" already registered as "FilterPlugin"')],
                 id="duplicate-at-point"),
    pytest.param({"multiPoint": {"enabled": [{"name": "ImageLocality", "weight": 2}, {"name": "ImageLocality", "weight": 4}]}},
                 [("profiles[0].plugins.multiPoint.enabled[0]", 'plugin "ImageLocality" already registered as "ScorePlugin"')],
                 id="duplicate-in-multiPoint"),
    pytest.param({"scores": {}},
                 [("profiles[0].plugins.scores", 'unknown field "scores"; known fields: '
                   + ", ".join(sorted(("multiPoint",) + tuple(p for p in EXTENSION_POINTS if p != "placementFeasible"))))], id="unknown-extension-point"),
    pytest.param({"score": {"enabled": [{"name": "ImageLocality", "weight": "2"}]}},
                 [("profiles[0].plugins.score.enabled[0].weight", 'Invalid value: "2": expected an integer')],
                 id="weight-not-int"),
    pytest.param({"score": {"enabled": [{"name": "ImageLocality", "weight": 2**31}]}},
                 [("profiles[0].plugins.score.enabled[0].weight", "Invalid value: 2147483648: must fit in a 32-bit integer")],
                 id="weight-int32"),
    pytest.param({"score": {"enabled": [{}]}},
                 [("profiles[0].plugins.score.enabled[0].name", "Required value")], id="name-required"),
    pytest.param({"score": {"enabled": [{"name": "Foo"}], "disabled": [{"name": "Bar"}]},
                  "filter": {"enabled": [{"name": "ImageLocality"}]}},
                 [("profiles[0].plugins.filter.enabled[0]", 'plugin "ImageLocality" does not extend FilterPlugin plugin'),
                  ("profiles[0].plugins.score.disabled[0].name", f'unknown plugin "Bar"; known plugins: {KNOWN}'),
                  ("profiles[0].plugins.score.enabled[0].name", f'unknown plugin "Foo"; known plugins: {KNOWN}')],
                 id="every-problem-at-once"),
]


@pytest.mark.parametrize("plugins, expected", PLUGIN_ERRORS)
def test_plugin_set_errors(plugins, expected):
    assert problems(one(plugins)) == expected


def test_negative_weight_is_kept_as_upstream_does():
    # Upstream validates neither sign nor range of Plugin.weight (int32); only overflow of the
    # total, impossible with int32 weights.
    p = profile(one({"score": {"enabled": [{"name": "ImageLocality", "weight": -2}]}}))
    assert p.enabled("score")[0] == PluginRef("ImageLocality", -2)


# ------------------------------------------------------------------------------------------------
# Top-level and profile fields, percentages
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("config, nodes", [
    pytest.param(one(), None, id="unset"),
    pytest.param({**one(), "percentageOfNodesToScore": 0}, None, id="global-0"),
    pytest.param({**one(), "percentageOfNodesToScore": 30}, 30, id="global"),
    pytest.param({**one(percentageOfNodesToScore=40)}, 40, id="profile"),
    pytest.param({**one(percentageOfNodesToScore=40), "percentageOfNodesToScore": 30}, 40, id="profile-wins"),
    pytest.param({**one(percentageOfNodesToScore=0), "percentageOfNodesToScore": 30}, None,
                 id="profile-0-is-adaptive"),
])
def test_percentages(config, nodes):
    assert profile(config).percentage_of_nodes_to_score == nodes


def _not_in_137(name):
    return f'unknown field "{name}" (not in kube-scheduler v1.37.0; added in 1.38-dev)'


@pytest.mark.parametrize("config, expected", [
    pytest.param({"percentageOfPlacementsToScore": 20},
                 [("percentageOfPlacementsToScore", _not_in_137("percentageOfPlacementsToScore"))], id="global"),
    pytest.param({"percentageOfPlacementsToScore": None},
                 [("percentageOfPlacementsToScore", _not_in_137("percentageOfPlacementsToScore"))], id="global-null"),
    pytest.param(one(percentageOfPlacementsToScore=100),
                 [("profiles[0].percentageOfPlacementsToScore", _not_in_137("percentageOfPlacementsToScore"))],
                 id="profile"),
    pytest.param(one(plugins={"placementFeasible": {"enabled": [{"name": "GangScheduling"}]}}),
                 [("profiles[0].plugins.placementFeasible", _not_in_137("placementFeasible"))], id="plugin-set"),
])
def test_fields_v1_37_does_not_have_are_refused(config, expected):
    # v1.37.0's KubeSchedulerConfiguration has neither field (PR #139859 and PR #141314 are
    # 1.38-dev); its strict decoding refuses unknown fields.
    assert problems(config) == expected


TOP_LEVEL_ERRORS = [
    pytest.param({"percentageOfNodesToScore": 101},
                 [("percentageOfNodesToScore", "Invalid value: 101: not in valid range [0-100]")], id="global-nodes"),
    pytest.param({"profiles": [{"percentageOfNodesToScore": 150}]},
                 [("profiles[0].percentageOfNodesToScore", "Invalid value: 150: not in valid range [0-100]")],
                 id="profile-nodes"),
    pytest.param({"parallelism": 0},
                 [("parallelism", "Invalid value: 0: should be an integer value greater than zero")], id="parallelism"),
    pytest.param({"podInitialBackoffSeconds": 0},
                 [("podInitialBackoffSeconds", "Invalid value: 0: must be greater than 0")], id="initial-backoff"),
    pytest.param({"podInitialBackoffSeconds": 20},
                 [("podMaxBackoffSeconds", "Invalid value: 10: must be greater than or equal to PodInitialBackoffSeconds")],
                 id="max-backoff"),
    pytest.param({"apiVersion": "kubescheduler.config.k8s.io/v1beta3"},
                 [("apiVersion", 'Invalid value: "kubescheduler.config.k8s.io/v1beta3": must be '
                   '"kubescheduler.config.k8s.io/v1"')], id="apiVersion"),
    pytest.param({"profile": []},
                 [("profile", 'unknown field "profile"; known fields: apiVersion, clientConnection, '
                   "delayCacheUntilActive, enableContentionProfiling, enableProfiling, extenders, kind, "
                   "leaderElection, parallelism, percentageOfNodesToScore, "
                   "podInitialBackoffSeconds, podMaxBackoffSeconds, profiles")], id="unknown-top-level"),
    pytest.param({"profiles": [{"schedulername": "x"}]},
                 [("profiles[0].schedulername", 'unknown field "schedulername"; known fields: percentageOfNodesToScore, '
                   "pluginConfig, plugins, schedulerName")], id="unknown-profile-field"),
    pytest.param({"profiles": "x"}, [("profiles", 'Invalid value: "x": expected a list')], id="profiles-not-list"),
]


@pytest.mark.parametrize("config, expected", TOP_LEVEL_ERRORS)
def test_top_level_errors(config, expected):
    assert problems(config) == expected


def test_config_not_an_object():
    assert problems(["x"]) == [(None, 'Invalid value: ["x"]: expected an object')]


def test_extenders_and_client_settings_are_accepted():
    config = {**one(), "extenders": [{"urlPrefix": "http://x"}], "leaderElection": {"leaderElect": False},
              "clientConnection": {"qps": 10}, "parallelism": 4}
    assert profile(config).enabled("bind") == refs("DefaultBinder")


# ------------------------------------------------------------------------------------------------
# Plugin args: defaults and decoding
# ------------------------------------------------------------------------------------------------


def test_default_plugin_args():
    assert profile().plugin_args == {
        "DefaultPreemption": DefaultPreemptionArgs(10, 100),
        "InterPodAffinity": InterPodAffinityArgs(1, False),
        "NodeAffinity": NodeAffinityArgs(None, ()),
        "NodeResourcesBalancedAllocation": NodeResourcesBalancedAllocationArgs(
            (ResourceSpec("cpu", 1), ResourceSpec("memory", 1))),
        "NodeResourcesFit": NodeResourcesFitArgs((), (), ScoringStrategy(
            "LeastAllocated", (ResourceSpec("cpu", 1), ResourceSpec("memory", 1)), ())),
        "PodTopologySpread": PodTopologySpreadArgs((), "System"),
    }


def args_of(plugin, args):
    return profile(one(pluginConfig=[{"name": plugin, "args": args}])).plugin_args[plugin]


ARGS_CASES = [
    pytest.param("NodeResourcesFit", None, NodeResourcesFitArgs(), id="fit-null-args"),
    pytest.param("NodeResourcesFit", {"ignoredResources": ["example.com/foo"], "ignoredResourceGroups": ["example.com"]},
                 NodeResourcesFitArgs(("example.com/foo",), ("example.com",)), id="fit-ignored"),
    pytest.param("NodeResourcesFit", {"scoringStrategy": {"type": "MostAllocated"}},
                 NodeResourcesFitArgs(scoring_strategy=ScoringStrategy("MostAllocated", DEFAULT_RESOURCES)),
                 id="fit-most-allocated-default-resources"),
    pytest.param("NodeResourcesFit", {"scoringStrategy": {"type": "LeastAllocated", "resources": [
        {"name": "cpu", "weight": 3}, {"name": "nvidia.com/gpu"}]}},
        NodeResourcesFitArgs(scoring_strategy=ScoringStrategy(
            "LeastAllocated", (ResourceSpec("cpu", 3), ResourceSpec("nvidia.com/gpu", 1)))),
        id="fit-resource-weight-0-is-1"),
    pytest.param("NodeResourcesFit", {"scoringStrategy": {"type": "RequestedToCapacityRatio",
                                                          "requestedToCapacityRatio": {"shape": [
                                                              {"utilization": 0, "score": 0},
                                                              {"utilization": 100, "score": 10}]}}},
                 NodeResourcesFitArgs(scoring_strategy=ScoringStrategy(
                     "RequestedToCapacityRatio", DEFAULT_RESOURCES,
                     (UtilizationShapePoint(0, 0), UtilizationShapePoint(100, 10)))), id="fit-r2c"),
    pytest.param("NodeResourcesBalancedAllocation", {"resources": [{"name": "cpu"}, {"name": "example.com/x", "weight": 1}]},
                 NodeResourcesBalancedAllocationArgs((ResourceSpec("cpu", 1), ResourceSpec("example.com/x", 1))),
                 id="balanced"),
    pytest.param("InterPodAffinity", {"hardPodAffinityWeight": 0, "ignorePreferredTermsOfExistingPods": True},
                 InterPodAffinityArgs(0, True), id="ipa"),
    pytest.param("PodTopologySpread", {"defaultingType": "List", "defaultConstraints": [
        {"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": "ScheduleAnyway"},
        {"maxSkew": 2, "topologyKey": "kubernetes.io/hostname", "whenUnsatisfiable": "DoNotSchedule",
         "minDomains": 3, "nodeTaintsPolicy": "Honor", "matchLabelKeys": ["app"]}]},
        PodTopologySpreadArgs((
            TopologySpreadConstraint(1, "topology.kubernetes.io/zone", "ScheduleAnyway"),
            TopologySpreadConstraint(2, "kubernetes.io/hostname", "DoNotSchedule", min_domains=3,
                                     node_taints_policy="Honor", match_label_keys=("app",))), "List"),
        id="spread-list"),
    pytest.param("PodTopologySpread", {"defaultingType": "List"}, PodTopologySpreadArgs((), "List"),
                 id="spread-list-empty"),
    pytest.param("PodTopologySpread", {}, PodTopologySpreadArgs((), "System"), id="spread-system-default"),
    pytest.param("DefaultPreemption", {"minCandidateNodesPercentage": 0}, DefaultPreemptionArgs(0, 100),
                 id="preemption-pct-0"),
    pytest.param("DefaultPreemption", {"minCandidateNodesAbsolute": 5, "apiVersion": "kubescheduler.config.k8s.io/v1",
                                       "kind": "DefaultPreemptionArgs"}, DefaultPreemptionArgs(10, 5),
                 id="preemption-type-meta"),
    pytest.param("NodeAffinity", {"addedAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
            {"matchExpressions": [{"key": "pool", "operator": "In", "values": ["a", "b"]},
                                  {"key": "gpu", "operator": "Gt", "values": ["3"]}]},
            {"matchFields": [{"key": "metadata.name", "operator": "NotIn", "values": ["n1"]}]}]},
        "preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": 5, "preference": {"matchExpressions": [{"key": "zone", "operator": "Exists"}]}}]}},
        NodeAffinityArgs(
            NodeSelector((
                NodeSelectorTerm((NodeSelectorRequirement("pool", "In", ("a", "b")),
                                  NodeSelectorRequirement("gpu", "Gt", ("3",)))),
                NodeSelectorTerm((), (NodeSelectorRequirement("metadata.name", "NotIn", ("n1",)),)))),
            (PreferredSchedulingTerm(5, NodeSelectorTerm((NodeSelectorRequirement("zone", "Exists"),))),)),
        id="node-affinity"),
]


@pytest.mark.parametrize("plugin, args, expected", ARGS_CASES)
def test_args_decoding(plugin, args, expected):
    assert args_of(plugin, args) == expected


def test_added_affinity_matches():
    args = args_of("NodeAffinity", {"addedAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [{"matchExpressions": [{"key": "pool", "operator": "In", "values": ["a"]}]}]}}})
    assert args.added_affinity_required.matches("n1", {"pool": "a"})
    assert not args.added_affinity_required.matches("n1", {"pool": "b"})


def test_not_applied_plugin_args_are_checked_not_kept():
    p = profile(one(pluginConfig=[{"name": "VolumeBinding", "args": {"bindTimeoutSeconds": 30}},
                                  {"name": "DynamicResources", "args": {"filterTimeout": "10s"}}]))
    assert "VolumeBinding" not in p.plugin_args and "DynamicResources" not in p.plugin_args


def cfg_path(j=0):
    return f"profiles[0].pluginConfig[{j}]"


A = cfg_path() + ".args"
QNAME_REGEX = ("(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
               "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')")
ARGS_ERRORS = [
    # NodeResourcesFitArgs
    pytest.param("NodeResourcesFit", {"scoringStrategy": {"type": "Foo"}},
                 [(A + ".scoringStrategy.type", 'Unsupported value: "Foo": supported values: "LeastAllocated", '
                   '"MostAllocated", "RequestedToCapacityRatio"')], id="fit-type"),
    pytest.param("NodeResourcesFit", {"scoringStrategy": {"resources": [{"name": "cpu"}]}},
                 [(A + ".scoringStrategy.type", 'Unsupported value: "": supported values: "LeastAllocated", '
                   '"MostAllocated", "RequestedToCapacityRatio"')], id="fit-type-not-defaulted"),
    pytest.param("NodeResourcesFit", {"scoringStrategy": {"type": "LeastAllocated", "resources": [
        {"name": "cpu", "weight": 101}, {"name": "memory", "weight": -1}]}},
        [(A + ".scoringStrategy.resources[0].weight", "Invalid value: 101: resource weight of cpu not in valid range (0, 100]"),
         (A + ".scoringStrategy.resources[1].weight", "Invalid value: -1: resource weight of memory not in valid range (0, 100]")],
        id="fit-resource-weight"),
    pytest.param("NodeResourcesFit", {"scoringStrategy": {"type": "RequestedToCapacityRatio"}},
                 [(A + ".scoringStrategy.requestedToCapacityRatio",
                   "Required value: must be specified when type is RequestedToCapacityRatio")], id="fit-r2c-required"),
    pytest.param("NodeResourcesFit", {"scoringStrategy": {"type": "RequestedToCapacityRatio",
                                                          "requestedToCapacityRatio": {"shape": []}}},
                 [(A + ".scoringStrategy.requestedToCapacityRatio.shape",
                   "Required value: at least one point must be specified")], id="fit-shape-empty"),
    pytest.param("NodeResourcesFit", {"scoringStrategy": {"type": "RequestedToCapacityRatio",
                                                          "requestedToCapacityRatio": {"shape": [
                                                              {"utilization": 50, "score": 11},
                                                              {"utilization": 40, "score": 5},
                                                              {"utilization": 101, "score": -1}]}}},
                 [(A + ".scoringStrategy.requestedToCapacityRatio.shape[0].score", "Invalid value: 11: not in valid range [0, 10]"),
                  (A + ".scoringStrategy.requestedToCapacityRatio.shape[1].utilization",
                   "Invalid value: 40: values must be sorted in increasing order"),
                  (A + ".scoringStrategy.requestedToCapacityRatio.shape[2].score", "Invalid value: -1: not in valid range [0, 10]"),
                  (A + ".scoringStrategy.requestedToCapacityRatio.shape[2].utilization",
                   "Invalid value: 101: not in valid range [0, 100]")], id="fit-shape-points"),
    pytest.param("NodeResourcesFit", {"scoringStrategy": {"type": "MostAllocated",
                                                          "requestedToCapacityRatio": {"shape": [{"utilization": 0, "score": 1}]}}},
                 [(A + ".scoringStrategy.requestedToCapacityRatio",
                   "Forbidden: must be nil when type is not RequestedToCapacityRatio")], id="fit-r2c-forbidden"),
    pytest.param("NodeResourcesFit", {"ignoredResourceGroups": ["example.com/aa"]},
                 [(A + ".ignoredResourceGroups[0]", "Invalid value: \"example.com/aa\": resource group name can't contain '/'")],
                 id="fit-group-slash"),
    pytest.param("NodeResourcesFit", {"ignoredResources": ["-bad"]},
                 [(A + ".ignoredResources[0]", 'Invalid value: "-bad": name part must consist of alphanumeric '
                   "characters, '-', '_' or '.', and must start and end with an alphanumeric character "
                   + QNAME_REGEX)], id="fit-ignored-label-name"),
    pytest.param("NodeResourcesFit", {"scoringStrategy": {"type": "LeastAllocated", "shape": []}},
                 [(A + ".scoringStrategy.shape", 'unknown field "shape"; known fields: requestedToCapacityRatio, resources, type')],
                 id="fit-unknown-field"),
    # NodeResourcesBalancedAllocationArgs
    pytest.param("NodeResourcesBalancedAllocation", {"resources": [{"name": "cpu", "weight": 2}, {"name": "cpu"}]},
                 [(A + ".resources[0].weight", "Invalid value: 2: must be 1"),
                  (A + ".resources[1].name", 'Duplicate value: "cpu"')], id="balanced"),
    # InterPodAffinityArgs
    pytest.param("InterPodAffinity", {"hardPodAffinityWeight": 101},
                 [(A + ".hardPodAffinityWeight", "Invalid value: 101: not in valid range [0, 100]")], id="ipa-high"),
    pytest.param("InterPodAffinity", {"hardPodAffinityWeight": -1},
                 [(A + ".hardPodAffinityWeight", "Invalid value: -1: not in valid range [0, 100]")], id="ipa-low"),
    # PodTopologySpreadArgs
    pytest.param("PodTopologySpread", {"defaultingType": "Cluster"},
                 [(A + ".defaultingType", 'Unsupported value: "Cluster": supported values: "System", "List"')],
                 id="spread-defaulting-type"),
    pytest.param("PodTopologySpread", {"defaultConstraints": [
        {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "ScheduleAnyway"}]},
        [(A + ".defaultingType", 'Invalid value: "System": when .defaultConstraints are not empty')],
        id="spread-system-with-constraints"),
    pytest.param("PodTopologySpread", {"defaultingType": "List", "defaultConstraints": [
        {"maxSkew": 0, "topologyKey": "", "whenUnsatisfiable": "Later", "labelSelector": {}},
        {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "ScheduleAnyway"},
        {"maxSkew": 2, "topologyKey": "zone", "whenUnsatisfiable": "ScheduleAnyway"},
        {"maxSkew": 1, "topologyKey": "a/b/c"}]},
        [(A + ".defaultConstraints[0].labelSelector",
          "Forbidden: constraint must not define a selector, as they deduced for each pod"),
         (A + ".defaultConstraints[0].maxSkew", "Invalid value: 0: not in valid range (0, inf)"),
         (A + ".defaultConstraints[0].topologyKey", "Required value: can not be empty"),
         (A + ".defaultConstraints[0].whenUnsatisfiable",
          'Unsupported value: "Later": supported values: "DoNotSchedule", "ScheduleAnyway"'),
         (A + ".defaultConstraints[2]", 'Duplicate value: "{zone, ScheduleAnyway}"'),
         (A + ".defaultConstraints[3].topologyKey",
          'Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, \'-\', \'_\' '
          "or '.', and must start and end with an alphanumeric character " + QNAME_REGEX
          + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"),
         (A + ".defaultConstraints[3].whenUnsatisfiable", "Required value: can not be empty")],
        id="spread-constraints"),
    # DefaultPreemptionArgs
    pytest.param("DefaultPreemption", {"minCandidateNodesPercentage": 101, "minCandidateNodesAbsolute": -1},
                 [(A + ".minCandidateNodesAbsolute", "Invalid value: -1: not in valid range [0, inf)"),
                  (A + ".minCandidateNodesPercentage", "Invalid value: 101: not in valid range [0, 100]")],
                 id="preemption-ranges"),
    pytest.param("DefaultPreemption", {"minCandidateNodesPercentage": 0, "minCandidateNodesAbsolute": 0},
                 [(A + ".minCandidateNodesAbsolute",
                   "Invalid value: 0: cannot be zero at the same time as minCandidateNodesPercentage"),
                  (A + ".minCandidateNodesPercentage",
                   "Invalid value: 0: cannot be zero at the same time as minCandidateNodesAbsolute")],
                 id="preemption-both-zero"),
    pytest.param("DefaultPreemption", {"minCandidateNodesPercentage": "10%"},
                 [(A + ".minCandidateNodesPercentage", 'Invalid value: "10%": expected an integer')],
                 id="preemption-type"),
    # NodeAffinityArgs
    pytest.param("NodeAffinity", {"addedAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [{"matchExpressions": [
            {"key": "a", "operator": "Near", "values": ["x"]},
            {"key": "b", "operator": "In"},
            {"key": "c", "operator": "Exists", "values": ["x"]},
            {"key": "d", "operator": "Gt", "values": ["x", "2"]}],
            "matchFields": [{"key": "metadata.name", "operator": "In", "values": ["a", "b"]}]}]}}},
        [(A + ".addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator",
          'Invalid value: "Near": not a valid selector operator'),
         (A + ".addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[1].values",
          "Invalid value: []: for 'in', 'notin' operators, values set can't be empty"),
         (A + ".addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[2].values",
          'Invalid value: ["x"]: values set must be empty for exists and does not exist'),
         (A + ".addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[3].values",
          "Invalid value: [\"x\",\"2\"]: for 'Gt', 'Lt' operators, exactly one value is required"),
         (A + ".addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[3].values[0]",
          "Invalid value: \"x\": for 'Gt', 'Lt' operators, the value must be an integer"),
         (A + ".addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].values",
          'Invalid value: ["a","b"]: must have one element')],
        id="node-affinity-required"),
    pytest.param("NodeAffinity", {"addedAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [{"matchExpressions": [{"key": "a"}]}]}}},
        [(A + ".addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator",
          'Invalid value: "": not a valid selector operator')], id="node-affinity-no-operator"),
    pytest.param("NodeAffinity", {"addedAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
        {"weight": 1, "preference": {"matchFields": [{"key": "metadata.name", "operator": "Exists"}]}}]}},
        [(A + ".addedAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchFields[0].operator",
          'Invalid value: "Exists": not a valid selector operator')], id="node-affinity-preferred"),
    # Generic
    pytest.param("InterPodAffinity", {"hardPodAffinityWeigth": 2},
                 [(A + ".hardPodAffinityWeigth", 'unknown field "hardPodAffinityWeigth"; known fields: apiVersion, '
                   "hardPodAffinityWeight, ignorePreferredTermsOfExistingPods, kind")], id="unknown-args-field"),
    pytest.param("InterPodAffinity", {"kind": "DefaultPreemptionArgs"},
                 [(A + ".kind", 'Invalid value: "DefaultPreemptionArgs": has to match plugin args')], id="args-kind"),
    pytest.param("GangScheduling", {"timeout": 5},
                 [(A + ".timeout", 'unknown field "timeout"; plugin GangScheduling takes no args')], id="no-args-plugin"),
    pytest.param("InterPodAffinity", [1], [(A, "Invalid value: [1]: expected an object")], id="args-not-object"),
    pytest.param("VolumeBinding", {"bindTimeoutSeconds": -1},
                 [(A + ".bindTimeoutSeconds", "Invalid value: -1: invalid BindTimeoutSeconds, should not be a negative value")],
                 id="volume-binding"),
]


@pytest.mark.parametrize("plugin, args, expected", ARGS_ERRORS)
def test_args_errors(plugin, args, expected):
    assert problems(one(pluginConfig=[{"name": plugin, "args": args}])) == sorted(expected)


PLUGIN_CONFIG_ERRORS = [
    pytest.param([{"name": "Foo", "args": {}}],
                 [(cfg_path() + ".name", f'unknown plugin "Foo"; known plugins: {KNOWN}')], id="unknown-plugin"),
    pytest.param([{"name": "InterPodAffinity"}, {"name": "InterPodAffinity", "args": {"hardPodAffinityWeight": 200}}],
                 [(cfg_path(1), 'Duplicate value: "InterPodAffinity"')], id="duplicate"),
    pytest.param([{"args": {}}], [(cfg_path() + ".name", "Required value")], id="name-required"),
    pytest.param([{"name": "InterPodAffinity", "args": {"hardPodAffinityWeight": 200}},
                  {"name": "DefaultPreemption", "args": {"minCandidateNodesAbsolute": -5}},
                  {"name": "Nope"}],
                 [(cfg_path(0) + ".args.hardPodAffinityWeight", "Invalid value: 200: not in valid range [0, 100]"),
                  (cfg_path(1) + ".args.minCandidateNodesAbsolute", "Invalid value: -5: not in valid range [0, inf)"),
                  (cfg_path(2) + ".name", f'unknown plugin "Nope"; known plugins: {KNOWN}')], id="every-problem"),
]


@pytest.mark.parametrize("plugin_config, expected", PLUGIN_CONFIG_ERRORS)
def test_plugin_config_errors(plugin_config, expected):
    assert problems(one(pluginConfig=plugin_config)) == expected


def test_problems_across_profiles_are_reported_together():
    config = {"percentageOfNodesToScore": 120, "profiles": [
        {"schedulerName": "a", "plugins": {"score": {"enabled": [{"name": "Foo"}]}}},
        {"schedulerName": "b", "pluginConfig": [{"name": "InterPodAffinity", "args": {"hardPodAffinityWeight": -3}}]},
    ]}
    assert problems(config) == [
        ("percentageOfNodesToScore", "Invalid value: 120: not in valid range [0-100]"),
        ("profiles[0].plugins.score.enabled[0].name", f'unknown plugin "Foo"; known plugins: {KNOWN}'),
        ("profiles[1].pluginConfig[0].args.hardPodAffinityWeight", "Invalid value: -3: not in valid range [0, 100]"),
    ]


def test_problem_renders_with_file_kind_and_path():
    with pytest.raises(InputError) as exc:
        build_profiles({"percentageOfNodesToScore": 120}, {}, file="sched.yaml")
    assert str(exc.value) == (
        "sched.yaml: KubeSchedulerConfiguration: percentageOfNodesToScore: "
        "Invalid value: 120: not in valid range [0-100]"
    )


# ------------------------------------------------------------------------------------------------
# Not-applied plugins
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("config, expected", [
    # SchedulingGates is modelled (queue.py), so it is not listed
    pytest.param(None, ["DefaultBinder", "DynamicResources", "NodeDeclaredFeatures", "NodeVolumeLimits",
                        "VolumeBinding", "VolumeRestrictions", "VolumeZone"], id="default"),
    pytest.param(one({"multiPoint": {"disabled": [
        {"name": "DynamicResources"}, {"name": "NodeDeclaredFeatures"}, {"name": "NodeVolumeLimits"},
        {"name": "SchedulingGates"}, {"name": "VolumeBinding"}, {"name": "VolumeRestrictions"},
        {"name": "VolumeZone"}]}}), ["DefaultBinder"], id="volumes-and-dra-disabled"),
    pytest.param(one({"filter": {"enabled": [{"name": "EBSLimits"}]}}),
                 ["DefaultBinder", "DynamicResources", "EBSLimits", "NodeDeclaredFeatures", "NodeVolumeLimits",
                  "VolumeBinding", "VolumeRestrictions", "VolumeZone"], id="explicit-legacy"),
])
def test_describe_not_applied(config, expected):
    assert describe_not_applied(profile(config)) == expected


# ------------------------------------------------------------------------------------------------
# Properties: any input gives profiles or an InputError, never a crash; outputs are well formed
# ------------------------------------------------------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)
NAMES = st.sampled_from(sorted(KNOWN_PLUGINS) + ["*", "Foo", ""])
ENTRY = st.fixed_dictionaries({"name": NAMES}, optional={"weight": st.integers(-3, 120) | JSON})
PLUGIN_SET = st.fixed_dictionaries({}, optional={"enabled": st.lists(ENTRY, max_size=4),
                                                  "disabled": st.lists(ENTRY, max_size=3)})
PLUGINS = st.dictionaries(st.sampled_from(("multiPoint",) + EXTENSION_POINTS), PLUGIN_SET, max_size=4)
ARGS_PLUGINS = st.sampled_from(sorted(KNOWN_PLUGINS))
PLUGIN_CONFIG = st.lists(st.fixed_dictionaries({"name": ARGS_PLUGINS}, optional={"args": JSON}), max_size=3)
PROFILE = st.fixed_dictionaries({}, optional={
    "schedulerName": st.sampled_from(["a", "b", "", None]) | JSON,
    "plugins": PLUGINS | JSON,
    "pluginConfig": PLUGIN_CONFIG | JSON,
    "percentageOfNodesToScore": st.integers(-5, 105) | JSON,
})
CONFIG = st.fixed_dictionaries({}, optional={
    "profiles": st.lists(PROFILE, max_size=3) | JSON,
    "percentageOfNodesToScore": st.integers(-5, 105),
    "parallelism": st.integers(-1, 4),
}) | JSON
# The gates that shape profiles (the others cannot change a profile; locked ones refuse values).
GATES = st.dictionaries(st.sampled_from(["CompositePodGroup", "GenericWorkload", "PodGroupPreemptionPolicy",
                                         "TopologyAwareWorkloadScheduling", "WorkloadAwarePreemption"]),
                        st.booleans())


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=CONFIG, gates=GATES)
def test_any_configuration_gives_profiles_or_input_error(config, gates):
    try:
        profiles = build_profiles(config, gates, file="f.yaml")
    except InputError as exc:
        assert exc.problems and all(p.file == "f.yaml" for p in exc.problems)
        return
    assert profiles
    for name, prof in profiles.items():
        assert prof.scheduler_name == name
        assert len(prof.enabled("queueSort")) == 1 and prof.enabled("bind")
        for point in EXTENSION_POINTS:
            names = [r.name for r in prof.enabled(point)]
            assert len(names) == len(set(names)), point
            assert all(defaults.implements(n, point) for n in names), point
            if point in defaults.WEIGHTED_EXTENSION_POINTS:
                assert all(r.weight != 0 for r in prof.enabled(point))
            else:
                assert all(r.weight == 0 for r in prof.enabled(point))
            if defaults.extension_point_gated_off(point, resolve_feature_gates(gates)):
                assert names == []


def test_gate_and_configuration_problems_are_reported_together():
    with pytest.raises(InputError) as exc:
        build_profiles({"parallelism": 0}, {"Nope": True}, file="sched.yaml")
    assert [(p.file, p.path) for p in exc.value.problems] == [
        ("--feature-gates", None), ("sched.yaml", "parallelism")]
