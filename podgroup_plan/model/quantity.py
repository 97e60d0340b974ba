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
"""
from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache

__all__ = ["parse_quantity", "to_milli", "to_value", "quantity_value"]

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
    # The text users see in a Problem: `invalid quantity "1.2.3"`.
    shown = f'"{value}"' if isinstance(value, str) else repr(value)
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
    value = Fraction(int(digits + frac or "0"), 10 ** len(frac))
    if m.group("bin"):
        value *= _BINARY[m.group("bin")]
    elif m.group("exp") is not None:
        exp = int(m.group("exp"))
        if abs(exp) > 1000:  # far beyond any resource; refuse rather than build huge integers
            raise ValueError(_message(text))
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


def quantity_value(resource: str, q: Fraction) -> int:
    """A quantity in the scheduler's unit for `resource`: millicores for cpu, whole units else."""
    return to_milli(q) if resource == "cpu" else to_value(q)
