"""One episode: a fresh world, the agent with its tools, s0 and sH, grading, the episode folder."""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path
from typing import Any

from stageclaw import __version__
from stageclaw.agents.base import (
    AGENT_ERROR,
    COMPLETED,
    INFRA_ERROR,
    TASK_ERROR,
    Agent,
    AgentOutcome,
    EpisodeBrief,
)
from stageclaw.agents.factory import make_agent
from stageclaw.errors import ServiceError, WorldError, one_line
from stageclaw.grade.grader import Grade, Judge, grade
from stageclaw.run.store import run_dir_of, write_json
from stageclaw.task.loader import Task
from stageclaw.tools.audit import AuditLog
from stageclaw.tools.faults import FaultPlan
from stageclaw.tools.registry import Registry
from stageclaw.world.pool import ServicePool


def brief_for(task: Task) -> EpisodeBrief:
    world = task.world
    return EpisodeBrief(
        prompt=task.prompt,
        user_name=world.user.name,
        user_email=world.user.email,
        now=world.now.isoformat(),
        timezone=world.timezone,
        max_steps=task.config.max_steps,
        time_budget_s=task.config.time_budget_s,
    )


def trace_of(audit: AuditLog, outcome: AgentOutcome) -> dict[str, Any]:
    """What a verifier sees of the trajectory."""
    steps = []
    for e in audit.entries:
        step = {"tool": e["tool"], "args": e["args"], "ok": e["ok"]}
        step["result" if e["ok"] else "error"] = e.get("result") if e["ok"] else e.get("error")
        steps.append(step)
    return {"final_answer": outcome.final_answer, "status": outcome.status, "steps": steps}


def failure_mode(status: str, g: Grade | None) -> str | None:
    if status == INFRA_ERROR:
        return "infrastructure"
    if status == TASK_ERROR:
        return "task_defect"
    if g is None or g.success:
        return None
    if status == AGENT_ERROR:
        return "agent_error"
    if status != COMPLETED:
        return "budget_exhausted"
    if not g.changes:
        return "no_change"
    failed = [i for i in g.items if i.passed is False]
    if [i.id for i in failed] == ["no_collateral_damage"]:
        return "collateral_damage"
    return "wrong_state"


def play(
    pool: ServicePool,
    task: Task,
    agent: Agent,
    audit: AuditLog,
    *,
    faults: FaultPlan | None = None,
    stop: threading.Event | None = None,
) -> tuple[dict[str, Any], dict[str, Any], AgentOutcome]:
    """A fresh world of `task` with `agent` acting on its tools: (s0, sH, outcome), calls in `audit`.

    Dead servers are restarted first. Raises ServiceError when a server of the pool fails during the
    episode (even if restarted since), WorldError when the task's world cannot be built. The agent's own
    failures are its outcome. Other harnesses (Inspect AI) grade what it returns.
    """
    pool.heal()
    generation = pool.generation
    try:
        episode = pool.episode(task.world, task.dir)
    except ServiceError:
        raise
    except Exception as exc:
        message = str(exc) if isinstance(exc, WorldError) else one_line(exc)
        raise WorldError(f"{task.dir / 'world.yaml'}: the world does not build: {message}") from exc
    with episode:
        s0 = episode.snapshot()
        with Registry(episode, allow=task.config.tools, audit=audit, faults=faults, stop=stop) as registry:
            try:
                outcome = agent.run(brief_for(task), registry)
            except ServiceError:
                raise
            except (Exception, SystemExit) as exc:  # SystemExit: a program's sys.exit() must not end the harness
                outcome = AgentOutcome(AGENT_ERROR, error=f"the agent failed: {one_line(exc)}")
        pool.check(since=generation)
        sH = episode.snapshot()
    return s0, sH, outcome


