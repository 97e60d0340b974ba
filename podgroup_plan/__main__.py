"""`python -m podgroup_plan ...`: the same command line as the `podgroup-plan` script
(`podgroup_plan.cli:main`), for a checkout that is not installed and for measuring start-up
(`python -X importtime -m podgroup_plan simulate ...`)."""
from podgroup_plan.cli import main

if __name__ == "__main__":
    main()
