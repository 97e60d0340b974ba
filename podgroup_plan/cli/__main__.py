"""`python -m podgroup_plan.cli ...`: the `podgroup-plan` command."""
from podgroup_plan.cli import main

if __name__ == "__main__":  # pragma: no cover
    main()
