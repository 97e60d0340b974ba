"""A quantity as the API server shows it in a message: `Quantity.String()` of the quantity it
decoded, after defaulting.

Mirrors k8s.io/apimachinery v0.37.0 `pkg/api/resource/quantity.go`: ParseQuantity (its int64
fast path keeps the text as written when it is already canonical: `500m`, `2`, `1Gi`, also
`+1`; other texts are held as a number and a format, a finer amount rounded away from zero to
nano units), `Quantity.RoundUp(-3)` from `SetDefaults_ResourceList` (pkg/apis/core/v1
defaults.go: every ResourceList of a pod, a pod template and a Node is rounded up to milli
units; the text as written is dropped only when the amount was finer), and CanonicalizeBytes
(`0.5` -> `500m`, `1.5Gi` -> `1536Mi`, `1000m` -> `1`, `2e3` -> `2e3`; a binary amount below
1024 or not whole in decimal: `0.5Ki` -> `512`). Used for the amounts field.Invalid shows: a negative quantity, a
non-integer extended resource, a request that differs from its limit.
"""
from __future__ import annotations

import re
from fractions import Fraction

from podgroup_plan.model.quantity import MAX_INT64

_DECIMAL_SI, _BINARY_SI, _DECIMAL_EXPONENT = "DecimalSI", "BinarySI", "DecimalExponent"
_DECIMAL = {"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
_BINARY = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
_DECIMAL_SUFFIX = {e: s for s, e in _DECIMAL.items()}
_BINARY_SUFFIX = {0: "", **{e: s for s, e in _BINARY.items()}}
# parseQuantityString: sign, integer digits, fraction digits, suffix
_PARTS = re.compile(r"([+-]?)([0-9]*)(?:\.([0-9]*))?(.*)")
_MAX_INT64_FACTORS = 18  # maxInt64Factors


def quantity_text(raw: str | int | float, defaulted: bool = True) -> str:
    """`Quantity.String()` of `raw` (a valid quantity, as written in a manifest); `defaulted`:
    after SetDefaults_ResourceList's RoundUp(-3) (a RuntimeClass's overhead has none)."""
    text = (repr(raw) if isinstance(raw, float) else str(raw)).strip()
    if text == "0":
        return "0"
    m = _PARTS.fullmatch(text)
    if m is None:
        return text  # not a quantity: the decoder reports it
    sign, digits, frac, suffix = m.group(1), m.group(2), m.group(3) or "", m.group(4)
    num = digits.lstrip("0") or "0"
    if suffix in _BINARY:
        fmt, base, exponent = _BINARY_SI, 2, _BINARY[suffix]
    elif suffix in _DECIMAL:
        fmt, base, exponent = _DECIMAL_SI, 10, _DECIMAL[suffix]
    elif suffix[:1] in ("e", "E"):
        fmt, base, exponent = _DECIMAL_EXPONENT, 10, int(suffix[1:])
    else:
        return text
    negative = sign == "-"
    value = Fraction(int(num + frac), 10 ** len(frac)) * (Fraction(base) ** exponent)
    if negative:
        value = -value
    kept: str | None = None  # the text as written, when ParseQuantity keeps it
    scale: int | None = None  # an int64Amount's scale; None: an inf.Dec amount
    if fmt == _BINARY_SI:
        precision = 15 - len(num) - int(exponent * 3 / 10) - 1 if exponent >= 0 and not frac else -1
        mantissa, int_scale = 1 << exponent, 0
    else:
        precision = _MAX_INT64_FACTORS - (len(num) + len(frac))
        mantissa, int_scale = 1, exponent
    if precision >= 0 and int_scale - len(frac) >= -9:
        int_scale -= len(frac)
        shifted = num + frac
        if abs(int(shifted) * mantissa) <= MAX_INT64:
            scale = int_scale
            if fmt == _BINARY_SI:
                canonical = exponent % 10 == 0 and int(shifted) & 0x07 != 0
            else:
                canonical = int_scale % 3 == 0 and not shifted.endswith("000") and shifted[0] != "0"
            kept = text if canonical else None
    if scale is None:  # the inf.Dec path: rounded away from zero to nano units, binary capped
        value = _away_from_zero(value, 9)
        if fmt == _BINARY_SI and abs(value) > MAX_INT64:
            value = Fraction(MAX_INT64) if value > 0 else Fraction(-MAX_INT64)
        if fmt == _BINARY_SI and 0 < abs(value) < 1:
            fmt = _DECIMAL_SI
    if defaulted and (scale is None or scale < -3):  # RoundUp(-3) keeps the text otherwise
        kept = None
        value = _away_from_zero(value, 3)
    return kept if kept is not None else _canonical(value, fmt)


def _away_from_zero(value: Fraction, digits: int) -> Fraction:
    scaled = value * 10**digits
    whole = -((-scaled.numerator) // scaled.denominator) if value > 0 else scaled.numerator // scaled.denominator
    return Fraction(whole, 10**digits)


def _canonical(value: Fraction, fmt: str) -> str:
    """CanonicalizeBytes."""
    if value == 0:
        return "0"
    if fmt == _BINARY_SI and (-1024 < value < 1024 or value.denominator != 1):
        fmt = _DECIMAL_SI  # "This avoids rounding and hopefully confusion, too" / no precision lost
    if fmt == _BINARY_SI:
        amount, times = int(value), 0
        while abs(amount) >= 1024 and amount % 1024 == 0:
            amount, times = amount // 1024, times + 1
        return f"{amount}{_BINARY_SUFFIX.get(times * 10, '')}"
    # AsCanonicalBytes: every factor of ten into the exponent, then down to a multiple of 3
    exponent = 0
    while value.denominator != 1:
        value, exponent = value * 10, exponent - 1
    amount = value.numerator
    while amount % 10 == 0:
        amount, exponent = amount // 10, exponent + 1
    while exponent % 3:
        amount, exponent = amount * 10, exponent - 1
    if fmt == _DECIMAL_EXPONENT:
        return f"{amount}e{exponent}" if exponent else str(amount)
    return f"{amount}{_DECIMAL_SUFFIX.get(exponent, '')}"
