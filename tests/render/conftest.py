import sys
from pathlib import Path

# sample_plans.py (hand-built PlanResults) is shared with tests/cli.
sys.path.insert(0, str(Path(__file__).parent))
