"""`--fail-on`: the conditions a command line may give, and those that hold for a plan
(contract.md; `podgroup_plan/fail_on.py` decides, object by object, for this and for the JUnit
report alike)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from podgroup_plan.result import PlanResult

# The `--fail-on` choices, in the order the help and a wrong choice's answer list them.
FAIL_ON = ("unschedulable", "waiting", "preemption", "incomplete", "unplanned")


def fail_conditions(result: PlanResult, fail_on: Sequence[str]) -> list[str]:
    """The `--fail-on` conditions that hold, each as `CONDITION: what holds` (names from the
    input shown escaped: these lines go to stderr)."""
    from podgroup_plan.errors import escape_controls
    from podgroup_plan.fail_on import held

    return [escape_controls(line) for line in held(result, [str(f) for f in fail_on])]
