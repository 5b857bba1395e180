"""Sensitivity: the complement of the mutant kill rate. Mutants show that the verifier rejects wrong
end states; alternative solutions show that it accepts right ones reached another way.

A task may hold `hidden/alternatives/NAME.py`, each a `solve(tools)` that reaches the goal another
reasonable way (one message per person instead of one to all, a reply instead of a new message,
another wording, another order). Each runs as the agent `oracle:NAME` in a fresh world, exactly like
the reference solution, and must score 100. Sensitivity is the share accepted; an alternative that
is not accepted names the rubric items that rejected it, which are the over-strict checks.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stageclaw.task.loader import Task
from stageclaw.validate.oracle import OracleRun, run_oracle
from stageclaw.validate.report import FAIL, PASS, WARNING, Check
from stageclaw.world.pool import ServicePool

NAME = "sensitivity"


@dataclass
class AlternativeRun:
    name: str
    run: OracleRun

    @property
    def accepted(self) -> bool:
        return self.run.solved

    def record(self) -> dict[str, Any]:
        """What the report keeps of one alternative: its score and, when rejected, why."""
        result = self.run.result
        rejected = [{"item": i["id"], "reason": i["reason"]} for i in result.get("items", []) if i["passed"] is False]
        return {
            "name": self.name,
            "accepted": self.accepted,
            "status": result.get("status"),
            "score": result.get("score"),
            "steps": result.get("steps"),
            "rejected_by": rejected,
            "error": result.get("error"),
            "episode": str(self.run.dir),
        }


def run_alternatives(
    task: Task, pool: ServicePool, folder: Path, stop: threading.Event | None = None
) -> list[AlternativeRun]:
    """Each alternative of `task` in a fresh world of its own; episodes go to `folder/NAME/`."""
    return [
        AlternativeRun(name, run_oracle(task, pool, folder / name, f"oracle:{name}", stop))
        for name in task.alternatives
    ]


def sensitivity(runs: list[AlternativeRun]) -> tuple[Check, dict[str, Any]]:
    """The `sensitivity` check of the verifiability dimension, and the report's `alternatives` section."""
    records = [r.record() for r in runs]
    accepted = sum(1 for r in records if r["accepted"])
    section = {
        "total": len(records),
        "accepted": accepted,
        "sensitivity": round(accepted / len(records), 4) if records else None,
        "results": records,
    }
    if not records:
        return Check(
            NAME,
            WARNING,
            "no alternative solutions: nothing shows that the verifier accepts a correct end state reached another way",
            section,
            "add hidden/alternatives/NAME.py, each a solve(tools) that reaches the goal another reasonable way "
            "(other wording, one message per person, a reply instead of a new mail, another order)",
        ), section
    detail = f"{accepted} of {len(records)} alternative solutions accepted ({100 * accepted / len(records):.0f}%)"
    rejected = [r for r in records if not r["accepted"]]
    if not rejected:
        return Check(NAME, PASS, detail + ": " + ", ".join(r["name"] for r in records), section), section
    why = "; ".join(_why(r) for r in rejected)
    return Check(
        NAME,
        FAIL,
        f"{detail}; rejected: {why}",
        section,
        "grade the outcome, not one way of reaching it: loosen the named items so that every alternative passes "
        "(or fix the alternative if it is wrong)",
    ), section


def _why(record: dict[str, Any]) -> str:
    failed = f" ({record['status']}: {record['error']})" if record["error"] else ""
    if record["rejected_by"]:
        items = ", ".join(f"{i['item']} ({i['reason']})" for i in record["rejected_by"])
        return f"{record['name']}{failed} scores {record['score']:g}, rejected by {items}"
    return f"{record['name']} did not finish{failed or ': ' + str(record['status'])}"
