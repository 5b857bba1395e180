"""Stage 2: the checker. Structure, reproducibility, verifiability (with mutation testing) and
difficulty of a task, weighted to a 100-point score; rejected tasks carry diagnostics for repair.
"""

from stageclaw.validate.checker import validate_path, validate_task
from stageclaw.validate.report import Report

__all__ = ["Report", "validate_path", "validate_task"]
