"""What a user of a v1.37.0 cluster meets on the command line: the version, configuration fields
v1.37.0 does not have, a pasted `--feature-gates` line, and the gates the plan ran under."""
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from podgroup_plan.cli import app

HERE = Path(__file__).parent
MANIFESTS = HERE / "manifests"
CONFIGS = HERE / "configs"

NOT_IN_137 = "(not in kube-scheduler v1.37.0; added in 1.38-dev)"


def run(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def test_version_names_v1_37_0():
    result = run("--version")
    assert result.exit_code == 0 and result.stdout.endswith("(kube-scheduler v1.37.0)\n")


@pytest.mark.parametrize("command", ["simulate", "validate"])
def test_percentage_of_placements_to_score_is_refused(command):
    f = CONFIGS / "v1-38-percentage-of-placements.yaml"
    result = run(command, MANIFESTS, "--scheduler-config", f)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        f'{f}:4: KubeSchedulerConfiguration: percentageOfPlacementsToScore: unknown field '
        f'"percentageOfPlacementsToScore" {NOT_IN_137}',
        f'{f}:8: KubeSchedulerConfiguration: profiles[0].percentageOfPlacementsToScore: unknown field '
        f'"percentageOfPlacementsToScore" {NOT_IN_137}',
    ]


def test_placement_feasible_plugin_set_is_refused_also_among_the_manifests(tmp_path):
    f = CONFIGS / "v1-38-placement-feasible.yaml"
    result = run("simulate", MANIFESTS, f)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f'{f}:8: KubeSchedulerConfiguration: profiles[0].plugins.placementFeasible: unknown field '
        f'"placementFeasible" {NOT_IN_137}']


def test_a_pasted_flag_line_plans_and_says_what_it_did_not_model():
    line = ("--feature-gates=DRAWorkloadResourceClaims=true,NodeDeclaredFeatures=true,"
            "GenericWorkload=true,TopologyAwareWorkloadScheduling=false,ContextualLogging=true")
    result = run("simulate", MANIFESTS, "-o", "json", line)
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    # TopologyAwareWorkloadScheduling=false and NodeDeclaredFeatures=true are v1.37.0's
    # defaults: not listed; a gate not modelled but set away from its default is
    assert doc["featureGates"] == {"CompositePodGroup": True, "DRAWorkloadResourceClaims": True,
                                   "GenericWorkload": True, "PodGroupPreemptionPolicy": True,
                                   "WorkloadWithJob": True}
    assert ("feature gates accepted but not modelled (they change nothing in this plan): "
            "ContextualLogging=true, DRAWorkloadResourceClaims=true, NodeDeclaredFeatures=true") in doc["notes"]


def test_a_locked_gate_set_away_from_its_default_exits_2():
    result = run("simulate", MANIFESTS, "--feature-gates", "NodeDeclaredFeatures=false")
    assert result.exit_code == 2
    assert result.stderr == ("--feature-gates: cannot set feature gate NodeDeclaredFeatures to false, "
                             "feature is locked to true\n")


def test_the_table_header_names_the_planners_gate_defaults():
    result = run("simulate", MANIFESTS, "-o", "table")
    assert ("planner defaults: gang scheduling on (CompositePodGroup, GenericWorkload, PodGroupPreemptionPolicy, "
            "TopologyAwareWorkloadScheduling, WorkloadWithJob; off in a stock v1.37.0); --feature-gates to match a "
            "stock cluster") in " ".join(result.stdout.split())
    assert "you set" not in result.stdout
    mine = run("simulate", MANIFESTS, "-o", "table", "--feature-gates", "WorkloadAwarePreemption=false")
    assert "feature gates you set: WorkloadAwarePreemption=false" in " ".join(mine.stdout.split())
    upstream = run("simulate", MANIFESTS, "-o", "markdown", "--feature-gates",
                   "CompositePodGroup=false,PodGroupPreemptionPolicy=false,TopologyAwareWorkloadScheduling=false,"
                   "GenericWorkload=false,WorkloadWithJob=false")
    assert "planner defaults" not in upstream.stdout and "you set" not in upstream.stdout
