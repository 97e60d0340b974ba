"""Kubernetes quantities (`k8s.io/apimachinery/pkg/api/resource`), as documented upstream."""
from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from podgroup_plan.model.quantity import parse_quantity, quantity_value, to_milli, to_value

Gi = 2**30


@pytest.mark.parametrize(
    "text, value",
    [
        # The Kubernetes docs' memory example: all roughly the same value.
        ("128974848", 128974848),
        (128974848, 128974848),
        ("129e6", 129_000_000),
        ("129M", 129_000_000),
        ("128974848000m", 128974848),
        ("123Mi", 123 * 2**20),
        # cpu: 0.5 is 500m
        ("0.5", Fraction(1, 2)),
        ("500m", Fraction(1, 2)),
        (0.5, Fraction(1, 2)),
        (0.1, Fraction(1, 10)),
        ("1.5Gi", Fraction(3, 2) * Gi),
        ("1Ki", 1024),
        ("1k", 1000),
        ("1M", 10**6),
        ("1G", 10**9),
        ("1T", 10**12),
        ("1P", 10**15),
        ("1E", 10**18),  # a bare E is exa, not an exponent
        ("1Ti", 2**40),
        ("1Pi", 2**50),
        ("1Ei", 2**60),
        ("100n", Fraction(1, 10**7)),
        ("1u", Fraction(1, 10**6)),
        ("1e3", 1000),
        ("1E3", 1000),
        ("1e+3", 1000),
        ("1.5e3", 1500),
        ("2E-3", Fraction(2, 1000)),
        ("+1", 1),
        ("-1", -1),
        ("-1.5Gi", -Fraction(3, 2) * Gi),
        (".5", Fraction(1, 2)),
        ("1.", 1),
        ("0", 0),
        (2, 2),
        (" 1Gi ", Gi),  # Quantity.UnmarshalJSON trims surrounding space
    ],
    ids=str,
)
def test_parse(text, value):
    assert parse_quantity(text) == value


@pytest.mark.parametrize(
    "text",
    ["1.2.3", "Mi", "1 Gi", "1Kb", "-", "1e", "", ".", "1K", "e3", "1.5e3.5", "1ki", "0x10",
     "1_000", "Infinity", "1e3Mi", "1Mi1", "--1", "1e1001", True, None, float("nan"), float("inf"),
     [1]],
    ids=repr,
)
def test_invalid(text):
    with pytest.raises(ValueError):
        parse_quantity(text)


def test_invalid_message_quotes_the_text():
    with pytest.raises(ValueError, match=r'^invalid quantity "1\.2\.3"$'):
        parse_quantity("1.2.3")


@pytest.mark.parametrize(
    "text, milli, value",
    [
        ("2", 2000, 2),
        ("500m", 500, 1),  # Value() rounds up
        ("1.5", 1500, 2),
        ("1n", 1, 1),  # MilliValue() rounds up too
        ("0.1m", 1, 1),
        ("1Gi", 1024**3 * 1000, 1024**3),
        ("0", 0, 0),
        ("-1.5", -1500, -2),  # away from zero, as upstream's scaling does
    ],
)
def test_units(text, milli, value):
    q = parse_quantity(text)
    assert (to_milli(q), to_value(q)) == (milli, value)


def test_quantity_value_uses_millicores_for_cpu_only():
    q = parse_quantity("1.5")
    assert quantity_value("cpu", q) == 1500
    assert quantity_value("memory", q) == 2


SUFFIXES = {"": 1, "k": 10**3, "M": 10**6, "G": 10**9, "m": Fraction(1, 1000),
            "Ki": 2**10, "Mi": 2**20, "Gi": 2**30}


@given(st.integers(min_value=0, max_value=10**12), st.sampled_from(sorted(SUFFIXES)))
def test_integer_with_suffix(n, suffix):
    expected = n * SUFFIXES[suffix]
    if suffix.endswith("i"):  # ParseQuantity caps binarySI amounts at 2^63-1
        expected = min(expected, 2**63 - 1)
    assert parse_quantity(f"{n}{suffix}") == expected


@given(st.integers(min_value=0, max_value=10**6), st.integers(min_value=0, max_value=999))
def test_decimal_fraction_equals_milli(whole, milli):
    assert parse_quantity(f"{whole}.{milli:03d}") == parse_quantity(f"{whole * 1000 + milli}m")
