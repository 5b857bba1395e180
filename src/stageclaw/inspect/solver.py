"""The model Inspect evaluates, as a stageclaw agent: a fresh world per sample, our tools, our budgets.

The episode runs as `stageclaw run` runs one (`stageclaw.run.episode.play`) on a worker thread; the
agent in it hands each model turn back to Inspect's event loop, where the sample's model, transcript
and limits live. The states and the trajectory go into the sample's store for the scorer.
"""

from __future__ import annotations

import json
import threading
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

import anyio
from inspect_ai.model import ChatMessageSystem
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import Tool, ToolDef, ToolError, ToolParams
from inspect_ai.util import LimitExceededError, time_limit

from stageclaw.agents.base import (
    BUDGET_EXHAUSTED,
    COMPLETED,
    INTERRUPTED,
    MAX_STEPS,
    TIMEOUT,
    AgentOutcome,
    EpisodeBrief,
)
from stageclaw.agents.llm import system_prompt
from stageclaw.inspect.dataset import task_of
from stageclaw.run.episode import play, trace_of
from stageclaw.tools.audit import AuditLog
from stageclaw.tools.faults import FaultPlan
from stageclaw.tools.registry import Registry
from stageclaw.world.pool import ServicePool

STORE_KEY = "stageclaw"  # the sample store entry: {s0, sH, trace, error}

# The status an Inspect limit ends the episode with; any other limit (cost, tokens, ...) is a spent budget.
LIMIT_STATUS = {"time": TIMEOUT, "working": TIMEOUT, "message": MAX_STEPS, "turn": MAX_STEPS}

_pool: ServicePool | None = None
_pool_lock = threading.Lock()


def shared_pool() -> ServicePool:
    """This process's service pool, started on first use; its servers stop when the process exits.

    The servers die with the thread that started them (PDEATHSIG). The first sample starts the pool on
    the thread that runs the eval (Inspect's event loop), which outlives the samples; should that thread
    end early (an eval run from a short-lived thread), the next sample finds the servers gone and starts
    a new pool.
    """
    global _pool
    with _pool_lock:
        if _pool is not None:
            try:
                _pool.check()
            except Exception:
                _pool.stop()
                _pool = None
        if _pool is None:
            _pool = ServicePool().start()
        return _pool


def stop_pool() -> None:
    """Stop the shared pool now instead of at exit (tests, notebooks)."""
    global _pool
    with _pool_lock:
        if _pool is not None:
            _pool.stop()
            _pool = None


def inspect_tools(registry: Registry) -> list[Tool]:
    """The episode's tools as Inspect tools, with their names, descriptions and JSON Schemas.

    Every call goes through the registry: validated, maybe faulted, audited. A failed call is a tool
    error for the model; a result is its JSON text, as the built-in LLM agent gets it.
    """
    return [_inspect_tool(registry, spec) for spec in registry.specs()]


def _inspect_tool(registry: Registry, spec: dict[str, Any]) -> Tool:
    name = spec["name"]

    async def call(**kwargs: Any) -> str:
        # Tools block on network and disk: off the event loop, one at a time (the registry serializes them).
        outcome = await anyio.to_thread.run_sync(registry.invoke, name, kwargs)
        if not outcome["ok"]:
            raise ToolError(outcome["error"])
        return json.dumps(outcome["result"], ensure_ascii=False)

    params = ToolParams.model_validate(spec["input_schema"])
    return ToolDef(call, name=name, description=spec["description"], parameters=params).as_tool()


class InspectAgent:
    """The model under evaluation as a stageclaw agent: one step is one model turn and its tool calls.

    It ends like the built-in LLM agent: a turn without tool calls completes; `max_steps` turns or
    `time_budget_s` seconds (the task's, unless given) end it as `max_steps` or `timeout`; an Inspect
    limit (tokens, cost, messages) ends it with the matching status. The world is graded in every case.
    """

    name = "inspect"
    config: ClassVar[dict[str, Any]] = {}

    def __init__(
        self, state: TaskState, generate: Generate, max_steps: int | None = None, time_budget_s: float | None = None
    ) -> None:
        self.state = state
        self.generate = generate
        self.max_steps = max_steps
        self.time_budget_s = time_budget_s

    def run(self, brief: EpisodeBrief, registry: Registry) -> AgentOutcome:
        # Called on the episode's worker thread: the turns belong on Inspect's event loop.
        return anyio.from_thread.run(self._turns, brief, registry)

    async def _turns(self, brief: EpisodeBrief, registry: Registry) -> AgentOutcome:
        state = self.state
        state.tools = inspect_tools(registry)
        state.messages.insert(0, ChatMessageSystem(content=system_prompt(brief)))
        max_steps = self.max_steps or brief.max_steps
        try:
            with time_limit(self.time_budget_s or brief.time_budget_s):
                for _ in range(max_steps):
                    if registry.stopped:
                        return AgentOutcome(INTERRUPTED, error="the sample was cancelled")
                    state = await self.generate(state, tool_calls="single")
                    if state.completed or not state.output.message.tool_calls:
                        return AgentOutcome(COMPLETED, state.output.completion)
        except LimitExceededError as exc:
            return AgentOutcome(LIMIT_STATUS.get(exc.type, BUDGET_EXHAUSTED), state.output.completion, exc.message)
        return AgentOutcome(MAX_STEPS, error=f"the step budget of {max_steps} model turns is spent")


@solver
def stageclaw_agent(
    max_steps: int | None = None, time_budget_s: float | None = None, faults: str | None = None
) -> Solver:
    """Run the sample's task as a stageclaw episode with the model as its agent.

    Args:
      max_steps: Model turns per sample (default: the task's max_steps).
      time_budget_s: Seconds per sample (default: the task's time_budget_s).
      faults: A fault plan (TOML) injected into the tool calls, as `stageclaw run --faults`.
    """
    plan = FaultPlan.load(Path(faults)) if faults else None

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        task = task_of(state)
        agent = InspectAgent(state, generate, max_steps, time_budget_s)
        audit = AuditLog()
        stop = threading.Event()
        episode = partial(play, shared_pool(), task, agent, audit, faults=plan, stop=stop)
        try:
            # The episode's thread waits for the model's turns, which need worker threads for their tool calls:
            # a limiter of its own keeps episodes from taking every thread of the default one. A server failure
            # raises out of here: Inspect records a sample error (retried with --retry-on-error), never a score,
            # like an infra_error of `stageclaw run`.
            s0, sH, outcome = await anyio.to_thread.run_sync(
                episode, abandon_on_cancel=True, limiter=anyio.CapacityLimiter(1)
            )
        except anyio.get_cancelled_exc_class():
            stop.set()  # Ctrl-C or an Inspect limit: the agent stops at its next turn or call; the world is removed
            raise
        state.store.set(STORE_KEY, {"s0": s0, "sH": sH, "trace": trace_of(audit, outcome), "error": outcome.error})
        return state

    return solve
