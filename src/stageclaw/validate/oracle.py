"""The reference solution run as any agent is run: a real episode, the public tools, the grader.

The episode folder is kept as evidence (trajectory, s0, sH, audit log, grade); s0, sH and the
trace the grader saw are read back from it for the other checks. Alternative solutions
(`oracle:NAME`) run the same way.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stageclaw.agents.base import INFRA_ERROR, AgentOutcome
from stageclaw.errors import ServiceError
from stageclaw.run.episode import run_episode, trace_of
from stageclaw.task.loader import Task
from stageclaw.tools.audit import AuditLog, read
from stageclaw.world.pool import ServicePool


@dataclass
class OracleRun:
    result: dict[str, Any]  # the episode's results.jsonl line
    dir: Path
    s0: dict[str, Any] | None = None
    sH: dict[str, Any] | None = None
    trace: dict[str, Any] | None = None

    @property
    def solved(self) -> bool:
        return bool(self.result.get("success")) and self.result.get("score") == 100

    @property
    def ran(self) -> bool:
        return self.sH is not None


def run_oracle(
    task: Task, pool: ServicePool, ep_dir: Path, agent: str = "oracle", stop: threading.Event | None = None
) -> OracleRun:
    """Run the reference solution (or `agent`, e.g. `oracle:NAME` for an alternative) in a fresh world;
    raises ServiceError when the servers failed under it."""
    result = run_episode(pool, task, agent, 1, ep_dir, stop=stop)
    if result["status"] == INFRA_ERROR:
        raise ServiceError(result["error"] or f"the servers failed during the episode of {agent}")
    run = OracleRun(result, ep_dir)
    if not (ep_dir / "sH.json").is_file():
        return run
    trajectory = json.loads((ep_dir / "trajectory.json").read_text(encoding="utf-8"))
    audit = AuditLog()
    audit.entries = read(ep_dir / "audit.jsonl")
    outcome = AgentOutcome(trajectory["status"], final_answer=trajectory.get("final_answer") or "")
    run.s0 = json.loads((ep_dir / "s0.json").read_text(encoding="utf-8"))
    run.sH = json.loads((ep_dir / "sH.json").read_text(encoding="utf-8"))
    run.trace = trace_of(audit, outcome)
    return run
