"""Where the known-field tables come from (tools/knownfields): the Kubernetes API's kinds from
k8s.io/api by the Go generator, JobSet's and the operators' from the field names of their Go API
types (operators.py, reading a checkout given on its command line; none of their code is kept in
this repository). The parser is checked on Go text written here, and the committed tables for
their shape; with KNOWNFIELDS_REPOS set (the TRAINER, LWS, KUBERAY and JOBSET git directories,
separated by spaces) operators.py is run and must write the committed module byte for byte."""
from __future__ import annotations

import contextlib
import importlib.util
import io
import os
import re
from pathlib import Path

import pytest

from podgroup_plan.loading import known_fields as kf
from podgroup_plan.loading import known_fields_operators, known_fields_v1_37

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "knownfields"


def _operators_tool():
    spec = importlib.util.spec_from_file_location("knownfields_operators_tool", TOOL / "operators.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


WIDGET_GO = '''package v9

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	other "example.com/other/v1"
)

type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec WidgetSpec   `json:"spec"`
}

type WidgetSpec struct {
	Common `json:",inline"`
	// Parts: a comment quoting a tag, `json:"notAField"`, is not a field
	Parts    []*Part                  `json:"parts,omitempty"`
	ByName   map[string]Part          `json:"byName,omitempty"`
	Labels   map[string]string        `json:"labels,omitempty"`
	Template corev1.PodTemplateSpec   `json:"template"`
	Set      jobsetv1alpha2.JobSetSpec `json:"set,omitempty"`
	Foreign  other.Thing              `json:"foreign,omitempty"`
	Secret   string                   `json:"-"`
	Mode     Mode                     `json:"mode,omitempty"`
}

type Common struct {
	Suspend *bool `json:"suspend,omitempty"`
}

type Part struct {
	Name string `json:"name"`
	Next *Part  `json:"next,omitempty"`
}

type Mode string
'''


@pytest.mark.parametrize("jobset_known", [False, True])
def test_the_go_text_parser_keeps_field_names_and_shapes(jobset_known):
    tool = _operators_tool()
    structs, aliases = tool.read_package([WIDGET_GO])
    known = {"core/v1.PodTemplateSpec": {}, "meta/v1.ObjectMeta": {}}
    if jobset_known:  # read before (operators.py reads JobSet first, for Trainer)
        known["jobsetv1alpha2.JobSetSpec"] = {}
    types, visit = tool.build("v9", structs, aliases, known)
    visit("Widget")
    assert types == {
        "v9.Widget": {"apiVersion": "", "kind": "", "metadata": "meta/v1.ObjectMeta", "spec": "v9.WidgetSpec"},
        "v9.WidgetSpec": {"suspend": "", "parts": "[]v9.Part", "byName": "{}v9.Part", "labels": "",
                          "template": "core/v1.PodTemplateSpec",
                          "set": "jobsetv1alpha2.JobSetSpec" if jobset_known else "",
                          "foreign": "", "mode": ""},
        "v9.Part": {"name": "", "next": "v9.Part"},
    }


def test_jobset_is_in_the_operators_table_and_not_the_go_generators():
    assert kf.type_of("jobset.x-k8s.io/v1alpha2", "JobSet") == "jobsetv1alpha2.JobSet"
    assert known_fields_operators.KINDS["jobset.x-k8s.io/v1alpha2/JobSet"] == "jobsetv1alpha2.JobSet"
    assert not [t for t in known_fields_v1_37.TYPES if t.startswith("jobsetv1alpha2.")]
    spec = known_fields_operators.TYPES["jobsetv1alpha2.JobSetSpec"]
    assert spec["replicatedJobs"] == "[]jobsetv1alpha2.ReplicatedJob"
    assert known_fields_operators.TYPES["jobsetv1alpha2.ReplicatedJob"]["template"] == "batch/v1.JobTemplateSpec"


def test_every_type_a_table_names_is_in_the_tables():
    # Trainer's types name jobsetv1alpha2.JobSetSpec, JobSet's name batch/v1.JobTemplateSpec: the
    # generators must write every type they refer to
    named = {ref.removeprefix("[]").removeprefix("{}") for fields in kf.TYPES.values() for ref in fields.values()}
    named |= set(kf.KINDS.values())
    assert sorted(named - {""} - set(kf.TYPES)) == []
    assert any("jobsetv1alpha2.JobSetSpec" in fields.values() for name, fields in kf.TYPES.items()
               if name.startswith("trainerv1alpha1."))


def test_the_go_generator_holds_only_its_own_package():
    # tools/knownfields reflects over k8s.io/api only; no other project's Go package is kept here
    go_files = sorted(p.relative_to(TOOL).as_posix() for p in TOOL.rglob("*.go"))
    assert go_files and all("/" not in f for f in go_files)
    for f in go_files:
        text = (TOOL / f).read_text(encoding="utf-8")
        assert re.search(r"^package main$", text, re.M), f
        assert "jobset" not in text.lower(), f


@pytest.mark.skipif(not os.environ.get("KNOWNFIELDS_REPOS"), reason="needs KNOWNFIELDS_REPOS (four git directories)")
def test_operators_py_writes_the_committed_module():
    repos = os.environ["KNOWNFIELDS_REPOS"].split()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = _operators_tool().main(repos)
    assert status == 0  # no CRD property missing from the tables
    assert out.getvalue() == Path(known_fields_operators.__file__).read_text(encoding="utf-8")
