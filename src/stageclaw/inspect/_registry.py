"""What Inspect loads through the `inspect_ai` entry point: `stageclaw/<task>`, the solver and the scorer."""

from stageclaw.inspect.scorer import stageclaw_grade
from stageclaw.inspect.solver import stageclaw_agent
from stageclaw.inspect.tasks import benchmark, examples, stage40

__all__ = ["benchmark", "examples", "stage40", "stageclaw_agent", "stageclaw_grade"]
