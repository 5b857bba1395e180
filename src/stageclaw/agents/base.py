"""What an agent gets and what it gives back.

An agent sees an `EpisodeBrief` (the prompt, who the user is, the clock) and a tool registry;
never the task folder. It returns an `AgentOutcome`; its tool calls are in the registry's audit log.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from stageclaw.tools.registry import Registry

# Episode statuses: how the agent's turn ended.
COMPLETED = "completed"  # the agent said it was done
MAX_STEPS = "max_steps"  # it ran out of steps
BUDGET_EXHAUSTED = "budget_exhausted"  # it ran out of tokens or money
TIMEOUT = "timeout"  # it ran out of time
AGENT_ERROR = "agent_error"  # the agent program failed
INFRA_ERROR = "infra_error"  # a server or provider failed: retried, never scored
TASK_ERROR = "task_error"  # the task itself failed (its world did not build, grading broke): never scored
INTERRUPTED = "interrupted"  # the run was stopped (Ctrl-C): not recorded, `--resume` runs it again


@dataclass(frozen=True)
class EpisodeBrief:
    prompt: str
    user_name: str
    user_email: str
    now: str
    timezone: str
    max_steps: int
    time_budget_s: float


@dataclass
class AgentOutcome:
    status: str
    final_answer: str = ""
    error: str | None = None
    messages: list[dict[str, Any]] = field(default_factory=list)
    usage: dict[str, int] = field(default_factory=dict)
    cost_usd: float | None = 0.0


class Agent(Protocol):
    name: str
    config: dict[str, Any]  # recorded in every result line

    def run(self, brief: EpisodeBrief, registry: Registry) -> AgentOutcome: ...
