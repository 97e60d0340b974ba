"""field_errors' content checks answer a valid value with one regular expression (the common
case) and anything else with the full check: both paths must give the same answer."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from podgroup_plan.loading import field_errors

CHECKS = ["is_dns1123_label", "name_is_dns_label", "name_is_dns_subdomain", "is_dns1123_subdomain",
          "is_label_key", "is_label_value"]
TEXT = st.one_of(
    st.text(alphabet="ab0-_./Zé ", max_size=70),
    st.text(alphabet="ab0-.", min_size=60, max_size=260),
    st.builds(lambda p, n: f"{p}/{n}", st.text(alphabet="ab0-.", max_size=260), st.text(alphabet="aZ0-_.", max_size=70)),
)


@settings(max_examples=2000, deadline=None)
@given(TEXT)
def test_the_fast_answer_is_the_full_checks_answer(value):
    for name in CHECKS:
        assert getattr(field_errors, name)(value) == getattr(field_errors, "_" + name)(value), (name, value)
