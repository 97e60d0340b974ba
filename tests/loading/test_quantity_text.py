"""quantity_text: Quantity.String() of a quantity as the API server holds it. The expected
texts are what k8s.io/apimachinery v0.37.0 gives (ParseQuantity, then RoundUp(-3) as
SetDefaults_ResourceList does, then String()), checked with a Go program over these and 20,000
random quantities."""
from __future__ import annotations

import pytest

from podgroup_plan.loading.quantity_text import quantity_text

# text -> (String() as parsed, String() after RoundUp(-3))
UPSTREAM = {
    "-1": ("-1", "-1"), "500m": ("500m", "500m"), "0.5": ("500m", "500m"), "2": ("2", "2"),
    "1.5": ("1500m", "1500m"), "1000m": ("1", "1"), "1Gi": ("1Gi", "1Gi"), "1.5Gi": ("1536Mi", "1536Mi"),
    "1024": ("1024", "1024"), "2e3": ("2e3", "2e3"), "1E3": ("1E3", "1E3"), "+1": ("+1", "+1"),
    "-0.5": ("-500m", "-500m"), "1u": ("1u", "1m"), "-1u": ("-1u", "-1m"), "1n": ("1n", "1m"),
    "-1.5Gi": ("-1536Mi", "-1536Mi"), "1025Ki": ("1025Ki", "1025Ki"), "1000": ("1k", "1k"),
    "012": ("012", "012"), "0.0": ("0", "0"), "1e-3": ("1e-3", "1e-3"), "1000E": ("1", "1"),
    "9Ei": ("9223372036854775807", "9223372036854775807"), "1.0000000001": ("1000000001n", "1001m"), "8Ki": ("8Ki", "8Ki"),
    "0.5Ki": ("512", "512"), "-2e-4": ("-200e-6", "-1e-3"), "1000k": ("1M", "1M"),
}


@pytest.mark.parametrize("text", UPSTREAM)
def test_the_api_servers_text_of_a_quantity(text):
    assert (quantity_text(text, defaulted=False), quantity_text(text)) == UPSTREAM[text]


def test_numbers_as_yaml_gives_them():
    """A bare YAML number reaches the API server as JSON's number text."""
    assert quantity_text(2) == "2" and quantity_text(0.5) == "500m" and quantity_text(-1.5) == "-1500m"
