"""Kubernetes resource quantities, parsed exactly.

Mirrors `k8s.io/apimachinery/pkg/api/resource` (`ParseQuantity`, `Quantity.MilliValue`,
`Quantity.Value`). The grammar, restated from the upstream doc comment:

    quantity        ::= signedNumber suffix
    signedNumber    ::= [ "+" | "-" ] number
    number          ::= digits | digits "." digits | digits "." | "." digits
    suffix          ::= binarySI | decimalSI | decimalExponent
    binarySI        ::= Ki | Mi | Gi | Ti | Pi | Ei
    decimalSI       ::= n | u | m | "" | k | M | G | T | P | E
    decimalExponent ::= ( "e" | "E" ) [ "+" | "-" ] digits

Values are exact `Fraction`s (upstream keeps an exact decimal too); rounding happens once, when a
caller converts to the scheduler's integer units with `to_milli` / `to_value`.

Limits, as upstream has them: parsing caps a binarySI quantity, silently, at 2^63-1 (`8Ei` and
`99999999999999999999Ei` parse as 9223372036854775807); a decimal quantity is not capped by
parsing, but kube-scheduler reads every amount through the int64 accessors (`MilliValue()` for
cpu, `Value()` else), which overflow past 2^63-1. `fits_int64` tells whether an amount survives
that; the loader reports one that does not as bad input instead of planning with a wrapped value.
"""
from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache

from podgroup_plan.errors import shorten

__all__ = ["parse_quantity", "to_milli", "to_value", "quantity_value", "fits_int64", "MAX_INT64"]

MAX_INT64 = 2**63 - 1  # upstream's maxAllowed: the cap of binarySI parsing, and int64's limit
# More significant integer digits than this can never fit any int64 accessor; refused before
# Python builds the integer (int() refuses more than 4,300 digits anyway).
_MAX_DIGITS = 64

_BINARY = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50, "Ei": 2**60}
_DECIMAL = {
    "n": Fraction(1, 10**9),
    "u": Fraction(1, 10**6),
    "m": Fraction(1, 10**3),
    "": Fraction(1),
    "k": Fraction(10**3),
    "M": Fraction(10**6),
    "G": Fraction(10**9),
    "T": Fraction(10**12),
    "P": Fraction(10**15),
    "E": Fraction(10**18),
}

# One regular expression for the whole grammar; the suffix alternatives are spelled out so that
# near-misses such as "1Kb", "1K", "1mi" or "1e" fail instead of being half-parsed.
_QUANTITY = re.compile(
    r"(?P<sign>[+-]?)"
    r"(?P<int>[0-9]*)(?:\.(?P<frac>[0-9]*))?"
    r"(?:(?P<bin>[KMGTPE]i)|[eE](?P<exp>[+-]?[0-9]+)|(?P<dec>[numkMGTPE]?))"
)


def _message(value: object) -> str:
    # The text users see in a Problem: `invalid quantity "1.2.3"` (a long text cut).
    shown = f'"{shorten(value)}"' if isinstance(value, str) else shorten(repr(value))
    return f"invalid quantity {shown}"


@lru_cache(maxsize=4096)
def _parse_text(text: str) -> Fraction:
    # Quantity.UnmarshalJSON trims surrounding white space before parsing; inner space is an error.
    m = _QUANTITY.fullmatch(text.strip())
    if m is None:
        raise ValueError(_message(text))
    digits, frac = m.group("int"), m.group("frac") or ""
    if not digits and not frac:  # "", "-", ".", "Mi": a number needs at least one digit
        raise ValueError(_message(text))
    digits = digits.lstrip("0")
    frac = frac.rstrip("0")
    if len(digits) > _MAX_DIGITS or len(frac) > _MAX_DIGITS * 4:
        # far past any int64 amount (or finer than anything but the nano rounding keeps)
        raise ValueError(f"{_message(text)}: too many digits")
    value = Fraction(int(digits + frac or "0"), 10 ** len(frac))
    if m.group("bin"):
        value *= _BINARY[m.group("bin")]
        if value > MAX_INT64:  # ParseQuantity: "The max is just a simple cap" (binarySI only)
            value = Fraction(MAX_INT64)
    elif m.group("exp") is not None:
        if len(m.group("exp").lstrip("+-")) > 10:  # upstream reads the exponent as an int32
            raise ValueError(_message(text))
        exp = int(m.group("exp"))
        if exp > 1000:  # far past any int64 amount; refuse rather than build huge integers
            raise ValueError(f"{_message(text)}: too large")
        if exp < -1000:  # ParseQuantity rounds a finer non-zero amount up to 1n
            value = Fraction(1, 10**9) if value else value
        else:
            value *= Fraction(10) ** exp
    else:
        value *= _DECIMAL[m.group("dec")]
    return -value if m.group("sign") == "-" else value


def parse_quantity(value: str | int | float) -> Fraction:
    """Parse a quantity as written in a manifest: a string, or a bare YAML/JSON number.

    Raises ValueError for anything Kubernetes would reject (the message quotes the input).
    """
    if isinstance(value, bool):  # YAML `true` is not a number, even though bool is an int
        raise ValueError(_message(value))
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(_message(value))
        # repr gives the shortest text that round-trips, i.e. what the user wrote (0.1 -> "0.1"),
        # which is what the apiserver parses from JSON.
        return _parse_text(repr(value))
    if isinstance(value, str):
        return _parse_text(value)
    raise ValueError(_message(value))


def _round_away_from_zero(q: Fraction) -> int:
    # Quantity.Value()/MilliValue() round a non-integral result away from zero ("rounding up").
    if q >= 0:
        return -((-q.numerator) // q.denominator)
    return q.numerator // q.denominator


def to_milli(q: Fraction) -> int:
    """`Quantity.MilliValue()`: the value in thousandths, rounded up (cpu in millicores)."""
    return _round_away_from_zero(q * 1000)


def to_value(q: Fraction) -> int:
    """`Quantity.Value()`: the value in whole units, rounded up (bytes, counts)."""
    return _round_away_from_zero(q)


def fits_int64(scheduler_units: int) -> bool:
    """Whether an amount in the scheduler's unit is what upstream's int64 accessor returns
    (rather than a wrapped value)."""
    return -MAX_INT64 - 1 <= scheduler_units <= MAX_INT64


def quantity_value(resource: str, q: Fraction) -> int:
    """A quantity in the scheduler's unit for `resource`: millicores for cpu, whole units else."""
    return to_milli(q) if resource == "cpu" else to_value(q)
