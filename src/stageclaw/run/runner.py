"""The scheduler: every task x trial as an episode, over one service pool, resumable.

Episodes run on `workers` threads sharing one pool (each has its own accounts and workspace).
A finished episode's line is in results.jsonl before the next starts on that worker. Ctrl-C
stops handing out episodes and tells running agents to stop (their tool calls fail, LLM loops and
agent programs end); those episodes are not recorded, and `--resume` completes the run.
An episode that ended in an infrastructure error is retried (`infra_retries` times) before its
infra_error line is written.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stageclaw.agents.base import INFRA_ERROR
from stageclaw.agents.factory import check_spec
from stageclaw.grade.grader import Judge
from stageclaw.run.episode import run_episode
from stageclaw.run.store import SUMMARY, ResultStore, write_json
from stageclaw.task.loader import Task
from stageclaw.tools.faults import FaultPlan
from stageclaw.world.pool import ServicePool


@dataclass
class RunConfig:
    agent: str
    out: Path
    trials: int = 1
    workers: int = 1
    resume: bool = False
    infra_retries: int = 2
    agent_options: dict[str, Any] = field(default_factory=dict)
    faults: FaultPlan | None = None

    def identity(self) -> dict[str, Any]:
        """The settings results depend on; trials, workers and the output folder may change on resume."""
        options = {k: v for k, v in self.agent_options.items() if k not in {"api_key", "prices"}}
        return {
            "agent": self.agent,
            "agent_options": options,
            "faults": self.faults.model_dump() if self.faults else None,
        }


def summarize(results: list[dict[str, Any]], config: RunConfig, load_errors: dict[str, str]) -> dict[str, Any]:
    scored = [r for r in results if r.get("score") is not None]
    return {
        "agent": config.agent,
        "episodes": len(results),
        "scored": len(scored),
        "mean_score": round(sum(r["score"] for r in scored) / len(scored), 2) if scored else None,
        "success_rate": round(sum(1 for r in scored if r["success"]) / len(scored), 4) if scored else None,
        "infra_errors": sum(1 for r in results if r["status"] == INFRA_ERROR),
        "defective_tasks": sorted({r["task_id"] for r in results if r.get("defects")}),
        "tool_calls": sum(r["steps"] for r in results),
        "tool_errors": sum(r["tool_errors"] for r in results),
        "cost_usd": round(sum(r.get("cost_usd") or 0 for r in results), 6),
        "wall_s": round(sum(r["wall_s"] for r in results), 3),
        "trials": config.trials,
        "load_errors": load_errors,
    }


def run(
    tasks: list[Task],
    config: RunConfig,
    *,
    load_errors: dict[str, str] | None = None,
    judge: Judge | None = None,
    on_result: Callable[[dict[str, Any]], None] | None = None,
    stop: threading.Event | None = None,
) -> dict[str, Any]:
    """Run every episode not yet in the store; returns the summary (also written to summary.json)."""
    check_spec(config.agent, config.agent_options)
    store = ResultStore(config.out, config.resume, config.identity())
    done = store.done()
    todo = [(t, n) for t in tasks for n in range(1, config.trials + 1) if (t.id, n) not in done]
    stop = stop or threading.Event()

    def one(task: Task, trial: int, pool: ServicePool) -> dict[str, Any]:
        for _ in range(config.infra_retries + 1):
            result = run_episode(
                pool,
                task,
                config.agent,
                trial,
                store.episode_dir(task.id, trial),
                judge,
                agent_options=config.agent_options,
                faults=config.faults,
                stop=stop,
            )
            if result["status"] != INFRA_ERROR or stop.is_set():
                break
        # An episode that saw the run stop is not recorded: `--resume` runs it again whole.
        if not stop.is_set():
            store.append(result)
        return result

    try:
        if todo:
            with ServicePool() as pool, ThreadPoolExecutor(max(1, config.workers), thread_name_prefix="episode") as ex:
                _drain(todo, lambda t, n: ex.submit(one, t, n, pool), config.workers, stop, on_result)
    finally:
        summary = summarize(store.results(), config, load_errors or {})
        write_json(config.out / SUMMARY, summary)
    return summary


def _drain(
    todo: list[tuple[Task, int]],
    submit: Callable[[Task, int], Future[dict[str, Any]]],
    workers: int,
    stop: threading.Event,
    on_result: Callable[[dict[str, Any]], None] | None,
) -> None:
    """Keep `workers` episodes running until the queue is empty; on Ctrl-C let the running ones finish."""
    queue = list(todo)
    running: set[Future[dict[str, Any]]] = set()
    try:
        while queue or running:
            while queue and len(running) < workers and not stop.is_set():
                running.add(submit(*queue.pop(0)))
            if not running:
                return
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for fut in finished:
                result = fut.result()
                if on_result is not None:
                    on_result(result)
    except KeyboardInterrupt:
        stop.set()
        for fut in running:
            fut.result()
        raise
