"""Resource quantities -> the scheduler's integer units.

Mirrors apimachinery's `resource.Quantity` as kube-scheduler reads it: a ResourceList's amounts,
then `MilliValue()` for cpu and `Value()` for everything else, both rounding up. Parsing itself
is `podgroup_plan.model.quantity`; this module keeps amounts exact while they are summed.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Mapping

from podgroup_plan.loading.decode_meta import Report
from podgroup_plan.model.objects import CPU
from podgroup_plan.model.quantity import parse_quantity

# Amounts are kept in nano-units while they are summed: exact integers for every suffix down to
# `n` (Fraction only for rarer, finer amounts such as 1e-12), and integer arithmetic is many times
# faster than Fraction's. Rounding to scheduler units happens once, on the pod's total.
NANO = 10**9
_AMOUNTS: dict = {}  # quantity as written -> nano amount; the same few texts recur in every pod


def amount(raw: str | int | float) -> int | Fraction:
    """A quantity in nano-units (exact). Raises ValueError as `parse_quantity` does."""
    if raw.__class__ is not bool:  # True == 1 as a dict key; never a quantity
        known = _AMOUNTS.get(raw)
        if known is not None:
            return known
    q = parse_quantity(raw) * NANO
    value = q.numerator if q.denominator == 1 else q
    if len(_AMOUNTS) < 100_000:
        _AMOUNTS[raw] = value
    return value


def in_units(values: Mapping[str, int | Fraction]) -> dict[str, int]:
    """Nano amounts -> scheduler units (millicores for cpu, whole units else), rounded up as
    `Quantity.MilliValue()` / `Value()` round."""
    return {name: unit(name, a) for name, a in values.items()}


def unit(name: str, a: int | Fraction) -> int:
    return -(-a // 1_000_000) if name == CPU else -(-a // NANO)


def quantities(values: Mapping | None, path: tuple, report: Report) -> dict[str, int | Fraction]:
    """A ResourceList in nano-units; invalid or negative amounts are reported and dropped."""
    out: dict[str, int | Fraction] = {}
    if not values:
        return out
    for name, raw in values.items():
        try:
            a = amount(raw)
        except ValueError as e:
            report(path + (name,), str(e))
            continue
        if a < 0:
            report(path + (name,), f"must be greater than or equal to 0, got {raw}")
            continue
        out[name] = a
    return out
