"""The oracle runs a task's reference solution through the same tools any agent gets, proving the
task is solvable with the public tools; noop does nothing, proving doing nothing fails."""

from __future__ import annotations

import importlib.util
import traceback
from pathlib import Path
from typing import Any, ClassVar

from stageclaw.agents.base import AGENT_ERROR, COMPLETED, AgentOutcome, EpisodeBrief
from stageclaw.tools.base import ToolError
from stageclaw.tools.registry import Registry


class OracleAgent:
    name = "oracle"
    config: ClassVar[dict[str, Any]] = {}

    def __init__(self, solution_py: Path) -> None:
        self.solution_py = solution_py

    def run(self, brief: EpisodeBrief, registry: Registry) -> AgentOutcome:
        try:
            spec = importlib.util.spec_from_file_location(f"solution_{abs(hash(self.solution_py))}", self.solution_py)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            answer = module.solve(registry.proxy)
        except ToolError as exc:
            return AgentOutcome(AGENT_ERROR, error=f"the reference solution's tool call failed: {exc.message}")
        except Exception as exc:
            where = traceback.format_exception(exc)[-2].strip() if exc.__traceback__ else ""
            return AgentOutcome(
                AGENT_ERROR, error=f"the reference solution failed: {type(exc).__name__}: {exc} {where}"
            )
        return AgentOutcome(COMPLETED, final_answer=answer if isinstance(answer, str) else "")


class NoopAgent:
    name = "noop"
    config: ClassVar[dict[str, Any]] = {}

    def run(self, brief: EpisodeBrief, registry: Registry) -> AgentOutcome:
        return AgentOutcome(COMPLETED, final_answer="")
