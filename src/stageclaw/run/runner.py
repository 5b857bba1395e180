"""The scheduler: every task x trial as an episode, resumable, on a backend.

The local backend runs episodes on `workers` threads sharing one service pool (each episode has its
own accounts and workspace); the ray backend on `workers` Ray actors with a pool each. Either way
this process keeps the queue and is the one writer of the run directory's results: a finished
episode's line is in results.jsonl before the next starts on that worker. Ctrl-C (or SIGTERM)
stops handing out episodes and tells running agents to stop (their tool calls fail, LLM loops and
agent programs end); those episodes are not recorded, and `--resume` completes the run.
An episode that ended in an infrastructure error, or whose worker died, is retried
(`infra_retries` times, on any worker, after the worker's pool restarted what died) before its
infra_error line is written; `--resume` tries it again, up to `max_attempts` in all. Anything else
that escapes an episode is that task's `task_error`; the other episodes run on.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stageclaw.agents.base import INFRA_ERROR, TASK_ERROR
from stageclaw.agents.factory import check_spec
from stageclaw.errors import one_line
from stageclaw.grade.grader import Judge
from stageclaw.run.backend import Job, WorkerLost, drain, open_backend
from stageclaw.run.episode import run_episode, unfinished_episode
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
    infra_retries: int = 2  # an infra_error episode is tried again this many times in a run
    max_attempts: int = 9  # ... and --resume tries it again while it has had fewer attempts than this, in all
    agent_options: dict[str, Any] = field(default_factory=dict)
    faults: FaultPlan | None = None
    backend: str = "local"  # or "ray"
    address: str | None = None  # the Ray cluster to join (else a local one is started)

    def identity(self) -> dict[str, Any]:
        """The settings results depend on; trials, workers, backend and the output folder may change on resume."""
        options = {k: v for k, v in self.agent_options.items() if k not in {"api_key", "prices"}}
        return {
            "agent": self.agent,
            "agent_options": options,
            "faults": self.faults.model_dump() if self.faults else None,
        }


def summarize(results: list[dict[str, Any]], config: RunConfig, load_errors: dict[str, str]) -> dict[str, Any]:
    scored = [r for r in results if r.get("score") is not None]
    judged = [r["quality"] for r in scored if r.get("quality") is not None]
    return {
        "agent": config.agent,
        "episodes": len(results),
        "scored": len(scored),
        "unscored": len(results) - len(scored),
        "mean_score": round(sum(r["score"] for r in scored) / len(scored), 2) if scored else None,
        "success_rate": round(sum(1 for r in scored if r["success"]) / len(scored), 4) if scored else None,
        "mean_quality": round(sum(judged) / len(judged), 2) if judged else None,
        "judged": len(judged),
        "infra_errors": sum(1 for r in results if r["status"] == INFRA_ERROR),
        "task_errors": sum(1 for r in results if r["status"] == TASK_ERROR),
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
    pool: ServicePool | None = None,
) -> dict[str, Any]:
    """Run every episode not yet in the store; returns the summary (also written to summary.json).

    With the ray backend, `judge` is sent to the workers: wrap an LLM judge in `backend.Portable`.
    The local backend runs on `pool` when given (else a pool of its own).
    """
    check_spec(config.agent, config.agent_options)
    store = ResultStore(config.out, config.resume, config.identity(), config.max_attempts)
    done = store.done()
    jobs = [
        Job(_episode, (t, n, store.episode_dir(t.id, n), config, judge))
        for t in tasks
        for n in range(1, config.trials + 1)
        if (t.id, n) not in done
    ]

    def finished(job: Job[dict[str, Any]], fut: Future[dict[str, Any]]) -> Job[dict[str, Any]] | None:
        task, trial, ep_dir, _, _ = job.args
        try:
            result = fut.result()
        except (Exception, SystemExit) as exc:
            # A dead worker is the infrastructure's failure; anything else escaping an episode is this task's.
            status, error = (
                (INFRA_ERROR, str(exc))
                if isinstance(exc, WorkerLost)
                else (TASK_ERROR, f"{task.dir}: stageclaw failed on this episode: {one_line(exc)}")
            )
            result = unfinished_episode(
                task,
                config.agent,
                trial,
                ep_dir,
                status,
                error,
                agent_options=config.agent_options,
                faults=config.faults,
            )
        if result["status"] == INFRA_ERROR and job.attempt <= config.infra_retries:
            return job.again()
        result["attempts"] = store.attempts.get((task.id, trial), 0) + job.attempt
        store.append(result)
        if on_result is not None:
            on_result(result)
        return None

    try:
        if jobs:
            with open_backend(config.backend, config.workers, config.address, pool) as backend:
                drain(backend, jobs, finished)
    finally:
        try:
            summary = summarize(store.results(), config, load_errors or {})
            write_json(config.out / SUMMARY, summary)
        finally:
            store.close()
    return summary


def _episode(
    pool: ServicePool,
    stop: threading.Event,
    task: Task,
    trial: int,
    ep_dir: Path,
    config: RunConfig,
    judge: Judge | None,
) -> dict[str, Any]:
    """One attempt at an episode, on a worker."""
    return run_episode(
        pool,
        task,
        config.agent,
        trial,
        ep_dir,
        judge,
        agent_options=config.agent_options,
        faults=config.faults,
        stop=stop,
    )
