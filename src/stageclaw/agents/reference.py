"""The oracle runs a task's reference solution (or an alternative) through the same tools any agent
gets, proving the task is solvable with the public tools; noop does nothing, proving doing nothing
fails. The solution runs jailed in a process of its own (`agents.solution`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from stageclaw.agents.base import COMPLETED, AgentOutcome, EpisodeBrief
from stageclaw.agents.solution import ToolCaller, run_solution
from stageclaw.tools.registry import Registry


class OracleAgent:
    name = "oracle"
    config: ClassVar[dict[str, Any]] = {}

    def __init__(self, solution_py: Path) -> None:
        self.solution_py = solution_py

    def run(self, brief: EpisodeBrief, registry: ToolCaller) -> AgentOutcome:
        return run_solution(self.solution_py, registry, brief.time_budget_s)


class NoopAgent:
    name = "noop"
    config: ClassVar[dict[str, Any]] = {}

    def run(self, brief: EpisodeBrief, registry: Registry) -> AgentOutcome:
        return AgentOutcome(COMPLETED, final_answer="")