def run_episode(
    pool: ServicePool,
    task: Task,
    agent_spec: str,
    trial: int,
    ep_dir: Path,
    judge: Judge | None = None,
    *,
    agent_options: dict[str, Any] | None = None,
    faults: FaultPlan | None = None,
    stop: threading.Event | None = None,
) -> dict[str, Any]:
    """Run and grade one episode; write its folder; return its results.jsonl line."""
    agent = _fresh(task, agent_spec, ep_dir, agent_options)
    started = time.perf_counter()
    audit = AuditLog(ep_dir / "audit.jsonl")
    g: Grade | None = None
    try:
        s0, sH, outcome = play(pool, task, agent, audit, faults=faults, stop=stop)
        if outcome.status != INFRA_ERROR:
            g = grade(task, s0, sH, trace_of(audit, outcome), judge)
        write_json(ep_dir / "s0.json", s0)
        write_json(ep_dir / "sH.json", sH)
    except ServiceError as exc:
        outcome = AgentOutcome(INFRA_ERROR, error=str(exc))
    except WorldError as exc:
        outcome = AgentOutcome(TASK_ERROR, error=str(exc))
    except Exception as exc:  # grading or reading the state broke on this task: its defect, not the run's
        outcome = AgentOutcome(TASK_ERROR, error=f"{task.dir}: stageclaw failed on this task: {one_line(exc)}")
    wall = round(time.perf_counter() - started, 3)
    return _record(task, agent_spec, trial, ep_dir, agent, outcome, audit, g, wall, faults)


def unfinished_episode(
    task: Task,
    agent_spec: str,
    trial: int,
    ep_dir: Path,
    status: str,
    error: str,
    *,
    agent_options: dict[str, Any] | None = None,
    faults: FaultPlan | None = None,
) -> dict[str, Any]:
    """The line (and folder) of an episode that returned none: its worker died (infra_error) or the
    harness failed on it before it started (task_error)."""
    outcome = AgentOutcome(status, error=error)
    try:
        agent = _fresh(task, agent_spec, ep_dir, agent_options)
    except Exception:  # the failure may be in making the agent: record the episode all the same
        agent = None
    audit = AuditLog(ep_dir / "audit.jsonl")
    return _record(task, agent_spec, trial, ep_dir, agent, outcome, audit, None, 0.0, faults)


def _twin(task: Task) -> dict[str, Any] | None:
    """The private twin of a suite the task belongs to (`generate --suite ... --reseed N`), if any."""
    prov = task.config.provenance
    return {"suite": prov.suite, "reseed": prov.reseed} if prov.reseed is not None else None


def _fresh(task: Task, agent_spec: str, ep_dir: Path, agent_options: dict[str, Any] | None) -> Agent:
    """An empty episode folder and the agent for it."""
    shutil.rmtree(ep_dir, ignore_errors=True)  # leftovers of an attempt that was interrupted
    ep_dir.mkdir(parents=True)
    return make_agent(agent_spec, task, ep_dir / "agent", agent_options, run_dir=run_dir_of(ep_dir))


def _record(
    task: Task,
    agent_spec: str,
    trial: int,
    ep_dir: Path,
    agent: Agent | None,
    outcome: AgentOutcome,
    audit: AuditLog,
    g: Grade | None,
    wall: float,
    faults: FaultPlan | None,
) -> dict[str, Any]:
    """Write the episode's trajectory (and grade); return its results.jsonl line."""
    trace = trace_of(audit, outcome)
    tool_errors = sum(1 for s in trace["steps"] if not s["ok"])
    write_json(
        ep_dir / "trajectory.json",
        {
            "task_id": task.id,
            "agent": agent_spec,
            "trial": trial,
            "prompt": task.prompt,
            "status": outcome.status,
            "error": outcome.error,
            "final_answer": outcome.final_answer,
            "messages": outcome.messages,
            "steps": audit.entries,
            "usage": outcome.usage,
            "wall_s": wall,
        },
    )
    if g is not None:
        write_json(ep_dir / "grade.json", g.to_json())
    return {
        "task_id": task.id,
        "agent": agent_spec,
        "trial": trial,
        "status": outcome.status,
        "error": outcome.error,
        "score": g.score if g else None,
        "success": g.success if g else None,
        "quality": g.quality if g else None,
        "items": [
            {
                "id": i.id,
                "kind": i.kind,
                "passed": i.passed,
                "weight": i.weight,
                "critical": i.critical,
                "reason": i.reason,
            }
            for i in g.items
        ]
        if g
        else [],
        "collateral": g.collateral if g else [],
        "defects": g.defects if g else [outcome.error] if outcome.status == TASK_ERROR else [],
        "steps": len(trace["steps"]),
        "tool_errors": tool_errors,
        "tokens": outcome.usage,
        "cost_usd": outcome.cost_usd,
        "wall_s": wall,
        "failure_mode": failure_mode(outcome.status, g),
        "group": task.config.group,
        "operators": task.config.operators,
        "twin": _twin(task),
        "task_hash": task.digest,
        "stageclaw_version": __version__,
        "agent_config": agent.config if agent is not None else {},
        "faults": faults.model_dump() if faults is not None else None,
    }
