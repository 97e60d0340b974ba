"""Resource quantities -> the scheduler's integer units.

Mirrors apimachinery's `resource.Quantity` as kube-scheduler reads it: a ResourceList's amounts,
then `MilliValue()` for cpu and `Value()` for everything else, both rounding up. Parsing itself
is `podgroup_plan.model.quantity`; this module keeps amounts exact while they are summed.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Mapping

from podgroup_plan.errors import shorten
from podgroup_plan.loading.decode_meta import Report
from podgroup_plan.loading.field_errors import invalid
from podgroup_plan.loading.quantity_text import quantity_text
from podgroup_plan.model.objects import CPU
from podgroup_plan.model.quantity import MAX_INT64, parse_quantity

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


def quantities(values: Mapping | None, path: tuple, report: Report, validated: bool = False) -> dict[str, int | Fraction]:
    """A ResourceList in nano-units; invalid or negative amounts are reported and dropped.
    `validated`: the API server's validation of this list (validate_resources.py) reports a
    negative amount, in its words and at its path, so it is dropped without a word here; the
    lists it does not validate (a pod's status) get ValidateNonnegativeQuantity's text."""
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
            if not validated:
                report(path + (name,), invalid(quantity_text(raw), "must be greater than or equal to 0"))
            continue
        if unit(name, a) > MAX_INT64:
            report(path + (name,), too_large(name, f'"{shorten(str(raw))}"'))
            continue
        out[name] = a
    return out


def too_large(name: str, what: str) -> str:
    """The problem of an amount past kube-scheduler's int64 accessors (model.quantity)."""
    if name == CPU:
        return (f"{what} is too large: kube-scheduler counts cpu in millicores in a 64-bit "
                f"integer, at most {MAX_INT64}m")
    return (f"{what} is too large: kube-scheduler counts {name} in a 64-bit integer, "
            f"at most {MAX_INT64}")


def check_total(total: Mapping[str, int], path: tuple, report: Report) -> dict[str, int]:
    """A pod's summed request in scheduler units; an amount that each container keeps within
    int64 can still overflow in the sum (upstream would wrap it): reported and dropped."""
    out = {}
    for name, value in total.items():
        if value > MAX_INT64:
            report(path, too_large(name, f"the pod's total {name} request ({value})"))
        else:
            out[name] = value
    return out
