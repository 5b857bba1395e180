"""Agents by their command-line name."""

from __future__ import annotations

from stageclaw.agents.base import Agent
from stageclaw.agents.reference import NoopAgent, OracleAgent
from stageclaw.errors import StageclawError
from stageclaw.task.loader import Task

AGENTS = ("oracle", "noop")


def check_spec(spec: str) -> None:
    if spec not in AGENTS:
        raise StageclawError(f"unknown agent {spec!r}; agents are: {', '.join(AGENTS)}")


def make_agent(spec: str, task: Task) -> Agent:
    """A fresh agent for one episode of `task`; only the oracle may look at the task's hidden folder."""
    check_spec(spec)
    if spec == "oracle":
        return OracleAgent(task.solution_py)
    return NoopAgent()
