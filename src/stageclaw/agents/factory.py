"""Agents by their command-line name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from stageclaw.agents.base import Agent
from stageclaw.agents.external import CommandAgent, parse_bind, split_command
from stageclaw.agents.llm import PROVIDERS, LLMAgent, LLMSettings
from stageclaw.agents.play import PlayAgent, check_player
from stageclaw.agents.reference import NoopAgent, OracleAgent
from stageclaw.errors import StageclawError
from stageclaw.task.loader import Task

AGENTS = ("oracle", "noop")


def check_spec(spec: str, options: dict[str, Any] | None = None) -> None:
    """Raise a clear error for an agent name (and LLM options) that cannot work, before any episode runs."""
    if spec.startswith("cmd:"):
        split_command(spec.removeprefix("cmd:"))
        for bind in (options or {}).get("binds", ()):
            parse_bind(bind)
        return
    if spec.startswith("play:"):
        check_player(spec.removeprefix("play:"))
        return
    if spec.partition(":")[0] in PROVIDERS:
        try:
            LLMSettings.from_spec(spec, **(options or {}))
        except TypeError as exc:
            raise StageclawError(f"agent {spec!r}: bad option ({exc})") from None
        return
    if spec not in AGENTS and not spec.startswith("oracle:"):
        raise StageclawError(
            f"unknown agent {spec!r}; agents are: {', '.join(AGENTS)}, oracle:ALTERNATIVE, openai:MODEL, "
            "anthropic:MODEL, cmd:COMMAND, play:NAME"
        )


def make_agent(
    spec: str, task: Task, scratch: Path, options: dict[str, Any] | None = None, run_dir: Path | None = None
) -> Agent:
    """A fresh agent for one episode of `task`; only the oracle may look at the task's hidden folder.

    `scratch` is a folder outside the workspace the agent may use for its own files (created when needed).
    `options` are LLMSettings fields for `openai:`/`anthropic:` agents (base_url, temperature, budgets, ...);
    for `cmd:` agents, `binds` (`--agent-bind` specs) and `time_budget_s`; for `play:` agents, `time_budget_s`.
    `run_dir` is the run's folder, whose other episodes and results a `cmd:` program must not see, and
    where a `play:` episode writes play.json.
    """
    check_spec(spec)
    if spec.partition(":")[0] in PROVIDERS:
        return LLMAgent(spec, LLMSettings.from_spec(spec, **(options or {})))
    if spec.startswith("cmd:"):
        opts = options or {}
        private = (task.dir, *([run_dir] if run_dir else []))
        command = spec.removeprefix("cmd:")
        return CommandAgent(
            command, scratch, private, binds=opts.get("binds", ()), time_budget_s=opts.get("time_budget_s")
        )
    if spec.startswith("play:"):
        return PlayAgent(spec.removeprefix("play:"), run_dir or scratch, (options or {}).get("time_budget_s"))
    if spec == "oracle":
        return OracleAgent(task.solution_py)
    if spec.startswith("oracle:"):
        name = spec.removeprefix("oracle:")
        if name not in task.alternatives:
            known = ", ".join(task.alternatives) or "none"
            raise StageclawError(f"task {task.id} has no alternative solution {name!r} (it has: {known})")
        return OracleAgent(task.alternatives[name])
    return NoopAgent()
